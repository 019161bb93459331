//! `game.CloudStore` from Luau with several servers on one database, the same suite on
//! both backends (the offline SQLite file, shared by server processes, and PostgreSQL; see
//! `cloud_common/mod.rs`): a put seen by another server, the queued puts sent at shutdown, the
//! compare-and-swap loop of several server processes on one hot key, and session locks end
//! to end (`the_player_data_example_...`, players fed straight into the simulation's
//! `Players`). The lock's rules in detail (leases, pending saves, shutdown) are tested on
//! the store's core in `store/src/cloud/tests.rs`.

mod cloud_common;
mod common;

use cloud_common::{Db, on_both, postgres, server, sqlite, tick_until, unique};
use common::{Place, Running};
use std::time::{Duration, Instant};

const CHILD_ENV: &str = "ARBOR_CLOUD_CHILD";

on_both!(
    a_second_server_sees_a_put,
    shutdown_sends_the_queued_puts,
    the_cas_loop_of_several_server_processes_loses_no_update,
    the_player_data_example_holds_a_session_lock_across_servers,
);

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
