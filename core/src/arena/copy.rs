//! Clone and graft: deep copies of a subtree, with references rewritten.
//!
//! Both build a plan (the archivable part of the source subtree in pre-order, each entry
//! knowing its parent's position in the plan), allocate every copy, rebuild the child links
//! in source order, then rewrite references: a target inside the copied subtree becomes its
//! copy; a target outside is kept (clone) or handled by the [`GraftPolicy`] (graft). A
//! failure part-way (node limit, id range) rolls back every allocation, the id counter, the
//! revision counters, the GUID generator and the event and journal positions through a
//! checkpoint, leaving the arena as it was. In an undo scope a finished copy journals its
//! nodes (freed at rollback) and a graft's attach its move (see `undo`).

use super::undo::UndoEntry;
use super::{Arena, NodeData, TopologyChange};
use crate::components::{ComponentId, ComponentStore, FieldValue};
use crate::error::ArenaError;
use crate::id::Id;
use crate::names::NamePool;
use crate::nodes::snapshot::Snapshot;
use crate::nodes::store::NodeStore;
use crate::value::{AttributeValue, NodeExtras, NodeFlags};
use rustc_hash::FxHashMap;

/// What a graft does with a reference that points outside the grafted subtree.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GraftPolicy {
    /// Clear it.
    Clear,
    /// Point it at the destination node with the same persistent id as the source target,
    /// clearing it if there is none.
    ResolveByPersistentId,
    /// Refuse the whole graft.
    Refuse,
}

/// One node to create: its data, the plan index of its parent, and its source id.
struct PlanEntry {
    data: NodeData,
    parent: Option<usize>,
    source: Id,
    rows: Vec<(ComponentId, Vec<FieldValue>)>,
}

impl PlanEntry {
    /// Every instance this entry refers to: reference properties, attributes, component
    /// reference fields.
    fn references(&self) -> impl Iterator<Item = Id> + '_ {
        let extras = self.data.extras.iter().flat_map(|e| e.references().map(|(_, t)| t));
        let rows = self.rows.iter().flat_map(|(_, values)| {
            values.iter().filter_map(|v| match v {
                FieldValue::Ref(r) => *r,
                _ => None,
            })
        });
        extras.chain(rows)
    }
}

/// The archivable part of `root`'s subtree in pre-order (empty if `root` is not archivable).
/// Classes users cannot create (the place root, the Workspace) are never copied: a copy
/// would be an unlocked second root or world that nothing could destroy.
fn plan_subtree(store: &NodeStore, components: &ComponentStore, root: Id) -> Vec<PlanEntry> {
    let mut plan = Vec::new();
    let mut stack = vec![(root, None)];
    while let Some((id, parent)) = stack.pop() {
        let Some(node) = store.live(id) else { continue };
        if !node.flags().contains(NodeFlags::ARCHIVABLE) || !node.class().is_creatable() {
            continue;
        }
        let index = plan.len();
        let rows = Arena::rows_of(components, id);
        plan.push(PlanEntry { data: node.to_data(), parent, source: id, rows });
        stack.extend(node.children().iter().rev().map(|c| (c, Some(index))));
    }
    plan
}

impl Arena {
    /// Deep-copies `id`'s subtree: fresh ids and GUIDs, no persistent ids or handles,
    /// non-archivable nodes skipped (a non-archivable root gives `Ok(None)`, and so does the
    /// place root or the Workspace, which are never copied), references inside the copy
    /// rewritten to the copies, references outside kept. The copy comes back detached.
    pub fn clone_subtree(&mut self, id: Id) -> Result<Option<Id>, ArenaError> {
        self.node(id)?;
        let mut plan = plan_subtree(&self.store, &self.components, id);
        if plan.is_empty() {
            return Ok(None);
        }
        for entry in &mut plan {
            if let Some(extras) = &mut entry.data.extras {
                extras.persistent_id = None;
                extras.handle = None;
            }
        }
        self.materialize(plan, true, Some).map(Some)
    }

    /// Copies `root`'s subtree from another arena's `source` snapshot under `parent` (or
    /// detached). Names are re-interned, GUIDs and persistent ids kept (a persistent id
    /// already used here is dropped), handles dropped, internal references remapped and
    /// external ones handled by `policy`; nodes are skipped as by
    /// [`clone_subtree`](Self::clone_subtree). Validates the destination first; a failure
    /// leaves this arena as it was.
    pub fn graft(
        &mut self,
        source: &Snapshot,
        root: Id,
        parent: Option<Id>,
        policy: GraftPolicy,
    ) -> Result<Option<Id>, ArenaError> {
        let src_root = source.node(root)?;
        if let Some(p) = parent {
            self.validate_destination(src_root.class(), p, None)?;
        }
        let mut plan = plan_subtree(source.store(), source.components(), root);
        if plan.is_empty() {
            return Ok(None);
        }
        let inside: FxHashMap<Id, ()> = plan.iter().map(|e| (e.source, ())).collect();
        if policy == GraftPolicy::Refuse {
            for entry in &plan {
                if let Some(target) = entry.references().find(|t| !inside.contains_key(t)) {
                    return Err(ArenaError::ExternalReference { holder: entry.source, target });
                }
            }
        }
        let used: Vec<ComponentId> = plan.iter().flat_map(|e| e.rows.iter().map(|(c, _)| *c)).collect();
        self.check_graft_schemas(source.components(), &used)?;
        for entry in &mut plan {
            self.translate_names(&mut entry.data, source.names());
            if let Some(extras) = &mut entry.data.extras {
                extras.handle = None;
                if extras.persistent_id.is_some_and(|p| self.indexes.persistent.contains_key(&p)) {
                    extras.persistent_id = None;
                }
            }
        }
        let resolve = |target: Id| -> Result<Option<Id>, ArenaError> {
            Ok(match policy {
                GraftPolicy::ResolveByPersistentId => source
                    .get(target)
                    .and_then(|t| t.persistent_id())
                    .and_then(|p| self.indexes.persistent.get(&p).copied()),
                GraftPolicy::Clear | GraftPolicy::Refuse => None,
            })
        };
        // Resolve external targets before allocating, while `self` is only read.
        let mut external: FxHashMap<Id, Option<Id>> = FxHashMap::default();
        for entry in &plan {
            for t in entry.references() {
                if !inside.contains_key(&t) && !external.contains_key(&t) {
                    external.insert(t, resolve(t)?);
                }
            }
        }
        // Component ids differ between arenas: adopt the source schemas (restored on failure).
        let saved_registry = self.components.registry.clone();
        for entry in &mut plan {
            for (c, _) in &mut entry.rows {
                *c = self.adopt_schema(source.components(), *c);
            }
        }
        let copy = match self.materialize(plan, false, |t| external.get(&t).copied().flatten()) {
            Ok(copy) => copy,
            Err(e) => {
                self.components.registry = saved_registry;
                return Err(e);
            }
        };
        if let Some(p) = parent {
            let rev = self.revisions.bump();
            let slot = self.slot_of(copy);
            self.move_node(copy, slot, None, Some(p), rev);
        }
        Ok(Some(copy))
    }

