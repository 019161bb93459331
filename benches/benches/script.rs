//! Script benchmarks (issue 5), each with its baseline in the same criterion group:
//!
//! - `update_dispatch`: one `Update` phase over 10,000 running scripts (empty `Update`), vs
//!   calling 10,000 Lua functions from Rust on a bare mlua VM;
//! - `property`: a loop of 10,000 `self.Position` reads / writes inside one `Update` (and
//!   the same with `self` in a local), vs the same loop calling a bare Rust function, and
//!   reading a plain mlua userdata field;
//! - `budget`: a loop doing real work (a table write and arithmetic) and an empty loop, with
//!   the counting interrupt installed vs none;
//! - `find_first_child`: `workspace.Folder:FindFirstChild(name)` in a loop from Lua;
//! - `system_dispatch`: the Systems phase over 10,000 scripts that each registered one
//!   system matching one instance, vs the `Update` phase over 10,000 empty `Update`s;
//! - `component_field`: one system over 10,000 matching instances reading and writing a
//!   component field through `GetComponent` (and through a Component fetched once), vs the
//!   same read-modify-write through attributes and through a plain Lua table per entity;
//! - `emit`: one `Update` emitting a signal with one handler 1,000 times (a number payload,
//!   and a small table `{ a = 1, b = { 2, 3 } }` that every handler receives a copy of), vs
//!   the same loop calling the handler as a local function;
//! - `jit` (with `--features jit` only): the same loops interpreted vs compiled by Luau's
//!   native code generator, all with the budget interrupt installed.
//!
//! Per-item figures are the group's time divided by the loop count (10,000 or 100,000).

use arbor_core::{Arena, Class};
use arbor_script::{HostConfig, ScriptHost, budget};
use arbor_sim::{SimConfig, Simulation, TickHooks};
use criterion::{Criterion, criterion_group, criterion_main};
use mlua::{Function, Lua, UserData, UserDataFields};
use std::hint::black_box;

/// A simulation whose scripts have started, and its host.
fn started(scripts: &[(&str, &str)], parts: usize) -> (Simulation, ScriptHost) {
    started_with(HostConfig::default(), scripts, parts)
}

/// A host configuration for benchmarks that run one phase over and over inside one tick:
/// no tick-level share (it would defer every entry after the first few iterations).
fn unshared(config: HostConfig) -> HostConfig {
    HostConfig { tick_units: i64::MAX, ..config }
}

/// [`started`] with a host configuration.
fn started_with(config: HostConfig, scripts: &[(&str, &str)], parts: usize) -> (Simulation, ScriptHost) {
    let mut arena = Arena::new();
    let ws = arena.workspace();
    let folder = arena.create(Class::Folder, "Folder", Some(ws)).unwrap();
    for i in 0..parts {
        arena.create(Class::Part, &format!("Part{i}"), Some(folder)).unwrap();
    }
    for (i, (name, source)) in scripts.iter().enumerate() {
        let holder = arena.create(Class::Part, &format!("Holder{i}"), Some(ws)).unwrap();
        let s = arena.create(Class::Script, name, Some(holder)).unwrap();
        arena.set_script_source(s, source).unwrap();
    }
    let mut host = ScriptHost::new(&arena, unshared(config)).unwrap();
    let mut sim = Simulation::new(arena, SimConfig::default()).unwrap();
    sim.with_context(|ctx| host.start_scripts(ctx));
    (sim, host)
}

fn update_dispatch(c: &mut Criterion) {
    let mut group = c.benchmark_group("script/update_dispatch_10k");
    group.sample_size(20);
    let scripts: Vec<(&str, &str)> = (0..10_000).map(|_| ("S", "function Update(dt) end")).collect();
    let (mut sim, mut host) = started(&scripts, 0);
    assert_eq!(host.instance_count(), 10_000);
    group.bench_function("arbor", |b| b.iter(|| sim.with_context(|ctx| host.update(ctx, 1.0 / 60.0))));
    let lua = Lua::new();
    let fns: Vec<Function> =
        (0..10_000).map(|_| lua.load("return function(dt) end").eval::<Function>().unwrap()).collect();
    group.bench_function("bare_mlua_calls", |b| {
        b.iter(|| {
            for f in &fns {
                f.call::<()>(black_box(1.0 / 60.0)).unwrap();
            }
        })
    });
    group.finish();
}

