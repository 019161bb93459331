//! Players over real sockets on 127.0.0.1: the example place's PlayerSpawner binds a Cadet
//! to each replica client that connects, the client learns which character it owns and
//! holds it in its replica, its inputs walk it, and a kick reaches it with its reason.

use arbor_core::{Arena, Id};
use arbor_net::{Client, ClientAuth, NetConfig, NetServer, Security};
use arbor_script::{HostConfig, ScriptHost, StoreConfig};
use arbor_sim::{SimConfig, Simulation};
use std::cell::RefCell;
use std::rc::Rc;
use std::time::Duration;

const DT: Duration = Duration::from_millis(16);

struct Server {
    sim: Simulation,
    host: Rc<RefCell<ScriptHost>>,
    net: Rc<RefCell<NetServer>>,
    _data: tempdir::Dir,
}

mod tempdir {
    /// A directory removed when dropped.
    pub struct Dir(pub std::path::PathBuf);
    impl Dir {
        pub fn new(tag: &str) -> Dir {
            let p = std::env::temp_dir().join(format!("arbor-{tag}-{}", std::process::id()));
            let _ = std::fs::remove_dir_all(&p);
            std::fs::create_dir_all(&p).unwrap();
            Dir(p)
        }
    }
    impl Drop for Dir {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}

fn example() -> Arena {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../places/example.place.json"))
        .unwrap();
    arbor_place::load_json(&text).unwrap()
}

fn server() -> Server {
    server_of(example(), 8)
}

fn server_of(arena: Arena, max_clients: usize) -> Server {
    let data = tempdir::Dir::new("players");
    let stores = StoreConfig { data_dir: Some(data.0.clone()), cloud_url: None };
    let host =
        Rc::new(RefCell::new(ScriptHost::new(&arena, HostConfig { stores, ..Default::default() }).unwrap()));
    let mut sim = Simulation::new(arena, SimConfig::default()).unwrap();
    sim.add_hooks(host.clone());
    let config =
        NetConfig { listen: "127.0.0.1:0".parse().unwrap(), max_clients, security: Security::Insecure };
    let net = Rc::new(RefCell::new(NetServer::bind(config).unwrap()));
    sim.add_hooks(net.clone());
    Server { sim, host, net, _data: data }
}

impl Server {
    fn client(&self, user_id: u64) -> Client {
        let server = self.net.borrow().local_addr();
        Client::connect(ClientAuth::Insecure { user_id, server }).unwrap()
    }

    /// Ticks the server and the clients until `done` or `steps` run out.
    fn run(
        &mut self,
        clients: &mut [Client],
        steps: usize,
        mut done: impl FnMut(&Server, &[Client]) -> bool,
    ) -> bool {
        for _ in 0..steps {
            self.sim.step();
            for c in clients.iter_mut() {
                let _ = c.update(DT);
            }
            std::thread::sleep(Duration::from_millis(1));
            if done(self, clients) {
                return true;
            }
        }
        false
    }

