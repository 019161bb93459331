//! The workloads of the public `ecs_bench_suite`, run on Arbor's component store and on two
//! peer ECS libraries (bevy_ecs 0.20, hecs 0.11) side by side, plus two store-specific
//! workloads measured against plain hand-written baselines. Every group holds our operation
//! and its baselines, measured in the same run, so the ratio baseline / ours can be read
//! straight off the report:
//!
//! | group | ours | baselines |
//! |---|---|---|
//! | `simple_insert` | `Arena::spawn_batch` of 10,000 detached Folders × (Transform, Position, Rotation, Velocity) into a fresh arena (`arbor_nodes_only`: the 10,000 `create` calls alone) | bevy `World::spawn_batch`, hecs `World::spawn_batch` |
//! | `simple_iter` | `position += velocity` over 10,000 rows with `for_each_chunk_mut` and `wide::f32x8` blocks | bevy `QueryState::iter_mut`, hecs `query_mut`, a plain `Vec<(Vec3, Vec3)>` loop, a plain SoA `f32x8` loop |
//! | `frag_iter` | double `Data` over 26 archetypes (`A`..`Z` + `Data`) × 20 rows | bevy, hecs |
//! | `heavy_compute` | 1,000 rows: invert the Transform 100 times, then transform Position; `par_for_each_chunk_mut` alone (it splits the one chunk into row ranges for rayon), and with rayon over the gathered rows of each piece as well | bevy `par_iter_mut`, hecs `into_iter_batched(64)` + rayon `par_bridge`, a one-thread loop over a plain `Vec<(Mat4, Vec3)>` |
//! | `add_remove` | add `B` to 10,000 instances holding `A`, then remove it (`insert_pod` / `add_component`, then `remove_component`); `*_sparse*`: the same with `B` stored in a sparse set | bevy `insert` / `remove` (table and `SparseSet` storage), hecs `insert_one` / `remove_one` |
//! | `snapshot_write` | one `set_field` on a 1,000,000-row table while a snapshot shares it (also: a second write, and a write with no snapshot alive) | `.clone()` of a `Vec` of 1,000,000 `Position`s |
//! | `changed_since` | `ComponentStore::changed_since` over 1,000,000 rows with 1% written since the reader's revision, clustered and scattered | scan a `Vec<u64>` of per-row ticks and collect the ids |
//!
//! Entities in Arbor are instances of the place tree, so our `simple_insert` also creates
//! 10,000 tree nodes (detached Folders, the lightest class); the peers create bare entities.
//! `ChunkLanes::split_blocks` lends every read and written lane of a chunk at once, so SIMD
//! passes read velocity lanes while writing position lanes with no copy; `heavy_compute`
//! gathers the written lanes into rows and scatters them back to parallelise inside a chunk.
//!
//! Every store allocates through mimalloc, the allocator the `arbor` server binary uses, so
//! insert workloads measure the stores rather than glibc returning pages to the kernel.
//!
//! Figures of the write-log round (before and after, against the same baselines):
//! `docs/perf/ecs.md`, "The write-log round".
//!
//! Setup (building worlds, fresh arenas, snapshots) and dropping large results happen
//! outside the timed region (`iter_batched`, `iter_with_large_drop`). Groups with large or
//! slow iterations use 10 samples with flat sampling so the whole file runs in a few minutes
//! on two cores (`-- --warm-up-time 1 --measurement-time 3`).

use arbor_core::{
    Arena, Class, Id,
    components::{ChunkLanes, ComponentId, FieldValue, Lane, Query},
};
use bevy_ecs::prelude::{Entity, World};
use bevy_tasks::{ComputeTaskPool, TaskPool};
use criterion::{
    BatchSize, BenchmarkGroup, BenchmarkId, Criterion, SamplingMode, criterion_group, criterion_main,
    measurement::WallTime,
};
use glam::{Mat4, Vec3};
use rayon::prelude::*;
use std::cell::{Cell, RefCell};
use std::hint::black_box;
use wide::f32x8;

#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[path = "common/ecs_fixture.rs"]
mod ecs_fixture;
use ecs_fixture::*;

/// `c`'s field `field` and the `n - 1` lanes after it.
fn lanes(arena: &Arena, c: ComponentId, field: &str, n: u16) -> Vec<Lane> {
    let first = arena.components().lane(c, field).expect("field exists");
    (0..n).map(|k| first.offset(k)).collect()
}

