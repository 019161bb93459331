//! Unit tests of ids, slots and creation: the fresh arena's ids, stale ids after slot
//! reuse, explicit replica ids, refused creations, name interning, and detached batches
//! (vacant slots first, then whole fresh pages, equal to single creations).

use super::super::*;
use super::world;
use crate::nodes::page::PAGE_SIZE;
use crate::{ArenaError, Class, Id};

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
