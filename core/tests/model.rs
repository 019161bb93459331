//! Model-based tests of the arena.
//!
//! A proptest drives an [`Arena`] with random sequences of operations — create (every class,
//! attached or detached), rename, property and flag writes, attributes (including instance
//! references), weld and `ObjectValue` references, tags, handles, persistent ids, reparent
//! (valid and invalid: cycles, destroyed or missing targets, containment, platform-owned
//! entities and parents), destroy (also twice), clone (also of non-archivable nodes and past
//! the node limit), graft from a second arena's snapshot under every [`GraftPolicy`],
//! snapshots and event drains — and checks it after every step against a plain model (a
//! `BTreeMap` of nodes with parent, ordered children, name, class, flags, attributes, ...):
//!
//! - parent and child links agree with the model in both directions, in order, with no cycle;
//! - every created id is the next one the counter should mint, and is never seen again;
//! - destroyed nodes are not live (`get` is `None`, `node` says destroyed, then not found),
//!   their subtree neither; tombstones are readable through a lifecycle view until the
//!   second drain after their destruction; destroying twice is `Ok(false)`;
//! - per-node revisions, the global, topology and tag revisions, the pending events, the
//!   topology journal and the deletion log are exactly what the model predicts (the model stamps the nodes the arena documents as
//!   written: a reparent writes the moved root and both parents, a destroy the root, its old
//!   parent and the live holders whose references it clears, a clone or graft its copies);
//! - a snapshot never changes after later writes, and a diff between two snapshots reports
//!   exactly the nodes written, added and removed in between;
//! - a refused or no-op call returns what the model says and leaves a full dump of the
//!   arena (nodes, tombstones, revisions, events, journals, indexes) unchanged;
//! - references to a destroyed target are cleared in live holders; clone rewrites internal
//!   references to the copies and keeps external ones; graft applies its policy;
//! - the tag, handle, persistent-id, reverse-reference and family indexes agree with the model.
//!
//! Plain tests cover what the random test rarely reaches: a 1,000-child folder emptied one
//! child at a time, lifecycle views during delivery, two-phase reclamation with slot reuse,
//! clone and graft rollback at the node limit (compared with a twin arena that never tried),
//! reference rewriting on clone, and the place root and Workspace never being copied.

use arbor_core::{
    ALL_FAMILIES, Arena, ArenaConfig, ArenaError, AttributeValue, Class, DEFAULT_SIZE, GraftPolicy, Guid, Id,
    InstanceEvent, LocalTransform, NamePool, NodeExtras, NodeFlags, NodeRef, PersistentId, RefField,
    Revisions, Snapshot, SnapshotDiff, TopologyChange, Vec3,
};
use proptest::prelude::*;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

const NAMES: [&str; 5] = ["A", "B", "Door", "", "Wheel"];
const ATTR_KEYS: [&str; 3] = ["hp", "target", "owner"];
const TAGS: [&str; 3] = ["red", "blue", "enemy"];
const HANDLES: [&str; 3] = ["H0", "H1", "H2"];
/// An id no arena in these tests ever mints.
const FOREIGN: Id = Id(1 << 40);

// ---------------------------------------------------------------------------------------
// The model
// ---------------------------------------------------------------------------------------

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Life {
    Live,
    /// Destroyed, not drained yet.
    Doomed,
    /// Destroyed, drained once: still a readable tombstone.
    Reclaimable,
    /// Slot freed by the second drain.
    Freed,
}

#[derive(Clone, Debug)]
struct MNode {
    class: Class,
    name: String,
    parent: Option<Id>,
    children: Vec<Id>,
    life: Life,
    /// The root of the destroy call that destroyed this node.
    destroyed_root: Option<Id>,
    rev: u64,
    /// Recorded from the arena at creation (fresh) or copied from the graft source.
    guid: Option<Guid>,
    position: Vec3,
    size: Vec3,
    /// User flags plus `PLATFORM_OWNED`, `LOCKED` and `DESTROYED`; `IN_WORLD` is derived.
    flags: NodeFlags,
    attrs: Vec<(String, AttributeValue)>,
    tags: BTreeSet<String>,
    refs: [Option<Id>; 2],
    handle: Option<String>,
    pid: Option<PersistentId>,
}

impl MNode {
    fn new(class: Class, name: &str, flags: NodeFlags, rev: u64) -> Self {
        MNode {
            class,
            name: name.to_owned(),
            parent: None,
            children: Vec::new(),
            life: Life::Live,
            destroyed_root: None,
            rev,
            guid: None,
            position: Vec3::ZERO,
            size: DEFAULT_SIZE,
            flags,
            attrs: Vec::new(),
            tags: BTreeSet::new(),
            refs: [None, None],
            handle: None,
            pid: None,
        }
    }

    /// Every reference target, in the arena's order (built-ins, then attributes).
    fn references(&self) -> Vec<(String, Id)> {
        let builtin = self.refs.iter().enumerate().filter_map(|(i, r)| r.map(|t| (format!("#{i}"), t)));
        let attrs = self.attrs.iter().filter_map(|(k, v)| v.referenced().map(|t| (k.clone(), t)));
        builtin.chain(attrs).collect()
    }
}

#[derive(Clone, Debug)]
struct Model {
    nodes: BTreeMap<Id, MNode>,
    /// Every id ever created, in creation order.
    order: Vec<Id>,
    next_id: u64,
    global: u64,
    topology: u64,
    tags_rev: u64,
    root: Id,
    workspace: Id,
    events: Vec<InstanceEvent>,
    /// The topology journal and the deletion log, with their revisions.
    journal: Vec<(u64, TopologyChange)>,
    deletions: Vec<(u64, Id)>,
    handles: BTreeMap<String, Id>,
    pids: BTreeMap<PersistentId, Id>,
    max_nodes: usize,
}

fn locked_flags() -> NodeFlags {
    NodeFlags::NEW.with(NodeFlags::LOCKED, true)
}

impl Model {
    /// The model of a fresh arena: `Game` (id 1) holding `Workspace` (id 2), both written at
    /// revision 1.
    fn new(max_nodes: usize) -> Self {
        let (root, workspace) = (Id(1), Id(2));
        let mut nodes = BTreeMap::new();
        let mut r = MNode::new(Class::DataModel, "Game", locked_flags(), 1);
        r.children.push(workspace);
        let mut w = MNode::new(Class::Workspace, "Workspace", locked_flags(), 1);
        w.parent = Some(root);
        nodes.insert(root, r);
        nodes.insert(workspace, w);
        Model {
            nodes,
            order: vec![root, workspace],
            next_id: 3,
            global: 1,
            topology: 0,
            tags_rev: 0,
            root,
            workspace,
            events: Vec::new(),
            journal: Vec::new(),
            deletions: Vec::new(),
            handles: BTreeMap::new(),
            pids: BTreeMap::new(),
            max_nodes,
        }
    }

    fn n(&self, id: Id) -> &MNode {
        &self.nodes[&id]
    }

    fn nm(&mut self, id: Id) -> &mut MNode {
        self.nodes.get_mut(&id).expect("model node")
    }

    fn life(&self, id: Id) -> Option<Life> {
        self.nodes.get(&id).map(|n| n.life)
    }

    fn is_live(&self, id: Id) -> bool {
        self.life(id) == Some(Life::Live)
    }

    /// `Arena::node`'s answer for `id`.
    fn live_err(&self, id: Id) -> Result<(), ArenaError> {
        match self.life(id) {
            Some(Life::Live) => Ok(()),
            Some(Life::Doomed | Life::Reclaimable) => Err(ArenaError::Destroyed(id)),
            _ => Err(ArenaError::NotFound(id)),
        }
    }

    fn live_ids(&self) -> Vec<Id> {
        self.order.iter().copied().filter(|&id| self.is_live(id)).collect()
    }

    fn occupied(&self) -> usize {
        self.nodes.values().filter(|n| n.life != Life::Freed).count()
    }

    /// Resolves a pick: mostly a live node, sometimes any id ever made, or one never made.
    fn pick(&self, p: Pick) -> Id {
        let v = p.0 as usize;
        if v.is_multiple_of(5) {
            let all = self.order.len();
            return match (v / 5) % (all + 2) {
                i if i < all => self.order[i],
                i if i == all => Id::NONE,
                _ => FOREIGN,
            };
        }
        // The root and Workspace (locked) come up through the branch above and as parents.
        let live: Vec<Id> =
            self.live_ids().into_iter().filter(|&id| id != self.root && id != self.workspace).collect();
        if live.is_empty() {
            return self.workspace;
        }
        live[(v / 5) % live.len()]
    }

    /// A destination parent: the Workspace or the root now and then, otherwise [`pick`](Self::pick).
    fn pick_parent(&self, p: Pick) -> Id {
        match p.0 % 11 {
            1 | 4 => self.workspace,
            7 => self.root,
            _ => self.pick(p),
        }
    }

    /// Like [`pick`](Self::pick), but mostly a live node with reference properties.
    fn pick_holder(&self, p: Pick) -> Id {
        let holders: Vec<Id> = self
            .live_ids()
            .into_iter()
            .filter(|&id| !self.n(id).class.reference_properties().is_empty())
            .collect();
        match holders.len() {
            0 => self.pick(p),
            n if !p.0.is_multiple_of(4) => holders[(p.0 as usize / 4) % n],
            _ => self.pick(Pick(p.0 / 4)),
        }
    }

    /// A reference target for `holder`: every other time a live node near it (in its
    /// grandparent's subtree), so clones often hold references inside the copied subtree.
    fn pick_target(&self, holder: Id, p: Pick) -> Id {
        if p.0.is_multiple_of(2) && self.is_live(holder) {
            let ancestors = self.ancestors(holder);
            let top = ancestors.get(1).or(ancestors.first()).copied().unwrap_or(holder);
            if top != self.root {
                let near = self.subtree(top);
                return near[(p.0 as usize / 2) % near.len()];
            }
        }
        self.pick(Pick(p.0 / 2))
    }

