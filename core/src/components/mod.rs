//! Game-defined components: a columnar archetype store attached to the arena.
//!
//! - `schema`: run-time schemas with typed fields, requirements and reference policies;
//! - `lane_layout` / `table_chunk` / `chunk_list` / `table`: where each SIMD-aligned lane sits in a table
//!   chunk, the table chunk holding every lane of [`CHUNK_ROWS`] rows in one allocation
//!   (with per-lane, per-chunk and per-64-row revisions), a table's copy-on-write list of
//!   them, and archetype tables; `changes`: which rows of a table were written since
//!   a revision; `row_move`: moving a row between two tables (adding or removing a
//!   component) in one pass over both; `append`: batch appends writing each word once;
//!   `stage`: a batch's rows staged before its instances exist, then committed or dropped;
//! - `field_handle`: [`FieldHandle`], a field resolved once for typed engine access;
//! - `indices`: the newtype indices of a table (rows, chunks, component slots);
//! - `locs`: where each instance's row is, in id-indexed copy-on-write pages;
//! - `sparse_set`: components stored apart from the archetypes ([`Storage::SparseSet`]),
//!   one table and one location index per component, for components added and removed often;
//!   `store_sparse`: the store's operations on those sets (finding, inserting and removing
//!   set rows, counting components and rows across tables and sets);
//! - `pass`: compact per-table plans that sequential chunk passes follow;
//! - `writelog`: per table and component, the rows written at each recent revision, so
//!   change detection visits only them;
//! - [`ComponentStore`]: tables, row locations and schemas, shared by snapshots;
//! - [`Query`], [`ChunkView`], [`ChunkLanes`]: iteration, parallel chunk passes, change
//!   detection;
//! - [`PodComponent`] / [`PodBundle`]: typed zero-copy access for engine code.
//!
//! Component membership never creates a parent-child relationship: the arena's hierarchy
//! stays the authority for ancestry. Edits go through [`Arena`](crate::Arena), which stamps
//! revisions and keeps the reverse reference index.

mod append;
mod changes;
mod chunk_lanes;
mod chunk_list;
mod field_handle;
mod indices;
mod lane_layout;
mod locs;
mod pass;
mod pod;
mod query;
mod row_move;
mod schema;
mod sparse_set;
mod stage;
mod store;
mod store_sparse;
mod table;
mod table_chunk;
mod writelog;

pub use chunk_lanes::ChunkLanes;
pub use field_handle::FieldHandle;
pub use lane_layout::{Block, CHUNK_ROWS, LaneKind};
pub use pod::{PodBundle, PodComponent};
pub use query::{ChunkView, Lane, Query};
pub use schema::{
    ComponentId, ComponentInfo, FieldDef, FieldType, FieldValue, RefPolicy, Schema, SchemaError,
    SchemaRegistry, Storage,
};
pub use store::ComponentStore;
pub use writelog::WRITE_LOG_CAPACITY;

#[cfg(test)]
pub(crate) use chunk_lanes::WideLanes;
pub(crate) use indices::TableRow;
pub(crate) use lane_layout::LaneValue;
pub(crate) use locs::RowLoc;
pub(crate) use schema::encode;
pub(crate) use table::Table;
