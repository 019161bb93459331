//! Random hostile scripts: library functions applied to large inputs in an endless loop,
//! beside a bystander. Every generated entry must end (the meter stops it, or it completes),
//! the bystander must run every tick, and the VM must stay under its memory limit.
//!
//! The suite runs a few cases; a longer run (`ARBOR_GENERATED_CASES=2000 cargo test -p
//! arbor-script --release --test hostile_generated -- --nocapture`) also prints the longest
//! tick it saw, which `docs/perf/scripts.md` quotes.

mod common;

use common::Place;
use proptest::prelude::*;
use std::time::{Duration, Instant};

/// Inputs every generated script starts from: strings `S` (and `S2`, equal but for its last
/// byte), a pattern-rich subject `P`, a table `T` of strings, a sparse table `E`, a buffer
/// `B`, each of `n` bytes or elements.
fn setup(n: usize) -> String {
    format!(
        "local n = {n}
         local S = string.rep('x', n) local S2 = string.sub(S, 2) .. 'y'
         local P = string.rep('ab', n // 2)
         local T = table.create(math.min(n, 100000), 'v')
         local E = table.create(math.min(n, 100000)) E[#E + 1] = 1
         local B = buffer.create(n)"
    )
}

/// Calls a hostile script may make, on the inputs of [`setup`].
const OPS: &[&str] = &[
    "local _ = S < S2",
    "local _ = S:sub(1)",
    "local _ = S:upper()",
    "local _ = S:reverse()",
    "local _ = S:split('x')",
    "local _ = S:split(string.sub(S, 1, 64) .. 'z')",
    "local _ = string.find(S, string.rep('x-', 12) .. 'y')",
    "local _ = string.find(P, '(a*)*b')",
    "local _ = string.match(S, '[' .. string.sub(S, 1, 512) .. ']+$')",
    "local _ = string.gsub(P, '%w', '%0%0')",
    "local _ = string.find(S, S2, 1, true)",
    "local _ = select('#', string.byte(S, 1, 7000))",
    "local _ = select('#', unpack(T))",
    "local _ = table.concat(T)",
    "table.sort(T)",
    "local _ = table.clone(T)",
    "table.move(T, 1, #T, 2)",
    "local _ = table.find(T, 'missing')",
    "local _ = next(E)",
    "for _ in next, E do break end",
    "buffer.fill(B, 0, 7)",
    "local _ = buffer.readstring(B, 0, buffer.len(B))",
    "local _ = string.format('%s%s', S, S)",
    "local _ = utf8.len(S)",
    "local _ = S .. S",
    "local _ = string.rep(S, 4)",
    "local _ = tostring(S)",
    "local _ = table.create(n, S)",
];

/// Runs one generated script for two ticks; returns its log and the longest tick.
fn run(n: usize, ops: &[usize]) -> (Vec<String>, Duration) {
    let body: String = ops.iter().map(|&i| format!("pcall(function() {} end)\n", OPS[i])).collect();
    let source = format!(
        "{}
         function Update()
             while true do
                 {body}
             end
         end",
        setup(n)
    );
    let mut place = Place::new();
    let ws = place.workspace();
    place.script("Hostile", ws, &source);
    place.script("Bystander", ws, "local t = 0 function Update() t += 1 print('tick', t) end");
    let mut running = place.start();
    let mut longest = Duration::ZERO;
    for _ in 0..2 {
        let start = Instant::now();
        running.tick(1);
        longest = longest.max(start.elapsed());
    }
    (running.log(), longest)
}

fn cases() -> u32 {
    std::env::var("ARBOR_GENERATED_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(12)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(), ..ProptestConfig::default() })]

    #[test]
    fn generated_hostile_scripts_end_and_the_bystander_runs(
        n in prop::sample::select(vec![1_000usize, 65_536, 1 << 20, 4 << 20]),
        ops in prop::collection::vec(0..OPS.len(), 1..5),
    ) {
        let (log, longest) = run(n, &ops);
        for t in 1..=2 {
            prop_assert!(log.contains(&format!("Workspace.Bystander: tick {t}")), "{ops:?} {log:?}");
        }
        // The loop never ends by itself: the entry was stopped by the meter (or, at load,
        // the setup was), never by anything else.
        prop_assert!(
            log.iter().any(|l| l.starts_with("Workspace.Hostile: error:") || l.starts_with("init error in Workspace.Hostile")),
            "{ops:?} {log:?}"
        );
        if cases() > 100 {
            LONGEST.with(|l| l.set(l.get().max(longest)));
            println!("n={n} ops={ops:?}: longest tick {:.1} ms (so far {:.1} ms)", longest.as_secs_f64() * 1e3, LONGEST.with(|l| l.get()).as_secs_f64() * 1e3);
        }
    }
}

thread_local! {
    static LONGEST: std::cell::Cell<Duration> = const { std::cell::Cell::new(Duration::ZERO) };
}
