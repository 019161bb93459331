//! Behaviour benchmarks (issue 21, `docs/behaviours.md`; figures in `docs/perf/behaviours.md`),
//! each with its baseline in the same group:
//!
//! - `moment_5k`: one moment of 5,000 transactions, each writing 16 fields of its host,
//!   half of them then raising an error and being undone; baseline: the Update phase of
//!   5,000 Scripts writing the same 16 attributes (no transaction, no undo).
//! - `one_field_5k`: 5,000 committed transactions writing one field each, vs 5,000 Script
//!   `Update`s each writing the same attribute with `SetAttribute`.
//! - `save_10k` / `resume_10k`: the behaviour state of 10,000 bindings saved to JSON and
//!   opened again (migration-free), vs serializing and parsing the same place's JSON.
//!
//! Per-item figures are the group's time divided by 5,000 (or 10,000).

use arbor_core::{Arena, AttributeValue, Class, Id};
use arbor_script::{HostConfig, ScriptHost};
use arbor_sim::{SimConfig, Simulation, TickHooks};
use criterion::{BatchSize, Criterion, criterion_group, criterion_main};

const FIELDS: usize = 16;

/// A behaviour that writes `writes` fields per `Go` and fails when its `Fail` property says so.
fn writer_source(writes: usize) -> String {
    let fields: String = (0..FIELDS).map(|k| format!("F{k} = {{ type = 'int' }}, ")).collect();
    let body: String = (0..writes).map(|k| format!("self.fields.F{k} = n + {k}\n")).collect();
    format!(
        "return {{ host = 'Part', fields = {{ {fields} }}, properties = {{ Fail = {{ type = 'bool', default = false }} }},\n\
         events = {{ Go = {{}} }}, memory = {{ n = 0 }},\n\
         on = {{ Go = function(self)\nlocal n = self.memory.n + 1\nself.memory.n = n\n{body}\
         if self.props.Fail then error('undo me') end end }} }}"
    )
}

/// 5,000 hosts bound to `source`; every second one fails when `failing`.
fn behavior_world(source: &str, hosts: usize, failing: bool) -> (Simulation, ScriptHost, Vec<Id>) {
    let mut arena = Arena::new();
    arena.behaviors_mut().set("Writer", source).unwrap();
    arena.behaviors_mut().settings.transactions_per_moment = 1_000_000;
    let ws = arena.workspace();
    let mut ids = Vec::new();
    for i in 0..hosts {
        let h = arena.create(Class::Part, "H", Some(ws)).unwrap();
        for k in 0..FIELDS {
            arena.set_attribute(h, &format!("F{k}"), Some(AttributeValue::Number(0.0))).unwrap();
        }
        let b = arena.create(Class::Behavior, "B", Some(h)).unwrap();
        arena.set_attribute(b, "Behavior", Some(AttributeValue::String("Writer".into()))).unwrap();
        if failing && i % 2 == 1 {
            arena.set_attribute(b, "Fail", Some(AttributeValue::Bool(true))).unwrap();
        }
        ids.push(h);
    }
    let mut host =
        ScriptHost::new(&arena, HostConfig { tick_units: i64::MAX, ..Default::default() }).unwrap();
    let mut sim = Simulation::new(arena, SimConfig::default()).unwrap();
    sim.with_context(|ctx| host.update(ctx, 1.0 / 60.0)); // binds and starts them
    (sim, host, ids)
}

/// One moment delivering `Go` to every host.
fn moment(sim: &mut Simulation, host: &mut ScriptHost, ids: &[Id]) {
    for &id in ids {
        // A failed binding is closed: nothing declares `Go` there any more; skip it.
        let _ = host.send_behavior_event(id, "Go");
    }
    sim.with_context(|ctx| host.update(ctx, 1.0 / 60.0));
}