fn big_group<'a>(c: &'a mut Criterion, name: &str) -> BenchmarkGroup<'a, WallTime> {
    let mut group = c.benchmark_group(name);
    group.sample_size(10).sampling_mode(SamplingMode::Flat);
    group
}

// ---- simple_insert ----

const INSERT_N: usize = 10_000;

fn simple_insert(c: &mut Criterion) {
    let mut group = big_group(c, "simple_insert");
    group.bench_function("arbor", |b| {
        b.iter_batched(
            arbor_four,
            |(mut arena, _)| {
                let ids = arena
                    .spawn_batch(Class::Folder, "E", None, (0..INSERT_N).map(|_| four()))
                    .expect("spawn the batch");
                (arena, ids)
            },
            BatchSize::PerIteration,
        )
    });
    // The tree half of `arbor` alone: the same instances with no components.
    group.bench_function("arbor_nodes_only", |b| {
        b.iter_batched(
            arbor_four,
            |(mut arena, _)| {
                for _ in 0..INSERT_N {
                    arena.create(Class::Folder, "E", None).expect("create");
                }
                arena
            },
            BatchSize::PerIteration,
        )
    });
    group.bench_function("bevy", |b| {
        b.iter_batched(
            World::new,
            |mut world| {
                world.spawn_batch((0..INSERT_N).map(|_| four())).for_each(drop);
                world
            },
            BatchSize::PerIteration,
        )
    });
    group.bench_function("hecs", |b| {
        b.iter_batched(
            hecs::World::new,
            |mut world| {
                world.spawn_batch((0..INSERT_N).map(|_| four())).for_each(drop);
                world
            },
            BatchSize::PerIteration,
        )
    });
    group.finish();
}

// ---- simple_iter ----

const ITER_N: usize = 10_000;

fn simple_iter(c: &mut Criterion) {
    let mut group = c.benchmark_group("simple_iter");

    let (mut arena, [_, pos, _, vel]) = arbor_four();
    let ids = arena.spawn_batch(Class::Folder, "E", None, (0..ITER_N).map(|_| four())).expect("spawn");
    let mut q = Query::new(&[pos, vel]);
    let reads = lanes(&arena, vel, "Value", 3);
    let writes = lanes(&arena, pos, "Value", 3);
    let mut arbor_step = |arena: &mut Arena| {
        arena.for_each_chunk_mut(&mut q, &reads, &writes, |mut c| {
            let (vel, mut pos) = c.split_blocks::<f32x8>();
            for (p, v) in pos.iter_mut().zip(&vel) {
                for (p, v) in p.iter_mut().zip(v.iter()) {
                    *p += *v;
                }
            }
        })
    };
    arbor_step(&mut arena);
    let got = arena.components().get_pod::<Position>(ids[ITER_N - 1]).expect("row");
    assert_eq!(got, Position(Vec3::new(2.0, 0.0, 0.0)), "one step adds the velocity");
    group.bench_function("arbor", |b| b.iter(|| arbor_step(&mut arena)));
    let mut world = World::new();
    world.spawn_batch((0..ITER_N).map(|_| four())).for_each(drop);
    let mut query = world.query::<(&Velocity, &mut Position)>();
    group.bench_function("bevy", |b| {
        b.iter(|| {
            for (v, mut p) in query.iter_mut(&mut world) {
                p.0 += v.0;
            }
        })
    });

    let mut world = hecs::World::new();
    world.spawn_batch((0..ITER_N).map(|_| four())).for_each(drop);
    group.bench_function("hecs", |b| {
        b.iter(|| {
            for (v, p) in world.query_mut::<(&Velocity, &mut Position)>() {
                p.0 += v.0;
            }
        })
    });

    let mut plain: Vec<(Vec3, Vec3)> = vec![(Vec3::X, Vec3::X); ITER_N];
    group.bench_function("plain_vec_aos", |b| {
        b.iter(|| {
            for (p, v) in black_box(&mut plain).iter_mut() {
                *p += *v;
            }
        })
    });

    let blocks = ITER_N.div_ceil(8);
    let mut soa_p = vec![f32x8::splat(1.0); 3 * blocks];
    let soa_v = vec![f32x8::splat(1.0); 3 * blocks];
    group.bench_function("plain_soa_f32x8", |b| {
        b.iter(|| {
            for (p, v) in black_box(&mut soa_p).iter_mut().zip(&soa_v) {
                *p += *v;
            }
        })
    });
    group.finish();
}

// ---- frag_iter ----

