//! Unit tests of the arena: ids and slots, hierarchy edits and their events, revisions and
//! logs, destruction and reclamation, clone and graft.

use super::*;
use crate::nodes::page::PAGE_SIZE;
use crate::value::{AttributeValue, Guid, NodeFlags};
use crate::{ArenaError, Class, Family, GraftPolicy, Id, InstanceEvent};
use glam::Vec3;

fn world() -> (Arena, Id) {
    let arena = Arena::new();
    let ws = arena.workspace();
    (arena, ws)
}

#[test]
fn fresh_arena_has_root_and_workspace_with_ids_one_and_two() {
    let (arena, ws) = world();
    assert_eq!(arena.root(), Id(1));
    assert_eq!(ws, Id(2));
    assert_eq!(arena.get(ws).unwrap().parent(), Some(Id(1)));
    assert_eq!(arena.len(), 2);
}

#[test]
fn stale_id_never_finds_the_object_that_took_its_slot() {
    let (mut arena, ws) = world();
    let a = arena.create(Class::Part, "A", Some(ws)).unwrap();
    arena.destroy(a).unwrap();
    arena.drain_events();
    arena.drain_events(); // slot freed
    let b = arena.create(Class::Part, "B", Some(ws)).unwrap();
    assert!(b > a);
    assert_eq!(arena.slot_of(b), Slot(a.0 as u32 - 1), "the freed slot is reused");
    assert!(arena.get(a).is_none());
    assert_eq!(arena.node(a).unwrap_err(), ArenaError::NotFound(a));
    assert_eq!(arena.get(b).unwrap().id(), b);
}

#[test]
fn explicit_replica_ids_are_found_and_never_minted() {
    let mut arena = Arena::with_config(ArenaConfig { id_range: IdRange::ClientLocal, ..Default::default() });
    let ws = arena.workspace();
    assert!(ws.is_client_local());
    let server = arena.insert_with_id(Id(500), Class::Part, "FromServer", Some(ws)).unwrap();
    assert_eq!(server, Id(500));
    assert_eq!(arena.get(Id(500)).unwrap().name(), arena.names().find("FromServer").unwrap());
    assert_eq!(arena.insert_with_id(Id(500), Class::Part, "Again", None), Err(ArenaError::IdInUse(Id(500))));
    let local = arena.create(Class::Part, "Debris", Some(ws)).unwrap();
    assert!(local.is_client_local());
}

#[test]
fn reparent_validates_before_changing_anything() {
    let (mut arena, ws) = world();
    let model = arena.create(Class::Model, "M", Some(ws)).unwrap();
    let part = arena.create(Class::Part, "P", Some(model)).unwrap();
    let script = arena.create(Class::Script, "S", Some(ws)).unwrap();
    let frame = arena.create(Class::Frame, "F", None).unwrap();
    let rev = arena.revisions().global;
    let events = arena.pending_events().len();

    assert_eq!(arena.set_parent(model, Some(part)), Err(ArenaError::Cycle { child: model, parent: part }));
    assert_eq!(arena.set_parent(model, Some(model)), Err(ArenaError::Cycle { child: model, parent: model }));
    assert_eq!(arena.set_parent(part, Some(Id(9999))), Err(ArenaError::ParentMissing(Id(9999))));
    assert_eq!(
        arena.set_parent(part, Some(script)),
        Err(ArenaError::Containment { child: Class::Part, parent: Class::Script })
    );
    assert_eq!(
        arena.set_parent(frame, Some(ws)),
        Err(ArenaError::Containment { child: Class::Frame, parent: Class::Workspace })
    );
    assert_eq!(arena.set_parent(ws, None), Err(ArenaError::ParentLocked(ws)));
    let dead = arena.create(Class::Folder, "Dead", None).unwrap();
    arena.destroy(dead).unwrap();
    let rev2 = arena.revisions().global;
    let events2 = arena.pending_events().len();
    assert_eq!(arena.set_parent(part, Some(dead)), Err(ArenaError::ParentDestroyed(dead)));
    assert_eq!(
        arena.set_parent(dead, Some(ws)).unwrap_err().to_string(),
        "attempt to index a destroyed Instance"
    );
    assert!(rev2 > rev && events2 > events);
    assert_eq!(arena.revisions().global, rev2, "refused edits change no revision");
    assert_eq!(arena.pending_events().len(), events2, "refused edits queue no event");
    assert_eq!(arena.get(part).unwrap().parent(), Some(model));
}

