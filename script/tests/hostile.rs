//! The catalogue of hostile scripts: every way a script author found to make one entry run
//! far past its budget, each asserting that the entry is aborted after a bounded amount of
//! work, that the server keeps ticking, and that another script keeps running beside it.
//!
//! Work is measured by what a script managed to do before the abort (iterations of its
//! loop), which is deterministic, instead of by time.

mod common;

use arbor_core::{Class, Id};
use common::{Place, completed_before_abort, nothing};

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
    // A visit and a handle each: about 40,000 units a call.
    assert!(n <= 30, "{n} GetChildren of 10,000");
    let n =
        completed_before_abort(wide_and_deep, "local w = workspace.Wide", "w:FindFirstChild('Bottom', true)");
    assert!(n <= 100, "{n} recursive searches of 10,000");
    let n = completed_before_abort(
        wide_and_deep,
        "local b = workspace.Deep:FindFirstChild('Bottom', true)",
        "local s = b:GetFullName()",
    );
    assert!(n <= 200, "{n} full names at depth 5,000");
}

#[test]
fn three_hundred_scripts_at_full_budget_share_the_tick_round_robin() {
    // Before: every script ran its whole budget every tick (2.2 s per tick).
    let mut place = Place::new();
    let ws = place.workspace();
    for i in 0..300 {
        place.script(&format!("Spin{i:03}"), ws, "function Update() while true do end end");
    }
    let mut running = place.start();
    let per_tick =
        |log: &[String]| log.iter().filter(|l| l.ends_with("script exceeded its instruction budget")).count();
    running.tick(1);
    let first = running.take_log();
    // 8,000,000 units a tick: 8 entries of 1,000,000 (each overruns by one unit).
    assert_eq!(per_tick(&first), 8, "{first:?}");
    assert!(
        first.iter().any(|l| l.contains("Workspace.Spin000:"))
            && first.iter().any(|l| l.contains("Workspace.Spin007:"))
    );
    running.tick(1);
    let second = running.take_log();
    assert_eq!(per_tick(&second), 8);
    // The next tick goes on where the last one stopped.
    assert!(second.iter().any(|l| l.contains("Workspace.Spin008:")), "{second:?}");
    assert!(second.iter().any(|l| l.contains("entries deferred")), "reported: {second:?}");
    assert_eq!(running.host.borrow().deferred_entries(), 292 * 2);
}

#[test]
fn starts_past_the_ticks_share_wait_for_the_next_tick() {
    let mut place = Place::new();
    let ws = place.workspace();
    for i in 0..20 {
        place.script(&format!("Init{i:02}"), ws, "while true do end");
    }
    let mut running = place.start();
    running.tick(1);
    let init_errors = |log: &[String]| log.iter().filter(|l| l.starts_with("init error")).count();
    assert_eq!(init_errors(&running.take_log()), 8);
    running.tick(2);
    assert_eq!(init_errors(&running.take_log()), 12, "the other 12 start in the next two ticks");
}

#[test]
fn a_script_filling_memory_fails_itself_not_the_others() {
    // Before: one pool for all scripts; the hog filled it and every other script failed with
    // `not enough memory` and was disabled.
    let mut place = Place::new();
    let ws = place.workspace();
    place.script(
        "Hog",
        ws,
        "local t, n = {}, 0 function Update() for i = 1, 500 do n += 1 t[n] = string.rep('x', 4000) .. n end end",
    );
    place.script(
        "Modest",
        ws,
        "local n = 0 function Update() local t = table.create(20000, n) n += 1 print('ok', n, #t) end",
    );
    let config = arbor_script::HostConfig {
        memory_limit: 32 << 20,
        script_memory_share: 8 << 20,
        ..Default::default()
    };
    let mut running = place.start_with(config);
    running.tick(12);
    let log = running.log();
    let hog_errors: Vec<&String> = log.iter().filter(|l| l.starts_with("Workspace.Hog: error:")).collect();
    assert!(!hog_errors.is_empty(), "{log:?}");
    assert!(
        hog_errors
            .iter()
            .all(|l| l.ends_with("not enough memory: this script holds more than its share of the VM")),
        "{hog_errors:?}"
    );
    assert!(log.iter().any(|l| l.contains("'Hog' disabled after 5 consecutive errors")), "{log:?}");
    for n in 1..=12 {
        assert!(log.contains(&format!("Workspace.Modest: ok {n} 20000")), "tick {n}: {log:?}");
    }
    assert!(!log.iter().any(|l| l.starts_with("Workspace.Modest: error")), "{log:?}");
}

/// A place whose Workspace caps its text at 2 MiB.
fn text_capped(place: &mut Place) {
    let ws = place.workspace();
    place
        .arena
        .set_attribute(
            ws,
            arbor_core::settings::MAX_TEXT_BYTES.name,
            Some(arbor_core::AttributeValue::Number(2097152.0)),
        )
        .unwrap();
    place.part("P", ws);
}

