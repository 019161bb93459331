//! The plain model of an arena: nodes with their lifecycle, links and state, the picks
//! that resolve an operation's node choices, and navigation.

use crate::FOREIGN;
use crate::comp_model::MRow;
use crate::ops::Pick;
use arbor_core::{
    ArenaError, AttributeValue, Class, Guid, Id, InstanceEvent, NodeFlags, PersistentId, Vec3,
    components::Schema,
    raw::{DEFAULT_SIZE, TopologyChange},
};
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Life {
    Live,
    /// Destroyed, not drained yet.
    Doomed,
    /// Destroyed, drained once: still a readable tombstone.
    Reclaimable,
    /// Slot freed by the second drain.
    Freed,
}

#[derive(Clone, Debug)]
pub(crate) struct MNode {
    pub(crate) class: Class,
    pub(crate) name: String,
    pub(crate) parent: Option<Id>,
    pub(crate) children: Vec<Id>,
    pub(crate) life: Life,
    /// The root of the destroy call that destroyed this node.
    pub(crate) destroyed_root: Option<Id>,
    pub(crate) rev: u64,
    /// Recorded from the arena at creation (fresh) or copied from the graft source.
    pub(crate) guid: Option<Guid>,
    pub(crate) position: Vec3,
    pub(crate) size: Vec3,
    /// User flags plus `PLATFORM_OWNED`, `LOCKED` and `DESTROYED`; `IN_WORLD` is derived.
    pub(crate) flags: NodeFlags,
    pub(crate) attrs: Vec<(String, AttributeValue)>,
    pub(crate) tags: BTreeSet<String>,
    pub(crate) refs: [Option<Id>; 2],
    pub(crate) handle: Option<String>,
    pub(crate) pid: Option<PersistentId>,
    /// Component rows by the arena's component id (index into [`Model::schemas`]).
    pub(crate) comps: BTreeMap<u16, MRow>,
}

impl MNode {
    pub(crate) fn new(class: Class, name: &str, flags: NodeFlags, rev: u64) -> Self {
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
            comps: BTreeMap::new(),
        }
    }

    /// Every reference target, in the arena's order (built-ins, then attributes).
    pub(crate) fn references(&self) -> Vec<(String, Id)> {
        let builtin = self.refs.iter().enumerate().filter_map(|(i, r)| r.map(|t| (format!("#{i}"), t)));
        let attrs = self.attrs.iter().filter_map(|(k, v)| v.referenced().map(|t| (k.clone(), t)));
        builtin.chain(attrs).collect()
    }
}

#[derive(Clone, Debug)]
pub(crate) struct Model {
    pub(crate) nodes: BTreeMap<Id, MNode>,
    /// Every id ever created, in creation order.
    pub(crate) order: Vec<Id>,
    pub(crate) next_id: u64,
    pub(crate) global: u64,
    pub(crate) topology: u64,
    pub(crate) tags_rev: u64,
    pub(crate) root: Id,
    pub(crate) workspace: Id,
    pub(crate) events: Vec<InstanceEvent>,
    /// The topology journal and the deletion log, with their revisions.
    pub(crate) journal: Vec<(u64, TopologyChange)>,
    pub(crate) deletions: Vec<(u64, Id)>,
    pub(crate) handles: BTreeMap<String, Id>,
    pub(crate) pids: BTreeMap<PersistentId, Id>,
    pub(crate) max_nodes: usize,
    /// Registered component schemas; a schema's index is its `ComponentId`.
    pub(crate) schemas: Vec<Schema>,
    /// Names of the schemas tied to a POD type (`register_pod`).
    pub(crate) pods: BTreeSet<String>,
    /// Revision of the last change of any instance's component set.
    pub(crate) membership: u64,
}

pub(crate) fn locked_flags() -> NodeFlags {
    NodeFlags::NEW.with(NodeFlags::LOCKED, true)
}

