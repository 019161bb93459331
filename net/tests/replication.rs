//! Replication end to end without sockets: a server arena, its mirror and one client view,
//! joined to a replica by a pipe that can lose snapshots and acks.

mod common;

use arbor_core::{Arena, AttributeValue, Class, Id};
use arbor_net::Groups;
use common::{Pipe, replicated};
use glam::Vec3;
use proptest::prelude::*;

fn place(parts: usize) -> (Arena, Vec<Id>) {
    let mut arena = Arena::new();
    let ws = arena.workspace();
    let folder = arena.create(Class::Folder, "Stuff", Some(ws)).unwrap();
    let model = arena.create(Class::Model, "Car", Some(ws)).unwrap();
    let mut ids = vec![folder, model];
    for i in 0..parts {
        let parent = if i % 2 == 0 { folder } else { model };
        let p = arena.create(Class::Part, &format!("P{i}"), Some(parent)).unwrap();
        arena.set_position(p, Vec3::new(i as f32 * 3.0, 1.0, (i % 7) as f32)).unwrap();
        ids.push(p);
    }
    arena.create(Class::Script, "ServerOnly", Some(ws)).unwrap();
    (arena, ids)
}

#[test]
fn a_join_converges_to_the_servers_hash_and_skips_scripts() {
    let (arena, _) = place(300);
    let mut pipe = Pipe::new(arena, 1e6);
    pipe.converge(200);
    assert_eq!(pipe.replica.world_hash(), pipe.truth_hash());
    assert_eq!(pipe.replica.len(), replicated(&pipe.arena).len());
    assert!(
        pipe.replica.arena().find_first_descendant(pipe.replica.arena().workspace(), "ServerOnly").is_none()
    );
    assert!(pipe.replica.stats().hash_checks > 0);
    assert_eq!(pipe.replica.stats().hash_mismatches, 0);
    assert_eq!(pipe.replica.stats().apply_errors, 0);
}

#[test]
fn moves_reparents_attributes_destroys_and_clones_replicate() {
    let (arena, ids) = place(40);
    let mut pipe = Pipe::new(arena, 1e6);
    pipe.converge(100);
    let a = &mut pipe.arena;
    a.set_position(ids[5], Vec3::new(9.0, 8.0, 7.0)).unwrap();
    a.set_parent(ids[6], Some(ids[0])).unwrap();
    a.set_attribute(ids[7], "Gold", Some(AttributeValue::Number(3.5))).unwrap();
    a.set_name(ids[1], "Truck").unwrap();
    a.destroy(ids[8]).unwrap();
    let copy = a.clone_subtree(ids[1]).unwrap().unwrap();
    a.set_parent(copy, Some(a.workspace())).unwrap();
    pipe.converge(100);
    assert_eq!(pipe.replica.world_hash(), pipe.truth_hash());
    let r = pipe.replica.arena();
    assert_eq!(r.get(ids[5]).unwrap().position(), Vec3::new(9.0, 8.0, 7.0));
    assert_eq!(r.get(ids[6]).unwrap().parent(), Some(ids[0]));
    assert!(r.get(ids[8]).is_none());
    assert_eq!(r.get(copy).map(|n| n.class()), Some(Class::Model));
    assert_eq!(r.name_of(ids[1]), Some("Truck"));
}

#[test]
fn a_client_losing_thirty_percent_of_snapshots_converges() {
    let (arena, ids) = place(200);
    let mut pipe = Pipe::new(arena, 1e6);
    pipe.loss = 0.3;
    pipe.ack_loss = 0.1;
    for t in 0..60 {
        for (k, &id) in ids.iter().enumerate().skip(2).step_by(9) {
            pipe.arena.set_position(id, Vec3::new(t as f32, k as f32, 0.5)).unwrap();
        }
        pipe.step();
    }
    pipe.converge(200);
    assert_eq!(pipe.replica.world_hash(), pipe.truth_hash());
    assert_eq!(pipe.replica.stats().hash_mismatches, 0);
}

#[test]
fn a_client_that_stopped_acking_gets_full_state_and_converges() {
    let (arena, ids) = place(50);
    let mut pipe = Pipe::new(arena, 1e6);
    pipe.converge(100);
    pipe.silent = true;
    for t in 0..(arbor_net::HISTORY_EPOCHS as usize + 10) {
        pipe.arena.set_position(ids[3], Vec3::new(t as f32, 0.0, 0.0)).unwrap();
        pipe.step();
    }
    assert!(pipe.view.stats().resyncs >= 1);
    pipe.silent = false;
    pipe.converge(100);
    assert_eq!(pipe.replica.world_hash(), pipe.truth_hash());
}