struct Plain {
    x: f64,
}

impl UserData for Plain {
    fn add_fields<F: UserDataFields<Self>>(fields: &mut F) {
        fields.add_field_method_get("X", |_, this| Ok(this.x));
    }
}

fn property(c: &mut Criterion) {
    let mut group = c.benchmark_group("script/property_x10k");
    group.sample_size(20);
    let read = "function Update() local p for i = 1, 10000 do p = self.Position end end";
    let write =
        "local v = Vector3.new(1, 2, 3)\nfunction Update() for i = 1, 10000 do self.Position = v end end";
    // `self` is a global of the script's environment, looked up on every iteration (the
    // baseline's `bare` is resolved once, at load); the `_local` variants hoist it into a
    // local so they time the property access alone.
    let read_local = "local s = self\nfunction Update() local p for i = 1, 10000 do p = s.Position end end";
    let write_local = "local s, v = self, Vector3.new(1, 2, 3)\nfunction Update() for i = 1, 10000 do s.Position = v end end";
    for (name, source) in [
        ("arbor_read_Position", read),
        ("arbor_write_Position", write),
        ("arbor_read_Position_local", read_local),
        ("arbor_write_Position_local", write_local),
    ] {
        let (mut sim, mut host) = started(&[("S", source)], 0);
        group.bench_function(name, |b| b.iter(|| sim.with_context(|ctx| host.update(ctx, 1.0 / 60.0))));
        assert!(host.log().is_empty(), "no script errors: {:?}", host.log());
    }
    let lua = Lua::new();
    lua.globals().set("bare", lua.create_function(|_, ()| Ok(1.0)).unwrap()).unwrap();
    lua.globals().set("plain", Plain { x: 1.0 }).unwrap();
    let bare: Function =
        lua.load("return function() local p for i = 1, 10000 do p = bare() end end").eval().unwrap();
    let field: Function =
        lua.load("return function() local p for i = 1, 10000 do p = plain.X end end").eval().unwrap();
    group.bench_function("bare_rust_call", |b| b.iter(|| bare.call::<()>(()).unwrap()));
    group.bench_function("plain_userdata_field", |b| b.iter(|| field.call::<()>(()).unwrap()));
    group.finish();
}

fn budget_overhead(c: &mut Criterion) {
    let mut group = c.benchmark_group("script/budget_x100k");
    group.sample_size(20);
    let work = "return function() local t = {} for i = 1, 100000 do t[i % 64 + 1] = i * 2 + 1 end end";
    let empty = "return function() for i = 1, 100000 do end end";
    // The worst case for the meter: a call and a return per iteration, each an interrupt
    // with a table lookup behind it, around almost no work.
    let calls = "local function f(x) return x end return function() local s = 0 for i = 1, 100000 do s = f(s) end end";
    // A library C function per iteration: the cost table's lookup before every call.
    let library = "return function() local t = {1} for i = 1, 100000 do local k = next(t) end end";
    // A small table per iteration: the allocation path's share check.
    let allocation = "return function() for i = 1, 100000 do local t = {i} end end";
    let loops = [
        ("call_loop", calls),
        ("table_write", work),
        ("empty_loop", empty),
        ("library_call_loop", library),
        ("allocation_loop", allocation),
    ];
    // `budget_and_shares`: the meter, and the code runs in a script's memory category with the
    // host's limits set, so every allocation takes the share check.
    for (name, budgeted, shares) in
        [("no_budget", false, false), ("budget", true, false), ("budget_and_shares", true, true)]
    {
        let lua = Lua::new();
        if budgeted {
            budget::install(&lua).unwrap();
        }
        if shares {
            budget::limit_script_memory(&lua, 256 << 20, 64 << 20).unwrap();
            budget::enter_category(&lua, 1);
        }
        for (loop_name, source) in loops {
            let f: Function = lua.load(source).eval().unwrap();
            group.bench_function(format!("{loop_name}_{name}"), |b| {
                b.iter(|| {
                    let outer = budget::enter();
                    f.call::<()>(()).unwrap();
                    budget::leave(outer);
                })
            });
        }
    }
    group.finish();
}