    fn ancestors(&self, id: Id) -> Vec<Id> {
        let mut out = Vec::new();
        let mut cur = self.nodes.get(&id).and_then(|n| n.parent);
        while let Some(p) = cur {
            assert!(out.len() <= self.nodes.len(), "cycle in the model above {id:?}");
            out.push(p);
            cur = self.n(p).parent;
        }
        out
    }

    fn chain(&self, p: Id) -> Arc<[Id]> {
        std::iter::once(p).chain(self.ancestors(p)).collect()
    }

    fn subtree(&self, id: Id) -> Vec<Id> {
        let mut out = Vec::new();
        let mut stack = vec![id];
        while let Some(id) = stack.pop() {
            out.push(id);
            stack.extend(self.n(id).children.iter().rev());
        }
        out
    }

    fn in_world(&self, id: Id) -> bool {
        self.is_live(id) && (id == self.workspace || self.ancestors(id).contains(&self.workspace))
    }

    /// The flags the arena should report for `id`.
    fn flags_of(&self, id: Id) -> NodeFlags {
        self.n(id).flags.with(NodeFlags::IN_WORLD, self.in_world(id))
    }

    fn bump(&mut self) -> u64 {
        self.global += 1;
        self.global
    }

    fn stamp(&mut self, id: Id, rev: u64) {
        self.nm(id).rev = rev;
    }

    fn alloc(&mut self) -> Id {
        let id = Id(self.next_id);
        self.next_id += 1;
        id
    }

    fn insert(&mut self, id: Id, node: MNode) {
        assert!(!self.nodes.contains_key(&id), "id {id:?} reused");
        self.nodes.insert(id, node);
        self.order.push(id);
    }

    fn link(&mut self, child: Id, parent: Id) {
        self.nm(parent).children.push(child);
        self.nm(child).parent = Some(parent);
    }

    fn unlink(&mut self, child: Id) {
        let parent = self.nm(child).parent.take().expect("linked");
        self.nm(parent).children.retain(|&c| c != child);
    }

    /// `Arena::validate_destination`.
    fn validate_destination(&self, class: Class, p: Id, moving: Option<Id>) -> Result<(), ArenaError> {
        let pn = match self.nodes.get(&p) {
            None => return Err(ArenaError::ParentMissing(p)),
            Some(n) if n.life == Life::Freed => return Err(ArenaError::ParentMissing(p)),
            Some(n) if n.life != Life::Live => return Err(ArenaError::ParentDestroyed(p)),
            Some(n) => n,
        };
        if pn.flags.contains(NodeFlags::PLATFORM_OWNED) {
            return Err(ArenaError::NewParentPlatformOwned(p));
        }
        if !class.may_be_child_of(pn.class) {
            return Err(ArenaError::Containment { child: class, parent: pn.class });
        }
        if let Some(m) = moving
            && (m == p || self.ancestors(p).contains(&m))
        {
            return Err(ArenaError::Cycle { child: m, parent: p });
        }
        Ok(())
    }

    fn create(&mut self, class: Class, name: &str, parent: Option<Id>) -> Result<Id, ArenaError> {
        if !class.is_creatable() {
            return Err(ArenaError::NotCreatable(class));
        }
        if let Some(p) = parent {
            self.validate_destination(class, p, None)?;
        }
        if self.occupied() >= self.max_nodes {
            return Err(ArenaError::Full(self.max_nodes));
        }
        let rev = self.bump();
        let id = self.alloc();
        self.insert(id, MNode::new(class, name, NodeFlags::NEW, rev));
        self.topology = rev;
        self.journal.push((rev, TopologyChange::Created { id, parent }));
        if let Some(p) = parent {
            self.link(id, p);
            self.stamp(p, rev);
            self.events.push(InstanceEvent::ChildAdded { parent: p, child: id });
            let ancestors = self.chain(p);
            self.events.push(InstanceEvent::DescendantAdded { ancestors, moved: Arc::from([id]) });
        }
        Ok(id)
    }

    /// A write of one field through a setter that compares first.
    fn write<T: PartialEq>(
        &mut self,
        id: Id,
        value: T,
        field: impl Fn(&mut MNode) -> &mut T,
    ) -> Result<bool, ArenaError> {
        self.live_err(id)?;
        if *field(self.nm(id)) == value {
            return Ok(false);
        }
        let rev = self.bump();
        let node = self.nm(id);
        *field(node) = value;
        node.rev = rev;
        Ok(true)
    }

    fn set_flag(&mut self, id: Id, flag: NodeFlags, on: bool) -> Result<bool, ArenaError> {
        self.live_err(id)?;
        if !NodeFlags::USER.contains(flag) || flag.0.count_ones() != 1 {
            return Ok(false);
        }
        if self.n(id).flags.contains(flag) == on {
            return Ok(false);
        }
        let rev = self.bump();
        let node = self.nm(id);
        node.flags.set(flag, on);
        node.rev = rev;
        Ok(true)
    }

    fn set_platform_owned(&mut self, id: Id, on: bool) -> Result<bool, ArenaError> {
        self.live_err(id)?;
        if self.n(id).flags.contains(NodeFlags::PLATFORM_OWNED) == on {
            return Ok(false);
        }
        let rev = self.bump();
        let node = self.nm(id);
        node.flags.set(NodeFlags::PLATFORM_OWNED, on);
        node.rev = rev;
        Ok(true)
    }

    fn set_attribute(
        &mut self,
        id: Id,
        key: &str,
        value: Option<AttributeValue>,
    ) -> Result<bool, ArenaError> {
        self.live_err(id)?;
        if let Some(t) = value.as_ref().and_then(AttributeValue::referenced) {
            self.live_err(t)?;
        }
        let node = self.n(id);
        let pos = node.attrs.iter().position(|(k, _)| k == key);
        if pos.map(|p| &node.attrs[p].1) == value.as_ref() {
            return Ok(false);
        }
        let rev = self.bump();
        let node = self.nm(id);
        match (pos, value) {
            (Some(p), Some(v)) => node.attrs[p].1 = v,
            (Some(p), None) => {
                node.attrs.remove(p);
            }
            (None, Some(v)) => node.attrs.push((key.to_owned(), v)),
            (None, None) => unreachable!(),
        }
        node.rev = rev;
        Ok(true)
    }

    fn set_reference(&mut self, id: Id, index: usize, target: Option<Id>) -> Result<bool, ArenaError> {
        self.live_err(id)?;
        let class = self.n(id).class;
        if index >= class.reference_properties().len() {
            return Err(ArenaError::NoSuchReference { class, index });
        }
        if let Some(t) = target {
            self.live_err(t)?;
        }
        self.write(id, target, |n| &mut n.refs[index])
    }

    fn edit_tag(&mut self, id: Id, tag: &str, add: bool) -> Result<bool, ArenaError> {
        self.live_err(id)?;
        if self.n(id).tags.contains(tag) == add {
            return Ok(false);
        }
        let rev = self.bump();
        let node = self.nm(id);
        if add {
            node.tags.insert(tag.to_owned());
        } else {
            node.tags.remove(tag);
        }
        node.rev = rev;
        self.tags_rev = rev;
        Ok(true)
    }

    fn set_handle(&mut self, id: Id, handle: Option<&str>) -> Result<bool, ArenaError> {
        self.live_err(id)?;
        if let Some(h) = handle
            && let Some(&holder) = self.handles.get(h)
            && holder != id
        {
            return Err(ArenaError::HandleTaken { name: h.to_owned(), holder });
        }
        let current = self.n(id).handle.clone();
        if current.as_deref() == handle {
            return Ok(false);
        }
        if let Some(old) = current {
            self.handles.remove(&old);
        }
        if let Some(h) = handle {
            self.handles.insert(h.to_owned(), id);
        }
        let rev = self.bump();
        let node = self.nm(id);
        node.handle = handle.map(str::to_owned);
        node.rev = rev;
        Ok(true)
    }

    fn set_persistent_id(&mut self, id: Id, pid: PersistentId) -> Result<bool, ArenaError> {
        self.live_err(id)?;
        match self.pids.get(&pid) {
            Some(&holder) if holder == id => return Ok(false),
            Some(&holder) => return Err(ArenaError::IdInUse(holder)),
            None => {}
        }
        if let Some(old) = self.n(id).pid {
            self.pids.remove(&old);
        }
        self.assign_pid(id, pid);
        Ok(true)
    }

    fn assign_pid(&mut self, id: Id, pid: PersistentId) {
        assert!(!self.pids.contains_key(&pid), "persistent id {pid:?} handed out twice");
        self.pids.insert(pid, id);
        let rev = self.bump();
        let node = self.nm(id);
        node.pid = Some(pid);
        node.rev = rev;
    }

    fn set_parent(&mut self, id: Id, parent: Option<Id>) -> Result<bool, ArenaError> {
        self.live_err(id)?;
        let n = self.n(id);
        if n.flags.contains(NodeFlags::LOCKED) {
            return Err(ArenaError::ParentLocked(id));
        }
        let old = n.parent;
        let old_platform = old.is_some_and(|p| self.n(p).flags.contains(NodeFlags::PLATFORM_OWNED));
        if n.flags.contains(NodeFlags::PLATFORM_OWNED) || old_platform {
            return Err(ArenaError::EntityPlatformOwned(id));
        }
        if old == parent {
            return Ok(false);
        }
        if let Some(p) = parent {
            self.validate_destination(n.class, p, Some(id))?;
        }
        let rev = self.bump();
        self.move_node(id, parent, rev);
        Ok(true)
    }

