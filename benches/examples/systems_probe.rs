//! Probe for script systems, robust on a loaded machine. `systems_probe [N]`: N scripts
//! (default 10,000) each register one system matching one instance; prints the first Systems
//! phase, then the best of 200 phases per dispatch, interleaved with as many empty `Update`
//! hooks. `systems_probe fields`: the best-of-100 cost of a component field read plus write
//! through a cached component handle (10,000 per phase).
use arbor_core::{Arena, Class};
use arbor_script::{HostConfig, ScriptHost};
use arbor_sim::{SimConfig, Simulation, TickHooks};
use std::time::Instant;

fn fields() {
    let mut arena = Arena::new();
    let ws = arena.workspace();
    let folder = arena.create(Class::Folder, "Folder", Some(ws)).unwrap();
    for i in 0..10_000 {
        arena.create(Class::Part, &format!("Part{i}"), Some(folder)).unwrap();
    }
    let holder = arena.create(Class::Part, "Holder", Some(ws)).unwrap();
    let s = arena.create(Class::Script, "S", Some(holder)).unwrap();
    let source = r#"
        game.Components.Define("Health", { Value = "number" })
        for _, p in workspace.Folder:GetChildren() do p:AddComponent("Health", { Value = 1 }) end
        local refs = {} for i, p in workspace.Folder:GetChildren() do refs[i] = p:GetComponent('Health') end
        game.Systems.Register('S', { with = { 'Health' } }, function(dt, es) for _, h in refs do h.Value += 1 end end)
    "#;
    arena.set_script_source(s, source).unwrap();
    let mut host = ScriptHost::new(&arena, HostConfig::default()).unwrap();
    let mut sim = Simulation::new(arena, SimConfig::default()).unwrap();
    sim.with_context(|ctx| host.start_scripts(ctx));
    let mut best = f64::MAX;
    for _ in 0..100 {
        let t = Instant::now();
        sim.with_context(|ctx| host.systems(ctx, 1.0 / 60.0));
        best = best.min(t.elapsed().as_secs_f64());
    }
    eprintln!("fields: best {:.1} ns per entity (read + write)", best * 1e9 / 1e4);
}

fn main() {
    if std::env::args().nth(1).as_deref() == Some("fields") {
        return fields();
    }
    let n: usize = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(10_000);
    let mut arena = Arena::new();
    let ws = arena.workspace();
    let system = r#"
        game.Components.Define("Tag", {})
        script:AddComponent("Tag")
        game.Systems.Register("S", { with = { "Tag" }, under = self }, function(dt, entities) end)
    "#;
    for i in 0..n {
        let holder = arena.create(Class::Part, &format!("Holder{i}"), Some(ws)).unwrap();
        let s = arena.create(Class::Script, "S", Some(holder)).unwrap();
        arena.set_script_source(s, system).unwrap();
    }
    let mut host = ScriptHost::new(&arena, HostConfig::default()).unwrap();
    let mut sim = Simulation::new(arena, SimConfig::default()).unwrap();
    let t = Instant::now();
    sim.with_context(|ctx| host.start_scripts(ctx));
    eprintln!("start {:?}", t.elapsed());
    let t = Instant::now();
    sim.with_context(|ctx| host.systems(ctx, 1.0 / 60.0));
    eprintln!("first dispatch {:?}", t.elapsed());
    // The same number of empty `Update` hooks, timed interleaved with the systems.
    let mut arena = Arena::new();
    let ws = arena.workspace();
    for i in 0..n {
        let holder = arena.create(Class::Part, &format!("Holder{i}"), Some(ws)).unwrap();
        let s = arena.create(Class::Script, "S", Some(holder)).unwrap();
        arena.set_script_source(s, "function Update(dt) end").unwrap();
    }
    let mut uhost = ScriptHost::new(&arena, HostConfig::default()).unwrap();
    let mut usim = Simulation::new(arena, SimConfig::default()).unwrap();
    usim.with_context(|ctx| uhost.start_scripts(ctx));
    let (mut best_sys, mut best_upd) = (f64::MAX, f64::MAX);
    for _ in 0..200 {
        let t = Instant::now();
        sim.with_context(|ctx| host.systems(ctx, 1.0 / 60.0));
        best_sys = best_sys.min(t.elapsed().as_secs_f64());
        let t = Instant::now();
        usim.with_context(|ctx| uhost.update(ctx, 1.0 / 60.0));
        best_upd = best_upd.min(t.elapsed().as_secs_f64());
    }
    let per = |t: f64| t * 1e9 / n as f64;
    eprintln!("best per dispatch: system {:.0} ns, Update {:.0} ns", per(best_sys), per(best_upd));
}