#[test]
fn a_deleted_instance_never_reappears_even_from_late_packets() {
    let (arena, ids) = place(10);
    let mut pipe = Pipe::new(arena, 1e6);
    pipe.converge(100);
    // Capture a message that names the part, hold it back, then destroy the part.
    pipe.arena.set_position(ids[4], Vec3::splat(5.0)).unwrap();
    let dirty = pipe.arena.take_dirty_transforms();
    pipe.transforms.update(&pipe.arena, &dirty, arbor_sim::transform::PassMode::default());
    let world = |_| Vec3::ZERO;
    pipe.mirror.capture(&pipe.arena, &world);
    pipe.view.update(&pipe.arena, &pipe.mirror);
    let late = pipe.view.build(&pipe.mirror, 4096, 2);
    pipe.arena.destroy(ids[4]).unwrap();
    pipe.converge(100);
    assert!(pipe.replica.arena().get(ids[4]).is_none());
    for m in late {
        pipe.replica.apply(&m).unwrap();
    }
    assert!(pipe.replica.arena().get(ids[4]).is_none(), "a late message brought it back");
    assert!(pipe.replica.state(ids[4]).is_none());
}

#[test]
fn streaming_range_creates_and_deletes_for_this_client() {
    let mut arena = Arena::new();
    let ws = arena.workspace();
    let near = arena.create(Class::Part, "Near", Some(ws)).unwrap();
    let far = arena.create(Class::Part, "Far", Some(ws)).unwrap();
    let child = arena.create(Class::Part, "Child", Some(far)).unwrap();
    arena.set_position(far, Vec3::new(5_000.0, 0.0, 0.0)).unwrap();
    let mut pipe = Pipe::new(arena, 1024.0);
    pipe.converge(50);
    let r = pipe.replica.arena();
    assert!(r.get(near).is_some());
    assert!(r.get(far).is_none() && r.get(child).is_none());

    // The far part walks into range, with its child: created, parent first.
    pipe.arena.set_position(far, Vec3::new(100.0, 0.0, 0.0)).unwrap();
    pipe.converge(50);
    assert_eq!(pipe.replica.arena().get(child).unwrap().parent(), Some(far));
    assert_eq!(pipe.replica.world_hash(), pipe.truth_hash());

    // The client's focus moves away: both leave its replica, not the server.
    pipe.view.set_focus(Vec3::new(-10_000.0, 0.0, 0.0));
    pipe.converge(50);
    assert!(pipe.replica.arena().get(far).is_none() && pipe.replica.arena().get(near).is_none());
    assert!(pipe.arena.get(far).is_some());

    // And back: the same ids are created again.
    pipe.view.set_focus(Vec3::ZERO);
    pipe.converge(50);
    assert!(pipe.replica.arena().get(child).is_some());
    assert_eq!(pipe.replica.world_hash(), pipe.truth_hash());
}

#[test]
fn a_focus_walking_to_and_fro_across_the_range_edge_does_not_churn_units() {
    let mut arena = Arena::new();
    let ws = arena.workspace();
    let part = arena.create(Class::Part, "Edge", Some(ws)).unwrap();
    arena.set_position(part, Vec3::new(1000.0, 0.0, 0.0)).unwrap();
    let mut pipe = Pipe::new(arena, 512.0);
    // The focus walks to within range of the part: it enters.
    pipe.view.set_focus(Vec3::new(480.0, 0.0, 0.0));
    pipe.converge(50);
    assert!(pipe.replica.state(part).is_some());
    let removes = pipe.view.stats().removes;
    // To and fro across the radius, inside the hysteresis: it stays, nothing is removed.
    for x in [430.0, 480.0, 420.0, 470.0, 425.0] {
        pipe.view.set_focus(Vec3::new(x, 0.0, 0.0));
        pipe.converge(50);
        assert!(pipe.view.holds(part) && pipe.replica.state(part).is_some(), "focus at x = {x}");
    }
    assert_eq!(pipe.view.stats().removes, removes);
    // Past the radius plus the hysteresis it leaves; within the radius it comes back.
    let beyond = 1000.0 - 512.0 - arbor_net::STREAMING_HYSTERESIS - 2.0 * arbor_net::INTEREST_CELL_SIZE;
    pipe.view.set_focus(Vec3::new(beyond, 0.0, 0.0));
    pipe.converge(50);
    assert!(!pipe.view.holds(part) && pipe.replica.state(part).is_none());
    pipe.view.set_focus(Vec3::new(480.0, 0.0, 0.0));
    pipe.converge(50);
    assert!(pipe.replica.state(part).is_some());
    assert_eq!(pipe.replica.world_hash(), pipe.truth_hash());
}

#[test]
fn a_join_streams_nearest_first_under_the_budget() {
    let mut arena = Arena::new();
    let ws = arena.workspace();
    let mut parts = Vec::new();
    for i in 0..2_000 {
        let p = arena.create(Class::Part, "P", Some(ws)).unwrap();
        arena.set_position(p, Vec3::new((i % 40) as f32 * 20.0, 0.0, (i / 40) as f32 * 20.0)).unwrap();
        parts.push(p);
    }
    let mut pipe = Pipe::new(arena, 1e6);
    pipe.budget = 2048;
    pipe.step();
    let first = pipe.replica.len();
    assert!(first > 10 && first < 400, "{first} instances in the first tick");
    assert!(pipe.sent_bytes <= 2048 + arbor_net::MAX_MESSAGE_BYTES);
    // What came first is near the focus at the origin.
    let got: Vec<f32> = parts
        .iter()
        .filter(|&&p| pipe.replica.state(p).is_some())
        .map(|&p| pipe.arena.get(p).unwrap().position().length())
        .collect();
    let mean = got.iter().sum::<f32>() / got.len() as f32;
    assert!(mean < 300.0, "mean distance of the first parts: {mean}");
    pipe.converge(400);
    assert_eq!(pipe.replica.world_hash(), pipe.truth_hash());
}

