//! `arbor serve` under Agones, against a fake SDK sidecar (`support/sidecar.rs`): Ready after
//! the socket listens, Health while it ticks, the players list following connects and
//! leaves, the GameServer watch, and Shutdown as the last call before the process exits; a
//! sidecar that starts late, and answers 503 at first, still gets Ready while the server
//! keeps ticking.

#[path = "support/arbor_process.rs"]
mod arbor_process;
#[path = "support/sidecar.rs"]
mod sidecar;

use arbor_process::ArborProcess as Server;
use sidecar::{Call, Sidecar, free_port};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// A folder of this test's own (removed when its server is dropped).
fn temp_dir(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("arbor-agones-{name}-{}", std::process::id()))
}

/// A place whose script prints joins and leaves.
fn place(dir: &std::path::Path) -> PathBuf {
    arbor_process::write_session_place(dir, "agones.place.json", "Greeter", "left")
}

/// Calls answered 200 whose `METHOD PATH` is `what`.
fn count(calls: &[Call], what: &str) -> usize {
    calls.iter().filter(|c| c.what() == what && c.status == 200).count()
}

#[test]
fn ready_health_players_watch_then_shutdown_last() {
    let sidecar = Sidecar::start();
    sidecar.set_address("127.0.0.1", 7654);
    let dir = temp_dir("lifecycle");
    let mut server = Server::start_serve(&dir, &[place(&dir).to_str().unwrap()], sidecar.port);
    let addr = server.addr();
    let (listening_at, _) = server.wait_line(Duration::from_secs(1), |l| l.starts_with("listening on "));
    // The GameServer's address is the one tokens must name.
    server.wait_line(Duration::from_secs(5), |l| l.starts_with("public address 127.0.0.1:7654"));

    assert!(sidecar.wait_for(Duration::from_secs(5), |c| count(c, "POST /ready") == 1), "{}", server.log());
    let ready = sidecar.calls().into_iter().find(|c| c.what() == "POST /ready").unwrap();
    assert!(ready.at > listening_at, "Ready came after the socket listened");
    assert_eq!(serde_json::from_str::<serde_json::Value>(&ready.body).unwrap(), serde_json::json!({}));

    // A bot's user id joins the players list while it is connected and leaves it after.
    let bots = Command::new(env!("CARGO_BIN_EXE_arbor"))
        .args(["bots", "1", "--connect", &addr, "--insecure", "--seconds", "3", "--wander", "0"])
        .args(["--first-user", "4242"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    assert!(
        sidecar.wait_for(Duration::from_secs(10), |_| sidecar.players() == ["4242"]),
        "added: {:?}\n{}",
        sidecar.calls(),
        server.log()
    );
    let added = sidecar.calls().into_iter().find(|c| c.path == "/v1beta1/lists/players:addValue").unwrap();
    let body: serde_json::Value = serde_json::from_str(&added.body).unwrap();
    assert_eq!(body, serde_json::json!({"value": "4242"}), "the user id as a string");
    server.wait_line(Duration::from_secs(5), |l| l == "Workspace.Greeter: joined 4242");
    let bots = bots.wait_with_output().unwrap();
    assert!(bots.status.success());
    assert!(
        sidecar
            .wait_for(Duration::from_secs(10), |c| count(c, "POST /v1beta1/lists/players:removeValue") == 1),
        "{}",
        server.log()
    );
    assert!(sidecar.players().is_empty());

    // The watch follows the GameServer: an allocation is announced.
    sidecar.allocate();
    server.wait_line(Duration::from_secs(5), |l| {
        l.starts_with("agones: this server was allocated (GameServer fake-gs")
    });

    // Health pings keep coming, every 2 s, while it ticks.
    assert!(sidecar.wait_for(Duration::from_secs(10), |c| count(c, "POST /health") >= 3), "{}", server.log());
    let pings: Vec<Instant> =
        sidecar.calls().iter().filter(|c| c.what() == "POST /health").map(|c| c.at).collect();
    for pair in pings.windows(2) {
        let gap = pair[1] - pair[0];
        assert!(gap > Duration::from_millis(1500) && gap < Duration::from_millis(3500), "{gap:?}");
    }

    // SIGTERM: the drain, then Shutdown as the very last call, before the process exits.
    let (ok, exited) = server.stop_within(Duration::from_secs(15));
    let log = server.log();
    assert!(ok, "{log}");
    assert!(log.contains("drained in"), "{log}");
    assert!(log.contains("agones: sending Shutdown (the GameServer was Allocated)"), "{log}");
    let calls = sidecar.calls();
    let last = calls.last().unwrap();
    assert_eq!(last.what(), "POST /shutdown", "{calls:#?}");
    assert_eq!(last.status, 200);
    assert!(last.at < exited);
    assert_eq!(count(&calls, "POST /shutdown"), 1);
    assert_eq!(count(&calls, "POST /ready"), 1, "Ready once");
}

#[test]
fn a_sidecar_that_starts_late_and_fails_first_still_gets_ready() {
    let port = free_port();
    let dir = temp_dir("late");
    let mut server = Server::start_serve(&dir, &[place(&dir).to_str().unwrap(), "--agones"], port);
    server.addr();
    // No sidecar: the address lookup gives up (bounded) and the server serves anyway.
    server.wait_line(Duration::from_secs(10), |l| l.starts_with("agones: warning: no public address"));
    server.wait_line(Duration::from_secs(5), |l| l.starts_with("agones: Ready failed:"));
    // The sidecar comes up, unavailable at first.
    let sidecar = Sidecar::on_port(port);
    sidecar.fail(true);
    assert!(
        sidecar
            .wait_for(Duration::from_secs(10), |c| c.iter().any(|c| c.path == "/ready" && c.status == 503)),
        "{}",
        server.log()
    );
    sidecar.fail(false);
    assert!(sidecar.wait_for(Duration::from_secs(10), |c| count(c, "POST /ready") == 1), "{}", server.log());
    server.wait_line(Duration::from_secs(5), |l| l.starts_with("agones: the sidecar is reachable again"));
    // The tick kept running: health pings (sent only when the tick advanced) follow Ready.
    let ready_at = sidecar.calls().iter().find(|c| c.what() == "POST /ready" && c.status == 200).unwrap().at;
    assert!(
        sidecar.wait_for(Duration::from_secs(6), |c| c
            .iter()
            .any(|c| c.what() == "POST /health" && c.status == 200 && c.at > ready_at)),
        "{}",
        server.log()
    );
    let log = server.log();
    assert_eq!(
        log.matches("agones: Ready failed").count(),
        1,
        "failures are reported once, then a minute apart: {log}"
    );
    let (ok, _) = server.stop_within(Duration::from_secs(15));
    assert!(ok, "{}", server.log());
    assert_eq!(sidecar.calls().last().unwrap().what(), "POST /shutdown");
}