    /// Re-interns every name in `data` from `from` into this arena's pool.
    fn translate_names(&mut self, data: &mut NodeData, from: &NamePool) {
        data.name = self.intern(from.text(data.name));
        if let Some(extras) = &mut data.extras {
            for (name, _) in &mut extras.attributes {
                *name = self.intern(from.text(*name));
            }
            for tag in &mut extras.tags {
                *tag = self.intern(from.text(*tag));
            }
            extras.tags.sort_unstable();
        }
    }

    /// Creates the planned nodes (detached root), links them, rewrites references and
    /// registers index entries. `fresh_guids` draws new GUIDs; `external` maps a reference
    /// whose target is outside the plan. Rolls back on failure.
    fn materialize(
        &mut self,
        plan: Vec<PlanEntry>,
        fresh_guids: bool,
        external: impl Fn(Id) -> Option<Id>,
    ) -> Result<Id, ArenaError> {
        self.check_room(plan.len())?;
        let cp = self.checkpoint();
        let rev = self.revisions.bump();
        let mut copies: Vec<Id> = Vec::with_capacity(plan.len());
        for entry in &plan {
            let flags = NodeFlags(entry.data.flags.0 & NodeFlags::USER.0);
            match self.new_node(None, entry.data.class, entry.data.name, flags, rev) {
                Ok(id) => copies.push(id),
                Err(e) => {
                    self.rollback(cp, &copies);
                    return Err(e);
                }
            }
        }
        let map: FxHashMap<Id, Id> = plan.iter().zip(&copies).map(|(e, &c)| (e.source, c)).collect();
        let mut mapped: Vec<Option<Box<NodeExtras>>> = Vec::with_capacity(plan.len());
        for entry in &plan {
            let mut extras = entry.data.extras.clone();
            if let Some(e) = &mut extras {
                for r in &mut e.refs {
                    if let Some(t) = *r {
                        *r = match map.get(&t) {
                            Some(&c) => Some(c),
                            None => external(t),
                        };
                    }
                }
                for (_, v) in &mut e.attributes {
                    if let AttributeValue::Ref(Some(t)) = *v {
                        *v = AttributeValue::Ref(match map.get(&t) {
                            Some(&c) => Some(c),
                            None => external(t),
                        });
                    }
                }
            }
            mapped.push(extras);
        }
        let remap = |t: Id| map.get(&t).copied().or_else(|| external(t));
        let rows: Vec<Vec<(ComponentId, Vec<FieldValue>)>> = plan
            .iter()
            .map(|e| {
                e.rows
                    .iter()
                    .map(|(c, values)| {
                        let values = values
                            .iter()
                            .map(|v| match v {
                                FieldValue::Ref(Some(t)) => FieldValue::Ref(remap(*t)),
                                other => other.clone(),
                            })
                            .collect();
                        (*c, values)
                    })
                    .collect()
            })
            .collect();
        for ((entry, &copy), extras) in plan.iter().zip(&copies).zip(mapped) {
            let slot = self.slot_of(copy);
            let (page, i) = self.page_mut(slot);
            page.hot[i].local = entry.data.transform;
            page.sizes[i] = entry.data.size;
            page.appearances[i] = entry.data.appearance;
            if !fresh_guids {
                page.guids[i] = entry.data.guid;
            }
            page.extras[i] = extras;
            page.trim_extras(i);
            let e = self.read(slot).extras().clone();
            {
                for tag in &e.tags {
                    self.indexes.tag_insert(*tag, copy);
                }
                for (field, target) in e.references() {
                    self.indexes.ref_insert(target, copy, field);
                }
                if let Some(p) = e.persistent_id {
                    self.indexes.persistent.insert(p, copy);
                }
                if !e.tags.is_empty() {
                    self.revisions.tags = rev;
                }
            }
            if let Some(parent) = entry.parent {
                self.link(copy, copies[parent]);
            }
        }
        for (&copy, rows) in copies.iter().zip(&rows) {
            self.insert_copied_rows(copy, rows, rev);
        }
        self.revisions.topology = rev;
        self.topology.push(rev, TopologyChange::Created { id: copies[0], parent: None });
        let root = copies[0];
        self.journal(move |_| UndoEntry::CreatedMany { ids: copies });
        Ok(root)
    }
}