    /// A validated move: stamps the moved root and both parents, queues the move events.
    fn move_node(&mut self, id: Id, new: Option<Id>, rev: u64) {
        let moved: Arc<[Id]> = self.subtree(id).into();
        let old = self.n(id).parent;
        let old_chain = old.map(|p| self.chain(p));
        if let Some(p) = old {
            self.unlink(id);
            self.stamp(p, rev);
        }
        if let Some(p) = new {
            self.link(id, p);
            self.stamp(p, rev);
        }
        self.stamp(id, rev);
        self.topology = rev;
        self.journal.push((rev, TopologyChange::Moved { id, parent: new }));
        if let (Some(p), Some(ancestors)) = (old, old_chain) {
            self.events.push(InstanceEvent::DescendantRemoving { ancestors, moved: moved.clone() });
            self.events.push(InstanceEvent::ChildRemoved { parent: p, child: id });
        }
        if let Some(p) = new {
            self.events.push(InstanceEvent::ChildAdded { parent: p, child: id });
        }
        self.events.push(InstanceEvent::AncestryChanged { parent: new, moved: moved.clone() });
        if let Some(p) = new {
            let ancestors = self.chain(p);
            self.events.push(InstanceEvent::DescendantAdded { ancestors, moved });
        }
    }

    fn destroy(&mut self, id: Id) -> Result<bool, ArenaError> {
        match self.life(id) {
            None => return Err(ArenaError::NotFound(id)),
            // Ids are never reused: destroying a reclaimed id again is the same no-op.
            Some(Life::Freed | Life::Doomed | Life::Reclaimable) => return Ok(false),
            Some(Life::Live) => {}
        }
        if matches!(self.n(id).class, Class::DataModel | Class::Workspace) {
            return Err(ArenaError::ParentLocked(id));
        }
        let subtree = self.subtree(id);
        if let Some(&owned) = subtree.iter().find(|&&d| self.n(d).flags.contains(NodeFlags::PLATFORM_OWNED)) {
            return Err(ArenaError::DestroyPlatformOwned(owned));
        }
        let rev = self.bump();
        if self.n(id).parent.is_some() {
            self.move_node(id, None, rev);
        } else {
            self.stamp(id, rev);
        }
        let mut had_tags = false;
        for &d in &subtree {
            let node = self.nm(d);
            node.life = Life::Doomed;
            node.destroyed_root = Some(id);
            node.flags.set(NodeFlags::DESTROYED, true);
            node.flags.set(NodeFlags::LOCKED, true);
            had_tags |= !node.tags.is_empty();
            self.deletions.push((rev, d));
            let node = self.nm(d);
            let (handle, pid) = (node.handle.clone(), node.pid);
            if let Some(h) = handle {
                assert_eq!(self.handles.remove(&h), Some(d));
            }
            if let Some(p) = pid {
                assert_eq!(self.pids.remove(&p), Some(d));
            }
        }
        let dead: BTreeSet<Id> = subtree.iter().copied().collect();
        for holder in self.live_ids() {
            let node = self.nm(holder);
            let mut cleared = false;
            for r in &mut node.refs {
                if r.is_some_and(|t| dead.contains(&t)) {
                    *r = None;
                    cleared = true;
                }
            }
            for (_, v) in &mut node.attrs {
                if v.referenced().is_some_and(|t| dead.contains(&t)) {
                    *v = AttributeValue::Ref(None);
                    cleared = true;
                }
            }
            if cleared {
                node.rev = rev;
            }
        }
        if had_tags {
            self.tags_rev = rev;
        }
        self.topology = rev;
        self.journal.push((rev, TopologyChange::Destroyed { id }));
        self.events.push(InstanceEvent::Destroyed { root: id, subtree: subtree.into() });
        Ok(true)
    }

    /// The archivable part of `root`'s subtree in pre-order, each with its plan parent (the
    /// place root and the Workspace are never copied).
    fn plan(&self, root: Id) -> Vec<(Id, Option<usize>)> {
        let mut plan = Vec::new();
        let mut stack = vec![(root, None)];
        while let Some((id, parent)) = stack.pop() {
            let node = self.n(id);
            if node.life != Life::Live
                || !node.flags.contains(NodeFlags::ARCHIVABLE)
                || !node.class.is_creatable()
            {
                continue;
            }
            let index = plan.len();
            plan.push((id, parent));
            stack.extend(node.children.iter().rev().map(|&c| (c, Some(index))));
        }
        plan
    }

    /// Creates copies of `entries` (source id, prepared node, plan parent) at one new
    /// revision; a reference to a source inside the plan goes to its copy, others through
    /// `external`.
    fn materialize(
        &mut self,
        entries: Vec<(Id, MNode, Option<usize>)>,
        external: impl Fn(Id) -> Option<Id>,
    ) -> Vec<Id> {
        let rev = self.bump();
        let copies: Vec<Id> = entries.iter().map(|_| self.alloc()).collect();
        let map: BTreeMap<Id, Id> = entries.iter().zip(&copies).map(|((s, ..), &c)| (*s, c)).collect();
        let remap = |t: Id| match map.get(&t) {
            Some(&c) => Some(c),
            None => external(t),
        };
        let mut any_tags = false;
        for ((_, mut node, parent), &copy) in entries.into_iter().zip(&copies) {
            node.refs = node.refs.map(|r| r.and_then(remap));
            for (_, v) in &mut node.attrs {
                if let Some(t) = v.referenced() {
                    *v = AttributeValue::Ref(remap(t));
                }
            }
            node.flags = NodeFlags(node.flags.0 & NodeFlags::USER.0);
            node.rev = rev;
            node.life = Life::Live;
            node.destroyed_root = None;
            node.children.clear();
            node.parent = None;
            node.handle = None;
            any_tags |= !node.tags.is_empty();
            if let Some(p) = node.pid {
                self.pids.insert(p, copy);
            }
            self.insert(copy, node);
            if let Some(p) = parent {
                self.link(copy, copies[p]);
            }
        }
        self.topology = rev;
        self.journal.push((rev, TopologyChange::Created { id: copies[0], parent: None }));
        if any_tags {
            self.tags_rev = rev;
        }
        copies
    }

    fn clone_subtree(&mut self, id: Id) -> Result<Option<Vec<Id>>, ArenaError> {
        self.live_err(id)?;
        let plan = self.plan(id);
        if plan.is_empty() {
            return Ok(None);
        }
        if self.occupied() + plan.len() > self.max_nodes {
            return Err(ArenaError::Full(self.max_nodes));
        }
        let entries = plan
            .iter()
            .map(|&(s, p)| {
                let mut node = self.n(s).clone();
                node.pid = None;
                node.guid = None;
                (s, node, p)
            })
            .collect();
        Ok(Some(self.materialize(entries, Some)))
    }

    fn graft(
        &mut self,
        source: &Model,
        root: Id,
        parent: Option<Id>,
        policy: GraftPolicy,
    ) -> Result<Option<Vec<Id>>, ArenaError> {
        source.live_err(root)?;
        if let Some(p) = parent {
            self.validate_destination(source.n(root).class, p, None)?;
        }
        let plan = source.plan(root);
        if plan.is_empty() {
            return Ok(None);
        }
        let inside: BTreeSet<Id> = plan.iter().map(|(s, _)| *s).collect();
        if policy == GraftPolicy::Refuse {
            for &(s, _) in &plan {
                if let Some((_, target)) =
                    source.n(s).references().into_iter().find(|(_, t)| !inside.contains(t))
                {
                    return Err(ArenaError::ExternalReference { holder: s, target });
                }
            }
        }
        if self.occupied() + plan.len() > self.max_nodes {
            return Err(ArenaError::Full(self.max_nodes));
        }
        let entries = plan
            .iter()
            .map(|&(s, p)| {
                let mut node = source.n(s).clone();
                if node.pid.is_some_and(|p| self.pids.contains_key(&p)) {
                    node.pid = None;
                }
                (s, node, p)
            })
            .collect();
        let pids = self.pids.clone();
        let external = |t: Id| match policy {
            GraftPolicy::ResolveByPersistentId => source
                .nodes
                .get(&t)
                .filter(|n| n.life == Life::Live)
                .and_then(|n| n.pid)
                .and_then(|p| pids.get(&p).copied()),
            GraftPolicy::Clear | GraftPolicy::Refuse => None,
        };
        let copies = self.materialize(entries, external);
        if let Some(p) = parent {
            let rev = self.bump();
            self.move_node(copies[0], Some(p), rev);
        }
        Ok(Some(copies))
    }

    fn drain(&mut self) -> Vec<InstanceEvent> {
        for node in self.nodes.values_mut() {
            node.life = match node.life {
                Life::Reclaimable => Life::Freed,
                Life::Doomed => Life::Reclaimable,
                l => l,
            };
        }
        std::mem::take(&mut self.events)
    }

    /// The model agrees with itself: links in both directions, no cycle.
    fn self_check(&self) {
        for (&id, n) in &self.nodes {
            if n.life == Life::Freed {
                continue;
            }
            if let Some(p) = n.parent {
                assert!(self.n(p).children.contains(&id), "model: {id:?} missing from its parent");
                assert_eq!(
                    self.n(p).life == Life::Live,
                    n.life == Life::Live,
                    "model: live/dead mix at {id:?}"
                );
            }
            for &c in &n.children {
                assert_eq!(self.n(c).parent, Some(id), "model: child link of {c:?}");
            }
            self.ancestors(id);
        }
    }
}

// ---------------------------------------------------------------------------------------
// Checking the arena against the model
// ---------------------------------------------------------------------------------------

