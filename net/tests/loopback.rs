//! Real sockets on 127.0.0.1: a server ticking a place and replica clients connecting with
//! netcode tokens. Every loop is bounded in steps (and so in time).

use arbor_core::{Arena, Class, Id};
use arbor_net::wire::dequantize_position;
use arbor_net::{
    Client, ClientAuth, NetConfig, NetError, NetEvent, NetServer, SHUTDOWN_REASON, Security, ServerKey,
    issue_token,
};
use arbor_sim::{SimConfig, Simulation};
use glam::Vec3;
use std::cell::RefCell;
use std::net::UdpSocket;
use std::rc::Rc;
use std::time::Duration;

const DT: Duration = Duration::from_millis(16);

struct World {
    sim: Simulation,
    net: Rc<RefCell<NetServer>>,
    key: ServerKey,
}

fn world(parts: usize, security: bool) -> World {
    world_at(parts, security, Vec::new())
}

/// [`world`] with the server's public addresses (`NetServer::bind_public`).
fn world_at(parts: usize, security: bool, public: Vec<std::net::SocketAddr>) -> World {
    let mut arena = Arena::new();
    let ws = arena.workspace();
    let folder = arena.create(Class::Folder, "Parts", Some(ws)).unwrap();
    for i in 0..parts {
        let p = arena.create(Class::Part, &format!("P{i}"), Some(folder)).unwrap();
        arena.set_position(p, Vec3::new(i as f32 * 2.0, 5.0, 0.0)).unwrap();
        arena.set_flag(p, arbor_core::NodeFlags::ANCHORED, true).unwrap();
    }
    let key = ServerKey::generate();
    let config = NetConfig {
        listen: "127.0.0.1:0".parse().unwrap(),
        max_clients: 4,
        security: if security { Security::Secure(key.clone()) } else { Security::Insecure },
    };
    let net = Rc::new(RefCell::new(NetServer::bind_public(config, &public).unwrap()));
    let mut sim = Simulation::new(arena, SimConfig::default()).unwrap();
    sim.add_hooks(net.clone());
    World { sim, net, key }
}

impl World {
    fn token(&self, user: u64, expire: u64) -> ClientAuth {
        let addr = self.net.borrow().local_addr();
        ClientAuth::Token(Box::new(issue_token(&self.key, user, vec![addr], expire, 2).unwrap()))
    }

    /// Ticks the server and updates the clients until `done` or `steps` run out.
    fn run(
        &mut self,
        clients: &mut [&mut Client],
        steps: usize,
        mut done: impl FnMut(&World, &[&mut Client]) -> bool,
    ) -> bool {
        for _ in 0..steps {
            self.sim.step();
            for c in clients.iter_mut() {
                let _ = c.update(DT);
            }
            std::thread::sleep(Duration::from_millis(2));
            if done(self, clients) {
                return true;
            }
        }
        false
    }

    fn settled(&self, c: &Client) -> bool {
        let Some(user) = c.user_id() else { return false };
        let net = self.net.borrow();
        let Some(view) = net.view(user) else { return false };
        view.is_settled() && view.view_hash() == c.world_hash() && c.replica().stats().hash_checks > 0
    }
}

#[test]
fn a_client_joins_and_its_replica_matches_the_server_then_follows_edits() {
    let mut w = world(200, true);
    let mut c = Client::connect(w.token(7, 30)).unwrap();
    assert!(w.run(&mut [&mut c], 600, |w, cs| w.settled(cs[0])), "did not converge");
    assert_eq!(c.user_id(), Some(7));
    assert_eq!(c.replica().len(), 202); // Workspace, folder, 200 parts
    assert_eq!(w.net.borrow_mut().take_events(), vec![NetEvent::Connected { user_id: 7 }]);

    // Edits on the server reach the replica.
    let folder = w.sim.arena.find_first_child(w.sim.arena.workspace(), "Parts").unwrap();
    let first = w.sim.arena.children(folder).next().unwrap();
    w.sim.arena.set_position(first, Vec3::new(1.0, 2.0, 3.0)).unwrap();
    let doomed = w.sim.arena.children(folder).nth(3).unwrap();
    w.sim.arena.destroy(doomed).unwrap();
    let extra = w.sim.arena.create(Class::Part, "Late", Some(folder)).unwrap();
    w.sim.step();
    assert!(w.run(&mut [&mut c], 600, |w, cs| w.settled(cs[0])), "did not converge after edits");
    let r = c.replica().arena();
    assert_eq!(r.get(first).unwrap().position(), Vec3::new(1.0, 2.0, 3.0));
    assert!(r.get(doomed).is_none());
    assert!(r.get(extra).is_some());
    assert_eq!(c.replica().stats().hash_mismatches, 0);
    assert_eq!(c.replica().stats().message_mismatches, 0);

    c.disconnect();
    let gone = w.run(&mut [], 200, |w, _| w.net.borrow().client_count() == 0);
    assert!(gone);
    assert!(matches!(w.net.borrow_mut().take_events()[..], [NetEvent::Disconnected { user_id: 7, .. }]));
}

