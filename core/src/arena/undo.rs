//! Undo scopes: [`Arena::begin_undo`] opens a scope in which every mutation of the world is
//! journaled at the arena's choke points ([`UndoJournal`], one [`UndoEntry`] per step);
//! [`Arena::rollback_undo`] replays the entries newest first, [`Arena::commit_undo`] drops
//! them. Without a scope the journal is `None` and each choke point costs one branch.
//!
//! What each mutation journals (before its first write, after its validation, so a refused
//! call journals nothing):
//! - property writes (`set_name`, `set_position`, `set_rotation`, `set_transform`,
//!   `set_size`, `set_appearance`, `set_flag`, `set_platform_owned`) and `node_mut` (before
//!   it hands out `&mut`): the node's built-in state ([`UndoEntry::Builtin`]: name, local
//!   transform, size, appearance, user and platform flags);
//! - `set_attribute`: the old value and its position in the attribute list; `add_tag` /
//!   `remove_tag`: the tag; `set_reference`: the old target; `set_handle`, `set_persistent_id`
//!   and `persistent_id`'s first assignment: the old handle or persistent id;
//!   `set_script_source`: the old source;
//! - `set_field`: the old field value; `add_component`, `remove_component`, `insert_pod` and
//!   the chunk passes (`for_each_chunk_mut*`, `par_for_each_chunk_mut`, for every row the
//!   query matches): the node's whole component state ([`UndoEntry::Rows`]);
//! - moves (`set_parent`, a graft's attach, a destroy's detach, all through `move_node`): the
//!   old parent and the moved node's rank among its live siblings, so child order comes back;
//! - creations (`create`, `insert_with_id`, `create_batch`, `spawn_batch`, `clone_subtree`,
//!   `graft`): the new ids, freed at rollback (their rows, index entries and slots go with
//!   them, as a failed batch's do in `alloc::rollback`);
//! - `destroy`: journaled step by step, not deferred (a deferred destroy would need every
//!   reader, from `get` to `family`, `tagged` and the events, to pretend): the detach is a
//!   move; each destroyed node's flags and component rows ([`UndoEntry::Destroyed`], which
//!   also restores its index entries, the live count and the doomed list); each live holder
//!   whose reference the destroy cleared, as the attribute, builtin reference or component
//!   rows it had; `DestroyHolder` cascades are destroys of their own.
//!
//! Rollback takes one new global revision and stamps every node it restores with it:
//! revisions and the id allocator never go back (ids are never reused, even after a
//! rollback), nor do the GUID and persistent-id generator, the name pool, the text budget's
//! estimate and the creation window's count. The pending event queue is cut back to its
//! length at `begin_undo`. The part-write, node-write, topology and deletion logs keep their
//! entries and gain compensating ones (restored nodes are stamped, moved-back roots are
//! `Moved`, freed nodes `Destroyed` and deleted, revived roots `Moved` to no parent), so a
//! consumer re-checking the state it is told about sees the final one; `dirty_transforms`
//! loses the ids of freed nodes and gains the restored ones. Not undone, and not world state:
//! schema registrations, configuration (`set_max_*`, creation windows), the behaviour
//! library. Row order inside component tables, family list order and reverse-index list
//! order may differ after a rollback; what they index does not.
//!
//! Invariants: entries are undone in reverse order, so each one finds the arena exactly as
//! the journaled step left it; while the journal is replayed `undo` is `None`, so undoing
//! journals nothing. Events must not be drained inside a scope (`drain_events` could free
//! tombstones a rollback would revive; it `debug_assert`s).

use super::{Arena, TopologyChange};
use crate::components::{ComponentId, FieldValue};
use crate::error::ArenaError;
use crate::id::{Id, Slot};
use crate::names::NameId;
use crate::nodes::hot::LocalTransform;
use crate::value::{Appearance, AttributeValue, NodeFlags, PersistentId, RefField};
use glam::Vec3;
use rustc_hash::FxHashSet;
use std::sync::Arc;

/// A node's component rows: (component, every field value), sorted by component.
pub(crate) type Rows = Vec<(ComponentId, Vec<FieldValue>)>;

