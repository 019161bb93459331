//! # arbor-sim
//!
//! The 60 Hz server tick over an [`arbor_core::Arena`]. The root holds the tick itself: the
//! [`Simulation`] and what it is built with and reports ([`SimConfig`], [`SimCaps`],
//! [`TickReport`]), the hooks other crates plug in through ([`TickHooks`], [`TickContext`]),
//! the phases ([`Phase`]) and their profiler ([`Profiler`]). What the engine itself does in the
//! tick is one module each:
//!
//! - [`transform`]: the parallel world-transform pass ([`transform::WorldTransforms`]);
//! - [`physics`]: rapier3d physics ([`physics::Physics`]) with the world-wide crowding bounds
//!   and dormant anchored parts;
//! - [`players`]: player sessions ([`players::Players`]): the join, leave and kick queues,
//!   binding a character, movement from inputs, death, and the journal of transport calls a
//!   replay feeds back;
//! - [`lifetime`] and [`fallen`]: engine-owned destruction ([`lifetime::Lifetimes`],
//!   [`fallen::FallenParts`]).
//!
//! Scripts, stores, behaviours and networking live in other crates and plug into the tick's
//! phases through [`TickHooks`]. The map of the crates: `docs/architecture.md`.

pub mod fallen;
pub mod lifetime;
mod phase;
pub mod physics;
pub mod players;
mod prefetch;
mod profiler;
mod span_ring;
mod tick;
mod trace_file;
pub mod transform;

pub use phase::{PHASES, Phase};
pub use profiler::{PhaseSummary, Profiler, TickCounters};
pub use span_ring::{RING_TICKS, TraceWindow};
pub use tick::{SimCaps, SimConfig, SimError, Simulation, TickContext, TickHooks, TickReport};
