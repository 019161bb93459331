//! # arbor-net
//!
//! Arbor's networking: clients connect over UDP through renet and netcode.io (signed connect
//! tokens, encrypted and authenticated packets), receive the place, and stay in step with it
//! through per-client delta snapshots every network tick.
//!
//! - [`NetServer`] plugs into the tick ([`arbor_sim::TickHooks`]): connections become
//!   [`NetEvent`]s; a shared [`Mirror`] reads what changed from the arena's logs; a
//!   [`ClientView`] per client keeps what that client holds within its streaming range and
//!   fills its messages by priority under a byte budget.
//! - [`Client`] is the replica client: a [`Replica`] arena with server ids, a world hash to
//!   compare with the server's, acks and inputs.
//! - The wire format ([`SnapshotMessage`], [`Input`], [`Control`]) is in `docs/networking.md`.

mod cell_changes;
mod client;
mod codec;
mod component_delta;
mod error;
mod message;
mod mirror;
mod position_delta;
mod quantize;
mod replica;
mod server;
mod state;
mod transport;
mod view;

pub use client::{Client, ClientStats};
pub use codec::DecodeError;
pub use component_delta::{ComponentPatch, ComponentSend};
pub use error::NetError;
pub use message::{Control, Input, MAX_MESSAGE_BYTES, SnapshotBuilder, SnapshotEntry, SnapshotMessage};
pub use mirror::{Cell, CellChanges, Changes, INTEREST_CELL_SIZE, Mirror, MirrorEntity, cell_of};
pub use position_delta::{POSITION_HISTORY, PositionHistory, PositionSend, PositionWire};
pub use quantize::{
    POSITION_STEPS, dequantize_position, dequantize_rotation, quantize_position, quantize_rotation,
};
pub use replica::{Applied, Replica, ReplicaStats, SERVER_ROOT, SERVER_WORKSPACE};
pub use server::{
    CLIENT_BUDGET, ClientReport, DEFAULT_CLIENT_BUDGET, DEFAULT_STREAMING_RADIUS, JOIN_WAIT,
    JOINS_PER_NETWORK_TICK, KICK_GRACE, MAX_INPUTS_PER_TICK, NetConfig, NetEvent, NetServer, NetStats,
    SHUTDOWN_REASON, STREAMING_RADIUS, Security, check_roots,
};
pub use state::{EntityState, Groups, UpdateParts, WireValue};
pub use transport::{
    ClientAuth, ClientTransport, PROTOCOL_ID, ServerKey, ServerTransport, issue_token, token_from_hex,
    token_to_hex,
};
pub use view::{AckError, ClientView, HISTORY_EPOCHS, STREAMING_HYSTERESIS, ViewStats};

/// Re-exported so callers can hold a token without depending on renet_netcode.
pub use renet_netcode::ConnectToken;
