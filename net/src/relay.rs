//! [`LossyRelay`]: a test shim for latency and loss on real sockets. A UDP relay on the
//! loopback interface stands between one client and a server: the client connects to the
//! relay's address, and every datagram either way is held for the configured one-way delay
//! (half the round trip) plus a random jitter, and dropped with the configured probability,
//! both chosen by a generator seeded for repeatable runs (a jittered datagram may overtake
//! an earlier one, as on a real network); it can also drop the server's first netcode
//! keep-alives, a fault in the handshake. For tests and measurements
//! (`net/tests/prediction.rs`, `net/tests/handshake.rs`); a relay sees only netcode's
//! encrypted packets and their plaintext type byte.
//!
//! Invariants: the relay binds only 127.0.0.1; it holds at most [`MAX_HELD`] datagrams (past
//! that new ones are dropped and counted); its thread stops when the relay is dropped.

use std::collections::VecDeque;
use std::io;
use std::net::{Ipv4Addr, SocketAddr, UdpSocket};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// Datagrams held in flight at most.
pub const MAX_HELD: usize = 16_384;

/// How a relay degrades the link.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RelayConfig {
    /// Delay each way (half the round trip added).
    pub one_way: Duration,
    /// Extra delay of each datagram, uniform in 0..=`jitter`, each way.
    pub jitter: Duration,
    /// Fraction of datagrams dropped, each way (0 to 1).
    pub loss: f64,
    /// Seed of the loss generator.
    pub seed: u64,
    /// The first this many netcode keep-alives from the server are dropped as well (a fault
    /// in the handshake, whose last step is the server's keep-alive).
    pub lose_keep_alives: u32,
}

/// netcode's packet type of a keep-alive (the low four bits of a packet's first byte).
const KEEP_ALIVE: u8 = 4;

/// Counters of a relay.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RelayStats {
    /// Datagrams delivered.
    pub forwarded: u64,
    /// Datagrams dropped (by the loss fraction, as lost keep-alives, or past [`MAX_HELD`]).
    pub dropped: u64,
}

/// A running relay.
pub struct LossyRelay {
    addr: SocketAddr,
    stop: Arc<AtomicBool>,
    forwarded: Arc<AtomicU64>,
    dropped: Arc<AtomicU64>,
    thread: Option<JoinHandle<()>>,
}

struct Held {
    due: Instant,
    to_server: bool,
    bytes: Vec<u8>,
}

/// xorshift64*: the next number, uniform in 0..1.
fn uniform(state: &mut u64) -> f64 {
    *state ^= *state >> 12;
    *state ^= *state << 25;
    *state ^= *state >> 27;
    let r = state.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 11;
    r as f64 / (1u64 << 53) as f64
}

impl LossyRelay {
    /// Starts a relay to `server` (a loopback address) degrading the link as `config` says.
    pub fn start(server: SocketAddr, config: RelayConfig) -> io::Result<LossyRelay> {
        let front = UdpSocket::bind((Ipv4Addr::LOCALHOST, 0))?;
        let back = UdpSocket::bind((Ipv4Addr::LOCALHOST, 0))?;
        back.connect(server)?;
        front.set_nonblocking(true)?;
        back.set_nonblocking(true)?;
        let addr = front.local_addr()?;
        let stop = Arc::new(AtomicBool::new(false));
        let forwarded = Arc::new(AtomicU64::new(0));
        let dropped = Arc::new(AtomicU64::new(0));
        let (s, f, d) = (stop.clone(), forwarded.clone(), dropped.clone());
        let thread = std::thread::Builder::new().name("lossy-relay".into()).spawn(move || {
            let mut client: Option<SocketAddr> = None;
            let mut held: VecDeque<Held> = VecDeque::new();
            let mut buf = [0u8; 2048];
            let mut rng = config.seed | 1;
            let mut keep_alives_lost = 0;
            while !s.load(Ordering::Relaxed) {
                let now = Instant::now();
                let mut take = |bytes: &[u8], to_server: bool, held: &mut VecDeque<Held>| {
                    let lost_keep_alive = !to_server
                        && bytes.first().is_some_and(|b| b & 0x0f == KEEP_ALIVE)
                        && keep_alives_lost < config.lose_keep_alives;
                    keep_alives_lost += u32::from(lost_keep_alive);
                    if lost_keep_alive || held.len() >= MAX_HELD || uniform(&mut rng) < config.loss {
                        d.fetch_add(1, Ordering::Relaxed);
                    } else {
                        let extra = if config.jitter.is_zero() {
                            Duration::ZERO
                        } else {
                            config.jitter.mul_f64(uniform(&mut rng))
                        };
                        let due = now + config.one_way + extra;
                        let at = held.partition_point(|h| h.due <= due);
                        held.insert(at, Held { due, to_server, bytes: bytes.to_vec() });
                    }
                };
                while let Ok((n, from)) = front.recv_from(&mut buf) {
                    client = Some(from);
                    take(&buf[..n], true, &mut held);
                }
                while let Ok(n) = back.recv(&mut buf) {
                    take(&buf[..n], false, &mut held);
                }
                // The queue is kept in due order.
                while held.front().is_some_and(|h| h.due <= now) {
                    let Some(h) = held.pop_front() else { break };
                    let sent = match (h.to_server, client) {
                        (true, _) => back.send(&h.bytes).is_ok(),
                        (false, Some(c)) => front.send_to(&h.bytes, c).is_ok(),
                        (false, None) => false,
                    };
                    if sent {
                        f.fetch_add(1, Ordering::Relaxed);
                    }
                }
                std::thread::sleep(Duration::from_micros(250));
            }
        })?;
        Ok(LossyRelay { addr, stop, forwarded, dropped, thread: Some(thread) })
    }

    /// The address a client connects to (instead of the server's).
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// Counters so far.
    pub fn stats(&self) -> RelayStats {
        RelayStats {
            forwarded: self.forwarded.load(Ordering::Relaxed),
            dropped: self.dropped.load(Ordering::Relaxed),
        }
    }
}

impl Drop for LossyRelay {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}
