//! The streaming range end to end without sockets: units streaming in and out around a
//! client's focus, hysteresis at the range's edge, joins nearest first under the budget, and
//! foci and radii at the extremes of the world.

mod common;

use arbor_core::{Arena, Class, Id};
use arbor_net::replication::{ClientView, INTEREST_CELL_SIZE, STREAMING_HYSTERESIS, cell_of};
use arbor_net::wire::MAX_MESSAGE_BYTES;
use common::place::{apply, edit, place};
use common::{Pipe, replicated};
use glam::Vec3;
use proptest::prelude::*;

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
    let beyond = 1000.0 - 512.0 - STREAMING_HYSTERESIS - 2.0 * INTEREST_CELL_SIZE;
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
    assert!(pipe.sent_bytes <= 2048 + MAX_MESSAGE_BYTES);
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
    let focus = cell_of(pipe.view.focus());
    let tops = top_parts(pipe);
    for &p in &tops {
        let world = pipe.transforms.get(&pipe.arena, p).map_or(Vec3::ZERO, |t| t.position);
        let cell = cell_of(world);
        let d = |a: i32, b: i32| (i64::from(a) - i64::from(b)) as f64 * f64::from(INTEREST_CELL_SIZE);
        let (dx, dz) = (d(cell.0, focus.0), d(cell.1, focus.1));
        let in_range = dx * dx + dz * dz <= radius * radius;
        let kept = radius + f64::from(STREAMING_HYSTERESIS);
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
    assert_eq!(ClientView::new(Vec3::splat(f32::NAN), 10.0).focus(), Vec3::ZERO);
    assert_eq!(ClientView::new(Vec3::splat(-f32::MAX), 10.0).focus(), Vec3::splat(-e));
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
