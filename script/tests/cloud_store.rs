//! `game.CloudStore` from Luau on one server, the same suite on both backends (the offline
//! SQLite file and PostgreSQL; see `cloud_common/mod.rs`): round trips, when callbacks run and
//! what their errors do, the pending limit, the budget over world time, `update`'s
//! cancelling, the arguments checked at the call, retired scripts, and a file that cannot be
//! opened. Several servers on one database: `cloud_store_fleet.rs`.

mod cloud_common;
mod common;

use cloud_common::{Db, on_both, postgres, said, server, sqlite, temp_dir, tick_until, unique};
use common::{Place, Running};
use std::time::{Duration, Instant};

on_both!(
    round_trip,
    callbacks_run_in_a_later_tick_outside_other_scripts,
    callback_errors_are_logged_and_do_not_disable,
    the_33rd_pending_request_raises,
    the_budget_spreads_requests_over_world_time,
    update_with_nil_cancels,
    arguments_are_checked_at_the_call,
    a_retired_scripts_callbacks_are_dropped_but_its_puts_land,
);

fn round_trip(db: Db) {
    let src = r#"
        local cloud = game.CloudStore.open("STORE")
        cloud:fetch("missing", function(data, version, err)
            print("missing", data, version, err)
            cloud:put("k", { gold = 5, name = "x", pos = Vector3.new(1, 2, 3) }, function(version, err)
                print("put", version, err)
                cloud:fetch("k", function(data, version, err)
                    print("fetched", data.gold, data.name, data.pos.Y, version, err)
                    cloud:update("k", function(old)
                        old.gold += 1
                        return old
                    end, function(data, version, err)
                        print("updated", data.gold, version, err)
                        cloud:put(42, 7, function()
                            cloud:fetch(42, function(d, v, e)
                                print("int key", d, v, e)
                                cloud:fetch("42", function(d)
                                    print("string key", d, tostring(cloud), cloud.Name)
                                end)
                            end)
                        end)
                    end)
                end)
            end)
        end)
    "#;
    let store = unique("RoundTrip");
    let (mut running, _) = server(&db, &store, &[("Main", src)]);
    let log = tick_until(&mut running, "string key");
    assert_eq!(
        said(&log),
        [
            "missing nil 0 nil".to_owned(),
            "put 1 nil".to_owned(),
            "fetched 5 x 2 1 nil".to_owned(),
            "updated 6 2 nil".to_owned(),
            "int key 7 1 nil".to_owned(),
            format!("string key nil CloudStore {store} {store}"),
        ]
    );
    running.host.borrow_mut().shutdown_stores();
}

fn callbacks_run_in_a_later_tick_outside_other_scripts(db: Db) {
    // `n` counts the Updates run; a request made at tick t (top level: t = n, in Update:
    // t = n - 1, in a callback: t = n) must call back when n > t. Script `Busy` marks the
    // Workspace while its Update runs; no callback may see the mark.
    let main = r#"
        local cloud = game.CloudStore.open("STORE")
        local n = 0
        local bad = 0
        local calls = 0
        local function check(made)
            calls += 1
            if n <= made then bad += 1 print("same tick", made, n) end
            if workspace:GetAttribute("busy") then bad += 1 print("inside Busy") end
        end
        local made = n
        cloud:fetch("a", function()
            check(made)
            local made2 = n
            cloud:put("b", { 1 }, function()
                check(made2)
                local made3 = n
                cloud:update("b", function(old) check(made3) return old end, function()
                    check(made3)
                end)
            end)
        end)
        local issued, outstanding = 0, 0
        function Update()
            n += 1
            -- A request every tick while few are pending (a slow database must not fill
            -- the queue), 40 in all; then the summary once every callback ran.
            if issued < 40 and outstanding < 8 then
                issued += 1
                outstanding += 1
                local made = n - 1
                cloud:fetch("u" .. issued, function() outstanding -= 1 check(made) end)
            elseif issued == 40 and calls == 44 then
                issued += 1
                print("calls", calls, "bad", bad)
            end
        end
    "#;
    let busy = r#"
        function Update()
            workspace:SetAttribute("busy", true)
            local x = 0
            for i = 1, 1000 do x += i end
            workspace:SetAttribute("busy", false)
        end
    "#;
    let store = unique("Later");
    let (mut running, _) = server(&db, &store, &[("Busy", busy), ("Main", main)]);
    let log = tick_until(&mut running, "calls ");
    let end = said(&log).into_iter().find(|l| l.starts_with("calls ")).unwrap();
    assert_eq!(end, "calls 44 bad 0", "{log:#?}");
    running.host.borrow_mut().shutdown_stores();
}