#[test]
fn an_update_carries_only_the_changed_groups() {
    let (arena, ids) = place(4);
    let mut pipe = Pipe::new(arena, 1e6);
    pipe.converge(50);
    pipe.arena.set_position(ids[2], Vec3::new(1.0, 2.0, 3.0)).unwrap();
    let dirty = pipe.arena.take_dirty_transforms();
    pipe.transforms.update(&pipe.arena, &dirty, arbor_sim::transform::PassMode::default());
    let world = |_| Vec3::ZERO;
    pipe.mirror.capture(&pipe.arena, &world);
    pipe.view.update(&pipe.arena, &pipe.mirror);
    let msgs = pipe.view.build(&pipe.mirror, 4096, 2);
    let snap = arbor_net::SnapshotMessage::decode(&msgs[0]).unwrap();
    assert_eq!(snap.entries.len(), 1);
    assert_eq!(snap.entries[0].groups, Groups::POSITION);
    // id delta, mask, 3 coordinates (after 6 bytes of header and 8 of entries hash)
    let entry_bytes = msgs[0].len() - 16;
    assert!(entry_bytes <= 10, "{entry_bytes} bytes for one moved part");
}

#[derive(Clone, Debug)]
enum Edit {
    Move(usize, f32, f32),
    Reparent(usize, usize),
    Rename(usize),
    Attribute(usize, f64),
    Destroy(usize),
    Create(usize),
    Clone(usize),
    Detach(usize),
    Component(usize, f32),
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        4 => (0..64usize, -3000.0f32..3000.0, -3000.0f32..3000.0).prop_map(|(i, x, z)| Edit::Move(i, x, z)),
        2 => (0..64usize, 0..64usize).prop_map(|(i, j)| Edit::Reparent(i, j)),
        1 => (0..64usize).prop_map(Edit::Rename),
        1 => (0..64usize, -10.0f64..10.0).prop_map(|(i, v)| Edit::Attribute(i, v)),
        1 => (0..64usize).prop_map(Edit::Destroy),
        2 => (0..64usize).prop_map(Edit::Create),
        1 => (0..64usize).prop_map(Edit::Clone),
        1 => (0..64usize).prop_map(Edit::Detach),
        2 => (0..64usize, -5.0f32..5.0).prop_map(|(i, v)| Edit::Component(i, v)),
    ]
}

fn apply(arena: &mut Arena, ids: &mut Vec<Id>, e: &Edit) {
    let pick = |ids: &Vec<Id>, i: usize| ids[i % ids.len()];
    let _ = match *e {
        Edit::Move(i, x, z) => arena.set_position(pick(ids, i), Vec3::new(x, 1.0, z)).map(|_| ()),
        Edit::Reparent(i, j) => arena.set_parent(pick(ids, i), Some(pick(ids, j))).map(|_| ()),
        Edit::Rename(i) => arena.set_name(pick(ids, i), "Renamed").map(|_| ()),
        Edit::Attribute(i, v) => {
            arena.set_attribute(pick(ids, i), "V", Some(AttributeValue::Number(v))).map(|_| ())
        }
        Edit::Destroy(i) => arena.destroy(pick(ids, i)).map(|_| ()),
        Edit::Create(i) => {
            let class = if i % 3 == 0 { Class::Folder } else { Class::Part };
            arena.create(class, "New", Some(pick(ids, i))).map(|id| ids.push(id))
        }
        Edit::Clone(i) => match arena.clone_subtree(pick(ids, i)) {
            Ok(Some(c)) => arena.set_parent(c, Some(arena.workspace())).map(|_| ids.push(c)),
            _ => Ok(()),
        },
        Edit::Detach(i) => arena.set_parent(pick(ids, i), None).map(|_| ()),
        Edit::Component(i, v) => {
            let heat = match arena.components().component("Heat") {
                Some(c) => c,
                None => arena
                    .register_component(arbor_core::components::Schema::new(
                        "Heat",
                        vec![arbor_core::components::FieldDef::new(
                            "Value",
                            arbor_core::components::FieldType::F32,
                        )],
                    ))
                    .unwrap(),
            };
            let id = pick(ids, i);
            if v < -4.0 {
                arena.remove_component(id, heat).map(|_| ())
            } else {
                let _ = arena.add_component(id, heat, None);
                arena.set_field(id, heat, "Value", arbor_core::components::FieldValue::F32(v)).map(|_| ())
            }
        }
    };
    ids.retain(|&id| arena.get(id).is_some());
    if ids.is_empty() {
        ids.push(arena.workspace());
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 32, ..ProptestConfig::default() })]

    /// Random edit sequences under random snapshot and ack loss converge to the arena's
    /// own state, within range or not.
    #[test]
    fn random_edits_with_random_loss_converge(
        edits in proptest::collection::vec(proptest::collection::vec(edit(), 0..6), 1..30),
        loss in 0.0f64..0.5,
        radius in prop_oneof![Just(1e6f32), Just(1500.0f32), Just(300.0f32)],
        scan_cells in any::<bool>(),
        seed in any::<u64>(),
    ) {
        let (arena, mut ids) = place(12);
        let mut pipe = Pipe::new(arena, radius);
        pipe.view.set_scan_cells(scan_cells && radius < 1e5);
        pipe.seed(seed);
        pipe.loss = loss;
        pipe.ack_loss = loss / 2.0;
        pipe.budget = 1500;
        for tick in &edits {
            for e in tick {
                apply(&mut pipe.arena, &mut ids, e);
            }
            pipe.step();
        }
        pipe.converge(300);
        prop_assert_eq!(pipe.replica.world_hash(), pipe.truth_hash());
        prop_assert_eq!(pipe.replica.stats().hash_mismatches, 0);
        prop_assert_eq!(pipe.replica.stats().apply_errors, 0);
        // The replica holds no orphan: every held instance's parent is held (or is a root).
        for id in pipe.replica.ids() {
            let parent = pipe.replica.state(id).unwrap().parent;
            prop_assert!(parent <= 2 || pipe.replica.state(Id(parent)).is_some());
        }
    }
}

