//! Luau's native code generator (the `jit` feature) against the interpreter: the instruction
//! budget must abort every probe at the same point in both modes for native code to be
//! adoptable. Run with `cargo test -p arbor-script --features jit --test jit`.

#![cfg(feature = "jit")]

use arbor_core::{Arena, Class};
use arbor_script::{HostConfig, ScriptHost};
use arbor_sim::{SimConfig, Simulation};
use std::cell::RefCell;
use std::rc::Rc;

/// Runs `body` (which counts iterations in `n` until the budget aborts it) in one `Update`,
/// then prints `n` on the next tick; returns the count.
fn count(body: &str, jit: bool) -> String {
    let source = format!(
        "local n, done = 0, false\nfunction Update()\n if done then print(n) return end\n done = true\n {body}\nend"
    );
    let mut arena = Arena::new();
    let ws = arena.workspace();
    let part = arena.create(Class::Part, "Holder", Some(ws)).unwrap();
    let s = arena.create(Class::Script, "Main", Some(part)).unwrap();
    arena.set_script_source(s, &source).unwrap();
    let host =
        Rc::new(RefCell::new(ScriptHost::new(&arena, HostConfig { jit, ..Default::default() }).unwrap()));
    let mut sim = Simulation::new(arena, SimConfig::default()).unwrap();
    sim.add_hooks(host.clone());
    sim.run(2);
    let log: Vec<String> = host.borrow().log().into_iter().map(|l| l.text).collect();
    log.join(" | ")
}

/// Budget probes whose abort point is the same interpreted and native.
const SAME: &[&str] = &[
    "while true do n += 1 end",
    "local t = table.create(100, 0) while true do for _, v in t do n += 1 end end",
    "local t = table.create(100, 0) while true do for _, v in ipairs(t) do n += 1 end end",
    "repeat n += 1 until n < 0",
    "local function f(x) n += x return n end while true do f(1) f(0) end",
    "while true do pcall(function() n += 1 end) end",
    "while true do n += 1 self.Position = self.Position + Vector3.one end",
    "while true do n += 1 self:IsA('Part') end",
];

#[test]
fn budget_aborts_at_the_same_point_native_and_interpreted_except_numeric_for() {
    for body in SAME {
        let interpreted = count(body, false);
        assert!(interpreted.contains("script exceeded its instruction budget"), "{body}: {interpreted}");
        assert_eq!(interpreted, count(body, true), "{body}");
    }
    // The interpreter charges a numeric `for` at FORNLOOP (after each body); native code
    // charges at the top of the body (before it), so the overrunning iteration's body runs
    // interpreted but not native: the same number of units, one body fewer.
    let body = "for i = 1, 1e9 do n += 1 end";
    let interpreted = count(body, false);
    let native = count(body, true);
    assert!(interpreted.ends_with(": 1000001"), "{interpreted}");
    assert!(native.ends_with(": 1000000"), "{native}");
}