/// The flags a [`UndoEntry::Builtin`] restores: those property writes change.
const BUILTIN_FLAGS: u16 = NodeFlags::USER.0 | NodeFlags::PLATFORM_OWNED.0;

/// The open scope: its entries, oldest first, and where the event queue and the
/// transform-dirty list stood when it opened.
pub(crate) struct UndoJournal {
    entries: Vec<UndoEntry>,
    events: usize,
    dirty: usize,
}

/// One destroyed node as it was before the destroy marked it.
pub(crate) struct Tombstone {
    pub id: Id,
    pub flags: NodeFlags,
    pub rows: Rows,
}

/// One journaled step: what undoing it needs.
pub(crate) enum UndoEntry {
    /// Built-in state before a property write or `node_mut`.
    Builtin {
        id: Id,
        name: NameId,
        local: LocalTransform,
        size: Vec3,
        appearance: Appearance,
        flags: NodeFlags,
    },
    /// Attribute `key` before a write: its position and value, `None` if absent.
    Attribute { id: Id, key: NameId, old: Option<(u32, AttributeValue)> },
    /// Tag `key` was added (`added`) or removed.
    Tag { id: Id, key: NameId, added: bool },
    /// Builtin reference `index` before a write.
    Reference { id: Id, index: u8, old: Option<Id> },
    /// The handle before a write.
    Handle { id: Id, old: Option<NameId> },
    /// The persistent id before a write.
    Persistent { id: Id, old: Option<PersistentId> },
    /// The script source before a write.
    Source { id: Id, old: Option<Arc<str>> },
    /// One component field before `set_field`.
    Field { id: Id, component: ComponentId, field: u16, old: FieldValue },
    /// Every component row of `id` before a change of its component set or of many fields.
    Rows { id: Id, rows: Rows },
    /// `id` was moved away from `parent` (`None`: it was detached), where `rank` live
    /// siblings came before it.
    Moved { id: Id, parent: Option<Id>, rank: u32 },
    /// `id` was created (attached or not).
    Created { id: Id },
    /// `ids` were created as one batch or copied subtree (detached, in pre-order).
    CreatedMany { ids: Vec<Id> },
    /// The subtree of `root` was marked destroyed; `nodes` as they were.
    Destroyed { root: Id, nodes: Vec<Tombstone> },
}

impl Arena {
    /// Opens an undo scope: until [`commit_undo`](Self::commit_undo) or
    /// [`rollback_undo`](Self::rollback_undo), every mutation is journaled. Refuses with
    /// [`ArenaError::UndoScopeOpen`] if one is already open (scopes do not nest). Events
    /// must not be drained while the scope is open.
    pub fn begin_undo(&mut self) -> Result<(), ArenaError> {
        if self.undo.is_some() {
            return Err(ArenaError::UndoScopeOpen);
        }
        let (events, dirty) = (self.events.len(), self.dirty_transforms.len());
        self.undo = Some(UndoJournal { entries: Vec::new(), events, dirty });
        Ok(())
    }

    /// Whether an undo scope is open.
    pub fn in_undo_scope(&self) -> bool {
        self.undo.is_some()
    }

    /// Closes the scope keeping every change (drops the journal). No-op without a scope.
    pub fn commit_undo(&mut self) {
        self.undo = None;
    }

    /// Entries journaled in the open scope (0 without one).
    pub fn undo_len(&self) -> usize {
        self.undo.as_ref().map_or(0, |j| j.entries.len())
    }

    /// Closes the scope undoing every change made since [`begin_undo`](Self::begin_undo),
    /// newest first, and drops the events queued since. No-op without a scope. Restored nodes
    /// are stamped with one new revision; ids minted in the scope are never minted again.
    pub fn rollback_undo(&mut self) {
        let Some(journal) = self.undo.take() else { return };
        if !journal.entries.is_empty() {
            let rev = self.revisions.bump();
            let mut freed = false;
            for entry in journal.entries.into_iter().rev() {
                freed |= self.undo_entry(entry, rev);
            }
            if freed {
                // Freed nodes were created in the scope: only entries queued since can name them.
                let from = journal.dirty.min(self.dirty_transforms.len());
                let tail = self.dirty_transforms.split_off(from);
                let store = &self.store;
                self.dirty_transforms.extend(tail.into_iter().filter(|&id| store.locate(id).is_some()));
            }
            self.ancestor_cache = None;
        }
        self.events.truncate(journal.events);
    }

