//! Unit tests of the physics mirror (internals: entries, the sync cursor, own writes).
//! Behavioural tests through the public API live in `sim/tests/physics_*.rs` (bodies, sync,
//! extremes).

use super::*;
use crate::transform::{PassMode, WorldTransforms};
use arbor_core::{Arena, ArenaConfig, Class, LocalTransform, NodeFlags, Quat};

const DT: f32 = 1.0 / 60.0;

struct Fixture {
    arena: Arena,
    physics: Physics,
    transforms: WorldTransforms,
}

impl Fixture {
    fn new() -> Self {
        Self::with_arena(Arena::new())
    }

    fn with_arena(arena: Arena) -> Self {
        Self { arena, physics: Physics::new(DEFAULT_GRAVITY), transforms: WorldTransforms::new() }
    }

    fn part(&mut self, parent: Id, position: Vec3, size: Vec3, anchored: bool) -> Id {
        let id = self.arena.create(Class::Part, "P", Some(parent)).unwrap();
        self.arena.set_position(id, position).unwrap();
        self.arena.set_size(id, size).unwrap();
        self.arena.set_flag(id, NodeFlags::ANCHORED, anchored).unwrap();
        id
    }

    fn floor(&mut self) -> Id {
        let ws = self.arena.workspace();
        self.part(ws, Vec3::ZERO, Vec3::new(200.0, 2.0, 200.0), true)
    }

    fn tick(&mut self) -> (SyncStats, usize) {
        let stats = self.physics.sync(&self.arena);
        self.physics.step(DT);
        let written = self.physics.write_back(&mut self.arena);
        let dirty = self.arena.take_dirty_transforms();
        self.transforms.update(&self.arena, &dirty, PassMode::default());
        (stats, written)
    }

    fn run(&mut self, ticks: usize) {
        for _ in 0..ticks {
            self.tick();
        }
    }

    /// Entries, index and rapier sets agree.
    fn check_consistency(&self) {
        let p = &self.physics;
        assert_eq!(p.index.len(), p.entries.iter().flatten().count());
        use super::crowding_state::Standing;
        let dynamic: std::collections::BTreeSet<u32> = (0..p.entries.len() as u32)
            .filter(|&i| p.entries[i as usize].as_ref().is_some_and(|e| !e.anchored))
            .collect();
        assert_eq!(dynamic, p.dynamic_entries.iter().copied().collect());
        let dormant = p.entries.iter().flatten().filter(|e| e.dormant).count();
        assert_eq!(p.dormant_parts(), dormant);
        let bodiless = |e: &Entry| e.dormant || e.standing == Standing::AnchoredSuspended;
        let without = p.entries.iter().flatten().filter(|e| bodiless(e)).count();
        assert_eq!(p.world.bodies.len(), p.index.len() - without);
        assert_eq!(p.world.colliders.len(), p.index.len() - without);
        for (&id, &i) in &p.index {
            let e = p.entries[i as usize].as_ref().unwrap();
            assert_eq!(e.id, id);
            if bodiless(e) {
                assert!(!p.world.bodies.contains(e.body), "{id:?}: a body rapier should not see");
                continue;
            }
            assert_eq!(unpack(p.world.bodies[e.body].user_data), (id, i));
            assert_eq!(unpack(p.world.colliders[e.collider].user_data), (id, i));
        }
    }
}

#[test]
fn pack_round_trips() {
    let id = Id((1 << 52) + 12345);
    assert_eq!(unpack(pack(id, 77)), (id, 77));
    assert_eq!(unpack(pack(Id(1), u32::MAX)), (Id(1), u32::MAX));
}

#[test]
fn first_sync_is_a_rescan_then_incremental() {
    let mut f = Fixture::new();
    f.floor();
    let (stats, _) = f.tick();
    assert!(stats.full_rescan);
    assert_eq!(stats.added, 1);
    let (stats, _) = f.tick();
    assert_eq!(stats, SyncStats::default());
    f.check_consistency();
}