#[test]
fn text_the_engine_holds_for_scripts_is_bounded() {
    // Before: unique attribute values, renames and string fields grew the process without
    // bound (4-5.5 GB, then an out-of-memory abort).
    let log = common::run_main(
        text_capped,
        "local n = 0
         function Update()
             local p = workspace.P
             for i = 1, 20 do
                 n += 1
                 local ok, e = pcall(p.SetAttribute, p, 'a' .. n, string.rep('v', 10000) .. n)
                 if not ok then print('refused', n, e) return end
             end
         end",
        40,
    );
    let refused = log.iter().find(|l| l.contains("refused")).unwrap_or_else(|| panic!("{log:?}"));
    assert!(
        refused.ends_with("the place is full: it holds its maximum of 2097152 bytes of text (names, string attributes and string fields)"),
        "{refused}"
    );
    let n: u64 = refused.split(' ').nth(2).unwrap().parse().unwrap();
    // 7/8 of 2 MiB in 10 KB values.
    assert!((150..=210).contains(&n), "{n} values admitted");

    let log = common::run_main(
        text_capped,
        "local n, p = 0, workspace.P
         function Update()
             for i = 1, 5000 do
                 n += 1
                 local ok, e = pcall(function() p.Name = 'name number ' .. n end)
                 if not ok then print('refused', n, e) return end
             end
         end",
        40,
    );
    assert!(log.iter().any(|l| l.contains("refused") && l.contains("bytes of text")), "{log:?}");
}

#[test]
fn names_with_nul_or_past_1024_bytes_are_refused() {
    let log = common::run_main(
        |p| {
            let ws = p.workspace();
            p.part("P", ws);
        },
        "print(pcall(function() workspace.P.Name = 'a\\0b' end))
         print(pcall(function() workspace.P.Name = string.rep('x', 1025) end))
         workspace.P.Name = ''
         print('empty', workspace:FindFirstChild('') ~= nil)",
        1,
    );
    assert!(log[0].ends_with("a name cannot contain a NUL character"), "{log:?}");
    assert!(log[1].ends_with("a name is at most 1024 bytes long"), "{log:?}");
    assert_eq!(log[2], "Workspace.Main: empty true");
}

#[test]
fn creations_per_tick_are_capped() {
    // Before: `f:Clone().Parent = f` forty times (40 units) aborted the server at 6.2 GB.
    let log = common::run_main(
        |p| {
            let ws = p.workspace();
            p.arena
                .set_attribute(
                    ws,
                    arbor_core::settings::MAX_CREATIONS_PER_TICK.name,
                    Some(arbor_core::AttributeValue::Number(1000.0)),
                )
                .unwrap();
            let f = p.folder("F", ws);
            for i in 0..49 {
                p.part(&format!("P{i}"), f);
            }
        },
        "local f, made = workspace.F, 0
         function Update()
             for i = 1, 100 do
                 local ok, e = pcall(f.Clone, f)
                 if not ok then print('refused after', made, e) return end
                 made += 50
                 e.Parent = workspace
             end
         end",
        2,
    );
    assert_eq!(
        log,
        vec![
            "Workspace.Main: refused after 1000 too many instances created in one tick: at most 1000 may be created per tick",
            "Workspace.Main: refused after 2000 too many instances created in one tick: at most 1000 may be created per tick",
        ]
    );
}

#[test]
fn a_deep_chain_built_by_reparenting_pays_for_its_depth() {
    // Before: every reparent stored the new parent's whole ancestor chain in its event,
    // unmetered: a 30,000-deep chain took 45 s and 3.9 GB.
    let mut place = Place::new();
    let ws = place.workspace();
    place.folder("Link", ws);
    place.script(
        "Chain",
        ws,
        "local template, last, depth = workspace.Link, workspace, 0
         function Update()
             while true do
                 local c = template:Clone()
                 c.Parent = last
                 last, depth = c, depth + 1
                 _G_depth = depth
             end
         end
         function PhysicsUpdate() print('depth', depth) end",
    );
    let mut running = place.start();
    running.tick(20);
    let log = running.log();
    let depths: Vec<u64> = log
        .iter()
        .filter_map(|l| l.strip_prefix("Workspace.Chain: depth "))
        .map(|d| d.parse().unwrap())
        .collect();
    assert_eq!(depths.len(), 20, "{log:?}");
    // Each tick adds less than the one before: a move at depth d costs d visits.
    let added: Vec<u64> = depths.windows(2).map(|w| w[1] - w[0]).collect();
    assert!(added.windows(2).all(|w| w[1] <= w[0]), "{added:?}");
    assert!(*depths.last().unwrap() < 20_000, "{depths:?}");
}

