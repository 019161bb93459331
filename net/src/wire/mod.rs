//! The wire format: the messages ([`SnapshotMessage`] and its [`SnapshotBuilder`], the
//! client's [`Input`] with its [`CommandWindow`] of numbered [`InputCommand`]s, the server's
//! per-client [`CharacterState`], the reliable [`Control`] messages, a client script's
//! [`ScriptCode`]), the replicated state of one
//! instance ([`EntityState`] in [`Groups`], with its [`WireValue`]s), the quantisation of
//! positions and rotations, and the delta forms of an update's position
//! ([`PositionSend`], [`PositionWire`]) and components ([`ComponentSend`],
//! [`ComponentPatch`]). The byte layout is in `docs/networking.md` ("Wire format").
//!
//! Invariants: every decoder bounds each count by a maximum and by the bytes left before it
//! allocates, and returns a [`DecodeError`] on any input, never a panic; every message fits
//! [`MAX_MESSAGE_BYTES`]; the server and a replica hash the same quantised integers, so
//! equal hashes mean equal states.

mod character_state;
mod codec;
mod commands;
mod component_delta;
mod control;
mod message;
mod position_delta;
mod quantize;
mod script_code;
mod state;
mod value;

pub(crate) use character_state::CHARACTER_STATE;
pub use character_state::{BodyState, CharacterState};
pub use codec::DecodeError;
pub use commands::{CommandWindow, InputCommand, MAX_INPUT_COMMANDS};
pub use component_delta::{ComponentPatch, ComponentSend};
pub use control::Control;
pub use message::{BuilderMark, Input, MAX_MESSAGE_BYTES, SnapshotBuilder, SnapshotEntry, SnapshotMessage};
pub use position_delta::{POSITION_HISTORY, PositionHistory, PositionSend, PositionWire};
pub use quantize::{POSITION_STEPS, dequantize_position};
#[cfg(test)]
pub(crate) use quantize::{dequantize_rotation, quantize_rotation};
pub use script_code::{MAX_SCRIPT_CODE_BYTES, ScriptCode};
pub use state::{EntityState, Groups, UpdateParts};
pub use value::WireValue;

pub(crate) use quantize::quantize_position;
pub(crate) use state::REPLICATED_FLAGS;
