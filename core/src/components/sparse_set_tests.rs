//! Unit tests of sparse-set storage through the arena: rows that come and go without moving
//! the archetype row, queries over both kinds, snapshots, undo, destruction and reference
//! policies, copies and the world hash. That place files keep the storage is tested in
//! `arbor-place` (`place/tests/place_sparse_sets.rs`).

use crate::components::{FieldDef, FieldType, FieldValue, Query, RefPolicy, Schema, Storage};
use crate::{Arena, Class, Id, WorldHasher};

/// An arena with `Pos` (table), `Stun` (sparse, one F32) and `Mark` (sparse, a reference
/// that removes the component when its target goes), and `n` parts in the Workspace with `Pos`.
fn setup(n: usize) -> (Arena, [crate::components::ComponentId; 3], Vec<Id>) {
    let mut a = Arena::new();
    let pos = a.register_component(Schema::new("Pos", vec![FieldDef::new("x", FieldType::F32)])).unwrap();
    let stun = a
        .register_component(
            Schema::new("Stun", vec![FieldDef::new("left", FieldType::F32)]).stored_in(Storage::SparseSet),
        )
        .unwrap();
    let mark = a
        .register_component(
            Schema::new("Mark", vec![FieldDef::reference("by", RefPolicy::RemoveComponent)])
                .stored_in(Storage::SparseSet),
        )
        .unwrap();
    let ws = a.workspace();
    let ids: Vec<Id> = (0..n)
        .map(|i| {
            let p = a.create(Class::Part, "P", Some(ws)).unwrap();
            a.add_component(p, pos, Some(&[FieldValue::F32(i as f32)])).unwrap();
            p
        })
        .collect();
    (a, [pos, stun, mark], ids)
}

#[test]
fn a_sparse_component_comes_and_goes_without_moving_the_table_row() {
    let (mut a, [pos, stun, _], ids) = setup(4);
    let before: Vec<_> = ids.iter().map(|&id| a.components().loc(id)).collect();
    assert!(a.add_component(ids[1], stun, Some(&[FieldValue::F32(2.5)])).unwrap());
    assert!(a.add_component(ids[2], stun, None).unwrap());
    assert!(!a.add_component(ids[2], stun, None).unwrap(), "already there");
    let after: Vec<_> = ids.iter().map(|&id| a.components().loc(id)).collect();
    assert_eq!(before, after, "table rows stay put");
    assert_eq!(a.field(ids[1], stun, "left"), Some(FieldValue::F32(2.5)));
    assert_eq!(a.field(ids[2], stun, "left"), Some(FieldValue::F32(0.0)));
    assert_eq!(a.field(ids[1], pos, "x"), Some(FieldValue::F32(1.0)));
    assert_eq!(*a.components().components_of(ids[1]), [pos, stun]);
    assert_eq!(*a.components().components_of(ids[0]), [pos]);
    // Removing the first row of the set moves the last one into its place.
    assert!(a.remove_component(ids[1], stun).unwrap());
    assert!(!a.remove_component(ids[1], stun).unwrap());
    assert_eq!(a.field(ids[2], stun, "left"), Some(FieldValue::F32(0.0)));
    assert!(a.set_field(ids[2], stun, "left", FieldValue::F32(7.0)).unwrap());
    assert_eq!(a.field(ids[2], stun, "left"), Some(FieldValue::F32(7.0)));
    // An instance holding only a sparse-set component counts as having rows.
    let lone = a.create(Class::Folder, "Lone", None).unwrap();
    a.add_component(lone, stun, None).unwrap();
    assert_eq!(a.components().row_count(), 5);
    assert_eq!(a.components().sparse_row_count(), 2);
}

