//! # arbor-core
//!
//! The place tree of the Arbor game server: a tree of instances stored by column in
//! copy-on-write pages, with runtime ids that are never reused, interned names and handles,
//! revision domains and bounded change logs, hierarchy edits that validate first and queue
//! events, destruction with tombstones and two-phase reclamation, clone and graft with
//! reference remapping, and snapshots that cost one pointer per directory of pages.
//!
//! The entry point is [`Arena`]; a fresh arena's tree can also be built in bulk with
//! [`ArenaBuilder`]. The root holds the arena, its errors and the values a caller touches.
//! [`components`] holds game-defined components (schemas, rows, queries), [`limits`] the
//! limits the arena enforces, [`settings`] the Workspace settings a place may give, and
//! [`raw`] the storage that `arbor-sim`'s passes read directly (pages, hot records, slots,
//! logs). Place files (saving and loading whole places) are the `arbor-place` crate, built on
//! this face.
//! `docs/architecture.md` in the repository maps the crates and the invariants they keep.

mod arena;
mod behaviors;
mod bounded_log;
mod class;
pub mod components;
mod error;
mod events;
mod id;
mod lifecycle;
mod names;
mod nodes;
pub mod raw;
mod revision;
mod rng;
mod run_context;
mod setting_error;
mod value;
mod workspace_settings;

pub use arena::{
    Arena, ArenaBuilder, ArenaConfig, GraftPolicy, HasherStats, MemoryReport, NodeFields, NodeMut,
    WorldHasher,
};
pub use behaviors::{
    BEHAVIOR_LIMITS, BehaviorCaps, BehaviorLibrary, BehaviorLimit, BehaviorSettings, MAX_EXACT_SETTING,
    MAX_WORLD_MINUTES_PER_SECOND,
};
pub use class::{Class, Family};
pub use error::ArenaError;
pub use events::InstanceEvent;
pub use id::{Id, IdRange};
pub use nodes::hot::LocalTransform;
pub use nodes::snapshot::{Snapshot, SnapshotDiff};
pub use run_context::{RUN_CONTEXT_ATTRIBUTE, RunContext, RunContextError};
pub use setting_error::{Capped, SettingError};
pub use value::{
    Appearance, AttributeValue, Color, Guid, Material, NodeFlags, PersistentId, RefField, Shape,
};

// The errors of the calls above that have their own types.
pub use arena::{NotFresh, SearchLimitReached};
pub use bounded_log::HistoryUnavailable;
pub use names::NameError;

/// Re-exported math types used in the public API.
pub use glam::{Quat, Vec3};

/// Limits the arena enforces, for callers that check before they call.
pub mod limits {
    pub use crate::arena::MAX_ATTRIBUTES;
    pub use crate::bounded_log::PART_WRITE_LOG_CAPACITY;
    pub use crate::names::MAX_NAME_BYTES;
}

/// The Workspace settings a place may give (one table: name, default, range, rule).
pub mod settings {
    pub use crate::workspace_settings::{
        FALLEN_PARTS_DESTROY_HEIGHT, MAX_CREATIONS_PER_TICK, MAX_INSTANCES, MAX_TEXT_BYTES,
        REPLICATION_BUDGET, STREAMING_RADIUS, SettingRule, WORKSPACE_SETTINGS, WorkspaceSetting,
    };
}

/// The README's example, compiled and run as a doctest so it stays true.
#[cfg(doctest)]
#[doc = include_str!("../../README.md")]
pub struct ReadmeDoctests;
