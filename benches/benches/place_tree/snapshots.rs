//! `snapshot_1m`, `first_write_after_snapshot` and `diff_1m`: snapshots of a million-node
//! place against a deep clone of plain structs, the first write under a live snapshot
//! against one with none, and snapshot diffs against looking up every node.

use super::scale::{MILLION, large};
use arbor_benches::{PLACE_MODELS, build_million_place};
use arbor_core::{
    Class, Id, Snapshot, SnapshotDiff, Vec3,
    raw::{DIR_SIZE, PAGE_SIZE},
};
use criterion::{BatchSize, Criterion};
use std::time::{Duration, Instant};

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

pub(super) fn snapshot_benches(c: &mut Criterion) {
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