    /// Journals `entry(self)` if a scope is open: the one branch a choke point pays.
    #[inline(always)]
    pub(super) fn journal(&mut self, entry: impl FnOnce(&Arena) -> UndoEntry) {
        if self.undo.is_some() {
            let entry = entry(self);
            self.push_undo(entry);
        }
    }

    #[cold]
    #[inline(never)]
    pub(super) fn push_undo(&mut self, entry: UndoEntry) {
        if let Some(journal) = &mut self.undo {
            journal.entries.push(entry);
        }
    }

    /// Journals the built-in state of the node in `slot` (before a property write).
    #[cold]
    #[inline(never)]
    pub(super) fn journal_builtin(&mut self, slot: Slot) {
        let (page, i) = self.store.table.page(slot.0).expect("live slot");
        let hot = &page.hot[i];
        let entry = UndoEntry::Builtin {
            id: hot.id,
            name: page.names[i],
            local: hot.local,
            size: page.sizes[i],
            appearance: page.appearances[i],
            flags: hot.flags,
        };
        self.push_undo(entry);
    }

    /// Journals every component row of `id`.
    #[cold]
    #[inline(never)]
    pub(super) fn journal_rows(&mut self, id: Id) {
        let rows = Self::rows_of(&self.components, id);
        self.push_undo(UndoEntry::Rows { id, rows });
    }

    /// Journals a move of `id` (in `slot`) away from `old`: its rank among `old`'s children.
    #[cold]
    #[inline(never)]
    pub(super) fn journal_move(&mut self, id: Id, slot: Slot, old: Option<Id>) {
        let rank = old.map_or(0, |p| {
            let pos = self.child_pos[slot.index()];
            self.read(self.slot_of(p)).children().rank_of(pos) as u32
        });
        self.push_undo(UndoEntry::Moved { id, parent: old, rank });
    }

    /// Undoes one entry at revision `rev`; returns whether it freed nodes.
    fn undo_entry(&mut self, entry: UndoEntry, rev: u64) -> bool {
        match entry {
            UndoEntry::Created { id } => {
                self.undo_create(id, rev);
                return true;
            }
            UndoEntry::CreatedMany { ids } => {
                for &id in ids.iter().rev() {
                    self.undo_create(id, rev);
                }
                return true;
            }
            UndoEntry::Destroyed { root, nodes } => self.revive(root, nodes, rev),
            UndoEntry::Moved { id, parent, rank } => self.undo_move(id, parent, rank as usize, rev),
            entry => self.undo_edit(entry, rev),
        }
        false
    }

