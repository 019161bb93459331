//! [`ScriptHost`]: one Luau VM running every script of a place, plugged into the tick.
//!
//! - **Starting.** A Script in the world at the start of a tick becomes a running instance:
//!   a fresh environment (`self` = the entity the script is attached to, i.e. its parent;
//!   `script` = the Script itself; everything else read-only from the sandboxed base), its
//!   precompiled bytecode loaded, the top-level chunk run under a fresh budget, then the
//!   `Update` and `PhysicsUpdate` globals captured. A compile error reports a *load error*,
//!   a top-level error an *init error*; both discard the instance and name the script's path
//!   (and the line, in the message).
//! - **Callbacks.** `Update(dt)` every tick, `PhysicsUpdate(1/60)` every physics step, each
//!   under a fresh budget. A runtime error increments the instance's consecutive error
//!   counter, a success resets it; at 5 the host logs `'<name>' disabled after 5 consecutive
//!   errors` and stops calling that instance until a reload.
//! - **Systems.** ECS systems a script registers at its top level run in the Systems phase,
//!   server only, each dispatch under a fresh budget and counted like a callback (`systems`).
//! - **Retiring.** When a script's subtree is destroyed its instance retires and its
//!   connections go; connections whose target was destroyed go too.
//!
//! The world is moved into the VM's world slot for the duration of each phase and moved back
//! after (see `state`), so callbacks reach it safely; scripts are found incrementally
//! through the topology journal.
//!
//! Files: `build` (the VM and its services), `code` (compiling; a client's installed code),
//! `start` (starting scripts), `entries` (calls
//! into scripts and their outcomes, retiring), `hooks` (the tick phases).

mod behaviors;
mod build;
mod code;
mod entries;
mod hooks;
mod reload;
mod start;
mod systems;
mod usage;

pub use code::compile_bytecode;
pub use reload::ReloadError;

use crate::budget;
use crate::log::LogLine;
use crate::session::PlayersSlot;
use crate::state::{HostState, Running, RunningStack, WorldSlot, with_state};
use crate::systems::ScriptSystem;
use crate::tick_share::{TICK_SHARE_UNITS, TickShare};
use arbor_core::{Arena, Id};
use arbor_sim::TickContext;
use mlua::{Function, Lua, Table};
use rustc_hash::{FxHashMap, FxHashSet};
use std::rc::Rc;
use std::sync::Arc;

/// Consecutive callback errors that disable an instance.
pub const MAX_CONSECUTIVE_ERRORS: u32 = 5;

/// Memory limit of the VM (bounds `string.rep` bombs and runaway tables).
pub const MEMORY_LIMIT: usize = 256 << 20;

/// How a host is set up.
#[derive(Clone, Debug)]
pub struct HostConfig {
    /// Echo log lines to stdout/stderr as they happen.
    pub echo: bool,
    /// Run as a client (client-local objects; `Destroy` raises).
    pub client: bool,
    /// VM memory limit in bytes.
    pub memory_limit: usize,
    /// Bytes of the VM one script may hold (see `budget::memory`); a quarter of
    /// `memory_limit` by default, so one script cannot fill the VM for the others.
    pub script_memory_share: usize,
    /// Units all scripts of one tick may use together before the rest of the tick's entries
    /// are deferred (see `tick_share`).
    pub tick_units: i64,
    /// Compile scripts to native code (Luau's code generator). Only takes effect when the
    /// crate's `jit` feature is on, and is then on by default; see the crate docs for why
    /// the feature is off by default.
    pub jit: bool,
    /// Where `game.Store` and `game.CloudStore` keep their data.
    pub stores: crate::store::StoreConfig,
    /// The host's seed for Scripts' `math.random` (each script instance draws from a
    /// generator of its own, seeded from this and the Script's id). None: one is picked
    /// from the clock at start, as Luau does; a recorded session keeps it
    /// ([`ScriptHost::random_seed`]) so a replay draws the same numbers.
    pub random_seed: Option<i32>,
    /// How long one top-level entry may hold the tick thread whatever the meter says
    /// (`budget::wall`); `None` turns the backstop off. A replay turns it off itself.
    pub wall_bound: Option<budget::WallBound>,
    /// The host's caps on the place's behaviour settings (`settings.behaviors`): a setting
    /// above its cap is lowered to it, with a warning in the log.
    pub behavior_caps: arbor_core::BehaviorCaps,
    /// Units all behaviour transactions of one tick may use together before the rest of the
    /// moment waits for the next tick ([`crate::BEHAVIOR_TICK_UNITS`] by default; see
    /// `behavior::share`).
    pub behavior_tick_units: i64,
}

