//! Hierarchy edits and queries: creating nodes, reparenting, and walking the tree.
//!
//! A move validates everything before its first write, skips no-op moves, keeps child order,
//! updates both link directions, world membership (with family indexes and the part-write
//! log), the topology revision and journal, marks the moved root's transform dirty, and
//! queues the move events sharing one `Arc<[Id]>` of moved ids.
//!
//! In an undo scope a creation journals its ids (freed at rollback) and a move its old parent
//! and rank among its siblings (see `undo`), before their first write.

use super::undo::UndoEntry;
use super::{Arena, TopologyChange};
use crate::class::Class;
use crate::error::ArenaError;
use crate::events::InstanceEvent;
use crate::id::{Id, Slot};
use crate::value::NodeFlags;
use std::sync::Arc;

impl Arena {
    /// Creates a node of `class` named `name`, under `parent` (or detached).
    ///
    /// Attached creation queues `ChildAdded` and `DescendantAdded`.
    pub fn create(&mut self, class: Class, name: &str, parent: Option<Id>) -> Result<Id, ArenaError> {
        self.create_inner(None, class, name, parent)
    }

    /// Whether [`create_batch`](Self::create_batch) would refuse `count` nodes of `class`
    /// under `parent`, and with which error (its checks, in its order: the class, the
    /// destination, then the node limit).
    pub(crate) fn check_batch(
        &self,
        class: Class,
        parent: Option<Id>,
        count: usize,
    ) -> Result<(), ArenaError> {
        if !class.is_creatable() {
            return Err(ArenaError::NotCreatable(class));
        }
        if let Some(p) = parent
            && count > 0
        {
            self.validate_destination(class, p, None)?;
        }
        self.check_room(count)
    }

    /// Creates `count` nodes of `class` named `name` under `parent` (or detached), exactly as
    /// `count` calls of [`create`](Self::create) would (one revision, journal entry and, when
    /// attached, event pair each), and returns their ids in order. Detached batches validate
    /// once and intern the name once; a batch that does not fit the node limit is refused
    /// whole, changing nothing.
    pub fn create_batch(
        &mut self,
        class: Class,
        name: &str,
        parent: Option<Id>,
        count: usize,
    ) -> Result<Vec<Id>, ArenaError> {
        self.check_batch(class, parent, count)?;
        let mut out = Vec::with_capacity(count);
        if parent.is_some() {
            for _ in 0..count {
                match self.create(class, name, parent) {
                    Ok(id) => out.push(id),
                    Err(e) => {
                        // Only id exhaustion gets here (the parent and the limit were checked):
                        // the attached nodes are destroyed again.
                        for id in out {
                            let _ = self.destroy(id);
                        }
                        return Err(e);
                    }
                }
            }
            return Ok(out);
        }
        let name = self.intern(name);
        let cp = self.checkpoint();
        self.topology.reserve(count);
        while out.len() < count {
            if self.vacant.is_empty() {
                // Fresh slots: a page's worth at a time.
                if let Err(e) = self.new_detached_run(class, name, count - out.len(), &mut out) {
                    self.rollback(cp, &out);
                    return Err(e);
                }
                continue;
            }
            let rev = self.revisions.bump();
            match self.new_node(None, class, name, NodeFlags::NEW, rev) {
                Ok(id) => {
                    self.topology.push(rev, TopologyChange::Created { id, parent: None });
                    self.revisions.topology = rev;
                    out.push(id);
                }
                Err(e) => {
                    self.rollback(cp, &out);
                    return Err(e);
                }
            }
        }
        self.journal(|_| UndoEntry::CreatedMany { ids: out.clone() });
        Ok(out)
    }

    /// Creates a node with an explicitly chosen id (a replica mirroring server ids). The id
    /// must never have been used in this arena.
    pub fn insert_with_id(
        &mut self,
        id: Id,
        class: Class,
        name: &str,
        parent: Option<Id>,
    ) -> Result<Id, ArenaError> {
        if id.is_none() || self.store.locate(id).is_some() {
            return Err(ArenaError::IdInUse(id));
        }
        let id = self.create_inner(Some(id), class, name, parent)?;
        self.ids.observe(id);
        Ok(id)
    }