#[test]
fn a_client_dropping_thirty_percent_of_snapshots_converges() {
    let mut w = world(300, false);
    let addr = w.net.borrow().local_addr();
    let mut c = Client::connect(ClientAuth::Insecure { user_id: 3, server: addr }).unwrap();
    c.set_snapshot_loss(0.3, 11);
    let folder = w.sim.arena.find_first_child(w.sim.arena.workspace(), "Parts").unwrap();
    let parts: Vec<Id> = w.sim.arena.children(folder).collect();
    for t in 0..120 {
        for &p in parts.iter().step_by(10) {
            w.sim.arena.set_position(p, Vec3::new(t as f32 * 0.5, 5.0, 1.0)).unwrap();
        }
        w.run(&mut [&mut c], 1, |_, _| false);
    }
    assert!(w.run(&mut [&mut c], 900, |w, cs| w.settled(cs[0])), "did not converge under loss");
    assert!(c.stats().dropped > 0);
    assert_eq!(c.replica().stats().hash_mismatches, 0);
    let s = c.replica().stats();
    assert!(s.message_checks > 0 && s.message_mismatches == 0, "{s:?}");
}

#[test]
fn tokens_that_are_forged_or_reused_do_not_connect_and_insecure_clients_need_an_insecure_server() {
    let mut w = world(5, true);
    let addr = w.net.borrow().local_addr();
    // A token signed with another key.
    let other = ServerKey::generate();
    let forged = ClientAuth::Token(Box::new(issue_token(&other, 1, vec![addr], 30, 1).unwrap()));
    let mut f = Client::connect(forged).unwrap();
    // No token at all.
    let mut bare = Client::connect(ClientAuth::Insecure { user_id: 2, server: addr }).unwrap();
    // One good token, used twice from two sockets.
    let good = w.token(3, 30);
    let mut a = Client::connect(good.clone()).unwrap();
    assert!(w.run(&mut [&mut a], 300, |_, cs| cs[0].is_connected()));
    let mut b = Client::connect(good).unwrap();
    w.run(&mut [&mut f, &mut bare, &mut a, &mut b], 200, |_, _| false);
    assert!(!f.is_connected() && !bare.is_connected() && !b.is_connected());
    assert!(a.is_connected());
    assert_eq!(w.net.borrow().client_count(), 1);
}

#[test]
fn with_public_addresses_a_token_must_name_one_of_them() {
    // A server clients reach at another address than the one it is bound to (a node's IP and
    // host port in front of a pod).
    let public: std::net::SocketAddr = "192.0.2.7:7777".parse().unwrap();
    let mut w = world_at(1, true, vec![public]);
    let addr = w.net.borrow().local_addr();
    // A client sends to the token's first address; the server checks the token names one of
    // its public addresses.
    let naming_public = issue_token(&w.key, 1, vec![addr, public], 30, 2).unwrap();
    let naming_bound = issue_token(&w.key, 2, vec![addr], 30, 2).unwrap();
    let mut a = Client::connect(ClientAuth::Token(Box::new(naming_public))).unwrap();
    let mut b = Client::connect(ClientAuth::Token(Box::new(naming_bound))).unwrap();
    assert!(w.run(&mut [&mut a, &mut b], 300, |_, cs| cs[0].is_connected()));
    w.run(&mut [&mut a, &mut b], 150, |_, _| false);
    assert!(a.is_connected());
    assert!(!b.is_connected(), "the bound address is not public");
    assert_eq!(w.net.borrow().client_count(), 1);
}

#[test]
fn an_expired_token_does_not_connect() {
    let mut w = world(1, true);
    let mut c = Client::connect(w.token(5, 0)).unwrap();
    std::thread::sleep(Duration::from_millis(1100));
    w.run(&mut [&mut c], 150, |_, cs| cs[0].is_disconnected());
    assert!(!c.is_connected());
    assert_eq!(w.net.borrow().client_count(), 0);
}

