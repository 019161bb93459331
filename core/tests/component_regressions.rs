//! Focused regression tests for component-store bugs found by the model test
//! (`tests/model/`), one per bug, through the public API.

use arbor_core::{
    Arena, ArenaError, Class, Id,
    components::{
        CHUNK_ROWS, ComponentId, FieldDef, FieldType, FieldValue, Lane, PodComponent, Query, RefPolicy,
        Schema, SchemaError,
    },
};

fn health() -> Schema {
    Schema::new("Health", vec![FieldDef::new("hp", FieldType::I32), FieldDef::new("regen", FieldType::F32)])
}

#[test]
fn an_unknown_component_id_is_refused_not_a_panic() {
    let mut arena = Arena::new();
    let h = arena.register_component(health()).unwrap();
    let p = arena.create(Class::Part, "P", None).unwrap();
    arena.add_component(p, h, None).unwrap();
    let unknown = ComponentId(9);
    let rev = arena.revisions().global;
    assert_eq!(
        arena.set_field(p, unknown, "hp", FieldValue::I32(1)),
        Err(ArenaError::Component(SchemaError::UnknownComponent("#9".into())))
    );
    assert_eq!(arena.revisions().global, rev);
    assert_eq!(arena.field(p, unknown, "hp"), None);
    assert_eq!(arena.components().field_by_name(p, unknown, "hp"), None);
    assert_eq!(arena.components().row(p, unknown), None);
    assert_eq!(arena.components().lane(unknown, "hp"), None);
}

#[test]
fn a_chunk_view_lends_only_the_components_own_word_lanes() {
    let mut arena = Arena::new();
    let h = arena.register_component(health()).unwrap();
    let label = arena
        .register_component(Schema::new("Label", vec![FieldDef::new("text", FieldType::String)]))
        .unwrap();
    let p = arena.create(Class::Part, "P", None).unwrap();
    arena.add_component(p, h, Some(&[FieldValue::I32(7), FieldValue::F32(0.5)])).unwrap();
    arena.add_component(p, label, None).unwrap();
    let mut q = Query::new(&[h, label]);
    let mut views = 0;
    arena.components().for_each_chunk(&mut q, |view| {
        views += 1;
        assert_eq!(view.lane::<i32>(Lane { component: h, lane: 0 }), Some(&[7][..]));
        assert_eq!(view.lane::<f32>(Lane { component: h, lane: 1 }), Some(&[0.5][..]));
        // Lane 2 is past Health's two lanes (it was the row-tick column); Label's lane is a string.
        assert_eq!(view.lane::<u32>(Lane { component: h, lane: 2 }), None);
        assert_eq!(view.lane::<u32>(Lane { component: label, lane: 0 }), None);
    });
    assert_eq!(views, 1);
}

#[test]
fn a_query_cached_on_the_arena_runs_on_an_older_snapshot() {
    let mut arena = Arena::new();
    let h = arena.register_component(health()).unwrap();
    let x = arena.register_component(Schema::new("X", vec![FieldDef::new("v", FieldType::I32)])).unwrap();
    let (a, b) =
        (arena.create(Class::Part, "A", None).unwrap(), arena.create(Class::Part, "B", None).unwrap());
    arena.add_component(a, h, None).unwrap();
    let old = arena.snapshot();
    arena.add_component(b, h, None).unwrap();
    arena.add_component(b, x, None).unwrap(); // a table the snapshot does not have
    let mut q = Query::new(&[h]);
    assert_eq!(arena.components().ids(&mut q), vec![a, b]);
    assert_eq!(old.components().ids(&mut q), vec![a]);
    assert_eq!(old.components().changed_since(&mut q, h, 0), vec![a]);
    // And back on the arena, without listing a table twice.
    assert_eq!(arena.components().ids(&mut q), vec![a, b]);
}

#[test]
fn adding_a_component_already_there_without_values_changes_nothing() {
    let mut arena = Arena::new();
    let h = arena.register_component(health()).unwrap();
    let p = arena.create(Class::Part, "P", None).unwrap();
    arena.add_component(p, h, None).unwrap();
    let before = arena.snapshot();
    assert_eq!(arena.add_component(p, h, None), Ok(false));
    assert_eq!(arena.revisions().global, before.revisions().global);
    assert!(before.diff(&arena.snapshot()).is_empty(), "no instance or row reported as written");
}

#[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
#[repr(C)]
struct LinkPod {
    to: u64,
}