impl Model {
    /// The model of a fresh arena: `Game` (id 1) holding `Workspace` (id 2), both written at
    /// revision 1.
    pub(crate) fn new(max_nodes: usize) -> Self {
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
            schemas: Vec::new(),
            pods: BTreeSet::new(),
            membership: 0,
        }
    }

    pub(crate) fn n(&self, id: Id) -> &MNode {
        &self.nodes[&id]
    }

    pub(crate) fn nm(&mut self, id: Id) -> &mut MNode {
        self.nodes.get_mut(&id).expect("model node")
    }

    pub(crate) fn life(&self, id: Id) -> Option<Life> {
        self.nodes.get(&id).map(|n| n.life)
    }

    pub(crate) fn is_live(&self, id: Id) -> bool {
        self.life(id) == Some(Life::Live)
    }

    /// `Arena::node`'s answer for `id`.
    pub(crate) fn live_err(&self, id: Id) -> Result<(), ArenaError> {
        match self.life(id) {
            Some(Life::Live) => Ok(()),
            Some(Life::Doomed | Life::Reclaimable) => Err(ArenaError::Destroyed(id)),
            _ => Err(ArenaError::NotFound(id)),
        }
    }

    pub(crate) fn live_ids(&self) -> Vec<Id> {
        self.order.iter().copied().filter(|&id| self.is_live(id)).collect()
    }

    pub(crate) fn occupied(&self) -> usize {
        self.nodes.values().filter(|n| n.life != Life::Freed).count()
    }

    /// Resolves a pick: mostly a live node, sometimes any id ever made, or one never made.
    pub(crate) fn pick(&self, p: Pick) -> Id {
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
    pub(crate) fn pick_parent(&self, p: Pick) -> Id {
        match p.0 % 11 {
            1 | 4 => self.workspace,
            7 => self.root,
            _ => self.pick(p),
        }
    }

    /// Like [`pick`](Self::pick), but mostly a live node with reference properties.
    pub(crate) fn pick_holder(&self, p: Pick) -> Id {
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
    pub(crate) fn pick_target(&self, holder: Id, p: Pick) -> Id {
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

    pub(crate) fn ancestors(&self, id: Id) -> Vec<Id> {
        let mut out = Vec::new();
        let mut cur = self.nodes.get(&id).and_then(|n| n.parent);
        while let Some(p) = cur {
            assert!(out.len() <= self.nodes.len(), "cycle in the model above {id:?}");
            out.push(p);
            cur = self.n(p).parent;
        }
        out
    }

    pub(crate) fn chain(&self, p: Id) -> Arc<[Id]> {
        std::iter::once(p).chain(self.ancestors(p)).collect()
    }

    pub(crate) fn subtree(&self, id: Id) -> Vec<Id> {
        let mut out = Vec::new();
        let mut stack = vec![id];
        while let Some(id) = stack.pop() {
            out.push(id);
            stack.extend(self.n(id).children.iter().rev());
        }
        out
    }

    pub(crate) fn in_world(&self, id: Id) -> bool {
        self.is_live(id) && (id == self.workspace || self.ancestors(id).contains(&self.workspace))
    }

    /// The flags the arena should report for `id`.
    pub(crate) fn flags_of(&self, id: Id) -> NodeFlags {
        let n = self.n(id);
        n.flags
            .with(NodeFlags::IN_WORLD, self.in_world(id))
            .with(NodeFlags::HAS_CHILDREN, !n.children.is_empty())
    }

    pub(crate) fn bump(&mut self) -> u64 {
        self.global += 1;
        self.global
    }

    pub(crate) fn stamp(&mut self, id: Id, rev: u64) {
        self.nm(id).rev = rev;
    }

    pub(crate) fn alloc(&mut self) -> Id {
        let id = Id(self.next_id);
        self.next_id += 1;
        id
    }

    pub(crate) fn insert(&mut self, id: Id, node: MNode) {
        assert!(!self.nodes.contains_key(&id), "id {id:?} reused");
        self.nodes.insert(id, node);
        self.order.push(id);
    }

    pub(crate) fn link(&mut self, child: Id, parent: Id) {
        self.nm(parent).children.push(child);
        self.nm(child).parent = Some(parent);
    }

    pub(crate) fn unlink(&mut self, child: Id) {
        let parent = self.nm(child).parent.take().expect("linked");
        self.nm(parent).children.retain(|&c| c != child);
    }

    /// `Arena::validate_destination`.
    pub(crate) fn validate_destination(
        &self,
        class: Class,
        p: Id,
        moving: Option<Id>,
    ) -> Result<(), ArenaError> {
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

    /// The model agrees with itself: links in both directions, no cycle.
    pub(crate) fn self_check(&self) {
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
