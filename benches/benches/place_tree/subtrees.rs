//! `subtree` and `find_first_child_1000`: destroying a 10,000-node subtree and cloning a
//! 40-Part Model against bevy_ecs, and finding a child by name against a string scan.

use super::bevy::{LocalTransform, bevy_node, bevy_world, child_count};
use arbor_benches::settle;
use arbor_core::{Arena, Class, Id, Vec3};
use bevy_ecs::prelude::{ChildOf, Children, Entity, Name, World};
use criterion::{BatchSize, Criterion};
use std::hint::black_box;
use std::time::{Duration, Instant};

/// Builds a 10,000-node subtree under `ws`: a root Model holding 99 Models of 100 Parts.
fn grow_debris(arena: &mut Arena) -> Id {
    let ws = arena.workspace();
    let root = arena.create(Class::Model, "Debris", Some(ws)).expect("create the root");
    for _ in 0..99 {
        let model = arena.create(Class::Model, "Chunk", Some(root)).expect("create a Model");
        for _ in 0..100 {
            arena.create(Class::Part, "Shard", Some(model)).expect("create a Part");
        }
    }
    root
}

/// The bevy twin of [`grow_debris`].
fn bevy_debris() -> (World, Entity) {
    let (mut world, ws) = bevy_world();
    let root = world.spawn(bevy_node("Debris", ws)).id();
    for _ in 0..99 {
        let model = world.spawn(bevy_node("Chunk", root)).id();
        for _ in 0..100 {
            world.spawn(bevy_node("Shard", model));
        }
    }
    (world, root)
}

pub(super) fn subtree_benches(c: &mut Criterion) {
    let mut group = c.benchmark_group("subtree");
    group.bench_function("arbor_destroy_10k_and_drain_twice", |b| {
        b.iter_batched(
            || {
                let mut arena = Arena::new();
                let root = grow_debris(&mut arena);
                settle(&mut arena);
                (arena, root)
            },
            |(mut arena, root)| {
                arena.destroy(root).expect("destroy the subtree");
                drop(black_box(arena.drain_events()));
                drop(black_box(arena.drain_events()));
                arena
            },
            BatchSize::PerIteration,
        )
    });
    group.bench_function("bevy_despawn_10k", |b| {
        b.iter_batched(
            bevy_debris,
            |(mut world, root)| {
                world.despawn(root);
                world
            },
            BatchSize::PerIteration,
        )
    });

    // Clone a Model of 40 Parts; the copy is destroyed (and its slots reclaimed) untimed.
    let mut arena = Arena::new();
    let ws = arena.workspace();
    let car = arena.create(Class::Model, "Car", Some(ws)).expect("create a Model");
    for i in 0..40 {
        let part = arena.create(Class::Part, "Part", Some(car)).expect("create a Part");
        arena.set_position(part, Vec3::new(i as f32, 0.0, 0.0)).expect("place a Part");
    }
    settle(&mut arena);
    group.bench_function("arbor_clone_40_parts", |b| {
        b.iter_custom(|iters| {
            let mut total = Duration::ZERO;
            for _ in 0..iters {
                let start = Instant::now();
                let copy = arena.clone_subtree(car);
                total += start.elapsed();
                let copy = copy.expect("clone").expect("archivable");
                arena.destroy(copy).expect("destroy the copy");
                settle(&mut arena);
            }
            total
        })
    });
    let copy = arena.clone_subtree(car).unwrap().unwrap();
    assert_eq!(arena.children(copy).count(), 40);

    let mut world = World::new();
    let bevy_car = world.spawn((Name::new("Car"), LocalTransform::default())).id();
    for i in 0..40 {
        let t = LocalTransform { position: [i as f32, 0.0, 0.0], ..LocalTransform::default() };
        world.spawn((Name::new("Part"), t, ChildOf(bevy_car)));
    }
    let clone_car = |world: &mut World| {
        world.entity_mut(bevy_car).clone_and_spawn_with_opt_out(|b| {
            b.linked_cloning(true);
        })
    };
    group.bench_function("bevy_clone_40_parts", |b| {
        b.iter_custom(|iters| {
            let mut total = Duration::ZERO;
            for _ in 0..iters {
                let start = Instant::now();
                let copy = clone_car(&mut world);
                total += start.elapsed();
                world.despawn(copy);
            }
            total
        })
    });
    let spawned = world.entities().count_spawned();
    let copy = clone_car(&mut world);
    assert_eq!(child_count(&world, copy), 40);
    let last = *world.get::<Children>(copy).expect("children").last().expect("a child");
    let t = world.get::<LocalTransform>(last).expect("a transform");
    assert_eq!((t.position, t.rotation), ([39.0, 0.0, 0.0], [0.0, 0.0, 0.0, 1.0]));
    assert_eq!(world.entities().count_spawned() - spawned, 41);
    group.finish();

    find_first_child_benches(c);
}

fn find_first_child_benches(c: &mut Criterion) {
    const N: usize = 1_000;
    let mut arena = Arena::new();
    let ws = arena.workspace();
    let parent = arena.create(Class::Model, "Parent", Some(ws)).expect("create a Model");
    let names: Vec<String> = (0..N).map(|i| format!("Child{i}")).collect();
    let kids: Vec<Id> =
        names.iter().map(|n| arena.create(Class::Part, n, Some(parent)).expect("create a Part")).collect();
    settle(&mut arena);
    let (hit, miss) = ("Child999", "NeverInterned");
    assert_eq!(arena.find_first_child(parent, hit), Some(kids[N - 1]));
    assert_eq!(arena.find_first_child(parent, miss), None);

    let mut group = c.benchmark_group("find_first_child_1000");
    group.bench_function("arbor_hit_last", |b| b.iter(|| arena.find_first_child(parent, black_box(hit))));
    group.bench_function("baseline_string_scan_hit_last", |b| {
        b.iter(|| black_box(&names).iter().position(|n| n == black_box(hit)))
    });
    group.bench_function("arbor_miss_never_interned", |b| {
        b.iter(|| arena.find_first_child(parent, black_box(miss)))
    });
    group.bench_function("baseline_string_scan_miss", |b| {
        b.iter(|| black_box(&names).iter().position(|n| n == black_box(miss)))
    });
    group.finish();
}
