//! Physics benchmarks: what mirroring the arena into rapier3d costs per tick, next to the
//! rapier step it wraps, measured in the same run.
//!
//! | group | ours | baseline |
//! |---|---|---|
//! | `physics_awake/{1000,10000}` | `overhead`: `Physics::sync` + `Physics::write_back` of a tick (every body awake and written); `step`: the step inside those ticks; `tick`: sync + step + write-back | `bare_step`: `PhysicsWorld::step` of a rapier world built directly with the same bodies and settings |
//! | `physics_sleeping/10000` | `tick`: sync + step + write-back of a settled pile that fell asleep | `bare_step` of the same pile, asleep, in bare rapier |
//! | `physics_sync_edits` | `sync` after a script moved 100 of 10,000 anchored parts (the moves untimed) | `sync_idle`: `sync` with no edit |
//! | `physics_container_move` | `sync` and `fallen_scan` after one write of a Folder's `Position` holding 10,000 anchored parts | the same under a Model |
//! | `physics_crowding/{full_pass,step}/10000` | `full_pass`: `Physics::recheck_crowding` (the crowding pass re-checking every body) of the awake 10,000-box scene | `step`: `Physics::step` of the same scene |
//! | `physics_crowding/pile_first_step/3000` | the first `Physics::step` after syncing 3,000 anchored parts at one spot (the setup untimed) | — (before the world-wide bounds it listed 4.5 million pairs) |
//!
//! The awake scenes are boxes resting on an anchored floor in a grid, with sleeping turned
//! off (`PhysicsConfig::can_sleep = false`), settled for a second before measuring so the
//! contacts are warm. The overhead is timed inside real ticks (`iter_custom`: each iteration
//! runs sync → step → write-back and only the sync and write-back are counted), so the
//! write-back always sees the poses the step just moved. The transform-dirty list is drained
//! outside the timed region each tick (that is the transform pass's work).
//!
//! Target: overhead under 10% of `bare_step`.

use arbor_core::{Arena, Class, Family, Id, NodeFlags, Vec3};
use arbor_sim::{
    fallen::FallenParts, physics::DEFAULT_GRAVITY, physics::Physics, physics::PhysicsConfig,
    transform::PassMode, transform::WorldTransforms,
};
use criterion::{
    BatchSize, BenchmarkGroup, Criterion, criterion_group, criterion_main, measurement::WallTime,
};
use rapier3d::prelude::{ColliderBuilder, PhysicsWorld, Pose, RigidBodyBuilder};
use std::hint::black_box;
use std::time::{Duration, Instant};

const DT: f32 = 1.0 / 60.0;
/// Box edge (studs) and grid pitch.
const EDGE: f32 = 2.0;
const PITCH: f32 = 3.0;
/// The floor is 2 studs thick with its top at y = 1.
const FLOOR_TOP: f32 = 1.0;

/// Grid positions of `n` boxes resting on the floor.
fn box_positions(n: usize) -> Vec<Vec3> {
    let side = (n as f32).sqrt().ceil() as usize;
    let offset = side as f32 * PITCH / 2.0;
    (0..n)
        .map(|i| {
            let (x, z) = ((i % side) as f32 * PITCH - offset, (i / side) as f32 * PITCH - offset);
            Vec3::new(x, FLOOR_TOP + EDGE / 2.0 + 0.01, z)
        })
        .collect()
}

fn floor_extent(n: usize) -> f32 {
    (n as f32).sqrt().ceil() * PITCH + 20.0
}

/// An arena with a floor and `n` boxes, its physics synced and settled for `settle` ticks.
struct Scene {
    arena: Arena,
    physics: Physics,
}

impl Scene {
    fn new(n: usize, can_sleep: bool, settle: usize) -> Self {
        let mut arena = Arena::new();
        let ws = arena.workspace();
        let floor = arena.create(Class::Part, "Floor", Some(ws)).unwrap();
        let extent = floor_extent(n);
        arena.set_size(floor, Vec3::new(extent, 2.0, extent)).unwrap();
        arena.set_flag(floor, NodeFlags::ANCHORED, true).unwrap();
        for p in box_positions(n) {
            let id: Id = arena.create(Class::Part, "Box", Some(ws)).unwrap();
            arena.set_size(id, Vec3::splat(EDGE)).unwrap();
            arena.set_position(id, p).unwrap();
        }
        arena.take_dirty_transforms();
        let config = PhysicsConfig { can_sleep, ..PhysicsConfig::default() };
        let mut scene = Scene { arena, physics: Physics::with_config(config) };
        for _ in 0..settle {
            scene.tick();
        }
        scene
    }