fn callback_errors_are_logged_and_do_not_disable(db: Db) {
    let src = r#"
        local cloud = game.CloudStore.open("STORE")
        local n = 0
        local function again()
            n += 1
            if n > 7 then print("finished") return end
            cloud:fetch("e", function() again() error("boom " .. n) end)
        end
        again()
        local updates = 0
        function Update() updates += 1 if updates == 300 then print("still running") end end
    "#;
    let store = unique("Errors");
    let (mut running, ids) = server(&db, &store, &[("Main", src)]);
    tick_until(&mut running, "finished");
    let log = tick_until(&mut running, "still running");
    let errors =
        log.iter().filter(|l| l.starts_with("Workspace.Main: error: ") && l.contains("boom")).count();
    assert_eq!(errors, 7, "{log:#?}");
    assert!(!log.iter().any(|l| l.contains("disabled after")), "{log:#?}");
    assert_eq!(running.host.borrow().is_disabled(ids[0]), Some(false));
    running.host.borrow_mut().shutdown_stores();
}

fn the_33rd_pending_request_raises(db: Db) {
    let src = r#"
        local cloud = game.CloudStore.open("STORE")
        local back = 0
        for i = 1, 32 do cloud:fetch(i, function() back += 1 end) end
        local ok, err = pcall(function() cloud:fetch(33, function() end) end)
        print("33rd", ok, err)
        local ok2, err2 = pcall(function() cloud:put(34, { 1 }) end)
        print("put", ok2, err2)
        function Update()
            if back == 32 then
                back = -1
                cloud:fetch(35, function() print("room again") end)
            end
        end
    "#;
    let other = r#"game.CloudStore.open("STORE"):fetch(1, function() print("other script's own queue") end)"#;
    let store = unique("Full");
    let (mut running, _) = server(&db, &store, &[("Main", src), ("Other", other)]);
    let log = tick_until(&mut running, "room again");
    let lines = said(&log);
    assert_eq!(lines[0], "33rd false Workspace.Main:5: cloud store request queue is full");
    assert_eq!(lines[1], "put false Workspace.Main:7: cloud store request queue is full");
    assert!(log.iter().any(|l| l == "Workspace.Other: other script's own queue"), "{log:#?}");
    running.host.borrow_mut().shutdown_stores();
}

fn the_budget_spreads_requests_over_world_time(db: Db) {
    // 8 scripts × 20 requests at once. With no player connected a server sends 60 a minute
    // of world time, at most 30 at once: so at most 60 answers in the first minute, 120 in
    // two, and the rest in the third; at most 30 answers in any one tick.
    let src = r#"
        local cloud = game.CloudStore.open("STORE")
        local time, tick = 0, 0
        for i = 1, 20 do
            cloud:fetch(script.Name .. i, function() print("answer", tick, time) end)
        end
        function Update(dt) time += dt tick += 1 end
    "#;
    let store = unique("Budget");
    let names: Vec<String> = (0..8).map(|i| format!("S{i}")).collect();
    let scripts: Vec<(&str, &str)> = names.iter().map(|n| (n.as_str(), src)).collect();
    let (mut running, _) = server(&db, &store, &scripts);
    let deadline = Instant::now() + Duration::from_secs(120);
    let answers = |running: &Running| -> Vec<(u64, f64)> {
        running
            .log()
            .iter()
            .filter_map(|l| l.split_once(": answer ").map(|(_, rest)| rest.to_owned()))
            .map(|rest| {
                let (tick, time) = rest.split_once(' ').unwrap();
                (tick.parse().unwrap(), time.parse().unwrap())
            })
            .collect()
    };
    while answers(&running).len() < 160 {
        assert!(Instant::now() < deadline, "only {} answers", answers(&running).len());
        running.sim.step();
        std::thread::sleep(Duration::from_micros(50));
    }
    let got = answers(&running);
    let within = |t: f64| got.iter().filter(|a| a.1 < t).count();
    assert_eq!(within(59.9), 60, "the first minute's budget");
    assert_eq!(within(119.9), 120, "two minutes");
    assert!(got.iter().map(|a| a.1).fold(0.0, f64::max) >= 120.0, "the last 40 wait for the third minute");
    let mut per_tick = std::collections::BTreeMap::<u64, usize>::new();
    for (tick, _) in &got {
        *per_tick.entry(*tick).or_default() += 1;
    }
    assert!(per_tick.values().all(|&n| n <= 30), "at most 30 in flight: {per_tick:?}");
    running.host.borrow_mut().shutdown_stores();
}