#[test]
fn a_bad_vector3_argument_is_blamed_on_the_callers_line() {
    // Before: `arbor-prelude:68: invalid argument #1 to 'create' ...`.
    let log = common::run_main(|_| {}, "local ok = 1\nlocal v = Vector3.new(1, 'x')", 1);
    assert_eq!(
        log,
        vec![
            "init error in Workspace.Main: Workspace.Main:2: invalid argument #2 to 'new' (number expected, got string)"
        ]
    );
    let log = common::run_main(|_| {}, "print(Vector3.new('1', nil, 2))", 1);
    assert_eq!(log, vec!["Workspace.Main: 1, 0, 2"]);
}

#[test]
fn an_error_value_with_tostring_is_reported_by_its_text() {
    let log = common::run_main(
        |_| {},
        "local e = setmetatable({}, {__tostring = function() return 'custom error' end})
         function Update() error(e) end",
        1,
    );
    assert_eq!(log, vec!["Workspace.Main: error: custom error"]);
}

#[test]
fn a_script_holds_at_most_ten_thousand_connections() {
    // Before: connections (and their signal names) grew without bound, and every Emit
    // scanned them all.
    let log = common::run_main(
        |_| {},
        "local s = workspace:GetSignal('S')
         local f = function() end
         for i = 1, 10000 do s:Connect(f) end
         print(pcall(s.Connect, s, f))",
        1,
    );
    assert_eq!(log, vec!["Workspace.Main: false a script may hold at most 10000 signal connections"]);
}

/// A memory limit too small for the sandbox's own set-up is refused with its own error,
/// naming the limit, instead of a bare Luau error.
#[test]
fn a_memory_limit_too_small_for_the_sandbox_is_a_clear_error() {
    let arena = arbor_core::Arena::new();
    let config = arbor_script::HostConfig { memory_limit: 16 << 10, ..Default::default() };
    let err = arbor_script::ScriptHost::new(&arena, config).err().expect("16 KiB cannot hold the sandbox");
    assert!(matches!(err, arbor_script::HostError::MemoryLimitTooSmall { limit: 16384, .. }), "{err:?}");
    assert_eq!(err.to_string(), "the script memory limit (16384 bytes) is too small to set up the sandbox");
    let roomy = arbor_script::HostConfig { memory_limit: 64 << 20, ..Default::default() };
    assert!(arbor_script::ScriptHost::new(&arena, roomy).is_ok());
}

#[test]
fn an_emit_payload_reaches_no_receiver_with_the_senders_metatable() {
    // A function hidden in a payload's metatable once reached the receiver, which called it
    // without knowing (here it would have errored the receiver five times and disabled it).
    let mut place = Place::new();
    let ws = place.workspace();
    place.script(
        "Receiver",
        ws,
        r#"
        workspace:GetSignal("Data"):Connect(function(t)
            print("got", t.gold, t.missing, getmetatable(t) == nil)
        end)
        "#,
    );
    place.script(
        "Sender",
        ws,
        r#"
        local trap = setmetatable({ gold = 5 }, { __index = function() error("trapped") end })
        function Update() workspace:GetSignal("Data"):Emit(trap) end
        "#,
    );
    let mut running = place.start();
    running.tick(2);
    assert_eq!(running.log(), vec!["Workspace.Receiver: got 5 nil true"; 2]);
}

#[test]
fn a_receiver_cannot_freeze_or_rewire_the_senders_table() {
    // Handlers once got the sender's own tables: a receiver freezing it or setting a
    // metatable on it made every later write or read of the sender fail.
    let mut place = Place::new();
    let ws = place.workspace();
    place.script(
        "Receiver",
        ws,
        r#"
        workspace:GetSignal("State"):Connect(function(t)
            table.freeze(t.inner)
            setmetatable(t, { __index = function() return "hijacked" end })
            t.extra = 1
        end)
        workspace:GetSignal("State"):Connect(function(t)
            print("second handler sees", getmetatable(t) == nil, table.isfrozen(t.inner), t.extra)
        end)
        "#,
    );
    place.script(
        "Sender",
        ws,
        r#"
        local state = { inner = { n = 0 } }
        state.self = state
        function Update()
            workspace:GetSignal("State"):Emit(state)
            state.inner.n += 1
            state.fresh = state.inner.n
            print("sender", state.inner.n, state.self == state)
        end
        "#,
    );
    let mut running = place.start();
    running.tick(2);
    assert_eq!(
        running.log(),
        vec![
            "Workspace.Receiver: second handler sees true false nil",
            "Workspace.Sender: sender 1 true",
            "Workspace.Receiver: second handler sees true false nil",
            "Workspace.Sender: sender 2 true",
        ]
    );
    assert_eq!(running.host.borrow().error_count(), 0);
}