fn field_text(names: &NamePool, field: RefField) -> String {
    match field {
        RefField::Builtin(i) => format!("#{i}"),
        RefField::Attribute(k) => names.text(k).to_owned(),
    }
}

/// One node of an arena or snapshot (live or tombstone) against its model.
fn check_node(node: NodeRef<'_>, names: &NamePool, model: &Model, id: Id) {
    let m = model.n(id);
    assert_eq!(node.id(), id);
    assert_eq!(node.class(), m.class, "{id:?}: class");
    assert_eq!(names.text(node.name()), m.name, "{id:?}: name");
    assert_eq!(node.parent(), m.parent, "{id:?}: parent");
    assert_eq!(node.children().iter().collect::<Vec<_>>(), m.children, "{id:?}: children");
    assert_eq!(node.children().len(), m.children.len(), "{id:?}: child count");
    assert_eq!(node.flags(), model.flags_of(id), "{id:?}: flags");
    assert_eq!(node.revision(), m.rev, "{id:?}: revision");
    if let Some(guid) = m.guid {
        assert_eq!(node.guid(), guid, "{id:?}: guid");
    }
    assert_eq!(node.position(), m.position, "{id:?}: position");
    assert_eq!(node.size(), m.size, "{id:?}: size");
    let extras = node.extras();
    let attrs: Vec<(String, AttributeValue)> =
        extras.attributes.iter().map(|(k, v)| (names.text(*k).to_owned(), v.clone())).collect();
    assert_eq!(attrs, m.attrs, "{id:?}: attributes");
    let tags: BTreeSet<String> = extras.tags.iter().map(|t| names.text(*t).to_owned()).collect();
    assert_eq!(tags, m.tags, "{id:?}: tags");
    assert!(extras.tags.windows(2).all(|w| w[0] < w[1]), "{id:?}: tags not sorted by name id");
    for t in &m.tags {
        assert!(node.has_tag(names.find(t).expect("interned tag")), "{id:?}: has_tag({t})");
    }
    assert_eq!(extras.refs, m.refs, "{id:?}: references");
    assert_eq!(extras.handle.map(|h| names.text(h).to_owned()), m.handle, "{id:?}: handle");
    assert_eq!(extras.persistent_id, m.pid, "{id:?}: persistent id");
}

/// The whole arena against the model.
fn check(arena: &Arena, m: &Model) {
    m.self_check();
    let revs = arena.revisions();
    assert_eq!(revs.global, m.global, "global revision");
    assert_eq!(revs.topology, m.topology, "topology revision");
    assert_eq!(revs.tags, m.tags_rev, "tag revision");
    let live = m.live_ids();
    assert_eq!(arena.len(), live.len());
    assert_eq!(arena.iter().map(|n| n.id()).collect::<BTreeSet<_>>(), live.iter().copied().collect());
    let report = arena.memory_report();
    assert_eq!(report.live_nodes, live.len());
    assert_eq!(report.occupied_slots, m.occupied(), "occupied slots (live + tombstones)");
    let names = arena.names();

    for (&id, n) in &m.nodes {
        match n.life {
            Life::Live => {
                let node = arena.get(id).unwrap_or_else(|| panic!("{id:?} should be live"));
                check_node(node, names, m, id);
                assert!(arena.node(id).is_ok() && arena.contains(id));
                for c in arena.children(id) {
                    assert_eq!(arena.get(c).and_then(|c| c.parent()), Some(id), "child {c:?} of {id:?}");
                }
                assert_eq!(arena.ancestors(id).take(m.nodes.len() + 1).collect::<Vec<_>>(), m.ancestors(id));
                assert!(arena.lifecycle_view(m.root).get(id).is_some());
                for name in NAMES {
                    let expected = n.children.iter().copied().find(|&c| m.n(c).name == name);
                    assert_eq!(
                        arena.find_first_child(id, name),
                        expected,
                        "find_first_child({id:?}, {name:?})"
                    );
                }
            }
            Life::Doomed | Life::Reclaimable => {
                assert!(arena.get(id).is_none() && !arena.contains(id), "{id:?} is destroyed");
                assert_eq!(arena.node(id).err(), Some(ArenaError::Destroyed(id)));
                assert_eq!(arena.children(id).count(), 0);
                let root = n.destroyed_root.expect("destroyed by some call");
                let view = arena.lifecycle_view(root);
                let tomb = view.get(id).unwrap_or_else(|| panic!("tombstone {id:?} readable under {root:?}"));
                assert!(tomb.is_destroyed());
                check_node(tomb, names, m, id);
                assert!(arena.lifecycle_view(m.root).get(id).is_none(), "tombstone outside its scope");
            }
            Life::Freed => {
                assert!(arena.get(id).is_none());
                assert_eq!(arena.node(id).err(), Some(ArenaError::NotFound(id)));
                let root = n.destroyed_root.expect("destroyed by some call");
                assert!(arena.lifecycle_view(root).get(id).is_none(), "freed {id:?} still readable");
            }
        }
    }
    for unknown in [Id::NONE, Id(m.next_id), FOREIGN] {
        assert!(arena.get(unknown).is_none());
        assert_eq!(arena.node(unknown).err(), Some(ArenaError::NotFound(unknown)));
    }

    let handles: BTreeMap<String, Id> = arena.handles().map(|(h, id)| (h.to_owned(), id)).collect();
    assert_eq!(handles, m.handles, "handles");
    for h in HANDLES {
        assert_eq!(arena.handle(h), m.handles.get(h).copied(), "handle({h})");
    }
    for t in TAGS {
        let expected: Vec<Id> = live.iter().copied().filter(|&id| m.n(id).tags.contains(t)).collect();
        let mut expected = expected;
        expected.sort();
        assert_eq!(arena.tagged(t).collect::<Vec<_>>(), expected, "tagged({t})");
    }
    for (&p, &id) in &m.pids {
        assert_eq!(arena.find_persistent(p), Some(id), "find_persistent");
    }
    for n in m.nodes.values().filter(|n| n.life != Life::Live) {
        if let Some(p) = n.pid {
            assert_eq!(arena.find_persistent(p), m.pids.get(&p).copied(), "persistent id of a dead node");
        }
    }
    let mut expected_refs: BTreeMap<Id, BTreeSet<(Id, String)>> = BTreeMap::new();
    for &holder in &live {
        for (field, target) in m.n(holder).references() {
            assert!(m.is_live(target), "live {holder:?} refers to dead {target:?}");
            expected_refs.entry(target).or_default().insert((holder, field));
        }
    }
    for &id in m.nodes.keys() {
        let got: Vec<(Id, String)> = arena.referrers(id).map(|(h, f)| (h, field_text(names, f))).collect();
        let set: BTreeSet<(Id, String)> = got.iter().cloned().collect();
        assert_eq!(set.len(), got.len(), "duplicate referrer of {id:?}");
        assert_eq!(set, expected_refs.remove(&id).unwrap_or_default(), "referrers({id:?})");
    }
    for f in ALL_FAMILIES {
        let mut got = arena.family(f).to_vec();
        got.sort();
        let expected: Vec<Id> =
            live.iter().copied().filter(|&id| m.n(id).class.family() == Some(f) && m.in_world(id)).collect();
        let mut expected = expected;
        expected.sort();
        assert_eq!(got, expected, "family {f:?}");
    }
    assert_eq!(arena.pending_events(), m.events.as_slice(), "pending events");
    for since in [0, m.global / 2, m.global] {
        let expected: Vec<(u64, TopologyChange)> =
            m.journal.iter().filter(|(r, _)| *r > since).copied().collect();
        assert_eq!(
            arena.topology_since(since).expect("history").collect::<Vec<_>>(),
            expected,
            "topology journal"
        );
        let expected: Vec<Id> = m.deletions.iter().filter(|(r, _)| *r > since).map(|(_, id)| *id).collect();
        assert_eq!(
            arena.deletions_since(since).expect("history").collect::<Vec<_>>(),
            expected,
            "deletion log"
        );
    }
}

/// A snapshot against the model copied when it was taken.
fn check_snapshot(snap: &Snapshot, m: &Model) {
    assert_eq!(snap.revisions().global, m.global, "snapshot revision");
    assert_eq!(snap.len(), m.live_ids().len());
    assert_eq!(snap.iter().count(), m.live_ids().len());
    assert_eq!((snap.root(), snap.workspace()), (m.root, m.workspace));
    for (&id, n) in &m.nodes {
        match n.life {
            Life::Live => {
                check_node(
                    snap.get(id).unwrap_or_else(|| panic!("{id:?} live in snapshot")),
                    snap.names(),
                    m,
                    id,
                );
            }
            Life::Doomed | Life::Reclaimable => {
                assert!(snap.get(id).is_none());
                assert_eq!(snap.node(id).err(), Some(ArenaError::Destroyed(id)));
                check_node(snap.tombstone(id).expect("tombstone in snapshot"), snap.names(), m, id);
            }
            Life::Freed => {
                assert!(snap.get(id).is_none() && snap.tombstone(id).is_none());
            }
        }
    }
}

/// A diff from the snapshot of `old` to the snapshot of `new`.
fn check_diff(diff: &SnapshotDiff, old: &Model, new: &Model) {
    let (mut changed, mut added, mut removed) = (Vec::new(), Vec::new(), Vec::new());
    for (&id, n) in &new.nodes {
        let before = old.nodes.get(&id).filter(|o| o.life == Life::Live);
        match (before, n.life == Life::Live) {
            (Some(o), true) if o.rev != n.rev => changed.push(id),
            (None, true) => added.push(id),
            (Some(_), false) => removed.push(id),
            _ => {}
        }
    }
    let sorted = |v: &[Id]| {
        let mut v = v.to_vec();
        v.sort();
        v
    };
    assert_eq!(sorted(&diff.changed), changed, "diff: changed");
    assert_eq!(sorted(&diff.added), added, "diff: added");
    assert_eq!(sorted(&diff.removed), removed, "diff: removed");
    assert_eq!(
        diff.changed.len() + diff.added.len() + diff.removed.len(),
        changed.len() + added.len() + removed.len()
    );
}

