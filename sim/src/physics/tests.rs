//! Unit tests of the physics mirror (internals: entries, the sync cursor, own writes).
//! Behavioural tests through the public API live in `sim/tests/physics.rs`.

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
        assert_eq!(p.world.bodies.len(), p.index.len());
        assert_eq!(p.world.colliders.len(), p.index.len());
        for (&id, &i) in &p.index {
            let e = p.entries[i as usize].as_ref().unwrap();
            assert_eq!(e.id, id);
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
    assert_eq!(f.physics.body(keep).unwrap().translation(), Vec3::new(0.0, 14.0, 0.0));
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
    assert!(f.physics.body(a).is_none());
    assert!(f.physics.body(b).is_some());
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
        let body = f.physics.body(id).unwrap();
        assert_eq!(body.translation(), world.position, "{id:?}");
    }
}