    /// One tick; returns (time in sync + write-back, time in the step, parts written).
    fn tick(&mut self) -> (Duration, Duration, usize) {
        let t0 = Instant::now();
        black_box(self.physics.sync(&self.arena));
        let t1 = Instant::now();
        self.physics.step(DT);
        let t2 = Instant::now();
        let written = self.physics.write_back(&mut self.arena);
        let t3 = Instant::now();
        self.arena.take_dirty_transforms();
        ((t1 - t0) + (t3 - t2), t2 - t1, written)
    }
}

/// The same floor and boxes in a rapier world built directly, with the same settings.
fn bare_world(n: usize, can_sleep: bool, settle: usize) -> PhysicsWorld {
    let config = PhysicsConfig::default();
    let mut world = PhysicsWorld::new();
    world.gravity = DEFAULT_GRAVITY;
    world.integration_parameters.length_unit = config.length_unit;
    world.integration_parameters.dt = DT;
    let extent = floor_extent(n);
    world.insert(RigidBodyBuilder::fixed(), ColliderBuilder::cuboid(extent / 2.0, 1.0, extent / 2.0));
    for p in box_positions(n) {
        let body = RigidBodyBuilder::dynamic().pose(Pose::from_translation(p)).can_sleep(can_sleep);
        world.insert(body, ColliderBuilder::cuboid(EDGE / 2.0, EDGE / 2.0, EDGE / 2.0));
    }
    for _ in 0..settle {
        world.step();
    }
    world
}

fn awake_group(group: &mut BenchmarkGroup<'_, WallTime>, n: usize) {
    let mut world = bare_world(n, false, 60);
    group.bench_function(format!("bare_step/{n}"), |b| b.iter(|| world.step()));
    drop(world);

    let mut scene = Scene::new(n, false, 60);
    let (_, _, written) = scene.tick();
    assert_eq!(scene.physics.awake_bodies(), n);
    assert!(written * 10 >= n * 9, "only {written} of {n} bodies written: the overhead would be flattered");
    group.bench_function(format!("overhead/{n}"), |b| {
        b.iter_custom(|iters| (0..iters).map(|_| scene.tick().0).sum())
    });
    group.bench_function(format!("step/{n}"), |b| {
        b.iter_custom(|iters| (0..iters).map(|_| scene.tick().1).sum())
    });
    group.bench_function(format!("tick/{n}"), |b| {
        b.iter(|| {
            scene.tick();
        })
    });
}

fn awake_benches(c: &mut Criterion) {
    let mut group = c.benchmark_group("physics_awake");
    group.sample_size(10);
    awake_group(&mut group, 1_000);
    awake_group(&mut group, 10_000);
    group.finish();
}

fn sleeping_benches(c: &mut Criterion) {
    const N: usize = 10_000;
    let mut group = c.benchmark_group("physics_sleeping");
    group.sample_size(10);
    let mut world = bare_world(N, true, 0);
    for _ in 0..1_200 {
        world.step();
        if world.islands.num_active_bodies() == 0 {
            break;
        }
    }
    assert_eq!(world.islands.num_active_bodies(), 0, "bare pile did not fall asleep");
    group.bench_function(format!("bare_step/{N}"), |b| b.iter(|| world.step()));
    drop(world);

    let mut scene = Scene::new(N, true, 0);
    for _ in 0..1_200 {
        scene.tick();
        if scene.physics.awake_bodies() == 0 {
            break;
        }
    }
    assert_eq!(scene.physics.awake_bodies(), 0, "pile did not fall asleep");
    scene.tick();
    group.bench_function(format!("tick/{N}"), |b| {
        b.iter(|| {
            let (_, _, written) = scene.tick();
            assert_eq!(written, 0);
        })
    });
    group.finish();
}

/// Sync cost follows the edits, not the body count: 100 anchored parts moved per tick among
/// 10,000 bodies.
fn sync_edit_benches(c: &mut Criterion) {
    const N: usize = 10_000;
    const EDITS: usize = 100;
    let mut group = c.benchmark_group("physics_sync_edits");
    let mut scene = Scene::new(N, true, 1);
    let movers: Vec<Id> =
        scene.arena.family(Family::Parts).iter().copied().skip(1).step_by(N / EDITS).collect();
    for &id in &movers {
        scene.arena.set_flag(id, NodeFlags::ANCHORED, true).unwrap();
    }
    scene.tick();
    group
        .bench_function(format!("sync_idle/{N}"), |b| b.iter(|| black_box(scene.physics.sync(&scene.arena))));
    let mut offset = 0.5f32;
    group.bench_function(format!("sync_{EDITS}_edits/{N}"), |b| {
        b.iter_custom(|iters| {
            let mut total = Duration::ZERO;
            for _ in 0..iters {
                offset = -offset;
                for &id in &movers {
                    let p = scene.arena.get(id).unwrap().position();
                    scene.arena.set_position(id, Vec3::new(p.x, p.y, p.z + offset)).unwrap();
                }
                let t = Instant::now();
                let stats = black_box(scene.physics.sync(&scene.arena));
                total += t.elapsed();
                assert_eq!(stats.updated, movers.len());
                scene.arena.take_dirty_transforms();
            }
            total
        })
    });
    group.finish();
}

