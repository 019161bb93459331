//! # arbor-net
//!
//! Arbor's networking: clients connect over UDP through renet and netcode.io (signed connect
//! tokens, encrypted and authenticated packets), receive the place, and stay in step with it
//! through per-client delta snapshots every network tick.
//!
//! The root holds what a server or a client needs: [`NetServer`] plugs into the tick
//! ([`arbor_sim::TickHooks`]), turning connections into [`NetEvent`]s and sending each
//! client its snapshots; [`Client`] is the replica client (acks, inputs, a world hash to
//! compare with the server's); [`ServerKey`], [`issue_token`] and the hex helpers make
//! connect tokens; [`NetError`] is what can go wrong. Four modules hold the rest:
//!
//! - [`replication`]: the shared [`Mirror`](replication::Mirror) that reads what changed
//!   from the arena's logs, a [`ClientView`](replication::ClientView) per client that keeps
//!   what that client holds within its streaming range and fills its messages by priority
//!   under a byte budget, and the client's [`Replica`](replication::Replica);
//! - [`wire`]: the messages ([`SnapshotMessage`](wire::SnapshotMessage),
//!   [`Input`](wire::Input), [`Control`](wire::Control)), the replicated state of an
//!   instance, quantisation and the position and component deltas. The byte layout is in
//!   `docs/networking.md`;
//! - [`prediction`]: the numbered input commands (client history, server queue), the
//!   client's [`Predictor`](prediction::Predictor) of its own character (the server's
//!   controller in a small physics world, rewind and replay on each
//!   [`CharacterState`](wire::CharacterState), smoothed corrections) and the
//!   [`Interpolator`](prediction::Interpolator) of other characters;
//! - [`relay`]: a UDP relay on 127.0.0.1 adding latency and seeded loss, for tests.
//!
//! A server and a client on the loopback interface; the client receives the place:
//!
//! ```
//! use arbor_core::{Arena, Class};
//! use arbor_net::{Client, ClientAuth, NetConfig, NetServer, Security};
//! use arbor_sim::{SimConfig, Simulation};
//! use std::{cell::RefCell, rc::Rc, time::Duration};
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let mut arena = Arena::new();
//! let part = arena.create(Class::Part, "Crate", Some(arena.workspace()))?;
//! let listen = "127.0.0.1:0".parse()?; // any free port
//! let config = NetConfig { listen, max_clients: 4, security: Security::Insecure };
//! let server = Rc::new(RefCell::new(NetServer::bind(config)?));
//! let address = server.borrow().local_addr();
//! let mut sim = Simulation::new(arena, SimConfig::default())?;
//! sim.add_hooks(server.clone());
//!
//! let mut client = Client::connect(ClientAuth::Insecure { user_id: 1, server: address })?;
//! for _ in 0..500 {
//!     sim.step(); // the server's tick: it reads the socket, then sends snapshots
//!     client.update(Duration::from_millis(16))?;
//!     if client.replica().arena().get(part).is_some() {
//!         break;
//!     }
//!     std::thread::sleep(Duration::from_millis(2));
//! }
//! assert!(client.replica().arena().get(part).is_some());
//! assert_eq!(client.user_id(), Some(1));
//! # Ok(())
//! # }
//! ```

mod client;
mod error;
pub mod prediction;
pub mod relay;
pub mod replication;
mod server;
mod tap;
mod transport;
pub mod wire;

pub use client::{Client, ClientStats, MAX_STEPS_PER_UPDATE};
pub use error::NetError;
pub use server::{
    ClientReport, JOIN_WAIT, KICK_GRACE, NetConfig, NetEvent, NetServer, NetStats, SHUTDOWN_REASON,
    ScriptCompiler, Security, ShippingStats,
};
pub use tap::{PacketDirection, PacketTap, TappedTransport};
pub use transport::{
    ClientAuth, ClientTransport, ServerKey, ServerTransport, issue_token, token_from_hex, token_to_hex,
};

/// Re-exported so callers can hold a token without depending on renet_netcode.
pub use renet_netcode::ConnectToken;