#[test]
fn own_writes_are_not_read_back() {
    let mut f = Fixture::new();
    f.floor();
    let ws = f.arena.workspace();
    for i in 0..20 {
        f.part(ws, Vec3::new(i as f32 * 3.0, 10.0, 0.0), Vec3::splat(2.0), false);
    }
    f.tick();
    for _ in 0..5 {
        let (stats, written) = f.tick();
        assert_eq!(written, 20);
        assert_eq!(stats, SyncStats::default(), "physics' own writes came back as edits");
        // The cursor moved past the write-back: the log holds nothing newer.
        assert_eq!(f.arena.part_writes_since(f.physics.since).unwrap().count(), 0);
    }
}

#[test]
fn a_write_between_sync_and_write_back_wins() {
    let mut f = Fixture::new();
    let ws = f.arena.workspace();
    let b = f.part(ws, Vec3::new(0.0, 50.0, 0.0), Vec3::splat(2.0), false);
    f.tick();
    f.physics.sync(&f.arena);
    f.physics.step(DT);
    f.arena.set_position(b, Vec3::new(5.0, 100.0, 0.0)).unwrap();
    let written = f.physics.write_back(&mut f.arena);
    assert_eq!(written, 0);
    assert_eq!(f.arena.get(b).unwrap().position(), Vec3::new(5.0, 100.0, 0.0));
    // The cursor did not skip the write: the next sync teleports the body.
    let stats = f.physics.sync(&f.arena);
    assert_eq!(stats.updated, 1);
    assert_eq!(f.physics.body(b).unwrap().translation(), Vec3::new(5.0, 100.0, 0.0));
}

#[test]
fn colour_writes_do_not_teleport_or_wake() {
    let mut f = Fixture::new();
    f.floor();
    let ws = f.arena.workspace();
    let b = f.part(ws, Vec3::new(0.0, 1.0 + 1.0, 0.0), Vec3::splat(2.0), false);
    f.run(400);
    assert_eq!(f.physics.awake_bodies(), 0, "settled box sleeps");
    let before = f.physics.body(b).unwrap().translation();
    let mut look = f.arena.get(b).unwrap().appearance();
    look.color = arbor_core::Color([255, 0, 0, 255]);
    f.arena.set_appearance(b, look).unwrap();
    let (stats, written) = f.tick();
    assert_eq!(stats.updated, 0);
    assert_eq!(written, 0);
    assert!(f.physics.body(b).unwrap().is_sleeping());
    assert_eq!(f.physics.body(b).unwrap().translation(), before);
}

#[test]
fn rescan_drops_entries_of_vanished_parts_and_keeps_the_rest() {
    let config = ArenaConfig { part_write_log_capacity: 8, ..ArenaConfig::default() };
    let mut f = Fixture::with_arena(Arena::with_config(config));
    f.floor();
    let ws = f.arena.workspace();
    let keep = f.part(ws, Vec3::new(0.0, 5.0, 0.0), Vec3::splat(2.0), true);
    let gone = f.part(ws, Vec3::new(5.0, 5.0, 0.0), Vec3::splat(2.0), true);
    f.tick();
    f.arena.destroy(gone).unwrap();
    for i in 0..10 {
        f.arena.set_position(keep, Vec3::new(0.0, 5.0 + i as f32, 0.0)).unwrap();
    }
    let (stats, _) = f.tick();
    assert!(stats.full_rescan);
    assert_eq!(stats.removed, 1);
    assert_eq!(f.physics.body_count(), 2);
    // Dormant (no dynamic body near): the entry holds the pose its body takes on waking.
    let pose = f.physics.part_pose(keep).unwrap();
    assert_eq!(pose.translation, Vec3::new(0.0, 14.0, 0.0));
    f.check_consistency();
}

#[test]
fn removed_entries_are_recycled() {
    let mut f = Fixture::new();
    let ws = f.arena.workspace();
    let a = f.part(ws, Vec3::ZERO, Vec3::ONE, true);
    f.tick();
    f.arena.destroy(a).unwrap();
    f.tick();
    let b = f.part(ws, Vec3::ZERO, Vec3::ONE, true);
    f.tick();
    assert_eq!(f.physics.entries.len(), 1);
    assert!(f.physics.part_pose(a).is_none());
    assert!(f.physics.part_pose(b).is_some());
    f.check_consistency();
}

