//! Place files keep a component's sparse-set storage: a place whose sparse-set rows were
//! added, written through chunks and removed (the world hash following each edit) saves as
//! format version 3 and loads back, in both forms, with the same storage and rows.

use arbor_core::components::{
    ComponentId, FieldDef, FieldType, FieldValue, Query, RefPolicy, Schema, Storage,
};
use arbor_core::{Arena, Class, Id, WorldHasher};
use arbor_place::{load_binary, load_json, save_binary, save_json};

/// An arena with `Pos` (table), `Stun` (sparse, one F32) and `Mark` (sparse, a reference
/// that removes the component when its target goes), and `n` parts in the Workspace with `Pos`.
fn setup(n: usize) -> (Arena, [ComponentId; 3], Vec<Id>) {
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
fn place_files_keep_the_storage_and_the_world_hash_follows_sparse_edits() {
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
    let json = save_json(&a);
    assert!(json.contains("\"storage\": \"SparseSet\"") && json.contains("\"version\": 3"), "{json}");
    for loaded in [load_json(&json).unwrap(), load_binary(&save_binary(&a)).unwrap()] {
        let c = loaded.components().component("Stun").unwrap();
        assert_eq!(loaded.components().registry().info(c).schema.storage, Storage::SparseSet);
        let holders = loaded.components().ids(&mut Query::new(&[c]));
        assert_eq!(holders.len(), 1);
        assert_eq!(loaded.field(holders[0], c, "left"), Some(FieldValue::F32(6.0)));
    }
}
