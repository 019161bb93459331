//! Interleaved min-of-N timings of the script property benchmarks (robust on a loaded
//! machine): each round runs every variant once; the minimum per variant is reported.

use arbor_core::{Arena, Class};
use arbor_script::{HostConfig, ScriptHost};
use arbor_sim::{SimConfig, Simulation, TickHooks};
use mlua::{Function, Lua, UserData, UserDataFields};
use std::time::Instant;

fn started(source: &str) -> (Simulation, ScriptHost) {
    let mut arena = Arena::new();
    let ws = arena.workspace();
    let holder = arena.create(Class::Part, "Holder", Some(ws)).unwrap();
    let s = arena.create(Class::Script, "S", Some(holder)).unwrap();
    arena.set_script_source(s, source).unwrap();
    let mut host = ScriptHost::new(&arena, HostConfig::default()).unwrap();
    let mut sim = Simulation::new(arena, SimConfig::default()).unwrap();
    sim.with_context(|ctx| host.start_scripts(ctx));
    (sim, host)
}

struct Plain {
    x: f64,
}

impl UserData for Plain {
    fn add_fields<F: UserDataFields<Self>>(fields: &mut F) {
        fields.add_field_method_get("X", |_, this| Ok(this.x));
    }
}

fn main() {
    let sources = [
        ("read", "function Update() local p for i = 1, 10000 do p = self.Position end end"),
        (
            "write",
            "local v = Vector3.new(1, 2, 3)\nfunction Update() for i = 1, 10000 do self.Position = v end end",
        ),
        (
            "read_local",
            "local s = self\nfunction Update() local p for i = 1, 10000 do p = s.Position end end",
        ),
        (
            "write_local",
            "local s, v = self, Vector3.new(1, 2, 3)\nfunction Update() for i = 1, 10000 do s.Position = v end end",
        ),
        (
            "anchored_local",
            "local s = self\nfunction Update() local p for i = 1, 10000 do p = s.Anchored end end",
        ),
        (
            "ffc_miss",
            "local f = workspace\nfunction Update() for i = 1, 10000 do f:FindFirstChild('Nope') end end",
        ),
    ];
    let mut hosts: Vec<(&str, Simulation, ScriptHost)> = sources
        .iter()
        .map(|(n, s)| {
            let (sim, host) = started(s);
            (*n, sim, host)
        })
        .collect();
    let lua = Lua::new();
    lua.globals().set("bare", lua.create_function(|_, ()| Ok(1.0)).unwrap()).unwrap();
    lua.globals().set("plain", Plain { x: 1.0 }).unwrap();
    let bare: Function =
        lua.load("return function() local p for i = 1, 10000 do p = bare() end end").eval().unwrap();
    let field: Function =
        lua.load("return function() local p for i = 1, 10000 do p = plain.X end end").eval().unwrap();
    let rounds: usize = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(300);
    let mut mins = vec![f64::MAX; hosts.len() + 2];
    for _ in 0..rounds {
        for (i, (_, sim, host)) in hosts.iter_mut().enumerate() {
            let t = Instant::now();
            sim.with_context(|ctx| host.update(ctx, 1.0 / 60.0));
            mins[i] = mins[i].min(t.elapsed().as_secs_f64());
        }
        let n = hosts.len();
        let t = Instant::now();
        bare.call::<()>(()).unwrap();
        mins[n] = mins[n].min(t.elapsed().as_secs_f64());
        let t = Instant::now();
        field.call::<()>(()).unwrap();
        mins[n + 1] = mins[n + 1].min(t.elapsed().as_secs_f64());
    }
    for (_, _, host) in &hosts {
        assert!(host.log().is_empty(), "{:?}", host.log());
    }
    // One Update dispatch per script, 10,000 scripts, against 10,000 bare mlua calls.
    let mut arena = Arena::new();
    let ws = arena.workspace();
    for i in 0..10_000 {
        let holder = arena.create(Class::Part, &format!("H{i}"), Some(ws)).unwrap();
        let s = arena.create(Class::Script, "S", Some(holder)).unwrap();
        arena.set_script_source(s, "function Update(dt) end").unwrap();
    }
    let mut host = ScriptHost::new(&arena, HostConfig::default()).unwrap();
    let mut sim = Simulation::new(arena, SimConfig::default()).unwrap();
    sim.with_context(|ctx| host.start_scripts(ctx));
    let fns: Vec<Function> =
        (0..10_000).map(|_| lua.load("return function(dt) end").eval::<Function>().unwrap()).collect();
    let (mut dispatch, mut calls) = (f64::MAX, f64::MAX);
    for _ in 0..rounds / 5 {
        let t = Instant::now();
        sim.with_context(|ctx| host.update(ctx, 1.0 / 60.0));
        dispatch = dispatch.min(t.elapsed().as_secs_f64());
        let t = Instant::now();
        for f in &fns {
            f.call::<()>(1.0 / 60.0).unwrap();
        }
        calls = calls.min(t.elapsed().as_secs_f64());
    }
    println!(
        "{:>22}: {:7.1} ns per script ({:.2}x bare)",
        "update_dispatch",
        dispatch * 1e5,
        dispatch / calls
    );
    println!("{:>22}: {:7.1} ns per call", "bare_mlua_calls", calls * 1e5);
    let base = mins[hosts.len()];
    let names: Vec<&str> =
        hosts.iter().map(|h| h.0).chain(["bare_rust_call", "plain_userdata_field"]).collect();
    for (name, m) in names.iter().zip(&mins) {
        println!("{name:>22}: {:7.1} ns per item  ({:.2}x bare)", m * 1e9 / 10_000.0, m / base);
    }
}
