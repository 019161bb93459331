//! Physics in a big place where a few bodies move and scripts move anchored parts: what a
//! tick costs next to rapier stepping the same dynamic bodies alone.
//!
//! | group | ours | baseline |
//! |---|---|---|
//! | `physics_moved/{small,far}_moves/200000` | `tick`: sync + step + write-back of 10,000 awake boxes on a floor beside 200,000 anchored parts, 2,000 of which a script moved before the tick (by up to half a stud, or by 3 studs) | `bare_step`: `PhysicsWorld::step` of the floor and the 10,000 boxes alone, in bare rapier |
//!
//! The boxes are the awake scene of `physics.rs` (sleeping off, settled for a second). The
//! anchored parts stand in a grid beside the floor, where no box reaches them. The moves are
//! made outside the timed region (`iter_custom`), the tick inside it.

use arbor_core::{Arena, Class, Id, NodeFlags, Vec3};
use arbor_sim::{physics::DEFAULT_GRAVITY, physics::Physics, physics::PhysicsConfig};
use criterion::{Criterion, criterion_group, criterion_main};
use rapier3d::prelude::{ColliderBuilder, PhysicsWorld, Pose, RigidBodyBuilder};
use std::time::{Duration, Instant};

const DT: f32 = 1.0 / 60.0;
const BOXES: usize = 10_000;
const ANCHORED: usize = 200_000;
const MOVED: usize = ANCHORED / 100;
const PITCH: f32 = 3.0;

fn box_positions() -> Vec<Vec3> {
    let side = (BOXES as f32).sqrt().ceil() as usize;
    (0..BOXES).map(|i| Vec3::new((i % side) as f32 * PITCH, 2.01, (i / side) as f32 * PITCH)).collect()
}

fn floor_extent() -> f32 {
    (BOXES as f32).sqrt().ceil() * PITCH + 20.0
}

/// The floor (centred under the boxes) as a half-extent and centre.
fn floor() -> (Vec3, Vec3) {
    let e = floor_extent();
    (Vec3::new(e / 2.0, 1.0, e / 2.0), Vec3::new(e / 2.0 - 10.0, 0.0, e / 2.0 - 10.0))
}

struct Scene {
    arena: Arena,
    physics: Physics,
    anchored: Vec<Id>,
    rng: u64,
}

impl Scene {
    fn new() -> Self {
        let mut arena = Arena::new();
        let ws = arena.workspace();
        let (half, centre) = floor();
        let f = arena.create(Class::Part, "Floor", Some(ws)).unwrap();
        arena.set_size(f, half * 2.0).unwrap();
        arena.set_position(f, centre).unwrap();
        arena.set_flag(f, NodeFlags::ANCHORED, true).unwrap();
        for p in box_positions() {
            let id = arena.create(Class::Part, "Box", Some(ws)).unwrap();
            arena.set_size(id, Vec3::splat(2.0)).unwrap();
            arena.set_position(id, p).unwrap();
        }
        // A city beside the floor: 4 x 1 x 2 parts 6 studs apart, from x = 1,000 on.
        let side = (ANCHORED as f32).sqrt().ceil() as usize;
        let anchored: Vec<Id> = (0..ANCHORED)
            .map(|i| {
                let id = arena.create(Class::Part, "Part", Some(ws)).unwrap();
                arena.set_size(id, Vec3::new(4.0, 1.0, 2.0)).unwrap();
                let at = Vec3::new(1_000.0 + (i % side) as f32 * 6.0, 5.0, (i / side) as f32 * 6.0);
                arena.set_position(id, at).unwrap();
                arena.set_flag(id, NodeFlags::ANCHORED, true).unwrap();
                id
            })
            .collect();
        arena.take_dirty_transforms();
        let config = PhysicsConfig { can_sleep: false, ..PhysicsConfig::default() };
        let mut scene = Scene { arena, physics: Physics::with_config(config), anchored, rng: 0x9E37_79B9 };
        for _ in 0..60 {
            scene.tick();
        }
        scene
    }

    fn next(&mut self) -> u64 {
        self.rng ^= self.rng << 13;
        self.rng ^= self.rng >> 7;
        self.rng ^= self.rng << 17;
        self.rng
    }

    /// Moves `MOVED` random anchored parts along z by up to `reach` studs either way.
    fn move_anchored(&mut self, reach: f32) {
        for _ in 0..MOVED {
            let pick = (self.next() % ANCHORED as u64) as usize;
            let id = self.anchored[pick];
            let dz = ((self.next() % 2001) as f32 / 1000.0 - 1.0) * reach;
            let p = self.arena.get(id).unwrap().position();
            self.arena.set_position(id, p + Vec3::new(0.0, 0.0, dz)).unwrap();
        }
    }

    fn tick(&mut self) {
        self.physics.sync(&self.arena);
        self.physics.step(DT);
        self.physics.write_back(&mut self.arena);
        self.arena.take_dirty_transforms();
    }
}

fn bare_world() -> PhysicsWorld {
    let mut world = PhysicsWorld::new();
    world.gravity = DEFAULT_GRAVITY;
    world.integration_parameters.length_unit = PhysicsConfig::default().length_unit;
    world.integration_parameters.dt = DT;
    let (half, centre) = floor();
    world.insert(
        RigidBodyBuilder::fixed().pose(Pose::from_translation(centre)),
        ColliderBuilder::cuboid(half.x, half.y, half.z),
    );
    for p in box_positions() {
        let body = RigidBodyBuilder::dynamic().pose(Pose::from_translation(p)).can_sleep(false);
        world.insert(body, ColliderBuilder::cuboid(1.0, 1.0, 1.0));
    }
    for _ in 0..60 {
        world.step();
    }
    world
}

fn moved_benches(c: &mut Criterion) {
    let mut group = c.benchmark_group("physics_moved");
    group.sample_size(10);
    let mut world = bare_world();
    group.bench_function(format!("bare_step/{BOXES}"), |b| b.iter(|| world.step()));
    drop(world);
    let mut scene = Scene::new();
    for (name, reach) in [("small_moves", 0.5), ("far_moves", 3.0)] {
        group.bench_function(format!("{name}/{ANCHORED}"), |b| {
            b.iter_custom(|iters| {
                let mut total = Duration::ZERO;
                for _ in 0..iters {
                    scene.move_anchored(reach);
                    let t = Instant::now();
                    scene.tick();
                    total += t.elapsed();
                }
                total
            })
        });
    }
    group.finish();
}

criterion_group!(benches, moved_benches);
criterion_main!(benches);
