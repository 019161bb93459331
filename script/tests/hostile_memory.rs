//! The hostile catalogue, memory: copies the engine makes for a script are bounded and
//! charged, shares hold when a block is allocated, and scripts together leave the host and
//! the scripts that hold little their reserve.

mod common;

use arbor_core::Class;
use arbor_core::components::Schema;
use arbor_script::{HostConfig, MAX_LINE_BYTES};
use common::Place;

/// A script that allocates a little every tick and says so.
const BYSTANDER: &str =
    "local n = 0 function Update() local t = table.create(1000, n) n += 1 print('ok', n, #t) end";

fn assert_bystander_ran(log: &[String], ticks: u64) {
    for n in 1..=ticks {
        assert!(log.contains(&format!("Workspace.Bystander: ok {n} 1000")), "tick {n}: {log:?}");
    }
    assert!(!log.iter().any(|l| l.starts_with("Workspace.Bystander: error")), "{log:?}");
}

#[test]
fn printing_a_huge_string_every_tick_keeps_only_cut_lines() {
    let mut place = Place::new();
    let ws = place.workspace();
    place.script("Printer", ws, "local S = string.rep('x', 8388608) function Update() print(S) end");
    place.script("Bystander", ws, BYSTANDER);
    let mut running = place.start();
    running.tick(400);
    let log = running.log();
    let printed: Vec<&String> = log.iter().filter(|l| l.starts_with("Workspace.Printer: x")).collect();
    assert_eq!(printed.len(), 400);
    assert!(printed.iter().all(|l| l.len() <= MAX_LINE_BYTES + '…'.len_utf8()), "a line kept whole");
    assert_bystander_ran(&log, 400);
}

#[test]
fn printing_many_copies_formats_at_most_a_capped_line() {
    let mut place = Place::new();
    let ws = place.workspace();
    place.script(
        "Printer",
        ws,
        "local T = table.create(1000, string.rep('y', 1048576))
         function Update() print(unpack(T)) end",
    );
    place.script("Bystander", ws, BYSTANDER);
    let mut running = place.start();
    running.tick(3);
    let log = running.log();
    let printed: Vec<&String> = log.iter().filter(|l| l.starts_with("Workspace.Printer: y")).collect();
    assert_eq!(printed.len(), 3, "{:?}", log.iter().map(|l| l.len()).collect::<Vec<_>>());
    assert!(printed.iter().all(|l| l.ends_with('…')));
    assert_bystander_ran(&log, 3);
}

#[test]
fn signal_names_are_as_short_as_instance_names() {
    let log = common::run_one(
        "local S = string.rep('s', 10485760)
         print(pcall(function() return workspace:GetSignal(S) end))
         print(typeof(workspace:GetSignal(string.rep('s', 1024))))",
        1,
    );
    assert!(
        log.iter().any(|l| l.contains("false") && l.contains("a signal name is at most 1024 bytes")),
        "{log:?}"
    );
    assert!(log.iter().any(|l| l.ends_with("Signal")), "{log:?}");
}

#[test]
fn one_allocation_past_a_share_is_refused_before_it_is_made() {
    let mut place = Place::new();
    let ws = place.workspace();
    place.script(
        "Greedy",
        ws,
        "function Update() local ok, e = pcall(buffer.create, 240 * 1048576) print('greedy', ok, e) end",
    );
    place.script("Bystander", ws, BYSTANDER);
    let mut running = place.start();
    running.tick(3);
    let log = running.log();
    assert!(log.iter().filter(|l| l.contains("greedy false not enough memory")).count() == 3, "{log:?}");
    assert_bystander_ran(&log, 3);
}

#[test]
fn scripts_filling_their_shares_leave_a_bystander_room() {
    // Four scripts, each allowed a quarter of the VM, together could fill it; they stop at
    // the VM's limit minus the reserves instead, and the bystander keeps allocating.
    let mut place = Place::new();
    let ws = place.workspace();
    for i in 0..4 {
        place.script(
            &format!("Hog{i}"),
            ws,
            "local held = {} function Update() for i = 1, 8 do held[#held + 1] = buffer.create(1048576) end end",
        );
    }
    place.script("Bystander", ws, BYSTANDER);
    let config = HostConfig {
        memory_limit: 128 << 20,
        script_memory_share: 32 << 20,
        wall_bound: None,
        ..Default::default()
    };
    let mut running = place.start_with(config);
    running.tick(12);
    let log = running.log();
    assert!(log.iter().any(|l| l.starts_with("Workspace.Hog") && l.contains("not enough memory")), "{log:?}");
    assert_bystander_ran(&log, 12);
}

#[test]
fn systems_arrays_count_against_their_script() {
    let mut place = Place::new();
    let ws = place.workspace();
    let folder = place.folder("Crowd", ws);
    let tag = place.arena.register_component(Schema::new("Tag", Vec::new())).unwrap();
    for i in 0..60_000 {
        let part = place.arena.create(Class::Part, &format!("P{i}"), Some(folder)).unwrap();
        place.arena.add_component(part, tag, None).unwrap();
    }
    let mut systems = String::new();
    for i in 0..40 {
        systems.push_str(&format!(
            "game.Systems.Register('S{i}', {{ with = {{ 'Tag' }} }}, function(dt, list) end)\n"
        ));
    }
    place.script("Systems", ws, &systems);
    place.script("Bystander", ws, BYSTANDER);
    let config = HostConfig {
        memory_limit: 64 << 20,
        script_memory_share: 8 << 20,
        wall_bound: None,
        ..Default::default()
    };
    let mut running = place.start_with(config);
    running.tick(3);
    let log = running.log();
    // The arrays are the script's: building them takes it past its share, and its systems
    // fail (the share's error, then refusals), not the bystander.
    assert!(
        log.iter().any(|l| l.starts_with("Workspace.Systems: error:") && l.contains("not enough memory")),
        "{log:?}"
    );
    assert_bystander_ran(&log, 3);
}
