//! The model's edits: create, property and flag writes, attributes, references, tags,
//! handles, persistent ids, reparenting and destruction.

use crate::model::{Life, MNode, Model};
use arbor_core::{
    ArenaError, AttributeValue, Class, Id, InstanceEvent, NodeFlags, PersistentId, raw::TopologyChange,
};
use std::collections::{BTreeSet, VecDeque};
use std::sync::Arc;

impl Model {
    pub(crate) fn create(&mut self, class: Class, name: &str, parent: Option<Id>) -> Result<Id, ArenaError> {
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
    pub(crate) fn write<T: PartialEq>(
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

    pub(crate) fn set_flag(&mut self, id: Id, flag: NodeFlags, on: bool) -> Result<bool, ArenaError> {
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

    pub(crate) fn set_platform_owned(&mut self, id: Id, on: bool) -> Result<bool, ArenaError> {
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

    pub(crate) fn set_attribute(
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

    pub(crate) fn set_reference(
        &mut self,
        id: Id,
        index: usize,
        target: Option<Id>,
    ) -> Result<bool, ArenaError> {
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

    pub(crate) fn edit_tag(&mut self, id: Id, tag: &str, add: bool) -> Result<bool, ArenaError> {
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

    pub(crate) fn set_handle(&mut self, id: Id, handle: Option<&str>) -> Result<bool, ArenaError> {
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

    pub(crate) fn set_persistent_id(&mut self, id: Id, pid: PersistentId) -> Result<bool, ArenaError> {
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

    pub(crate) fn assign_pid(&mut self, id: Id, pid: PersistentId) {
        assert!(!self.pids.contains_key(&pid), "persistent id {pid:?} handed out twice");
        self.pids.insert(pid, id);
        let rev = self.bump();
        let node = self.nm(id);
        node.pid = Some(pid);
        node.rev = rev;
    }

    pub(crate) fn set_parent(&mut self, id: Id, parent: Option<Id>) -> Result<bool, ArenaError> {
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
    pub(crate) fn move_node(&mut self, id: Id, new: Option<Id>, rev: u64) {
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

    /// `Arena::destroy`. Destroyed instances lose their rows; component reference policies
    /// run for live holders; holders whose `DestroyHolder` policy fired are destroyed after,
    /// in the order the arena reports in `cascade` (the roots of its later `Destroyed`
    /// events), each of which must be one the model expects.
    pub(crate) fn destroy(&mut self, id: Id, cascade: &mut VecDeque<Id>) -> Result<bool, ArenaError> {
        match self.life(id) {
            None => return Err(ArenaError::NotFound(id)),
            // Ids are never reused: destroying a reclaimed id again is the same no-op.
            Some(Life::Freed | Life::Doomed | Life::Reclaimable) => return Ok(false),
            Some(Life::Live) => {}
        }
        if matches!(self.n(id).class, Class::DataModel | Class::Workspace) {
            return Err(ArenaError::DestroyLocked(id));
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
            if !std::mem::take(&mut self.nm(d).comps).is_empty() {
                self.membership = rev;
            }
        }
        let dead: BTreeSet<Id> = subtree.iter().copied().collect();
        let doomed = self.apply_ref_policies(&dead, rev);
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
        loop {
            let pending: Vec<Id> = doomed.iter().copied().filter(|&h| self.destroyable(h)).collect();
            if pending.is_empty() {
                break;
            }
            let next =
                cascade.pop_front().unwrap_or_else(|| panic!("the arena left holders {pending:?} alive"));
            assert!(
                pending.contains(&next),
                "the arena destroyed {next:?}, not one of the holders {pending:?}"
            );
            assert_eq!(self.destroy(next, cascade), Ok(true));
        }
        Ok(true)
    }
}
