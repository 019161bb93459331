//! Scenarios the random test rarely reaches.

use crate::dump::{assert_same, dump};
use arbor_core::{
    Arena, ArenaConfig, ArenaError, AttributeValue, Class, GraftPolicy, Id, InstanceEvent, NodeFlags,
};
use std::collections::BTreeSet;
use std::sync::Arc;

/// A small deterministic generator for the plain tests.
pub(crate) struct Lcg(u64);

impl Lcg {
    pub(crate) fn below(&mut self, n: usize) -> usize {
        self.0 = self.0.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        ((self.0 >> 33) as usize) % n
    }
}

#[test]
pub(crate) fn emptying_a_thousand_child_folder_one_by_one_keeps_order() {
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
pub(crate) fn lifecycle_view_reads_tombstones_during_delivery() {
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
pub(crate) fn reclamation_is_two_phase_and_a_reused_slot_never_answers_the_stale_id() {
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
pub(crate) fn rollback_fixture(max_nodes: usize) -> (Arena, Id) {
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

pub(crate) fn ids_of(arena: &Arena) -> Vec<Id> {
    arena.iter().map(|n| n.id()).collect()
}

#[test]
pub(crate) fn failed_clone_rolls_back_everything_including_the_id_counter() {
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
pub(crate) fn failed_graft_rolls_back_everything() {
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
pub(crate) fn clone_rewrites_internal_references_and_keeps_external_ones() {
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
pub(crate) fn the_place_root_and_workspace_are_never_copied() {
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
