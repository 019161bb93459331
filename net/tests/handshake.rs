//! The netcode handshake on a lossy link, on real sockets: a [`LossyRelay`] between one client
//! and the server drops the server's first keep-alives. The server's answer to a connection
//! response is a keep-alive; if it is lost, the client must still connect promptly (the server
//! keeps sending keep-alives until the client confirms), not hang in its response step until
//! the token times out. Every loop is bounded in steps.

use arbor_core::{Arena, Class};
use arbor_net::relay::{LossyRelay, RelayConfig};
use arbor_net::{Client, ClientAuth, NetConfig, NetServer, Security};
use arbor_sim::{SimConfig, Simulation};
use std::cell::RefCell;
use std::rc::Rc;
use std::time::Duration;

/// Connects one client through a relay dropping the server's first `lost` keep-alives (and
/// nothing else); returns the frames it took to receive its welcome (`None`: not within
/// `frames`).
fn frames_to_join(lost: u32, frames: usize) -> Option<usize> {
    let mut arena = Arena::new();
    let ws = arena.workspace();
    arena.create(Class::Part, "Floor", Some(ws)).unwrap();
    let config =
        NetConfig { listen: "127.0.0.1:0".parse().unwrap(), max_clients: 2, security: Security::Insecure };
    let net = Rc::new(RefCell::new(NetServer::bind(config).unwrap()));
    let mut sim = Simulation::new(arena, SimConfig::default()).unwrap();
    sim.add_hooks(net.clone());
    let link = RelayConfig {
        one_way: Duration::ZERO,
        jitter: Duration::ZERO,
        loss: 0.0,
        seed: 1,
        lose_keep_alives: lost,
    };
    let relay = LossyRelay::start(net.borrow().local_addr(), link).unwrap();
    let mut client = Client::connect(ClientAuth::Insecure { user_id: 7, server: relay.addr() }).unwrap();
    for frame in 0..frames {
        sim.step();
        let _ = client.update(Duration::from_millis(16));
        if client.user_id() == Some(7) {
            assert_eq!(relay.stats().dropped, u64::from(lost), "the relay dropped other datagrams");
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
    // before the token times out (15 s for an insecure client). 300 frames is at least 1.2 s
    // of sleeping.
    assert!(frames_to_join(0, 300).is_some(), "no join on a clean link");
    assert!(frames_to_join(1, 300).is_some(), "the client hung after its first keep-alive was lost");
    assert!(frames_to_join(3, 600).is_some(), "the client hung after three keep-alives were lost");
}