#[derive(Debug, PartialEq)]
struct NodeDump {
    id: Id,
    class: Class,
    name: String,
    parent: Option<Id>,
    children: Vec<Id>,
    flags: NodeFlags,
    revision: u64,
    guid: Guid,
    transform: LocalTransform,
    size: Vec3,
    appearance: arbor_core::Appearance,
    extras: NodeExtras,
}

fn dump_node(node: NodeRef<'_>, names: &NamePool) -> NodeDump {
    NodeDump {
        id: node.id(),
        class: node.class(),
        name: names.text(node.name()).to_owned(),
        parent: node.parent(),
        children: node.children().iter().collect(),
        flags: node.flags(),
        revision: node.revision(),
        guid: node.guid(),
        transform: node.transform(),
        size: node.size(),
        appearance: node.appearance(),
        extras: node.extras().clone(),
    }
}

/// Everything observable about an arena (names as text, so interning does not show).
#[derive(Debug, PartialEq)]
struct Dump {
    revisions: Revisions,
    len: usize,
    occupied: usize,
    nodes: Vec<NodeDump>,
    tombstones: Vec<NodeDump>,
    events: Vec<InstanceEvent>,
    topology: Vec<(u64, TopologyChange)>,
    part_writes: Vec<Id>,
    deletions: Vec<Id>,
    handles: Vec<(String, Id)>,
    tagged: Vec<Vec<Id>>,
    families: Vec<Vec<Id>>,
    referrers: Vec<Vec<(Id, String)>>,
}

/// Compares two dumps field by field, so a failure names what differs.
fn assert_same(got: &Dump, expected: &Dump, what: &str) {
    macro_rules! same {
        ($($field:ident),*) => {$(
            assert_eq!(got.$field, expected.$field, "{what}: {} differs", stringify!($field));
        )*};
    }
    same!(
        revisions,
        len,
        occupied,
        events,
        topology,
        part_writes,
        deletions,
        handles,
        tagged,
        families,
        referrers
    );
    for (g, e) in got.nodes.iter().zip(&expected.nodes) {
        assert_eq!(g, e, "{what}: node differs");
    }
    same!(nodes, tombstones);
}

fn dump(arena: &Arena, ids: &[Id]) -> Dump {
    let names = arena.names();
    let mut handles: Vec<(String, Id)> = arena.handles().map(|(h, id)| (h.to_owned(), id)).collect();
    handles.sort();
    Dump {
        revisions: *arena.revisions(),
        len: arena.len(),
        occupied: arena.memory_report().occupied_slots,
        nodes: arena.iter().map(|n| dump_node(n, names)).collect(),
        tombstones: ids
            .iter()
            .filter(|&&id| arena.get(id).is_none())
            .filter_map(|&id| arena.lifecycle_view(id).get(id).map(|n| dump_node(n, names)))
            .collect(),
        events: arena.pending_events().to_vec(),
        topology: arena.topology_since(0).expect("history").collect(),
        part_writes: arena.part_writes_since(0).expect("history").collect(),
        deletions: arena.deletions_since(0).expect("history").collect(),
        handles,
        tagged: TAGS.iter().map(|t| arena.tagged(t).collect()).collect(),
        families: ALL_FAMILIES.iter().map(|&f| arena.family(f).to_vec()).collect(),
        referrers: ids
            .iter()
            .map(|&id| arena.referrers(id).map(|(h, f)| (h, field_text(names, f))).collect())
            .collect(),
    }
}

// ---------------------------------------------------------------------------------------
// Operations
// ---------------------------------------------------------------------------------------

/// A node chosen by index when the operation runs (see [`Model::pick`]).
#[derive(Clone, Copy, Debug)]
struct Pick(u16);

#[derive(Clone, Debug)]
enum AttrChoice {
    Remove,
    Number(u8),
    Bool(bool),
    Text(u8),
    RefNone,
    Ref(Pick),
}

#[derive(Clone, Debug)]
enum Op {
    Create {
        class: Class,
        name: u8,
        parent: Option<Pick>,
    },
    Rename {
        node: Pick,
        name: u8,
    },
    Position {
        node: Pick,
        v: u8,
    },
    Size {
        node: Pick,
        v: u8,
    },
    Flag {
        node: Pick,
        flag: NodeFlags,
        on: bool,
    },
    Platform {
        node: Pick,
        on: bool,
    },
    Touch {
        node: Pick,
    },
    Attr {
        node: Pick,
        key: u8,
        value: AttrChoice,
    },
    Reference {
        node: Pick,
        index: u8,
        target: Option<Pick>,
    },
    Tag {
        node: Pick,
        tag: u8,
        add: bool,
    },
    Handle {
        node: Pick,
        name: Option<u8>,
    },
    SetPid {
        node: Pick,
        k: u8,
    },
    AssignPid {
        node: Pick,
    },
    Reparent {
        node: Pick,
        parent: Option<Pick>,
    },
    /// Reparent under a node of its own subtree (itself included): always a cycle.
    ReparentInside {
        node: Pick,
        k: u16,
    },
    Destroy {
        node: Pick,
    },
    Clone {
        node: Pick,
    },
    Graft {
        root: Pick,
        parent: Option<Pick>,
        policy: GraftPolicy,
    },
    Snapshot,
    Drain,
}

const CLASSES: [Class; 24] = [
    Class::Folder,
    Class::Folder,
    Class::Folder,
    Class::Model,
    Class::Model,
    Class::Part,
    Class::Part,
    Class::Part,
    Class::Script,
    Class::ScreenGui,
    Class::ScreenGui,
    Class::Frame,
    Class::Frame,
    Class::TextLabel,
    Class::ObjectValue,
    Class::ObjectValue,
    Class::Weld,
    Class::Weld,
    Class::Sound,
    Class::PointLight,
    Class::Camera,
    Class::Animation,
    Class::Character,
    Class::DataModel,
];

const FLAGS: [NodeFlags; 8] = [
    NodeFlags::ANCHORED,
    NodeFlags::ARCHIVABLE,
    NodeFlags::ARCHIVABLE,
    NodeFlags::CAN_COLLIDE,
    NodeFlags::TRANSIENT,
    NodeFlags::LOCKED,
    NodeFlags::IN_WORLD,
    NodeFlags(NodeFlags::ANCHORED.0 | NodeFlags::TRANSIENT.0),
];

fn pick() -> impl Strategy<Value = Pick> {
    any::<u16>().prop_map(Pick)
}

fn attr_choice() -> impl Strategy<Value = AttrChoice> {
    prop_oneof![
        1 => Just(AttrChoice::Remove),
        1 => (0u8..3).prop_map(AttrChoice::Number),
        1 => any::<bool>().prop_map(AttrChoice::Bool),
        1 => (0u8..2).prop_map(AttrChoice::Text),
        1 => Just(AttrChoice::RefNone),
        3 => pick().prop_map(AttrChoice::Ref),
    ]
}

fn op() -> impl Strategy<Value = Op> {
    let policy = prop_oneof![
        Just(GraftPolicy::Clear),
        Just(GraftPolicy::ResolveByPersistentId),
        Just(GraftPolicy::Refuse)
    ];
    prop_oneof![
        10 => (prop::sample::select(&CLASSES[..]), any::<u8>(), prop::option::weighted(0.8, pick()))
            .prop_map(|(class, name, parent)| Op::Create { class, name, parent }),
        2 => (pick(), any::<u8>()).prop_map(|(node, name)| Op::Rename { node, name }),
        1 => (pick(), 0u8..3).prop_map(|(node, v)| Op::Position { node, v }),
        1 => (pick(), 0u8..3).prop_map(|(node, v)| Op::Size { node, v }),
        3 => (pick(), prop::sample::select(&FLAGS[..]), any::<bool>())
            .prop_map(|(node, flag, on)| Op::Flag { node, flag, on }),
        2 => (pick(), prop::bool::weighted(0.4)).prop_map(|(node, on)| Op::Platform { node, on }),
        1 => pick().prop_map(|node| Op::Touch { node }),
        4 => (pick(), 0u8..3, attr_choice()).prop_map(|(node, key, value)| Op::Attr { node, key, value }),
        4 => (pick(), 0u8..3, prop::option::weighted(0.8, pick()))
            .prop_map(|(node, index, target)| Op::Reference { node, index, target }),
        2 => (pick(), 0u8..3, prop::bool::weighted(0.7)).prop_map(|(node, tag, add)| Op::Tag { node, tag, add }),
        2 => (pick(), prop::option::weighted(0.7, 0u8..3)).prop_map(|(node, name)| Op::Handle { node, name }),
        2 => (pick(), 0u8..6).prop_map(|(node, k)| Op::SetPid { node, k }),
        1 => pick().prop_map(|node| Op::AssignPid { node }),
        8 => (pick(), prop::option::weighted(0.85, pick())).prop_map(|(node, parent)| Op::Reparent { node, parent }),
        1 => (pick(), any::<u16>()).prop_map(|(node, k)| Op::ReparentInside { node, k }),
        4 => pick().prop_map(|node| Op::Destroy { node }),
        3 => pick().prop_map(|node| Op::Clone { node }),
        3 => (pick(), prop::option::weighted(0.6, pick()), policy)
            .prop_map(|(root, parent, policy)| Op::Graft { root, parent, policy }),
        1 => Just(Op::Snapshot),
        2 => Just(Op::Drain),
    ]
}

