//! Unit tests of copies: cloning a subtree (fresh identity, remapped references, rolled back
//! when refused), grafting from a snapshot under each external-reference policy, and
//! snapshots unchanged by later writes.

use super::super::*;
use super::world;
use crate::value::{AttributeValue, NodeFlags};
use crate::{ArenaError, Class, GraftPolicy, Id};
use glam::Vec3;

#[test]
fn clone_copies_the_subtree_with_fresh_identity_and_remapped_references() {
    let (mut arena, ws) = world();
    let car = arena.create(Class::Model, "Car", Some(ws)).unwrap();
    let body = arena.create(Class::Part, "Body", Some(car)).unwrap();
    let wheel = arena.create(Class::Part, "Wheel", Some(car)).unwrap();
    let weld = arena.create(Class::Weld, "Weld", Some(car)).unwrap();
    let outside = arena.create(Class::Part, "Ground", Some(ws)).unwrap();
    let scratch = arena.create(Class::Folder, "Scratch", Some(car)).unwrap();
    arena.set_flag(scratch, NodeFlags::ARCHIVABLE, false).unwrap();
    arena.set_reference(weld, 0, Some(body)).unwrap();
    arena.set_reference(weld, 1, Some(outside)).unwrap();
    arena.set_attribute(body, "Buddy", Some(AttributeValue::Ref(Some(wheel)))).unwrap();
    arena.set_position(wheel, Vec3::new(1.0, 2.0, 3.0)).unwrap();
    arena.add_tag(wheel, "Round").unwrap();
    arena.persistent_id(body).unwrap();
    arena.set_handle(car, Some("TheCar")).unwrap();

    let copy = arena.clone_subtree(car).unwrap().unwrap();
    let node = arena.get(copy).unwrap();
    assert_eq!(node.parent(), None, "the root comes back detached");
    assert_ne!(node.guid(), arena.get(car).unwrap().guid());
    let kids: Vec<Id> = arena.children(copy).collect();
    assert_eq!(kids.len(), 3, "the non-archivable folder is skipped");
    let (cbody, cwheel, cweld) = (kids[0], kids[1], kids[2]);
    assert_eq!(arena.get(cwheel).unwrap().position(), Vec3::new(1.0, 2.0, 3.0));
    assert_eq!(arena.get(cweld).unwrap().reference(0), Some(cbody), "internal reference remapped");
    assert_eq!(arena.get(cweld).unwrap().reference(1), Some(outside), "external reference kept");
    assert_eq!(arena.attribute(cbody, "Buddy"), Some(&AttributeValue::Ref(Some(cwheel))));
    assert_eq!(arena.get(cbody).unwrap().persistent_id(), None);
    assert_eq!(arena.handle("TheCar"), Some(car));
    assert_eq!(arena.tagged("Round").collect::<Vec<_>>(), vec![wheel, cwheel]);
    assert_eq!(arena.referrers(outside).count(), 2);

    arena.set_flag(scratch, NodeFlags::ARCHIVABLE, true).unwrap();
    arena.set_flag(car, NodeFlags::ARCHIVABLE, false).unwrap();
    assert_eq!(arena.clone_subtree(car), Ok(None), "a non-archivable root clones to nothing");
}

#[test]
fn failed_clone_rolls_back_allocations_ids_and_events() {
    let mut arena = Arena::with_config(ArenaConfig { max_nodes: 12, ..Default::default() });
    let ws = arena.workspace();
    let m = arena.create(Class::Model, "M", Some(ws)).unwrap();
    for i in 0..5 {
        arena.create(Class::Part, &format!("P{i}"), Some(m)).unwrap();
    }
    let before = arena.len();
    let events = arena.pending_events().len();
    let topo = arena.topology_since(0).unwrap().count();
    assert_eq!(arena.clone_subtree(m), Err(ArenaError::Full(12)));
    assert_eq!(arena.len(), before);
    assert_eq!(arena.pending_events().len(), events);
    assert_eq!(arena.topology_since(0).unwrap().count(), topo);
    let next = arena.create(Class::Part, "Next", None).unwrap();
    assert_eq!(next, Id(9), "the id counter was rewound");
}

#[test]
fn graft_remaps_internal_and_applies_the_external_policy() {
    let mut src = Arena::new();
    let sws = src.workspace();
    let anchor = src.create(Class::Part, "Anchor", Some(sws)).unwrap();
    let pid = src.persistent_id(anchor).unwrap();
    let model = src.create(Class::Model, "Prefab", Some(sws)).unwrap();
    let a = src.create(Class::Part, "A", Some(model)).unwrap();
    let weld = src.create(Class::Weld, "W", Some(model)).unwrap();
    src.set_reference(weld, 0, Some(a)).unwrap();
    src.set_reference(weld, 1, Some(anchor)).unwrap();
    src.add_tag(a, "Grafted").unwrap();
    let snap = src.snapshot();

    let mut dst = Arena::new();
    let dws = dst.workspace();
    let before = dst.revisions().global;
    assert_eq!(
        dst.graft(&snap, model, Some(dws), GraftPolicy::Refuse),
        Err(ArenaError::ExternalReference { holder: weld, target: anchor })
    );
    assert_eq!(dst.revisions().global, before);

    let g = dst.graft(&snap, model, Some(dws), GraftPolicy::Clear).unwrap().unwrap();
    let kids: Vec<Id> = dst.children(g).collect();
    assert_eq!(dst.get(kids[1]).unwrap().reference(0), Some(kids[0]));
    assert_eq!(dst.get(kids[1]).unwrap().reference(1), None);
    assert_eq!(dst.tagged("Grafted").collect::<Vec<_>>(), vec![kids[0]]);
    assert!(dst.get(kids[0]).unwrap().flags().contains(NodeFlags::IN_WORLD));
    assert_eq!(dst.get(g).unwrap().guid(), snap.get(model).unwrap().guid(), "graft keeps GUIDs");

    let danchor = dst.create(Class::Part, "Anchor", Some(dws)).unwrap();
    dst.set_persistent_id(danchor, pid).unwrap();
    let g2 = dst.graft(&snap, model, None, GraftPolicy::ResolveByPersistentId).unwrap().unwrap();
    let w2 = dst.children(g2).nth(1).unwrap();
    assert_eq!(dst.get(w2).unwrap().reference(1), Some(danchor));
}

#[test]
fn snapshot_is_cheap_and_unchanged_by_later_writes() {
    let (mut arena, ws) = world();
    let parts: Vec<Id> =
        (0..500).map(|i| arena.create(Class::Part, &format!("P{i}"), Some(ws)).unwrap()).collect();
    let snap = arena.snapshot();
    arena.set_position(parts[3], Vec3::ONE).unwrap();
    arena.destroy(parts[4]).unwrap();
    arena.drain_events();
    arena.drain_events();
    assert_eq!(snap.get(parts[3]).unwrap().position(), Vec3::ZERO);
    assert!(snap.get(parts[4]).is_some());
    assert_eq!(snap.len(), 502);
    let diff = snap.diff(&arena.snapshot());
    assert_eq!(diff.changed, vec![ws, parts[3]]);
    assert_eq!(diff.removed, vec![parts[4]]);
    assert!(snap.own_bytes() < 1024, "{}", snap.own_bytes());
}