    fn create_inner(
        &mut self,
        id: Option<Id>,
        class: Class,
        name: &str,
        parent: Option<Id>,
    ) -> Result<Id, ArenaError> {
        if !class.is_creatable() {
            return Err(ArenaError::NotCreatable(class));
        }
        if let Some(p) = parent {
            self.validate_destination(class, p, None)?;
        }
        crate::names::check_name(name)?;
        let name = self.intern(name);
        // `new_node` refuses (a full arena, exhausted ids) before writing anything, so the
        // revision is taken only once it succeeded: a refusal changes nothing, with no
        // checkpoint to restore.
        let rev = self.revisions.global + 1;
        let id = self.new_node(id, class, name, NodeFlags::NEW, rev)?;
        self.journal(|_| UndoEntry::Created { id });
        self.revisions.global = rev;
        self.topology.push(rev, TopologyChange::Created { id, parent });
        self.revisions.topology = rev;
        if let Some(p) = parent {
            let pslot = self.slot_of(p);
            self.link(id, p);
            self.stamp(pslot, rev);
            let moved: Arc<[Id]> = Arc::from([id]);
            if self.read(pslot).flags().contains(NodeFlags::IN_WORLD) {
                self.set_world_membership(&moved, true, rev);
            }
            self.dirty_transforms.push(id);
            let ancestors = self.ancestor_chain(p);
            self.events.push(InstanceEvent::ChildAdded { parent: p, child: id });
            self.events.push(InstanceEvent::DescendantAdded { ancestors, moved });
        }
        Ok(id)
    }

    /// Sets `id`'s parent (`None` detaches; it does not destroy). Returns whether anything
    /// moved: a move to the current parent is a no-op and produces no edit.
    ///
    /// Refuses, changing nothing, when: the node is missing or destroyed; its `Parent` is
    /// locked; it or its current parent belongs to the platform; the new parent is missing,
    /// destroyed or platform-owned; class containment forbids it; or it would make a cycle.
    pub fn set_parent(&mut self, id: Id, parent: Option<Id>) -> Result<bool, ArenaError> {
        let slot = self.live_slot(id)?;
        let node = self.read(slot);
        let (class, flags, old) = (node.class(), node.flags(), node.parent());
        if flags.contains(NodeFlags::LOCKED) {
            return Err(ArenaError::ParentLocked(id));
        }
        let old_parent_platform =
            old.is_some_and(|p| self.read(self.slot_of(p)).flags().contains(NodeFlags::PLATFORM_OWNED));
        if flags.contains(NodeFlags::PLATFORM_OWNED) || old_parent_platform {
            return Err(ArenaError::EntityPlatformOwned(id));
        }
        if old == parent {
            return Ok(false);
        }
        if let Some(p) = parent {
            self.validate_destination(class, p, Some(id))?;
        }
        let rev = self.revisions.bump();
        self.move_node(id, slot, old, parent, rev);
        Ok(true)
    }

    /// Checks that a node of `class` (the node `moving`, if it exists) may go under `parent`.
    pub(crate) fn validate_destination(
        &self,
        class: Class,
        parent: Id,
        moving: Option<Id>,
    ) -> Result<(), ArenaError> {
        let p = match self.store.node(parent) {
            None => return Err(ArenaError::ParentMissing(parent)),
            Some(p) if p.is_destroyed() => return Err(ArenaError::ParentDestroyed(parent)),
            Some(p) => p,
        };
        if p.flags().contains(NodeFlags::PLATFORM_OWNED) {
            return Err(ArenaError::NewParentPlatformOwned(parent));
        }
        if !class.may_be_child_of(p.class()) {
            return Err(ArenaError::Containment { child: class, parent: p.class() });
        }
        if let Some(m) = moving
            && (m == parent || self.ancestors(parent).any(|a| a == m))
        {
            return Err(ArenaError::Cycle { child: m, parent });
        }
        Ok(())
    }

