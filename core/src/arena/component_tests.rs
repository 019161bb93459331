//! Unit tests of component edits through the arena.

use super::*;
use crate::class::Class;
use crate::components::{FieldDef, Lane, Query};
use crate::{ArenaConfig, ArenaError, GraftPolicy, raw::AncestryQuery};
use glam::Vec3;

fn health() -> Schema {
    Schema::new("Health", vec![FieldDef::new("Value", FieldType::F32), FieldDef::new("Max", FieldType::F32)])
}

fn setup() -> (Arena, ComponentId, ComponentId, ComponentId) {
    let mut arena = Arena::new();
    let h = arena.register_component(health()).unwrap();
    let regen = arena
        .register_component(
            Schema::new("Regen", vec![FieldDef::new("Rate", FieldType::F64)]).requiring("Health"),
        )
        .unwrap();
    let target = arena
        .register_component(Schema::new(
            "Target",
            vec![FieldDef::reference("Who", RefPolicy::ClearField), FieldDef::new("Note", FieldType::String)],
        ))
        .unwrap();
    (arena, h, regen, target)
}

#[derive(Clone, Copy, Debug, PartialEq, bytemuck::Pod, bytemuck::Zeroable)]
#[repr(C)]
struct Velocity {
    v: [f32; 3],
}

impl PodComponent for Velocity {
    fn schema() -> Schema {
        Schema::new("Velocity", vec![FieldDef::new("Value", FieldType::Vector3)])
    }
}

/// A three-float POD component (shared with `spawn_tests`).
#[derive(Clone, Copy, Debug, PartialEq, bytemuck::Pod, bytemuck::Zeroable)]
#[repr(C)]
pub(in crate::arena) struct Position {
    pub(in crate::arena) p: [f32; 3],
}

impl PodComponent for Position {
    fn schema() -> Schema {
        Schema::new("Position", vec![FieldDef::new("Value", FieldType::Vector3)])
    }
}

#[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
#[repr(C)]
struct WrongSize {
    a: f32,
    b: f32,
}

impl PodComponent for WrongSize {
    fn schema() -> Schema {
        Schema::new("WrongSize", vec![FieldDef::new("a", FieldType::F64), FieldDef::new("b", FieldType::F32)])
    }
}

#[test]
fn add_with_requirements_remove_with_dependents() {
    let (mut arena, h, regen, _) = setup();
    let p = arena.create(Class::Part, "P", Some(arena.workspace())).unwrap();
    assert_eq!(arena.add_component(p, regen, Some(&[FieldValue::F64(2.5)])), Ok(true));
    assert!(arena.components().has(p, h), "required component added with defaults");
    assert_eq!(arena.field(p, h, "Value"), Some(FieldValue::F32(0.0)));
    assert_eq!(arena.field(p, regen, "Rate"), Some(FieldValue::F64(2.5)));
    assert_eq!(arena.add_component(p, regen, None), Ok(false));
    assert_eq!(arena.remove_component(p, h), Ok(true));
    assert_eq!(arena.components().components_of(p), &[] as &[ComponentId], "the dependent went too");
    assert_eq!(arena.remove_component(p, h), Ok(false));
}

