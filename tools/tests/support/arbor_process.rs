//! A real `arbor` process for integration tests: its stdout and stderr read line by line on
//! threads (each line with when it was read), bounded waits for what it printed that fail
//! with everything it said, and SIGTERM with a bounded wait for the exit. The process is
//! killed (and its scratch folder, if it has one, removed) when dropped.

#![allow(dead_code)] // each test binary uses a part of it

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::Receiver;
use std::time::{Duration, Instant};

/// A running `arbor` command and the lines it printed so far.
pub struct ArborProcess {
    pub child: Child,
    lines: Receiver<(Instant, String)>,
    seen: Vec<(Instant, String)>,
    /// Removed when dropped.
    dir: Option<PathBuf>,
}

impl ArborProcess {
    /// Starts `arbor ARGS…`.
    pub fn start(args: &[&str]) -> Self {
        Self::start_with(Command::new(env!("CARGO_BIN_EXE_arbor")).args(args), None)
    }

    /// `arbor serve ARGS --listen 127.0.0.1:0 --insecure --grace 10` (a free loopback port),
    /// talking to the Agones sidecar on `sidecar_port` through `AGONES_SDK_HTTP_PORT`. `dir`
    /// is created now and removed when the process is dropped.
    pub fn start_serve(dir: &Path, args: &[&str], sidecar_port: u16) -> Self {
        std::fs::create_dir_all(dir).unwrap();
        let mut command = Command::new(env!("CARGO_BIN_EXE_arbor"));
        command
            .arg("serve")
            .args(args)
            .args(["--listen", "127.0.0.1:0", "--insecure", "--grace", "10"])
            .env("AGONES_SDK_HTTP_PORT", sidecar_port.to_string());
        Self::start_with(&mut command, Some(dir.to_owned()))
    }

    /// Starts a prepared `arbor` command with stdout and stderr read.
    pub fn start_with(command: &mut Command, dir: Option<PathBuf>) -> Self {
        let mut child = command.stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().expect("start arbor");
        let (tx, lines) = std::sync::mpsc::channel();
        for stream in [
            Box::new(child.stdout.take().unwrap()) as Box<dyn std::io::Read + Send>,
            Box::new(child.stderr.take().unwrap()),
        ] {
            let tx = tx.clone();
            std::thread::spawn(move || {
                for line in BufReader::new(stream).lines().map_while(Result::ok) {
                    if tx.send((Instant::now(), line)).is_err() {
                        return;
                    }
                }
            });
        }
        Self { child, lines, seen: Vec::new(), dir }
    }

    /// Reads lines until `what` holds of all seen so far; panics with them after `limit`.
    pub fn wait_for(&mut self, what: &dyn Fn(&[String]) -> bool, limit: Duration) {
        let until = Instant::now() + limit;
        loop {
            let lines: Vec<String> = self.seen.iter().map(|(_, l)| l.clone()).collect();
            if what(&lines) {
                return;
            }
            self.next_line(until);
        }
    }

    /// Reads lines until one satisfies `what` (returning it and when it was read); panics
    /// with everything read after `limit`.
    pub fn wait_line(&mut self, limit: Duration, what: impl Fn(&str) -> bool) -> (Instant, String) {
        if let Some(found) = self.seen.iter().find(|(_, l)| what(l)) {
            return found.clone();
        }
        let until = Instant::now() + limit;
        loop {
            let line = self.next_line(until);
            if what(&line.1) {
                return line;
            }
        }
    }

    fn next_line(&mut self, until: Instant) -> (Instant, String) {
        match self.lines.recv_timeout(until.saturating_duration_since(Instant::now())) {
            Ok(line) => {
                self.seen.push(line.clone());
                line
            }
            Err(_) => panic!("timed out; the process said:\n{}", self.log()),
        }
    }

    /// Waits for a line starting with `prefix` and returns its first word after the prefix
    /// (an address, in `listening on ADDR (…)`).
    pub fn word_after(&mut self, prefix: &str, limit: Duration) -> String {
        let (_, line) = self.wait_line(limit, |l| l.starts_with(prefix));
        line[prefix.len()..].split_whitespace().next().unwrap().to_owned()
    }

    /// The bound address, from the `listening on` line.
    pub fn addr(&mut self) -> String {
        self.word_after("listening on ", Duration::from_secs(20))
    }

    /// Sends SIGTERM (a graceful stop).
    pub fn terminate(&self) {
        let kill = Command::new("kill").args(["-TERM", &self.child.id().to_string()]).status().unwrap();
        assert!(kill.success());
    }

    /// Sends SIGTERM and waits at most `limit` for the exit; returns whether it succeeded and
    /// when it was seen to exit.
    pub fn stop_within(&mut self, limit: Duration) -> (bool, Instant) {
        self.terminate();
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

    /// Waits for the exit and reads every remaining line; returns whether it succeeded.
    pub fn finish(&mut self) -> bool {
        let status = self.child.wait().unwrap();
        while let Ok(line) = self.lines.recv_timeout(Duration::from_secs(5)) {
            self.seen.push(line);
        }
        status.success()
    }

    /// Everything read so far, one line each.
    pub fn log(&mut self) -> String {
        self.seen.extend(self.lines.try_iter());
        self.seen.iter().map(|(_, l)| l.as_str()).collect::<Vec<_>>().join("\n")
    }
}

impl Drop for ArborProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        if let Some(dir) = &self.dir {
            std::fs::remove_dir_all(dir).ok();
        }
    }
}

/// Writes `dir/FILE`, a place whose Script `script` prints `joined USER` on each join and
/// `LEAVE_WORD USER` on each leave (where a game would save); returns its path.
pub fn write_session_place(dir: &Path, file: &str, script: &str, leave_word: &str) -> PathBuf {
    std::fs::create_dir_all(dir).unwrap();
    let place = dir.join(file);
    let source = format!(
        "game.Session.PlayerJoined:Connect(function(userId) print('joined ' .. userId) end)\\n\
         game.Session.PlayerLeft:Connect(function(_character, userId) print('{leave_word} ' .. userId) end)"
    );
    let json = format!(
        r#"{{"format": "arbor-place", "version": 1, "instances": [
            {{"class": "Workspace", "name": "Workspace", "children": [
                {{"class": "Script", "name": "{script}", "source": "{source}"}}]}}]}}"#
    );
    std::fs::write(&place, json).unwrap();
    place
}
