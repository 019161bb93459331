//! The model's clone and graft (plans, materialization, reference remapping) and event drains.

use crate::model::{Life, MNode, Model};
use arbor_core::{
    ArenaError, AttributeValue, GraftPolicy, Id, InstanceEvent, NodeFlags,
    components::{FieldValue, SchemaError},
    raw::TopologyChange,
};
use std::collections::{BTreeMap, BTreeSet};

impl Model {
    /// The archivable part of `root`'s subtree in pre-order, each with its plan parent (the
    /// place root and the Workspace are never copied).
    pub(crate) fn plan(&self, root: Id) -> Vec<(Id, Option<usize>)> {
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
    pub(crate) fn materialize(
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
            for row in node.comps.values_mut() {
                for v in &mut row.values {
                    if let FieldValue::Ref(Some(t)) = *v {
                        *v = FieldValue::Ref(remap(t));
                    }
                }
                row.rev = rev;
                self.membership = rev;
            }
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

    pub(crate) fn clone_subtree(&mut self, id: Id) -> Result<Option<Vec<Id>>, ArenaError> {
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

    pub(crate) fn graft(
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
                let node_refs = source.n(s).references().into_iter().map(|(_, t)| t);
                let comp_refs = source.comp_refs(s).into_iter().map(|(.., t)| t);
                if let Some(target) = node_refs.chain(comp_refs).find(|t| !inside.contains(t)) {
                    return Err(ArenaError::ExternalReference { holder: s, target });
                }
            }
        }
        // Component schemas: one registered here under the same name must have the same layout.
        for &(s, _) in &plan {
            for &c in source.n(s).comps.keys() {
                let schema = source.schema(c);
                if let Some(mine) = self.cid(&schema.name)
                    && self.schema(mine) != schema
                {
                    return Err(ArenaError::Component(SchemaError::LayoutConflict(schema.name.to_string())));
                }
            }
        }
        if self.occupied() + plan.len() > self.max_nodes {
            return Err(ArenaError::Full(self.max_nodes));
        }
        for &(s, _) in &plan {
            for &c in source.n(s).comps.keys() {
                self.adopt(source, c);
            }
        }
        let entries = plan
            .iter()
            .map(|&(s, p)| {
                let mut node = source.n(s).clone();
                if node.pid.is_some_and(|p| self.pids.contains_key(&p)) {
                    node.pid = None;
                }
                // Component ids differ between arenas: re-key the rows by name.
                node.comps = std::mem::take(&mut node.comps)
                    .into_iter()
                    .map(|(c, row)| (self.cid(&source.schema(c).name).expect("adopted"), row))
                    .collect();
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

    pub(crate) fn drain(&mut self) -> Vec<InstanceEvent> {
        for node in self.nodes.values_mut() {
            node.life = match node.life {
                Life::Reclaimable => Life::Freed,
                Life::Doomed => Life::Reclaimable,
                l => l,
            };
        }
        std::mem::take(&mut self.events)
    }

    pub(crate) fn plan_sources(&self, root: Id) -> Vec<Id> {
        self.plan(root).into_iter().map(|(s, _)| s).collect()
    }
}