#[test]
fn nested_dynamic_parts_write_consistent_locals() {
    let mut f = Fixture::new();
    f.floor();
    let ws = f.arena.workspace();
    let model = f.arena.create(Class::Model, "M", Some(ws)).unwrap();
    f.arena
        .set_transform(
            model,
            LocalTransform { position: Vec3::new(10.0, 3.0, 0.0), rotation: Quat::from_rotation_y(0.7) },
        )
        .unwrap();
    let outer = f.part(model, Vec3::new(0.0, 10.0, 0.0), Vec3::splat(2.0), false);
    let inner = f.part(outer, Vec3::new(0.0, 0.0, 6.0), Vec3::splat(2.0), false);
    for _ in 0..30 {
        f.tick();
        for id in [outer, inner] {
            let body = f.physics.body(id).unwrap();
            let arena_world = super::pose::ParentPoses::default().world(&f.arena, Some(id), |_| None);
            assert!((arena_world.position - body.translation()).length() < 1e-3, "{id:?} drifted");
        }
    }
}

#[test]
fn non_finite_pose_has_no_body() {
    let mut f = Fixture::new();
    let ws = f.arena.workspace();
    let a = f.part(ws, Vec3::ZERO, Vec3::ONE, false);
    f.tick();
    f.arena.set_position(a, Vec3::new(f32::NAN, 0.0, 0.0)).unwrap();
    let (stats, _) = f.tick();
    assert_eq!(stats.removed, 1);
    assert!(f.physics.body(a).is_none());
    assert!(f.arena.get(a).unwrap().position().x.is_nan(), "left for fallen-part cleanup");
    f.arena.set_position(a, Vec3::ZERO).unwrap();
    let (stats, _) = f.tick();
    assert_eq!(stats.added, 1);
    f.check_consistency();
}

#[test]
fn a_panic_inside_rapier_rebuilds_the_world_from_the_arena() {
    use rapier3d::prelude::{ColliderBuilder, RigidBodyBuilder};
    let mut f = Fixture::new();
    f.floor();
    let ws = f.arena.workspace();
    let cyl = f.part(ws, Vec3::new(0.0, 3.0, 0.0), Vec3::new(4.0, 2.0, 2.0), false);
    let look = arbor_core::Appearance { shape: arbor_core::Shape::Cylinder, ..Default::default() };
    f.arena.set_appearance(cyl, look).unwrap();
    f.tick();
    // A collider no part would get (the sync clamps sizes): parry's EPA panics on it.
    let body =
        f.physics.world.bodies.insert(RigidBodyBuilder::dynamic().translation(Vec3::new(0.0, 3.5, 0.0)));
    let collider = ColliderBuilder::cuboid(1.0, 0.5, 5e19).build();
    let w = &mut f.physics.world;
    w.colliders.insert_with_parent(collider, body, &mut w.bodies);
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    for _ in 0..20 {
        f.physics.step(DT);
    }
    std::panic::set_hook(hook);
    assert_eq!(f.physics.faults(), 1, "the step panicked once, then the foreign body was gone");
    assert_eq!(f.physics.body_count(), 0);
    let stats = f.physics.sync(&f.arena);
    assert!(stats.full_rescan && stats.added == 2, "{stats:?}");
    f.run(3);
    f.check_consistency();
    assert!(f.arena.contains(cyl));
}

/// A body is posed at the very world the transform pass computes for its part: physics
/// composes with the pass's arithmetic, so the two agree bit for bit, however deep and
/// rotated the chain above the part.
#[test]
fn body_poses_are_the_transform_pass_worlds_bit_for_bit() {
    let mut f = Fixture::new();
    let ws = f.arena.workspace();
    let mut parent = ws;
    let mut parts = Vec::new();
    for k in 0..12 {
        let model = f.arena.create(Class::Model, "M", Some(parent)).unwrap();
        let t = LocalTransform {
            position: Vec3::new(1.3 * k as f32, 0.7, -2.1),
            rotation: Quat::from_euler(glam::EulerRot::YXZ, 0.3 + k as f32, 0.2, -0.9).normalize(),
        };
        f.arena.set_transform(model, t).unwrap();
        parts.push(f.part(model, Vec3::new(0.5, 1.5 * k as f32, 3.0), Vec3::ONE, true));
        parent = model;
    }
    f.tick();
    for id in parts {
        let world = f.transforms.get(&f.arena, id).unwrap();
        let pose = f.physics.part_pose(id).unwrap();
        assert_eq!(pose.translation, world.position, "{id:?}");
    }
}