#[test]
fn bad_values_are_refused_and_change_nothing() {
    let (mut arena, h, _, target) = setup();
    let p = arena.create(Class::Part, "P", None).unwrap();
    let rev = arena.revisions().global;
    assert!(matches!(
        arena.add_component(p, h, Some(&[FieldValue::F32(1.0)])),
        Err(ArenaError::Component(_))
    ));
    assert!(matches!(
        arena.add_component(p, h, Some(&[FieldValue::F32(1.0), FieldValue::I32(1)])),
        Err(ArenaError::Component(SchemaError::TypeMismatch { .. }))
    ));
    let ghost = Id(777);
    assert_eq!(
        arena.add_component(p, target, Some(&[FieldValue::Ref(Some(ghost)), FieldValue::String("x".into())])),
        Err(ArenaError::NotFound(ghost))
    );
    assert_eq!(arena.revisions().global, rev);
    assert!(arena.components().components_of(p).is_empty());
    arena.add_component(p, h, None).unwrap();
    assert!(matches!(arena.set_field(p, h, "Nope", FieldValue::F32(1.0)), Err(ArenaError::Component(_))));
    assert!(matches!(arena.set_field(p, h, "Max", FieldValue::Bool(true)), Err(ArenaError::Component(_))));
    let rev = arena.revisions().global;
    assert_eq!(arena.set_field(p, h, "Max", FieldValue::F32(0.0)), Ok(false), "compare first");
    assert_eq!(arena.revisions().global, rev);
    assert_eq!(arena.set_field(p, h, "Max", FieldValue::F32(100.0)), Ok(true));
    assert_eq!(arena.field(p, h, "Max"), Some(FieldValue::F32(100.0)));
}

#[test]
fn pod_components_round_trip_and_layouts_are_checked() {
    let mut arena = Arena::new();
    let vel = arena.register_pod::<Velocity>().unwrap();
    assert_eq!(arena.register_pod::<WrongSize>(), Err(SchemaError::PodLayout("WrongSize".into())));
    let p = arena.create(Class::Part, "P", None).unwrap();
    arena.insert_pod(p, &(Velocity { v: [1.0, 2.0, 3.0] },)).unwrap();
    assert_eq!(arena.components().get_pod::<Velocity>(p), Some(Velocity { v: [1.0, 2.0, 3.0] }));
    assert_eq!(arena.field(p, vel, "Value"), Some(FieldValue::Vector3(Vec3::new(1.0, 2.0, 3.0))));
    assert!(arena.insert_pod(p, &(Position { p: [0.0; 3] },)).is_err(), "unregistered type");
}

#[test]
fn chunk_passes_write_lanes_and_change_detection_skips_old_chunks() {
    let mut arena = Arena::new();
    let pos = arena.register_pod::<Position>().unwrap();
    let vel = arena.register_pod::<Velocity>().unwrap();
    let n = 3000;
    let ids = arena
        .spawn_batch(
            Class::Part,
            "Bullet",
            None,
            (0..n).map(|i| (Position { p: [i as f32, 0.0, 0.0] }, Velocity { v: [1.0, 2.0, 3.0] })),
        )
        .unwrap();
    let mut q = Query::new(&[pos, vel]);
    let p = arena.components().lane(pos, "Value").unwrap();
    let v = arena.components().lane(vel, "Value").unwrap();
    let before = arena.revisions().global;
    let reads = [v, v.offset(1), v.offset(2)];
    let writes = [p, p.offset(1), p.offset(2)];
    arena.for_each_chunk_mut(&mut q, &reads, &writes, |mut c| {
        for axis in 0..3 {
            let dv: Vec<f32> = c.read::<f32>(axis).to_vec();
            for (x, d) in c.write::<f32>(axis).iter_mut().zip(dv) {
                *x += d;
            }
        }
    });
    assert_eq!(arena.components().get_pod::<Position>(ids[10]), Some(Position { p: [11.0, 2.0, 3.0] }));
    assert_eq!(arena.components().changed_since(&mut q, pos, before).len(), n, "bulk write marks every row");
    assert!(arena.components().changed_since(&mut q, vel, before).is_empty(), "velocity untouched");

    let after = arena.revisions().global;
    arena.set_field(ids[2500], pos, "Value", FieldValue::Vector3(Vec3::ZERO)).unwrap();
    assert_eq!(arena.components().changed_since(&mut q, pos, after), vec![ids[2500]]);
    let mut chunks_changed = 0;
    arena.components().for_each_chunk(&mut q, |c| chunks_changed += c.changed_since(pos, after) as usize);
    assert_eq!(chunks_changed, 1, "only the written chunk is newer");
}

