//! Unit tests of [`Mirror`](super::Mirror): what a capture mirrors, how captures follow the
//! arena's logs, and how cells follow moved parts.

use super::*;
use arbor_core::Class;

fn origin(_: Id) -> Vec3 {
    Vec3::ZERO
}

#[test]
fn the_first_capture_mirrors_the_workspace_but_not_scripts() {
    let mut arena = Arena::new();
    let ws = arena.workspace();
    let f = arena.create(Class::Folder, "F", Some(ws)).unwrap();
    let p = arena.create(Class::Part, "P", Some(f)).unwrap();
    let q = arena.create(Class::Part, "Q", Some(p)).unwrap();
    let s = arena.create(Class::Script, "S", Some(f)).unwrap();
    let mut m = Mirror::new();
    m.capture(&arena, &origin);
    assert!(m.changes().rescanned);
    assert_eq!(m.len(), 4);
    assert!(m.get(s).is_none());
    assert_eq!(m.get(f).unwrap().unit, Id::NONE);
    assert_eq!(m.get(p).unwrap().unit, p);
    assert_eq!(m.get(q).unwrap().unit, p);
    assert_eq!(m.units_in((0, 0)).collect::<Vec<_>>(), vec![p]);
}

#[test]
fn captures_follow_the_logs() {
    let mut arena = Arena::new();
    let ws = arena.workspace();
    let f = arena.create(Class::Folder, "F", Some(ws)).unwrap();
    let p = arena.create(Class::Part, "P", Some(ws)).unwrap();
    let mut m = Mirror::new();
    m.capture(&arena, &origin);
    m.capture(&arena, &origin);
    assert!(m.changes().changed.is_empty() && m.changes().added.is_empty());

    arena.set_position(p, Vec3::new(1.0, 2.0, 3.0)).unwrap();
    arena.set_name(f, "Renamed").unwrap();
    m.capture(&arena, &origin);
    let mut changed = m.changes().changed.clone();
    changed.sort();
    assert_eq!(changed, vec![f, p]);
    assert_eq!(m.get(p).unwrap().changed_since(m.epoch() - 1), Groups::POSITION);

    // Moving a top part under another part changes its unit: removed, then added.
    let host = arena.create(Class::Part, "Host", Some(ws)).unwrap();
    arena.set_parent(p, Some(host)).unwrap();
    m.capture(&arena, &origin);
    assert_eq!(m.changes().removed, vec![(p, true)]);
    assert_eq!(m.changes().added, vec![host, p]);
    assert_eq!(m.get(p).unwrap().unit, host);

    // A move within structure is a parent change.
    let g = arena.create(Class::Folder, "G", Some(ws)).unwrap();
    m.capture(&arena, &origin);
    arena.set_parent(f, Some(g)).unwrap();
    m.capture(&arena, &origin);
    assert!(m.changes().removed.is_empty());
    assert!(m.changes().changed.contains(&f));
    assert_eq!(m.get(f).unwrap().changed_since(m.epoch() - 1), Groups::PARENT);

    arena.destroy(host).unwrap();
    m.capture(&arena, &origin);
    let mut deleted: Vec<Id> = m.changes().deleted.clone();
    deleted.sort();
    assert_eq!(deleted, vec![p, host]);
    assert!(m.get(p).is_none() && m.units_in((0, 0)).next().is_none());

    // Detaching leaves the mirror; coming back enters it again.
    arena.set_parent(g, None).unwrap();
    m.capture(&arena, &origin);
    assert_eq!(m.changes().removed, vec![(g, true), (f, false)]);
    arena.set_parent(g, Some(ws)).unwrap();
    m.capture(&arena, &origin);
    assert_eq!(m.changes().added, vec![g, f]);
}

#[test]
fn a_moved_folder_moves_the_cells_of_the_parts_below() {
    let mut arena = Arena::new();
    let ws = arena.workspace();
    let f = arena.create(Class::Folder, "F", Some(ws)).unwrap();
    let p = arena.create(Class::Part, "P", Some(f)).unwrap();
    let mut m = Mirror::new();
    m.capture(&arena, &origin);
    arena.set_position(f, Vec3::new(1000.0, 0.0, 0.0)).unwrap();
    let far = |id: Id| if id == p { Vec3::new(1000.0, 0.0, 0.0) } else { Vec3::ZERO };
    m.capture(&arena, &far);
    assert_eq!(m.changes().unit_moves, vec![(p, (0, 0), cell_of(Vec3::new(1000.0, 0.0, 0.0)))]);
}

#[test]
fn client_scripts_replicate_and_follow_their_run_context() {
    use arbor_core::{AttributeValue, RUN_CONTEXT_ATTRIBUTE};
    let mut arena = Arena::new();
    let ws = arena.workspace();
    let context = |c: &str| Some(AttributeValue::String(c.into()));
    let client = arena.create(Class::Script, "Hud", Some(ws)).unwrap();
    arena.set_attribute(client, RUN_CONTEXT_ATTRIBUTE, context("Client")).unwrap();
    let server = arena.create(Class::Script, "Rules", Some(ws)).unwrap();
    let mut m = Mirror::new();
    m.capture(&arena, &origin);
    assert!(m.get(client).is_some(), "a client script replicates");
    assert!(m.get(server).is_none(), "a server script does not");
    // Turned into a client script at run time, it enters; turned back, it leaves.
    arena.set_attribute(server, RUN_CONTEXT_ATTRIBUTE, context("Both")).unwrap();
    m.capture(&arena, &origin);
    assert!(m.get(server).is_some());
    arena.set_attribute(server, RUN_CONTEXT_ATTRIBUTE, context("Server")).unwrap();
    m.capture(&arena, &origin);
    assert!(m.get(server).is_none());
    assert!(m.get(client).is_some());
}

#[test]
fn the_prefabs_folder_replicates_as_structure() {
    let mut arena = Arena::new();
    let root = arena.root();
    let prefabs = arena.create(Class::Folder, "Prefabs", Some(root)).unwrap();
    let spark = arena.create(Class::Part, "Spark", Some(prefabs)).unwrap();
    let other = arena.create(Class::Folder, "Storage", Some(root)).unwrap();
    let hidden = arena.create(Class::Part, "Hidden", Some(other)).unwrap();
    let mut m = Mirror::new();
    m.capture(&arena, &origin);
    assert_eq!(m.get(prefabs).unwrap().unit, Id::NONE);
    assert_eq!(m.get(spark).unwrap().unit, Id::NONE, "a template part is structure, not a streaming unit");
    assert!(m.structure().any(|s| s == spark));
    assert_eq!(m.occupied_cells(), 0);
    assert!(m.get(other).is_none() && m.get(hidden).is_none(), "other top-level folders stay on the server");
    // A template added at run time follows through the topology journal.
    let smoke = arena.create(Class::Part, "Smoke", Some(prefabs)).unwrap();
    m.capture(&arena, &origin);
    assert_eq!(m.get(smoke).unwrap().unit, Id::NONE);
    assert!(!m.changes().rescanned);
}