/// An arena, its model, and the snapshots kept for later re-checks.
struct World {
    arena: Arena,
    model: Model,
    snaps: Vec<(Snapshot, Model)>,
}

impl World {
    fn new(max_nodes: usize, seed: u64) -> Self {
        let arena = Arena::with_config(ArenaConfig { max_nodes, seed, ..ArenaConfig::default() });
        let mut model = Model::new(max_nodes);
        for id in [model.root, model.workspace] {
            model.nm(id).guid = Some(arena.get(id).expect("fresh arena").guid());
        }
        check(&arena, &model);
        World { arena, model, snaps: Vec::new() }
    }

    /// Builds a small starting tree through [`step`](Self::step) (`Pick(5 * k)` is the
    /// `k`-th id created): a folder, a model with two parts and a weld, a GUI layer with a
    /// frame, an `ObjectValue`, and a detached folder.
    fn populate(&mut self) {
        let under = |k: u16| Some(Pick(5 * k));
        for (class, parent) in [
            (Class::Folder, under(1)),
            (Class::Model, under(1)),
            (Class::Part, under(3)),
            (Class::Part, under(3)),
            (Class::Weld, under(3)),
            (Class::ScreenGui, under(0)),
            (Class::Frame, under(7)),
            (Class::ObjectValue, under(2)),
            (Class::Folder, None),
        ] {
            let name = self.model.order.len() as u8;
            self.step(&Op::Create { class, name, parent }, None);
        }
        assert_eq!(self.model.order.len(), 11);
    }

    /// Takes a snapshot, checks it and its diffs from every kept snapshot, and keeps it.
    fn snapshot(&mut self) {
        let snap = self.arena.snapshot();
        check_snapshot(&snap, &self.model);
        assert!(snap.diff(&snap.clone()).is_empty());
        for (old, old_model) in &self.snaps {
            check_snapshot(old, old_model);
            check_diff(&old.diff(&snap), old_model, &self.model);
        }
        if self.snaps.len() == 4 {
            self.snaps.remove(1);
        }
        self.snaps.push((snap, self.model.clone()));
    }

    /// Runs one operation on the arena and the model and checks them; `source` is the
    /// snapshot (and its model) grafts copy from.
    fn step(&mut self, op: &Op, source: Option<&(Snapshot, Model)>) {
        let known = self.model.order.clone();
        let before = dump(&self.arena, &known);
        let (arena, m) = (&mut self.arena, &mut self.model);
        let changed = match op {
            Op::Create { class, name, parent } => {
                let parent = parent.map(|p| m.pick_parent(p));
                let name = NAMES[*name as usize % NAMES.len()];
                let expected = m.create(*class, name, parent);
                let got = arena.create(*class, name, parent);
                assert_eq!(got, expected, "create {class:?} under {parent:?}");
                if let Ok(id) = got {
                    m.nm(id).guid = Some(arena.get(id).expect("created").guid());
                }
                got.is_ok()
            }
            Op::Rename { node, name } => {
                let id = m.pick(*node);
                let name = NAMES[*name as usize % NAMES.len()];
                let expected = m.write(id, name.to_owned(), |n| &mut n.name);
                let got = arena.set_name(id, name);
                assert_eq!(got, expected, "rename {id:?}");
                got == Ok(true)
            }
            Op::Position { node, v } => {
                let id = m.pick(*node);
                let v = Vec3::splat(*v as f32);
                let expected = m.write(id, v, |n| &mut n.position);
                let got = arena.set_position(id, v);
                assert_eq!(got, expected, "position of {id:?}");
                got == Ok(true)
            }
            Op::Size { node, v } => {
                let id = m.pick(*node);
                let v = if *v == 0 { DEFAULT_SIZE } else { Vec3::splat(*v as f32) };
                let expected = m.write(id, v, |n| &mut n.size);
                let got = arena.set_size(id, v);
                assert_eq!(got, expected, "size of {id:?}");
                got == Ok(true)
            }
            Op::Flag { node, flag, on } => {
                let id = m.pick(*node);
                let expected = m.set_flag(id, *flag, *on);
                let got = arena.set_flag(id, *flag, *on);
                assert_eq!(got, expected, "set_flag {flag:?}={on} on {id:?}");
                got == Ok(true)
            }
            Op::Platform { node, on } => {
                let id = m.pick(*node);
                let expected = m.set_platform_owned(id, *on);
                let got = arena.set_platform_owned(id, *on);
                assert_eq!(got, expected, "set_platform_owned {on} on {id:?}");
                got == Ok(true)
            }
            Op::Touch { node } => {
                let id = m.pick(*node);
                let expected = m.live_err(id);
                let got = arena.node_mut(id).map(|n| assert_eq!(n.id(), id));
                assert_eq!(got, expected, "node_mut {id:?}");
                if got.is_ok() {
                    let rev = m.bump();
                    m.stamp(id, rev);
                }
                got.is_ok()
            }
            Op::Attr { node, key, value } => {
                let id = m.pick(*node);
                let key = ATTR_KEYS[*key as usize % ATTR_KEYS.len()];
                let value = match value {
                    AttrChoice::Remove => None,
                    AttrChoice::Number(n) => Some(AttributeValue::Number(*n as f64)),
                    AttrChoice::Bool(b) => Some(AttributeValue::Bool(*b)),
                    AttrChoice::Text(t) => {
                        Some(AttributeValue::String(Arc::from(["x", "y"][*t as usize % 2])))
                    }
                    AttrChoice::RefNone => Some(AttributeValue::Ref(None)),
                    AttrChoice::Ref(p) => Some(AttributeValue::Ref(Some(m.pick_target(id, *p)))),
                };
                let expected = m.set_attribute(id, key, value.clone());
                let got = arena.set_attribute(id, key, value.clone());
                assert_eq!(got, expected, "set_attribute {key}={value:?} on {id:?}");
                if got == Ok(true) {
                    assert_eq!(arena.attribute(id, key), value.as_ref());
                }
                got == Ok(true)
            }
            Op::Reference { node, index, target } => {
                let id = m.pick_holder(*node);
                let target = target.map(|p| m.pick_target(id, p));
                let expected = m.set_reference(id, *index as usize, target);
                let got = arena.set_reference(id, *index as usize, target);
                assert_eq!(got, expected, "set_reference {id:?}[{index}] = {target:?}");
                got == Ok(true)
            }
            Op::Tag { node, tag, add } => {
                let id = m.pick(*node);
                let tag = TAGS[*tag as usize % TAGS.len()];
                let expected = m.edit_tag(id, tag, *add);
                let got = if *add { arena.add_tag(id, tag) } else { arena.remove_tag(id, tag) };
                assert_eq!(got, expected, "tag {tag} {add} on {id:?}");
                got == Ok(true)
            }
            Op::Handle { node, name } => {
                let id = m.pick(*node);
                let name = name.map(|n| HANDLES[n as usize % HANDLES.len()]);
                let expected = m.set_handle(id, name);
                let got = arena.set_handle(id, name);
                assert_eq!(got, expected, "set_handle {name:?} on {id:?}");
                got == Ok(true)
            }
            Op::SetPid { node, k } => {
                let id = m.pick(*node);
                let pid = PersistentId(*k as u128 + 1);
                let expected = m.set_persistent_id(id, pid);
                let got = arena.set_persistent_id(id, pid);
                assert_eq!(got, expected, "set_persistent_id {pid:?} on {id:?}");
                got == Ok(true)
            }
            Op::AssignPid { node } => {
                let id = m.pick(*node);
                let got = arena.persistent_id(id);
                match (m.live_err(id), m.nodes.get(&id).and_then(|n| n.pid)) {
                    (Err(e), _) => {
                        assert_eq!(got, Err(e));
                        false
                    }
                    (Ok(()), Some(p)) => {
                        assert_eq!(got, Ok(p), "persistent_id of {id:?} is stable");
                        false
                    }
                    (Ok(()), None) => {
                        m.assign_pid(id, got.expect("assigned"));
                        true
                    }
                }
            }
            Op::Reparent { node, parent } => {
                let id = m.pick(*node);
                let parent = parent.map(|p| m.pick_parent(p));
                let expected = m.set_parent(id, parent);
                let got = arena.set_parent(id, parent);
                assert_eq!(got, expected, "set_parent {id:?} -> {parent:?}");
                got == Ok(true)
            }
            Op::ReparentInside { node, k } => {
                let id = m.pick(*node);
                let parent = if m.is_live(id) {
                    let sub = m.subtree(id);
                    sub[*k as usize % sub.len()]
                } else {
                    m.root
                };
                let expected = m.set_parent(id, Some(parent));
                let got = arena.set_parent(id, Some(parent));
                assert_eq!(got, expected, "set_parent {id:?} -> own subtree {parent:?}");
                got == Ok(true)
            }
            Op::Destroy { node } => {
                let id = m.pick(*node);
                let expected = m.destroy(id);
                let got = arena.destroy(id);
                assert_eq!(got, expected, "destroy {id:?}");
                got == Ok(true)
            }
            Op::Clone { node } => {
                let id = m.pick(*node);
                let expected = m.clone_subtree(id);
                let got = arena.clone_subtree(id);
                assert_eq!(got, expected.clone().map(|c| c.map(|c| c[0])), "clone {id:?}");
                if let Ok(Some(copies)) = expected {
                    let plan = m.plan_sources(id);
                    for (&copy, &src) in copies.iter().zip(&plan) {
                        let guid = arena.get(copy).expect("copy").guid();
                        assert_ne!(Some(guid), m.n(src).guid, "clone draws a fresh guid");
                        m.nm(copy).guid = Some(guid);
                    }
                }
                matches!(got, Ok(Some(_)))
            }
            Op::Graft { root, parent, policy } => {
                let Some((snap, src)) = source else { return };
                let root = src.pick(*root);
                let parent = parent.map(|p| m.pick_parent(p));
                let expected = m.graft(src, root, parent, *policy);
                let got = arena.graft(snap, root, parent, *policy);
                assert_eq!(
                    got,
                    expected.clone().map(|c| c.map(|c| c[0])),
                    "graft {root:?} under {parent:?} ({policy:?})"
                );
                if let Ok(Some(copies)) = expected {
                    for (&copy, &src_id) in copies.iter().zip(&src.plan_sources(root)) {
                        m.nm(copy).guid = src.n(src_id).guid;
                    }
                }
                matches!(got, Ok(Some(_)))
            }
            Op::Snapshot => {
                self.snapshot();
                false
            }
            Op::Drain => {
                let expected = m.drain();
                assert_eq!(arena.drain_events(), expected, "drained events");
                true
            }
        };
        if !changed {
            assert_same(&dump(&self.arena, &known), &before, &format!("{op:?} (refused or a no-op)"));
        }
        check(&self.arena, &self.model);
    }
}

