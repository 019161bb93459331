//! # arbor-sim
//!
//! The 60 Hz server tick over an [`arbor_core::Arena`]: the phase scheduler and its profiler
//! ([`Simulation`], [`Phase`], [`Profiler`]) and what the engine itself does in the tick:
//!
//! - `transform`: the parallel world-transform pass ([`WorldTransforms`]);
//! - `physics`: rapier3d physics ([`Physics`]) with the world-wide crowding bounds and dormant
//!   anchored parts;
//! - `players`: player sessions ([`Players`]): the join, leave and kick queues, binding a
//!   character, movement from inputs, death, and the journal of transport calls a replay
//!   feeds back;
//! - [`Lifetimes`] and [`FallenParts`]: engine-owned destruction.
//!
//! Scripts, stores, behaviours and networking live in other crates and plug into the tick's
//! phases through [`TickHooks`]. The map of the crates: `docs/architecture.md`.

mod fallen;
mod lifetime;
mod phase;
pub mod physics;
pub mod players;
mod prefetch;
mod profiler;
mod tick;
pub mod transform;

pub use fallen::{DIED_ANNOUNCED, FallenParts};
pub use lifetime::{EXPIRY_TOLERANCE, LIFETIME, Lifetimes, MAX_LIFETIME, REMAINING, lifetime_schema};
pub use phase::{PHASES, Phase};
pub use physics::{
    CROWDED_AT, CROWDING_CELL_SIZE, CrowdingStats, DEFAULT_GRAVITY, DEFAULT_MAX_BODIES, FULL_PASS_EVERY,
    MAX_ANCHORED_OVERLAPS, MAX_BODIES_PER_CELL, MAX_CROWDED_PAIRS, MAX_DYNAMIC_PAIRS, MAX_EXTENT, MIN_EXTENT,
    Physics, PhysicsConfig, RECHECK_AFTER_CHANGES, RESUME_EVERY, RayHit, SyncStats, WORLD_EXTENT,
};
pub use players::{BindError, CharacterDied, MoveInput, Players, SessionInput};
pub use profiler::{PhaseSummary, Profiler, TickCounters};
pub use tick::{SimCaps, SimConfig, SimError, Simulation, TickContext, TickHooks, TickReport};
pub use transform::{PassMode, PassStats, WorldTransform, WorldTransforms};
