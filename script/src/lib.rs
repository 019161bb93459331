//! # arbor-script
//!
//! Luau scripts for Arbor, on `mlua` with Luau: sandboxed script instances with
//! deterministic instruction budgets, the Instance API (properties, attributes, hierarchy,
//! `Clone`, `Destroy`, signals), `Vector3` as Luau's native vector, `Update` and
//! `PhysicsUpdate` hooks with the consecutive-error counter, and hot reload with `Migrate`.
//!
//! [`ScriptHost`] implements [`arbor_sim::TickHooks`]: add it to a
//! [`Simulation`](arbor_sim::Simulation) and the place's scripts run in the tick's phases.

mod api;
pub mod budget;
mod host;
mod log;
mod reload;
mod signals;
mod state;

pub use api::instance::Instance;
pub use budget::{BUDGET_MESSAGE, ENTRY_BUDGET};
pub use host::{HostConfig, MAX_CONSECUTIVE_ERRORS, MEMORY_LIMIT, ScriptHost};
pub use log::{Level, LogLine, ScriptLog};
pub use reload::ReloadError;
pub use signals::Signal;