const FRAG_PER: usize = 20;

fn frag_iter(c: &mut Criterion) {
    let mut group = c.benchmark_group("frag_iter");

    let (mut arena, data) = arbor_fragmented(FRAG_PER);
    let mut q = Query::new(&[data]);
    let writes = lanes(&arena, data, "Value", 1);
    assert_eq!(arena.components().ids(&mut q).len(), 26 * FRAG_PER);
    group.bench_function("arbor", |b| {
        b.iter(|| {
            arena.for_each_chunk_mut(&mut q, &[], &writes, |mut c| {
                for d in c.write_blocks::<f32x8>(0) {
                    *d *= 2.0;
                }
            })
        })
    });

    let mut world = bevy_fragmented(FRAG_PER);
    let mut query = world.query::<&mut Data>();
    group.bench_function("bevy", |b| {
        b.iter(|| {
            for mut d in query.iter_mut(&mut world) {
                d.0 *= 2.0;
            }
        })
    });

    let mut world = hecs_fragmented(FRAG_PER);
    group.bench_function("hecs", |b| {
        b.iter(|| {
            for d in world.query_mut::<&mut Data>() {
                d.0 *= 2.0;
            }
        })
    });
    group.finish();
}

// ---- heavy_compute ----

const HEAVY_N: usize = 1_000;

/// The per-entity work: invert the matrix 100 times, then transform the position by it.
#[inline]
fn heavy(m: &mut Mat4, p: &mut Vec3) {
    for _ in 0..100 {
        *m = m.inverse();
    }
    *p = m.transform_vector3(*p);
}

/// One row of the written lanes: sixteen Transform lanes, then Position x, y, z.
type HeavyRow = [f32; 19];

fn heavy_row(row: &mut HeavyRow) {
    let mut m = Mat4::from_cols_slice(&row[..16]);
    let mut p = Vec3::from_slice(&row[16..]);
    heavy(&mut m, &mut p);
    m.write_cols_to_slice(&mut row[..16]);
    p.write_to_slice(&mut row[16..]);
}

/// Copies the 19 written lanes of a chunk into rows (one lane may be borrowed at a time).
fn gather(c: &mut ChunkLanes<'_>) -> Vec<HeavyRow> {
    let mut rows = vec![[0.0; 19]; c.len()];
    for k in 0..19 {
        for (row, x) in rows.iter_mut().zip(c.write::<f32>(k)) {
            row[k] = *x;
        }
    }
    rows
}

fn scatter(c: &mut ChunkLanes<'_>, rows: &[HeavyRow]) {
    for k in 0..19 {
        for (x, row) in c.write::<f32>(k).iter_mut().zip(rows) {
            *x = row[k];
        }
    }
}

fn heavy_compute(c: &mut Criterion) {
    ComputeTaskPool::get_or_init(TaskPool::default);
    let mut group = big_group(c, "heavy_compute");

    let (mut arena, [tr, pos, _, _]) = arbor_four();
    arena.spawn_batch(Class::Folder, "E", None, (0..HEAVY_N).map(|_| heavy_four())).expect("spawn");
    let mut q = Query::new(&[tr, pos]);
    let mut writes = lanes(&arena, tr, "m0", 16);
    writes.extend(lanes(&arena, pos, "Value", 3));
    let mut chunks = 0;
    arena.components().for_each_chunk(&mut q, |_| chunks += 1);
    assert_eq!(chunks, 1, "1,000 rows fit one chunk: only splitting its rows uses both threads");
    // Chunks, and row ranges of a chunk, in parallel; with `nested`, also the rows of each
    // piece (rayon inside the task, over a gathered copy).
    let mut arbor_step = |arena: &mut Arena, nested: bool| {
        arena.par_for_each_chunk_mut(&mut q, &[], &writes, |mut c| {
            let mut rows = gather(&mut c);
            if nested {
                rows.par_iter_mut().for_each(heavy_row);
            } else {
                rows.iter_mut().for_each(heavy_row);
            }
            scatter(&mut c, &rows);
        })
    };
    let id = arena.spawn_batch(Class::Folder, "Probe", None, [heavy_four()]).expect("spawn")[0];
    arbor_step(&mut arena, true);
    let (Transform(mut m), Position(mut p), _, _) = heavy_four();
    heavy(&mut m, &mut p);
    let got = arena.components().get_pod::<Transform>(id).expect("row").0;
    assert!(got.abs_diff_eq(m, 1e-4), "gather, compute, scatter round-trips the matrix");
    assert!(arena.components().get_pod::<Position>(id).expect("row").0.abs_diff_eq(p, 1e-4));
    arena.destroy(id).expect("destroy the probe");
    group.bench_function("arbor_par_chunks", |b| b.iter(|| arbor_step(&mut arena, false)));
    group.bench_function("arbor_par_chunks_and_rows", |b| b.iter(|| arbor_step(&mut arena, true)));

    let mut world = World::new();
    world.spawn_batch((0..HEAVY_N).map(|_| heavy_four())).for_each(drop);
    let mut query = world.query::<(&mut Position, &mut Transform)>();
    group.bench_function("bevy", |b| {
        b.iter(|| query.par_iter_mut(&mut world).for_each(|(mut p, mut m)| heavy(&mut m.0, &mut p.0)))
    });

    let mut world = hecs::World::new();
    world.spawn_batch((0..HEAVY_N).map(|_| heavy_four())).for_each(drop);
    group.bench_function("hecs", |b| {
        b.iter(|| {
            world
                .query_mut::<(&mut Position, &mut Transform)>()
                .into_iter_batched(64)
                .par_bridge()
                .for_each(|batch| batch.for_each(|(p, m)| heavy(&mut m.0, &mut p.0)))
        })
    });

    // How much parallelism the machine gives: the same work on one thread, on plain data.
    let mut plain: Vec<(Mat4, Vec3)> =
        (0..HEAVY_N).map(|_| (Mat4::from_axis_angle(Vec3::X, 1.2), Vec3::X)).collect();
    group.bench_function("plain_sequential", |b| {
        b.iter(|| black_box(&mut plain).iter_mut().for_each(|(m, p)| heavy(m, p)))
    });
    group.finish();
}

