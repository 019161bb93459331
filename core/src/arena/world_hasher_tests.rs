//! Unit tests of [`WorldHasher`]: each source of change (in-world writes, out-of-world and
//! detached writes, references, chunk passes, topology, undo, lost history) followed without
//! a rebuild and equal to the full hash.

use super::*;
use crate::components::{FieldDef, FieldType, FieldValue, Lane, Query, RefPolicy, Schema};
use crate::{ArenaConfig, AttributeValue, Class, Vec3};

/// Updates `h` and checks it against the full hash, without a rebuild.
fn follows(h: &mut WorldHasher, a: &Arena) {
    assert_eq!(h.update(a), a.world_hash());
    assert!(!h.stats().rebuilt, "followed, not rebuilt");
}

#[test]
fn the_first_update_rebuilds_and_a_part_write_hashes_one_node() {
    let mut a = Arena::new();
    let ws = a.workspace();
    let m = a.create(Class::Model, "M", Some(ws)).unwrap();
    let parts: Vec<Id> = (0..10).map(|_| a.create(Class::Part, "P", Some(m)).unwrap()).collect();
    let mut h = WorldHasher::new();
    assert_eq!(h.update(&a), a.world_hash());
    assert!(h.stats().rebuilt);
    let before = h.value();
    a.set_position(parts[3], Vec3::X).unwrap();
    follows(&mut h, &a);
    assert_ne!(h.value(), before);
    assert_eq!(h.stats().contents, 1, "one content hashed");
    assert_eq!(h.stats().subtrees, 4, "the part, its model, the Workspace, the root");
    a.set_position(parts[3], Vec3::ZERO).unwrap();
    follows(&mut h, &a);
    assert_eq!(h.value(), before);
    assert_eq!(h.update(&a), before, "nothing changed");
}

#[test]
fn out_of_world_and_detached_writes_are_seen() {
    let mut a = Arena::new();
    let storage = a.create(Class::Folder, "Storage", None).unwrap();
    a.set_parent(storage, Some(a.root())).unwrap();
    let kept = a.create(Class::Part, "Kept", Some(storage)).unwrap();
    let loose = a.create(Class::Model, "Loose", None).unwrap();
    let inner = a.create(Class::Part, "Inner", Some(loose)).unwrap();
    let mut h = WorldHasher::new();
    h.update(&a);
    a.set_name(kept, "Renamed").unwrap();
    follows(&mut h, &a);
    a.set_size(inner, Vec3::ONE).unwrap();
    follows(&mut h, &a);
    a.add_tag(loose, "T").unwrap();
    follows(&mut h, &a);
    // Into the world and out again, written on the way.
    a.set_parent(loose, Some(a.workspace())).unwrap();
    a.set_name(inner, "In").unwrap();
    follows(&mut h, &a);
    a.set_parent(loose, None).unwrap();
    follows(&mut h, &a);
    a.set_attribute(inner, "A", Some(AttributeValue::Number(2.0))).unwrap();
    follows(&mut h, &a);
    a.destroy(loose).unwrap();
    follows(&mut h, &a);
    a.drain_events();
    a.drain_events();
    let reuse = a.create(Class::Folder, "Reuse", None).unwrap();
    follows(&mut h, &a);
    a.set_script_source(kept, "x").ok();
    a.set_parent(reuse, Some(storage)).unwrap();
    follows(&mut h, &a);
}

#[test]
fn a_reference_follows_its_target() {
    let mut a = Arena::new();
    let ws = a.workspace();
    let p = a.create(Class::Part, "P", Some(ws)).unwrap();
    let q = a.create(Class::Part, "P", Some(ws)).unwrap();
    let v = a.create(Class::ObjectValue, "V", None).unwrap();
    a.set_reference(v, 0, Some(p)).unwrap();
    let holder = a.create(Class::Folder, "H", Some(ws)).unwrap();
    a.set_attribute(holder, "To", Some(AttributeValue::Ref(Some(v)))).unwrap();
    let mut h = WorldHasher::new();
    h.update(&a);
    a.set_name(p, "Moved").unwrap(); // `v` holds a reference to `p`: its content changes
    follows(&mut h, &a);
    a.set_name(v, "W").unwrap(); // `holder` refers to `v`
    follows(&mut h, &a);
    a.set_name(p, "P").unwrap();
    follows(&mut h, &a);
    let same = h.value();
    a.set_reference(v, 0, Some(q)).unwrap();
    follows(&mut h, &a);
    assert_eq!(h.value(), same, "a reference names its target by content (documented)");
    a.destroy(q).unwrap(); // clears the reference
    follows(&mut h, &a);
}

