//! What the operator endpoint costs the tick and a scrape: a 10,000-part place with 100
//! scripts stepped without metrics (the baseline) and with `Ops::observe` after each step;
//! `record_tick` alone (the per-tick part); `publish` (the once-a-second gather, with the
//! scripts' usage); and a scrape of `/metrics` text for a full server (100 clients, the top
//! 20 scripts). Figures: `docs/perf/operations.md`.

use arbor_core::{Arena, Class, NodeFlags};
use arbor_ops::{ClientSample, Ops, ServerSample};
use arbor_script::{HostConfig, ScriptHost, ScriptUsage};
use arbor_sim::{PHASES, SimConfig, Simulation};
use criterion::{Criterion, criterion_group, criterion_main};
use std::cell::RefCell;
use std::hint::black_box;
use std::rc::Rc;
use std::time::Duration;

/// A place of 10,000 anchored parts and 100 scripts whose `Update` does a little work.
fn place() -> (Simulation, Rc<RefCell<ScriptHost>>) {
    let mut arena = Arena::new();
    let ws = arena.workspace();
    for _ in 0..10_000 {
        let part = arena.create(Class::Part, "P", Some(ws)).unwrap();
        arena.set_flag(part, NodeFlags::ANCHORED, true).unwrap();
    }
    for i in 0..100 {
        let script = arena.create(Class::Script, &format!("S{i}"), Some(ws)).unwrap();
        arena
            .set_script_source(script, "local n = 0\nfunction Update(dt) for i = 1, 20 do n += i end end")
            .unwrap();
    }
    let host = Rc::new(RefCell::new(ScriptHost::new(&arena, HostConfig::default()).unwrap()));
    let mut sim = Simulation::new(arena, SimConfig::default()).unwrap();
    sim.add_hooks(host.clone());
    sim.run(5);
    (sim, host)
}

fn tick(c: &mut Criterion) {
    let mut g = c.benchmark_group("ops/tick_10k_100_scripts");
    let (mut sim, host) = place();
    g.bench_function("without_metrics", |b| b.iter(|| black_box(sim.step())));
    let mut ops = Ops::serve("127.0.0.1:0".parse().unwrap()).unwrap();
    g.bench_function("with_metrics", |b| {
        b.iter(|| {
            let report = sim.step();
            ops.observe(&sim, &report, None, &host.borrow());
        })
    });
    g.finish();

    let mut g = c.benchmark_group("ops");
    let phases = [Some(Duration::from_micros(40)); PHASES.len()];
    let budget = Duration::from_secs_f64(1.0 / 60.0);
    g.bench_function("record_tick", |b| {
        b.iter(|| ops.record_tick(black_box(Duration::from_micros(900)), budget, black_box(&phases)))
    });
    g.bench_function("publish_100_scripts", |b| b.iter(|| ops.publish(&sim, None, &host.borrow())));
    ops.publish_sample(full_sample());
    g.bench_function("scrape_100_clients_20_scripts", |b| b.iter(|| black_box(ops.scrape().len())));
    g.finish();
}

/// A server's sample with 100 clients and 20 scripts reported.
fn full_sample() -> ServerSample {
    let clients = (0..100)
        .map(|i| ClientSample {
            user_id: 1_000 + i,
            sent_bytes: 1_000_000 + i,
            sent_messages: 10_000,
            bytes_per_second: 27_000.0,
            rtt_seconds: 0.004,
        })
        .collect();
    let scripts = (0..20)
        .map(|i| ScriptUsage {
            name: format!("Workspace.Model{i}.Script"),
            entries: 60_000,
            units: 9_000_000,
            errors: 0,
            memory_bytes: 40_000,
        })
        .collect();
    ServerSample {
        players: 100,
        instances: 100_000,
        clients,
        scripts,
        script_count: 20,
        ..ServerSample::default()
    }
}

criterion_group!(benches, tick);
criterion_main!(benches);
