//! Unit tests of destruction and reclamation: what destroying a subtree detaches, marks,
//! clears and logs (idempotently, tombstones readable until the next drain), and emptying a
//! large folder one child at a time.

use super::world;
use crate::value::AttributeValue;
use crate::{ArenaError, Class, Id, InstanceEvent};

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
