//! Node storage: where every instance's fields live, and how a snapshot shares them.
//!
//! - [`page`]: [`NodePage`](page::NodePage), 64 nodes; each node's hot fields in one 64-byte
//!   [`HotNode`](hot::HotNode) ([`hot`]), the rest by column.
//! - [`page_table`]: the two-level copy-on-write table of pages; [`cow`]: the copy-on-write
//!   vector under it, which knows which items it already owns.
//! - [`store`]: [`NodeStore`](store::NodeStore), the pages plus the id → slot lookup (a
//!   [`sharded_map`]).
//! - [`snapshot`]: an immutable, thread-shareable view of the store at one moment and the
//!   diff between two; [`view`]: the read-only view whole-tree passes take.
//! - [`child_array`]: a node's ordered child list.
//!
//! Invariant (shared by all of them): a snapshot shares every page; the first write to a page
//! after a snapshot copies that page (and its directory) once, so a snapshot costs one
//! pointer per page and never sees a later write.

pub(crate) mod child_array;
pub(crate) mod cow;
pub(crate) mod hot;
pub(crate) mod page;
pub(crate) mod page_table;
pub(crate) mod sharded_map;
pub(crate) mod snapshot;
pub(crate) mod store;
pub(crate) mod view;