#[test]
fn queries_walk_the_set_or_the_tables_and_check_rows_across_kinds() {
    let (mut a, [pos, stun, _], ids) = setup(6);
    let lone = a.create(Class::Folder, "Lone", None).unwrap();
    for &id in [ids[1], ids[4], lone].iter() {
        a.add_component(id, stun, None).unwrap();
    }
    let store = a.components();
    let sorted = |mut v: Vec<Id>| {
        v.sort();
        v
    };
    assert_eq!(sorted(store.ids(&mut Query::new(&[stun]))), vec![ids[1], ids[4], lone]);
    assert_eq!(sorted(store.ids(&mut Query::new(&[pos, stun]))), vec![ids[1], ids[4]]);
    assert_eq!(store.ids(&mut Query::new(&[pos]).without(&[stun])), vec![ids[0], ids[2], ids[3], ids[5]]);
    assert_eq!(store.count(&mut Query::new(&[stun]).without(&[pos])), 1);
    assert!(store.matches(&Query::new(&[stun, pos]), ids[4]));
    assert!(!store.matches(&Query::new(&[pos]).without(&[stun]), ids[4]));
    assert!(store.walks_chunks(&mut Query::new(&[stun])));
    assert!(!store.walks_chunks(&mut Query::new(&[pos, stun])));
    assert!(!store.walks_chunks(&mut Query::new(&[pos]).without(&[stun])));
    // A chunk pass over the set alone writes its lanes; change detection follows.
    let since = a.revisions().global;
    let lane = a.components().lane(stun, "left").unwrap();
    a.for_each_chunk_mut(&mut Query::new(&[stun]), &[], &[lane], |mut chunk| {
        chunk.write::<f32>(0).iter_mut().for_each(|v| *v += 1.0);
    });
    assert_eq!(a.field(lone, stun, "left"), Some(FieldValue::F32(1.0)));
    let changed = a.components().changed_since(&mut Query::new(&[pos, stun]), stun, since);
    assert_eq!(sorted(changed), vec![ids[1], ids[4]]);
    let since = a.revisions().global;
    a.set_field(ids[2], pos, "x", FieldValue::F32(9.0)).unwrap();
    a.set_field(ids[4], pos, "x", FieldValue::F32(9.0)).unwrap();
    assert_eq!(a.components().changed_since(&mut Query::new(&[stun, pos]), pos, since), vec![ids[4]]);
}

#[test]
#[should_panic(expected = "a chunk-wise walk needs a query of table components")]
fn a_chunk_pass_over_a_mixed_query_is_refused() {
    let (mut a, [pos, stun, _], _) = setup(2);
    let lane = a.components().lane(pos, "x").unwrap();
    a.for_each_chunk_mut(&mut Query::new(&[pos, stun]), &[], &[lane], |_| {});
}

#[test]
fn snapshots_and_undo_keep_sparse_rows() {
    let (mut a, [_, stun, _], ids) = setup(3);
    a.add_component(ids[0], stun, Some(&[FieldValue::F32(1.0)])).unwrap();
    let snap = a.snapshot();
    a.add_component(ids[1], stun, None).unwrap();
    a.set_field(ids[0], stun, "left", FieldValue::F32(5.0)).unwrap();
    assert_eq!(snap.components().field_by_name(ids[0], stun, "left"), Some(FieldValue::F32(1.0)));
    assert!(!snap.components().has(ids[1], stun));
    let hash = a.world_hash();
    a.begin_undo().unwrap();
    a.remove_component(ids[0], stun).unwrap();
    a.add_component(ids[2], stun, Some(&[FieldValue::F32(3.0)])).unwrap();
    a.set_field(ids[1], stun, "left", FieldValue::F32(4.0)).unwrap();
    a.rollback_undo();
    assert_eq!(a.field(ids[0], stun, "left"), Some(FieldValue::F32(5.0)));
    assert_eq!(a.field(ids[1], stun, "left"), Some(FieldValue::F32(0.0)));
    assert!(!a.components().has(ids[2], stun));
    assert_eq!(a.world_hash(), hash);
}

#[test]
fn destruction_copies_and_reference_policies_reach_the_sets() {
    let (mut a, [_, stun, mark], ids) = setup(4);
    a.add_component(ids[0], stun, None).unwrap();
    a.add_component(ids[1], stun, None).unwrap();
    a.add_component(ids[1], mark, Some(&[FieldValue::Ref(Some(ids[3]))])).unwrap();
    let copy = a.clone_subtree(ids[1]).unwrap().unwrap();
    assert_eq!(*a.components().components_of(copy), *a.components().components_of(ids[1]));
    assert_eq!(a.field(copy, mark, "by"), Some(FieldValue::Ref(Some(ids[3]))));
    a.destroy(ids[0]).unwrap();
    assert_eq!(a.components().sparse_row_count(), 4, "the destroyed holder's row went");
    a.destroy(ids[3]).unwrap();
    assert!(!a.components().has(ids[1], mark) && !a.components().has(copy, mark), "RemoveComponent");
    assert!(a.components().has(ids[1], stun));
    assert_eq!(a.component_referrers(ids[3]).count(), 0);
}

#[test]
fn the_world_hash_follows_sparse_edits() {
    let (mut a, [_, stun, _], ids) = setup(3);
    let mut h = WorldHasher::new();
    h.update(&a);
    a.add_component(ids[2], stun, Some(&[FieldValue::F32(6.0)])).unwrap();
    assert_eq!(h.update(&a), a.world_hash());
    let lane = a.components().lane(stun, "left").unwrap();
    a.for_each_chunk_mut(&mut Query::new(&[stun]), &[], &[lane], |mut c| c.write::<f32>(0)[0] = 2.0);
    assert_eq!(h.update(&a), a.world_hash());
    a.remove_component(ids[2], stun).unwrap();
    a.add_component(ids[0], stun, Some(&[FieldValue::F32(6.0)])).unwrap();
    assert_eq!(h.update(&a), a.world_hash());
}
