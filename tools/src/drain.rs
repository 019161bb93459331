//! A graceful stop for `arbor serve`: the first SIGTERM or Ctrl-C starts a drain, a second
//! stops at once.
//!
//! Draining: the server admits no one new (a client that connects is told why and dropped),
//! kicks every player with [`SHUTDOWN_REASON`] so each session ends and the scripts'
//! `PlayerLeft` runs (where games save), and keeps ticking until every player has left and
//! been told why, or the grace period runs out (then it says what it
//! abandoned). The serve loop then stops as it always does: local stores made durable,
//! cloud puts landed and session locks released (within what is left of the grace period,
//! at least [`MIN_STORE_WAIT`]; past it, what was abandoned is printed), `--save` written,
//! clients disconnected.
//!
//! Invariant: the tick keeps running while draining, so leave handlers, store commits and
//! cloud callbacks proceed exactly as in a running server.

use arbor_net::{NetServer, SHUTDOWN_REASON};
use arbor_sim::Simulation;
use std::cell::RefCell;
use std::collections::BTreeSet;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// The least time the stores get to finish after a drain, even one that used its whole
/// grace period.
pub const MIN_STORE_WAIT: Duration = Duration::from_secs(1);

/// Stop requests counted by the signal handler.
pub struct StopSignal(Arc<AtomicUsize>);

impl StopSignal {
    /// Installs the SIGTERM/SIGINT handler: the first signal asks for a graceful stop, the
    /// second exits at once (status 130).
    pub fn install() -> Result<Self, String> {
        let count = Arc::new(AtomicUsize::new(0));
        let seen = Arc::clone(&count);
        ctrlc::set_handler(move || {
            if seen.fetch_add(1, Ordering::SeqCst) >= 1 {
                eprintln!(
                    "second signal: stopping at once; players still in session and store writes not yet durable are abandoned"
                );
                std::process::exit(130);
            }
        })
        .map_err(|e| format!("installing the signal handler: {e}"))?;
        Ok(Self(count))
    }

    /// Whether a stop was asked for.
    pub fn requested(&self) -> bool {
        self.0.load(Ordering::SeqCst) > 0
    }
}

/// A drain in progress.
pub struct Drain {
    started: Instant,
    grace: Duration,
    players: usize,
    /// Players whose kick is queued (the sessions take a bounded number a tick).
    asked: BTreeSet<u64>,
}

impl Drain {
    /// Starts draining: the network (if any) stops admitting, and every player's kick is
    /// queued ([`kick_the_rest`](Self::kick_the_rest)).
    pub fn start(sim: &mut Simulation, net: Option<&RefCell<NetServer>>, grace: Duration) -> Self {
        if let Some(net) = net {
            net.borrow_mut().drain(SHUTDOWN_REASON);
        }
        let mut drain =
            Self { started: Instant::now(), grace, players: sim.players.len(), asked: BTreeSet::new() };
        drain.kick_the_rest(sim);
        drain
    }

    /// Queues the kick of every player not yet asked to leave, as far as the sessions' kick
    /// queue has room (called every tick while draining).
    pub fn kick_the_rest(&mut self, sim: &mut Simulation) {
        let users: Vec<u64> = sim.players.user_ids().filter(|u| !self.asked.contains(u)).collect();
        for user in users {
            if !sim.players.kick(user, Some(SHUTDOWN_REASON)) {
                break;
            }
            self.asked.insert(user);
        }
    }

    /// The line announcing the drain.
    pub fn begin_line(&self) -> String {
        format!(
            "stopping: draining {} player{} (grace {:.0} s; a second signal stops at once)",
            self.players,
            if self.players == 1 { "" } else { "s" },
            self.grace.as_secs_f64()
        )
    }

    /// When the stores' shutdown must end: the end of the grace period, or
    /// [`MIN_STORE_WAIT`] from now if that is later.
    pub fn store_deadline(&self) -> Instant {
        (self.started + self.grace).max(Instant::now() + MIN_STORE_WAIT)
    }

    /// `Some(line)` once the drain is over: every session ended, every `PlayerLeft` ran and
    /// every kicked player was told why (acknowledged, or past the kick's grace), or the grace
    /// period ran out (the line says what was abandoned).
    pub fn finished(&self, sim: &Simulation, net: Option<&RefCell<NetServer>>) -> Option<String> {
        let players = sim.players.len() + sim.players.leaving().len();
        let kicked = net.map_or(0, |n| n.borrow().kicks_in_flight());
        let elapsed = self.started.elapsed();
        if players == 0 && kicked == 0 {
            return Some(format!("drained in {:.2} s: every player left", elapsed.as_secs_f64()));
        }
        (elapsed >= self.grace).then(|| {
            format!(
                "drain: the {:.0} s grace period ran out; abandoned {players} player{} still in session (their PlayerLeft may not have run) and {kicked} client{} not yet gone",
                self.grace.as_secs_f64(),
                if players == 1 { "" } else { "s" },
                if kicked == 1 { "" } else { "s" },
            )
        })
    }
}
