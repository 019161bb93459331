//! The storage under the arena, for passes that read it directly (`arbor-sim`'s transform,
//! physics and replication passes, the tests' model checker): pages of node columns, hot
//! records, slots and their views, the bounded logs and revision counters passes poll, the
//! name pool, id allocation and the seeded generator.
//!
//! Everything here is read-mostly and describes how the arena stores a place today; the
//! invariants each type keeps are on the type. Callers that only edit a place need nothing
//! from this module.

pub use crate::arena::{AncestryQuery, LiveNodes, NodeData, TopologyChange};
pub use crate::bounded_log::BoundedLog;
pub use crate::id::{CLIENT_ID_BASE, CLIENT_ID_LIMIT, IdAllocator, Slot};
pub use crate::lifecycle::LifecycleView;
pub use crate::names::{NameId, NamePool, check_name};
pub use crate::nodes::child_array::ChildArray;
pub use crate::nodes::hot::HotNode;
pub use crate::nodes::page::{DEFAULT_SIZE, NodeRef, PAGE_SIZE};
pub use crate::nodes::page_table::DIR_SIZE;
pub use crate::nodes::snapshot::ComponentDiff;
pub use crate::nodes::view::{NodesView, PageView};
pub use crate::revision::Revisions;
pub use crate::rng::SplitMix64;
pub use crate::value::NodeExtras;