impl PodComponent for LinkPod {
    fn schema() -> Schema {
        Schema::new("Link", vec![FieldDef::reference("to", RefPolicy::ClearField)])
    }
}

#[test]
fn a_pod_type_cannot_hold_an_instance_reference() {
    // A raw write of the id would skip the reverse index: destroying the target would then
    // leave the field pointing at it.
    let mut arena = Arena::new();
    assert_eq!(arena.register_pod::<LinkPod>(), Err(SchemaError::PodLayout("Link".into())));
    assert!(arena.components().registry().is_empty(), "a refused registration registers nothing");
    assert_eq!(FieldType::InstanceRef.pod_bytes(), None);
}

#[derive(Clone, Copy, Debug, PartialEq, bytemuck::Pod, bytemuck::Zeroable)]
#[repr(C)]
struct HealthPod {
    hp: i32,
    regen: f32,
}

impl PodComponent for HealthPod {
    fn schema() -> Schema {
        health()
    }
}

#[test]
fn a_component_given_twice_in_a_bundle_gets_one_row_with_the_last_value() {
    let mut arena = Arena::new();
    let h = arena.register_pod::<HealthPod>().unwrap();
    let (first, last) = (HealthPod { hp: 1, regen: 0.0 }, HealthPod { hp: 2, regen: 0.5 });
    let spawned = arena.spawn_batch(Class::Part, "S", None, [(first, last)]).unwrap();
    let inserted = arena.create(Class::Part, "I", None).unwrap();
    arena.insert_pod(inserted, &(first, last)).unwrap();
    for id in [spawned[0], inserted] {
        assert_eq!(*arena.components().components_of(id), [h]);
        assert_eq!(arena.components().get_pod::<HealthPod>(id), Some(last));
    }
}

#[derive(Clone, Copy, Debug, PartialEq, bytemuck::Pod, bytemuck::Zeroable)]
#[repr(C)]
struct RegenPod {
    rate: f32,
}

impl PodComponent for RegenPod {
    fn schema() -> Schema {
        Schema::new("Regen", vec![FieldDef::new("rate", FieldType::F32)]).requiring("Health")
    }
}

#[test]
fn pod_inserts_and_spawns_add_the_required_components() {
    let mut arena = Arena::new();
    let h = arena.register_component(health()).unwrap();
    let regen = arena.register_pod::<RegenPod>().unwrap();
    let p = arena.create(Class::Part, "P", None).unwrap();
    arena.insert_pod(p, &(RegenPod { rate: 2.0 },)).unwrap();
    let spawned = arena.spawn_batch(Class::Part, "S", None, [(RegenPod { rate: 3.0 },)]).unwrap();
    for (id, rate) in [(p, 2.0), (spawned[0], 3.0)] {
        assert_eq!(*arena.components().components_of(id), [h, regen], "the requirement was added");
        assert_eq!(arena.components().row(id, h), Some(vec![FieldValue::I32(0), FieldValue::F32(0.0)]));
        assert_eq!(arena.components().get_pod::<RegenPod>(id), Some(RegenPod { rate }));
    }
    // So removing the requirement takes the dependent with it.
    assert_eq!(arena.remove_component(p, h), Ok(true));
    assert!(arena.components().components_of(p).is_empty());
}

#[test]
fn a_bulk_write_survives_the_row_moving_to_another_table() {
    let mut arena = Arena::new();
    let h = arena.register_component(health()).unwrap();
    let x = arena.register_component(Schema::new("X", vec![FieldDef::new("v", FieldType::I32)])).unwrap();
    let p = arena.create(Class::Part, "P", None).unwrap();
    arena.add_component(p, h, None).unwrap();
    let since = arena.revisions().global;
    let mut q = Query::new(&[h]);
    arena
        .for_each_chunk_mut(&mut q, &[], &[Lane { component: h, lane: 0 }], |mut c| c.write::<i32>(0)[0] = 5);
    let pass = arena.revisions().global;
    assert_eq!(arena.components().row_revision(p, h), Some(pass));
    arena.add_component(p, x, None).unwrap(); // moves the row to the table {Health, X}
    assert_eq!(arena.components().row_revision(p, h), Some(pass), "the pass still counts as a write");
    assert_eq!(arena.components().changed_since(&mut q, h, since), vec![p]);
}