#[test]
fn platform_ownership_messages_are_the_seeds_words() {
    let (mut arena, ws) = world();
    let core = arena.create(Class::Folder, "CoreGui", Some(ws)).unwrap();
    let inner = arena.create(Class::Part, "Inner", Some(core)).unwrap();
    let mine = arena.create(Class::Part, "Mine", Some(ws)).unwrap();
    arena.set_platform_owned(core, true).unwrap();
    assert_eq!(
        arena.set_parent(core, None).unwrap_err().to_string(),
        "Parent: the entity belongs to the platform"
    );
    assert_eq!(
        arena.set_parent(inner, Some(ws)).unwrap_err().to_string(),
        "Parent: the entity belongs to the platform",
        "an entity whose current parent is the platform's"
    );
    assert_eq!(
        arena.set_parent(mine, Some(core)).unwrap_err().to_string(),
        "Parent: the new parent belongs to the platform"
    );
    assert_eq!(arena.destroy(core).unwrap_err().to_string(), "Destroy: the entity belongs to the platform");
    assert!(arena.contains(core) && arena.contains(inner));
}

#[test]
fn no_op_move_produces_no_edit() {
    let (mut arena, ws) = world();
    let p = arena.create(Class::Part, "P", Some(ws)).unwrap();
    arena.drain_events();
    let rev = arena.revisions().global;
    assert_eq!(arena.set_parent(p, Some(ws)), Ok(false));
    assert_eq!(arena.revisions().global, rev);
    assert!(arena.pending_events().is_empty());
}

#[test]
fn a_move_queues_the_five_events_sharing_one_moved_list() {
    let (mut arena, ws) = world();
    let a = arena.create(Class::Folder, "A", Some(ws)).unwrap();
    let b = arena.create(Class::Folder, "B", Some(ws)).unwrap();
    let m = arena.create(Class::Model, "M", Some(a)).unwrap();
    let p = arena.create(Class::Part, "P", Some(m)).unwrap();
    arena.drain_events();
    assert!(arena.set_parent(m, Some(b)).unwrap());
    let events = arena.drain_events();
    let [
        InstanceEvent::DescendantRemoving { ancestors: old, moved: m1 },
        InstanceEvent::ChildRemoved { parent: rp, child: rc },
        InstanceEvent::ChildAdded { parent: ap, child: ac },
        InstanceEvent::AncestryChanged { parent: Some(np), moved: m2 },
        InstanceEvent::DescendantAdded { ancestors: new, moved: m3 },
    ] = events.as_slice()
    else {
        panic!("unexpected events {events:?}");
    };
    assert_eq!(&**old, &[a, ws, arena.root()]);
    assert_eq!(&**new, &[b, ws, arena.root()]);
    assert_eq!((*rp, *rc, *ap, *ac, *np), (a, m, b, m, b));
    assert_eq!(&**m1, &[m, p]);
    assert!(Arc::ptr_eq(m1, m2) && Arc::ptr_eq(m2, m3), "one shared list of moved ids");
}

#[test]
fn position_after_reparent_is_the_retained_local_offset() {
    let (mut arena, ws) = world();
    let a = arena.create(Class::Model, "A", Some(ws)).unwrap();
    let p = arena.create(Class::Part, "P", Some(ws)).unwrap();
    arena.set_position(a, Vec3::new(100.0, 0.0, 0.0)).unwrap();
    arena.set_position(p, Vec3::new(1.0, 2.0, 3.0)).unwrap();
    arena.take_dirty_transforms();
    arena.set_parent(p, Some(a)).unwrap();
    assert_eq!(arena.get(p).unwrap().position(), Vec3::new(1.0, 2.0, 3.0));
    assert_eq!(arena.take_dirty_transforms(), vec![p]);
}