    fn character(&self, user: u64) -> Option<Id> {
        self.sim.players.character_of(&self.sim.arena, user)
    }
}

#[test]
fn bots_get_characters_walk_and_can_be_kicked() {
    let mut s = server();
    let mut clients = vec![s.client(11), s.client(12), s.client(13)];
    let bound = s.run(&mut clients, 600, |s, cs| {
        cs.iter().all(|c| {
            let user = c.user_id();
            let owned = user.and_then(|u| s.character(u));
            owned.is_some() && c.local_character() == owned && c.replica().arena().contains(owned.unwrap())
        })
    });
    let log: Vec<String> = s.host.borrow().log().into_iter().map(|l| l.text).collect();
    assert!(bound, "every client owns a character it holds: {log:?}");
    let chars: Vec<Id> = (11..=13).map(|u| s.character(u).unwrap()).collect();
    assert!(chars[0] != chars[1] && chars[1] != chars[2]);

    // Client 11 walks along +X; its character moves on the server.
    let root = |s: &Server| s.sim.arena.children(chars[0]).next().unwrap();
    let x0 = s.sim.transforms.get(&s.sim.arena, root(&s)).unwrap().position.x;
    clients[0].set_movement([127, 0], 0);
    let walked = s.run(&mut clients, 300, |s, _| {
        s.sim.transforms.get(&s.sim.arena, root(s)).unwrap().position.x > x0 + 8.0
    });
    assert!(walked, "the character walked on the client's input");

    // A kick reaches client 12 with its reason, and its character goes.
    s.sim.players.kick(12, Some("test kick"));
    let kicked = s.run(&mut clients, 300, |s, cs| cs[1].kick_reason().is_some() && s.character(12).is_none());
    assert!(kicked);
    assert_eq!(clients[1].kick_reason(), Some("test kick"));
    assert!(!s.sim.arena.contains(chars[1]));
}

#[test]
fn a_hundred_clients_joining_at_once_all_stay_connected_and_get_characters() {
    let mut s = server_of(example(), 128);
    let mut clients: Vec<Client> = (1..=100).map(|u| s.client(u)).collect();
    let all = s.run(&mut clients, 1500, |s, cs| {
        cs.iter().all(|c| c.user_id().and_then(|u| s.character(u)).is_some())
    });
    let gone: Vec<String> = clients
        .iter()
        .enumerate()
        .filter(|(_, c)| !c.is_connected())
        .map(|(i, c)| format!("client {}: {:?}", i + 1, c.disconnect_reason()))
        .collect();
    assert!(gone.is_empty(), "clients dropped: {gone:?}");
    assert!(all, "every client got a character");
    assert_eq!(s.net.borrow().client_count(), 100);
    assert_eq!(s.net.borrow().waiting_to_join(), 0);
}

#[test]
fn without_a_player_joined_handler_the_65th_connection_waits_then_hears_why_it_is_refused() {
    // The example place without its scripts: no PlayerJoined handler takes joins.
    let mut arena = example();
    let scripts: Vec<Id> = arena
        .subtree(arena.root())
        .into_iter()
        .filter(|&id| arena.get(id).is_some_and(|n| n.class() == arbor_core::Class::Script))
        .collect();
    for id in scripts {
        let _ = arena.destroy(id);
    }
    let mut s = server_of(arena, 80);
    s.net.borrow_mut().set_join_wait(Duration::from_millis(1500));
    let mut clients: Vec<Client> = (1..=66).map(|u| s.client(u)).collect();
    let refused =
        s.run(&mut clients, 900, |_, cs| cs.iter().filter(|c| c.disconnect_reason().is_some()).count() >= 2);
    assert!(refused, "the connections past the join queue were refused");
    let reasons: Vec<Option<&str>> = clients.iter().filter_map(|c| c.disconnect_reason()).map(Some).collect();
    assert_eq!(reasons, vec![Some(arbor_sim::players::JOIN_QUEUE_FULL); 2]);
    // The 64 queued ones stay connected, waiting for a handler.
    assert_eq!(clients.iter().filter(|c| c.is_connected()).count(), 64);
    assert_eq!(s.sim.players.pending_joins(), 64);
}

#[test]
fn a_draining_server_turns_new_clients_away_and_keeps_its_players_until_kicked() {
    let mut s = server();
    let mut clients = vec![s.client(21)];
    assert!(s.run(&mut clients, 600, |s, _| s.character(21).is_some()), "client 21 is a player");
    s.net.borrow_mut().drain(arbor_net::SHUTDOWN_REASON);
    assert!(s.net.borrow().draining());
    clients.push(s.client(22));
    let turned_away = s.run(&mut clients, 600, |_, cs| cs[1].kick_reason().is_some());
    assert!(turned_away, "the new client hears why");
    assert_eq!(clients[1].kick_reason(), Some(arbor_net::SHUTDOWN_REASON));
    assert!(s.sim.players.session(22).is_none(), "never a player");
    assert!(s.sim.players.session(21).is_some(), "players leave through their own kicks");
    assert_eq!(s.net.borrow().kicks_in_flight(), 0, "a turned-away client is no player's kick");
}