const DT: f64 = 1.0 / 60.0;

fn system_dispatch(c: &mut Criterion) {
    let mut group = c.benchmark_group("script/system_dispatch_10k");
    group.sample_size(20);
    let system = r#"
        game.Components.Define("Tag", {})
        script:AddComponent("Tag")
        game.Systems.Register("S", { with = { "Tag" }, under = self }, function(dt, entities) end)
    "#;
    let scripts: Vec<(&str, &str)> = (0..10_000).map(|_| ("S", system)).collect();
    let (mut sim, mut host) = started(&scripts, 0);
    assert_eq!(host.system_count(), 10_000);
    group.bench_function("arbor_systems", |b| b.iter(|| sim.with_context(|ctx| host.systems(ctx, DT))));
    let updates: Vec<(&str, &str)> = (0..10_000).map(|_| ("S", "function Update(dt) end")).collect();
    let (mut sim, mut host) = started(&updates, 0);
    group.bench_function("arbor_update_hooks", |b| b.iter(|| sim.with_context(|ctx| host.update(ctx, DT))));
    group.finish();
}

fn component_field(c: &mut Criterion) {
    let mut group = c.benchmark_group("script/component_field_x10k");
    group.sample_size(20);
    let setup = r#"
        game.Components.Define("Health", { Value = "number" })
        for _, p in workspace.Folder:GetChildren() do
            p:AddComponent("Health", { Value = 1 })
            p:SetAttribute("Hp", 1)
        end
        local plain = {}
        for i = 1, 10000 do plain[i] = { Value = 1 } end
    "#;
    let variants = [
        (
            "get_component",
            "game.Systems.Register('S', { with = { 'Health' } }, function(dt, es) for _, e in es do local h =              e:GetComponent('Health') h.Value += 1 end end)",
        ),
        (
            "component_ref_cached",
            "local refs = {} for i, p in workspace.Folder:GetChildren() do refs[i] = p:GetComponent('Health') end              game.Systems.Register('S', { with = { 'Health' } }, function(dt, es) for _, h in refs do h.Value += 1              end end)",
        ),
        (
            "attribute",
            "game.Systems.Register('S', { with = { 'Health' } }, function(dt, es) for _, e in es do              e:SetAttribute('Hp', e:GetAttribute('Hp') + 1) end end)",
        ),
        (
            "plain_lua_table",
            "game.Systems.Register('S', { with = { 'Health' } }, function(dt, es) for _, t in plain do t.Value +=              1 end end)",
        ),
    ];
    for (name, body) in variants {
        let source = format!("{setup}\n{body}");
        let (mut sim, mut host) = started(&[("S", &source)], 10_000);
        assert_eq!(host.system_count(), 1, "{name}");
        group.bench_function(name, |b| b.iter(|| sim.with_context(|ctx| host.systems(ctx, DT))));
        assert!(host.log().is_empty(), "{name}: {:?}", host.log());
    }
    group.finish();
}

