//! # arbor-sim
//!
//! The 60 Hz server tick over an [`arbor_core::Arena`]: the phase scheduler and its profiler,
//! the world-transform pass, rapier3d physics, lifetimes and fallen parts. Scripts and
//! networking plug into the tick's phases through [`TickHooks`](crate::TickHooks).