#[test]
fn detaching_leaves_the_world_and_the_family_index_but_does_not_destroy() {
    let (mut arena, ws) = world();
    let m = arena.create(Class::Model, "M", Some(ws)).unwrap();
    let p = arena.create(Class::Part, "P", Some(m)).unwrap();
    let light = arena.create(Class::PointLight, "L", Some(p)).unwrap();
    assert_eq!(&*arena.family(Family::Parts), &[p]);
    let shared = arena.family(Family::Lights);
    assert!(Arc::ptr_eq(&shared, &arena.family(Family::Lights)), "readers share one list");
    let since = arena.revisions().global;
    arena.set_parent(m, None).unwrap();
    assert!(arena.contains(p));
    assert!(!arena.get(p).unwrap().flags().contains(NodeFlags::IN_WORLD));
    assert!(arena.family(Family::Parts).is_empty());
    assert!(arena.family(Family::Lights).is_empty());
    let logged: std::collections::BTreeSet<Id> = arena.part_writes_since(since).unwrap().collect();
    assert_eq!(logged, [m, p].into(), "leaving the world enters the part-write log");
    arena.set_parent(m, Some(ws)).unwrap();
    assert_eq!(&*arena.family(Family::Lights), &[light]);
    assert!(arena.revisions().collision > since);
}

#[test]
fn typed_setters_compare_first_generic_access_marks_written() {
    let (mut arena, ws) = world();
    let p = arena.create(Class::Part, "P", Some(ws)).unwrap();
    let rev = arena.revisions().global;
    assert_eq!(arena.set_position(p, Vec3::ZERO), Ok(false));
    assert_eq!(arena.set_name(p, "P"), Ok(false));
    assert_eq!(arena.revisions().global, rev);
    {
        let _unchanged = arena.node_mut(p).unwrap();
    }
    assert!(arena.revisions().global > rev);
    assert_eq!(arena.get(p).unwrap().revision(), arena.revisions().global);
    assert_eq!(arena.part_writes_since(rev).unwrap().collect::<Vec<_>>(), vec![p]);
    arena.node_mut(p).unwrap().size().x = 10.0;
    assert_eq!(arena.get(p).unwrap().size().x, 10.0);
}

#[test]
fn part_write_log_reports_history_unavailable_after_dropping() {
    let mut arena = Arena::with_config(ArenaConfig { part_write_log_capacity: 8, ..Default::default() });
    let ws = arena.workspace();
    let p = arena.create(Class::Part, "P", Some(ws)).unwrap();
    let early = arena.revisions().global;
    for i in 0..20 {
        arena.set_position(p, Vec3::splat(i as f32 + 1.0)).unwrap();
    }
    assert!(arena.part_writes_since(early).is_err());
    let recent = arena.revisions().global - 2;
    assert_eq!(arena.part_writes_since(recent).unwrap().count(), 2);
}

#[test]
fn revision_domains_move_only_for_their_changes() {
    let (mut arena, ws) = world();
    let p = arena.create(Class::Part, "P", Some(ws)).unwrap();
    let r0 = *arena.revisions();
    arena.set_position(p, Vec3::X).unwrap();
    let r1 = *arena.revisions();
    assert_eq!(r1.collision, r0.collision);
    assert_eq!(r1.topology, r0.topology);
    assert!(r1.family(Family::Parts) > r0.family(Family::Parts));
    arena.set_size(p, Vec3::ONE).unwrap();
    assert!(arena.revisions().collision > r1.collision);
    arena.add_tag(p, "Enemy").unwrap();
    assert!(arena.revisions().tags > r1.tags);
    assert_eq!(arena.revisions().family(Family::Lights), 0);
    let anim = arena.create(Class::Animation, "Walk", None).unwrap();
    arena.set_attribute(anim, "Speed", Some(AttributeValue::Number(2.0))).unwrap();
    assert_eq!(arena.revisions().animation, arena.revisions().global);
}

#[test]
fn names_and_handles() {
    let (mut arena, ws) = world();
    let folder = arena.create(Class::Folder, "Buildings", Some(ws)).unwrap();
    let door = arena.create(Class::Part, "Door", Some(folder)).unwrap();
    assert_eq!(arena.find_first_child(folder, "Door"), Some(door));
    assert_eq!(arena.find_first_child(ws, "Door"), None);
    assert_eq!(arena.find_first_descendant(ws, "Door"), Some(door));
    assert_eq!(arena.find_first_child(folder, "NeverInterned"), None);
    arena.set_handle(door, Some("LobbyDoor")).unwrap();
    let other = arena.create(Class::Folder, "Elsewhere", Some(ws)).unwrap();
    arena.set_parent(door, Some(other)).unwrap();
    assert_eq!(arena.handle("LobbyDoor"), Some(door), "handles survive rearrangement");
    assert!(matches!(arena.set_handle(other, Some("LobbyDoor")), Err(ArenaError::HandleTaken { .. })));
    arena.destroy(door).unwrap();
    assert_eq!(arena.handle("LobbyDoor"), None);
}