#[test]
fn garbage_datagrams_and_malformed_inputs_disconnect_only_their_sender() {
    let mut w = world(20, false);
    let addr = w.net.borrow().local_addr();
    let mut good = Client::connect(ClientAuth::Insecure { user_id: 1, server: addr }).unwrap();
    let mut bad = Client::connect(ClientAuth::Insecure { user_id: 2, server: addr }).unwrap();
    assert!(w.run(&mut [&mut good, &mut bad], 300, |_, cs| cs.iter().all(|c| c.is_connected())));
    // Unauthenticated garbage from another socket, of every size up to a jumbo datagram.
    let raw = UdpSocket::bind("127.0.0.1:0").unwrap();
    for n in [0usize, 1, 7, 100, 1199, 1500, 4000] {
        let junk: Vec<u8> = (0..n).map(|i| (i * 31 + n) as u8).collect();
        raw.send_to(&junk, addr).unwrap();
    }
    // An authenticated client sending inputs that do not decode, and a flood of them.
    for _ in 0..50 {
        bad.send_raw_input(vec![0xff; 40]);
    }
    let kicked = w.run(&mut [&mut good, &mut bad], 300, |_, cs| !cs[1].is_connected());
    assert!(kicked, "the malformed client stayed connected");
    assert!(w.net.borrow().stats().malformed_disconnects >= 1);
    assert!(w.run(&mut [&mut good], 600, |w, cs| w.settled(cs[0])));
    assert!(good.is_connected());
}

#[test]
fn at_most_the_configured_number_of_clients_connect() {
    let mut w = world(1, false);
    let addr = w.net.borrow().local_addr();
    let mut cs: Vec<Client> = (1..=6)
        .map(|u| Client::connect(ClientAuth::Insecure { user_id: u, server: addr }).unwrap())
        .collect();
    let mut refs: Vec<&mut Client> = cs.iter_mut().collect();
    w.run(&mut refs, 300, |_, _| false);
    assert_eq!(w.net.borrow().client_count(), 4);
    assert_eq!(cs.iter().filter(|c| c.is_connected()).count(), 4);
}

/// Steps the server and updates `client` until its update fails (its connection ended) or
/// `steps` run out; `others` are updated too, their errors ignored.
fn until_error(
    w: &mut World,
    client: &mut Client,
    others: &mut [&mut Client],
    steps: usize,
) -> Option<NetError> {
    for _ in 0..steps {
        w.sim.step();
        if let Err(e) = client.update(DT) {
            return Some(e);
        }
        for c in others.iter_mut() {
            let _ = c.update(DT);
        }
        std::thread::sleep(Duration::from_millis(2));
    }
    None
}

#[test]
fn a_kicked_client_hears_the_reason_and_no_longer_counts_as_connected() {
    let mut w = world(5, false);
    let addr = w.net.borrow().local_addr();
    let mut kicked = Client::connect(ClientAuth::Insecure { user_id: 21, server: addr }).unwrap();
    let mut other = Client::connect(ClientAuth::Insecure { user_id: 22, server: addr }).unwrap();
    assert!(w.run(&mut [&mut kicked, &mut other], 300, |_, cs| cs.iter().all(|c| c.is_connected())));
    w.net.borrow_mut().take_events();

    // `game.Session.Kick(21, "spamming the chat")`, as a script calls it.
    assert!(w.sim.players.kick(21, Some("spamming the chat")));
    let error =
        until_error(&mut w, &mut kicked, &mut [&mut other], 300).expect("the kicked client's update fails");
    assert!(matches!(&error, NetError::Kicked { reason } if reason == "spamming the chat"), "{error}");
    assert_eq!(error.to_string(), "kicked: spamming the chat");
    assert_eq!(kicked.disconnect_reason(), Some("spamming the chat"));
    assert_eq!(kicked.kick_reason(), Some("spamming the chat"));
    assert!(!kicked.is_connected() && kicked.is_disconnected());
    // The end is reported on every later update too, never as a success.
    assert!(matches!(kicked.update(DT), Err(NetError::Kicked { .. })));

    // The server lets it go and keeps the other client.
    assert!(w.run(&mut [&mut other], 300, |w, _| w.net.borrow().kicked_count() == 0));
    assert_eq!(w.net.borrow().client_count(), 1);
    assert!(other.is_connected());
    let events = w.net.borrow_mut().take_events();
    assert_eq!(
        events,
        vec![NetEvent::Disconnected { user_id: 21, reason: "kicked: spamming the chat".to_owned() }]
    );
}

#[test]
fn a_kicked_client_that_never_answers_is_dropped_after_the_grace() {
    let mut w = world(5, false);
    let addr = w.net.borrow().local_addr();
    let mut c = Client::connect(ClientAuth::Insecure { user_id: 31, server: addr }).unwrap();
    assert!(w.run(&mut [&mut c], 300, |_, cs| cs[0].is_connected()));
    w.net.borrow_mut().kick(31, "go away");
    assert_eq!(w.net.borrow().client_count(), 0, "a kicked client is no longer served");
    assert_eq!(w.net.borrow().kicked_count(), 1);
    // The client is frozen (never updated again): it acknowledges nothing. 1,000 steps of at
    // least 2 ms outlast the one-second grace.
    assert!(w.run(&mut [], 1000, |w, _| w.net.borrow().kicked_count() == 0), "the silent client stayed");
    let events = w.net.borrow_mut().take_events();
    let leaves: Vec<&NetEvent> =
        events.iter().filter(|e| matches!(e, NetEvent::Disconnected { .. })).collect();
    assert_eq!(leaves, [&NetEvent::Disconnected { user_id: 31, reason: "kicked: go away".to_owned() }]);
}