/// A place with parts near the origin, near the world's edge, past it and far past it.
fn far_flung_place() -> (Arena, Vec<Id>) {
    let (mut arena, mut ids) = place(24);
    let ws = arena.workspace();
    for (i, at) in [
        Vec3::new(9.0e5, 0.0, 9.0e5),
        Vec3::new(-9.9e5, 3.0, 9.9e5),
        Vec3::new(-1.0e6, 0.0, -1.0e6),
        Vec3::new(5.0e6, 0.0, 0.0),
        Vec3::new(1.0e30, 0.0, -1.0e30),
        Vec3::new(-f32::MAX, 0.0, f32::MAX),
    ]
    .into_iter()
    .enumerate()
    {
        let p = arena.create(Class::Part, &format!("Far{i}"), Some(ws)).unwrap();
        arena.set_position(p, at).unwrap();
        ids.push(p);
    }
    (arena, ids)
}

/// The top parts of the pipe's arena (replicated parts with no part above them).
fn top_parts(pipe: &Pipe) -> Vec<Id> {
    let arena = &pipe.arena;
    let is_part = |id: Id| arena.get(id).is_some_and(|n| n.class() == Class::Part);
    replicated(arena).into_iter().filter(|&id| is_part(id) && !arena.ancestors(id).any(is_part)).collect()
}

/// Checks, after convergence, that the view holds every top part in range and none past
/// the range plus the hysteresis (worked out here from the definition: whole cells within
/// the radius of the focus's cell), that the replica agrees, and that refocuses looked at
/// no more cells than the mirror had occupied (so no more than it had top parts).
fn check_range(pipe: &Pipe, radius: f32) -> Result<(), TestCaseError> {
    let radius = if radius.is_finite() { f64::from(radius.max(0.0)) } else { 0.0 };
    let focus = arbor_net::cell_of(pipe.view.focus());
    let tops = top_parts(pipe);
    for &p in &tops {
        let world = pipe.transforms.get(&pipe.arena, p).map_or(Vec3::ZERO, |t| t.position);
        let cell = arbor_net::cell_of(world);
        let d =
            |a: i32, b: i32| (i64::from(a) - i64::from(b)) as f64 * f64::from(arbor_net::INTEREST_CELL_SIZE);
        let (dx, dz) = (d(cell.0, focus.0), d(cell.1, focus.1));
        let in_range = dx * dx + dz * dz <= radius * radius;
        let kept = radius + f64::from(arbor_net::STREAMING_HYSTERESIS);
        let past_kept = dx * dx + dz * dz > kept * kept;
        // Between the radius and the radius plus the hysteresis, a part may be held or not.
        prop_assert!(
            (!in_range || pipe.view.holds(p)) && (!past_kept || !pipe.view.holds(p)),
            "part {:?} at {} (cell {:?}), focus cell {:?}: held {}",
            p,
            world,
            cell,
            focus,
            pipe.view.holds(p)
        );
        prop_assert_eq!(pipe.replica.state(p).is_some(), pipe.view.holds(p));
    }
    prop_assert_eq!(pipe.replica.world_hash(), pipe.truth_hash());
    let stats = pipe.view.stats();
    // Each refocus looked at no more cells than the mirror had occupied (at most its top
    // parts at that moment; edits since may have removed some).
    let bound = tops.len().max(pipe.max_occupied) as u64;
    prop_assert!(
        stats.refocus_cells <= stats.refocuses * bound,
        "{:?}, {} top parts, at most {} occupied cells",
        stats,
        tops.len(),
        pipe.max_occupied
    );
    Ok(())
}

/// Where a focus lands: clamped to the world on every axis, or unchanged if not finite.
fn expected_focus(before: Vec3, asked: Vec3) -> Vec3 {
    let e = arbor_sim::physics::WORLD_EXTENT;
    if asked.is_finite() { asked.clamp(Vec3::splat(-e), Vec3::splat(e)) } else { before }
}

