//! Unit tests of hierarchy edits and their events: reparenting validated before anything
//! changes, platform ownership, no-op moves, the events of a move, local offsets kept,
//! detaching, names and handles, and persistent ids.

use super::super::*;
use super::world;
use crate::value::{Guid, NodeFlags};
use crate::{ArenaError, Class, Family, Id, InstanceEvent};
use glam::Vec3;

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