#[test]
fn a_server_shutting_down_tells_its_clients_why() {
    let mut w = world(5, false);
    let addr = w.net.borrow().local_addr();
    let mut c = Client::connect(ClientAuth::Insecure { user_id: 41, server: addr }).unwrap();
    assert!(w.run(&mut [&mut c], 300, |_, cs| cs[0].is_connected()));
    w.net.borrow_mut().shutdown();
    let mut error = None;
    for _ in 0..300 {
        if let Err(e) = c.update(DT) {
            error = Some(e);
            break;
        }
        std::thread::sleep(Duration::from_millis(2));
    }
    let error = error.expect("the client saw the shutdown");
    assert!(matches!(&error, NetError::Kicked { reason } if reason == SHUTDOWN_REASON), "{error}");
    assert!(!c.is_connected());
}

#[test]
fn a_focus_at_the_edges_of_the_wire_is_clamped_to_the_world_and_refocuses_stay_cheap() {
    let parts = 50;
    let mut w = world(parts, false);
    let addr = w.net.borrow().local_addr();
    // A client without a character: its focus is what it sends.
    let mut c = Client::connect(ClientAuth::Insecure { user_id: 9, server: addr }).unwrap();
    assert!(w.run(&mut [&mut c], 600, |w, cs| w.settled(cs[0])), "did not converge");
    let extent = arbor_sim::physics::WORLD_EXTENT;
    let jumps = [
        [i32::MIN, i32::MIN, i32::MIN],
        [i32::MAX, i32::MAX, i32::MAX],
        [i32::MIN, 0, i32::MAX],
        [i32::MAX, i32::MIN, i32::MIN],
        [0, 0, 0],
    ];
    for grid in jumps {
        c.set_focus_grid(grid);
        let want = dequantize_position(grid).clamp(glam::Vec3::splat(-extent), glam::Vec3::splat(extent));
        let before = w.net.borrow().view(9).unwrap().stats().refocuses;
        // Every jump lands in another cell, so the view refocuses once, then settles.
        let moved = w.run(&mut [&mut c], 300, |w, cs| {
            w.net.borrow().view(9).is_some_and(|v| v.focus() == want && v.stats().refocuses == before + 1)
                && w.settled(cs[0])
        });
        assert!(moved, "focus {grid:?} was not taken as {want} and settled");
        assert!(c.is_connected(), "an extreme focus is not an error");
    }
    let net = w.net.borrow();
    let stats = net.view(9).unwrap().stats();
    assert_eq!(stats.refocuses, jumps.len() as u64, "{stats:?}");
    // Never more cells per refocus than there are top parts (50 parts in at most 50 cells).
    assert!(stats.refocus_cells <= stats.refocuses * parts as u64, "{stats:?}");
    // Back at the origin the client holds the whole place again.
    assert_eq!(c.replica().len(), parts + 2);
}

#[test]
fn a_replica_is_checked_message_by_message_while_every_part_moves_under_loss() {
    let mut w = world(200, false);
    let addr = w.net.borrow().local_addr();
    let mut c = Client::connect(ClientAuth::Insecure { user_id: 4, server: addr }).unwrap();
    c.set_snapshot_loss(0.3, 5);
    let folder = w.sim.arena.find_first_child(w.sim.arena.workspace(), "Parts").unwrap();
    let parts: Vec<Id> = w.sim.arena.children(folder).collect();
    // Every part moves every tick: the client's view never settles.
    for t in 0..300 {
        for (k, &p) in parts.iter().enumerate() {
            let a = t as f32 * 0.05 + k as f32;
            w.sim.arena.set_position(p, Vec3::new(k as f32 * 2.0 + a.cos(), 5.0, a.sin())).unwrap();
        }
        w.run(&mut [&mut c], 1, |_, _| false);
    }
    let s = c.replica().stats();
    assert!(c.stats().dropped > 0);
    assert_eq!(s.hash_checks, 0, "the view never settled: {s:?}");
    assert!(s.message_checks >= 50, "{s:?}");
    assert_eq!((s.message_mismatches, s.apply_errors), (0, 0), "{s:?}");
    // Once the parts stop, the view settles and the settled check agrees too.
    assert!(w.run(&mut [&mut c], 900, |w, cs| w.settled(cs[0])), "did not settle");
    let s = c.replica().stats();
    assert_eq!((s.hash_mismatches, s.message_mismatches), (0, 0), "{s:?}");
}
