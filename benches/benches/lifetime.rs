//! The lifetime phase: counting down 10,000 `Lifetime` timers of parts in the world (none
//! expiring), against a plain loop over a `Vec` of the same timers in the same run.
//!
//! | group | ours | baseline |
//! |---|---|---|
//! | `lifetimes/10000` | `arbor`: `Lifetimes::tick`, one chunk pass reading each row's node flags (only instances in the world age), 100 of the timers on stored templates outside the world | `plain_vec`: the countdown and expiry check over a `Vec<(Id, f64)>`, no flags |

use arbor_core::{Arena, Class, Id};
use arbor_sim::lifetime::Lifetimes;
use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use std::time::Duration;

const N: usize = 10_000;
/// A tick short enough that no timer runs out however many iterations criterion runs.
const DT: f64 = 1e-9;

fn lifetimes(c: &mut Criterion) {
    let mut group = c.benchmark_group("lifetimes");
    group.warm_up_time(Duration::from_secs(1)).measurement_time(Duration::from_secs(3));

    let mut arena = Arena::new();
    let ws = arena.workspace();
    let mut lifetimes = Lifetimes::new(&mut arena).expect("register Lifetime");
    let prefabs = arena.create(Class::Folder, "Prefabs", None).expect("folder");
    for i in 0..N {
        let parent = if i % 100 == 0 { prefabs } else { ws };
        let part = arena.create(Class::Part, "Bullet", Some(parent)).expect("part");
        lifetimes.set(&mut arena, part, 3.0).expect("lifetime");
    }
    let before = arena.len();
    group.bench_function(format!("arbor/{N}"), |b| b.iter(|| black_box(lifetimes.tick(&mut arena, DT))));
    assert_eq!(arena.len(), before, "nothing expired");

    let mut plain: Vec<(Id, f64)> = (0..N).map(|i| (Id(i as u64 + 1), 3.0)).collect();
    group.bench_function(format!("plain_vec/{N}"), |b| {
        b.iter(|| {
            let mut expired = Vec::new();
            for (id, left) in black_box(&mut plain).iter_mut() {
                let now = *left - DT;
                *left = now.max(0.0);
                if now <= 0.0 {
                    expired.push(*id);
                }
            }
            expired
        })
    });
    group.finish();
}

criterion_group!(benches, lifetimes);
criterion_main!(benches);