#[test]
fn persistent_ids_are_assigned_on_demand_and_indexed() {
    let (mut arena, ws) = world();
    let p = arena.create(Class::Part, "P", Some(ws)).unwrap();
    assert_eq!(arena.get(p).unwrap().persistent_id(), None);
    let pid = arena.persistent_id(p).unwrap();
    assert_eq!(arena.persistent_id(p).unwrap(), pid);
    assert_eq!(arena.find_persistent(pid), Some(p));
    let q = arena.create(Class::Part, "Q", Some(ws)).unwrap();
    assert_eq!(arena.set_persistent_id(q, pid), Err(ArenaError::IdInUse(p)));
    arena.destroy(p).unwrap();
    assert_eq!(arena.find_persistent(pid), None);
    assert_ne!(arena.get(q).unwrap().guid(), Guid(0));
}

#[test]
fn destruction_detaches_marks_locks_logs_and_is_idempotent() {
    let (mut arena, ws) = world();
    let m = arena.create(Class::Model, "M", Some(ws)).unwrap();
    let p = arena.create(Class::Part, "P", Some(m)).unwrap();
    arena.add_tag(p, "Loot").unwrap();
    let holder = arena.create(Class::ObjectValue, "Target", Some(ws)).unwrap();
    arena.set_reference(holder, 0, Some(p)).unwrap();
    arena.set_attribute(ws, "Focus", Some(AttributeValue::Ref(Some(p)))).unwrap();
    arena.drain_events();
    let since = arena.revisions().global;
    assert_eq!(arena.destroy(m), Ok(true));
    assert_eq!(arena.destroy(m), Ok(false), "idempotent");
    assert!(arena.get(m).is_none() && arena.get(p).is_none());
    assert_eq!(arena.children(ws).collect::<Vec<_>>(), vec![holder]);
    assert_eq!(arena.tagged("Loot").count(), 0);
    assert_eq!(arena.get(holder).unwrap().reference(0), None, "references to the destroyed are cleared");
    assert_eq!(arena.attribute(ws, "Focus"), Some(&AttributeValue::Ref(None)));
    assert_eq!(arena.deletions_since(since).unwrap().collect::<Vec<_>>(), vec![m, p]);
    assert_eq!(arena.set_parent(m, Some(ws)), Err(ArenaError::Destroyed(m)));

    let events = arena.drain_events();
    let Some(InstanceEvent::Destroyed { root, subtree }) = events.last() else { panic!("{events:?}") };
    assert_eq!((*root, &**subtree), (m, &[m, p][..]));
    // Tombstones stay readable inside a lifecycle scope until the next drain.
    assert!(arena.get(p).is_none());
    let view = arena.lifecycle_view(m);
    assert_eq!(view.get(p).unwrap().name(), arena.names().find("P").unwrap());
    assert!(arena.lifecycle_view(holder).get(p).is_none(), "only the scoped subject's subtree");
    drop(view);
    arena.drain_events();
    assert!(arena.lifecycle_view(m).get(p).is_none(), "freed by the second drain");
    assert_eq!(arena.len(), 3);
}

#[test]
fn emptying_a_large_folder_one_by_one_keeps_order() {
    let (mut arena, ws) = world();
    let bullets = arena.create(Class::Folder, "Bullets", Some(ws)).unwrap();
    let ids: Vec<Id> =
        (0..1000).map(|i| arena.create(Class::Part, &format!("B{i}"), Some(bullets)).unwrap()).collect();
    for (k, &id) in ids.iter().enumerate().filter(|(k, _)| k % 3 != 0) {
        arena.destroy(id).unwrap();
        if k % 97 == 0 {
            arena.drain_events();
        }
    }
    let expected: Vec<Id> =
        ids.iter().copied().enumerate().filter(|(k, _)| k % 3 == 0).map(|(_, i)| i).collect();
    assert_eq!(arena.children(bullets).collect::<Vec<_>>(), expected);
    for &id in &expected {
        arena.set_parent(id, None).unwrap();
    }
    assert_eq!(arena.children(bullets).count(), 0);
}

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