fn update_with_nil_cancels(db: Db) {
    let src = r#"
        local cloud = game.CloudStore.open("STORE")
        cloud:put("c", { v = 1 }, function()
            cloud:update("c", function(old)
                print("saw", old.v)
                return nil
            end, function(data, version, err)
                print("cancelled", data, version, err)
                cloud:update("fresh", function(old)
                    print("fresh starts at", old)
                    return nil
                end, function(data, version, err)
                    print("nothing", data, version, err)
                    cloud:fetch("c", function(d, v)
                        print("after", d.v, v)
                        cloud:update("c", function() error("bad function") end, function(d, v, e)
                            print("raised", d, v, e)
                        end)
                    end)
                end)
            end)
        end)
    "#;
    let store = unique("Cancel");
    let (mut running, ids) = server(&db, &store, &[("Main", src)]);
    let log = tick_until(&mut running, "raised");
    assert_eq!(
        said(&log),
        [
            "saw 1",
            "cancelled nil 1 nil",
            "fresh starts at nil",
            "nothing nil 0 nil",
            "after 1 1",
            // An error in the function is the script's (logged, not counted) and fails the
            // update; nothing was written.
            "error: Workspace.Main:16: bad function",
            "raised nil nil update's function raised an error: Workspace.Main:16: bad function",
        ]
    );
    assert_eq!(running.host.borrow().is_disabled(ids[0]), Some(false));
    running.host.borrow_mut().shutdown_stores();
}

fn arguments_are_checked_at_the_call(db: Db) {
    let src = r#"
        local cloud = game.CloudStore.open("STORE")
        local function try(label, f)
            local ok, err = pcall(f)
            print(label, ok, err)
        end
        local cb = function() end
        try("table key", function() cloud:fetch({}, cb) end)
        try("long key", function() cloud:fetch(string.rep("k", 51), cb) end)
        try("no callback", function() cloud:fetch("k") end)
        try("bad callback", function() cloud:put("k", { 1 }, 5) end)
        try("nil value", function() cloud:put("k", nil) end)
        try("function value", function() cloud:put("k", { f = print }) end)
        try("too big", function() cloud:put("k", string.rep("x", 4 * 1024 * 1024)) end)
        try("no function", function() cloud:update("k", 5) end)
        try("dot call", function() cloud.fetch("k", cb) end)
        try("member", function() return cloud.Nope end)
        try("name", function() game.CloudStore.open("") end)
        cloud:fetch("k", function()
            -- Its own entry: three 4 MiB strings and their encodings would pass one budget.
            try("fits", function() cloud:put("big", string.rep("x", 4 * 1024 * 1024 - 16)) end)
        end)
        cloud:update("big2", function() return string.rep("y", 4 * 1024 * 1024) end, function(d, v, e)
            print("update too big", d, v, e)
        end)
    "#;
    let store = unique("Args");
    let (mut running, _) = server(&db, &store, &[("Main", src)]);
    tick_until(&mut running, "update too big");
    let log = tick_until(&mut running, "fits");
    let mut lines = said(&log);
    // The last two come from callbacks whose results may arrive in either order.
    lines[11..].sort();
    let at = |n: u32| format!("Workspace.Main:{n}:");
    let key_rule = "store keys are integers or strings of 1 to 50 printable characters, not";
    assert_eq!(
        lines,
        [
            format!("table key false {} {key_rule} a table", at(8)),
            format!("long key false {} {key_rule} a string of 51 characters", at(9)),
            format!("no callback false {} fetch needs a callback function, not nil", at(10)),
            format!("bad callback false {} put's callback must be a function, not the number 5", at(11)),
            format!("nil value false {} put needs a value to store, not nil", at(12)),
            format!(
                "function value false {} stores can hold numbers, booleans, strings, Vector3 values and tables, not a function",
                at(13)
            ),
            format!("too big false {} store value is 4194310 bytes encoded; the limit is 4194304", at(14)),
            format!("no function false {} update needs a function, not the number 5", at(15)),
            format!("dot call false {} expected a CloudStore (use ':' to call methods)", at(16)),
            format!("member false {} Nope is not a valid member of CloudStore", at(17)),
            format!(
                "name false {} store names are strings of 1 to 50 printable characters, not an empty string",
                at(18)
            ),
            "fits true nil".to_owned(),
            "update too big nil nil store value is 4194310 bytes encoded; the limit is 4194304".to_owned(),
        ]
    );
    running.host.borrow_mut().shutdown_stores();
}

