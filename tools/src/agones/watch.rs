//! The watch thread: follows this server's GameServer through the sidecar's
//! `/watch/gameserver` stream and keeps its last known state.
//!
//! Rules: the stream is read with no timeout (updates come when the cluster acts); when it
//! ends or cannot be opened the thread opens it again after a pause that doubles from
//! [`RETRY_MIN`] to [`RETRY_MAX`] and starts over once a line arrives. A change of state to
//! `Allocated` is announced on stdout. Once the server is stopping the thread ends quietly.

use super::complaints::Complaints;
use super::game_server::{ALLOCATED, GameServer, WatchLine};
use super::sdk::Sdk;
use std::io::BufRead;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// The first pause before the stream is opened again.
const RETRY_MIN: Duration = Duration::from_millis(500);

/// The longest pause before the stream is opened again.
const RETRY_MAX: Duration = Duration::from_secs(30);

/// What the watch thread shares with the server.
#[derive(Default)]
pub struct Watched {
    /// The GameServer's last known state (`Ready`, `Allocated`, ...), `None` before the first.
    pub state: Mutex<Option<String>>,
    /// Set when the server stops: the thread ends at its next chance, without complaint.
    pub stopping: AtomicBool,
}

/// Follows the stream until the server stops.
pub fn run(sdk: Sdk, watched: Arc<Watched>) {
    let mut complaints = Complaints::default();
    let mut pause = RETRY_MIN;
    while !watched.stopping.load(Ordering::Relaxed) {
        match sdk.watch() {
            Ok(stream) => {
                for line in stream.lines() {
                    if watched.stopping.load(Ordering::Relaxed) {
                        return;
                    }
                    let line = match line {
                        Ok(line) => line,
                        Err(e) => {
                            complaints.report_failure("the GameServer watch", &e);
                            break;
                        }
                    };
                    match WatchLine::parse(&line) {
                        Ok(None) => {}
                        Ok(Some(WatchLine::Update(gs))) => {
                            complaints.report_success();
                            pause = RETRY_MIN;
                            record(&watched, &gs);
                        }
                        Ok(Some(WatchLine::Error(e))) => {
                            complaints.report_failure("the GameServer watch", &e)
                        }
                        Err(e) => complaints.report_failure("the GameServer watch", &e),
                    }
                }
            }
            Err(e) => {
                if !watched.stopping.load(Ordering::Relaxed) {
                    complaints.report_failure("the GameServer watch", &e);
                }
            }
        }
        std::thread::sleep(pause);
        pause = (pause * 2).min(RETRY_MAX);
    }
}

/// Keeps the GameServer's state, announcing a change to `Allocated`.
fn record(watched: &Watched, gs: &GameServer) {
    let state = &gs.status.state;
    if state.is_empty() {
        return;
    }
    let mut last = watched.state.lock().unwrap_or_else(|p| p.into_inner());
    if last.as_deref() != Some(state.as_str()) {
        if state == ALLOCATED {
            let players = match gs.players() {
                Some((n, capacity)) => format!("; players list {n} of {capacity}"),
                None => String::new(),
            };
            println!("agones: this server was allocated (GameServer {}{players})", gs.object_meta.name);
        }
        *last = Some(state.clone());
    }
}