#[test]
fn parallel_chunk_pass_matches_sequential() {
    let mut arena = Arena::new();
    let pos = arena.register_pod::<Position>().unwrap();
    let ids = arena
        .spawn_batch(Class::Part, "P", None, (0..5000).map(|i| (Position { p: [i as f32; 3] },)))
        .unwrap();
    let lane = arena.components().lane(pos, "Value").unwrap();
    let mut q = Query::new(&[pos]);
    arena.par_for_each_chunk_mut(&mut q, &[], &[lane], |mut c| {
        c.write::<f32>(0).iter_mut().for_each(|x| *x *= 2.0)
    });
    for (i, id) in ids.iter().enumerate() {
        assert_eq!(arena.components().get_pod::<Position>(*id).unwrap().p[0], 2.0 * i as f32);
    }
}

/// 1,500 Parts holding Health (two f32 lanes) and Regen (one f64 lane), Rate = row index.
fn mixed_width_rows() -> (Arena, ComponentId, ComponentId, Vec<Id>) {
    let (mut arena, h, regen, _) = setup();
    let ids: Vec<Id> = (0..1500)
        .map(|i| {
            let id = arena.create(Class::Part, "P", None).unwrap();
            arena.add_component(id, regen, Some(&[FieldValue::F64(i as f64)])).unwrap();
            id
        })
        .collect();
    (arena, h, regen, ids)
}

#[test]
fn parallel_pass_splits_chunks_by_rows_across_lane_widths() {
    let (mut arena, h, regen, ids) = mixed_width_rows();
    let rate = arena.components().lane(regen, "Rate").unwrap();
    let value = arena.components().lane(h, "Value").unwrap();
    let mut q = Query::new(&[h, regen]);
    // Each row's f32 Value becomes its f64 Rate + 1, and the Rate is doubled in place, so
    // a piece whose 64-bit lane were cut at the 32-bit boundary would pair wrong rows.
    arena.par_for_each_chunk_mut(&mut q, &[], &[value, rate], |mut c| {
        let rates: Vec<f64> = c.write::<f64>(1).to_vec();
        for (v, r) in c.write::<f32>(0).iter_mut().zip(&rates) {
            *v = *r as f32 + 1.0;
        }
        c.write::<f64>(1).iter_mut().for_each(|r| *r *= 2.0);
    });
    for (i, &id) in ids.iter().enumerate() {
        assert_eq!(arena.field(id, h, "Value"), Some(FieldValue::F32(i as f32 + 1.0)), "row {i}");
        assert_eq!(arena.field(id, regen, "Rate"), Some(FieldValue::F64(2.0 * i as f64)), "row {i}");
    }
}

#[test]
fn halving_a_chunk_keeps_every_row_once_in_order() {
    let (mut arena, h, regen, ids) = mixed_width_rows();
    let rate = arena.components().lane(regen, "Rate").unwrap();
    let value = arena.components().lane(h, "Value").unwrap();
    let mut q = Query::new(&[h, regen]);
    let mut seen = Vec::new();
    let mut pieces = 0;
    // Read lane 0 (Rate) is 64-bit, written lane 0 (Value) 32-bit.
    let wide = Some(crate::components::WideLanes { reads: 0b1, writes: 0 });
    arena.for_each_chunk_mut(&mut q, &[rate], &[value], |c| {
        let mut todo = vec![c];
        while let Some(c) = todo.pop() {
            match c.halve(wide) {
                (front, Some(back)) => {
                    assert_eq!(front.len() % 8, 0, "pieces end on a block boundary");
                    todo.extend([back, front]);
                }
                (mut piece, None) => {
                    assert!(piece.len() < 128, "a piece of 128 rows or more splits");
                    pieces += 1;
                    let rates: Vec<f64> = piece.read::<f64>(0).to_vec();
                    let owners = piece.ids();
                    for (v, r) in piece.write::<f32>(0).iter_mut().zip(&rates) {
                        *v = *r as f32;
                    }
                    seen.extend(owners.iter().copied().zip(rates));
                }
            }
        }
    });
    assert!(pieces >= 16, "1,500 rows split into pieces under 128 rows: {pieces}");
    let expected: Vec<(Id, f64)> = ids.iter().enumerate().map(|(i, &id)| (id, i as f64)).collect();
    assert_eq!(seen, expected);
    for (i, &id) in ids.iter().enumerate() {
        assert_eq!(arena.field(id, h, "Value"), Some(FieldValue::F32(i as f32)));
    }
}

