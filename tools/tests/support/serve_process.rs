//! A real `arbor` process for integration tests: spawned with piped stdout, its lines read on
//! a thread, and waits on what it printed that fail with everything it said after a bound.
#![allow(dead_code)]

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::Receiver;
use std::time::{Duration, Instant};

/// A running `arbor` command and the lines it printed so far.
pub struct ArborProcess {
    pub child: Child,
    lines: Receiver<String>,
    pub seen: Vec<String>,
}

impl ArborProcess {
    /// Starts `arbor ARGS…` (stderr discarded).
    pub fn start(args: &[&str]) -> Self {
        Self::start_with(Command::new(env!("CARGO_BIN_EXE_arbor")).args(args))
    }

    /// Starts a prepared `arbor` command with stdout piped (stderr discarded).
    pub fn start_with(command: &mut Command) -> Self {
        let mut child = command.stdout(Stdio::piped()).stderr(Stdio::null()).spawn().expect("start arbor");
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Self { child, lines, seen: Vec::new() }
    }

    /// Reads lines until `what` holds of all seen so far; panics with them after `limit`.
    pub fn wait_for(&mut self, what: &dyn Fn(&[String]) -> bool, limit: Duration) {
        let until = Instant::now() + limit;
        while !what(&self.seen) {
            match self.lines.recv_timeout(until.saturating_duration_since(Instant::now())) {
                Ok(line) => self.seen.push(line),
                Err(_) => panic!("timed out; the process said: {:#?}", self.seen),
            }
        }
    }

    /// Waits for a line starting with `prefix` and returns its first word after the prefix
    /// (an address, in `listening on ADDR (…)`).
    pub fn word_after(&mut self, prefix: &str, limit: Duration) -> String {
        self.wait_for(&|s| s.iter().any(|l| l.starts_with(prefix)), limit);
        let line = self.seen.iter().find(|l| l.starts_with(prefix)).unwrap();
        line[prefix.len()..].split_whitespace().next().unwrap().to_owned()
    }

    /// Sends SIGTERM (a graceful stop).
    pub fn terminate(&self) {
        let kill = Command::new("kill").args(["-TERM", &self.child.id().to_string()]).status().unwrap();
        assert!(kill.success());
    }

    /// Waits for the exit and reads every remaining line; returns whether it succeeded.
    pub fn finish(&mut self) -> bool {
        let status = self.child.wait().unwrap();
        while let Ok(line) = self.lines.recv_timeout(Duration::from_secs(5)) {
            self.seen.push(line);
        }
        status.success()
    }

    /// Everything printed so far, one line each.
    pub fn log(&self) -> String {
        self.seen.join("\n")
    }
}

impl Drop for ArborProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