fn a_retired_scripts_callbacks_are_dropped_but_its_puts_land(db: Db) {
    let src = r#"
        local cloud = game.CloudStore.open("STORE")
        cloud:fetch("x", function() print("should not run") end)
        cloud:put("left", { 9 }, function() print("should not run either") end)
        cloud:update("u", function() print("nor this") return 1 end)
    "#;
    let store = unique("Retired");
    let mut place = Place::new();
    let ws = place.workspace();
    let holder = place.folder("Holder", ws);
    place.script("Main", holder, &src.replace("STORE", &store));
    let mut running = place.start_with(db.config());
    running.sim.step(); // starts the script; its requests go out at the end of the tick
    running.sim.arena.destroy(holder).unwrap();
    for _ in 0..300 {
        running.sim.step();
        std::thread::sleep(Duration::from_micros(200));
    }
    let log = running.log();
    assert!(!log.iter().any(|l| l.contains("should not") || l.contains("nor this")), "{log:#?}");
    running.host.borrow_mut().shutdown_stores();
    let (mut b, _) = server(
        &db,
        &store,
        &[(
            "Main",
            r#"game.CloudStore.open("STORE"):fetch("left", function(d, v) print("landed", d[1], v) end)"#,
        )],
    );
    tick_until(&mut b, "landed 9 1");
    b.host.borrow_mut().shutdown_stores();
}

#[test]
fn the_offline_file_is_opened_off_the_tick_and_a_failure_reaches_the_callbacks() {
    // `open` once opened (and created) the SQLite file on the tick thread, overrunning that
    // tick by 25–80 ms. It is opened on the store's thread now: `open` returns at once, and
    // a file that cannot be opened answers every request with the reason.
    let dir = temp_dir();
    let not_a_dir = dir.join("file");
    std::fs::write(&not_a_dir, b"not a directory").unwrap();
    let db = Db::Sqlite(not_a_dir);
    let (mut running, _) = server(
        &db,
        "Blocked",
        &[(
            "Main",
            r#"
            local store = game.CloudStore.open("STORE")
            print("opened", store.Name)
            store:fetch(1, function(data, version, err) print("fetched", data, version, err ~= nil) warn(err) end)
            "#,
        )],
    );
    let log = tick_until(&mut running, "fetched");
    let said = said(&log);
    assert_eq!(said[..2], ["opened Blocked", "fetched nil nil true"], "{log:#?}");
    assert!(said[2].contains("cloud.sqlite3 could not be opened"), "{log:#?}");
    running.host.borrow_mut().shutdown_stores();
    std::fs::remove_dir_all(dir).unwrap();
}