#[test]
fn queries_pick_up_new_tables_and_filter_without() {
    let (mut arena, h, regen, target) = setup();
    let a = arena.create(Class::Part, "A", None).unwrap();
    arena.add_component(a, h, None).unwrap();
    let mut q = Query::new(&[h]).without(&[regen]);
    assert_eq!(arena.components().ids(&mut q), vec![a]);
    let b = arena.create(Class::Part, "B", None).unwrap();
    arena.add_component(b, target, None).unwrap();
    arena.add_component(b, h, None).unwrap();
    let c = arena.create(Class::Part, "C", None).unwrap();
    arena.add_component(c, regen, None).unwrap();
    assert_eq!(arena.components().ids(&mut q), vec![a, b]);
}

#[test]
fn snapshot_keeps_component_values_and_a_write_copies_one_chunk() {
    let mut arena = Arena::new();
    let pos = arena.register_pod::<Position>().unwrap();
    let ids = arena
        .spawn_batch(Class::Part, "P", None, (0..4000).map(|i| (Position { p: [i as f32; 3] },)))
        .unwrap();
    let snap = arena.snapshot();
    arena.set_field(ids[5], pos, "Value", FieldValue::Vector3(Vec3::splat(-1.0))).unwrap();
    assert_eq!(snap.components().get_pod::<Position>(ids[5]).unwrap().p, [5.0; 3]);
    assert_eq!(arena.components().get_pod::<Position>(ids[5]).unwrap().p, [-1.0; 3]);
    let (old, new) = (&snap.components().tables[0], &arena.components().tables[0]);
    let chunks = old.chunks.len();
    let shared = (0..chunks).filter(|&k| old.chunks.shares(&new.chunks, k)).count();
    assert_eq!((chunks, shared), (4, 3), "one table chunk copied");
    let diff = snap.diff(&arena.snapshot());
    assert_eq!(diff.components.written, vec![(ids[5], pos)]);
}

#[test]
fn destroying_a_target_applies_each_reference_policy() {
    let mut arena = Arena::new();
    let ws = arena.workspace();
    let h = arena.register_component(health()).unwrap();
    let clear = arena
        .register_component(Schema::new("Aim", vec![FieldDef::reference("At", RefPolicy::ClearField)]))
        .unwrap();
    let remove = arena
        .register_component(Schema::new("Leash", vec![FieldDef::reference("To", RefPolicy::RemoveComponent)]))
        .unwrap();
    let dependent = arena
        .register_component(
            Schema::new("LeashFx", vec![FieldDef::new("Glow", FieldType::Bool)]).requiring("Leash"),
        )
        .unwrap();
    let doom = arena
        .register_component(Schema::new("Tether", vec![FieldDef::reference("To", RefPolicy::DestroyHolder)]))
        .unwrap();
    let boss = arena.create(Class::Model, "Boss", Some(ws)).unwrap();
    arena.add_component(boss, h, None).unwrap();
    let (a, b, c) = (
        arena.create(Class::Part, "A", Some(ws)).unwrap(),
        arena.create(Class::Part, "B", Some(ws)).unwrap(),
        arena.create(Class::Part, "C", Some(ws)).unwrap(),
    );
    arena.add_component(a, clear, Some(&[FieldValue::Ref(Some(boss))])).unwrap();
    arena.add_component(b, dependent, None).unwrap();
    arena.set_field(b, remove, "To", FieldValue::Ref(Some(boss))).unwrap();
    arena.add_component(c, doom, Some(&[FieldValue::Ref(Some(boss))])).unwrap();
    assert_eq!(arena.component_referrers(boss).count(), 3);
    arena.destroy(boss).unwrap();
    assert!(!arena.components().has(boss, h), "destroyed instances lose their rows");
    assert_eq!(arena.field(a, clear, "At"), Some(FieldValue::Ref(None)));
    assert!(arena.components().components_of(b).is_empty(), "component and its dependent removed");
    assert!(arena.get(c).is_none(), "holder destroyed");
    assert_eq!(arena.component_referrers(boss).count(), 0);
}