impl Model {
    fn plan_sources(&self, root: Id) -> Vec<Id> {
        self.plan(root).into_iter().map(|(s, _)| s).collect()
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn arena_matches_model(
        small in prop::bool::weighted(0.4),
        source_ops in prop::collection::vec(op(), 0..30),
        source_after in prop::collection::vec(op(), 0..6),
        ops in prop::collection::vec(op(), 1..64),
    ) {
        // A second arena to graft from: built by the same operations, snapshotted, then
        // written again so that grafts must read the snapshot, not the arena.
        // Its own GUID seed: arenas with one seed draw the same GUIDs, and grafts keep them.
        let mut source = World::new(1 << 20, 0x5EED_0000_50CE);
        source.populate();
        for op in &source_ops {
            source.step(op, None);
        }
        let graft_source = (source.arena.snapshot(), source.model.clone());
        for op in &source_after {
            source.step(op, None);
        }
        check_snapshot(&graft_source.0, &graft_source.1);

        let mut world = World::new(if small { 24 } else { 1 << 20 }, ArenaConfig::default().seed);
        world.populate();
        world.snapshot();
        for op in &ops {
            world.step(op, Some(&graft_source));
        }
        world.snapshot();
        check_snapshot(&graft_source.0, &graft_source.1);
    }
}

// ---------------------------------------------------------------------------------------
// Scenarios the random test rarely reaches
// ---------------------------------------------------------------------------------------

/// A small deterministic generator for the plain tests.
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self.0.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        ((self.0 >> 33) as usize) % n
    }
}

#[test]
fn emptying_a_thousand_child_folder_one_by_one_keeps_order() {
    let mut arena = Arena::new();
    let ws = arena.workspace();
    let folder = arena.create(Class::Folder, "Big", Some(ws)).unwrap();
    let other = arena.create(Class::Folder, "Other", Some(ws)).unwrap();
    let mut model: Vec<Id> =
        (0..1000).map(|i| arena.create(Class::Part, &format!("P{i}"), Some(folder)).unwrap()).collect();
    let mut moved = Vec::new();
    let mut rng = Lcg(7);
    let mut step = 0;
    while !model.is_empty() {
        // Front, back and random positions, so holes form everywhere and compaction runs.
        let at = match step % 3 {
            0 => 0,
            1 => model.len() - 1,
            _ => rng.below(model.len()),
        };
        let child = model.remove(at);
        match step % 4 {
            0 => assert_eq!(arena.destroy(child), Ok(true)),
            1 => assert_eq!(arena.set_parent(child, None), Ok(true)),
            _ => {
                assert_eq!(arena.set_parent(child, Some(other)), Ok(true));
                moved.push(child);
            }
        }
        assert_eq!(arena.children(folder).collect::<Vec<_>>(), model, "after removing {child:?}");
        assert_eq!(arena.get(folder).unwrap().children().len(), model.len());
        if step % 97 == 0
            && let Some(back) = moved.pop()
        {
            // Re-adding after holes appends at the end and keeps the rest in place.
            assert_eq!(arena.set_parent(back, Some(folder)), Ok(true));
            model.push(back);
            assert_eq!(arena.children(folder).collect::<Vec<_>>(), model);
        }
        step += 1;
    }
    assert_eq!(arena.children(folder).count(), 0);
    assert_eq!(arena.children(other).collect::<Vec<_>>(), moved);
    for &c in &moved {
        assert_eq!(arena.get(c).unwrap().parent(), Some(other));
    }
}

#[test]
fn lifecycle_view_reads_tombstones_during_delivery() {
    let mut arena = Arena::new();
    let ws = arena.workspace();
    let model = arena.create(Class::Model, "Car", Some(ws)).unwrap();
    let part = arena.create(Class::Part, "Wheel", Some(model)).unwrap();
    let weld = arena.create(Class::Weld, "Joint", Some(part)).unwrap();
    arena.set_reference(weld, 0, Some(part)).unwrap();
    arena.set_attribute(part, "hp", Some(AttributeValue::Number(3.0))).unwrap();
    let other = arena.create(Class::Folder, "Other", Some(ws)).unwrap();
    let keep = arena.create(Class::Folder, "Keep", Some(ws)).unwrap();
    arena.drain_events();

    assert_eq!(arena.destroy(model), Ok(true));
    assert_eq!(arena.destroy(other), Ok(true));
    assert_eq!(arena.destroy(model), Ok(false), "destroying twice is a no-op");
    let events = arena.drain_events();
    let destroyed: Vec<(Id, Arc<[Id]>)> = events
        .iter()
        .filter_map(|e| match e {
            InstanceEvent::Destroyed { root, subtree } => Some((*root, subtree.clone())),
            _ => None,
        })
        .collect();
    assert_eq!(destroyed.len(), 2);
    assert_eq!(&*destroyed[0].1, &[model, part, weld]);
    assert_eq!(&*destroyed[1].1, &[other]);

    // Delivery: each subject's subtree is readable as it was at destruction.
    for (root, subtree) in &destroyed {
        let view = arena.lifecycle_view(*root);
        for &id in subtree.iter() {
            let node = view.get(id).expect("tombstone readable during delivery");
            assert!(node.is_destroyed());
            assert!(arena.get(id).is_none(), "ordinary lookup never returns a tombstone");
        }
        assert!(view.get(keep).is_some(), "live nodes read through the view");
        let unrelated = if *root == model { other } else { model };
        assert!(view.get(unrelated).is_none(), "another subject's tombstone is not in scope");
        {
            let nested = view.scope(unrelated);
            assert!(nested.get(unrelated).is_some());
            assert!(nested.get(*root).is_some());
        }
        assert!(view.get(unrelated).is_none(), "dropping the nested scope restores the view");
    }
    let view = arena.lifecycle_view(model);
    let wheel = view.get(part).unwrap();
    assert_eq!(arena.names().text(wheel.name()), "Wheel");
    assert_eq!(wheel.parent(), Some(model), "tombstones keep their links below the root");
    assert_eq!(view.get(model).unwrap().parent(), None, "the destroyed root was detached");
    assert_eq!(view.get(weld).unwrap().reference(0), Some(part));
    assert_eq!(wheel.attribute(arena.names().find("hp").unwrap()), Some(&AttributeValue::Number(3.0)));
    assert!(!wheel.flags().contains(NodeFlags::IN_WORLD), "never back in the world");
    // Never writable.
    assert_eq!(arena.set_name(part, "X"), Err(ArenaError::Destroyed(part)));
    assert_eq!(arena.set_parent(part, Some(ws)), Err(ArenaError::Destroyed(part)));
}

#[test]
fn reclamation_is_two_phase_and_a_reused_slot_never_answers_the_stale_id() {
    let mut arena = Arena::new();
    let ws = arena.workspace();
    // Root and Workspace plus 62 parts fill the first page exactly.
    let parts: Vec<Id> =
        (0..62).map(|i| arena.create(Class::Part, &format!("P{i}"), Some(ws)).unwrap()).collect();
    assert_eq!(arena.memory_report().pages, 1);
    assert_eq!(arena.memory_report().occupied_slots, 64);
    let victim = parts[20];
    let before = arena.snapshot();
    assert_eq!(arena.destroy(victim), Ok(true));
    let destroyed = arena.snapshot();

    // First drain: the events come out, the tombstone stays readable and keeps its slot.
    let events = arena.drain_events();
    assert!(events.iter().any(|e| matches!(e, InstanceEvent::Destroyed { root, .. } if *root == victim)));
    assert_eq!(arena.node(victim).err(), Some(ArenaError::Destroyed(victim)));
    assert!(arena.lifecycle_view(victim).get(victim).is_some());
    assert_eq!(arena.destroy(victim), Ok(false));
    assert_eq!(arena.memory_report().occupied_slots, 64);
    assert_eq!(arena.len(), 63);

    // Second drain: the slot is freed; the id finds nothing, not even in a lifecycle view.
    assert!(arena.drain_events().is_empty());
    assert_eq!(arena.memory_report().occupied_slots, 63);
    assert_eq!(arena.node(victim).err(), Some(ArenaError::NotFound(victim)));
    assert!(arena.lifecycle_view(victim).get(victim).is_none());
    assert_eq!(arena.destroy(victim), Ok(false), "destroy stays idempotent after reclamation");

    // A new node takes the only vacant slot (no second page), under a new id.
    let newcomer = arena.create(Class::Part, "New", Some(ws)).unwrap();
    assert_eq!(arena.memory_report().pages, 1, "the freed slot was reused");
    assert_eq!(arena.memory_report().occupied_slots, 64);
    assert!(newcomer > *parts.last().unwrap(), "ids are never reused");
    assert!(arena.get(victim).is_none());
    assert_eq!(arena.node(victim).err(), Some(ArenaError::NotFound(victim)));
    assert!(arena.lifecycle_view(victim).get(victim).is_none());
    assert_eq!(arena.get(newcomer).map(|n| n.id()), Some(newcomer));
    assert_eq!(arena.set_parent(victim, None), Err(ArenaError::NotFound(victim)));
    assert_eq!(arena.create(Class::Part, "x", Some(victim)), Err(ArenaError::ParentMissing(victim)));

    // Older snapshots still see what they saw, even with the slot reused.
    assert_eq!(before.get(victim).map(|n| n.id()), Some(victim));
    assert!(before.get(newcomer).is_none());
    assert!(destroyed.tombstone(victim).is_some());
    let now = arena.snapshot();
    let diff = before.diff(&now);
    assert_eq!(diff.removed, vec![victim]);
    assert_eq!(diff.added, vec![newcomer]);
    assert_eq!(diff.changed, vec![ws]);
}