#[test]
fn a_destroy_holder_policy_clears_the_field_of_a_holder_that_cannot_be_destroyed() {
    let mut arena = Arena::new();
    let ws = arena.workspace();
    let tether = arena
        .register_component(Schema::new("Tether", vec![FieldDef::reference("to", RefPolicy::DestroyHolder)]))
        .unwrap();
    let target = arena.create(Class::Part, "T", Some(ws)).unwrap();
    let owned = arena.create(Class::Part, "Owned", Some(ws)).unwrap();
    let plain = arena.create(Class::Part, "Plain", Some(ws)).unwrap();
    for holder in [owned, plain, ws] {
        arena.add_component(holder, tether, Some(&[FieldValue::Ref(Some(target))])).unwrap();
    }
    arena.set_platform_owned(owned, true).unwrap();
    let rev = arena.revisions().global + 1; // the target's destruction; `plain`'s comes after
    arena.destroy(target).unwrap();
    assert!(arena.get(plain).is_none(), "a holder that can be destroyed is");
    for holder in [owned, ws] {
        assert!(arena.get(holder).is_some());
        assert_eq!(arena.field(holder, tether, "to"), Some(FieldValue::Ref(None)), "no stale reference");
        assert_eq!(arena.components().row_revision(holder, tether), Some(rev));
    }
    assert_eq!(arena.get(owned).unwrap().revision(), rev);
    assert_eq!(arena.component_referrers(target).count(), 0);
}

/// The set-up of the bulk-revision regressions: `q` holds {Health, X} (written at
/// `written`), then `rows` instances holding {Health} alone are spawned and written by one
/// chunk pass that skips `q` (`not_x`).
struct BulkSetUp {
    arena: Arena,
    h: ComponentId,
    x: ComponentId,
    q: Id,
    written: u64,
    ids: Vec<Id>,
    not_x: Query,
}

fn bulk_written_around_q(rows: usize) -> BulkSetUp {
    let mut arena = Arena::new();
    let h = arena.register_pod::<HealthPod>().unwrap();
    let x = arena.register_component(Schema::new("X", vec![FieldDef::new("v", FieldType::I32)])).unwrap();
    let q = arena.create(Class::Part, "Q", None).unwrap();
    arena.add_component(q, h, None).unwrap();
    arena.add_component(q, x, None).unwrap();
    let written = arena.components().row_revision(q, h).unwrap();
    let zero = HealthPod { hp: 0, regen: 0.0 };
    let ids = arena.spawn_batch(Class::Part, "S", None, vec![(zero,); rows]).unwrap();
    let mut not_x = Query::new(&[h]).without(&[x]);
    arena.for_each_chunk_mut(&mut not_x, &[], &[Lane { component: h, lane: 0 }], |_| {});
    BulkSetUp { arena, h, x, q, written, ids, not_x }
}

#[test]
fn a_row_moved_into_a_chunk_does_not_take_the_chunks_bulk_write() {
    // A full chunk of {Health}, all written by one pass that skips `q`.
    let BulkSetUp { mut arena, h, x, q, written, ids, .. } = bulk_written_around_q(CHUNK_ROWS);
    // `q` joins {Health} (a new chunk), then moves into the first chunk when a row leaves it.
    arena.remove_component(q, x).unwrap();
    assert_eq!(arena.components().row_revision(q, h), Some(written));
    arena.remove_component(ids[0], h).unwrap();
    assert_eq!(arena.components().row_revision(q, h), Some(written), "q was never written by the pass");
    assert!(!arena.components().changed_since(&mut Query::new(&[h]), h, written).contains(&q));
    // The same through a push into a partly filled chunk that had a bulk write.
    arena.remove_component(ids[2], h).unwrap();
    let r = arena.create(Class::Part, "R", None).unwrap();
    arena.add_component(r, h, None).unwrap();
    arena.add_component(r, x, None).unwrap();
    let r_written = arena.components().row_revision(r, h).unwrap();
    let mut all = Query::new(&[h]).without(&[x]);
    arena.for_each_chunk_mut(&mut all, &[], &[Lane { component: h, lane: 0 }], |_| {});
    arena.remove_component(r, x).unwrap();
    assert_eq!(arena.components().row_revision(r, h), Some(r_written));
    // Rows that were in the chunks keep the pass.
    let pass = arena.revisions().global - 1;
    assert_eq!(arena.components().row_revision(ids[1], h), Some(pass));
}