#[test]
fn memory_report_counts_pages() {
    let (mut arena, ws) = world();
    for i in 0..1000 {
        arena.create(Class::Part, &format!("P{i}"), Some(ws)).unwrap();
    }
    let report = arena.memory_report();
    assert_eq!(report.live_nodes, 1002);
    assert_eq!(report.pages, 1002usize.div_ceil(PAGE_SIZE));
    assert!(report.bytes_per_node() > 50.0);
}

#[test]
fn detached_batches_fill_vacant_slots_then_whole_fresh_pages() {
    let (mut arena, ws) = world();
    let doomed: Vec<Id> = (0..3).map(|_| arena.create(Class::Part, "D", Some(ws)).unwrap()).collect();
    for id in doomed {
        arena.destroy(id).unwrap();
    }
    arena.drain_events();
    arena.drain_events(); // slots freed
    let (before, since) = (arena.len(), arena.revisions().global);
    let ids = arena.create_batch(Class::Folder, "B", None, 150).unwrap();
    assert_eq!(arena.len(), before + 150);
    assert!(ids.windows(2).all(|w| w[0] < w[1]), "ids minted in order");
    let name = arena.names().find("B").unwrap();
    for &id in &ids {
        let node = arena.get(id).unwrap();
        assert_eq!((node.id(), node.name(), node.class()), (id, name, Class::Folder));
    }
    let created: Vec<Id> = arena
        .topology_since(since)
        .unwrap()
        .filter_map(|(_, change)| match change {
            TopologyChange::Created { id, parent: None } => Some(id),
            _ => None,
        })
        .collect();
    assert_eq!(created, ids, "one journal entry per node, in order");
    assert_eq!(arena.revisions().global, since + 150, "one revision per node");
}

#[test]
fn repeated_names_intern_to_the_pool_ids() {
    let mut arena = Arena::new();
    let snap_names = arena.names().len();
    let a = arena.intern("A");
    assert_eq!(arena.intern("A"), a, "the cached name");
    let b = arena.intern("B");
    assert_ne!(a, b);
    assert_eq!((arena.intern("A"), arena.intern("B"), arena.intern("")), (a, b, NameId(0)));
    // Prefixes and longer strings are not mistaken for the cached name.
    let ab = arena.intern("AB");
    assert!(ab != a && arena.intern("A") == a && arena.intern("AB") == ab);
    // Long names (compared by `memcmp`) and names differing only in their last byte.
    let long = arena.intern("A very long name, longer than sixteen bytes");
    assert_eq!(arena.intern("A very long name, longer than sixteen bytes"), long);
    assert_ne!(arena.intern("A very long name, longer than sixteen byteS"), long);
    assert_ne!(arena.intern("AC"), ab);
    assert_eq!(arena.names().len(), snap_names + 6);
    for (text, id) in [("A", a), ("B", b), ("AB", ab)] {
        assert_eq!((arena.names().find(text), arena.names().text(id)), (Some(id), text));
    }
    let ids = arena.create_batch(Class::Folder, "AB", None, 3).unwrap();
    let x = arena.create(Class::Folder, "B", None).unwrap();
    assert!(ids.iter().all(|&id| arena.get(id).unwrap().name() == ab));
    assert_eq!(arena.get(x).unwrap().name(), b);
}

#[test]
fn a_refused_create_changes_nothing() {
    let config = ArenaConfig { max_nodes: 4, ..Default::default() };
    let (mut arena, mut twin) = (Arena::with_config(config.clone()), Arena::with_config(config));
    arena.create(Class::Folder, "A", None).unwrap();
    twin.create(Class::Folder, "A", None).unwrap();
    let since = arena.revisions().global;
    let journal = arena.topology_since(0).unwrap().count();
    arena.create(Class::Folder, "B", None).unwrap();
    assert_eq!(arena.create(Class::Folder, "C", None), Err(ArenaError::Full(4)));
    assert_eq!(arena.revisions().global, since + 1, "no revision for the refusal");
    assert_eq!(arena.topology_since(0).unwrap().count(), journal + 1);
    let b = twin.create(Class::Folder, "B", None).unwrap();
    assert_eq!(arena.revisions(), twin.revisions());
    let (x, y) = (arena.get(b).unwrap(), twin.get(b).unwrap());
    assert_eq!((x.guid(), x.revision()), (y.guid(), y.revision()));
}

