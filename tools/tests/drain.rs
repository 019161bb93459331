//! A graceful stop, as a host's orchestrator does it: `arbor serve` with two bots connected
//! gets SIGTERM; every player is kicked with the shutdown reason, the place's `PlayerLeft`
//! handler runs for each, and the server exits successfully well inside its grace period.

use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// A place whose script prints every leave (where a game would save).
fn place(dir: &std::path::Path) -> PathBuf {
    std::fs::create_dir_all(dir).unwrap();
    let place = dir.join("drain.place.json");
    std::fs::write(
        &place,
        r#"{"format": "arbor-place", "version": 1, "instances": [
            {"class": "Workspace", "name": "Workspace", "children": [
                {"class": "Script", "name": "Saver", "source":
                 "game.Session.PlayerJoined:Connect(function(userId) print('joined ' .. userId) end)\ngame.Session.PlayerLeft:Connect(function(_character, userId) print('saved ' .. userId) end)"}]}]}"#,
    )
    .unwrap();
    place
}

/// Reads the server's lines into `seen` until `what` holds of them, or fails after `limit`.
fn wait_for(
    seen: &mut Vec<String>,
    rx: &std::sync::mpsc::Receiver<String>,
    what: &dyn Fn(&[String]) -> bool,
    limit: Duration,
) {
    let until = Instant::now() + limit;
    while !what(seen) {
        match rx.recv_timeout(until.saturating_duration_since(Instant::now())) {
            Ok(line) => seen.push(line),
            Err(_) => panic!("timed out; the server said: {seen:#?}"),
        }
    }
}

#[test]
fn sigterm_drains_the_players_then_stops() {
    let dir = std::env::temp_dir().join(format!("arbor-drain-{}", std::process::id()));
    let place = place(&dir);
    let mut server = Command::new(env!("CARGO_BIN_EXE_arbor"))
        .args(["serve", place.to_str().unwrap(), "--listen", "127.0.0.1:0", "--insecure", "--grace", "20"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start arbor serve");
    let (tx, rx) = std::sync::mpsc::channel::<String>();
    let stdout = server.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let _ = tx.send(line.unwrap());
        }
    });
    let mut seen = Vec::new();
    wait_for(&mut seen, &rx, &|s| s.iter().any(|l| l.starts_with("listening on ")), Duration::from_secs(20));
    let addr = {
        let line = seen.iter().find(|l| l.starts_with("listening on ")).unwrap();
        line["listening on ".len()..].split_whitespace().next().unwrap().to_owned()
    };
    let bots = Command::new(env!("CARGO_BIN_EXE_arbor"))
        .args(["bots", "2", "--connect", &addr, "--insecure", "--seconds", "6", "--wander", "0"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start arbor bots");
    let joined = |s: &[String]| s.iter().filter(|l| l.starts_with("Workspace.Saver: joined ")).count() == 2;
    wait_for(&mut seen, &rx, &joined, Duration::from_secs(30));
    let signalled = Instant::now();
    let kill = Command::new("kill").args(["-TERM", &server.id().to_string()]).status().unwrap();
    assert!(kill.success());
    let status = server.wait().unwrap();
    let took = signalled.elapsed();
    reader.join().unwrap();
    seen.extend(rx.try_iter());
    let log = seen.join("\n");
    assert!(status.success(), "{log}");
    assert!(took < Duration::from_secs(20), "inside the grace period: {took:?}\n{log}");
    assert!(log.contains("stopping: draining 2 players"), "{log}");
    for user in [1_000_000, 1_000_001] {
        assert!(log.contains(&format!("user {user} left: kicked: the server is shutting down")), "{log}");
        assert!(log.contains(&format!("Workspace.Saver: saved {user}")), "PlayerLeft ran: {log}");
    }
    assert!(log.contains("drained in"), "{log}");
    // The bots were told why.
    let bots_out = bots.wait_with_output().unwrap();
    let bots_log = String::from_utf8_lossy(&bots_out.stdout);
    assert!(bots_log.contains("kicked: the server is shutting down"), "{bots_log}");
    std::fs::remove_dir_all(&dir).ok();
}