#[test]
fn clone_copies_rows_and_remaps_internal_references() {
    let (mut arena, h, _, target) = setup();
    let ws = arena.workspace();
    let outside = arena.create(Class::Part, "Outside", Some(ws)).unwrap();
    let m = arena.create(Class::Model, "M", Some(ws)).unwrap();
    let a = arena.create(Class::Part, "A", Some(m)).unwrap();
    let b = arena.create(Class::Part, "B", Some(m)).unwrap();
    arena
        .add_component(a, target, Some(&[FieldValue::Ref(Some(b)), FieldValue::String("in".into())]))
        .unwrap();
    arena
        .add_component(b, target, Some(&[FieldValue::Ref(Some(outside)), FieldValue::String("out".into())]))
        .unwrap();
    arena.add_component(b, h, Some(&[FieldValue::F32(5.0), FieldValue::F32(9.0)])).unwrap();
    let copy = arena.clone_subtree(m).unwrap().unwrap();
    let kids: Vec<Id> = arena.children(copy).collect();
    assert_eq!(arena.field(kids[0], target, "Who"), Some(FieldValue::Ref(Some(kids[1]))));
    assert_eq!(arena.field(kids[0], target, "Note"), Some(FieldValue::String("in".into())));
    assert_eq!(arena.field(kids[1], target, "Who"), Some(FieldValue::Ref(Some(outside))));
    assert_eq!(arena.field(kids[1], h, "Max"), Some(FieldValue::F32(9.0)));
    assert_eq!(arena.component_referrers(outside).count(), 2);
}

#[test]
fn graft_adopts_schemas_refuses_conflicts_and_external_component_refs() {
    let (mut src, h, _, target) = setup();
    let sws = src.workspace();
    let far = src.create(Class::Part, "Far", Some(sws)).unwrap();
    let m = src.create(Class::Model, "M", Some(sws)).unwrap();
    let a = src.create(Class::Part, "A", Some(m)).unwrap();
    src.add_component(a, h, Some(&[FieldValue::F32(1.0), FieldValue::F32(2.0)])).unwrap();
    src.add_component(m, target, Some(&[FieldValue::Ref(Some(far)), FieldValue::String("x".into())]))
        .unwrap();
    let snap = src.snapshot();

    let mut dst = Arena::new();
    let dws = dst.workspace();
    assert_eq!(
        dst.graft(&snap, m, Some(dws), GraftPolicy::Refuse),
        Err(ArenaError::ExternalReference { holder: m, target: far })
    );
    let g = dst.graft(&snap, m, Some(dws), GraftPolicy::Clear).unwrap().unwrap();
    let dh = dst.components().component("Health").unwrap();
    let dt = dst.components().component("Target").unwrap();
    let ga = dst.children(g).next().unwrap();
    assert_eq!(dst.field(ga, dh, "Max"), Some(FieldValue::F32(2.0)));
    assert_eq!(dst.field(g, dt, "Who"), Some(FieldValue::Ref(None)));

    let mut clash = Arena::new();
    clash.register_component(Schema::new("Health", vec![FieldDef::new("Value", FieldType::I64)])).unwrap();
    let before = clash.len();
    assert!(matches!(clash.graft(&snap, m, None, GraftPolicy::Clear), Err(ArenaError::Component(_))));
    assert_eq!(clash.len(), before);
}

