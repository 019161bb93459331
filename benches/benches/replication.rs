//! Replication: the server's per-client cost of one delta snapshot on a 100,000-instance
//! place with 1% of its parts moving, against a plain per-client full scan (what a
//! replicator without change tracking does: compare every instance the client holds with
//! what it last sent) in the same run.
//!
//! | group | ours | baseline |
//! |---|---|---|
//! | `replication/capture_100k_1pct` | `Mirror::capture` after 1,000 moves (shared by every client) | — |
//! | `replication/per_client_100k_1pct` | `ClientView::update` + `build` + the ack, per client, 16 clients | `full_scan`: each client's held instances captured and compared with its last-sent copy, changed ones encoded |
//! | `replication/per_client_idle` | the same with nothing changed | `full_scan` with nothing changed |
//! | `replication/per_client_10k_in_range_1pct` | the same at a 320-stud radius (about 10,000 parts in range) | — |
//! | `replication/per_client_10k_in_range_idle` | the same with nothing changed | — |
//! | `replication/join_10k_in_range` | a new view's first `update` and `build` at the 320-stud radius | — |
//! | `replication/refocus_one_cell` | one settled view's focus moved one cell and back among the parts (two `ClientView::update`s streaming a strip of parts out and in) | — |
//! | `replication/refocus_far_3e5` | a view away from the parts jumping between (−3·10⁵, −3·10⁵) and (3·10⁵, 3·10⁵) studs and back | — |
//! | `replication/refocus_wire_edge` | the same between opposite corners of the wire's range (±2³¹/256 studs: what a hostile client can send) | — |
//!
//! Setup prints bytes per moved part and view memory per client (`docs/perf/networking.md`).

use arbor_core::{Arena, Class, Id, raw::SplitMix64};
use arbor_net::replication::{ClientView, Mirror};
use arbor_net::wire::{EntityState, SnapshotBuilder};
use arbor_sim::{transform::PassMode, transform::WorldTransforms};
use criterion::{Criterion, criterion_group, criterion_main};
use glam::Vec3;
use std::hint::black_box;
use std::time::{Duration, Instant};

const MODELS: usize = 10_000;
const PARTS_PER_MODEL: usize = 9;
const CLIENTS: usize = 16;
const RADIUS: f32 = 1024.0;
/// A radius holding about 10,000 of the place's parts.
const NEAR_RADIUS: f32 = 320.0;

struct Server {
    arena: Arena,
    transforms: WorldTransforms,
    mirror: Mirror,
    parts: Vec<Id>,
    rng: SplitMix64,
}

impl Server {
    fn new() -> Server {
        let mut arena = Arena::new();
        let ws = arena.workspace();
        let side = ((MODELS * PARTS_PER_MODEL) as f64).sqrt().ceil() as usize;
        let mut parts = Vec::new();
        for m in 0..MODELS {
            let model = arena.create(Class::Model, "Model", Some(ws)).unwrap();
            for k in 0..PARTS_PER_MODEL {
                let i = m * PARTS_PER_MODEL + k;
                let p = arena.create(Class::Part, "Part", Some(model)).unwrap();
                let (x, z) = (
                    (i % side) as f32 * 6.0 - side as f32 * 3.0,
                    (i / side) as f32 * 6.0 - side as f32 * 3.0,
                );
                arena.set_position(p, Vec3::new(x, 5.0, z)).unwrap();
                parts.push(p);
            }
        }
        arena.drain_events();
        arena.drain_events();
        let mut s = Server {
            arena,
            transforms: WorldTransforms::new(),
            mirror: Mirror::new(),
            parts,
            rng: SplitMix64(5),
        };
        s.capture();
        s
    }

    fn capture(&mut self) {
        let dirty = self.arena.take_dirty_transforms();
        self.transforms.update(&self.arena, &dirty, PassMode::default());
        let (arena, transforms) = (&self.arena, &self.transforms);
        self.mirror.capture(arena, &|id| transforms.get(arena, id).map_or(Vec3::ZERO, |t| t.position));
    }

    /// Moves 1% of the parts a little.
    fn move_some(&mut self) {
        for _ in 0..self.parts.len() / 100 {
            let id = self.parts[(self.rng.next() % self.parts.len() as u64) as usize];
            let p = self.arena.get(id).unwrap().position();
            self.arena.set_position(id, p + Vec3::new(0.0, 0.0, self.rng.unit() - 0.5)).unwrap();
        }
    }
}