#[test]
fn component_writes_and_chunk_passes_are_seen() {
    let mut a = Arena::with_config(ArenaConfig { component_write_log_capacity: 2, ..ArenaConfig::default() });
    let heat =
        a.register_component(Schema::new("Heat", vec![FieldDef::new("Value", FieldType::F32)])).unwrap();
    let tie = a
        .register_component(Schema::new("Tie", vec![FieldDef::reference("To", RefPolicy::ClearField)]))
        .unwrap();
    let ws = a.workspace();
    let ids: Vec<Id> = (0..300)
        .map(|i| a.create(Class::Part, "P", Some(if i % 2 == 0 { ws } else { a.root() })).unwrap())
        .collect();
    for &id in &ids {
        a.add_component(id, heat, None).unwrap();
    }
    a.add_component(ids[0], tie, Some(&[FieldValue::Ref(Some(ids[1]))])).unwrap();
    let mut h = WorldHasher::new();
    h.update(&a);
    let lane = Lane { component: heat, lane: 0 };
    a.for_each_chunk_mut(&mut Query::new(&[heat]), &[], &[lane], |mut chunk| {
        chunk.write::<f32>(0).iter_mut().step_by(7).for_each(|x| *x += 1.0);
    });
    follows(&mut h, &a);
    a.set_field(ids[1], heat, "Value", FieldValue::F32(5.0)).unwrap(); // `ids[0]` refers to it
    follows(&mut h, &a);
    a.remove_component(ids[5], heat).unwrap();
    follows(&mut h, &a);
}

#[test]
fn undo_rollback_and_lost_history() {
    let mut a = Arena::with_config(ArenaConfig {
        journal_capacity: 4,
        part_write_log_capacity: 4,
        ..ArenaConfig::default()
    });
    let ws = a.workspace();
    let m = a.create(Class::Model, "M", Some(ws)).unwrap();
    let p = a.create(Class::Part, "P", Some(m)).unwrap();
    let mut h = WorldHasher::new();
    h.update(&a);
    a.begin_undo().unwrap();
    a.destroy(m).unwrap();
    let _ = a.create(Class::Part, "New", Some(ws)).unwrap();
    a.rollback_undo();
    assert_eq!(h.update(&a), a.world_hash());
    for k in 0..10 {
        a.set_position(p, Vec3::splat(k as f32)).unwrap();
    }
    assert_eq!(h.update(&a), a.world_hash());
    assert!(h.stats().rebuilt, "the part-write log dropped what the hasher needed");
    a.set_position(p, Vec3::ONE).unwrap();
    follows(&mut h, &a);
}

#[test]
fn child_order_and_moves_between_parents() {
    let mut a = Arena::new();
    let ws = a.workspace();
    let f = a.create(Class::Folder, "F", Some(ws)).unwrap();
    let g = a.create(Class::Folder, "G", Some(ws)).unwrap();
    let xs: Vec<Id> = (0..5).map(|i| a.create(Class::Part, &format!("X{i}"), Some(f)).unwrap()).collect();
    let mut h = WorldHasher::new();
    h.update(&a);
    a.set_parent(xs[1], Some(g)).unwrap();
    follows(&mut h, &a);
    a.set_parent(xs[1], Some(f)).unwrap(); // now last
    follows(&mut h, &a);
    a.destroy(xs[0]).unwrap();
    a.set_position(xs[2], Vec3::Y).unwrap();
    follows(&mut h, &a);
    let copy = a.clone_subtree(f).unwrap().unwrap();
    follows(&mut h, &a);
    a.set_parent(copy, Some(g)).unwrap();
    a.set_name(xs[3], "Y").unwrap();
    follows(&mut h, &a);
}
