//! The catalogue of hostile place files: each one is loaded as `arbor run` would, and either
//! refused with its error or run for a few ticks with its scripts, asserting the server keeps
//! ticking (a tick count, never a time) and that memory stays bounded where the place tries
//! to grow it. The decoders' own error paths are tested in `core/tests/place.rs`; this file
//! runs what they accept.

use arbor_core::{Arena, load_json};
use arbor_script::{HostConfig, ScriptHost};
use arbor_sim::{SimConfig, Simulation};
use std::cell::RefCell;
use std::rc::Rc;

/// A place file with `instances` under its Workspace.
fn place(instances: &str) -> String {
    format!(
        r#"{{"format": "arbor-place", "version": 1, "instances": [{{"class": "Workspace", "name": "Workspace", "children": [{instances}]}}]}}"#
    )
}

/// A script instance in a place file.
fn script(name: &str, source: &str) -> String {
    let quoted = source.replace('\\', "\\\\").replace('"', "\\\"");
    format!(r#"{{"class": "Script", "name": "{name}", "source": "{quoted}"}}"#)
}

/// Runs a loaded place for `ticks` ticks; returns the simulation (to read its counters) and
/// the log.
fn run(arena: Arena, ticks: u64) -> (Simulation, Vec<String>) {
    let host = Rc::new(RefCell::new(ScriptHost::new(&arena, HostConfig::default()).unwrap()));
    let mut sim = Simulation::new(arena, SimConfig::default()).unwrap();
    sim.add_hooks(host.clone());
    sim.run(ticks);
    assert_eq!(sim.profiler().ticks().count, ticks, "the server kept ticking");
    let log = host.borrow().log().into_iter().map(|l| l.text).collect();
    (sim, log)
}

#[test]
fn a_part_sized_1e20_beside_a_cylinder_runs() {
    // Before: a panic inside parry3d's EPA from a 2-part file.
    let text = place(
        r#"{"class": "Part", "name": "Huge", "size": [2, 1, 1e20], "position": [0, 3, 0]},
           {"class": "Part", "name": "Can", "shape": "Cylinder", "position": [0, 3, 0]}"#,
    );
    let (sim, _) = run(load_json(&text).unwrap(), 10);
    assert_eq!(sim.physics.faults(), 0);
}

#[test]
fn a_pile_of_parts_in_a_file_is_simulated_in_bounded_cells() {
    let parts: Vec<String> = (0..2_000)
        .map(|i| format!(r#"{{"class": "Part", "name": "P{i}", "position": [0, 5, 0]}}"#))
        .collect();
    let (sim, _) = run(load_json(&place(&parts.join(","))).unwrap(), 3);
    assert!(sim.profiler().last().suspended_bodies >= 2_000 - arbor_sim::MAX_BODIES_PER_CELL * 8);
}

#[test]
fn hostile_scripts_in_a_file_leave_the_others_running() {
    let text = place(&[
        script("Spin", "function Update() while true do end end"),
        script("Bomb", "local t = {} function Update() for i = 1, 1e9 do t[#t + 1] = string.rep('x', 1e6) .. i end end"),
        script("Double", "local f = workspace.Seed function Update() for i = 1, 40 do f:Clone().Parent = f end end"),
        script("Emitter", "local s = workspace:GetSignal('E') s:Connect(function() for i = 1, 2 do pcall(s.Emit, s) end end) function Update() s:Emit() end"),
        r#"{"class": "Folder", "name": "Seed"}"#.to_owned(),
        script("Fine", "local n = 0 function Update() n += 1 print('fine', n) end"),
    ]
    .join(","));
    let (sim, log) = run(load_json(&text).unwrap(), 30);
    // Fine runs on (the log ring may have dropped the early lines). The emitter's cascade
    // (each handler a fresh budget) uses the tick's whole share every tick, so the share's
    // round robin defers an entry now and then: at least 25 calls in thirty ticks.
    assert!(
        log.contains(&"Workspace.Fine: fine 25".to_owned()),
        "{:?}",
        &log[log.len().saturating_sub(40)..]
    );
    assert!(!log.iter().any(|l| l.contains("C stack overflow") || l.contains("error in error handling")));
    // The doubling is held by the per-tick creation cap and the budget, not the memory.
    assert!(sim.arena.len() < 5_000_000, "{}", sim.arena.len());
}
