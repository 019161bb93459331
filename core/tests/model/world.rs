//! [`World`]: an arena and its model driven in step, one operation at a time.

use crate::check::{check, check_diff, check_snapshot};
use crate::comp_check::{ANCESTRY_SPECS, MQuery, QUERY_SPECS, check_ancestry_query, check_queries};
use crate::comp_ops::comp_step;
use crate::dump::{assert_same, dump};
use crate::model::Model;
use crate::ops::{AttrChoice, Op, Pick};
use crate::{ATTR_KEYS, HANDLES, NAMES, TAGS};
use arbor_core::{
    Arena, ArenaConfig, AttributeValue, Class, Id, InstanceEvent, PersistentId, Snapshot, Vec3,
    raw::{AncestryQuery, DEFAULT_SIZE},
};
use std::collections::VecDeque;
use std::sync::Arc;

/// An arena, its model, and the snapshots kept for later re-checks.
pub(crate) struct World {
    pub(crate) arena: Arena,
    pub(crate) model: Model,
    pub(crate) snaps: Vec<(Snapshot, Model)>,
    /// Queries kept across steps (one per [`QUERY_SPECS`] entry, once registered).
    pub(crate) queries: Vec<Option<MQuery>>,
    /// Ancestry-filtered queries kept across steps: (ancestor, components, query).
    pub(crate) ancestry: Vec<(Id, &'static [&'static str], AncestryQuery)>,
}

impl World {
    /// A fresh world; its component tables keep write logs of at most `write_log` entries
    /// (small ones overflow within a case, so `changed_since` takes both of its paths).
    pub(crate) fn new(max_nodes: usize, seed: u64, write_log: usize) -> Self {
        let config = ArenaConfig {
            max_nodes,
            seed,
            component_write_log_capacity: write_log,
            ..ArenaConfig::default()
        };
        let arena = Arena::with_config(config);
        let mut model = Model::new(max_nodes);
        for id in [model.root, model.workspace] {
            model.nm(id).guid = Some(arena.get(id).expect("fresh arena").guid());
        }
        check(&arena, &model);
        let queries = QUERY_SPECS.iter().map(|_| None).collect();
        World { arena, model, snaps: Vec::new(), queries, ancestry: Vec::new() }
    }

    /// Builds a small starting tree through [`step`](Self::step) (`Pick(5 * k)` is the
    /// `k`-th id created): a folder, a model with two parts and a weld, a GUI layer with a
    /// frame, an `ObjectValue`, and a detached folder.
    pub(crate) fn populate(&mut self) {
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
    pub(crate) fn snapshot(&mut self) {
        let snap = self.arena.snapshot();
        check_snapshot(&snap, &self.model);
        assert!(snap.diff(&snap.clone()).is_empty());
        for (old, old_model) in &self.snaps {
            check_snapshot(old, old_model);
            check_diff(&old.diff(&snap), old_model, &self.model);
            // The arena's cached queries, run on an older snapshot (fewer tables).
            let since = [0, old_model.global / 2, old_model.global];
            let usable = self.queries.iter_mut().flatten().filter(|q| q.registered_in(old_model));
            check_queries(old.components(), old_model, usable, &since);
        }
        if self.snaps.len() == 4 {
            self.snaps.remove(1);
        }
        self.snaps.push((snap, self.model.clone()));
    }

    /// Runs one operation on the arena and the model and checks them; `source` is the
    /// snapshot (and its model) grafts copy from.
    pub(crate) fn step(&mut self, op: &Op, source: Option<&(Snapshot, Model)>) {
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
            Op::Destroy { node } => destroy_step(arena, m, m.pick(*node)),
            Op::Clone { node } => clone_step(arena, m, m.pick(*node)),
            Op::Graft { root, parent, policy } => {
                let Some((snap, src)) = source else { return };
                let root = src.pick_graft_root(*root);
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
            Op::Comp(op) => comp_step(arena, m, op),
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
        self.check_queries();
    }

    /// Checks the kept queries (created once their components are registered, so their
    /// table caches carry over from step to step) against the arena and the model.
    fn check_queries(&mut self) {
        let m = &self.model;
        for (spec, slot) in QUERY_SPECS.iter().zip(&mut self.queries) {
            if slot.is_none() {
                *slot = MQuery::new(m, spec);
            }
        }
        // The Workspace, the model and the detached folder `populate` makes.
        for ancestor in [m.workspace, Id(4), Id(11)] {
            for spec in &ANCESTRY_SPECS {
                if !self.ancestry.iter().any(|(a, s, _)| *a == ancestor && s == spec)
                    && let Some(q) = MQuery::new(m, &(spec, &[]))
                {
                    self.ancestry.push((ancestor, spec, AncestryQuery::new(q.query, ancestor)));
                }
            }
        }
        // Old revisions (answered by scans once small logs overflow) and recent ones
        // (answered from the logs).
        let mut sinces =
            vec![0, m.global / 2, m.global.saturating_sub(3), m.global.saturating_sub(1), m.global];
        sinces.extend(self.snaps.iter().map(|(s, _)| s.revisions().global));
        check_queries(self.arena.components(), m, self.queries.iter_mut().flatten(), &sinces);
        for (ancestor, spec, q) in &mut self.ancestry {
            check_ancestry_query(&self.arena, m, *ancestor, spec, q);
        }
    }
}

/// Destroys `id` in the arena and the model. The arena goes first: the holders its
/// reference policies destroy come out as later `Destroyed` events, in the order the model
/// then follows.
pub(crate) fn destroy_step(arena: &mut Arena, m: &mut Model, id: Id) -> bool {
    let queued = arena.pending_events().len();
    let got = arena.destroy(id);
    let mut cascade: VecDeque<Id> = arena.pending_events()[queued..]
        .iter()
        .filter_map(|e| match e {
            InstanceEvent::Destroyed { root, .. } => Some(*root),
            _ => None,
        })
        .skip(1)
        .collect();
    let expected = m.destroy(id, &mut cascade);
    assert_eq!(got, expected, "destroy {id:?}");
    assert!(cascade.is_empty(), "the arena destroyed holders {cascade:?} the model did not");
    got == Ok(true)
}

/// Clones `id`'s subtree in the arena and the model.
pub(crate) fn clone_step(arena: &mut Arena, m: &mut Model, id: Id) -> bool {
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
