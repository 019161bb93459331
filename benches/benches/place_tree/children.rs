//! `destroy_children` and `reparent_child_100k`: emptying a large folder child by child and
//! moving its oldest or newest child to a sibling folder, against the same on bevy_ecs.

use super::bevy::{bevy_folder, bevy_node, child_count};
use super::scale::large;
use arbor_benches::{build_folder, settle};
use arbor_core::{Class, Id};
use bevy_ecs::prelude::{ChildOf, Entity};
use criterion::{BatchSize, Criterion, Throughput};
use std::collections::VecDeque;
use std::hint::black_box;
use std::time::{Duration, Instant};

pub(super) fn destroy_children_benches(c: &mut Criterion) {
    let mut group = c.benchmark_group("destroy_children");
    large(&mut group);
    for n in [10_000usize, 50_000, 100_000] {
        group.throughput(Throughput::Elements(n as u64));
        group.bench_function(format!("arbor/{n}"), |b| {
            b.iter_batched(
                || build_folder(n),
                |(mut arena, folder, kids)| {
                    for &kid in &kids {
                        arena.destroy(kid).expect("destroy a child");
                    }
                    drop(black_box(arena.drain_events()));
                    drop(black_box(arena.drain_events()));
                    debug_assert_eq!(arena.children(folder).count(), 0);
                    (arena, kids)
                },
                BatchSize::PerIteration,
            )
        });
        group.bench_function(format!("bevy/{n}"), |b| {
            b.iter_batched(
                || bevy_folder(n),
                |(mut world, folder, kids)| {
                    for &kid in &kids {
                        world.despawn(kid);
                    }
                    debug_assert_eq!(child_count(&world, folder), 0);
                    (world, kids)
                },
                BatchSize::PerIteration,
            )
        });
    }
    group.finish();

    // Both sides really empty the folder.
    let (mut arena, folder, kids) = build_folder(100);
    kids.iter().for_each(|&k| assert_eq!(arena.destroy(k), Ok(true)));
    assert_eq!(arena.children(folder).count(), 0);
    let (mut world, folder, kids) = bevy_folder(100);
    kids.iter().for_each(|&k| assert!(world.despawn(k)));
    world.flush();
    assert_eq!(child_count(&world, folder), 0);
}

/// Which child of the folder each reparent moves out (and back in at the end).
#[derive(Clone, Copy)]
enum Pick {
    /// The first child (the oldest bullet): the worst case for a shifting child array.
    Oldest,
    /// The last child (the newest bullet).
    Newest,
}

impl Pick {
    fn name(self) -> &'static str {
        match self {
            Pick::Oldest => "oldest",
            Pick::Newest => "newest",
        }
    }

    fn take<T>(self, order: &mut VecDeque<T>) -> T {
        match self {
            Pick::Oldest => order.pop_front(),
            Pick::Newest => order.pop_back(),
        }
        .expect("a child")
    }
}

pub(super) fn reparent_benches(c: &mut Criterion) {
    const N: usize = 100_000;
    let mut group = c.benchmark_group("reparent_child_100k");
    for pick in [Pick::Oldest, Pick::Newest] {
        // Ours: move the picked child into a sibling folder (timed), then back to the end of
        // the big folder (untimed, with the event drain).
        let (mut arena, folder, kids) = build_folder(N);
        let ws = arena.workspace();
        let spent = arena.create(Class::Folder, "Spent", Some(ws)).expect("create a folder");
        arena.create(Class::Part, "Keep", Some(spent)).expect("create a Part");
        settle(&mut arena);
        let mut order: VecDeque<Id> = kids.into();
        group.bench_function(format!("arbor/{}", pick.name()), |b| {
            b.iter_custom(|iters| {
                let mut total = Duration::ZERO;
                for _ in 0..iters {
                    let kid = pick.take(&mut order);
                    let start = Instant::now();
                    let moved = arena.set_parent(kid, Some(spent));
                    total += start.elapsed();
                    assert_eq!(moved, Ok(true));
                    arena.set_parent(kid, Some(folder)).expect("move back");
                    order.push_back(kid);
                    drop(arena.drain_events());
                    drop(arena.take_dirty_transforms());
                }
                total
            })
        });
        assert_eq!(arena.children(folder).count(), N);
        drop(arena);

        let (mut world, folder, kids) = bevy_folder(N);
        let ws = world.get::<ChildOf>(folder).expect("folder under ws").parent();
        let spent = world.spawn(bevy_node("Spent", ws)).id();
        world.spawn(bevy_node("Keep", spent));
        let mut order: VecDeque<Entity> = kids.into();
        group.bench_function(format!("bevy/{}", pick.name()), |b| {
            b.iter_custom(|iters| {
                let mut total = Duration::ZERO;
                for _ in 0..iters {
                    let kid = pick.take(&mut order);
                    let start = Instant::now();
                    world.entity_mut(kid).insert(ChildOf(spent));
                    total += start.elapsed();
                    world.entity_mut(kid).insert(ChildOf(folder));
                    order.push_back(kid);
                }
                total
            })
        });
        assert_eq!(child_count(&world, folder), N);
        assert_eq!(child_count(&world, spent), 1);
    }
    group.finish();
}