impl Fixture {
    /// The crowding books agree with the entries: every entry was checked, a body is disabled
    /// exactly when suspended, and the counts match.
    fn check_crowding(&self) {
        use super::crowding_state::Standing;
        let p = &self.physics;
        let (mut dynamic, mut anchored, mut dormant) = (0, 0, 0);
        for e in p.entries.iter().flatten() {
            assert_ne!(e.standing, Standing::Unchecked, "{:?} not checked", e.id);
            let suspended = p.is_suspended(e.id);
            if let Some(body) = p.world.bodies.get(e.body) {
                assert_eq!(body.is_enabled(), !suspended, "{:?}", e.id);
            }
            assert!(!e.dormant || matches!(e.standing, Standing::Anchored(_)), "{:?} dormant", e.id);
            dormant += usize::from(e.dormant);
            match e.standing {
                Standing::Anchored(_) | Standing::AnchoredSuspended => assert!(e.anchored),
                Standing::Dynamic | Standing::DynamicSuspended => assert!(!e.anchored),
                Standing::Unchecked => unreachable!(),
            }
            dynamic += usize::from(e.standing == Standing::DynamicSuspended);
            anchored += usize::from(e.standing == Standing::AnchoredSuspended);
        }
        let stats = p.crowding_stats();
        assert_eq!(p.crowding.listed(), 0);
        assert_eq!((stats.suspended_dynamic, stats.suspended_anchored), (dynamic, anchored));
        assert_eq!(p.suspended_bodies(), dynamic + anchored + p.over_cap.len());
        assert_eq!(p.dormant_parts(), dormant);
    }

    fn pile(&mut self, n: usize, at: Vec3, size: Vec3, anchored: bool) -> Vec<Id> {
        let ws = self.arena.workspace();
        (0..n).map(|_| self.part(ws, at, size, anchored)).collect()
    }
}

#[test]
fn an_anchored_pile_resumes_as_it_is_cleared() {
    let mut f = Fixture::new();
    let pile = f.pile(200, Vec3::new(0.0, 5.0, 0.0), Vec3::ONE, true);
    f.tick();
    f.check_crowding();
    let admitted: Vec<Id> = pile.iter().copied().filter(|&id| !f.physics.is_suspended(id)).collect();
    assert_eq!(admitted.len(), MAX_ANCHORED_OVERLAPS + 1);
    assert_eq!(f.physics.crowding_stats().suspended_anchored, 200 - admitted.len());
    for id in admitted {
        f.arena.destroy(id).unwrap();
    }
    f.tick();
    f.check_crowding();
    assert_eq!(f.physics.suspended_bodies(), 0, "the 71 waiting parts took the vacated spot");
    check_all(&f);
}

fn check_all(f: &Fixture) {
    f.check_consistency();
    f.check_crowding();
}

#[test]
fn a_baseplate_added_after_a_city_is_admitted() {
    let mut f = Fixture::new();
    let ws = f.arena.workspace();
    for i in 0..400 {
        f.part(ws, Vec3::new((i % 20) as f32 * 3.0, 1.5, (i / 20) as f32 * 3.0), Vec3::splat(2.0), true);
    }
    f.tick();
    let base = f.part(ws, Vec3::ZERO, Vec3::new(2048.0, 1.0, 2048.0), true);
    f.tick();
    assert!(!f.physics.is_suspended(base), "smaller parts never count against a bigger one");
    assert_eq!(f.physics.suspended_bodies(), 0);
    check_all(&f);
}

#[test]
fn a_big_dynamic_part_over_many_anchored_parts_is_suspended_at_once() {
    let mut f = Fixture::new();
    let ws = f.arena.workspace();
    for i in 0..400 {
        f.part(ws, Vec3::new((i % 20) as f32 * 3.0, 1.5, (i / 20) as f32 * 3.0), Vec3::splat(2.0), true);
    }
    f.run(3);
    // One part: far below the changes that trigger a full pass, still checked before the step.
    let big = f.part(ws, Vec3::new(30.0, 2.0, 30.0), Vec3::new(2048.0, 1.0, 2048.0), false);
    let small = f.part(ws, Vec3::new(1.5, 4.0, 0.0), Vec3::splat(2.0), false);
    f.tick();
    assert!(f.physics.is_suspended(big));
    assert!(!f.physics.is_suspended(small));
    assert_eq!(
        f.physics.world.narrow_phase.contact_pairs_with(f.physics.entry(big).unwrap().collider).count(),
        0
    );
    check_all(&f);
}

