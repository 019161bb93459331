//! A fleet, end to end: two `arbor serve` processes share one PostgreSQL cloud store, each
//! with its own fake Agones sidecar. A player joins server A, whose script loads their record
//! (taking its session lock) and saves it when they leave; A gets SIGTERM and drains (its
//! sidecar sees Ready, Health, then Shutdown, within the grace period); the same player joins
//! server B, which loads what A saved at once: A released the lock, B did not wait for the
//! lease to expire.
//!
//! Needs a PostgreSQL server: `ARBOR_TEST_POSTGRES=postgres://...` (`.ci/run` starts one).
//! Without it the test is skipped, unless `CI` is set, when it fails.

#[path = "support/arbor_process.rs"]
mod arbor_process;
#[path = "support/sidecar.rs"]
mod sidecar;

use arbor_process::ArborProcess as Server;
use sidecar::Sidecar;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant, SystemTime};

/// The grace period both servers run with (`Server::start`).
const GRACE: Duration = Duration::from_secs(10);

/// The PostgreSQL URL, or `None` (skipped) when there is none outside CI.
fn postgres_url() -> Option<String> {
    match std::env::var("ARBOR_TEST_POSTGRES") {
        Ok(url) if !url.is_empty() => Some(url),
        _ if std::env::var_os("CI").is_some() => {
            panic!(
                "CI is set but ARBOR_TEST_POSTGRES is not: the fleet test needs a PostgreSQL server (see .ci/run)"
            )
        }
        _ => {
            eprintln!("skipped: set ARBOR_TEST_POSTGRES=postgres://... to run the fleet test");
            None
        }
    }
}

/// The place both servers run: a player's record is loaded on join (session-locked) and
/// saved, one visit more, when they leave.
fn place(dir: &Path, store: &str) -> PathBuf {
    std::fs::create_dir_all(dir).unwrap();
    let source = format!(
        r#"local cloud = game.CloudStore.open("{store}")
local loaded = {{}}
game.Session.PlayerJoined:Connect(function(userId)
    cloud:fetch(userId, function(data, version, err)
        if err ~= nil then
            print("load failed for " .. userId .. ": " .. err)
            return
        end
        local visits = (data and data.visits) or 0
        print("loaded " .. userId .. ": visits " .. visits .. ", version " .. version)
        loaded[userId] = {{ visits = visits + 1 }}
    end)
end)
game.Session.PlayerLeft:Connect(function(_character, userId)
    local data = loaded[userId]
    loaded[userId] = nil
    if data ~= nil then
        cloud:put(userId, data)
        print("saving " .. userId .. ": visits " .. data.visits)
    end
end)"#
    );
    let place = serde_json::json!({"format": "arbor-place", "version": 1, "instances": [
        {"class": "Workspace", "name": "Workspace", "children": [
            {"class": "Script", "name": "Profile", "source": source}]}]});
    let path = dir.join("fleet.place.json");
    std::fs::write(&path, place.to_string()).unwrap();
    path
}

/// One bot with user id `user` on `addr`, for up to 30 s.
fn bot(addr: &str, user: u64) -> Child {
    Command::new(env!("CARGO_BIN_EXE_arbor"))
        .args(["bots", "1", "--connect", addr, "--insecure", "--seconds", "30", "--wander", "0"])
        .args(["--first-user", &user.to_string()])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start arbor bots")
}

/// `arbor serve` of `place` on the shared cloud store, with its own data folder.
fn server(dir: &Path, name: &str, place: &Path, url: &str, sidecar: &Sidecar) -> Server {
    let data = dir.join(format!("{name}.data"));
    let args = [place.to_str().unwrap(), "--cloud-store", url, "--data", data.to_str().unwrap()];
    Server::start_serve(&dir.join(name), &args, sidecar.port)
}

#[test]
fn a_player_moves_from_a_draining_server_to_another_with_their_data() {
    let Some(url) = postgres_url() else { return };
    let millis = SystemTime::now().duration_since(SystemTime::UNIX_EPOCH).unwrap().as_millis();
    // A store no earlier run used (the database outlives runs).
    let store = format!("fleet-{}-{millis}", std::process::id());
    let dir = std::env::temp_dir().join(format!("arbor-fleet-{}-{millis}", std::process::id()));
    let place = place(&dir, &store);
    let user = 777_000 + u64::from(std::process::id() % 1000);
    let (sidecar_a, sidecar_b) = (Sidecar::start(), Sidecar::start());
    let mut a = server(&dir, "a", &place, &url, &sidecar_a);
    let mut b = server(&dir, "b", &place, &url, &sidecar_b);
    let (addr_a, addr_b) = (a.addr(), b.addr());

    // The player joins A: a fresh record, now locked by A.
    let mut bot_a = bot(&addr_a, user);
    let fresh = format!("Workspace.Profile: loaded {user}: visits 0, version 0");
    a.wait_line(Duration::from_secs(20), |l| l == fresh || l.contains("load failed"));
    assert!(a.log().contains(&fresh), "{}", a.log());
    // A has been ticking long enough to ping its health.
    assert!(sidecar_a.wait_for(Duration::from_secs(5), |c| c.iter().any(|c| c.what() == "POST /health")));

    // SIGTERM: A drains the player (PlayerLeft saves), releases the lock, and says Shutdown.
    let signalled = Instant::now();
    let (ok, exited) = a.stop_within(GRACE + Duration::from_secs(5));
    let log_a = a.log();
    assert!(ok, "{log_a}");
    assert!(log_a.contains(&format!("Workspace.Profile: saving {user}: visits 1")), "{log_a}");
    assert!(log_a.contains("drained in"), "{log_a}");
    let calls: Vec<String> = sidecar_a.calls().iter().map(|c| c.what()).collect();
    let lifecycle: Vec<&str> = calls
        .iter()
        .map(String::as_str)
        .filter(|c| matches!(*c, "POST /ready" | "POST /health" | "POST /shutdown"))
        .collect();
    assert_eq!(lifecycle.first(), Some(&"POST /ready"), "{calls:?}");
    assert!(lifecycle[1..lifecycle.len() - 1].iter().all(|c| *c == "POST /health"), "{calls:?}");
    assert!(lifecycle.len() >= 3, "Ready, Health..., Shutdown: {calls:?}");
    assert_eq!(
        calls.last().map(String::as_str),
        Some("POST /shutdown"),
        "Shutdown is the last call: {calls:?}"
    );
    let shutdown_at = sidecar_a.calls().last().unwrap().at;
    assert!(shutdown_at < exited && shutdown_at - signalled < GRACE, "Shutdown within the grace period");
    let _ = bot_a.kill();
    let _ = bot_a.wait();

    // The player joins B, which loads what A saved at once: the lock is A's no longer.
    let joined = Instant::now();
    let mut bot_b = bot(&addr_b, user);
    let saved = format!("Workspace.Profile: loaded {user}: visits 1, version 1");
    let (loaded_at, _) = b.wait_line(Duration::from_secs(20), |l| l == saved || l.contains("load failed"));
    let log_b = b.log();
    assert!(log_b.contains(&saved), "B loaded what A saved: {log_b}");
    assert!(loaded_at - joined < Duration::from_secs(10), "at once, not after the 60 s lease: {log_b}");
    let _ = bot_b.kill();
    let _ = bot_b.wait();
    let (ok, _) = b.stop_within(GRACE + Duration::from_secs(5));
    assert!(ok, "{}", b.log());
    assert_eq!(sidecar_b.calls().last().unwrap().what(), "POST /shutdown");
    drop((a, b));
    std::fs::remove_dir_all(&dir).ok();
}