fn find_first_child(c: &mut Criterion) {
    // 100 searches per entry: a search pays for the children it compares, so 10,000 searches
    // of 1,000 children no longer fit one entry's budget.
    let mut group = c.benchmark_group("script/find_first_child_x100");
    group.sample_size(20);
    let hit =
        "local f = workspace.Folder\nfunction Update() for i = 1, 100 do f:FindFirstChild('Part999') end end";
    let miss =
        "local f = workspace.Folder\nfunction Update() for i = 1, 100 do f:FindFirstChild('Nope') end end";
    let (mut sim_h, mut host_h) = started(&[("Hit", hit)], 1000);
    let (mut sim_m, mut host_m) = started(&[("Miss", miss)], 1000);
    group.bench_function("arbor_hit_last_of_1000", |b| {
        b.iter(|| sim_h.with_context(|ctx| host_h.update(ctx, 1.0 / 60.0)))
    });
    group.bench_function("arbor_miss", |b| {
        b.iter(|| sim_m.with_context(|ctx| host_m.update(ctx, 1.0 / 60.0)))
    });
    assert!(host_h.log().is_empty() && host_m.log().is_empty(), "no script errors");
    group.finish();
}

#[cfg(feature = "jit")]
fn jit(c: &mut Criterion) {
    let mut group = c.benchmark_group("script/jit_x100k");
    group.sample_size(20);
    let loops = [
        ("empty_loop", "return function() for i = 1, 100000 do end end"),
        (
            "table_write",
            "return function() local t = {} for i = 1, 100000 do t[i % 64 + 1] = i * 2 + 1 end end",
        ),
        ("arith", "return function() local x = 0 for i = 1, 100000 do x = x * 0.5 + i end return x end"),
    ];
    for (mode, native) in [("interpreted", false), ("native", true)] {
        let lua = Lua::new();
        lua.enable_jit(native);
        budget::install(&lua).unwrap();
        for (name, source) in loops {
            let f: Function = lua.load(source).eval().unwrap();
            group.bench_function(format!("{name}_{mode}"), |b| {
                b.iter(|| {
                    let outer = budget::enter();
                    f.call::<()>(()).unwrap();
                    budget::leave(outer);
                })
            });
        }
        // The empty loop again on a VM without the interrupt: what the budget costs each mode.
        let bare = Lua::new();
        bare.enable_jit(native);
        let f: Function = bare.load(loops[0].1).eval().unwrap();
        group
            .bench_function(format!("empty_loop_no_budget_{mode}"), |b| b.iter(|| f.call::<()>(()).unwrap()));
        let read = "local s = self\nfunction Update() local p for i = 1, 100000 do p = s.Position end end";
        let config = HostConfig { jit: native, ..Default::default() };
        let (mut sim, mut host) = started_with(config, &[("S", read)], 0);
        group.bench_function(format!("read_Position_{mode}"), |b| {
            b.iter(|| sim.with_context(|ctx| host.update(ctx, 1.0 / 60.0)))
        });
        assert!(host.log().is_empty(), "no script errors: {:?}", host.log());
    }
    group.finish();
}

fn emit(c: &mut Criterion) {
    let mut group = c.benchmark_group("script/emit_x1k");
    group.sample_size(20);
    let body = |call: &str, payload: &str| {
        format!(
            "local sig = workspace:GetSignal('Bench') local n = 0 \
             local function handler(v) n += 1 end sig:Connect(handler) \
             local payload = {payload} \
             function Update() for i = 1, 1000 do {call}(payload) end end"
        )
    };
    for (name, payload) in [("number", "7"), ("table", "{ a = 1, b = { 2, 3 } }")] {
        for (route, call) in [("emit", "sig:Emit"), ("local_call", "handler")] {
            let source = body(call, payload);
            let (mut sim, mut host) = started(&[("S", source.as_str())], 0);
            group.bench_function(format!("{route}_{name}"), |b| {
                b.iter(|| sim.with_context(|ctx| host.update(ctx, 1.0 / 60.0)))
            });
        }
    }
    group.finish();
}

criterion_group!(
    benches,
    update_dispatch,
    emit,
    property,
    budget_overhead,
    find_first_child,
    system_dispatch,
    component_field
);
#[cfg(feature = "jit")]
criterion_group!(jit_benches, jit);
#[cfg(feature = "jit")]
criterion_main!(benches, jit_benches);
#[cfg(not(feature = "jit"))]
criterion_main!(benches);
