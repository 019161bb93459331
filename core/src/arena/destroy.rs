//! Destruction: detach, mark the subtree destroyed, drop it from every index, apply
//! reference policies, queue the lifecycle event, lock `Parent`, log deletions.
//!
//! Destroyed nodes stay in their slots as readable tombstones (see
//! [`LifecycleView`](crate::raw::LifecycleView)) until the second event drain after their
//! destruction frees the slots. Destroying twice is a no-op.
//!
//! In an undo scope each step is journaled as it happens (see `undo`): the detach as a move,
//! the marking with each node's flags and component rows, every cleared reference of a live
//! holder, and cascades as destroys of their own; a rollback revives the subtree exactly.

use super::undo::{Tombstone, UndoEntry};
use super::{Arena, TopologyChange};
use crate::class::Class;
use crate::error::ArenaError;
use crate::events::InstanceEvent;
use crate::id::Id;
use crate::value::{AttributeValue, NodeFlags, RefField};
use std::sync::Arc;

impl Arena {
    /// Destroys `id` and its whole subtree. Returns `false` (doing nothing) if it was already
    /// destroyed.
    ///
    /// Refuses with `Destroy: the entity belongs to the platform` when any node of the
    /// subtree is platform-owned, changing nothing.
    pub fn destroy(&mut self, id: Id) -> Result<bool, ArenaError> {
        let Some(node) = self.store.node(id) else {
            // Ids are never reused: an id below the counter that finds nothing was destroyed
            // and reclaimed already, so destroying it again is the same no-op.
            return if !id.is_none() && id.0 < self.ids_peek() {
                Ok(false)
            } else {
                Err(ArenaError::NotFound(id))
            };
        };
        if node.is_destroyed() {
            return Ok(false);
        }
        if matches!(node.class(), Class::DataModel | Class::Workspace) {
            return Err(ArenaError::DestroyLocked(id));
        }
        let subtree = self.subtree(id);
        if let Some(&owned) =
            subtree.iter().find(|&&d| self.read(self.slot_of(d)).flags().contains(NodeFlags::PLATFORM_OWNED))
        {
            return Err(ArenaError::DestroyPlatformOwned(owned));
        }
        let rev = self.revisions.bump();
        let subtree: Arc<[Id]> = Arc::from(subtree);

        // 1. Detach the root (queues the removal events of a move to nowhere).
        let slot = self.slot_of(id);
        let parent = self.read(slot).parent();
        if parent.is_some() {
            self.move_node(id, slot, parent, None, rev);
        } else {
            self.stamp(slot, rev);
        }

        // 2. Mark destroyed and locked; drop index membership. An undo scope journals each
        //    node's flags and rows (its extras stay on the tombstone).
        let journal = self.undo.is_some();
        let mut tombstones = Vec::new();
        let mut parts_left_world = false;
        let mut had_tags = false;
        for &d in subtree.iter() {
            let dslot = self.slot_of(d);
            let node = self.read(dslot);
            let (class, flags) = (node.class(), node.flags());
            let extras = node.extras().clone();
            if journal {
                tombstones.push(Tombstone { id: d, flags, rows: Self::rows_of(&self.components, d) });
            }
            if flags.contains(NodeFlags::IN_WORLD) {
                if let Some(f) = class.family() {
                    self.family_remove(f, dslot);
                    self.revisions.families[f.index()] = rev;
                }
                if matches!(class, Class::Part | Class::Model) {
                    self.part_writes.push(rev, d);
                    parts_left_world |= class == Class::Part;
                }
            }
            for tag in &extras.tags {
                self.indexes.tag_remove(*tag, d);
                had_tags = true;
            }
            if let Some(p) = extras.persistent_id {
                self.indexes.persistent.remove(&p);
            }
            if let Some(h) = extras.handle {
                self.indexes.handles.remove(&h);
            }
            for (field, target) in extras.references() {
                self.indexes.ref_remove(target, d, field);
            }
            let (page, i) = self.page_mut(dslot);
            let flags = &mut page.hot[i].flags;
            flags.set(NodeFlags::DESTROYED, true);
            flags.set(NodeFlags::LOCKED, true);
            flags.set(NodeFlags::IN_WORLD, false);
            self.deletions.push(rev, d);
            self.remove_all_components(d, rev);
        }
        self.live -= subtree.len();
        if journal {
            self.push_undo(UndoEntry::Destroyed { root: id, nodes: tombstones });
        }

        // 3. Reference policies: live holders of references to destroyed nodes drop them
        //    (component fields follow their schema's policy).
        let mut holders_to_destroy = Vec::new();
        for &d in subtree.iter() {
            self.apply_component_ref_policies(d, rev, &mut holders_to_destroy);
        }
        for &d in subtree.iter() {
            let Some(holders) = self.indexes.refs.remove(&d) else { continue };
            for (holder, field) in holders {
                let Some(hslot) = self.store.locate(holder) else { continue };
                if self.read(hslot).is_destroyed() {
                    continue;
                }
                let (page, i) = self.page_mut(hslot);
                let extras = page.extras_mut(i);
                let undo = match field {
                    RefField::Builtin(k) => {
                        let old = extras.refs[k as usize].take();
                        journal.then_some(UndoEntry::Reference { id: holder, index: k, old })
                    }
                    RefField::Attribute(name) => {
                        let pos = extras.attributes.iter().position(|(n, _)| *n == name);
                        let old = pos.map(|p| {
                            (
                                p as u32,
                                std::mem::replace(&mut extras.attributes[p].1, AttributeValue::Ref(None)),
                            )
                        });
                        journal.then_some(UndoEntry::Attribute { id: holder, key: name, old })
                    }
                };
                page.trim_extras(i);
                self.stamp(hslot, rev);
                if let Some(entry) = undo {
                    self.push_undo(entry);
                }
            }
        }

        if parts_left_world {
            self.revisions.collision = rev;
        }
        if had_tags {
            self.revisions.tags = rev;
        }
        self.moves += 1;
        self.revisions.topology = rev;
        self.topology.push(rev, TopologyChange::Destroyed { id });
        self.doomed.extend(subtree.iter().copied());
        self.events.push(InstanceEvent::Destroyed { root: id, subtree });
        // `DestroyHolder` policies cascade (holders that cannot be destroyed had the field
        // cleared instead).
        for holder in holders_to_destroy {
            let _ = self.destroy(holder);
        }
        Ok(true)
    }

    /// Whether [`destroy`](Self::destroy) of the live instance `id` would go ahead: it is not
    /// the place root or the Workspace, and nothing in its subtree is platform-owned.
    pub(crate) fn can_destroy(&self, id: Id) -> bool {
        let node = self.read(self.slot_of(id));
        !matches!(node.class(), Class::DataModel | Class::Workspace)
            && !self
                .subtree(id)
                .iter()
                .any(|&d| self.read(self.slot_of(d)).flags().contains(NodeFlags::PLATFORM_OWNED))
    }
}
