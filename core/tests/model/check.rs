//! Checking the arena, its snapshots and their diffs against the model.

use crate::comp_check::{check_component_diff, check_components, check_store};
use crate::model::{Life, Model};
use crate::{FOREIGN, HANDLES, NAMES, TAGS};
use arbor_core::{
    Arena, ArenaError, AttributeValue, Family, Id, RefField, Snapshot, SnapshotDiff,
    raw::{NamePool, NodeRef, TopologyChange},
};
use std::collections::{BTreeMap, BTreeSet};

pub(crate) fn field_text(names: &NamePool, field: RefField) -> String {
    match field {
        RefField::Builtin(i) => format!("#{i}"),
        RefField::Attribute(k) => names.text(k).to_owned(),
    }
}

/// One node of an arena or snapshot (live or tombstone) against its model.
pub(crate) fn check_node(node: NodeRef<'_>, names: &NamePool, model: &Model, id: Id) {
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
pub(crate) fn check(arena: &Arena, m: &Model) {
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
    for f in Family::ALL {
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
    check_components(arena, m);
}

/// A snapshot against the model copied when it was taken.
pub(crate) fn check_snapshot(snap: &Snapshot, m: &Model) {
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
    check_store(snap.components(), m);
}

/// A diff from the snapshot of `old` to the snapshot of `new`.
pub(crate) fn check_diff(diff: &SnapshotDiff, old: &Model, new: &Model) {
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
    check_component_diff(&diff.components, old, new);
}