    /// Performs a validated move of `id` from `old` to `new`, stamped at `rev`.
    pub(crate) fn move_node(&mut self, id: Id, slot: Slot, old: Option<Id>, new: Option<Id>, rev: u64) {
        if self.undo.is_some() {
            self.journal_move(id, slot, old);
        }
        let moved: Arc<[Id]> = Arc::from(self.subtree(id));
        let old_ancestors = old.map(|p| self.ancestor_chain(p));
        if let Some(p) = old {
            let pslot = self.slot_of(p);
            self.unlink(id, p);
            self.stamp(pslot, rev);
        }
        let mut in_world = false;
        if let Some(p) = new {
            let pslot = self.slot_of(p);
            self.link(id, p);
            self.stamp(pslot, rev);
            in_world = self.read(pslot).flags().contains(NodeFlags::IN_WORLD);
        }
        self.stamp(slot, rev);
        if self.read(slot).flags().contains(NodeFlags::IN_WORLD) != in_world {
            self.set_world_membership(&moved, in_world, rev);
        }
        self.log_container_move(slot, rev);
        self.moves += 1;
        self.revisions.topology = rev;
        self.topology.push(rev, TopologyChange::Moved { id, parent: new });
        self.dirty_transforms.push(id);
        if let (Some(p), Some(ancestors)) = (old, old_ancestors) {
            self.events.push(InstanceEvent::DescendantRemoving { ancestors, moved: moved.clone() });
            self.events.push(InstanceEvent::ChildRemoved { parent: p, child: id });
        }
        if let Some(p) = new {
            self.events.push(InstanceEvent::ChildAdded { parent: p, child: id });
        }
        self.events.push(InstanceEvent::AncestryChanged { parent: new, moved: moved.clone() });
        if let Some(p) = new {
            let ancestors = self.ancestor_chain(p);
            self.events.push(InstanceEvent::DescendantAdded { ancestors, moved });
        }
    }

    /// Sets or clears `IN_WORLD` on every node of `moved`, keeping family indexes, the
    /// part-write log and the collision revision in step.
    pub(crate) fn set_world_membership(&mut self, moved: &[Id], in_world: bool, rev: u64) {
        let mut parts = false;
        for &id in moved {
            let slot = self.slot_of(id);
            let (page, i) = self.page_mut(slot);
            page.hot[i].flags.set(NodeFlags::IN_WORLD, in_world);
            let class = page.hot[i].class;
            if let Some(f) = class.family() {
                if in_world {
                    self.indexes.family_insert(f, id, slot);
                } else {
                    self.family_remove(f, slot);
                }
                self.revisions.families[f.index()] = rev;
            }
            if matches!(class, Class::Part | Class::Model) {
                self.part_writes.push(rev, id);
                parts |= class == Class::Part;
            }
        }
        if parts {
            self.revisions.collision = rev;
        }
    }

    /// Appends `child` to `parent`'s children and points `child` at `parent`.
    pub(crate) fn link(&mut self, child: Id, parent: Id) {
        let cslot = self.slot_of(child);
        let pslot = self.slot_of(parent);
        let (page, i) = self.store.table.page_mut(pslot.0);
        let pos = page.children[i].push(child);
        page.hot[i].flags.set(NodeFlags::HAS_CHILDREN, true);
        self.child_pos[cslot.index()] = pos;
        let (page, i) = self.store.table.page_mut(cslot.0);
        page.hot[i].parent = parent;
    }

    /// Inserts `child` among `parent`'s children with `rank` live children before it (past the
    /// last: appended), renumbering the children whose positions moved, and points `child` at
    /// `parent` (undo puts a moved node back in its old place).
    pub(super) fn link_at(&mut self, child: Id, parent: Id, rank: usize) {
        let pslot = self.slot_of(parent);
        if rank >= self.read(pslot).children().len() {
            return self.link(child, parent);
        }
        let (page, i) = self.store.table.page_mut(pslot.0);
        let from = page.children[i].insert(rank, child) as usize;
        page.hot[i].flags.set(NodeFlags::HAS_CHILDREN, true);
        let store = &self.store;
        let page = store.table.page(pslot.0).expect("parent page").0;
        for (k, &c) in page.children[i].as_slice()[from..].iter().enumerate() {
            if !c.is_none() {
                let s = store.locate(c).expect("child of a consistent tree");
                self.child_pos[s.index()] = (from + k) as u32;
            }
        }
        let cslot = self.slot_of(child);
        let (page, i) = self.store.table.page_mut(cslot.0);
        page.hot[i].parent = parent;
    }

