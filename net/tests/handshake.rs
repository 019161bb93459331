//! The netcode handshake on a lossy link, on real sockets: a UDP shim between one client and
//! the server drops chosen server-to-client datagrams by netcode packet type. The server's
//! answer to a connection response is a single keep-alive; if it is lost, the client must
//! still connect promptly (the server keeps sending keep-alives until the client confirms),
//! not hang in its response step until the token times out. Every loop is bounded in steps.

use arbor_core::{Arena, Class};
use arbor_net::{Client, ClientAuth, NetConfig, NetServer, Security};
use arbor_sim::{SimConfig, Simulation};
use std::cell::RefCell;
use std::net::{Ipv4Addr, SocketAddr, UdpSocket};
use std::rc::Rc;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::thread::JoinHandle;
use std::time::Duration;

/// netcode's packet type of a keep-alive (the low four bits of a packet's first byte).
const KEEP_ALIVE: u8 = 4;

/// A loopback UDP shim that drops the first `drop_keep_alives` keep-alives the server sends.
struct Shim {
    addr: SocketAddr,
    stop: Arc<AtomicBool>,
    dropped: Arc<AtomicU32>,
    thread: Option<JoinHandle<()>>,
}

impl Shim {
    fn start(server: SocketAddr, drop_keep_alives: u32) -> Shim {
        let front = UdpSocket::bind((Ipv4Addr::LOCALHOST, 0)).unwrap();
        let back = UdpSocket::bind((Ipv4Addr::LOCALHOST, 0)).unwrap();
        back.connect(server).unwrap();
        front.set_nonblocking(true).unwrap();
        back.set_nonblocking(true).unwrap();
        let addr = front.local_addr().unwrap();
        let stop = Arc::new(AtomicBool::new(false));
        let dropped = Arc::new(AtomicU32::new(0));
        let (s, d) = (stop.clone(), dropped.clone());
        let thread = std::thread::spawn(move || {
            let mut client = None;
            let mut buf = [0u8; 2048];
            while !s.load(Ordering::Relaxed) {
                while let Ok((n, from)) = front.recv_from(&mut buf) {
                    client = Some(from);
                    let _ = back.send(&buf[..n]);
                }
                while let Ok(n) = back.recv(&mut buf) {
                    let keep_alive = buf[0] & 0x0f == KEEP_ALIVE;
                    if keep_alive && d.load(Ordering::Relaxed) < drop_keep_alives {
                        d.fetch_add(1, Ordering::Relaxed);
                        continue;
                    }
                    if let Some(c) = client {
                        let _ = front.send_to(&buf[..n], c);
                    }
                }
                std::thread::sleep(Duration::from_micros(200));
            }
        });
        Shim { addr, stop, dropped, thread: Some(thread) }
    }
}

impl Drop for Shim {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// Connects one client through a shim dropping the server's first `lost` keep-alives;
/// returns the frames it took to receive its welcome (`None`: not within `frames`).
fn frames_to_join(lost: u32, frames: usize) -> Option<usize> {
    let mut arena = Arena::new();
    let ws = arena.workspace();
    arena.create(Class::Part, "Floor", Some(ws)).unwrap();
    let config =
        NetConfig { listen: "127.0.0.1:0".parse().unwrap(), max_clients: 2, security: Security::Insecure };
    let net = Rc::new(RefCell::new(NetServer::bind(config).unwrap()));
    let mut sim = Simulation::new(arena, SimConfig::default()).unwrap();
    sim.add_hooks(net.clone());
    let shim = Shim::start(net.borrow().local_addr(), lost);
    let mut client = Client::connect(ClientAuth::Insecure { user_id: 7, server: shim.addr }).unwrap();
    for frame in 0..frames {
        sim.step();
        let _ = client.update(Duration::from_millis(16));
        if client.user_id() == Some(7) {
            assert_eq!(shim.dropped.load(Ordering::Relaxed), lost, "the shim dropped other keep-alives");
            return Some(frame);
        }
        std::thread::sleep(Duration::from_millis(4));
    }
    None
}

#[test]
fn a_client_connects_when_the_servers_first_keep_alive_is_lost() {
    // Without the loss the welcome comes within a few frames; with it, the next keep-alive
    // (netcode sends one every 250 ms to an unconfirmed client) must still let it in, long
    // before the token times out (15 s for an insecure client). 300 frames is at least 1.2 s of sleeping.
    assert!(frames_to_join(0, 300).is_some(), "no join on a clean link");
    assert!(frames_to_join(1, 300).is_some(), "the client hung after its first keep-alive was lost");
    assert!(frames_to_join(3, 600).is_some(), "the client hung after three keep-alives were lost");
}
