//! [`LifecycleView`]: scoped read access to tombstones during lifecycle event delivery.
//!
//! Ordinary lookup never returns a destroyed node. While delivering a `Destroyed` event, a
//! consumer opens a view scoped to that event's subject; inside it, the subject and its
//! destroyed subtree are readable (never writable, never back in the world). Nested scopes
//! add subjects; dropping a scope restores the enclosing view.

use crate::arena::Arena;
use crate::id::Id;
use crate::nodes::page::NodeRef;
use smallvec::SmallVec;

/// Reads live nodes, plus the tombstones under the scope's subjects.
pub struct LifecycleView<'a> {
    arena: &'a Arena,
    subjects: SmallVec<[Id; 2]>,
}

impl Arena {
    /// A view in which `subject` and its destroyed subtree are readable.
    pub fn lifecycle_view(&self, subject: Id) -> LifecycleView<'_> {
        LifecycleView { arena: self, subjects: SmallVec::from_slice(&[subject]) }
    }
}

impl<'a> LifecycleView<'a> {
    /// A nested scope adding `subject`; dropping it restores this view.
    pub fn scope(&self, subject: Id) -> LifecycleView<'a> {
        let mut subjects = self.subjects.clone();
        subjects.push(subject);
        LifecycleView { arena: self.arena, subjects }
    }

    /// The node with `id` if live, or a tombstone inside a scoped subject's subtree.
    pub fn get(&self, id: Id) -> Option<NodeRef<'a>> {
        let node = self.arena.store.node(id)?;
        if !node.is_destroyed() {
            return Some(node);
        }
        let mut cur = Some(node);
        while let Some(n) = cur {
            if !n.is_destroyed() {
                return None;
            }
            if self.subjects.contains(&n.id()) {
                return Some(node);
            }
            cur = n.parent().and_then(|p| self.arena.store.node(p));
        }
        None
    }
}