    /// Undoes an entry that edits one live node's state.
    fn undo_edit(&mut self, entry: UndoEntry, rev: u64) {
        let id = match &entry {
            UndoEntry::Builtin { id, .. }
            | UndoEntry::Attribute { id, .. }
            | UndoEntry::Tag { id, .. }
            | UndoEntry::Reference { id, .. }
            | UndoEntry::Handle { id, .. }
            | UndoEntry::Persistent { id, .. }
            | UndoEntry::Source { id, .. }
            | UndoEntry::Field { id, .. }
            | UndoEntry::Rows { id, .. } => *id,
            _ => unreachable!("structural entries are undone by `undo_entry`"),
        };
        // Every later step is undone: the node is live, as when the step was journaled.
        let Ok(slot) = self.live_slot(id) else { return };
        match entry {
            UndoEntry::Builtin { name, local, size, appearance, flags, .. } => {
                let (page, i) = self.page_mut(slot);
                page.names[i] = name;
                page.hot[i].local = local;
                page.sizes[i] = size;
                page.appearances[i] = appearance;
                let f = &mut page.hot[i].flags;
                f.0 = (f.0 & !BUILTIN_FLAGS) | (flags.0 & BUILTIN_FLAGS);
                self.restored_builtin(slot, rev);
                return;
            }
            UndoEntry::Attribute { key, old, .. } => {
                let field = RefField::Attribute(key);
                if let Some(t) = self.read(slot).attribute(key).and_then(AttributeValue::referenced) {
                    self.indexes.ref_remove(t, id, field);
                }
                if let Some(t) = old.as_ref().and_then(|(_, v)| v.referenced()) {
                    self.indexes.ref_insert(t, id, field);
                }
                let (page, i) = self.page_mut(slot);
                let attributes = &mut page.extras_mut(i).attributes;
                match (attributes.iter().position(|(n, _)| *n == key), old) {
                    (Some(p), Some((_, v))) => attributes[p].1 = v,
                    (Some(p), None) => {
                        attributes.remove(p);
                    }
                    (None, Some((at, v))) => attributes.insert((at as usize).min(attributes.len()), (key, v)),
                    (None, None) => {}
                }
                page.trim_extras(i);
            }
            UndoEntry::Tag { key, added, .. } => {
                let (page, i) = self.page_mut(slot);
                let tags = &mut page.extras_mut(i).tags;
                match tags.binary_search(&key) {
                    Ok(p) if added => {
                        tags.remove(p);
                    }
                    Err(p) if !added => tags.insert(p, key),
                    _ => {}
                }
                page.trim_extras(i);
                if added {
                    self.indexes.tag_remove(key, id);
                } else {
                    self.indexes.tag_insert(key, id);
                }
                self.revisions.tags = rev;
            }
            UndoEntry::Reference { index, old, .. } => {
                let field = RefField::Builtin(index);
                if let Some(t) = self.read(slot).reference(index as usize) {
                    self.indexes.ref_remove(t, id, field);
                }
                if let Some(t) = old {
                    self.indexes.ref_insert(t, id, field);
                }
                let (page, i) = self.page_mut(slot);
                page.extras_mut(i).refs[index as usize] = old;
                page.trim_extras(i);
                self.revisions.collision = rev;
            }
            UndoEntry::Handle { old, .. } => {
                if let Some(k) = self.read(slot).extras().handle
                    && self.indexes.handles.get(&k) == Some(&id)
                {
                    self.indexes.handles.remove(&k);
                }
                if let Some(k) = old {
                    self.indexes.handles.insert(k, id);
                }
                let (page, i) = self.page_mut(slot);
                page.extras_mut(i).handle = old;
                page.trim_extras(i);
            }
            UndoEntry::Persistent { old, .. } => {
                if let Some(p) = self.read(slot).persistent_id()
                    && self.indexes.persistent.get(&p) == Some(&id)
                {
                    self.indexes.persistent.remove(&p);
                }
                if let Some(p) = old {
                    self.indexes.persistent.insert(p, id);
                }
                let (page, i) = self.page_mut(slot);
                page.extras_mut(i).persistent_id = old;
                page.trim_extras(i);
            }
            UndoEntry::Source { old, .. } => {
                let (page, i) = self.page_mut(slot);
                page.extras_mut(i).source = old;
                page.trim_extras(i);
            }
            UndoEntry::Field { component, field, old, .. } => {
                if self.components.has(id, component) {
                    self.write_field_unchecked(id, component, field as usize, &old, rev);
                }
            }
            UndoEntry::Rows { rows, .. } => self.restore_rows(id, &rows, rev),
            _ => unreachable!("structural entries are undone by `undo_entry`"),
        }
        self.stamp(slot, rev);
    }

    /// Frees `id`, created in the scope (detaching it first if it is attached).
    fn undo_create(&mut self, id: Id, rev: u64) {
        let Some(slot) = self.store.locate(id) else { return };
        if let Some(p) = self.read(slot).parent()
            && let Some(pslot) = self.store.locate(p)
        {
            self.unlink(id, p);
            self.stamp(pslot, rev);
        }
        if self.read(slot).flags().contains(NodeFlags::IN_WORLD) {
            self.set_world_membership(&[id], false, rev);
        }
        if !self.read(slot).is_destroyed() {
            self.deletions.push(rev, id);
        }
        self.free_node(id);
        self.moves += 1;
        self.revisions.topology = rev;
        self.topology.push(rev, TopologyChange::Destroyed { id });
    }

