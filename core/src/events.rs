//! [`InstanceEvent`]: lifecycle and hierarchy events queued by the arena and returned by
//! [`Arena::drain_events`](crate::Arena::drain_events).
//!
//! A move queues, in order: removal from the old ancestors, child removed, child added,
//! ancestry changed, addition to the new ancestors. Every event of one edit shares one
//! `Arc<[Id]>` of the moved ids (the moved root first, then its descendants in pre-order), so
//! moving a large subtree never copies that list per event.

use crate::id::Id;
use std::sync::Arc;

/// One queued event.
#[derive(Clone, Debug, PartialEq)]
pub enum InstanceEvent {
    /// `moved` is leaving the subtrees of `ancestors` (old parent first, up to the root).
    DescendantRemoving {
        /// Old ancestors, nearest first.
        ancestors: Arc<[Id]>,
        /// Moved ids: root first, then descendants.
        moved: Arc<[Id]>,
    },
    /// `child` was removed from `parent`'s children.
    ChildRemoved {
        /// The old parent.
        parent: Id,
        /// The moved root.
        child: Id,
    },
    /// `child` was appended to `parent`'s children.
    ChildAdded {
        /// The new parent.
        parent: Id,
        /// The moved root.
        child: Id,
    },
    /// The ancestry of every id in `moved` changed (new parent `parent`, `None` = detached).
    AncestryChanged {
        /// The moved root's new parent.
        parent: Option<Id>,
        /// Moved ids: root first, then descendants.
        moved: Arc<[Id]>,
    },
    /// `moved` joined the subtrees of `ancestors` (new parent first, up to the root).
    DescendantAdded {
        /// New ancestors, nearest first.
        ancestors: Arc<[Id]>,
        /// Moved ids: root first, then descendants.
        moved: Arc<[Id]>,
    },
    /// `subtree` (root first) was destroyed; tombstones stay readable until the next drain
    /// after the one that returns this event.
    Destroyed {
        /// The destroyed root.
        root: Id,
        /// Every destroyed id, root first.
        subtree: Arc<[Id]>,
    },
}
