//! # arbor-core
//!
//! The place tree of the Arbor game server: a tree of instances stored by column in
//! copy-on-write pages, with runtime ids that are never reused, interned names and handles,
//! revision domains and bounded change logs, hierarchy edits that validate first and queue
//! events, destruction with tombstones and two-phase reclamation, clone and graft with
//! reference remapping, and snapshots that cost one pointer per directory of pages.
//!
//! The entry point is [`Arena`]. `docs/architecture.md` in the repository maps the crates and
//! the invariants they keep.

mod arena;
mod behaviors;
mod class;
mod components;
mod error;
mod events;
mod id;
mod journal;
mod lifecycle;
mod names;
mod nodes;
mod place;
mod revision;
mod rng;
mod value;

pub use arena::{
    AncestryQuery, Arena, ArenaConfig, GraftPolicy, LiveNodes, MAX_ATTRIBUTES, MemoryReport, NodeData,
    NodeMut, SearchLimitReached, TopologyChange,
};
pub use behaviors::{BehaviorLibrary, BehaviorSettings};
pub use class::{ALL_CLASSES, ALL_FAMILIES, Class, Family};
pub use components::{
    Block, CHUNK_ROWS, ChunkLanes, ChunkView, ComponentId, ComponentInfo, ComponentStore, FieldDef,
    FieldType, FieldValue, Lane, LaneKind, PodBundle, PodComponent, Query, RefPolicy, Schema, SchemaError,
    SchemaRegistry, WRITE_LOG_CAPACITY,
};
pub use error::ArenaError;
pub use events::InstanceEvent;
pub use id::{CLIENT_ID_BASE, CLIENT_ID_LIMIT, Id, IdAllocator, IdRange, Slot};
pub use journal::{BoundedLog, HistoryUnavailable, PART_WRITE_LOG_CAPACITY};
pub use lifecycle::LifecycleView;
pub use names::{MAX_NAME_BYTES, NameError, NameId, NamePool, check_name};
pub use nodes::child_array::ChildArray;
pub use nodes::hot::HotNode;
pub use nodes::hot::LocalTransform;
pub use nodes::page::{DEFAULT_SIZE, NodeRef, PAGE_SIZE};
pub use nodes::page_table::DIR_SIZE;
pub use nodes::snapshot::{ComponentDiff, Snapshot, SnapshotDiff};
pub use nodes::view::{NodesView, PageView};
pub use place::{
    AttributeDoc, BehaviorDoc, ComponentDoc, ComponentRowDoc, DEFAULT_FALLEN_PARTS_DESTROY_HEIGHT,
    FALLEN_PARTS_DESTROY_HEIGHT, FieldDoc, FieldTypeDoc, InstanceDoc, JSON_NESTING, MAX_SOURCE_FILE_BYTES,
    MaterialDoc, PLACE_BINARY_MAGIC, PLACE_FORMAT, PLACE_FORMAT_VERSION, PlaceError, PlaceFile,
    PlaceSettings, RefPolicyDoc, ScriptFile, ShapeDoc, load_binary, load_json, load_json_file, load_json_in,
    save_binary, save_json,
};
pub use revision::Revisions;
pub use rng::SplitMix64;
pub use value::{
    Appearance, AttributeValue, Color, Guid, Material, NodeExtras, NodeFlags, PersistentId, RefField, Shape,
};

/// Re-exported math types used in the public API.
pub use glam::{Quat, Vec3};

/// The README's example, compiled and run as a doctest so it stays true.
#[cfg(doctest)]
#[doc = include_str!("../../README.md")]
pub struct ReadmeDoctests;
