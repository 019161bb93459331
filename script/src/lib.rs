//! # arbor-script
//!
//! Luau scripts for Arbor, on `mlua` with Luau: sandboxed script instances with
//! deterministic instruction budgets, the Instance API (properties, attributes, hierarchy,
//! `Clone`, `Destroy`, signals), `Vector3` as Luau's native vector, `Update` and
//! `PhysicsUpdate` hooks with the consecutive-error counter, game-defined components
//! (`game.Components.Define`, `AddComponent`/`GetComponent`, component handles) and ECS
//! systems registered at a script's top level (`game.Systems.Register`, dispatched
//! server-only in the Systems phase), and hot reload with `Migrate`. The scripting guide is
//! `docs/scripting.md`.
//!
//! [`ScriptHost`] implements [`arbor_sim::TickHooks`]: add it to a
//! [`Simulation`](arbor_sim::Simulation) and the place's scripts run in the tick's phases.
//!
//! ## Speed of the Instance API
//!
//! Instance handles are tagged Luau userdata whose properties are served by C functions
//! that dispatch on Luau string atoms and reach the world with one borrow (`api::handle`).
//! Constant-key accesses (`part.Position`) go through Luau's direct userdata access, which
//! skips the metamethod call. A `Position` read through a local costs about what a bare
//! mlua Rust-function call from Lua costs, 1.35–1.5× that through the `self` global
//! (`script/property_x10k`, README); `Vector3` is Luau's native `vector`, so reads and
//! writes allocate nothing.
//!
//! ## Native code (`jit` feature, off)
//!
//! The `jit` feature builds Luau's native code generator (mlua `luau-jit`) and compiles
//! scripts with it ([`HostConfig::jit`]). Measured (`script/jit_x100k`, budget installed):
//! loops doing arithmetic or table writes run 1.3–3× faster, an empty loop gains nothing
//! (the budget interrupt dominates) and Instance property reads get ~1.5× *slower*, because
//! native code does not use direct userdata access and falls back to the metamethod.
//!
//! It is not adopted because the budget would stop being exact across machines. Native code
//! charges the same units at the same instructions except the numeric `for`: it calls the
//! interrupt at the top of each body instead of at `FORNLOOP` after it, so an overrunning
//! loop runs one body fewer than interpreted (`tests/jit.rs`). The code generator only
//! exists for x64 and arm64 and leaves functions it cannot compile to the interpreter, so
//! the same script would abort at different points on different machines, which the
//! budget's contract forbids. Every other test passes with it on
//! (`cargo test -p arbor-script --features jit`).

mod api;
mod behavior;
pub mod budget;
mod host;
mod log;
mod reload;
mod session;
mod signals;
mod state;
mod store;
mod systems;
mod tick_share;

pub use api::instance::Instance;
pub use behavior::{
    BEHAVIOR_ATTRIBUTE, BEHAVIOR_STATE_FORMAT, BEHAVIOR_TICK_UNITS, BehaviorReport, BehaviorStats,
    ResumeError,
};
pub use budget::{BUDGET_MESSAGE, CostTable, ENTRY_BUDGET, SHARE_MESSAGE, WALL_MESSAGE};
pub use host::{HostConfig, HostError, MAX_CONSECUTIVE_ERRORS, MEMORY_LIMIT, ScriptHost};
pub use log::{LOG_CAPACITY, Level, LogLine, MAX_LINE_BYTES, ScriptLog};
pub use reload::ReloadError;
pub use signals::Signal;
pub use store::{LOCAL_STORE_FILE, StoreConfig, StoreStats};
pub use systems::NOT_TOP_LEVEL;
pub use tick_share::{REPORT_EVERY_TICKS, TICK_SHARE_UNITS};