impl Default for HostConfig {
    fn default() -> Self {
        Self {
            echo: false,
            client: false,
            memory_limit: MEMORY_LIMIT,
            script_memory_share: MEMORY_LIMIT / 4,
            tick_units: TICK_SHARE_UNITS,
            jit: cfg!(feature = "jit"),
            stores: crate::store::StoreConfig::default(),
            random_seed: None,
            wall_bound: Some(budget::WallBound::DEFAULT),
            behavior_caps: arbor_core::BehaviorCaps::default(),
            behavior_tick_units: crate::behavior::BEHAVIOR_TICK_UNITS,
        }
    }
}

/// One running script instance.
pub(crate) struct ScriptInstance {
    pub running: Running,
    pub env: Table,
    pub update: Option<Function>,
    pub physics_update: Option<Function>,
    pub errors: u32,
    pub disabled: bool,
    pub source: Arc<str>,
    /// ECS systems registered by the top-level chunk, in registration order.
    pub systems: Vec<ScriptSystem>,
}

/// Why a script could not be prepared.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Prepared {
    Ok(Arc<[u8]>),
    LoadError(String),
}

/// The script runtime of one place: add it to a [`Simulation`](arbor_sim::Simulation) as
/// [`TickHooks`](arbor_sim::TickHooks) and the place's scripts run in the tick's phases.
///
/// ```
/// use arbor_core::{Arena, Class};
/// use arbor_script::{HostConfig, ScriptHost};
/// use arbor_sim::{SimConfig, Simulation};
/// use std::{cell::RefCell, rc::Rc};
///
/// let mut arena = Arena::new();
/// let ws = arena.workspace();
/// let script = arena.create(Class::Script, "Counter", Some(ws)).unwrap();
/// let source = "local n = 0\nfunction Update(dt) n += 1 if n == 3 then print('three updates') end end";
/// arena.set_script_source(script, source).unwrap();
///
/// let host = Rc::new(RefCell::new(ScriptHost::new(&arena, HostConfig::default()).unwrap()));
/// let mut sim = Simulation::new(arena, SimConfig::default()).unwrap();
/// sim.add_hooks(host.clone());
/// sim.run(5);
/// let log: Vec<String> = host.borrow().log().into_iter().map(|l| l.text).collect();
/// assert!(log.contains(&"Workspace.Counter: three updates".to_string()), "{log:?}");
/// ```
pub struct ScriptHost {
    pub(crate) lua: Lua,
    pub(crate) base: Table,
    pub(crate) instances: Vec<ScriptInstance>,
    started: FxHashSet<Id>,
    pub(crate) bytecode: FxHashMap<Arc<str>, Prepared>,
    topology_seen: Option<u64>,
    /// Scripts to start again at the next tick although the topology did not change (a
    /// reload gave a script with no running instance new source).
    pub(crate) requeued: Vec<Id>,
    spare: Option<Arena>,
    pub(crate) world: Rc<WorldSlot>,
    players: Rc<PlayersSlot>,
    root: Id,
    running: Rc<RunningStack>,
    pub(crate) next_key: u64,
    /// The tick-level bound on script work.
    pub(crate) share: TickShare,
    /// The place's behaviours (`docs/behaviours.md`).
    pub(crate) behaviors: crate::behavior::Behaviors,
    /// Ticks the behaviours' world clock was ahead when this host started (a resumed save).
    pub(crate) clock_offset: u64,
    /// The seed every script instance's `math.random` generator is derived from (with the
    /// Script's id, `crate::instances::random`).
    random_seed: i32,
}

/// Why [`ScriptHost::new`] could not build a host (nothing was started).
#[derive(Debug, thiserror::Error)]
pub enum HostError {
    /// [`HostConfig::memory_limit`] leaves too little memory for the sandbox itself.
    #[error("the script memory limit ({limit} bytes) is too small to set up the sandbox")]
    MemoryLimitTooSmall {
        /// The limit asked for.
        limit: usize,
        /// The allocation that failed.
        #[source]
        source: mlua::Error,
    },
    /// Luau refused part of the sandbox's own set-up.
    #[error("the script sandbox could not be set up: {0}")]
    Sandbox(#[source] mlua::Error),
}

impl ScriptHost {
    /// The seed Scripts' `math.random` started from (give it as [`HostConfig::random_seed`]
    /// to draw the same numbers again).
    pub fn random_seed(&self) -> i32 {
        self.random_seed
    }

