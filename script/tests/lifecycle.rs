//! Script lifecycle, as `docs/scripting.md` ("How a script instance starts", "Hooks, budgets and
//! the error counter") describes it:
//! starting, load and init errors, `self`, budgets and `pcall`, the consecutive-error
//! counter, and the quoted error messages. Each test is a Luau script with its expected log.

mod common;

use common::{Place, run_one};

#[test]
fn top_level_runs_once_and_update_every_tick_with_self_bound() {
    let log = run_one(
        r#"
        print("hello from", self.Name, self.ClassName)
        local ticks = 0
        function Update(dt)
            ticks += 1
            if ticks == 3 then print("three updates, dt =", math.floor(dt * 600 + 0.5) / 10) end
        end
        function PhysicsUpdate(dt)
            if ticks == 1 then print("physics dt", math.floor(dt * 600 + 0.5) / 10) end
        end
        "#,
        3,
    );
    assert_eq!(
        log,
        vec![
            "Workspace.Holder.Main: hello from Holder Part",
            "Workspace.Holder.Main: physics dt 1",
            "Workspace.Holder.Main: three updates, dt = 1",
        ]
    );
}

#[test]
fn syntax_error_is_a_load_error_naming_path_and_line() {
    let log = run_one("local x = 1\nlocal = 2\n", 1);
    assert_eq!(log.len(), 1, "{log:?}");
    assert!(log[0].starts_with("load error in Workspace.Holder.Main: "), "{log:?}");
    assert!(log[0].contains("Workspace.Holder.Main:2: Expected identifier"), "names the line: {log:?}");
}

#[test]
fn top_level_error_is_an_init_error_and_discards_the_instance() {
    let mut place = Place::new();
    let ws = place.workspace();
    place.script("Broken", ws, "function Update() print('never') end\nerror('boom')");
    let mut running = place.start();
    running.tick(3);
    let log = running.log();
    assert_eq!(log.len(), 1, "{log:?}");
    assert!(log[0].starts_with("init error in Workspace.Broken: "), "{log:?}");
    assert!(log[0].contains("Workspace.Broken:2: boom"), "{log:?}");
    assert_eq!(running.host.borrow().instance_count(), 0);
}

#[test]
fn an_endless_loop_is_aborted_by_the_budget() {
    let log = run_one("function Update() while true do end end", 1);
    assert_eq!(
        log,
        vec!["Workspace.Holder.Main: error: Workspace.Holder.Main:1: script exceeded its instruction budget"]
    );
}

#[test]
fn pcall_catches_the_overrun_but_the_entry_cannot_continue() {
    let log = run_one(
        r#"
        function Update()
            local ok, err = pcall(function() while true do end end)
            -- Any call after the overrun fails again: this print never runs.
            print("caught", ok, err)
        end
        "#,
        1,
    );
    assert_eq!(log.len(), 1, "{log:?}");
    assert!(log[0].contains("script exceeded its instruction budget"), "{log:?}");
    assert!(!log[0].contains("caught"));
}

#[test]
fn pcall_in_an_endless_loop_does_not_escape_the_budget() {
    let log = run_one("function Update() while true do pcall(function() while true do end end) end end", 1);
    assert_eq!(log.len(), 1, "{log:?}");
    assert!(log[0].contains("script exceeded its instruction budget"));
}

fn count_until_abort() -> String {
    let log = run_one(
        r#"
        local n, done = 0, false
        function Update()
            if done then print("counted", n) return end
            done = true
            while true do n += 1 end
        end
        "#,
        2,
    );
    log.last().unwrap().clone()
}

#[test]
fn budget_counting_is_deterministic() {
    let a = count_until_abort();
    let b = count_until_abort();
    assert_eq!(a, b);
    let n: u64 = a.rsplit(' ').next().unwrap().parse().unwrap();
    // One unit per instruction: the body (GETUPVAL, ADDK, SETUPVAL) and the back-edge cost 4,
    // so the 250,001st back-edge overruns the 1,000,000 units.
    assert_eq!(n, 250_001, "{a}");
}

#[test]
fn property_access_costs_its_instructions() {
    let log = run_one(
        r#"
        local n, done = 0, false
        function Update()
            if done then print("counted", n) return end
            done = true
            while true do
                n += 1
                self.Position = self.Position + Vector3.one
            end
        end
        "#,
        2,
    );
    let last = log.last().unwrap();
    let n: u64 = last.rsplit(' ').next().unwrap().parse().unwrap();
    // Nine instructions per iteration (the counter, the property read, the vector add, the
    // property write, the back-edge): the metamethods cost no call of their own.
    assert_eq!(n, 1_000_000 / 9 + 1, "{log:?}");
}

#[test]
fn each_entry_gets_a_fresh_budget() {
    let log = run_one(
        r#"
        function Update()
            for i = 1, 600000 do end
            print("ok")
        end
        "#,
        3,
    );
    assert_eq!(log, vec!["Workspace.Holder.Main: ok"; 3]);
}

#[test]
fn five_consecutive_errors_disable_the_instance() {
    let mut place = Place::new();
    let ws = place.workspace();
    let s = place.script("Faulty", ws, "function Update() error('bad') end");
    let mut running = place.start();
    running.tick(8);
    let log = running.log();
    assert_eq!(log.len(), 6, "{log:?}");
    assert!(log[..5].iter().all(|l| l == "Workspace.Faulty: error: Workspace.Faulty:1: bad"), "{log:?}");
    assert_eq!(log[5], "Workspace.Faulty: 'Faulty' disabled after 5 consecutive errors");
    assert_eq!(running.host.borrow().is_disabled(s), Some(true));
}

#[test]
fn a_success_resets_the_counter() {
    let log = run_one(
        r#"
        local t = 0
        function Update()
            t += 1
            if t % 4 ~= 0 then error("flaky " .. t) end
        end
        "#,
        12,
    );
    assert_eq!(log.len(), 9, "three errors, a success, repeated: {log:?}");
    assert!(!log.iter().any(|l| l.contains("disabled")));
}

#[test]
fn scripts_outside_the_world_do_not_start_until_parented_in() {
    let mut place = Place::new();
    let store = place.arena.create(arbor_core::Class::Folder, "Storage", None).unwrap();
    let s = place.script("Later", store, "print('started')");
    let mut running = place.start();
    running.tick(2);
    let log = running.take_log();
    assert_eq!(log.len(), 1, "only the load-time warning: {log:?}");
    assert!(log[0].starts_with("Storage.Later: warning: this script is outside the Workspace"), "{log:?}");
    let ws = running.sim.arena.workspace();
    running.sim.arena.set_parent(store, Some(ws)).unwrap();
    running.tick(1);
    assert_eq!(running.log(), vec!["Workspace.Storage.Later: started"]);
    let _ = s;
}

#[test]
fn destroying_the_entity_retires_its_script() {
    let mut place = Place::new();
    let ws = place.workspace();
    let part = place.part("Doomed", ws);
    place.script("Ticker", part, "function Update() print('tick') end");
    let mut running = place.start();
    running.tick(2);
    running.sim.arena.destroy(part).unwrap();
    running.tick(2);
    assert_eq!(running.log().len(), 2);
    assert_eq!(running.host.borrow().instance_count(), 0);
}
