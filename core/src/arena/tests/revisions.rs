//! Unit tests of revisions and write logs: typed setters compare first, the part-write log's
//! lost history, revision domains, and which writes enter the part-write and node-write logs.

use super::super::*;
use super::world;
use crate::value::AttributeValue;
use crate::{Class, Family, Id};
use glam::Vec3;

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
