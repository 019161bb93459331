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
//! Instance handles are tagged Luau userdata whose properties are served by C functions
//! that dispatch on Luau string atoms and reach the world with one borrow (`instances::handle`);
//! constant-key accesses (`part.Position`) skip the metamethod call through Luau's direct
//! userdata access, and `Vector3` reads and writes allocate nothing. Figures:
//! `docs/perf/scripts-history.md` ("Instance API speed and the `jit` feature").
//!
//! ## Native code (`jit` feature, off)
//!
//! The `jit` feature builds Luau's native code generator (mlua `luau-jit`) and compiles
//! scripts with it ([`HostConfig::jit`]): faster loops, slower property reads (figures:
//! `docs/perf/scripts-history.md`).
//!
//! It is not adopted because the budget would stop being exact across machines. Native code
//! charges the same units at the same instructions except the numeric `for`: it calls the
//! interrupt at the top of each body instead of at `FORNLOOP` after it, so an overrunning
//! loop runs one body fewer than interpreted (`tests/jit.rs`). The code generator only
//! exists for x64 and arm64 and leaves functions it cannot compile to the interpreter, so
//! the same script would abort at different points on different machines, which the
//! budget's contract forbids. Every other test passes with it on
//! (`cargo test -p arbor-script --features jit`).

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
mod world_slot;

pub use behavior::{
    BEHAVIOR_ATTRIBUTE, BEHAVIOR_STATE_FORMAT, BEHAVIOR_TICK_UNITS, BehaviorReport, BehaviorStats,
    ResumeError,
};
pub use budget::{BUDGET_MESSAGE, CostTable, ENTRY_BUDGET, SHARE_MESSAGE, WALL_MESSAGE};
pub use host::{HostConfig, HostError, MAX_CONSECUTIVE_ERRORS, MEMORY_LIMIT, ReloadError, ScriptHost};
pub use instances::instance::Instance;
pub use log::{LOG_CAPACITY, Level, LogLine, MAX_LINE_BYTES, ScriptLog};
pub use signals::Signal;
pub use store::{LOCAL_STORE_FILE, StoreConfig, StoreStats};
pub use systems::NOT_TOP_LEVEL;
pub use tick_share::{REPORT_EVERY_TICKS, TICK_SHARE_UNITS};