#[test]
fn ancestry_queries_recheck_when_topology_moves() {
    let (mut arena, h, _, _) = setup();
    let ws = arena.workspace();
    let inside = arena.create(Class::Part, "In", Some(ws)).unwrap();
    let outside = arena.create(Class::Part, "Out", None).unwrap();
    arena.add_component(inside, h, None).unwrap();
    arena.add_component(outside, h, None).unwrap();
    let mut q = AncestryQuery::new(Query::new(&[h]), ws);
    assert_eq!(arena.query_under(&mut q), &[inside]);
    arena.set_parent(outside, Some(ws)).unwrap();
    assert_eq!(arena.query_under(&mut q), &[inside, outside]);
    arena.set_parent(inside, None).unwrap();
    assert_eq!(arena.query_under(&mut q), &[outside]);
    let folder = arena.create(Class::Folder, "F", Some(ws)).unwrap();
    let mut under_folder = AncestryQuery::new(Query::new(&[h]), folder);
    assert!(arena.query_under(&mut under_folder).is_empty());
    arena.set_parent(outside, Some(folder)).unwrap();
    assert_eq!(arena.query_under(&mut under_folder), &[outside]);
    let _ = Lane { component: h, lane: 0 };
}

#[test]
fn changed_since_is_exact_across_row_groups_and_row_moves() {
    let mut arena = Arena::new();
    let pos = arena.register_pod::<Position>().unwrap();
    let vel = arena.register_pod::<Velocity>().unwrap();
    let ids = arena
        .spawn_batch(Class::Part, "P", None, (0..3000).map(|i| (Position { p: [i as f32; 3] },)))
        .unwrap();
    let mut q = Query::new(&[pos]);
    let since = arena.revisions().global;
    // Rows in different 64-row groups and chunks, one at a group's last row.
    let written = [5, 63, 64, 1500, 2999];
    for &r in &written {
        arena.set_field(ids[r], pos, "Value", FieldValue::Vector3(Vec3::splat(-1.0))).unwrap();
    }
    let sorted = |mut v: Vec<Id>| {
        v.sort();
        v
    };
    let expected = sorted(written.iter().map(|&r| ids[r]).collect());
    assert_eq!(sorted(arena.components().changed_since(&mut q, pos, since)), expected);
    // Moving rows between tables keeps their Position ticks, and the rows swapped into the
    // holes (from the end of the table, into older groups) are not reported as written.
    arena.add_component(ids[100], vel, None).unwrap();
    arena.remove_component(ids[100], vel).unwrap();
    arena.add_component(ids[0], vel, None).unwrap();
    assert_eq!(sorted(arena.components().changed_since(&mut q, pos, since)), expected);
    assert_eq!(arena.components().changed_since(&mut Query::new(&[vel]), vel, since), vec![ids[0]]);
    let diff = arena.snapshot().diff(&arena.snapshot());
    assert!(diff.components.written.is_empty());
}

/// Whether `id`'s table would answer `changed_since(c, since)` from its write log.
fn log_may_answer(store: &ComponentStore, id: Id, c: ComponentId, since: u64) -> bool {
    let table = &store.tables[store.loc(id).unwrap().table as usize];
    table.log_may_answer(table.slot(c).unwrap(), since)
}