/// Brings every view to settled, acking every message at once.
fn settle(server: &mut Server, views: &mut [ClientView]) {
    for _ in 0..1_000 {
        if views.iter().all(ClientView::is_settled) {
            return;
        }
        server.capture();
        for v in views.iter_mut() {
            send_and_ack(server, v);
        }
    }
    panic!("the views did not settle");
}

/// One network tick for `view`: update, build, and the client's ack of every message.
fn send_and_ack(server: &Server, view: &mut ClientView) -> usize {
    view.update(&server.arena, &server.mirror);
    let first = view.next_seq();
    let bytes = view.build(&server.mirror, 1 << 20, 2).iter().map(Vec::len).sum();
    for seq in first..view.next_seq() {
        view.ack(&server.arena, &server.mirror, seq, 0).unwrap();
    }
    bytes
}

/// The baseline's per-client memory: the state last sent for every instance it holds.
struct FullScanClient {
    held: Vec<Id>,
    sent: Vec<EntityState>,
}

impl FullScanClient {
    fn new(server: &Server, view: &ClientView) -> FullScanClient {
        let held: Vec<Id> = server.mirror.iter().map(|(id, _)| id).filter(|&id| view.holds(id)).collect();
        let sent = held
            .iter()
            .map(|&id| EntityState::capture(&server.arena, &server.arena.get(id).unwrap()))
            .collect();
        FullScanClient { held, sent }
    }

    /// Captures and compares every held instance, encoding those that changed.
    fn send(&mut self, arena: &Arena) -> usize {
        let mut b = SnapshotBuilder::new(1, 1);
        let mut bytes = 0;
        for (k, &id) in self.held.iter().enumerate() {
            let now = EntityState::capture(arena, &arena.get(id).unwrap());
            let diff = now.differences(&self.sent[k]);
            if !diff.is_empty() {
                b.push_entry(id, &now, false, diff);
                self.sent[k] = now;
                if b.size() > 1000 {
                    bytes += std::mem::replace(&mut b, SnapshotBuilder::new(1, 1)).finish().len();
                }
            }
        }
        bytes + b.finish().len()
    }
}

/// Benchmarks `name/arbor`: per iteration, 1% of the parts moved (when `moving`), a capture,
/// then every view's network tick, timed per client.
fn bench_per_client(
    group: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>,
    name: &str,
    moving: bool,
    server: &mut Server,
    views: &mut [ClientView],
) {
    group.bench_function(format!("{name}/arbor"), |b| {
        b.iter_custom(|iters| {
            let mut total = Duration::ZERO;
            for _ in 0..iters {
                if moving {
                    server.move_some();
                }
                server.capture();
                let t = Instant::now();
                for v in views.iter_mut() {
                    black_box(send_and_ack(server, v));
                }
                total += t.elapsed() / CLIENTS as u32;
            }
            total
        })
    });
}

