//! `game.CloudStore` from Luau, the same suite on both backends: the offline SQLite file and
//! PostgreSQL (`ARBOR_TEST_POSTGRES=postgres://...`; unset, the PostgreSQL cases fail when
//! `CI` is set and print that they were skipped otherwise).
//!
//! Session locks end to end: `the_player_data_example_...` (players fed straight into the
//! simulation's `Players`); the lock's rules in detail (leases, pending saves, shutdown) are
//! tested on the store's core in `script/src/store/cloud/tests.rs`.

mod common;

use arbor_core::Id;
use arbor_script::{HostConfig, StoreConfig};
use common::{Place, Running};
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// The database a test's servers share.
#[derive(Clone, Debug)]
enum Db {
    /// A data directory (its `cloud.sqlite3`).
    Sqlite(PathBuf),
    Postgres(String),
}

const CHILD_ENV: &str = "ARBOR_CLOUD_CHILD";

fn temp_dir() -> PathBuf {
    static N: AtomicUsize = AtomicUsize::new(0);
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_nanos();
    let dir = std::env::temp_dir().join(format!(
        "arbor-cloud-{}-{}-{nanos}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    ));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn sqlite() -> Db {
    Db::Sqlite(temp_dir())
}

fn postgres() -> Option<Db> {
    match std::env::var("ARBOR_TEST_POSTGRES") {
        Ok(url) if !url.is_empty() => Some(Db::Postgres(url)),
        _ if std::env::var_os("CI").is_some() => panic!(
            "CI is set but ARBOR_TEST_POSTGRES is not: the PostgreSQL cloud store tests need a server (.ci/run starts one)"
        ),
        _ => {
            println!(
                "skipped: set ARBOR_TEST_POSTGRES=postgres://... to run the PostgreSQL cloud store tests"
            );
            None
        }
    }
}

impl Db {
    fn config(&self) -> HostConfig {
        let stores = match self {
            Db::Sqlite(dir) => StoreConfig { data_dir: Some(dir.clone()), cloud_url: None },
            Db::Postgres(url) => StoreConfig { data_dir: None, cloud_url: Some(url.clone()) },
        };
        HostConfig { stores, ..Default::default() }
    }

    /// Deletes a SQLite test directory.
    fn remove(&self) {
        if let Db::Sqlite(dir) = self {
            let _ = std::fs::remove_dir_all(dir);
        }
    }

    /// As one environment variable, for a child process.
    fn to_env(&self) -> String {
        match self {
            Db::Sqlite(dir) => format!("sqlite:{}", dir.display()),
            Db::Postgres(url) => url.clone(),
        }
    }

    fn from_env(s: &str) -> Db {
        match s.strip_prefix("sqlite:") {
            Some(dir) => Db::Sqlite(dir.into()),
            None => Db::Postgres(s.to_owned()),
        }
    }
}

/// A store name no earlier run used (the PostgreSQL database outlives runs).
fn unique(prefix: &str) -> String {
    static N: AtomicUsize = AtomicUsize::new(0);
    let millis = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_millis();
    format!("{prefix}-{}-{millis}-{}", std::process::id(), N.fetch_add(1, Ordering::Relaxed))
}

/// Generates `<case>::sqlite` and `<case>::postgres` for `fn case(db: Db)`.
macro_rules! on_both {
    ($($case:ident),* $(,)?) => {$(
        mod $case {
            #[test]
            fn sqlite() {
                let db = super::sqlite();
                super::$case(db.clone());
                db.remove();
            }

            #[test]
            fn postgres() {
                if let Some(db) = super::postgres() {
                    super::$case(db);
                }
            }
        }
    )*};
}

on_both!(
    round_trip,
    a_second_server_sees_a_put,
    callbacks_run_in_a_later_tick_outside_other_scripts,
    callback_errors_are_logged_and_do_not_disable,
    the_33rd_pending_request_raises,
    the_budget_spreads_requests_over_world_time,
    update_with_nil_cancels,
    arguments_are_checked_at_the_call,
    a_retired_scripts_callbacks_are_dropped_but_its_puts_land,
    shutdown_sends_the_queued_puts,
    the_cas_loop_of_several_server_processes_loses_no_update,
    the_player_data_example_holds_a_session_lock_across_servers,
);

/// A server running `scripts` (name, source; `STORE` in a source is the store's name) under
/// the Workspace.
fn server(db: &Db, store: &str, scripts: &[(&str, &str)]) -> (Running, Vec<Id>) {
    let mut place = Place::new();
    let ws = place.workspace();
    let ids =
        scripts.iter().map(|(name, src)| place.script(name, ws, &src.replace("STORE", store))).collect();
    (place.start_with(db.config()), ids)
}

/// Ticks until a log line contains `needle` (wall time 30 s at most), pacing the ticks a
/// little so the background thread keeps up. Returns the log.
fn tick_until(running: &mut Running, needle: &str) -> Vec<String> {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let log = running.log();
        if log.iter().any(|l| l.contains(needle)) {
            return log;
        }
        assert!(Instant::now() < deadline, "no line with {needle:?}; log: {log:#?}");
        running.sim.step();
        std::thread::sleep(Duration::from_micros(100));
    }
}

/// The log lines of script `Main` without its prefix.
fn said(log: &[String]) -> Vec<String> {
    log.iter().filter_map(|l| l.strip_prefix("Workspace.Main: ").map(str::to_owned)).collect()
}

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

fn a_second_server_sees_a_put(db: Db) {
    let store = unique("Shared");
    let (mut a, _) = server(
        &db,
        &store,
        &[(
            "Main",
            r#"game.CloudStore.open("STORE"):put(1001, { coins = 12 }, function(v, e) print("saved", v, e) end)"#,
        )],
    );
    tick_until(&mut a, "saved 1 nil");
    let (mut b, _) = server(
        &db,
        &store,
        &[(
            "Main",
            r#"game.CloudStore.open("STORE"):fetch(1001, function(d, v, e) print("loaded", d.coins, v, e) end)"#,
        )],
    );
    tick_until(&mut b, "loaded 12 1 nil");
    a.host.borrow_mut().shutdown_stores();
    b.host.borrow_mut().shutdown_stores();
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

fn shutdown_sends_the_queued_puts(db: Db) {
    // 61 puts in the first tick: 60 go out, the 61st waits for the next minute's budget;
    // stopping the server sends it anyway.
    let src = r#"
        local cloud = game.CloudStore.open("STORE")
        for i = 1, 31 do cloud:put(script.Name .. i, { i }) end
    "#;
    let store = unique("Stop");
    let (mut a, _) = server(&db, &store, &[("A", src), ("B", src)]);
    for _ in 0..120 {
        a.sim.step();
        std::thread::sleep(Duration::from_micros(200));
    }
    a.host.borrow_mut().shutdown_stores();
    assert!(!a.log().iter().any(|l| l.contains("warning")), "{:#?}", a.log());
    let half = |from: &str| {
        format!(
            r#"
            local cloud = game.CloudStore.open("STORE")
            local n = 0
            for i = 1, 31 do
                cloud:fetch("{from}" .. i, function(d) if d ~= nil and d[1] == i then n += 1 end end)
            end
            function Update() if n == 31 then n = -1 print("{from} landed") end end
        "#
        )
    };
    // One checking script per writer: 62 fetches from one script would pass its 32.
    let (ha, hb) = (half("A"), half("B"));
    let (mut b, _) = server(&db, &store, &[("CheckA", &ha), ("CheckB", &hb)]);
    tick_until(&mut b, "A landed");
    tick_until(&mut b, "B landed");
    b.host.borrow_mut().shutdown_stores();
}

/// One server process of the hot-key test: 50 increments of one record, one after the
/// other, each through `update`; prints how many times its function ran.
#[test]
fn cas_child() {
    let Ok(spec) = std::env::var(CHILD_ENV) else { return };
    let (store, db) = spec.split_once('|').expect("store|db");
    let src = r#"
        local cloud = game.CloudStore.open("STORE")
        local done, runs, gaveUp = 0, 0, 0
        local function bump()
            cloud:update("hot", function(old)
                runs += 1
                return (old or 0) + 1
            end, function(data, version, err)
                if err ~= nil then
                    gaveUp += 1
                else
                    done += 1
                end
                if done < 50 then bump() else print("child done", runs, gaveUp) end
            end)
        end
        bump()
    "#;
    let (mut running, _) = server(&Db::from_env(db), store, &[("Main", src)]);
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        if let Some(line) = running.log().iter().find(|l| l.contains("child done")) {
            println!("{line}");
            break;
        }
        assert!(Instant::now() < deadline, "child timed out: {:#?}", running.log());
        assert!(
            !running.log().iter().any(|l| l.contains("error")),
            "the child's script failed: {:#?}",
            running.log()
        );
        running.sim.step();
        // About a real server's pace relative to the database (ticks are 16 ms there).
        std::thread::sleep(Duration::from_micros(500));
    }
    running.host.borrow_mut().shutdown_stores();
}

fn the_cas_loop_of_several_server_processes_loses_no_update(db: Db) {
    const PROCESSES: usize = 3;
    let store = unique("HotKey");
    let exe = std::env::current_exe().unwrap();
    let children: Vec<_> = (0..PROCESSES)
        .map(|_| {
            std::process::Command::new(&exe)
                .args(["--exact", "cas_child", "--nocapture", "--test-threads", "1"])
                .env(CHILD_ENV, format!("{store}|{}", db.to_env()))
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    let mut runs = 0;
    for child in children {
        let out = child.wait_with_output().unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "child failed:\n{stdout}\n{}", String::from_utf8_lossy(&out.stderr));
        let line = stdout.lines().find(|l| l.contains("child done")).expect("the child's summary");
        let fields: Vec<&str> = line.split_whitespace().collect();
        runs += fields[fields.len() - 2].parse::<u32>().unwrap();
    }
    let (mut check, _) = server(
        &db,
        &store,
        &[("Main", r#"game.CloudStore.open("STORE"):fetch("hot", function(d, v) print("final", d, v) end)"#)],
    );
    let total = 50 * PROCESSES;
    tick_until(&mut check, &format!("final {total} {total}"));
    println!("{PROCESSES} processes × 50 updates: {runs} function runs ({} retries)", runs as usize - total);
    check.host.borrow_mut().shutdown_stores();
}

/// The example of `docs/stores.md`, "Loading on join, saving on leave", as the guide gives it
/// (with its line breaks), after a `spawnFor` that says who spawned.
const PLAYER_DATA: &str = r#"local function spawnFor(userId) print("spawned", userId) end
local cloud = game.CloudStore.open("PlayerData")
local loaded = {}
game.Session.PlayerJoined:Connect(function(userId)
	cloud:fetch(userId, function(data, version, err)
		if err ~= nil then
			warn("load failed for " .. userId .. ": " .. err)
			return
		end
		loaded[userId] = data or { gold = 0 }
		spawnFor(userId)
	end)
end)
game.Session.PlayerLeft:Connect(function(character, userId)
	local data = loaded[userId]
	loaded[userId] = nil
	if data ~= nil then
		cloud:put(userId, data)
	end
end)
"#;

fn the_player_data_example_holds_a_session_lock_across_servers(db: Db) {
    // The SQLite file is fresh: the example runs word for word. PostgreSQL outlives runs (and
    // a run's locks outlive it by their lease): a fresh store name there.
    let store = match db {
        Db::Sqlite(_) => "PlayerData".to_owned(),
        Db::Postgres(_) => unique("PlayerData"),
    };
    let server = |db: &Db| {
        let mut place = Place::new();
        let ws = place.workspace();
        place.script("PlayerData", ws, &PLAYER_DATA.replace("\"PlayerData\"", &format!("{store:?}")));
        place.start_with(db.config())
    };
    let (mut a, mut b) = (server(&db), server(&db));
    // User 7 joins server A: A loads the record and holds its lock.
    a.sim.players.connect(7, None).unwrap();
    tick_until(&mut a, "PlayerData: spawned 7");
    // User 7 also turns up on server B (a second session): B's load fails, the game decides.
    b.sim.players.connect(7, None).unwrap();
    let locked = format!("load failed for 7: record 7 of store '{store}' is locked by another server");
    tick_until(&mut b, &locked);
    // They leave A: the save queued in PlayerLeft lands, then A lets the record go.
    let arena = &a.sim.arena;
    a.sim.players.disconnect(arena, 7, "bye");
    // B tries again (the user rejoins) until it loads: A keeps ticking meanwhile.
    let count = |r: &Running, needle: &str| r.log().iter().filter(|l| l.contains(needle)).count();
    let deadline = Instant::now() + Duration::from_secs(30);
    while count(&b, "PlayerData: spawned 7") == 0 {
        assert!(Instant::now() < deadline, "B never loaded the record: {:#?}", b.log());
        let failures = count(&b, &locked);
        let arena = &b.sim.arena;
        b.sim.players.disconnect(arena, 7, "retry");
        b.sim.step();
        b.sim.players.connect(7, None).unwrap();
        while count(&b, &locked) == failures && count(&b, "PlayerData: spawned 7") == 0 {
            assert!(Instant::now() < deadline, "no answer on B: {:#?}", b.log());
            a.sim.step();
            b.sim.step();
            std::thread::sleep(Duration::from_micros(200));
        }
    }
    // B sees A's save: the record was written once.
    let check = format!(
        r#"game.CloudStore.open({store:?}):fetch(7, function(d, v, e) print("record", d.gold, v, e) end)"#
    );
    let ws = b.sim.arena.workspace();
    let s = b.sim.arena.create(arbor_core::Class::Script, "Check", Some(ws)).unwrap();
    b.sim.arena.set_script_source(s, &check).unwrap();
    tick_until(&mut b, "Workspace.Check: record 0 1 nil");
    assert!(!a.log().iter().any(|l| l.contains("error")), "{:#?}", a.log());
    a.host.borrow_mut().shutdown_stores();
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
