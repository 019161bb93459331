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
    pipe.transforms.update(&pipe.arena, &dirty, arbor_sim::PassMode::default());
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
    pipe.transforms.update(&pipe.arena, &dirty, arbor_sim::PassMode::default());
    let world = |_| Vec3::ZERO;
    pipe.mirror.capture(&pipe.arena, &world);
    pipe.view.update(&pipe.arena, &pipe.mirror);
    let msgs = pipe.view.build(&pipe.mirror, 4096, 2);
    let snap = arbor_net::Snapshot::decode(&msgs[0]).unwrap();
    assert_eq!(snap.entries.len(), 1);
    assert_eq!(snap.entries[0].groups, Groups::POSITION);
    // id delta, mask, 3 coordinates
    let entry_bytes = msgs[0].len() - 8;
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

/// Checks, after convergence, that the view holds exactly the top parts in range (worked
/// out here from the definition: whole cells within the radius of the focus's cell), that
/// the replica agrees, and that refocuses looked at no more cells than there are top parts.
fn check_range(pipe: &Pipe, radius: f32) -> Result<(), TestCaseError> {
    let radius = if radius.is_finite() { f64::from(radius.max(0.0)) } else { 0.0 };
    let focus = arbor_net::cell_of(pipe.view.focus());
    let tops = top_parts(pipe);
    for &p in &tops {
        let world = pipe.transforms.get(&pipe.arena, p).map_or(Vec3::ZERO, |t| t.position);
        let cell = arbor_net::cell_of(world);
        let d = |a: i32, b: i32| (i64::from(a) - i64::from(b)) as f64 * f64::from(arbor_net::CELL_SIZE);
        let (dx, dz) = (d(cell.0, focus.0), d(cell.1, focus.1));
        let in_range = dx * dx + dz * dz <= radius * radius;
        prop_assert_eq!(
            pipe.view.holds(p),
            in_range,
            "part {:?} at {} (cell {:?}), focus cell {:?}",
            p,
            world,
            cell,
            focus
        );
        prop_assert_eq!(pipe.replica.state(p).is_some(), in_range);
    }
    prop_assert_eq!(pipe.replica.world_hash(), pipe.truth_hash());
    let stats = pipe.view.stats();
    prop_assert!(
        stats.refocus_cells <= stats.refocuses * tops.len() as u64,
        "{:?}, {} top parts",
        stats,
        tops.len()
    );
    Ok(())
}

/// Where a focus lands: clamped to the world on every axis, or unchanged if not finite.
fn expected_focus(before: Vec3, asked: Vec3) -> Vec3 {
    let e = arbor_sim::WORLD_EXTENT;
    if asked.is_finite() { asked.clamp(Vec3::splat(-e), Vec3::splat(e)) } else { before }
}

#[test]
fn foci_and_radii_at_the_extremes_are_clamped_and_stream_the_parts_in_range() {
    let e = arbor_sim::WORLD_EXTENT;
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
    let lifetimes = arbor_sim::Lifetimes::new(&mut arena).unwrap();
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
            let lifetime = pipe.arena.components().component(arbor_sim::LIFETIME);
            arbor_net::EntityState::capture_with(&pipe.arena, &node, &|c| Some(c) != lifetime).hash(id)
        })
        .fold(0, |a, h| a ^ h);
    assert_eq!(pipe.replica.world_hash(), truth);
}
