//! A running `arbor serve` for integration tests: its output read line by line (stdout and
//! stderr, each line with when it was read), bounded waits for a line, and SIGTERM with a
//! bounded wait for the exit. The process is killed and its folder removed when dropped.

#![allow(dead_code)] // each test binary uses a part of it

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::Receiver;
use std::time::{Duration, Instant};

/// A running `arbor serve` and its output lines, each with when it was read.
/// A running `arbor serve`.
pub struct Server {
    child: Child,
    lines: Receiver<(Instant, String)>,
    seen: Vec<(Instant, String)>,
    dir: PathBuf,
}

impl Server {
    /// `arbor serve ARGS --listen 127.0.0.1:0 --insecure --grace 10` (a free loopback port),
    /// talking to the sidecar on `sidecar_port` through `AGONES_SDK_HTTP_PORT`; stdout and
    /// stderr are both read. `dir` is removed when the server is dropped.
    pub fn start(dir: &Path, args: &[&str], sidecar_port: u16) -> Server {
        std::fs::create_dir_all(dir).unwrap();
        let mut child = Command::new(env!("CARGO_BIN_EXE_arbor"))
            .arg("serve")
            .args(args)
            .args(["--listen", "127.0.0.1:0", "--insecure", "--grace", "10"])
            .env("AGONES_SDK_HTTP_PORT", sidecar_port.to_string())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start arbor serve");
        let (tx, lines) = std::sync::mpsc::channel();
        for stream in [
            Box::new(child.stdout.take().unwrap()) as Box<dyn std::io::Read + Send>,
            Box::new(child.stderr.take().unwrap()),
        ] {
            let tx = tx.clone();
            std::thread::spawn(move || {
                for line in BufReader::new(stream).lines() {
                    let Ok(line) = line else { return };
                    let _ = tx.send((Instant::now(), line));
                }
            });
        }
        Server { child, lines, seen: Vec::new(), dir: dir.to_owned() }
    }

    /// Reads lines until one satisfies `what` (returning it), failing after `limit`.
    pub fn wait_line(&mut self, limit: Duration, what: impl Fn(&str) -> bool) -> (Instant, String) {
        if let Some(found) = self.seen.iter().find(|(_, l)| what(l)) {
            return found.clone();
        }
        let until = Instant::now() + limit;
        loop {
            match self.lines.recv_timeout(until.saturating_duration_since(Instant::now())) {
                Ok(line) => {
                    self.seen.push(line.clone());
                    if what(&line.1) {
                        return line;
                    }
                }
                Err(_) => panic!("timed out; the server said:\n{}", self.log()),
            }
        }
    }

    /// The bound address, from the `listening on` line.
    pub fn addr(&mut self) -> String {
        let (_, line) = self.wait_line(Duration::from_secs(20), |l| l.starts_with("listening on "));
        line["listening on ".len()..].split_whitespace().next().unwrap().to_owned()
    }

    /// Everything read so far.
    pub fn log(&mut self) -> String {
        self.seen.extend(self.lines.try_iter());
        self.seen.iter().map(|(_, l)| l.as_str()).collect::<Vec<_>>().join("\n")
    }

    /// Sends SIGTERM; waits (at most `limit`) for the exit; returns whether it succeeded and
    /// when it was seen to exit.
    pub fn terminate(&mut self, limit: Duration) -> (bool, Instant) {
        let kill = Command::new("kill").args(["-TERM", &self.child.id().to_string()]).status().unwrap();
        assert!(kill.success());
        let until = Instant::now() + limit;
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return (status.success(), Instant::now());
            }
            if Instant::now() >= until {
                let _ = self.child.kill();
                panic!("did not exit within {limit:?}:\n{}", self.log());
            }
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        std::fs::remove_dir_all(&self.dir).ok();
    }
}