#[test]
fn a_chunk_pass_cannot_write_a_reference_lane() {
    let mut arena = Arena::new();
    let aim = arena
        .register_component(Schema::new(
            "Aim",
            vec![FieldDef::reference("at", RefPolicy::ClearField), FieldDef::new("weight", FieldType::F64)],
        ))
        .unwrap();
    let (holder, target) =
        (arena.create(Class::Part, "H", None).unwrap(), arena.create(Class::Part, "T", None).unwrap());
    arena.add_component(holder, aim, Some(&[FieldValue::Ref(Some(target)), FieldValue::F64(1.0)])).unwrap();
    let mut q = Query::new(&[aim]);
    let mut chunks = 0;
    arena.for_each_chunk_mut(&mut q, &[], &[Lane { component: aim, lane: 0 }], |mut c| {
        chunks += 1;
        c.write::<u64>(0)[0] = 12345; // would point the field at an id past the reverse index
    });
    assert_eq!(chunks, 0, "the reference lane is not lent for writing");
    assert_eq!(arena.field(holder, aim, "at"), Some(FieldValue::Ref(Some(target))));
    // Reading it and writing the plain lane are fine.
    arena.for_each_chunk_mut(
        &mut q,
        &[Lane { component: aim, lane: 0 }],
        &[Lane { component: aim, lane: 1 }],
        |mut c| {
            assert_eq!(c.read::<u64>(0), &[target.0]);
            c.write::<f64>(0)[0] = 2.0;
        },
    );
    assert_eq!(arena.field(holder, aim, "weight"), Some(FieldValue::F64(2.0)));
    assert_eq!(arena.component_referrers(target).count(), 1);
}

/// Passes over small tables take a fast path only when the table and its written chunks are
/// already private and the pass's log entry supersedes the newest; otherwise (a snapshot
/// shares them, a single-row write was logged since, a table of several chunks) the
/// general path must still copy, stamp and log exactly as before.
#[test]
fn small_table_passes_fall_back_when_shared_or_logged_since() {
    let mut arena = Arena::new();
    let h = arena.register_component(health()).unwrap();
    let hp = arena.components().lane(h, "hp").unwrap();
    let ids: Vec<_> = (0..3).map(|_| arena.create(Class::Part, "P", None).unwrap()).collect();
    for &id in &ids {
        arena.add_component(id, h, None).unwrap();
    }
    let mut q = Query::new(&[h]);
    let bump = |arena: &mut Arena, q: &mut Query| {
        arena.for_each_chunk_mut(q, &[], &[hp], |mut c| c.write::<i32>(0).iter_mut().for_each(|x| *x += 1))
    };
    let hp_of = |arena: &Arena, id| arena.field(id, h, "hp");
    for _ in 0..3 {
        bump(&mut arena, &mut q);
    }
    assert_eq!(hp_of(&arena, ids[0]), Some(FieldValue::I32(3)));
    // Shared with a snapshot: the pass copies, the snapshot keeps its values.
    let snap = arena.snapshot();
    let before = arena.revisions().global;
    bump(&mut arena, &mut q);
    assert_eq!(hp_of(&arena, ids[1]), Some(FieldValue::I32(4)));
    assert_eq!(snap.components().field_by_name(ids[1], h, "hp"), Some(FieldValue::I32(3)));
    assert_eq!(arena.components().changed_since(&mut q, h, before).len(), 3);
    // A single-row write logged since the last pass: the next pass logs the whole table.
    arena.set_field(ids[2], h, "hp", FieldValue::I32(10)).unwrap();
    let before = arena.revisions().global;
    bump(&mut arena, &mut q);
    bump(&mut arena, &mut q);
    assert_eq!(hp_of(&arena, ids[2]), Some(FieldValue::I32(12)));
    assert_eq!(arena.components().changed_since(&mut q, h, before).len(), 3);
    let after = arena.revisions().global;
    assert!(arena.components().changed_since(&mut q, h, after).is_empty());
    drop(snap);
    bump(&mut arena, &mut q);
    assert_eq!(hp_of(&arena, ids[0]), Some(FieldValue::I32(7)));
}