// ---- add_remove ----

const ADD_REMOVE_N: usize = 10_000;

fn add_remove(c: &mut Criterion) {
    let mut group = big_group(c, "add_remove");

    let mut arena = Arena::new();
    arena.register_pod::<A>().expect("register A");
    let b_id = arena.register_pod::<B>().expect("register B");
    let ids =
        arena.spawn_batch(Class::Folder, "E", None, (0..ADD_REMOVE_N).map(|_| (A(0.0),))).expect("spawn");
    group.bench_function("arbor_insert_pod", |b| {
        b.iter(|| {
            for &id in &ids {
                arena.insert_pod(id, &(B(0.0),)).expect("insert B");
            }
            for &id in &ids {
                arena.remove_component(id, b_id).expect("remove B");
            }
        })
    });
    group.bench_function("arbor_add_component", |b| {
        b.iter(|| {
            for &id in &ids {
                arena.add_component(id, b_id, None).expect("add B");
            }
            for &id in &ids {
                arena.remove_component(id, b_id).expect("remove B");
            }
        })
    });
    assert!(ids.iter().all(|&id| !arena.components().has(id, b_id)));

    let sparse_id = arena.register_pod::<SparseB>().expect("register SparseB");
    group.bench_function("arbor_sparse_insert_pod", |b| {
        b.iter(|| {
            for &id in &ids {
                arena.insert_pod(id, &(SparseB(0.0),)).expect("insert SparseB");
            }
            for &id in &ids {
                arena.remove_component(id, sparse_id).expect("remove SparseB");
            }
        })
    });
    group.bench_function("arbor_sparse_add_component", |b| {
        b.iter(|| {
            for &id in &ids {
                arena.add_component(id, sparse_id, None).expect("add SparseB");
            }
            for &id in &ids {
                arena.remove_component(id, sparse_id).expect("remove SparseB");
            }
        })
    });
    assert!(ids.iter().all(|&id| !arena.components().has(id, sparse_id)));

    let mut world = World::new();
    let entities: Vec<Entity> = world.spawn_batch((0..ADD_REMOVE_N).map(|_| (A(0.0),))).collect();
    group.bench_function("bevy", |b| {
        b.iter(|| {
            for &e in &entities {
                world.entity_mut(e).insert(B(0.0));
            }
            for &e in &entities {
                world.entity_mut(e).remove::<B>();
            }
        })
    });
    group.bench_function("bevy_sparse", |b| {
        b.iter(|| {
            for &e in &entities {
                world.entity_mut(e).insert(SparseB(0.0));
            }
            for &e in &entities {
                world.entity_mut(e).remove::<SparseB>();
            }
        })
    });

    let mut world = hecs::World::new();
    let entities: Vec<hecs::Entity> = world.spawn_batch((0..ADD_REMOVE_N).map(|_| (A(0.0),))).collect();
    group.bench_function("hecs", |b| {
        b.iter(|| {
            for &e in &entities {
                world.insert_one(e, B(0.0)).expect("insert B");
            }
            for &e in &entities {
                world.remove_one::<B>(e).expect("remove B");
            }
        })
    });
    group.finish();
}