/// A container of 10,000 anchored parts moved as a whole: the physics sync and the
/// fallen-parts scan after one write of its `Position`, for a Folder (any container reaches
/// them through the part-write log) against the same parts under a Model (the case that
/// always worked), in the same run.
fn container_move_benches(c: &mut Criterion) {
    const N: usize = 10_000;
    let mut group = c.benchmark_group("physics_container_move");
    for class in [Class::Folder, Class::Model] {
        let mut arena = Arena::new();
        let ws = arena.workspace();
        let container = arena.create(class, "Container", Some(ws)).unwrap();
        for (i, p) in box_positions(N).into_iter().enumerate() {
            let id = arena.create(Class::Part, "Part", Some(container)).unwrap();
            arena.set_position(id, p + Vec3::Y * (i % 3) as f32).unwrap();
            arena.set_flag(id, NodeFlags::ANCHORED, true).unwrap();
        }
        let mut transforms = WorldTransforms::new();
        let mut physics = Physics::new(DEFAULT_GRAVITY);
        let mut fallen = FallenParts::default();
        let pass = |arena: &mut Arena, transforms: &mut WorldTransforms| {
            let dirty = arena.take_dirty_transforms();
            transforms.update(arena, &dirty, PassMode::default());
        };
        pass(&mut arena, &mut transforms);
        physics.sync(&arena);
        fallen.scan(&mut arena, &transforms);
        let mut x = 0.0f32;
        group.bench_function(format!("sync/{}/{N}", class.name()), |b| {
            b.iter_custom(|iters| {
                let mut total = Duration::ZERO;
                for _ in 0..iters {
                    x += 1.0;
                    arena.set_position(container, Vec3::new(x, 0.0, 0.0)).unwrap();
                    let t = Instant::now();
                    let stats = black_box(physics.sync(&arena));
                    total += t.elapsed();
                    assert_eq!(stats.updated, N);
                    arena.take_dirty_transforms();
                }
                total
            })
        });
        group.bench_function(format!("fallen_scan/{}/{N}", class.name()), |b| {
            b.iter_custom(|iters| {
                let mut total = Duration::ZERO;
                for _ in 0..iters {
                    x += 1.0;
                    arena.set_position(container, Vec3::new(x, 0.0, 0.0)).unwrap();
                    pass(&mut arena, &mut transforms);
                    let t = Instant::now();
                    black_box(fallen.scan(&mut arena, &transforms));
                    total += t.elapsed();
                }
                total
            })
        });
    }
    group.finish();
}

/// The crowding pass: a full re-check of 10,000 awake boxes (what the step runs on its own
/// every `FULL_PASS_EVERY` steps while bodies are awake, and after bulk changes) next to the
/// rapier step of the same scene; and the first step of an anchored pile.
fn crowding_benches(c: &mut Criterion) {
    const N: usize = 10_000;
    let mut group = c.benchmark_group("physics_crowding");
    group.sample_size(10);
    let mut scene = Scene::new(N, false, 60);
    assert_eq!(scene.physics.suspended_bodies(), 0);
    group.bench_function(format!("step/{N}"), |b| b.iter(|| scene.physics.step(DT)));
    group.bench_function(format!("full_pass/{N}"), |b| b.iter(|| scene.physics.recheck_crowding()));
    drop(scene);

    const PILE: usize = 3_000;
    let mut pile = Arena::new();
    let ws = pile.workspace();
    for _ in 0..PILE {
        let id = pile.create(Class::Part, "Brick", Some(ws)).unwrap();
        pile.set_position(id, Vec3::new(0.0, 5.0, 0.0)).unwrap();
        pile.set_flag(id, NodeFlags::ANCHORED, true).unwrap();
    }
    group.bench_function(format!("pile_first_step/{PILE}"), |b| {
        b.iter_batched(
            || {
                let mut physics = Physics::new(DEFAULT_GRAVITY);
                physics.sync(&pile);
                physics
            },
            |mut physics| {
                physics.step(DT);
                physics
            },
            BatchSize::LargeInput,
        )
    });
    group.finish();
}

criterion_group!(
    benches,
    awake_benches,
    sleeping_benches,
    sync_edit_benches,
    container_move_benches,
    crowding_benches
);
criterion_main!(benches);
