//! The wall-clock backstop: an entry past its wall bound is aborted with its own message,
//! counted, and recorded so that a replay stops the same entry at the same point.

mod common;

use arbor_script::budget::{self, WallBound};
use arbor_script::{HostConfig, WALL_MESSAGE};
use common::Place;
use std::time::Duration;

/// A script that counts loop iterations in its first `Update` until it is stopped, and
/// prints the count on the next.
const COUNTER: &str = "local n, done = 0, false
    function Update()
        if done then print('completed', n) return end
        done = true
        while true do n += 1 end
    end";

/// The log of two ticks, and the wall aborts the profiler counted.
fn run(config: HostConfig) -> (Vec<String>, usize) {
    let mut place = Place::new();
    let ws = place.workspace();
    place.script("Counter", ws, COUNTER);
    let mut running = place.start_with(config);
    running.tick(2);
    (running.log(), running.sim.profiler().totals().script_wall_aborts)
}

#[test]
fn an_entry_past_its_wall_bound_is_aborted_and_a_replay_stops_it_at_the_same_point() {
    let _ = budget::take_wall_aborts();
    let before = budget::wall_aborts_total();
    // A zero bound: the first clock read stops the loop, long before its budget would.
    let zero = WallBound { nominal: Duration::ZERO, grace: Duration::ZERO };
    let (live, counted) = run(HostConfig { wall_bound: Some(zero), ..HostConfig::default() });
    assert_eq!(counted, 1, "the profiler counts the abort");
    assert!(
        live.iter().any(|l| l.starts_with("Workspace.Counter: error:") && l.ends_with(WALL_MESSAGE)),
        "{live:?}"
    );
    assert_eq!(budget::wall_aborts_total(), before + 1);
    let aborts = budget::take_wall_aborts();
    assert_eq!(aborts.len(), 1, "{aborts:?}");
    assert!(aborts[0].units > 0 && aborts[0].units < arbor_script::ENTRY_BUDGET, "{aborts:?}");

    // The replay: no clock, the same entry cut at the same units.
    budget::expect_wall_aborts(aborts);
    let (replayed, _) = run(HostConfig { wall_bound: None, ..HostConfig::default() });
    assert_eq!(replayed, live);
    budget::expect_wall_aborts(Vec::new());
}