#[test]
fn a_detached_batch_over_fresh_pages_equals_single_creations() {
    // A partial first page, whole fresh pages built with their runs, and a partial last one
    // that later single creations continue.
    let (mut arena, mut twin) = (Arena::new(), Arena::new());
    for a in [&mut arena, &mut twin] {
        for _ in 0..5 {
            a.create(Class::Folder, "Head", None).unwrap();
        }
    }
    let ids = arena.create_batch(Class::Folder, "B", None, 3 * PAGE_SIZE + 7).unwrap();
    let singles: Vec<Id> = (0..ids.len()).map(|_| twin.create(Class::Folder, "B", None).unwrap()).collect();
    assert_eq!(ids, singles);
    let (x, y) =
        (arena.create(Class::Folder, "T", None).unwrap(), twin.create(Class::Folder, "T", None).unwrap());
    assert_eq!(x, y);
    assert_eq!(arena.revisions(), twin.revisions());
    for &id in ids.iter().chain([&x]) {
        let (a, b) = (arena.get(id).unwrap(), twin.get(id).unwrap());
        assert_eq!(
            (a.id(), a.class(), a.name(), a.parent(), a.flags()),
            (b.id(), b.class(), b.name(), b.parent(), b.flags())
        );
        assert_eq!(
            (a.revision(), a.guid(), a.transform(), a.size()),
            (b.revision(), b.guid(), b.transform(), b.size())
        );
        assert_eq!(
            (a.appearance(), a.children().is_empty(), a.extras().is_empty()),
            (b.appearance(), true, true)
        );
    }
    assert_eq!(arena.memory_report().pages, twin.memory_report().pages);
}

#[test]
fn moved_containers_of_any_class_enter_the_part_write_log() {
    let (mut arena, ws) = world();
    let folder = arena.create(Class::Folder, "F", Some(ws)).unwrap();
    let empty = arena.create(Class::Folder, "Empty", Some(ws)).unwrap();
    let shelf = arena.create(Class::Folder, "Shelf", Some(ws)).unwrap();
    arena.create(Class::Part, "P", Some(folder)).unwrap();
    let since = arena.revisions().global;
    arena.set_position(folder, Vec3::X).unwrap();
    arena.set_position(empty, Vec3::X).unwrap();
    arena.set_name(folder, "Renamed").unwrap();
    assert_eq!(arena.part_writes_since(since).unwrap().collect::<Vec<_>>(), vec![folder]);
    let since = arena.revisions().global;
    arena.set_parent(folder, Some(shelf)).unwrap();
    assert!(arena.part_writes_since(since).unwrap().any(|id| id == folder), "a move is logged");
    let detached = arena.create(Class::Folder, "Out", None).unwrap();
    arena.create(Class::Part, "Q", Some(detached)).unwrap();
    let since = arena.revisions().global;
    arena.set_position(detached, Vec3::Y).unwrap();
    assert_eq!(arena.part_writes_since(since).unwrap().count(), 0, "outside the world nothing is logged");
}

#[test]
fn writes_to_in_world_non_parts_enter_the_node_write_log() {
    let mut arena = Arena::new();
    let ws = arena.workspace();
    let folder = arena.create(Class::Folder, "F", Some(ws)).unwrap();
    let light = arena.create(Class::PointLight, "L", Some(folder)).unwrap();
    let part = arena.create(Class::Part, "P", Some(ws)).unwrap();
    let stored = arena.create(Class::Folder, "Stored", None).unwrap();
    let since = arena.revisions().global;
    arena.set_name(light, "Lamp").unwrap();
    arena.set_attribute(folder, "Team", Some(AttributeValue::Bool(true))).unwrap();
    arena.set_position(part, Vec3::X).unwrap();
    arena.set_name(stored, "Still stored").unwrap();
    let logged: Vec<Id> = arena.node_writes_since(since).unwrap().collect();
    assert_eq!(logged, vec![light, folder], "parts go to the part-write log, out-of-world nodes nowhere");
    assert_eq!(arena.part_writes_since(since).unwrap().collect::<Vec<_>>(), vec![part]);
}
