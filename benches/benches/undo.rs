//! The arena's undo scope (issue 21): what one behaviour transaction's world writes cost to
//! journal and to undo, against the alternative the issue names, restoring a page-table
//! snapshot, whose floor is taking the snapshot itself.
//!
//! - `write16_commit`: 16 attribute writes inside a scope that commits, vs the same writes
//!   with no scope (the journal's cost on the success path);
//! - `write16_rollback`: the same writes, then rolled back;
//! - `spawn_destroy_rollback`: a clone, a destroy and a reparent, rolled back;
//! - `snapshot_floor_100k` / `_1m`: `Arena::snapshot()` of a 100,000- and a 1,000,000-node
//!   arena: what every transaction would pay before any restore if undo were a snapshot.

use arbor_core::{Arena, AttributeValue, Class, Id};
use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;

fn arena_of(n: usize) -> (Arena, Vec<Id>) {
    let mut arena = Arena::new();
    let ws = arena.workspace();
    let folder = arena.create(Class::Folder, "F", Some(ws)).unwrap();
    let ids: Vec<Id> = (0..n).map(|_| arena.create(Class::Part, "P", Some(folder)).unwrap()).collect();
    (arena, ids)
}

fn write16(arena: &mut Arena, id: Id, base: f64) {
    for k in 0..16 {
        let key = ["A", "B", "C", "D", "E", "F", "G", "H", "I", "J", "K", "L", "M", "N", "O", "P"][k];
        arena.set_attribute(id, key, Some(AttributeValue::Number(base + k as f64))).unwrap();
    }
}

fn undo(c: &mut Criterion) {
    let mut group = c.benchmark_group("undo/transaction");
    let (mut arena, ids) = arena_of(100_000);
    let target = ids[500];
    let mut n = 0.0;
    group.bench_function("write16_no_scope", |b| {
        b.iter(|| {
            n += 1.0;
            write16(&mut arena, target, n)
        })
    });
    group.bench_function("write16_commit", |b| {
        b.iter(|| {
            n += 1.0;
            arena.begin_undo().unwrap();
            write16(&mut arena, target, n);
            arena.commit_undo();
        })
    });
    group.bench_function("write16_rollback", |b| {
        b.iter(|| {
            n += 1.0;
            arena.begin_undo().unwrap();
            write16(&mut arena, target, n);
            arena.rollback_undo();
        })
    });
    let ws = arena.workspace();
    let other = arena.create(Class::Folder, "Other", Some(ws)).unwrap();
    group.bench_function("spawn_destroy_reparent_rollback", |b| {
        b.iter(|| {
            arena.begin_undo().unwrap();
            let copy = arena.clone_subtree(ids[7]).unwrap().unwrap();
            arena.set_parent(copy, Some(ws)).unwrap();
            arena.destroy(ids[8]).unwrap();
            arena.set_parent(ids[9], Some(other)).unwrap();
            arena.rollback_undo();
        })
    });
    group.bench_function("snapshot_floor_100k", |b| b.iter(|| black_box(arena.snapshot())));
    let (big, _) = arena_of(1_000_000);
    group.bench_function("snapshot_floor_1m", |b| b.iter(|| black_box(big.snapshot())));
    group.finish();
}

criterion_group!(benches, undo);
criterion_main!(benches);