#[test]
fn parts_added_a_few_a_tick_to_a_full_pile_are_suspended() {
    let mut f = Fixture::new();
    f.floor();
    let at = Vec3::new(0.0, 30.0, 0.0);
    f.pile(MAX_BODIES_PER_CELL, at, Vec3::splat(2.0), false);
    f.tick();
    assert_eq!(f.physics.suspended_bodies(), 0);
    let late = f.pile(10, at, Vec3::splat(2.0), false);
    f.tick();
    assert!(late.iter().all(|&id| f.physics.is_suspended(id)), "checked against the pile");
    check_all(&f);
    // Once the pile spreads out, full passes resume them.
    f.run(120);
    assert!(late.iter().any(|&id| !f.physics.is_suspended(id)));
    check_all(&f);
}

#[test]
fn toggling_anchored_inside_a_pile_keeps_the_books() {
    let mut f = Fixture::new();
    let pile = f.pile(150, Vec3::new(0.0, 5.0, 0.0), Vec3::ONE, true);
    f.tick();
    check_all(&f);
    for &id in pile.iter().step_by(3) {
        f.arena.set_flag(id, NodeFlags::ANCHORED, false).unwrap();
    }
    f.tick();
    check_all(&f);
    for &id in pile.iter().step_by(2) {
        f.arena.set_flag(id, NodeFlags::ANCHORED, true).unwrap();
    }
    for _ in 0..10 {
        f.tick();
        check_all(&f);
    }
    for &id in pile.iter().step_by(5) {
        f.arena.destroy(id).unwrap();
    }
    f.tick();
    check_all(&f);
}

#[test]
fn a_reset_world_rebuilds_the_crowding_books() {
    let mut f = Fixture::new();
    f.pile(200, Vec3::new(0.0, 5.0, 0.0), Vec3::ONE, true);
    f.pile(100, Vec3::new(50.0, 5.0, 0.0), Vec3::ONE, false);
    f.tick();
    let before = f.physics.crowding_stats();
    f.physics.reset_world();
    f.tick();
    check_all(&f);
    let after = f.physics.crowding_stats();
    assert_eq!(
        (before.suspended_anchored, before.suspended_dynamic),
        (after.suspended_anchored, after.suspended_dynamic)
    );
}

#[test]
fn syncs_without_a_step_list_each_changed_entry_once() {
    let mut f = Fixture::new();
    let pile = f.pile(100, Vec3::new(0.0, 5.0, 0.0), Vec3::ONE, true);
    f.tick();
    for k in 0..10 {
        // Farther than `ANCHORED_SLACK` each time, so every part leaves its leaf.
        for &id in &pile {
            f.arena.set_position(id, Vec3::new(3.0 * (k + 1) as f32, 5.0, 0.0)).unwrap();
        }
        f.physics.sync(&f.arena);
        assert_eq!(f.physics.crowding.listed(), 100);
    }
    f.physics.step(DT);
    f.physics.write_back(&mut f.arena);
    check_all(&f);
}

#[test]
fn full_passes_back_off_while_a_crowd_cannot_clear() {
    // Weightless parts that collide with nothing stay where they are: the crowd never clears.
    let mut f = Fixture::new();
    f.physics = Physics::new(Vec3::ZERO);
    let pile = f.pile(100, Vec3::new(0.0, 5.0, 0.0), Vec3::ONE, false);
    for &id in &pile {
        f.arena.set_flag(id, NodeFlags::CAN_COLLIDE, false).unwrap();
    }
    f.run(240);
    check_all(&f);
    assert_eq!(f.physics.crowding_stats().suspended_dynamic, 100 - MAX_BODIES_PER_CELL);
    let passes = f.physics.crowding_stats().full_passes;
    assert!(passes <= 10, "{passes} full passes in 240 steps (every {RESUME_EVERY} would be 60)");
}

