//! Criterion benchmarks of the place tree (`arbor-core`). Every group holds our operation
//! and its baseline, measured in the same run, so the ratio baseline / ours can be read
//! straight off the report:
//!
//! | group | ours | baseline |
//! |---|---|---|
//! | `snapshot_1m` | `Arena::snapshot` of a 1M-node place (drop included) | `.clone()` of a `Vec` of 1M plain 128-byte structs |
//! | `first_write_after_snapshot` | `set_position` on a Part while a fresh snapshot shares every page (and, as a diagnostic, when its directory was already copied) | the same write with no snapshot alive |
//! | `diff_1m` | `Snapshot::diff` with 1% of nodes written (scattered, clustered) | look up every node of both snapshots and compare revisions |
//! | `create_1m` | 1,000 Models × 999 Parts with `Arena::create`, then `drain_events`; the same tree built in bulk with `ArenaBuilder` (as the place loader does) | bevy_ecs `World::spawn` of the same tree with `ChildOf` |
//! | `destroy_children` | `destroy` every child of a 10k/50k/100k-child folder in creation order, then both drains (events, reclamation) | bevy_ecs `World::despawn` of each child |
//! | `reparent_child_100k` | `set_parent` of the oldest/newest child of a 100k-child folder to a sibling folder | bevy_ecs `insert(ChildOf(sibling))` |
//! | `subtree` | `destroy` of a 10k-node subtree with both drains; `clone_subtree` of a 40-Part Model | bevy_ecs recursive `despawn`; `clone_and_spawn` with linked cloning |
//! | `find_first_child_1000` | `find_first_child` hit (last child) and miss (name never interned) | linear `==` scan of a `Vec<String>` |
//!
//! Building trees and dropping large results happen outside the timed region
//! (`iter_batched` with one input per iteration, or `iter_custom`). Event draining is timed
//! where it is part of the operation's cost. The million-node and 100k-child groups use 10
//! samples with flat sampling so the whole file runs in a few minutes on two cores.
//!
//! Memory figures are not timed here: see the `memory_report` binary.

use arbor_benches::{
    PLACE_MODELS, PLACE_PARTS_PER_MODEL, build_folder, build_million_place, grow_place, settle,
};
use arbor_core::{
    Arena, ArenaBuilder, Class, Id, NodeFields, Snapshot, SnapshotDiff, Vec3,
    raw::{DIR_SIZE, PAGE_SIZE},
};
use bevy_ecs::prelude::{ChildOf, Children, Component, Entity, Name, World};
use criterion::{
    BatchSize, BenchmarkGroup, Criterion, SamplingMode, Throughput, criterion_group, criterion_main,
};
use std::collections::VecDeque;
use std::hint::black_box;
use std::time::{Duration, Instant};

// ---- baselines ----

/// The plain-struct baseline for one node: 128 bytes of typical node state, no pointers.
#[derive(Clone, Copy, Debug, Default)]
#[repr(C)]
struct PlainNode {
    id: u64,
    parent: u64,
    revision: u64,
    attributes: u64,
    guid: [u64; 2],
    position: [f32; 3],
    rotation: [f32; 4],
    size: [f32; 3],
    color: [f32; 4],
    class: u32,
    name: u32,
    flags: u32,
    material: u32,
    first_child: u32,
    child_count: u32,
}

const _: () = assert!(std::mem::size_of::<PlainNode>() == 128);

/// One million plain nodes with distinct contents (so every page of the source is real).
fn plain_nodes(n: usize) -> Vec<PlainNode> {
    (0..n as u64)
        .map(|i| PlainNode {
            id: i + 1,
            parent: i / 1000,
            revision: i,
            guid: [i.wrapping_mul(0x9E37_79B9_7F4A_7C15), !i],
            position: [i as f32, 0.0, 1.0],
            rotation: [0.0, 0.0, 0.0, 1.0],
            size: [4.0, 1.0, 2.0],
            class: 4,
            name: 7,
            ..PlainNode::default()
        })
        .collect()
}

/// The naive diff: look up every node of the newer snapshot in the older one and compare
/// revisions, then look up every node of the older one in the newer (for removals).
fn diff_every_node(old: &Snapshot, new: &Snapshot) -> SnapshotDiff {
    let mut diff = SnapshotDiff::default();
    for n in new.iter() {
        match old.get(n.id()) {
            Some(o) if o.revision() != n.revision() => diff.changed.push(n.id()),
            Some(_) => {}
            None => diff.added.push(n.id()),
        }
    }
    for o in old.iter() {
        if new.get(o.id()).is_none() {
            diff.removed.push(o.id());
        }
    }
    diff
}