// ---- snapshot_write and changed_since, on one 1,000,000-row table ----

const MILLION: usize = 1_000_000;
const WRITTEN: usize = MILLION / 100;

/// The naive change scan: compare every row's tick with the reader's revision.
fn scan_ticks(ids: &[Id], ticks: &[u64], since: u64) -> Vec<Id> {
    ids.iter().zip(ticks).filter(|(_, t)| **t > since).map(|(id, _)| *id).collect()
}

fn million_rows(c: &mut Criterion) {
    let mut arena = Arena::new();
    let pos = arena.register_pod::<Position>().expect("register Position");
    let ids = arena
        .spawn_batch(
            Class::Folder,
            "E",
            None,
            (0..MILLION).map(|i| (Position(Vec3::new(i as f32, 0.0, 0.0)),)),
        )
        .expect("spawn a million rows");
    let mut q = Query::new(&[pos]);

    let mut group = big_group(c, "changed_since");
    let clustered: Vec<usize> = (MILLION / 2..MILLION / 2 + WRITTEN).collect();
    // 104,729 is prime, so i * 104,729 mod 1,000,000 visits distinct rows spread over the table.
    let scattered: Vec<usize> = (0..WRITTEN).map(|i| i * 104_729 % MILLION).collect();
    for (pattern, rows, value) in [("clustered", clustered, -1.0), ("random", scattered, -2.0)] {
        let since = arena.revisions().global;
        for &r in &rows {
            let changed = arena.set_field(ids[r], pos, "Value", FieldValue::Vector3(Vec3::splat(value)));
            assert_eq!(changed, Ok(true));
        }
        let mut ticks = vec![since; MILLION];
        for &r in &rows {
            ticks[r] = since + 1;
        }
        assert_eq!(arena.components().changed_since(&mut q, pos, since).len(), WRITTEN);
        assert_eq!(scan_ticks(&ids, &ticks, since).len(), WRITTEN);
        group.bench_function(BenchmarkId::new("arbor", pattern), |b| {
            b.iter(|| arena.components().changed_since(&mut q, pos, since))
        });
        group.bench_function(BenchmarkId::new("plain_tick_scan", pattern), |b| {
            b.iter(|| scan_ticks(black_box(&ids), &ticks, since))
        });
    }
    group.finish();

    let mut group = big_group(c, "snapshot_write");
    let arena = RefCell::new(arena);
    let counter = Cell::new(0u32);
    // A new value on every call (`set_field` compares first and skips equal writes): the
    // counter's low 23 bits as a mantissa in x, the rest in y, so no two calls collide.
    let write = |row: usize| {
        let k = counter.get() + 1;
        counter.set(k);
        let x = f32::from_bits(0x3F80_0000 | (k & 0x007F_FFFF));
        let value = FieldValue::Vector3(Vec3::new(x, (k >> 23) as f32, 0.0));
        let changed = arena.borrow_mut().set_field(ids[row], pos, "Value", value);
        assert_eq!(changed, Ok(true));
    };
    group.bench_function("arbor_first_write_after_snapshot", |b| {
        b.iter_batched(
            || arena.borrow().snapshot(),
            |snap| {
                write(0);
                snap
            },
            BatchSize::PerIteration,
        )
    });
    group.bench_function("arbor_second_write_after_snapshot", |b| {
        b.iter_batched(
            || {
                let snap = arena.borrow().snapshot();
                write(0);
                snap
            },
            |snap| {
                write(MILLION - 1);
                snap
            },
            BatchSize::PerIteration,
        )
    });
    group.bench_function("arbor_write_no_snapshot", |b| b.iter(|| write(0)));
    let plain: Vec<Position> = (0..MILLION).map(|i| Position(Vec3::new(i as f32, 0.0, 0.0))).collect();
    group.bench_function("plain_vec_clone", |b| b.iter_with_large_drop(|| plain.clone()));
    group.finish();
}

criterion_group!(benches, simple_insert, simple_iter, frag_iter, heavy_compute, add_remove, million_rows);
criterion_main!(benches);