#[test]
fn anchored_parts_no_body_reaches_are_dormant_and_rays_still_hit_them() {
    let mut f = Fixture::new();
    let ws = f.arena.workspace();
    let far = f.part(ws, Vec3::new(500.0, 5.0, 0.0), Vec3::new(4.0, 2.0, 4.0), true);
    let near = f.part(ws, Vec3::new(500.0, 20.0, 0.0), Vec3::new(4.0, 2.0, 4.0), false);
    f.arena.set_flag(near, NodeFlags::ANCHORED, true).unwrap();
    f.part(ws, Vec3::new(0.0, 50.0, 0.0), Vec3::ONE, false);
    f.tick();
    check_all(&f);
    assert_eq!(f.physics.dormant_parts(), 2);
    assert!(f.physics.body(far).is_none(), "no rapier body while dormant");
    let hit = f.physics.raycast(Vec3::new(500.0, 10.0, 0.5), Vec3::NEG_Y, 100.0).unwrap();
    assert_eq!(hit.id, far);
    assert!((hit.distance - 4.0).abs() < 1e-4, "{hit:?}");
    assert!((hit.normal - Vec3::Y).length() < 1e-4, "{hit:?}");
    // The nearer of two dormant parts on one ray.
    let hit = f.physics.raycast(Vec3::new(500.0, 40.0, 0.5), Vec3::NEG_Y, 100.0).unwrap();
    assert_eq!(hit.id, near);
    assert!(f.physics.raycast(Vec3::new(500.0, 40.0, 0.5), Vec3::NEG_Y, 10.0).is_none());
}

#[test]
fn a_falling_part_wakes_the_dormant_part_it_lands_on_and_it_sleeps_again_after() {
    let mut f = Fixture::new();
    let ws = f.arena.workspace();
    let platform = f.part(ws, Vec3::ZERO, Vec3::new(20.0, 2.0, 20.0), true);
    let block = f.part(ws, Vec3::new(0.0, 60.0, 0.0), Vec3::ONE, false);
    f.tick();
    assert_eq!(f.physics.dormant_parts(), 1, "out of the falling part's reach at first");
    f.run(150);
    check_all(&f);
    assert_eq!(f.physics.dormant_parts(), 0);
    let y = f.physics.body(block).unwrap().translation().y;
    assert!((y - 1.5).abs() < 0.1, "the block rests on the platform, at {y}");
    // A ray from above hits the block; from the side, the platform (now in rapier).
    assert_eq!(f.physics.raycast(Vec3::new(0.0, 10.0, 0.0), Vec3::NEG_Y, 20.0).unwrap().id, block);
    assert_eq!(f.physics.raycast(Vec3::new(8.0, 10.0, 0.0), Vec3::NEG_Y, 20.0).unwrap().id, platform);
    f.arena.destroy(block).unwrap();
    f.run(DORMANCY_SWEEP_EVERY as usize + 1);
    check_all(&f);
    assert_eq!(f.physics.dormant_parts(), 1, "no body reaches it any more");
    assert_eq!(f.physics.raycast(Vec3::new(0.0, 10.0, 0.0), Vec3::NEG_Y, 20.0).unwrap().id, platform);
}

#[test]
fn a_dormant_part_moved_next_to_a_resting_body_wakes_and_small_moves_are_free() {
    let mut f = Fixture::new();
    let ws = f.arena.workspace();
    f.floor();
    let block = f.part(ws, Vec3::new(0.0, 1.5, 0.0), Vec3::ONE, false);
    let wall = f.part(ws, Vec3::new(300.0, 5.0, 0.0), Vec3::new(1.0, 8.0, 8.0), true);
    f.run(120);
    assert!(f.physics.body(block).unwrap().is_sleeping());
    assert!(f.physics.body(wall).is_none());
    // Within `ANCHORED_SLACK` of where it was checked: nothing to re-check.
    f.arena.set_position(wall, Vec3::new(300.5, 5.0, 0.0)).unwrap();
    f.physics.sync(&f.arena);
    assert_eq!(f.physics.crowding.listed(), 0);
    f.arena.set_position(wall, Vec3::new(1.5, 5.0, 0.0)).unwrap();
    f.tick();
    check_all(&f);
    assert!(f.physics.body(wall).is_some_and(|b| b.is_enabled()), "the wall reaches the block's region");
}