/// A bevy component comparable to our built-in local transform.
#[derive(Component, Clone, Copy, Debug)]
struct LocalTransform {
    position: [f32; 3],
    rotation: [f32; 4],
}

impl Default for LocalTransform {
    fn default() -> Self {
        Self { position: [0.0; 3], rotation: [0.0, 0.0, 0.0, 1.0] }
    }
}

/// One bevy entity per node: a name, a local transform and (under a parent) `ChildOf`.
fn bevy_node(name: &'static str, parent: Entity) -> (Name, LocalTransform, ChildOf) {
    (Name::new(name), LocalTransform::default(), ChildOf(parent))
}

/// A bevy world holding a root entity standing for the Workspace.
fn bevy_world() -> (World, Entity) {
    let mut world = World::new();
    let ws = world.spawn((Name::new("Workspace"), LocalTransform::default())).id();
    (world, ws)
}

/// The bevy twin of [`grow_place`]: `models` entities under `ws`, each with `parts` children.
fn bevy_grow_place(world: &mut World, ws: Entity, models: usize, parts: usize) {
    for _ in 0..models {
        let model = world.spawn(bevy_node("Model", ws)).id();
        for _ in 0..parts {
            world.spawn(bevy_node("Part", model));
        }
    }
}

/// The bevy twin of [`build_folder`]: a `Bullets` entity under the Workspace with
/// `children` children, returned in creation order.
fn bevy_folder(children: usize) -> (World, Entity, Vec<Entity>) {
    let (mut world, ws) = bevy_world();
    let folder = world.spawn(bevy_node("Bullets", ws)).id();
    let kids = (0..children).map(|_| world.spawn(bevy_node("Bullet", folder)).id()).collect();
    (world, folder, kids)
}

fn child_count(world: &World, parent: Entity) -> usize {
    world.get::<Children>(parent).map_or(0, |c| c.len())
}

/// Settings for groups whose one iteration takes tens of milliseconds or more.
fn large<M: criterion::measurement::Measurement>(group: &mut BenchmarkGroup<'_, M>) {
    group.sample_size(10);
    group.sampling_mode(SamplingMode::Flat);
}

// ---- 1. snapshots ----

const MILLION: usize = 1_000_000;

