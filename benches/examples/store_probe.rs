//! Probe for `frag_iter` and `add_remove`, robust on a loaded machine: the best of
//! N interleaved rounds of our workload and hecs's, the same work as the criterion groups
//! (`ecs_suite`): double `Data` over 26 archetypes × 20 rows; add `B` to 10,000 instances
//! holding `A` (`add_component`, `insert_pod`, and `add_component` of `SparseB`, stored in a
//! sparse set), then remove it. Arguments: rounds, then
//! `frag`, `frag_ours` (our pass alone, for callgrind), `add_remove` or `sparse` (the
//! sparse-set round alone) to run one part, or
//! `simple` for `simple_iter` alone (ours: `position += velocity` over 10,000 rows).
use arbor_core::{Arena, Class, components::Query};
use std::time::Instant;
use wide::f32x8;

#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[path = "../benches/common/ecs_fixture.rs"]
mod ecs_fixture;
use ecs_fixture::*;

fn best(rounds: usize, inner: usize, mut f: impl FnMut()) -> f64 {
    let mut best = f64::MAX;
    for _ in 0..rounds {
        let t = Instant::now();
        for _ in 0..inner {
            f();
        }
        best = best.min(t.elapsed().as_secs_f64() / inner as f64);
    }
    best
}

fn main() {
    let rounds: usize = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(50);
    let only = std::env::args().nth(2).unwrap_or_default();
    // Passes per timed batch (five batches per round).
    let inner: usize = std::env::args().nth(3).and_then(|a| a.parse().ok()).unwrap_or(2000);
    let (mut frag_ours, mut frag_hecs, mut ar_ours, mut ar_hecs) = (f64::MAX, f64::MAX, f64::MAX, f64::MAX);
    let (mut ar_pod, mut ar_sparse) = (f64::MAX, f64::MAX);

    let (mut arena, data) = arbor_fragmented(20);
    let writes = [arena.components().lane(data, "Value").unwrap()];
    let mut q = Query::new(&[data]);
    let mut world = hecs_fragmented(20);

    let mut ar_arena = Arena::new();
    ar_arena.register_pod::<A>().unwrap();
    let b_id = ar_arena.register_pod::<B>().unwrap();
    let sparse_id = ar_arena.register_pod::<SparseB>().unwrap();
    let ids = ar_arena.spawn_batch(Class::Folder, "E", None, (0..10_000).map(|_| (A(0.0),))).unwrap();
    let mut ar_world = hecs::World::new();
    let entities: Vec<hecs::Entity> = ar_world.spawn_batch((0..10_000).map(|_| (A(0.0),))).collect();

    if only == "simple" {
        simple_iter(rounds);
        return;
    }
    for _ in 0..rounds {
        if only.is_empty() || only.starts_with("frag") {
            frag_ours = frag_ours.min(best(5, inner, || {
                arena.for_each_chunk_mut(&mut q, &[], &writes, |mut c| {
                    for d in c.write_blocks::<f32x8>(0) {
                        *d *= 2.0;
                    }
                })
            }));
        }
        // `frag_ours`: our pass alone (10,000 passes per round), for instruction counts.
        if only.is_empty() || only == "frag" {
            frag_hecs = frag_hecs.min(best(5, inner, || {
                for d in world.query_mut::<&mut Data>() {
                    d.0 *= 2.0;
                }
            }));
        }
        if only.is_empty() || only == "add_remove" {
            ar_ours = ar_ours.min(best(1, 1, || {
                for &id in &ids {
                    ar_arena.add_component(id, b_id, None).unwrap();
                }
                for &id in &ids {
                    ar_arena.remove_component(id, b_id).unwrap();
                }
            }));
            ar_pod = ar_pod.min(best(1, 1, || {
                for &id in &ids {
                    ar_arena.insert_pod(id, &(B(0.0),)).unwrap();
                }
                for &id in &ids {
                    ar_arena.remove_component(id, b_id).unwrap();
                }
            }));
        }
        if only.is_empty() || only == "add_remove" || only == "sparse" {
            ar_sparse = ar_sparse.min(best(1, 1, || {
                for &id in &ids {
                    ar_arena.add_component(id, sparse_id, None).unwrap();
                }
                for &id in &ids {
                    ar_arena.remove_component(id, sparse_id).unwrap();
                }
            }));
        }
        if only.is_empty() || only == "add_remove" {
            ar_hecs = ar_hecs.min(best(1, 1, || {
                for &e in &entities {
                    ar_world.insert_one(e, B(0.0)).unwrap();
                }
                for &e in &entities {
                    ar_world.remove_one::<B>(e).unwrap();
                }
            }));
        }
    }
    println!(
        "best of {rounds}: frag_iter ours {:.3} us, hecs {:.3} us ({:.2}x); add_remove ours {:.3} ms \
         (insert_pod {:.3} ms, sparse set {:.3} ms), hecs {:.3} ms ({:.2}x, sparse {:.2}x)",
        frag_ours * 1e6,
        frag_hecs * 1e6,
        frag_hecs / frag_ours,
        ar_ours * 1e3,
        ar_pod * 1e3,
        ar_sparse * 1e3,
        ar_hecs * 1e3,
        ar_hecs / ar_ours,
        ar_hecs / ar_sparse
    );
}

/// `simple_iter`'s pass (ours), best of `rounds` rounds of 100 passes.
fn simple_iter(rounds: usize) {
    let (mut arena, [_, pos, _, vel]) = arbor_four();
    arena.spawn_batch(Class::Folder, "E", None, (0..10_000).map(|_| four())).unwrap();
    let mut q = Query::new(&[pos, vel]);
    let lanes = |c, n: u16| {
        let first = arena.components().lane(c, "Value").unwrap();
        (0..n).map(|k| first.offset(k)).collect::<Vec<_>>()
    };
    let (reads, writes) = (lanes(vel, 3), lanes(pos, 3));
    let mut ours = f64::MAX;
    for _ in 0..rounds {
        ours = ours.min(best(1, 100, || {
            arena.for_each_chunk_mut(&mut q, &reads, &writes, |mut c| {
                let (vel, mut pos) = c.split_blocks::<f32x8>();
                for (p, v) in pos.iter_mut().zip(&vel) {
                    for (p, v) in p.iter_mut().zip(v.iter()) {
                        *p += *v;
                    }
                }
            })
        }));
    }
    println!("best of {rounds}: simple_iter ours {:.3} us", ours * 1e6);
}