    /// How many error lines scripts caused so far (load, init and runtime errors, and
    /// errors in signal handlers), including lines already taken from the log.
    pub fn error_count(&self) -> u64 {
        self.lua.app_data_ref::<HostState>().map_or(0, |s| s.log.error_count())
    }

    /// The log collected so far.
    pub fn log(&self) -> Vec<LogLine> {
        self.lua.app_data_ref::<HostState>().map(|s| s.log.lines().cloned().collect()).unwrap_or_default()
    }

    /// Takes the log lines collected so far.
    pub fn take_log(&mut self) -> Vec<LogLine> {
        self.lua.app_data_mut::<HostState>().map(|mut s| s.log.take()).unwrap_or_default()
    }

    /// Entries deferred to a later tick because the scripts of their tick used their share
    /// ([`HostConfig::tick_units`]), since the host started.
    pub fn deferred_entries(&self) -> u64 {
        self.share.deferred_total()
    }

    /// Waits until every put accepted by `game.Store` is durable (or its commit failed for
    /// good and was logged), and the cloud store's pending writes are sent; call it when the
    /// server stops.
    pub fn shutdown_stores(&mut self) {
        crate::store::shutdown(&self.lua);
    }

    /// [`shutdown_stores`](Self::shutdown_stores) that waits until `deadline` at most (a
    /// server whose grace period is running out); returns the local puts not durable, the
    /// cloud writes not landed and the session locks not released by then (empty: all done).
    pub fn shutdown_stores_by(&mut self, deadline: std::time::Instant) -> crate::store::Abandoned {
        crate::store::shutdown_by(&self.lua, deadline)
    }

    /// The local stores' counters (accepted, durable, commits, failed commits), after taking
    /// the writer's latest reports into the log.
    pub fn store_stats(&self) -> crate::store::StoreStats {
        crate::store::stats(&self.lua)
    }

    /// The cloud store's queue depth and locks held, or `None` until a script opened a
    /// cloud store.
    pub fn cloud_queue(&self) -> Option<crate::store::CloudQueue> {
        crate::store::cloud_store::queue(&self.lua)
    }

    /// Adds a line to the host's log on behalf of what drives it (a client runtime's code
    /// that could not be installed), echoed like the scripts' own lines.
    pub fn log_line(&self, level: crate::log::Level, text: String) {
        self.push_log(level, text);
    }

    /// On a client host: the character this client's user owns, as the server told it
    /// (`game.Session.LocalCharacter()`).
    pub fn set_local_character(&mut self, character: Option<Id>) {
        let _ = with_state(&self.lua, |s| s.local_character = character);
    }

    /// Running instances.
    pub fn instance_count(&self) -> usize {
        self.instances.len()
    }

    /// Whether the instance of script `id` is disabled by errors.
    pub fn is_disabled(&self, id: Id) -> Option<bool> {
        self.instances.iter().find(|i| i.running.script == id).map(|i| i.disabled)
    }

    /// Live signal connections.
    pub fn connection_count(&self) -> usize {
        self.lua.app_data_ref::<crate::signals::Signals>().map_or(0, |s| s.count())
    }

    /// Runs `f` with the world moved into the VM (so callbacks can reach it), then moves it
    /// back into `arena`.
    pub(crate) fn with_world_in<R>(&mut self, arena: &mut Arena, f: impl FnOnce(&mut Self) -> R) -> R {
        let spare = self.spare.take().expect("spare arena present between phases");
        self.world.put(std::mem::replace(arena, spare));
        let result = f(self);
        let world = self.world.take().expect("world returned by the VM");
        self.spare = Some(std::mem::replace(arena, world));
        result
    }

    /// Runs `f` with the world and the sessions moved into the VM, then moves them back
    /// into `ctx`.
    fn with_tick_in<R>(&mut self, ctx: &mut TickContext<'_>, f: impl FnOnce(&mut Self) -> R) -> R {
        self.players.put(std::mem::take(ctx.players));
        let result = self.with_world_in(ctx.arena, f);
        *ctx.players = self.players.take().expect("sessions returned by the VM");
        result
    }
}
