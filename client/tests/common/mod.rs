//! A server and client runtimes on the loopback interface, stepped together in one thread.

#![allow(dead_code)]

use arbor_client::ClientRuntime;
use arbor_core::{Arena, AttributeValue, Class, Id, RUN_CONTEXT_ATTRIBUTE};
use arbor_net::{Client, ClientAuth, NetConfig, NetServer, PacketTap, Security, TappedTransport};
use arbor_script::{HostConfig, ScriptHost};
use arbor_sim::{SimConfig, Simulation};
use std::cell::RefCell;
use std::net::SocketAddr;
use std::rc::Rc;
use std::time::Duration;

/// Frames a test may step before it gives up (about 10 s of wall time).
pub const MAX_FRAMES: usize = 2_000;

/// Adds a Script to `arena` under `parent`, with `RunContext` `context` if given.
pub fn script(arena: &mut Arena, name: &str, parent: Id, context: Option<&str>, source: &str) -> Id {
    let s = arena.create(Class::Script, name, Some(parent)).unwrap();
    arena.set_script_source(s, source).unwrap();
    if let Some(context) = context {
        arena.set_attribute(s, RUN_CONTEXT_ATTRIBUTE, Some(AttributeValue::String(context.into()))).unwrap();
    }
    s
}

/// A server running `arena` with a script host and a networking half that ships client
/// scripts.
pub struct Server {
    pub sim: Simulation,
    pub host: Rc<RefCell<ScriptHost>>,
    pub net: Rc<RefCell<NetServer>>,
    pub address: SocketAddr,
}

impl Server {
    pub fn start(arena: Arena) -> Server {
        let host = ScriptHost::new(&arena, HostConfig { wall_bound: None, ..HostConfig::default() }).unwrap();
        let host = Rc::new(RefCell::new(host));
        let config = NetConfig {
            listen: "127.0.0.1:0".parse().unwrap(),
            max_clients: 8,
            security: Security::Insecure,
        };
        let mut net = NetServer::bind(config).unwrap();
        net.set_script_compiler(Box::new(arbor_script::compile_bytecode));
        let address = net.local_addr();
        let net = Rc::new(RefCell::new(net));
        let mut sim = Simulation::new(arena, SimConfig::default()).unwrap();
        sim.add_hooks(host.clone());
        sim.add_hooks(net.clone());
        Server { sim, host, net, address }
    }

    /// A client runtime for `user_id`.
    pub fn connect(&self, user_id: u64) -> ClientRuntime {
        let client = Client::connect(ClientAuth::Insecure { user_id, server: self.address }).unwrap();
        runtime(client)
    }

    /// A client runtime for `user_id` whose every packet goes through `tap`.
    pub fn connect_tapped(&self, user_id: u64, tap: PacketTap) -> ClientRuntime {
        let auth = ClientAuth::Insecure { user_id, server: self.address };
        let transport = TappedTransport::connect(auth, tap).unwrap();
        runtime(Client::with_transport(Box::new(transport)))
    }

    /// Steps the server and every client one frame each until `done` holds; false if it
    /// never did within [`MAX_FRAMES`].
    pub fn run_until(
        &mut self,
        clients: &mut [&mut ClientRuntime],
        mut done: impl FnMut(&Server, &mut [&mut ClientRuntime]) -> bool,
    ) -> bool {
        for _ in 0..MAX_FRAMES {
            self.sim.step();
            for c in clients.iter_mut() {
                c.frame(Duration::from_millis(16)).unwrap();
            }
            if done(self, clients) {
                return true;
            }
            std::thread::sleep(Duration::from_millis(1));
        }
        false
    }

    /// The server's log so far.
    pub fn log(&self) -> Vec<String> {
        self.host.borrow().log().into_iter().map(|l| l.text).collect()
    }
}

fn runtime(client: Client) -> ClientRuntime {
    ClientRuntime::new(client, HostConfig { wall_bound: None, ..HostConfig::default() }).unwrap()
}

/// What a client's scripts logged so far (kept across calls).
pub struct Log(pub Vec<String>);

impl Log {
    pub fn new() -> Log {
        Log(Vec::new())
    }

    /// Adds what `runtime` logged since the last call; whether any line now equals `line`.
    pub fn has(&mut self, runtime: &mut ClientRuntime, line: &str) -> bool {
        self.0.extend(runtime.take_log().into_iter().map(|l| l.text));
        self.0.iter().any(|l| l == line)
    }
}
