//! Client-side prediction, reconciliation and interpolation (`docs/networking.md`,
//! "Prediction and reconciliation", "Interpolation"), one concept per file:
//!
//! - [`InputHistory`] (`history`): the client numbers one [`InputCommand`] per 1/60 s step
//!   and keeps those the server has not acknowledged; every input message carries the newest
//!   [`MAX_INPUT_COMMANDS`](crate::wire::MAX_INPUT_COMMANDS).
//! - [`CommandQueue`] (`queue`): the server's per-client queue, applying one command per
//!   physics tick in sequence order, repeating the last when it runs dry.
//! - [`PredictionWorld`] (`world`): an `arbor_sim` physics world of the static geometry and
//!   the other characters near the character, and a body for it, stepped with the server's
//!   own controller.
//! - [`Predictor`] (`predictor`): steps the character on each command, and on each server
//!   [`CharacterState`](crate::wire::CharacterState) rewinds to it and replays the commands
//!   not yet acknowledged.
//! - [`InputPacer`] (`pacing`): runs the client's command clock up to 5% fast or slow so
//!   the server's queue of its commands stays short but never empty.
//! - [`Correction`] (`smoothing`): the shown position glides onto the corrected prediction,
//!   at most [`MAX_CORRECTION_STEP`] studs a frame.
//! - [`Interpolator`] (`interpolation`): other characters, shown
//!   [`INTERPOLATION_DELAY`] behind the estimated server clock.
//!
//! Invariants: see each file; nothing here trusts the wire (a state naming an unissued
//! command, an old epoch, a non-finite value is ignored), and nothing panics on it.

mod history;
mod interpolation;
mod pacing;
mod predictor;
mod queue;
mod smoothing;
mod world;

pub use crate::wire::InputCommand;
pub use history::{Ack, InputHistory, MAX_UNACKED};
pub use interpolation::{INTERPOLATION_DELAY, Interpolator, MAX_CLOCK_LEAD, MAX_SAMPLES, STILL_AFTER_TICKS};
pub use pacing::{DEAD_BAND, InputPacer, MAX_DILATION, TARGET_QUEUED};
pub use predictor::{MAX_ERROR_SAMPLES, PredictionStats, Predictor, command_axis, command_drive};
pub use queue::{CommandQueue, MAX_QUEUED_COMMANDS};
pub use smoothing::{CORRECTION_DECAY, Correction, MAX_CORRECTION_STEP, SNAP_DISTANCE};
pub use world::{GEOMETRY_RADIUS, PredictionWorld, RESCAN_DISTANCE, STEP_SECONDS, snap_rotation, world_pose};

#[cfg(test)]
mod tests;