#[test]
fn changed_since_answers_from_the_write_log_until_it_overflows_then_scans() {
    let mut arena =
        Arena::with_config(ArenaConfig { component_write_log_capacity: 8, ..ArenaConfig::default() });
    let pos = arena.register_pod::<Position>().unwrap();
    let vel = arena.register_pod::<Velocity>().unwrap();
    let ids = arena
        .spawn_batch(Class::Part, "P", None, (0..3000).map(|i| (Position { p: [i as f32; 3] },)))
        .unwrap();
    let mut q = Query::new(&[pos]);
    let write = |arena: &mut Arena, rows: &[usize], x: f32| {
        for &r in rows {
            arena.set_field(ids[r], pos, "Value", FieldValue::Vector3(Vec3::splat(x))).unwrap();
        }
    };
    let sorted = |mut v: Vec<Id>| {
        v.sort();
        v
    };
    let of = |rows: &[usize]| sorted(rows.iter().map(|&r| ids[r]).collect::<Vec<_>>());
    let since = arena.revisions().global;
    write(&mut arena, &[2999, 7, 1500, 7], -1.0);
    assert!(log_may_answer(arena.components(), ids[0], pos, since));
    assert_eq!(arena.components().changed_since(&mut q, pos, since), of(&[7, 1500, 2999]), "row order, once");
    let snap = arena.snapshot();
    let more: Vec<usize> = (100..120).collect();
    write(&mut arena, &more, -2.0);
    assert!(!log_may_answer(arena.components(), ids[0], pos, since), "overflowed");
    let all: Vec<usize> = [7, 1500, 2999].into_iter().chain(more.iter().copied()).collect();
    assert_eq!(arena.components().changed_since(&mut q, pos, since), of(&all), "the scan answers");
    assert!(log_may_answer(snap.components(), ids[0], pos, since), "the snapshot keeps its log");
    assert_eq!(snap.components().changed_since(&mut q, pos, since), of(&[7, 1500, 2999]));
    // A chunk pass logs the whole table: too many rows for the log, so the scan answers.
    let before_pass = arena.revisions().global;
    let x = Lane { component: pos, lane: 0 };
    arena.for_each_chunk_mut(&mut q, &[], &[x], |mut c| c.write::<f32>(0).fill(3.0));
    assert!(!log_may_answer(arena.components(), ids[0], pos, before_pass));
    assert_eq!(arena.components().changed_since(&mut q, pos, before_pass).len(), 3000);
    // After it, the log answers again, across a row leaving the table (its Position write
    // travels with it) and the last row filling its place.
    let since = arena.revisions().global;
    write(&mut arena, &[10, 2999], -3.0);
    arena.add_component(ids[10], vel, None).unwrap();
    assert!(log_may_answer(arena.components(), ids[0], pos, since));
    assert_eq!(arena.components().changed_since(&mut q, pos, since), vec![ids[2999], ids[10]]);
}

#[derive(Clone, Copy, Debug, PartialEq, bytemuck::Pod, bytemuck::Zeroable)]
#[repr(C)]
struct Mass {
    kg: f64,
    id: i64,
}

impl PodComponent for Mass {
    fn schema() -> Schema {
        Schema::new("Mass", vec![FieldDef::new("Kg", FieldType::F64), FieldDef::new("Tag", FieldType::I64)])
    }
}

#[test]
fn batches_appended_mid_chunk_keep_every_lane_and_log_their_rows() {
    let mut arena = Arena::new();
    let vel = arena.register_pod::<Velocity>().unwrap();
    arena.register_pod::<Mass>().unwrap();
    let row =
        |i: usize| (Mass { kg: i as f64 * 0.5, id: -(i as i64) }, Velocity { v: [i as f32, 1.0, -2.0] });
    let first = arena.spawn_batch(Class::Part, "A", None, (0..700).map(row)).unwrap();
    let since = arena.revisions().global;
    let second = arena.spawn_batch(Class::Part, "B", None, (700..3100).map(row)).unwrap();
    for (i, &id) in first.iter().chain(&second).enumerate() {
        assert_eq!(arena.components().get_pod::<Mass>(id), Some(row(i).0), "row {i}");
        assert_eq!(arena.components().get_pod::<Velocity>(id), Some(row(i).1), "row {i}");
    }
    let mut q = Query::new(&[vel]);
    assert_eq!(arena.components().changed_since(&mut q, vel, since), second);
}

#[test]
fn chunk_passes_hand_out_lanes_in_request_order() {
    let mut arena = Arena::new();
    let vel = arena.register_pod::<Velocity>().unwrap();
    let ids = arena
        .spawn_batch(Class::Part, "V", None, (0..1100).map(|i| (Velocity { v: [i as f32, 10.0, 20.0] },)))
        .unwrap();
    let x = arena.components().lane(vel, "Value").unwrap();
    let mut q = Query::new(&[vel]);
    // Written z then x (against column order), read y.
    arena.for_each_chunk_mut(&mut q, &[x.offset(1)], &[x.offset(2), x], |mut c| {
        let y: Vec<f32> = c.read::<f32>(0).to_vec();
        let (_, mut writes) = c.split::<f32>();
        for (r, &y) in y.iter().enumerate() {
            writes[0][r] += y; // z += y
            writes[1][r] = -writes[1][r]; // x = -x
        }
    });
    for (i, &id) in ids.iter().enumerate() {
        assert_eq!(
            arena.components().get_pod::<Velocity>(id),
            Some(Velocity { v: [-(i as f32), 10.0, 30.0] })
        );
    }
}