#[test]
fn a_batch_appended_into_chunks_a_snapshot_shares_leaves_the_snapshot_as_it_was() {
    // 13 rows: a partial block; the next batch fills it, crosses chunk boundaries and ends
    // in a partial block, writing each lane once into copies of the shared chunks.
    let mut arena = Arena::new();
    let h = arena.register_pod::<HealthPod>().unwrap();
    let row = |i: usize| (HealthPod { hp: i as i32, regen: -(i as f32) },);
    let first = arena.spawn_batch(Class::Part, "A", None, (0..13).map(row)).unwrap();
    let snap = arena.snapshot();
    let since = arena.revisions().global;
    let second = arena.spawn_batch(Class::Part, "B", None, (13..2 * CHUNK_ROWS + 21).map(row)).unwrap();
    for (i, &id) in first.iter().chain(&second).enumerate() {
        assert_eq!(arena.components().get_pod::<HealthPod>(id), Some(row(i).0), "row {i}");
        assert_eq!(arena.components().row_revision(id, h).map(|r| r > since), Some(i >= 13), "row {i}");
    }
    assert!(
        first.iter().enumerate().all(|(i, &id)| snap.components().get_pod::<HealthPod>(id) == Some(row(i).0))
    );
    assert!(second.iter().all(|&id| !snap.components().has(id, h)));
    let mut q = Query::new(&[h]);
    assert_eq!(arena.components().changed_since(&mut q, h, since), second);
}

#[derive(Clone, Copy, Debug, PartialEq, bytemuck::Pod, bytemuck::Zeroable)]
#[repr(C)]
struct StampPod {
    at: i64,
}

impl PodComponent for StampPod {
    fn schema() -> Schema {
        Schema::new("Stamp", vec![FieldDef::new("at", FieldType::I64)])
    }
}

/// A bundle that is not a tuple: no compile-time size or offsets, so a batch spawn copies
/// its words row by row.
struct Boxed(Box<(StampPod, HealthPod)>);

impl arbor_core::components::PodBundle for Boxed {
    fn type_ids() -> smallvec::SmallVec<[std::any::TypeId; 4]> {
        smallvec::smallvec![std::any::TypeId::of::<StampPod>(), std::any::TypeId::of::<HealthPod>()]
    }
    fn schemas() -> smallvec::SmallVec<[Schema; 4]> {
        smallvec::smallvec![StampPod::schema(), health()]
    }
    fn bytes(&self) -> smallvec::SmallVec<[&[u8]; 4]> {
        smallvec::smallvec![bytemuck::bytes_of(&self.0.0), bytemuck::bytes_of(&self.0.1)]
    }
}

#[test]
fn bundles_without_known_offsets_spawn_the_same_rows_as_tuples() {
    let mut arena = Arena::new();
    arena.register_pod::<HealthPod>().unwrap();
    arena.register_pod::<StampPod>().unwrap();
    let row = |i: usize| (StampPod { at: -(i as i64) << 33 }, HealthPod { hp: i as i32, regen: 0.5 });
    let n = CHUNK_ROWS + 300;
    let boxed = arena.spawn_batch(Class::Part, "B", None, (0..n).map(|i| Boxed(Box::new(row(i))))).unwrap();
    let tuples = arena.spawn_batch(Class::Part, "T", None, (0..n).map(row)).unwrap();
    for (i, (&b, &t)) in boxed.iter().zip(&tuples).enumerate() {
        for id in [b, t] {
            assert_eq!(arena.components().get_pod::<StampPod>(id), Some(row(i).0), "row {i}");
            assert_eq!(arena.components().get_pod::<HealthPod>(id), Some(row(i).1), "row {i}");
        }
    }
}

#[test]
fn a_chunk_the_table_lost_and_regained_has_no_bulk_write() {
    // Two chunks of {Health}, both written by one pass that skips `q`.
    let BulkSetUp { mut arena, h, x, q, written, ids, mut not_x } = bulk_written_around_q(CHUNK_ROWS + 1);
    let pass = arena.revisions().global;
    // The second chunk's only row leaves: the table loses that chunk, then regains it as `q`
    // joins.
    arena.destroy(ids[CHUNK_ROWS]).unwrap();
    arena.remove_component(q, x).unwrap();
    assert_eq!(arena.components().row_revision(q, h), Some(written), "q was never written by the pass");
    assert_eq!(arena.components().row_revision(ids[CHUNK_ROWS - 1], h), Some(pass));
    let changed = arena.components().changed_since(&mut Query::new(&[h]), h, written);
    assert!(!changed.contains(&q) && changed.len() == CHUNK_ROWS);
    // A second pass over both chunks stamps them all again.
    arena.for_each_chunk_mut(&mut not_x, &[], &[Lane { component: h, lane: 0 }], |_| {});
    assert_eq!(arena.components().row_revision(q, h), Some(arena.revisions().global));
}