#[test]
fn foci_and_radii_at_the_extremes_are_clamped_and_stream_the_parts_in_range() {
    let e = arbor_sim::physics::WORLD_EXTENT;
    let foci = [
        Vec3::splat(f32::NAN),
        Vec3::new(f32::INFINITY, 0.0, 0.0),
        Vec3::new(f32::MAX, f32::MAX, f32::MAX),
        Vec3::new(-f32::MAX, 0.0, -f32::MAX),
        Vec3::new(1.0e6, 0.0, 1.0e6),
        Vec3::new(-1.0e6, 0.0, -1.0e6),
        Vec3::new(8.0e6, 0.0, -8.0e6),
        Vec3::new(f32::NEG_INFINITY, f32::NAN, 1.0),
        Vec3::new(9.0e5, 0.0, 9.0e5),
        Vec3::ZERO,
    ];
    for radius in [0.0, -5.0, 1024.0, 3.0e5, 1.0e6, 3.0e6, f32::MAX, f32::INFINITY, f32::NAN] {
        let (arena, _) = far_flung_place();
        let mut pipe = Pipe::new(arena, radius);
        pipe.converge(200);
        check_range(&pipe, radius).unwrap();
        for focus in foci {
            let want = expected_focus(pipe.view.focus(), focus);
            pipe.view.set_focus(focus);
            assert_eq!(pipe.view.focus(), want, "radius {radius}, focus {focus}");
            assert!(pipe.view.focus().abs().max_element() <= e);
            pipe.converge(200);
            check_range(&pipe, radius).unwrap_or_else(|err| panic!("radius {radius}, focus {focus}: {err}"));
        }
        assert!(pipe.view.stats().refocuses >= 5, "radius {radius}: {:?}", pipe.view.stats());
    }
    // A view made at a non-finite or far focus starts clamped too.
    assert_eq!(arbor_net::ClientView::new(Vec3::splat(f32::NAN), 10.0).focus(), Vec3::ZERO);
    assert_eq!(arbor_net::ClientView::new(Vec3::splat(-f32::MAX), 10.0).focus(), Vec3::splat(-e));
}

