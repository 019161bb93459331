//! Probe for `simple_insert` (issue 3), robust on a loaded machine: the best of N rounds of
//! `spawn_batch` of 10,000 detached Folders × four POD components into a fresh arena, of the
//! 10,000 `create` calls alone, of one `create_batch` of 10,000 (the tree half of
//! `spawn_batch`), and of hecs's `spawn_batch`, interleaved. Second argument `spawn-only`,
//! `nodes-only` (`create_batch`) or `create-each` repeats one workload for profilers.
use arbor_core::{Arena, Class};
use std::time::Instant;

#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[path = "../benches/common/ecs_fixture.rs"]
mod ecs_fixture;
use ecs_fixture::*;

const N: usize = 10_000;

fn fresh() -> Arena {
    arbor_four().0
}

fn main() {
    let rounds: usize = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(200);
    if std::env::args().nth(2).as_deref() == Some("spawn-only") {
        // For profilers: spawn_batch alone, over and over.
        for _ in 0..rounds {
            let mut arena = fresh();
            let ids = arena.spawn_batch(Class::Folder, "E", None, (0..N).map(|_| four())).unwrap();
            std::hint::black_box((&arena, &ids));
        }
        return;
    }
    if std::env::args().nth(2).as_deref() == Some("nodes-only") {
        // For profilers: the 10,000 `create` calls alone, over and over.
        for _ in 0..rounds {
            let mut arena = fresh();
            let ids = arena.create_batch(Class::Folder, "E", None, N).unwrap();
            std::hint::black_box((&arena, &ids));
        }
        return;
    }
    if std::env::args().nth(2).as_deref() == Some("create-each") {
        // For profilers: 10,000 separate `create` calls (criterion's `arbor_nodes_only`).
        for _ in 0..rounds {
            let mut arena = fresh();
            for _ in 0..N {
                arena.create(Class::Folder, "E", None).unwrap();
            }
            std::hint::black_box(&arena);
        }
        return;
    }
    let (mut spawn, mut nodes, mut batch, mut hecs_best) = (f64::MAX, f64::MAX, f64::MAX, f64::MAX);
    let mut keep = Vec::new();
    for _ in 0..rounds {
        let mut arena = fresh();
        let t = Instant::now();
        let ids = arena.spawn_batch(Class::Folder, "E", None, (0..N).map(|_| four())).unwrap();
        spawn = spawn.min(t.elapsed().as_secs_f64());
        keep.push((arena, ids));
        let mut arena = fresh();
        let t = Instant::now();
        for _ in 0..N {
            arena.create(Class::Folder, "E", None).unwrap();
        }
        nodes = nodes.min(t.elapsed().as_secs_f64());
        keep.push((arena, Vec::new()));
        let mut arena = fresh();
        let t = Instant::now();
        let ids = arena.create_batch(Class::Folder, "E", None, N).unwrap();
        batch = batch.min(t.elapsed().as_secs_f64());
        keep.push((arena, ids));
        let mut world = hecs::World::new();
        let t = Instant::now();
        world.spawn_batch((0..N).map(|_| four())).for_each(drop);
        hecs_best = hecs_best.min(t.elapsed().as_secs_f64());
        drop(world);
        keep.clear();
    }
    let per = |t: f64| t * 1e9 / N as f64;
    println!(
        "best of {rounds}: spawn_batch {:.1} ns/entity, create alone {:.1} ns/entity, create_batch alone {:.1} ns/entity, hecs spawn_batch {:.1} ns/entity",
        per(spawn),
        per(nodes),
        per(batch),
        per(hecs_best)
    );
}
