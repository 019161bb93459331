//! The catalogue of hostile scripts: every way a script author found to make one entry run
//! far past its budget, each asserting that the entry is aborted after a bounded amount of
//! work, that the server keeps ticking, and that another script keeps running beside it.
//!
//! Work is measured by what a script managed to do before the abort (iterations of its
//! loop), which is deterministic, instead of by time.

mod common;

use arbor_core::{Class, Id};
use common::Place;

/// A script that prints every tick, beside the hostile one.
const BYSTANDER: &str = "local t = 0 function Update() t += 1 print('tick', t) end";

/// Runs `op` in an endless loop in one `Update` after `setup` (Luau, run once first), and
/// returns how many times `op` completed before the budget stopped it. Asserts the abort is
/// the budget's, and that the bystander ran on every one of the 3 ticks.
fn completed_before_abort(build: impl FnOnce(&mut Place), setup: &str, op: &str) -> u64 {
    let source = format!(
        "local n, done = 0, false
         function Update()
             if done then print('completed', n) return end
             done = true
             {setup}
             while true do
                 {op}
                 n += 1
             end
         end"
    );
    let mut place = Place::new();
    build(&mut place);
    let ws = place.workspace();
    place.script("Hostile", ws, &source);
    place.script("Bystander", ws, BYSTANDER);
    let mut running = place.start();
    running.tick(3);
    let log = running.log();
    assert!(
        log.iter().any(|l| l.starts_with("Workspace.Hostile: error:")
            && l.ends_with("script exceeded its instruction budget")),
        "{op}: {log:?}"
    );
    for t in 1..=3 {
        assert!(log.contains(&format!("Workspace.Bystander: tick {t}")), "{op}: {log:?}");
    }
    let last = log.iter().rev().find(|l| l.starts_with("Workspace.Hostile: completed")).expect("the count");
    last.rsplit(' ').next().unwrap().parse().unwrap()
}

fn nothing(_: &mut Place) {}

#[test]
fn an_unrolled_loop_body_pays_for_each_instruction() {
    // Before: one unit per back-edge, so a 1,000-instruction body ran 1,000,000 times.
    let body = "x += 1 ".repeat(1000);
    let n = completed_before_abort(nothing, "local x = 0", &body);
    assert!(n <= 1_000, "{n} iterations of a 1,000-instruction body");
}

#[test]
fn buffer_fill_pays_for_the_bytes_it_writes() {
    let n = completed_before_abort(nothing, "local b = buffer.create(1048576)", "buffer.fill(b, 0, 7)");
    assert!(n <= 16, "{n} fills of 1 MiB");
}

#[test]
fn string_find_pays_for_the_bytes_it_scans() {
    let n =
        completed_before_abort(nothing, "local s = string.rep('x', 1048576)", "string.find(s, 'z', 1, true)");
    assert!(n <= 16, "{n} scans of 1 MiB");
}

#[test]
fn string_rep_and_concatenation_pay_for_the_bytes_they_make() {
    let n = completed_before_abort(nothing, "", "local s = string.rep('x', 1048576)");
    assert!(n <= 16, "{n} strings of 1 MiB");
    let n = completed_before_abort(nothing, "local s = string.rep('x', 65536)", "local t = s .. s");
    assert!(n <= 123, "{n} concatenations of 128 KiB");
}

#[test]
fn table_work_pays_for_the_elements_it_visits() {
    let n = completed_before_abort(nothing, "local t = table.create(10000, 1)", "table.sort(t)");
    assert!(n <= 7, "{n} sorts of 10,000");
    let n = completed_before_abort(nothing, "local t = table.create(100000, 1)", "table.insert(t, 1, 0)");
    assert!(n <= 10, "{n} front inserts into 100,000");
    let n = completed_before_abort(nothing, "local t = table.create(100000, 1)", "table.find(t, 2)");
    assert!(n <= 10, "{n} searches of 100,000");
}

/// A folder `Wide` with 10,000 children and a chain `Deep` 5,000 levels deep.
fn wide_and_deep(place: &mut Place) {
    let ws = place.workspace();
    let wide = place.folder("Wide", ws);
    for i in 0..10_000 {
        place.arena.create(Class::Folder, &format!("F{i}"), Some(wide)).unwrap();
    }
    let mut at: Id = place.folder("Deep", ws);
    for _ in 0..5_000 {
        at = place.arena.create(Class::Folder, "D", Some(at)).unwrap();
    }
    place.arena.set_name(at, "Bottom").unwrap();
}

#[test]
fn engine_walks_pay_for_the_instances_they_visit() {
    let n = completed_before_abort(wide_and_deep, "local w = workspace.Wide", "local c = w:GetChildren()");
    assert!(n <= 20, "{n} GetChildren of 10,000");
    let n =
        completed_before_abort(wide_and_deep, "local w = workspace.Wide", "w:FindFirstChild('Bottom', true)");
    assert!(n <= 25, "{n} recursive searches of 10,000");
    let n = completed_before_abort(
        wide_and_deep,
        "local b = workspace.Deep:FindFirstChild('Bottom', true)",
        "local s = b:GetFullName()",
    );
    assert!(n <= 50, "{n} full names at depth 5,000");
}
