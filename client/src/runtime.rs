//! [`ClientRuntime`]: a replica client that runs the place's client scripts.
//!
//! One [`frame`](ClientRuntime::frame) is the client's whole loop body:
//! 1. the network: receive and apply snapshots, send the ack and inputs
//!    ([`Client::update`]);
//! 2. retire the scripts of instances the snapshots destroyed, install the client-script code
//!    that arrived (or that a Script coming back into range needs again), and pass on the
//!    character the server says this user owns (`game.Session.LocalCharacter()`);
//! 3. the scripts, with the replica's arena moved into the VM as the server's tick does:
//!    new Scripts start, `Update(dt)` runs with the frame's `dt`, then `PhysicsUpdate(1/60)`
//!    once per 1/60 s of client time that passed (at most [`MAX_PHYSICS_STEPS`] a frame, so a
//!    stalled client does not spiral), and the scripts' own destructions retire theirs.
//!
//! Invariants: the replica's arena mints client-local ids (from 2^52) for everything the
//! client's scripts create, and nothing client-local is ever sent (the client's only messages
//! are its acks and inputs); a client host never compiles a source, it runs only the bytecode
//! the server shipped; server-only calls raise in client scripts (`docs/scripting.md`).

use crate::shipped_code::ShippedCode;
use arbor_core::InstanceEvent;
use arbor_net::{Client, NetError};
use arbor_script::{HostConfig, HostError, Level, LogLine, ScriptHost};
use arbor_sim::physics::Physics;
use arbor_sim::players::Players;
use arbor_sim::transform::WorldTransforms;
use arbor_sim::{TickContext, TickHooks};
use std::time::{Duration, Instant};

/// The client's physics step, seconds (the server's).
pub const PHYSICS_STEP: f64 = 1.0 / 60.0;

/// `PhysicsUpdate` calls one frame may make; client time beyond them is dropped.
pub const MAX_PHYSICS_STEPS: u32 = 4;

/// Where a client's frames spent their time, summed since the start.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct FrameStats {
    /// Frames run.
    pub frames: u64,
    /// `PhysicsUpdate` steps run.
    pub physics_steps: u64,
    /// Seconds in the network and the replica (receive, apply, send).
    pub network_seconds: f64,
    /// Seconds in the scripts (starting, `Update`, `PhysicsUpdate`, retiring, installing code).
    pub script_seconds: f64,
}

/// A replica client running the place's client scripts.
pub struct ClientRuntime {
    client: Client,
    host: ScriptHost,
    code: ShippedCode,
    physics: Physics,
    transforms: WorldTransforms,
    players: Players,
    /// Frames run: the scripts' tick number.
    frame: u64,
    /// Client seconds since the start.
    time: f64,
    /// Client time not yet stepped by `PhysicsUpdate`.
    physics_debt: f64,
    stats: FrameStats,
}

impl ClientRuntime {
    /// A runtime over a connecting `client`, its scripts run by a host set up by `config`
    /// (made a client host whatever `config.client` says).
    pub fn new(mut client: Client, config: HostConfig) -> Result<ClientRuntime, HostError> {
        client.replica_mut().keep_destroyed();
        let host = ScriptHost::new(client.replica().arena(), HostConfig { client: true, ..config })?;
        Ok(ClientRuntime {
            client,
            host,
            code: ShippedCode::default(),
            physics: Physics::new(arbor_sim::physics::DEFAULT_GRAVITY),
            transforms: WorldTransforms::new(),
            players: Players::default(),
            frame: 0,
            time: 0.0,
            physics_debt: 0.0,
            stats: FrameStats::default(),
        })
    }

    /// Runs one client frame of `dt` (see the module docs). Returns the network's error once
    /// the connection ended; the scripts do not run in that frame.
    pub fn frame(&mut self, dt: Duration) -> Result<(), NetError> {
        let started = Instant::now();
        self.client.update(dt)?;
        let scripts_from = Instant::now();
        self.stats.network_seconds += (scripts_from - started).as_secs_f64();
        let destroyed = self.client.replica_mut().take_destroyed();
        let character = self.client.local_character();
        self.code.receive(self.client.take_script_code());
        let arena = self.client.replica_mut().arena_mut();
        if !destroyed.is_empty() {
            let mut ctx = TickContext {
                arena: &mut *arena,
                transforms: &self.transforms,
                physics: &self.physics,
                players: &mut self.players,
                tick: self.frame,
                time: self.time,
            };
            self.host.events(&mut ctx, &destroyed);
        }
        for problem in self.code.install(&mut self.host, arena) {
            self.host.log_line(Level::Error, problem);
        }
        self.host.set_local_character(character);
        let dt = dt.as_secs_f64();
        let mut ctx = TickContext {
            arena,
            transforms: &self.transforms,
            physics: &self.physics,
            players: &mut self.players,
            tick: self.frame,
            time: self.time,
        };
        self.host.start_scripts(&mut ctx);
        self.host.update(&mut ctx, dt);
        self.physics_debt = (self.physics_debt + dt).min(PHYSICS_STEP * f64::from(MAX_PHYSICS_STEPS));
        while self.physics_debt >= PHYSICS_STEP {
            self.physics_debt -= PHYSICS_STEP;
            self.host.physics_update(&mut ctx, PHYSICS_STEP);
            self.stats.physics_steps += 1;
        }
        let events: Vec<InstanceEvent> = ctx
            .arena
            .drain_events()
            .into_iter()
            .filter(|e| matches!(e, InstanceEvent::Destroyed { .. }))
            .collect();
        if !events.is_empty() {
            self.host.events(&mut ctx, &events);
        }
        self.host.end_tick(&mut ctx);
        self.frame += 1;
        self.time += dt;
        self.stats.frames += 1;
        self.stats.script_seconds += scripts_from.elapsed().as_secs_f64();
        Ok(())
    }

    /// The replica client (the replica, the connection, the local character).
    pub fn client(&self) -> &Client {
        &self.client
    }

    /// The replica client, to set its focus and movement or to disconnect.
    pub fn client_mut(&mut self) -> &mut Client {
        &mut self.client
    }

    /// The client's script host.
    pub fn host(&self) -> &ScriptHost {
        &self.host
    }

    /// Takes the client scripts' log lines so far.
    pub fn take_log(&mut self) -> Vec<LogLine> {
        self.host.take_log()
    }

    /// Where the frames spent their time.
    pub fn stats(&self) -> FrameStats {
        self.stats
    }

    /// Bytes of shipped client-script code this client keeps.
    pub fn code_bytes(&self) -> usize {
        self.code.bytes()
    }
}