/// Builds the arena the rollback tests use: a model of four parts (one tagged, one holding
/// a reference) under the Workspace.
fn rollback_fixture(max_nodes: usize) -> (Arena, Id) {
    let mut arena = Arena::with_config(ArenaConfig { max_nodes, ..ArenaConfig::default() });
    let ws = arena.workspace();
    let model = arena.create(Class::Model, "M", Some(ws)).unwrap();
    let a = arena.create(Class::Part, "A", Some(model)).unwrap();
    let b = arena.create(Class::Part, "B", Some(model)).unwrap();
    let weld = arena.create(Class::Weld, "W", Some(model)).unwrap();
    arena.create(Class::Part, "C", Some(model)).unwrap();
    arena.set_reference(weld, 0, Some(a)).unwrap();
    arena.set_reference(weld, 1, Some(b)).unwrap();
    arena.add_tag(a, "red").unwrap();
    arena.set_attribute(b, "owner", Some(AttributeValue::Ref(Some(ws)))).unwrap();
    (arena, model)
}

fn ids_of(arena: &Arena) -> Vec<Id> {
    arena.iter().map(|n| n.id()).collect()
}

#[test]
fn failed_clone_rolls_back_everything_including_the_id_counter() {
    // 2 + 5 nodes; a clone of the model needs 5 more: 3 fit, the 4th fails.
    let (mut arena, model) = rollback_fixture(10);
    let (mut twin, _) = rollback_fixture(10);
    let ids = ids_of(&arena);
    let before = dump(&arena, &ids);
    let snap = arena.snapshot();
    assert_eq!(arena.clone_subtree(model), Err(ArenaError::Full(10)));
    assert_same(&dump(&arena, &ids), &before, "a failed clone");
    assert!(snap.diff(&arena.snapshot()).is_empty());
    assert_eq!(arena.memory_report().occupied_slots, 7);

    // The next ids, revisions and GUIDs are those of an arena that never tried the clone.
    for name in ["X", "Y", "Z"] {
        let got = arena.create(Class::Part, name, Some(model)).unwrap();
        let expected = twin.create(Class::Part, name, Some(model)).unwrap();
        assert_eq!(got, expected);
    }
    assert_eq!(arena.create(Class::Part, "Full", None), Err(ArenaError::Full(10)));
    assert_eq!(twin.create(Class::Part, "Full", None), Err(ArenaError::Full(10)));
    let ids = ids_of(&twin);
    assert_same(&dump(&arena, &ids), &dump(&twin, &ids), "after a failed clone, against a twin");

    // With room, the same clone succeeds and takes the next ids in order.
    let (mut roomy, model) = rollback_fixture(12);
    let copy = roomy.clone_subtree(model).unwrap().unwrap();
    assert_eq!(copy, Id(8));
    assert_eq!(roomy.subtree(copy), (8..13).map(Id).collect::<Vec<_>>());
}

#[test]
fn failed_graft_rolls_back_everything() {
    let (source, model) = rollback_fixture(100);
    let snap = source.snapshot();
    let (mut arena, _) = rollback_fixture(10);
    let (mut twin, _) = rollback_fixture(10);
    let ids = ids_of(&arena);
    let before = dump(&arena, &ids);
    let ws = arena.workspace();
    for policy in [GraftPolicy::Clear, GraftPolicy::ResolveByPersistentId] {
        assert_eq!(arena.graft(&snap, model, Some(ws), policy), Err(ArenaError::Full(10)));
        assert_same(&dump(&arena, &ids), &before, "a failed graft");
    }
    // The weld refers inside the model; `b` refers to the source Workspace, outside it.
    let b = source.find_first_child(model, "B").unwrap();
    assert_eq!(
        arena.graft(&snap, model, Some(ws), GraftPolicy::Refuse),
        Err(ArenaError::ExternalReference { holder: b, target: source.workspace() })
    );
    assert_same(&dump(&arena, &ids), &before, "a refused graft");
    let got = arena.create(Class::Folder, "F", None).unwrap();
    assert_eq!(got, twin.create(Class::Folder, "F", None).unwrap());
    let ids = ids_of(&twin);
    assert_same(&dump(&arena, &ids), &dump(&twin, &ids), "after a failed graft, against a twin");
}

#[test]
fn clone_rewrites_internal_references_and_keeps_external_ones() {
    let mut arena = Arena::new();
    let ws = arena.workspace();
    let outside = arena.create(Class::Part, "Outside", Some(ws)).unwrap();
    let model = arena.create(Class::Model, "M", Some(ws)).unwrap();
    let a = arena.create(Class::Part, "A", Some(model)).unwrap();
    let hidden = arena.create(Class::Part, "Hidden", Some(model)).unwrap();
    let weld = arena.create(Class::Weld, "W", Some(model)).unwrap();
    let value = arena.create(Class::ObjectValue, "V", Some(model)).unwrap();
    arena.set_reference(weld, 0, Some(a)).unwrap();
    arena.set_reference(weld, 1, Some(outside)).unwrap();
    arena.set_reference(value, 0, Some(hidden)).unwrap();
    arena.set_attribute(a, "self", Some(AttributeValue::Ref(Some(a)))).unwrap();
    arena.set_attribute(a, "out", Some(AttributeValue::Ref(Some(outside)))).unwrap();
    arena.set_handle(model, Some("Template")).unwrap();
    arena.set_flag(hidden, NodeFlags::ARCHIVABLE, false).unwrap();

    let copy = arena.clone_subtree(model).unwrap().unwrap();
    let copies: Vec<Id> = arena.children(copy).collect();
    let names: Vec<&str> = copies.iter().map(|&c| arena.name_of(c).unwrap()).collect();
    assert_eq!(names, ["A", "W", "V"], "the non-archivable child is skipped");
    let (a2, weld2, value2) = (copies[0], copies[1], copies[2]);
    let w = arena.get(weld2).unwrap();
    assert_eq!((w.reference(0), w.reference(1)), (Some(a2), Some(outside)));
    assert_eq!(arena.get(value2).unwrap().reference(0), Some(hidden), "a skipped target is outside the copy");
    assert_eq!(arena.attribute(a2, "self"), Some(&AttributeValue::Ref(Some(a2))));
    assert_eq!(arena.attribute(a2, "out"), Some(&AttributeValue::Ref(Some(outside))));
    assert_eq!(arena.handle("Template"), Some(model), "handles are not copied");
    assert_eq!(arena.get(copy).unwrap().parent(), None, "the copy comes back detached");
    assert_eq!(arena.clone_subtree(hidden), Ok(None));
    let referrers: BTreeSet<Id> = arena.referrers(outside).map(|(h, _)| h).collect();
    assert_eq!(referrers, BTreeSet::from([a, weld, a2, weld2]));

    // Destroying the external target clears it in the originals and the copies alike.
    let snap = arena.snapshot();
    arena.destroy(outside).unwrap();
    for holder in [weld, weld2] {
        assert_eq!(arena.get(holder).unwrap().reference(1), None);
    }
    for holder in [a, a2] {
        assert_eq!(arena.attribute(holder, "out"), Some(&AttributeValue::Ref(None)));
    }
    assert_eq!(snap.get(weld).unwrap().reference(1), Some(outside), "the snapshot keeps the reference");
    let diff = snap.diff(&arena.snapshot());
    assert_eq!(diff.removed, vec![outside]);
    let mut changed = diff.changed.clone();
    changed.sort();
    assert_eq!(changed, vec![ws, a, weld, a2, weld2]);
}

#[test]
fn the_place_root_and_workspace_are_never_copied() {
    let mut arena = Arena::new();
    let (root, ws) = (arena.root(), arena.workspace());
    arena.create(Class::Part, "P", Some(ws)).unwrap();
    let source = arena.snapshot();
    let ids = ids_of(&arena);
    let before = dump(&arena, &ids);
    assert_eq!(arena.clone_subtree(ws), Ok(None));
    assert_eq!(arena.clone_subtree(root), Ok(None));
    for policy in [GraftPolicy::Clear, GraftPolicy::ResolveByPersistentId, GraftPolicy::Refuse] {
        assert_eq!(arena.graft(&source, root, None, policy), Ok(None));
        assert_eq!(arena.graft(&source, ws, None, policy), Ok(None));
    }
    assert_same(&dump(&arena, &ids), &before, "copying the root or the Workspace");
    // Every detached node a copy can produce can be destroyed again.
    let folder = arena.create(Class::Folder, "F", None).unwrap();
    let copy = arena.clone_subtree(folder).unwrap().unwrap();
    assert_eq!(arena.destroy(copy), Ok(true));
}