    /// Removes `child` from `parent`'s children (by its remembered position) and clears its
    /// parent link.
    pub(crate) fn unlink(&mut self, child: Id, parent: Id) {
        let cslot = self.slot_of(child);
        let pslot = self.slot_of(parent);
        let pos = self.child_pos[cslot.index()];
        let (page, i) = self.store.table.page_mut(pslot.0);
        let compacted = page.children[i].remove_at(pos, child);
        let has = !page.children[i].as_slice().is_empty();
        page.hot[i].flags.set(NodeFlags::HAS_CHILDREN, has);
        if compacted {
            let store = &self.store;
            let page = store.table.page(pslot.0).expect("parent page").0;
            for (p, c) in page.children[i].iter_positions() {
                let s = store.locate(c).expect("child of a consistent tree");
                self.child_pos[s.index()] = p;
            }
        }
        self.child_pos[cslot.index()] = u32::MAX;
        let (page, i) = self.store.table.page_mut(cslot.0);
        page.hot[i].parent = Id::NONE;
    }

    /// `id` followed by its ancestors up to the root, shared; cached for repeated creation
    /// under one parent until the next move or destruction.
    pub(crate) fn ancestor_chain(&mut self, id: Id) -> Arc<[Id]> {
        if let Some((p, moves, chain)) = &self.ancestor_cache
            && *p == id
            && *moves == self.moves
        {
            return chain.clone();
        }
        let chain: Arc<[Id]> = std::iter::once(id).chain(self.ancestors(id)).collect();
        self.ancestor_cache = Some((id, self.moves, chain.clone()));
        chain
    }

