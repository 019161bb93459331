//! # arbor-client
//!
//! The client half of a place: [`ClientRuntime`] is a replica client
//! ([`arbor_net::Client`]) that runs the place's client scripts (`RunContext` `Client` or
//! `Both`) in its own sandboxed VM, with the same budget rules as the server's. The server
//! ships their compiled bytecode, never a source (`arbor_net::NetServer::set_script_compiler`
//! with [`arbor_script::compile_bytecode`]); the runtime installs it as it arrives, so a hot
//! reload on the server reaches the client. What client scripts may call, and what raises, is
//! in `docs/scripting.md` ("Where scripts run"); client-local ids in `docs/networking.md`.
//!
//! ```no_run
//! use arbor_client::ClientRuntime;
//! use arbor_net::{Client, ClientAuth};
//! use arbor_script::HostConfig;
//! use std::time::Duration;
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let auth = ClientAuth::Insecure { user_id: 7, server: "127.0.0.1:7777".parse()? };
//! let mut runtime = ClientRuntime::new(Client::connect(auth)?, HostConfig::default())?;
//! loop {
//!     runtime.frame(Duration::from_millis(16))?;
//!     for line in runtime.take_log() {
//!         println!("{}", line.text);
//!     }
//!     std::thread::sleep(Duration::from_millis(16));
//! }
//! # }
//! ```

mod runtime;
mod shipped_code;

pub use runtime::{ClientRuntime, FrameStats, MAX_PHYSICS_STEPS, PHYSICS_STEP};