fn snapshot_benches(c: &mut Criterion) {
    let place = build_million_place();
    let mut arena = place.arena;
    assert_eq!(arena.len(), MILLION + 2);

    {
        let mut group = c.benchmark_group("snapshot_1m");
        large(&mut group);
        group.bench_function("arbor_snapshot", |b| b.iter(|| arena.snapshot()));
        let nodes = plain_nodes(MILLION);
        group.bench_function("baseline_deep_clone_128b", |b| {
            b.iter_batched(|| (), |()| nodes.clone(), BatchSize::PerIteration)
        });
        group.finish();
    }

    // A Part in the middle of the place.
    let target = arena.children(place.models[PLACE_MODELS / 2]).nth(500).expect("a Part");
    // A Part on another page of the same directory (ids are slot + 1 in a fresh place).
    let (page_of, dir_of) =
        (|id: Id| (id.0 - 1) as usize / PAGE_SIZE, |id: Id| (id.0 - 1) as usize / (PAGE_SIZE * DIR_SIZE));
    let neighbour = arena
        .children(place.models[PLACE_MODELS / 2])
        .find(|&p| page_of(p) != page_of(target) && dir_of(p) == dir_of(target))
        .expect("a Part on another page of the directory");
    {
        let mut group = c.benchmark_group("first_write_after_snapshot");
        // Distinct exact positions for consecutive writes (a repeated value would be a no-op).
        let mut writes = 0u64;
        let mut next_position = move || {
            writes += 1;
            Vec3::new((writes & 0xFFFF) as f32, ((writes >> 16) & 0xFFFF) as f32, 1.0)
        };
        group.bench_function("arbor_write_shared_page", |b| {
            b.iter_custom(|iters| {
                let mut total = Duration::ZERO;
                for _ in 0..iters {
                    let snap = arena.snapshot();
                    let position = next_position();
                    let start = Instant::now();
                    let wrote = arena.set_position(target, position);
                    total += start.elapsed();
                    assert_eq!(wrote, Ok(true));
                    drop(snap);
                    drop(arena.take_dirty_transforms());
                }
                total
            })
        });
        // Diagnostic: the first write to a second page of a directory the first write
        // already copied pays for the page copy alone.
        group.bench_function("arbor_write_shared_page_dir_already_copied", |b| {
            b.iter_custom(|iters| {
                let mut total = Duration::ZERO;
                for _ in 0..iters {
                    let snap = arena.snapshot();
                    arena.set_position(neighbour, next_position()).expect("write the neighbour");
                    let position = next_position();
                    let start = Instant::now();
                    let wrote = arena.set_position(target, position);
                    total += start.elapsed();
                    assert_eq!(wrote, Ok(true));
                    drop(snap);
                    drop(arena.take_dirty_transforms());
                }
                total
            })
        });
        group.bench_function("baseline_write_unshared_page", |b| {
            b.iter_custom(|iters| {
                let mut total = Duration::ZERO;
                for _ in 0..iters {
                    let position = next_position();
                    let start = Instant::now();
                    let wrote = arena.set_position(target, position);
                    total += start.elapsed();
                    assert_eq!(wrote, Ok(true));
                    drop(arena.take_dirty_transforms());
                }
                total
            })
        });
        group.finish();
    }

    // Diffs: `old → mid` wrote 10,000 consecutive Parts; `mid → new` wrote every 100th Part.
    let parts: Vec<Id> = arena.iter().filter(|n| n.class() == Class::Part).map(|n| n.id()).collect();
    let old = arena.snapshot();
    for &p in &parts[..MILLION / 100] {
        arena.set_position(p, Vec3::new(-1.0, -1.0, -1.0)).expect("write a Part");
    }
    let mid = arena.snapshot();
    let scattered: Vec<Id> = parts.iter().copied().step_by(100).collect();
    for &p in &scattered {
        arena.set_position(p, Vec3::new(-2.0, -2.0, -2.0)).expect("write a Part");
    }
    let new = arena.snapshot();
    drop(arena.take_dirty_transforms());
    let diff = mid.diff(&new);
    assert_eq!(diff.changed, scattered);
    assert_eq!(diff, diff_every_node(&mid, &new));
    assert_eq!(old.diff(&mid).changed.len(), MILLION / 100);
    {
        let mut group = c.benchmark_group("diff_1m");
        large(&mut group);
        group.bench_function("arbor_diff_1pct_scattered", |b| b.iter(|| mid.diff(&new)));
        group
            .bench_function("baseline_every_node_1pct_scattered", |b| b.iter(|| diff_every_node(&mid, &new)));
        group.bench_function("arbor_diff_1pct_clustered", |b| b.iter(|| old.diff(&mid)));
        group
            .bench_function("baseline_every_node_1pct_clustered", |b| b.iter(|| diff_every_node(&old, &mid)));
        group.finish();
    }
}

// ---- 2. creation ----

fn create_benches(c: &mut Criterion) {
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

// ---- 3. emptying and reparenting inside a large folder ----

fn destroy_children_benches(c: &mut Criterion) {
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

fn reparent_benches(c: &mut Criterion) {
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

// ---- 4. subtrees and child lookup ----

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

fn subtree_benches(c: &mut Criterion) {
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

/// Writes that add text pay for the place's text bound (`Arena::max_text_bytes`): string
/// attribute writes against number attribute writes (no text), on 10,000 parts, a cap set.
fn text_write_benches(c: &mut Criterion) {
    let mut group = c.benchmark_group("attribute_write_10k");
    let mut arena = Arena::new();
    arena.set_max_text_bytes(256 << 20);
    let ws = arena.workspace();
    let parts: Vec<Id> = (0..10_000).map(|_| arena.create(Class::Part, "P", Some(ws)).unwrap()).collect();
    let texts: [std::sync::Arc<str>; 2] = ["alpha".into(), "omega".into()];
    let mut flip = 0usize;
    group.bench_function("string", |b| {
        b.iter(|| {
            flip ^= 1;
            for &p in &parts {
                let v = arbor_core::AttributeValue::String(texts[flip].clone());
                arena.set_attribute(p, "Tag", Some(v)).unwrap();
            }
        })
    });
    group.bench_function("number_baseline", |b| {
        b.iter(|| {
            flip ^= 1;
            for &p in &parts {
                arena.set_attribute(p, "Hp", Some(arbor_core::AttributeValue::Number(flip as f64))).unwrap();
            }
        })
    });
    group.finish();
}

criterion_group!(
    benches,
    text_write_benches,
    snapshot_benches,
    create_benches,
    destroy_children_benches,
    reparent_benches,
    subtree_benches
);
criterion_main!(benches);
