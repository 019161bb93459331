//! The catalogue of hostile place files: each one is loaded as `arbor run` would, and either
//! refused with its error or run for a few ticks with its scripts, asserting the server keeps
//! ticking (a tick count, never a time) and that memory stays bounded where the place tries
//! to grow it. The decoders' own error paths are tested in `place/tests/place.rs`; this file
//! runs what they accept.

use arbor_core::Arena;
use arbor_place::load_json;
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
    assert!(sim.profiler().last().suspended_bodies >= 2_000 - arbor_sim::physics::MAX_BODIES_PER_CELL * 8);
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

/// A version 2 place file with `settings` and a Workspace holding `attributes`.
fn place_with(settings: &str, attributes: &str) -> String {
    format!(
        r#"{{"format": "arbor-place", "version": 2, "settings": {settings}, "instances": [{{"class": "Workspace", "name": "Workspace", "attributes": {attributes}}}]}}"#
    )
}

#[test]
fn a_place_asking_for_unlimited_transaction_units_is_refused_at_load() {
    // Before: 2^63 became "unlimited" (i64::MAX) and 1e15 ran a `while true` for hours.
    for units in ["9223372036854775808", "1e15", "1000000000000000", "-1", "0.5"] {
        let text = place_with(&format!(r#"{{"behaviors": {{"unitsPerTransaction": {units}}}}}"#), "{}");
        let e = load_json(&text).err().expect("refused").to_string();
        assert!(e.starts_with("settings.behaviors"), "{units}: {e}");
        assert!(e.contains("unitsPerTransaction must be a whole number from 1 to 100000000"), "{units}: {e}");
    }
    let text = place_with(r#"{"behaviors": {"transactionsPerMoment": 1e12}}"#, "{}");
    let e = load_json(&text).err().expect("refused").to_string();
    assert!(e.contains("transactionsPerMoment must be a whole number from 1 to 10000000"), "{e}");
    let ok = place_with(r#"{"behaviors": {"unitsPerTransaction": 2e5}}"#, "{}");
    assert_eq!(load_json(&ok).unwrap().behaviors().settings.units_per_transaction, 200_000);
}

#[test]
fn a_workspace_asking_for_billions_of_instances_is_refused_at_load() {
    // Before: `MaxInstances = 4e9` and `MaxCreationsPerTick = 1e9` let one script abort the
    // server out of memory at 3.5 GB.
    let cases = [
        (
            r#"{"MaxInstances": {"Number": 4e9}}"#,
            "Workspace.MaxInstances must be a whole number from 1000 to 100000000; 4000000000 is refused",
        ),
        (
            r#"{"MaxCreationsPerTick": {"Number": 1e9}}"#,
            "Workspace.MaxCreationsPerTick must be a whole number from 100 to 10000000; 1000000000 is refused",
        ),
        (
            r#"{"MaxInstances": {"Number": -1}}"#,
            "Workspace.MaxInstances must be a whole number from 1000 to 100000000; -1 is refused",
        ),
        (r#"{"MaxInstances": {"Number": 2500.5}}"#, "; 2500.5 is refused"),
        (
            r#"{"MaxTextBytes": {"Number": 1e300}}"#,
            "Workspace.MaxTextBytes must be a whole number from 1048576 to 17179869184",
        ),
        (
            r#"{"MaxInstances": {"String": "lots"}}"#,
            "Workspace.MaxInstances must be a whole number from 1000 to 100000000; a String attribute is refused",
        ),
    ];
    for (attributes, expected) in cases {
        let arena = load_json(&place_with("{}", attributes)).unwrap();
        let e = Simulation::new(arena, SimConfig::default()).err().expect(attributes).to_string();
        assert!(e.contains(expected), "{attributes}: {e}");
    }
}

#[test]
fn a_host_cap_lower_than_the_workspace_setting_wins() {
    let attributes = r#"{"MaxInstances": {"Number": 50000}, "MaxCreationsPerTick": {"Number": 5000}}"#;
    let arena = load_json(&place_with("{}", attributes)).unwrap();
    let caps = arbor_sim::SimCaps { instances: 2_000, ..Default::default() };
    let mut sim = Simulation::with_caps(arena, SimConfig::default(), caps).unwrap();
    assert_eq!(sim.arena.max_nodes(), 2_000);
    assert_eq!(sim.arena.max_creations_per_window(), 5_000, "below its cap, the place's own value holds");
    let lowered: Vec<String> = sim.lowered_settings().iter().map(ToString::to_string).collect();
    assert_eq!(
        lowered,
        [
            "Workspace.MaxInstances: the place asks for 50000, more than this host's cap of 2000; the cap applies"
        ]
    );
    // A script filling the place stops at the host's cap.
    let ws = sim.arena.workspace();
    sim.arena.create(arbor_core::Class::Folder, "Seed", Some(ws)).unwrap();
    let s = sim.arena.create(arbor_core::Class::Script, "Fill", Some(ws)).unwrap();
    let fill = "local f = workspace.Seed local ok, e = pcall(function() for i = 1, 3000 do f:Clone().Parent = workspace end end) print(ok, e)";
    sim.arena.set_script_source(s, fill).unwrap();
    let host = Rc::new(RefCell::new(ScriptHost::new(&sim.arena, HostConfig::default()).unwrap()));
    sim.add_hooks(host.clone());
    sim.run(2);
    let log: Vec<String> = host.borrow().log().into_iter().map(|l| l.text).collect();
    assert!(log.iter().any(|l| l.contains("it holds its maximum of 2000 instances")), "{log:?}");
    assert!(sim.arena.len() <= 2_000);
    // A host cap out of range is refused too.
    let arena = load_json(&place_with("{}", "{}")).unwrap();
    let caps = arbor_sim::SimCaps { instances: 4_000_000_000, ..Default::default() };
    let e = Simulation::with_caps(arena, SimConfig::default(), caps).err().unwrap().to_string();
    assert!(e.contains("the host's cap on instances must be a whole number from 1000 to 100000000"), "{e}");
}