fn replication(c: &mut Criterion) {
    let mut group = c.benchmark_group("replication");
    group.warm_up_time(Duration::from_secs(1)).measurement_time(Duration::from_secs(3)).sample_size(10);
    let mut server = Server::new();
    let mut views: Vec<ClientView> = (0..CLIENTS)
        .map(|i| {
            let a = i as f32 * 2.399;
            ClientView::new(Vec3::new(a.cos(), 0.0, a.sin()) * 600.0, RADIUS)
        })
        .collect();
    settle(&mut server, &mut views);
    let held: usize = views.iter().map(ClientView::len).sum::<usize>() / CLIENTS;
    let bytes: usize = views.iter().map(ClientView::heap_bytes).sum::<usize>() / CLIENTS;
    eprintln!(
        "replication setup: {} mirrored, {} held per client, view memory {:.1} B per held instance, mirror {:.1} B per instance",
        server.mirror.len(),
        held,
        bytes as f64 / held as f64,
        server.mirror.heap_bytes() as f64 / server.mirror.len() as f64
    );

    // Bytes per moved part, in steady state (every view settled, one round of moves).
    server.move_some();
    server.capture();
    let (mut sent, mut updates) = (0usize, 0u64);
    for v in &mut views {
        let before = v.stats().updates;
        sent += send_and_ack(&server, v);
        updates += v.stats().updates - before;
    }
    eprintln!(
        "replication bytes: {:.2} per moved part per update (messages included), {updates} updates",
        sent as f64 / updates.max(1) as f64
    );

    // The same with ~10,000 instances in range (radius 320 studs): what a player sees.
    let mut near_views: Vec<ClientView> = (0..CLIENTS)
        .map(|i| {
            let a = i as f32 * 2.399;
            ClientView::new(Vec3::new(a.cos(), 0.0, a.sin()) * 600.0, NEAR_RADIUS)
        })
        .collect();
    settle(&mut server, &mut near_views);
    let near_held: usize = near_views.iter().map(ClientView::len).sum::<usize>() / CLIENTS;
    eprintln!(
        "replication setup: radius {NEAR_RADIUS}: {near_held} held per client ({} of them structure)",
        server.mirror.structure().count()
    );
    for (name, moving) in [("per_client_10k_in_range_1pct", true), ("per_client_10k_in_range_idle", false)] {
        bench_per_client(&mut group, name, moving, &mut server, &mut near_views);
    }
    // Joins: a new view's first update and the build of its first network tick.
    group.bench_function("join_10k_in_range", |b| {
        b.iter_custom(|iters| {
            let mut total = Duration::ZERO;
            for i in 0..iters {
                let a = i as f32 * 2.399;
                let mut view = ClientView::new(Vec3::new(a.cos(), 0.0, a.sin()) * 600.0, NEAR_RADIUS);
                let t = Instant::now();
                view.update(&server.arena, &server.mirror);
                black_box(view.build(
                    &server.mirror,
                    arbor_core::settings::REPLICATION_BUDGET.default as usize,
                    2,
                ));
                total += t.elapsed();
            }
            total
        })
    });
    settle(&mut server, &mut views);

    for (name, moving) in [("per_client_100k_1pct", true), ("per_client_idle", false)] {
        bench_per_client(&mut group, name, moving, &mut server, &mut views);
    }

    let mut scans: Vec<FullScanClient> =
        views.iter().take(2).map(|v| FullScanClient::new(&server, v)).collect();
    for (name, moving) in [("per_client_100k_1pct", true), ("per_client_idle", false)] {
        group.bench_function(format!("{name}/full_scan"), |b| {
            b.iter_custom(|iters| {
                let mut total = Duration::ZERO;
                for _ in 0..iters {
                    if moving {
                        server.move_some();
                    }
                    let t = Instant::now();
                    for s in &mut scans {
                        black_box(s.send(&server.arena));
                    }
                    total += t.elapsed() / scans.len() as u32;
                }
                total
            })
        });
    }
    // Refocus: each iteration moves one view's focus there and back (two updates, the
    // mirror unchanged, the changes of its last capture already taken).
    server.capture();
    for v in &mut views {
        send_and_ack(&server, v);
    }
    let edge = (1u64 << 31) as f32 / arbor_net::wire::POSITION_STEPS;
    for (name, from, to) in [
        ("refocus_one_cell", Vec3::new(600.0, 0.0, 0.0), Vec3::new(664.0, 0.0, 0.0)),
        ("refocus_far_3e5", Vec3::new(-3.0e5, 0.0, -3.0e5), Vec3::new(3.0e5, 0.0, 3.0e5)),
        ("refocus_wire_edge", Vec3::new(-edge, 0.0, -edge), Vec3::new(edge, 0.0, edge)),
    ] {
        let mut view = ClientView::new(from, RADIUS);
        settle(&mut server, std::slice::from_mut(&mut view));
        group.bench_function(name, |b| {
            b.iter_custom(|iters| {
                let t = Instant::now();
                for _ in 0..iters {
                    view.set_focus(to);
                    view.update(&server.arena, &server.mirror);
                    view.set_focus(from);
                    view.update(&server.arena, &server.mirror);
                }
                t.elapsed()
            })
        });
    }

    // Last: it leaves the views behind the mirror.
    group.bench_function("capture_100k_1pct", |b| {
        b.iter_custom(|iters| {
            let mut total = Duration::ZERO;
            for _ in 0..iters {
                server.move_some();
                let dirty = server.arena.take_dirty_transforms();
                server.transforms.update(&server.arena, &dirty, PassMode::default());
                let t = Instant::now();
                let (arena, transforms) = (&server.arena, &server.transforms);
                server
                    .mirror
                    .capture(arena, &|id| transforms.get(arena, id).map_or(Vec3::ZERO, |t| t.position));
                total += t.elapsed();
            }
            total
        })
    });

    group.finish();
}

criterion_group!(benches, replication);
criterion_main!(benches);
