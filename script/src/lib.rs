//! # arbor-script
//!
//! Luau scripts for Arbor, on `mlua` with Luau (vendored with Arbor's metering hooks). The
//! crate holds:
//!
//! - the script host ([`ScriptHost`]): one VM per place, sandboxed `Script` instances with
//!   `Update` and `PhysicsUpdate` hooks, the consecutive-error counter and the script log
//!   ([`ScriptLog`]), and hot reload with `Migrate` ([`ReloadError`]);
//! - the meter (`budget`): deterministic per-entry budgets in logical units, per-script
//!   memory shares, the wall-clock backstop, and the tick's share across scripts;
//! - the Instance API (properties, attributes, hierarchy, `Clone`, `Destroy`, `Vector3` as
//!   Luau's native vector, the `Physics` service) and signals ([`Signal`]);
//! - game-defined components (`game.Components.Define`, `AddComponent`/`GetComponent`,
//!   component handles) and ECS systems registered at a script's top level
//!   (`game.Systems.Register`, dispatched server-only in the Systems phase);
//! - players: `game.Session`, the script face of [`arbor_sim::players::Players`] (join, leave and
//!   death signals, `BindCharacter`, `Damage`, `Kick`);
//! - stores: `game.Store` (place-local, SQLite, group-committed each tick) and
//!   `game.CloudStore` (shared by a fleet: offline SQLite or PostgreSQL, compare-and-swap
//!   updates, session locks), configured by [`StoreConfig`]; the stores themselves are the
//!   `arbor-store` crate, this one gives them their Luau surface;
//! - behaviours: transactional, resumable scripts bound to host instances by `Behavior`
//!   instances, with checked arithmetic, error reports ([`BehaviorReport`]) and saves that
//!   resume ([`ResumeError`]).
//!
//! The guides are `docs/scripting.md`, `docs/stores.md` and `docs/behaviours.md`; the map of
//! the modules is `docs/architecture.md` ("`arbor-script`").
//!
//! [`ScriptHost`] implements [`arbor_sim::TickHooks`]: add it to a
//! [`Simulation`](arbor_sim::Simulation) and the place's scripts run in the tick's phases.
//!
//! ## Speed of the Instance API
//!
//! Instance handles are tagged Luau userdata whose properties are served by C functions that
//! dispatch on Luau string atoms and reach the world with one borrow (`instances::handle`);
//! constant-key accesses skip the metamethod through Luau's direct userdata access. Figures:
//! `docs/perf/scripts-history.md`.
//!
//! ## Native code (`jit` feature, off)
//!
//! The `jit` feature compiles scripts with Luau's native code generator
//! ([`HostConfig::jit`]). It stays off because the budget must stop scripts at the same
//! instruction on every machine, and native code does not (`tests/jit.rs`; the measurements
//! and the reasons in full: `docs/perf/scripts-history.md`).

mod behavior;
pub mod budget;
mod env;
mod host;
mod instances;
mod log;
mod luau;
mod phase_slot;
mod session;
mod signals;
mod state;
mod store;
mod systems;
mod tick_share;
mod types;
mod usage;
mod world_slot;

pub use behavior::{
    BEHAVIOR_ATTRIBUTE, BEHAVIOR_STATE_FORMAT, BEHAVIOR_TICK_UNITS, BehaviorReport, BehaviorStats,
    ResumeError,
};
pub use budget::{BUDGET_MESSAGE, CostTable, ENTRY_BUDGET, SHARE_MESSAGE, WALL_MESSAGE};
pub use host::{
    HostConfig, HostError, MAX_CONSECUTIVE_ERRORS, MEMORY_LIMIT, ReloadError, ScriptHost, compile_bytecode,
};
pub use instances::instance::Instance;
pub use log::{LOG_CAPACITY, Level, LogLine, MAX_LINE_BYTES, ScriptLog};
pub use signals::Signal;
pub use store::{Abandoned, CloudQueue, LOCAL_STORE_FILE, StoreConfig, StoreStats};
pub use systems::NOT_TOP_LEVEL;
pub use tick_share::{REPORT_EVERY_TICKS, TICK_SHARE_UNITS};
pub use types::luau_definitions;
pub use usage::ScriptUsage;