    /// Moves `id` back under `parent` (`None`: detached) with `rank` live siblings before it.
    fn undo_move(&mut self, id: Id, parent: Option<Id>, rank: usize, rev: u64) {
        let Ok(slot) = self.live_slot(id) else { return };
        if let Some(p) = self.read(slot).parent() {
            let pslot = self.slot_of(p);
            self.unlink(id, p);
            self.stamp(pslot, rev);
        }
        let mut in_world = false;
        let parent = parent.filter(|&p| self.contains(p));
        if let Some(p) = parent {
            let pslot = self.slot_of(p);
            self.link_at(id, p, rank);
            self.stamp(pslot, rev);
            in_world = self.read(pslot).flags().contains(NodeFlags::IN_WORLD);
        }
        self.stamp(slot, rev);
        if self.read(slot).flags().contains(NodeFlags::IN_WORLD) != in_world {
            let moved = self.subtree(id);
            self.set_world_membership(&moved, in_world, rev);
        }
        self.log_container_move(slot, rev);
        self.moves += 1;
        self.revisions.topology = rev;
        self.topology.push(rev, TopologyChange::Moved { id, parent });
        self.dirty_transforms.push(id);
    }

    /// Brings a destroyed subtree back: flags, index entries, rows, live count, doomed list.
    /// Its root is still detached (the detach is undone next, as the move it was).
    fn revive(&mut self, root: Id, nodes: Vec<Tombstone>, rev: u64) {
        // The destroy appended the subtree to `doomed` last; cascades after it are undone.
        let tail = self.doomed.len().checked_sub(nodes.len());
        match tail {
            Some(t) if self.doomed[t..].iter().zip(&nodes).all(|(d, n)| *d == n.id) => {
                self.doomed.truncate(t)
            }
            _ => {
                debug_assert!(false, "events were drained inside an undo scope");
                let ids: FxHashSet<Id> = nodes.iter().map(|n| n.id).collect();
                self.doomed.retain(|d| !ids.contains(d));
                self.reclaimable.retain(|d| !ids.contains(d));
            }
        }
        for node in nodes {
            let id = node.id;
            let Some(slot) = self.store.locate(id) else { continue };
            let (page, i) = self.page_mut(slot);
            let flags = &mut page.hot[i].flags;
            flags.set(NodeFlags::DESTROYED, false);
            flags.set(NodeFlags::LOCKED, node.flags.contains(NodeFlags::LOCKED));
            flags.set(NodeFlags::IN_WORLD, node.flags.contains(NodeFlags::IN_WORLD));
            let class = page.hot[i].class;
            if node.flags.contains(NodeFlags::IN_WORLD)
                && let Some(f) = class.family()
            {
                self.indexes.family_insert(f, id, slot);
            }
            let extras = self.read(slot).extras();
            let (tags, refs): (Vec<NameId>, Vec<(RefField, Id)>) =
                (extras.tags.clone(), extras.references().collect());
            let (persistent, handle) = (extras.persistent_id, extras.handle);
            if !tags.is_empty() {
                self.revisions.tags = rev;
            }
            for tag in tags {
                self.indexes.tag_insert(tag, id);
            }
            for (field, target) in refs {
                self.indexes.ref_insert(target, id, field);
            }
            if let Some(p) = persistent {
                self.indexes.persistent.insert(p, id);
            }
            if let Some(h) = handle {
                self.indexes.handles.insert(h, id);
            }
            self.live += 1;
            self.insert_copied_rows(id, &node.rows, rev);
            self.stamp(slot, rev);
        }
        self.moves += 1;
        self.revisions.topology = rev;
        self.topology.push(rev, TopologyChange::Moved { id: root, parent: None });
    }
}