#[test]
fn planned_passes_copy_shared_chunks_stamp_every_chunk_and_skip_tables_past_a_snapshot() {
    let mut arena = Arena::new();
    let pos = arena.register_pod::<Position>().unwrap();
    let vel = arena.register_pod::<Velocity>().unwrap();
    let big = arena
        .spawn_batch(Class::Part, "P", None, (0..2500).map(|i| (Position { p: [i as f32; 3] },)))
        .unwrap();
    let old = arena.components.clone();
    let snap = arena.snapshot();
    let x = arena.components().lane(pos, "Value").unwrap();
    let mut q = Query::new(&[pos]);
    // One written lane (a fixed shape), then two written lanes of two components (run-time counts).
    let before = arena.revisions().global;
    arena.for_each_chunk_mut(&mut q, &[], &[x], |mut c| c.write::<f32>(0).iter_mut().for_each(|v| *v += 1.0));
    assert_eq!(arena.components().get_pod::<Position>(big[2400]).unwrap().p, [2401.0, 2400.0, 2400.0]);
    assert_eq!(snap.components().get_pod::<Position>(big[2400]).unwrap().p, [2400.0; 3], "snapshot kept");
    let (was, now) = (&old.tables[0], &arena.components.tables[0]);
    let y = now.columns[now.slots[0].first_lane + 1];
    // A table chunk holds every lane: each written chunk was copied whole, y's words with it.
    assert!((0..3).all(|k| !was.chunks.shares(&now.chunks, k)), "every chunk copied");
    let words = |t: &crate::components::Table, k: usize| {
        bytemuck::cast_slice::<_, u32>(t.chunks[k].blocks(y, 64)).to_vec()
    };
    assert!((0..3).all(|k| words(was, k) == words(now, k)), "y untouched");
    assert_eq!(arena.components().changed_since(&mut q, pos, before).len(), 2500);
    let both = arena.spawn_batch(
        Class::Part,
        "B",
        None,
        (0..3).map(|_| (Position { p: [0.0; 3] }, Velocity { v: [1.0; 3] })),
    );
    let both = both.unwrap();
    let v = arena.components().lane(vel, "Value").unwrap();
    let mut q2 = Query::new(&[pos, vel]);
    arena.for_each_chunk_mut(&mut q2, &[], &[x.offset(2), v], |mut c| {
        c.write::<f32>(0).fill(5.0);
        c.write::<f32>(1).fill(6.0);
    });
    assert_eq!(arena.components().get_pod::<Position>(both[1]).unwrap().p, [0.0, 0.0, 5.0]);
    assert_eq!(arena.components().get_pod::<Velocity>(both[1]).unwrap().v, [6.0, 1.0, 1.0]);
    // A store from before the second table: the query's plans past its tables are skipped.
    let mut rows = 0;
    arena.for_each_chunk_mut(&mut q, &[], &[x], |c| rows += c.len());
    assert_eq!(rows, 2503);
    let mut older = old;
    older.for_each_chunk_mut(&mut q, &[], &[x], 99, |mut c| {
        rows += c.len();
        c.write::<f32>(0).iter_mut().for_each(|v| *v += 1.0);
    });
    assert_eq!(rows, 2503 + 2500);
    assert_eq!(older.get_pod::<Position>(big[7]).unwrap().p, [8.0, 7.0, 7.0], "only its own copy written");
    assert_eq!(snap.components().get_pod::<Position>(big[7]).unwrap().p, [7.0; 3]);
}
