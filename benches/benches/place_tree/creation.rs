//! `create_1m`: a million-node place built with `Arena::create` (events drained) and in bulk
//! with `ArenaBuilder`, against bevy_ecs spawning the same tree with `ChildOf`.

use super::bevy::{bevy_grow_place, bevy_world, child_count};
use super::scale::{MILLION, large};
use arbor_benches::{PLACE_MODELS, PLACE_PARTS_PER_MODEL, grow_place};
use arbor_core::{Arena, ArenaBuilder, Class, NodeFields};
use criterion::{BatchSize, Criterion, Throughput};
use std::hint::black_box;

pub(super) fn create_benches(c: &mut Criterion) {
    let mut group = c.benchmark_group("create_1m");
    large(&mut group);
    group.throughput(Throughput::Elements(MILLION as u64));
    group.bench_function("arbor_create_and_drain", |b| {
        b.iter_batched(
            Arena::new,
            |mut arena| {
                black_box(grow_place(&mut arena, PLACE_MODELS, PLACE_PARTS_PER_MODEL));
                drop(black_box(arena.drain_events()));
                arena
            },
            BatchSize::PerIteration,
        )
    });
    group.bench_function("arbor_bulk_build", |b| {
        b.iter_batched(
            || ArenaBuilder::new(Arena::new()).expect("a new arena is fresh"),
            |mut build| {
                let ws = build.arena().workspace();
                let (model, part) =
                    (NodeFields::named(build.intern("Model")), NodeFields::named(build.intern("Part")));
                for _ in 0..PLACE_MODELS {
                    let m = build.create(Some(ws), Class::Model, &model).expect("create a Model");
                    for _ in 0..PLACE_PARTS_PER_MODEL {
                        build.create(Some(m), Class::Part, &part).expect("create a Part");
                    }
                }
                build.finish()
            },
            BatchSize::PerIteration,
        )
    });
    group.bench_function("bevy_spawn_child_of", |b| {
        b.iter_batched(
            bevy_world,
            |(mut world, ws)| {
                bevy_grow_place(&mut world, ws, PLACE_MODELS, PLACE_PARTS_PER_MODEL);
                world
            },
            BatchSize::PerIteration,
        )
    });
    group.finish();

    // The two trees have the same shape.
    let (mut world, ws) = bevy_world();
    let before = world.entities().count_spawned();
    bevy_grow_place(&mut world, ws, 3, 4);
    assert_eq!(world.entities().count_spawned() - before, 15);
    assert_eq!(child_count(&world, ws), 3);
}