fn coordinate() -> impl Strategy<Value = f32> {
    prop_oneof![
        4 => -2.0e6f32..2.0e6,
        1 => -3000.0f32..3000.0,
        1 => Just(f32::NAN),
        1 => Just(f32::INFINITY),
        1 => Just(f32::NEG_INFINITY),
        1 => Just(f32::MAX),
        1 => Just(-f32::MAX),
        1 => Just(1.0e6f32),
        1 => Just(-1.0e6f32),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    /// Foci anywhere (non-finite, past the world, far jumps) and radii at the extremes,
    /// between edits and under loss: the view keeps exactly the parts in range, the replica
    /// converges, and no refocus looks at more cells than there are top parts.
    #[test]
    fn foci_and_radii_at_the_extremes_converge_and_refocus_cheaply(
        steps in proptest::collection::vec(
            ((coordinate(), coordinate(), coordinate()), proptest::collection::vec(edit(), 0..3)),
            1..10,
        ),
        radius in prop_oneof![
            Just(0.0f32), Just(700.0f32), Just(1.0e6f32), Just(f32::MAX), Just(f32::INFINITY),
            Just(f32::NAN), 0.0f32..5.0e6,
        ],
        loss in 0.0f64..0.3,
        seed in any::<u64>(),
    ) {
        let (arena, mut ids) = far_flung_place();
        let mut pipe = Pipe::new(arena, radius);
        pipe.seed(seed);
        pipe.loss = loss;
        for ((x, y, z), edits) in &steps {
            let focus = Vec3::new(*x, *y, *z);
            let want = expected_focus(pipe.view.focus(), focus);
            pipe.view.set_focus(focus);
            prop_assert_eq!(pipe.view.focus(), want);
            for e in edits {
                apply(&mut pipe.arena, &mut ids, e);
            }
            pipe.step();
        }
        pipe.converge(300);
        check_range(&pipe, radius)?;
        prop_assert_eq!(pipe.replica.stats().hash_mismatches, 0);
    }
}

#[test]
fn components_replicate_whether_written_one_field_or_a_chunk_at_a_time_but_lifetimes_do_not() {
    use arbor_core::components::{FieldDef, FieldType, FieldValue, Query, Schema};
    let (mut arena, ids) = place(20);
    let heat =
        arena.register_component(Schema::new("Heat", vec![FieldDef::new("Value", FieldType::F32)])).unwrap();
    let lifetimes = arbor_sim::lifetime::Lifetimes::new(&mut arena).unwrap();
    for &p in &ids[2..12] {
        arena.add_component(p, heat, None).unwrap();
    }
    lifetimes.set(&mut arena, ids[3], 60.0).unwrap();
    let mut pipe = Pipe::new(arena, 1e6);
    pipe.converge(100);
    assert_eq!(pipe.replica.component(ids[2], "Heat"), Some(&[arbor_net::WireValue::Number(0.0)][..]));
    assert!(pipe.replica.component(ids[3], "Lifetime").is_none(), "Lifetime is server-side");

    // One field through set_field, the rest chunk by chunk, one component removed.
    pipe.arena.set_field(ids[2], heat, "Value", FieldValue::F32(5.0)).unwrap();
    let lane = pipe.arena.components().lane(heat, "Value").unwrap();
    pipe.arena.for_each_chunk_mut(&mut Query::new(&[heat]), &[], &[lane], |mut chunk| {
        for v in chunk.write::<f32>(0).iter_mut() {
            *v += 1.0;
        }
    });
    pipe.arena.remove_component(ids[11], heat).unwrap();
    pipe.converge(100);
    assert_eq!(pipe.replica.component(ids[2], "Heat"), Some(&[arbor_net::WireValue::Number(6.0)][..]));
    assert_eq!(pipe.replica.component(ids[5], "Heat"), Some(&[arbor_net::WireValue::Number(1.0)][..]));
    assert!(pipe.replica.component(ids[11], "Heat").is_none());
    let truth: u64 = replicated(&pipe.arena)
        .into_iter()
        .map(|id| {
            let node = pipe.arena.get(id).unwrap();
            let lifetime = pipe.arena.components().component(arbor_sim::lifetime::LIFETIME);
            arbor_net::EntityState::capture_with(&pipe.arena, &node, &|c| Some(c) != lifetime).hash(id)
        })
        .fold(0, |a, h| a ^ h);
    assert_eq!(pipe.replica.world_hash(), truth);
}

#[test]
fn an_update_carries_only_the_components_that_changed_and_survives_loss() {
    use arbor_core::components::{FieldDef, FieldType, FieldValue, Schema};
    let (mut arena, ids) = place(20);
    let long = |name: &str| Schema::new(name, vec![FieldDef::new("LongFieldName", FieldType::String)]);
    let (a, b, c) = (
        arena.register_component(long("AlphaComponent")).unwrap(),
        arena.register_component(long("BetaComponent")).unwrap(),
        arena.register_component(Schema::new("Gamma", vec![FieldDef::new("Value", FieldType::F64)])).unwrap(),
    );
    for &p in &ids[2..12] {
        for k in [a, b, c] {
            arena.add_component(p, k, None).unwrap();
        }
        arena
            .set_field(p, a, "LongFieldName", FieldValue::String("a fairly long text value".into()))
            .unwrap();
        arena
            .set_field(p, b, "LongFieldName", FieldValue::String("another fairly long text".into()))
            .unwrap();
    }
    let mut pipe = Pipe::new(arena, 1e6);
    pipe.converge(100);

    // One small field of one component: the update is a patch of it alone.
    pipe.arena.set_field(ids[4], c, "Value", FieldValue::F64(2.5)).unwrap();
    let bytes = pipe.sent_bytes;
    pipe.step();
    let update = pipe.sent_bytes - bytes;
    assert!(update < 40, "{update} bytes for one changed number of one component");
    assert_eq!(pipe.replica.component(ids[4], "Gamma"), Some(&[arbor_net::WireValue::Number(2.5)][..]));

    // Under loss, with components changing, added and removed: every message check passes
    // (the pipe fails at once otherwise) and the replica converges.
    pipe.loss = 0.4;
    pipe.ack_loss = 0.2;
    for t in 0..60 {
        let p = ids[2 + t % 10];
        pipe.arena.set_field(p, c, "Value", FieldValue::F64(t as f64)).unwrap();
        if t % 7 == 0 {
            pipe.arena.remove_component(p, b).unwrap();
        }
        if t % 11 == 0 {
            let _ = pipe.arena.add_component(ids[2 + (t / 11) % 10], b, None);
        }
        pipe.step();
    }
    pipe.converge(200);
    assert_eq!(pipe.replica.world_hash(), pipe.truth_hash());
    assert_eq!(pipe.replica.stats().apply_errors, 0);
    assert_eq!(pipe.replica.stats().message_mismatches, 0);
}

/// Moves every part of `ids` (from the third: the first two are the folder and the model)
/// to a new place on its own circle, as of network tick `t`.
fn move_parts(arena: &mut Arena, ids: &[Id], t: usize) {
    for (k, &id) in ids.iter().enumerate().skip(2) {
        let a = t as f32 * 0.3 + k as f32;
        arena.set_position(id, Vec3::new(k as f32 * 3.0 + a.cos() * 20.0, 1.0, a.sin() * 20.0)).unwrap();
    }
}

#[test]
fn a_replica_is_checked_message_by_message_while_every_part_moves_even_under_loss() {
    for (loss, ack_loss, budget) in [(0.0f64, 0.0, 4096), (0.3, 0.1, 2048), (0.6, 0.3, 1500)] {
        let (arena, ids) = place(300);
        let mut pipe = Pipe::new(arena, 1e6);
        pipe.seed(loss.to_bits() | 1);
        (pipe.loss, pipe.ack_loss, pipe.budget) = (loss, ack_loss, budget);
        // The pipe fails at once on a message whose check fails; here the counts.
        let mut messages = 0;
        for t in 0..150 {
            move_parts(&mut pipe.arena, &ids, t);
            let before = pipe.view.stats().messages;
            pipe.step();
            messages += pipe.view.stats().messages - before;
        }
        let s = pipe.replica.stats();
        // Every capture finds moves, so no build finds the view settled.
        assert_eq!(s.hash_checks, 0, "loss {loss}: the view never settles, so no settled check");
        assert!(messages > 150, "loss {loss}: {messages} messages (several per tick)");
        assert!(s.message_checks >= 60, "loss {loss}: {s:?}");
        assert_eq!((s.message_mismatches, s.apply_errors), (0, 0), "loss {loss}: {s:?}");
        // Once the parts stop, the settled check agrees too.
        pipe.converge(300);
        let s = pipe.replica.stats();
        assert!(s.hash_checks > 0 && s.hash_mismatches == 0, "loss {loss}: {s:?}");
        assert_eq!(pipe.replica.world_hash(), pipe.truth_hash());
    }
}

#[test]
fn entries_rolled_back_to_the_next_message_or_too_large_to_send_stay_out_of_the_entries_hash() {
    let (mut arena, ids) = place(30);
    let ws = arena.workspace();
    // An instance larger than any message: never sent, counted as oversized.
    let huge = arena.create(Class::Part, &"H".repeat(arbor_core::limits::MAX_NAME_BYTES), Some(ws)).unwrap();
    arena.set_attribute(huge, "Blob", Some(AttributeValue::String("x".repeat(600).into()))).unwrap();
    // Parts whose 400-byte attribute changes every tick: two fit a message, so a third is
    // written, rolled back and written again in the next message.
    let heavy: Vec<Id> = ids[2..8].to_vec();
    let mut pipe = Pipe::new(arena, 1e6);
    pipe.budget = 8192;
    for t in 0..60 {
        move_parts(&mut pipe.arena, &ids, t);
        for (k, &id) in heavy.iter().enumerate() {
            let text = format!("{t}-{k}-").repeat(200)[..400].to_owned();
            pipe.arena.set_attribute(id, "Log", Some(AttributeValue::String(text.into()))).unwrap();
        }
        pipe.step();
    }
    let (view, s) = (pipe.view.stats(), pipe.replica.stats());
    assert!(view.oversized > 0, "{view:?}");
    assert!(view.messages >= 3 * 60, "several messages per tick: {view:?}");
    assert!(s.message_checks >= 120, "{s:?}");
    assert_eq!(s.message_mismatches, 0, "{s:?}");
    assert!(pipe.replica.state(huge).is_none());
    assert_eq!(pipe.replica.state(heavy[5]).unwrap().attributes.len(), 1);
}

#[test]
fn a_corrupted_moving_instance_fails_the_next_message_that_carries_it() {
    let (arena, ids) = place(40);
    let mut pipe = Pipe::new(arena, 1e6);
    pipe.converge(100);
    pipe.check_messages = false;
    for t in 0..5 {
        move_parts(&mut pipe.arena, &ids, t);
        pipe.step();
    }
    let before = pipe.replica.stats();
    assert!(before.message_checks >= 5 && before.message_mismatches == 0, "{before:?}");
    let victim = ids[7];
    let hash = pipe.replica.world_hash();
    assert!(pipe.replica.corrupt_state_for_test(victim));
    assert!(!pipe.replica.corrupt_state_for_test(Id(1 << 40)), "an id not held");
    assert_ne!(pipe.replica.world_hash(), hash, "the world hash follows the corrupted state");
    assert_eq!(pipe.replica.arena().name_of(victim), Some("P5~"));
    // The next messages carry the victim's new position, not its name: the check fails.
    let mut ticks = 0;
    while pipe.replica.stats().message_mismatches == 0 {
        ticks += 1;
        assert!(ticks <= 3, "no mismatch after {ticks} network ticks: {:?}", pipe.replica.stats());
        move_parts(&mut pipe.arena, &ids, 5 + ticks);
        pipe.step();
    }
    // The others go on moving, the victim stands still: messages that do not carry it pass.
    let at = pipe.arena.get(victim).unwrap().position();
    let failed = pipe.replica.stats().message_mismatches;
    let checks = pipe.replica.stats().message_checks;
    for t in 10..20 {
        move_parts(&mut pipe.arena, &ids, t);
        pipe.arena.set_position(victim, at).unwrap();
        pipe.step();
    }
    // (One more failure at most: a message sent before the victim stopped may come again.)
    let s = pipe.replica.stats();
    assert!(s.message_checks >= checks + 8 && s.message_mismatches <= failed + 1, "{s:?}");
    // When everything stops, the settled check sees the wrong name too.
    for _ in 0..20 {
        pipe.step();
    }
    let s = pipe.replica.stats();
    assert!(pipe.view.is_settled() && s.hash_checks > before.hash_checks, "{s:?}");
    assert!(s.hash_mismatches > 0, "{s:?}");
}

#[test]
fn a_resync_under_motion_and_loss_passes_every_message_check() {
    let (arena, ids) = place(60);
    let mut pipe = Pipe::new(arena, 1e6);
    pipe.loss = 0.3;
    pipe.converge(100);
    // The client stops acking (but still applies what arrives) long enough to be resynced.
    pipe.silent = true;
    for t in 0..(arbor_net::HISTORY_EPOCHS as usize + 20) {
        move_parts(&mut pipe.arena, &ids, t);
        pipe.step();
    }
    assert!(pipe.view.stats().resyncs >= 1);
    let checks = pipe.replica.stats().message_checks;
    pipe.silent = false;
    for t in 0..60 {
        move_parts(&mut pipe.arena, &ids, 1000 + t);
        pipe.step();
    }
    let s = pipe.replica.stats();
    assert!(s.message_checks > checks + 30 && s.message_mismatches == 0, "{s:?}");
    pipe.converge(200);
    assert_eq!(pipe.replica.world_hash(), pipe.truth_hash());
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 32, ..ProptestConfig::default() })]

    /// Every part moving every tick, with random edits (creates with parent chains,
    /// reparents, clones, destroys), focus jumps that stream units in and out, small budgets
    /// and loss: every applied message passes its entries check (the pipe fails on the
    /// first that does not), and the replica converges once the motion stops.
    #[test]
    fn every_message_check_passes_under_motion_edits_refocuses_and_loss(
        ticks in proptest::collection::vec(
            (
                proptest::collection::vec(edit(), 0..4),
                proptest::option::of((-3000.0f32..3000.0, -3000.0f32..3000.0)),
            ),
            1..40,
        ),
        radius in prop_oneof![Just(1e6f32), Just(1500.0f32), Just(300.0f32)],
        loss in 0.0f64..0.6,
        budget in prop_oneof![Just(1200usize), Just(4096usize)],
        seed in any::<u64>(),
    ) {
        let (arena, mut ids) = place(16);
        let mut pipe = Pipe::new(arena, radius);
        pipe.seed(seed);
        (pipe.loss, pipe.ack_loss, pipe.budget) = (loss, loss / 2.0, budget);
        for (t, (edits, focus)) in ticks.iter().enumerate() {
            for (k, &id) in ids.iter().enumerate() {
                let a = t as f32 * 0.5 + k as f32;
                // Folders and models refuse a position: only parts move.
                let _ = pipe.arena.set_position(id, Vec3::new(a.cos() * 40.0 + k as f32, 1.0, a.sin() * 40.0));
            }
            for e in edits {
                apply(&mut pipe.arena, &mut ids, e);
            }
            if let Some((x, z)) = focus {
                pipe.view.set_focus(Vec3::new(*x, 0.0, *z));
            }
            pipe.step();
        }
        prop_assert_eq!(pipe.replica.stats().message_mismatches, 0);
        pipe.converge(300);
        prop_assert_eq!(pipe.replica.world_hash(), pipe.truth_hash());
        prop_assert_eq!(pipe.replica.stats().message_mismatches, 0);
        prop_assert_eq!(pipe.replica.stats().apply_errors, 0);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    /// Several clients of one server, at different baselines (each its own loss, acks lost,
    /// messages reordered, its own focus), while everything moves and the place is edited:
    /// every message passes its check, no position delta names a base the client lacks,
    /// and each replica converges to the server's hash of what it should hold.
    #[test]
    fn clients_at_different_baselines_under_loss_and_reorder_converge(
        edits in proptest::collection::vec(proptest::collection::vec(edit(), 0..4), 1..40),
        losses in proptest::collection::vec((0.0f64..0.5, 0.0f64..0.4), 3),
        seed in any::<u64>(),
    ) {
        let (arena, mut ids) = place(40);
        let mut pipe = Pipe::new(arena, 1e6);
        pipe.seed(seed);
        pipe.loss = losses[0].0;
        pipe.reorder = losses[0].1;
        pipe.ack_loss = losses[0].0 / 2.0;
        let mut others: Vec<common::OtherClient> = losses[1..]
            .iter()
            .enumerate()
            .map(|(k, &(loss, reorder))| {
                let focus = Vec3::new(40.0 * k as f32, 0.0, 0.0);
                common::OtherClient::new(focus, 300.0 + 200.0 * k as f32, loss, reorder, seed ^ (k as u64 + 1))
            })
            .collect();
        for (t, tick) in edits.iter().enumerate() {
            move_parts(&mut pipe.arena, &ids, t);
            for e in tick {
                apply(&mut pipe.arena, &mut ids, e);
            }
            pipe.step_with(&mut others);
        }
        // Quiet network: everyone settles and holds exactly the server's state.
        pipe.loss = 0.0;
        pipe.ack_loss = 0.0;
        pipe.reorder = 0.0;
        for o in &mut others {
            o.loss = 0.0;
            o.reorder = 0.0;
        }
        for _ in 0..400 {
            pipe.step_with(&mut others);
            if pipe.view.is_settled() && others.iter().all(|o| o.view.is_settled()) {
                break;
            }
        }
        pipe.step_with(&mut others);
        prop_assert_eq!(pipe.replica.world_hash(), pipe.truth_hash());
        for o in &others {
            prop_assert!(o.view.is_settled());
            prop_assert_eq!(o.replica.world_hash(), o.truth_hash(&pipe.arena));
            prop_assert_eq!(o.replica.stats().message_mismatches, 0);
            prop_assert_eq!(o.replica.stats().unresolved, 0);
        }
        prop_assert_eq!(pipe.replica.stats().message_mismatches, 0);
    }
}