/// 5,000 Scripts, each writing `writes` attributes of its parent in `Update`.
fn script_world(writes: usize, hosts: usize) -> (Simulation, ScriptHost) {
    let mut arena = Arena::new();
    let ws = arena.workspace();
    let body: String = (0..writes).map(|k| format!("self:SetAttribute('F{k}', n + {k})\n")).collect();
    let source = format!("local n = 0\nfunction Update()\nn += 1\n{body}end");
    for _ in 0..hosts {
        let h = arena.create(Class::Part, "H", Some(ws)).unwrap();
        let s = arena.create(Class::Script, "S", Some(h)).unwrap();
        arena.set_script_source(s, &source).unwrap();
    }
    let mut host =
        ScriptHost::new(&arena, HostConfig { tick_units: i64::MAX, ..Default::default() }).unwrap();
    let mut sim = Simulation::new(arena, SimConfig::default()).unwrap();
    sim.with_context(|ctx| host.start_scripts(ctx));
    (sim, host)
}

fn moment_5k(c: &mut Criterion) {
    let mut group = c.benchmark_group("behaviors/moment_5k");
    group.sample_size(10);
    // Failing bindings close after their first error; rebuild the world per batch so every
    // measured moment has 2,500 errors to undo.
    group.bench_function("arbor_16_writes_half_undone", |b| {
        b.iter_batched(
            || behavior_world(&writer_source(FIELDS), 5_000, true),
            |(mut sim, mut host, ids)| {
                moment(&mut sim, &mut host, &ids);
                assert_eq!(host.behavior_stats().rolled_back, 2_500);
                (sim, host)
            },
            BatchSize::PerIteration,
        )
    });
    let (mut sim, mut host) = script_world(FIELDS, 5_000);
    group.bench_function("scripts_16_set_attribute", |b| {
        b.iter(|| sim.with_context(|ctx| host.update(ctx, 1.0 / 60.0)))
    });
    group.finish();
}

fn one_field_5k(c: &mut Criterion) {
    let mut group = c.benchmark_group("behaviors/one_field_5k");
    group.sample_size(20);
    let (mut sim, mut host, ids) = behavior_world(&writer_source(1), 5_000, false);
    group.bench_function("arbor_transaction", |b| b.iter(|| moment(&mut sim, &mut host, &ids)));
    let (mut sim, mut host) = script_world(1, 5_000);
    group.bench_function("script_set_attribute", |b| {
        b.iter(|| sim.with_context(|ctx| host.update(ctx, 1.0 / 60.0)))
    });
    group.finish();
}

fn save_resume_10k(c: &mut Criterion) {
    let mut group = c.benchmark_group("behaviors/save_resume_10k");
    group.sample_size(10);
    let (mut sim, mut host, ids) = behavior_world(&writer_source(4), 10_000, false);
    moment(&mut sim, &mut host, &ids);
    let last = sim.ticks();
    let state = host.save_behaviors(&mut sim.arena, last).unwrap();
    let place = arbor_place::save_json(&sim.arena);
    group.bench_function("save_10k", |b| b.iter(|| host.save_behaviors(&mut sim.arena, 1).unwrap().len()));
    group.bench_function("place_save_json_baseline", |b| b.iter(|| arbor_place::save_json(&sim.arena).len()));
    group.bench_function("resume_10k", |b| {
        b.iter_batched(
            || {
                let arena = arbor_place::load_json(&place).unwrap();
                let host = ScriptHost::new(&arena, HostConfig::default()).unwrap();
                (arena, host)
            },
            |(mut arena, mut host)| {
                host.resume_behaviors(&mut arena, &state).unwrap();
                assert_eq!(host.behavior_stats().running, 10_000);
                (arena, host)
            },
            BatchSize::PerIteration,
        )
    });
    group.bench_function("place_load_json_baseline", |b| {
        b.iter(|| arbor_place::load_json(&place).unwrap().len())
    });
    group.finish();
}

criterion_group!(benches, moment_5k, one_field_5k, save_resume_10k);
criterion_main!(benches);