    /// Ancestors of `id`, nearest first (works for tombstones too).
    pub fn ancestors(&self, id: Id) -> impl Iterator<Item = Id> + '_ {
        let mut cur = self.store.node(id).and_then(|n| n.parent());
        std::iter::from_fn(move || {
            let id = cur?;
            cur = self.store.node(id).and_then(|n| n.parent());
            Some(id)
        })
    }

    /// Whether `ancestor` is a proper ancestor of `id`.
    pub fn is_ancestor_of(&self, ancestor: Id, id: Id) -> bool {
        self.ancestors(id).any(|a| a == ancestor)
    }

    /// The children of `id`, in order (empty for a missing node).
    pub fn children(&self, id: Id) -> impl DoubleEndedIterator<Item = Id> + '_ {
        self.get(id).into_iter().flat_map(|n| n.children().iter())
    }

    /// `id` and its descendants in pre-order (parent before child, siblings in order).
    pub fn subtree(&self, id: Id) -> Vec<Id> {
        let mut out = vec![id];
        self.push_descendants(id, usize::MAX, &mut out);
        out
    }

    /// The strict descendants of every root in `roots`, each node once, in time linear in
    /// their number (nested roots are not walked twice: a chain of 100,000 nested roots costs
    /// 100,000 visits, not 5 billion). Each root's new descendants come in pre-order; a root
    /// that lies below an earlier one is itself included as that one's descendant.
    ///
    /// ```
    /// use arbor_core::{Arena, Class};
    /// let mut arena = Arena::new();
    /// let ws = arena.workspace();
    /// let a = arena.create(Class::Folder, "A", Some(ws)).unwrap();
    /// let b = arena.create(Class::Folder, "B", Some(a)).unwrap();
    /// let c = arena.create(Class::Part, "C", Some(b)).unwrap();
    /// assert_eq!(arena.descendants_of_all(&[b, a]), vec![c, b]);
    /// ```
    pub fn descendants_of_all(&self, roots: &[Id]) -> Vec<Id> {
        let mut expanded: rustc_hash::FxHashSet<Id> = rustc_hash::FxHashSet::default();
        let mut emitted: rustc_hash::FxHashSet<Id> = rustc_hash::FxHashSet::default();
        let mut out = Vec::new();
        let mut stack = Vec::new();
        for &root in roots {
            if emitted.contains(&root) || !expanded.insert(root) {
                continue; // its descendants are out already
            }
            let Some(node) = self.store.node(root) else { continue };
            stack.extend(node.children().iter().rev());
            while let Some(d) = stack.pop() {
                if !emitted.insert(d) {
                    continue; // came out with its whole subtree
                }
                out.push(d);
                if expanded.contains(&d) {
                    continue; // an earlier root: its descendants are out
                }
                if let Some(n) = self.store.node(d) {
                    stack.extend(n.children().iter().rev());
                }
            }
        }
        out
    }

    /// The descendants of `id` (not `id` itself) in pre-order, or `None` as soon as there are
    /// more than `limit` of them (so the walk costs at most `limit + 1` node reads).
    pub fn descendants_within(&self, id: Id, limit: usize) -> Option<Vec<Id>> {
        self.store.node(id)?;
        let mut out = Vec::new();
        self.push_descendants(id, limit, &mut out).then_some(out)
    }

    /// Appends the descendants of `id` to `out` in pre-order; stops and returns false as soon
    /// as more than `limit` would be appended.
    fn push_descendants(&self, id: Id, limit: usize, out: &mut Vec<Id>) -> bool {
        let start = out.len();
        let mut stack: Vec<Id> =
            self.store.node(id).map(|n| n.children().iter().rev().collect()).unwrap_or_default();
        while let Some(d) = stack.pop() {
            if out.len() - start == limit {
                return false;
            }
            out.push(d);
            if let Some(n) = self.store.node(d) {
                stack.extend(n.children().iter().rev());
            }
        }
        true
    }

    /// The first child of `parent` named `name`. Hashes `name` once; a name never interned
    /// returns `None` without reading any child; otherwise compares 32-bit name ids along the
    /// child array.
    pub fn find_first_child(&self, parent: Id, name: &str) -> Option<Id> {
        let name = self.names.find(name)?;
        let node = self.get(parent)?;
        node.children().iter().find(|&c| self.store.node(c).is_some_and(|n| n.name() == name))
    }

    /// The first descendant of `parent` named `name`, searching children before
    /// grandchildren at each level (breadth first), so the shallowest match wins.
    pub fn find_first_descendant(&self, parent: Id, name: &str) -> Option<Id> {
        self.find_first_descendant_within(parent, name, usize::MAX).map_or(None, |(found, _)| found)
    }

    /// [`Arena::find_first_descendant`] looking at no more than `limit` descendants: the
    /// match and how many descendants it looked at, or `Err` if the limit ran out before the
    /// search ended (a metered caller's bound).
    pub fn find_first_descendant_within(
        &self,
        parent: Id,
        name: &str,
        limit: usize,
    ) -> Result<(Option<Id>, usize), SearchLimitReached> {
        let Some(name) = self.names.find(name) else { return Ok((None, 0)) };
        let mut queue = std::collections::VecDeque::from([parent]);
        let mut visited = 0usize;
        while let Some(id) = queue.pop_front() {
            let Some(node) = self.get(id) else { return Ok((None, visited)) };
            for c in node.children().iter() {
                visited += 1;
                if visited > limit {
                    return Err(SearchLimitReached);
                }
                if self.store.node(c).is_some_and(|n| n.name() == name) {
                    return Ok((Some(c), visited));
                }
                queue.push_back(c);
            }
        }
        Ok((None, visited))
    }

    /// How many nodes `id`'s subtree holds (itself included), counting no further than
    /// `limit`: the answer is `min(size, limit)`.
    pub fn subtree_len_up_to(&self, id: Id, limit: usize) -> usize {
        if !self.contains(id) {
            return 0;
        }
        let mut stack = vec![id];
        let mut count = 0usize;
        while let Some(n) = stack.pop() {
            count += 1;
            if count >= limit {
                return limit;
            }
            if let Some(node) = self.get(n) {
                stack.extend(node.children().iter());
            }
        }
        count
    }

    /// How many ancestors `id` has (0 for the root), counting no further than `limit`.
    pub fn depth_up_to(&self, id: Id, limit: usize) -> usize {
        let mut depth = 0;
        let mut at = self.get(id).and_then(|n| n.parent());
        while let Some(p) = at {
            if depth >= limit {
                return limit;
            }
            depth += 1;
            at = self.get(p).and_then(|n| n.parent());
        }
        depth
    }
}

/// A bounded search stopped at its limit before it ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchLimitReached;
