//! A graceful stop, as a host's orchestrator does it: `arbor serve` with two bots connected
//! gets SIGTERM; every player is kicked with the shutdown reason, the place's `PlayerLeft`
//! handler runs for each, and the server exits successfully well inside its grace period.

#[path = "support/arbor_process.rs"]
mod arbor_process;

use arbor_process::ArborProcess;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// A place whose script prints joins and leaves.
fn place(dir: &std::path::Path) -> PathBuf {
    arbor_process::write_session_place(dir, "drain.place.json", "Saver", "saved")
}

#[test]
fn sigterm_drains_the_players_then_stops() {
    let dir = std::env::temp_dir().join(format!("arbor-drain-{}", std::process::id()));
    let place = place(&dir);
    let mut server = ArborProcess::start(&[
        "serve",
        place.to_str().unwrap(),
        "--listen",
        "127.0.0.1:0",
        "--insecure",
        "--grace",
        "20",
    ]);
    let addr = server.word_after("listening on ", Duration::from_secs(20));
    let mut bots = ArborProcess::start(&[
        "bots",
        "2",
        "--connect",
        &addr,
        "--insecure",
        "--seconds",
        "6",
        "--wander",
        "0",
    ]);
    let joined = |s: &[String]| s.iter().filter(|l| l.starts_with("Workspace.Saver: joined ")).count() == 2;
    server.wait_for(&joined, Duration::from_secs(30));
    let signalled = Instant::now();
    server.terminate();
    let succeeded = server.finish();
    let took = signalled.elapsed();
    let log = server.log();
    assert!(succeeded, "{log}");
    assert!(took < Duration::from_secs(20), "inside the grace period: {took:?}\n{log}");
    assert!(log.contains("stopping: draining 2 players"), "{log}");
    for user in [1_000_000, 1_000_001] {
        assert!(log.contains(&format!("user {user} left: kicked: the server is shutting down")), "{log}");
        assert!(log.contains(&format!("Workspace.Saver: saved {user}")), "PlayerLeft ran: {log}");
    }
    assert!(log.contains("drained in"), "{log}");
    // The bots were told why.
    bots.finish();
    assert!(bots.log().contains("kicked: the server is shutting down"), "{}", bots.log());
    std::fs::remove_dir_all(&dir).ok();
}
