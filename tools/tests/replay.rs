//! `arbor serve --record` then `arbor replay`: a session with bots over 127.0.0.1 replays
//! hash for hash on one thread and on two; a changed hash is named by tick (and by phase in
//! a log with phase hashes); a behaviour error replays with the same report; a log refuses
//! another place.

use serde_json::{Value, json};
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn arbor(args: &[&str], threads: &str) -> (Output, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_arbor"))
        .args(args)
        .env("RAYON_NUM_THREADS", threads)
        .output()
        .expect("run arbor");
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    (out, stdout, stderr)
}

/// A scratch directory, removed when dropped.
struct Scratch(PathBuf);

impl std::ops::Deref for Scratch {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn scratch(name: &str) -> Scratch {
    let dir = std::env::temp_dir().join(format!("arbor-replay-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch dir");
    Scratch(dir)
}

/// A Script whose writes depend on `pairs` over Instance keys and on `math.random`.
const SCATTER: &str = r#"
local pebbles = {}
local n = 0
function Update(dt)
	n += 1
	if n % 15 == 0 and n <= 240 then
		local p = game.Prefabs.Spawn("Pebble")
		p.Position = Vector3.new(math.random(-20, 20), 10 + math.random(), math.random(-20, 20))
		p.Parent = workspace
		pebbles[p] = n
	end
	local order = 0
	for p in pairs(pebbles) do
		order += 1
		p:SetAttribute("Order", order)
	end
	if n % 60 == 0 then
		print("rolled", math.random(1, 6))
	end
end
"#;

/// The example place with the behaviours example's door and shop, and [`SCATTER`].
fn test_place(dir: &Path, door_source: impl FnOnce(String) -> String) -> PathBuf {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../places");
    let read = |name: &str| -> Value {
        serde_json::from_str(&std::fs::read_to_string(format!("{root}/{name}")).unwrap()).unwrap()
    };
    let mut place = read("example.place.json");
    let mut behaviors = read("behaviors.place.json");
    let door = &mut behaviors["behaviors"][0]["source"];
    *door = Value::String(door_source(door.as_str().unwrap().to_owned()));
    place["version"] = behaviors["version"].clone();
    place["behaviors"] = behaviors["behaviors"].clone();
    let from: Vec<Value> = behaviors["instances"][0]["children"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| ["Door", "Shop", "Driver"].contains(&c["name"].as_str().unwrap()))
        .cloned()
        .collect();
    let workspace = place["instances"][0]["children"].as_array_mut().unwrap();
    workspace.extend(from);
    workspace.push(json!({"class": "Script", "name": "Scatter", "source": SCATTER}));
    let prefabs = place["instances"][1]["children"].as_array_mut().unwrap();
    prefabs.push(json!({"class": "Part", "name": "Pebble", "size": [1.0, 1.0, 1.0]}));
    let path = dir.join("test.place.json");
    std::fs::write(&path, serde_json::to_string_pretty(&place).unwrap()).unwrap();
    path
}

/// Records `ticks` ticks of `place` without a network to `log`; the serve output (stdout
/// then stderr).
fn record(place: &Path, log: &Path, ticks: &str, extra: &[&str]) -> String {
    let data = log.with_extension("data");
    let mut args = vec![
        "serve",
        place.to_str().unwrap(),
        "--ticks",
        ticks,
        "--summary-every",
        "100",
        "--data",
        data.to_str().unwrap(),
        "--record",
        log.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    let (out, stdout, stderr) = arbor(&args, "2");
    assert!(out.status.success(), "{stdout}\n{stderr}");
    assert!(stdout.contains(&format!("recording the session to {}", log.display())), "{stdout}");
    stdout + &stderr
}

/// Replays `log` on `place`: success, stdout, stderr.
fn replay(place: &Path, log: &Path, threads: &str) -> (bool, String, String) {
    let (out, stdout, stderr) = arbor(&["replay", place.to_str().unwrap(), log.to_str().unwrap()], threads);
    (out.status.success(), stdout, stderr)
}

/// The `tick N HASH` lines of a replay.
fn tick_lines(stdout: &str) -> Vec<&str> {
    stdout.lines().filter(|l| l.starts_with("tick ")).collect()
}

/// The log with `edit` applied to the JSON line of tick `tick`.
fn tamper(log: &Path, tick: u64, edit: impl FnOnce(&mut Value)) -> PathBuf {
    let text = std::fs::read_to_string(log).unwrap();
    let mut lines: Vec<String> = text.lines().map(str::to_owned).collect();
    let at = lines
        .iter()
        .position(|l| serde_json::from_str::<Value>(l).unwrap()["tick"] == json!(tick))
        .expect("the tick is in the log");
    let mut line: Value = serde_json::from_str(&lines[at]).unwrap();
    edit(&mut line);
    lines[at] = line.to_string();
    let out = log.with_extension("tampered.jsonl");
    std::fs::write(&out, lines.join("\n") + "\n").unwrap();
    out
}

#[test]
fn a_session_with_bots_replays_hash_for_hash_on_one_thread_and_on_two() {
    let dir = scratch("bots");
    let place = test_place(&dir, |s| s);
    let log = dir.join("session.jsonl");
    let data = dir.join("data");
    let mut serve = Command::new(env!("CARGO_BIN_EXE_arbor"))
        .args(["serve", place.to_str().unwrap(), "--listen", "127.0.0.1:0", "--insecure", "--ticks", "360"])
        .args(["--summary-every", "100", "--data", data.to_str().unwrap(), "--record", log.to_str().unwrap()])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start serve");
    let mut lines = BufReader::new(serve.stdout.take().unwrap()).lines();
    let addr = loop {
        let line = lines.next().expect("serve printed its address").unwrap();
        if let Some(rest) = line.strip_prefix("listening on ") {
            break rest.split_whitespace().next().unwrap().to_owned();
        }
    };
    let (bots, bots_out, bots_err) =
        arbor(&["bots", "2", "--connect", &addr, "--insecure", "--seconds", "2.5", "--wander", "20"], "1");
    assert!(bots.status.success(), "{bots_out}\n{bots_err}");
    let rest: Vec<String> = lines.map(Result::unwrap).collect();
    assert!(serve.wait().unwrap().success(), "{rest:?}");
    assert!(rest.iter().any(|l| l.starts_with("stopped after 360 ticks")), "{rest:?}");

    let recorded = std::fs::read_to_string(&log).unwrap();
    for kind in ["\"connect\"", "\"move\"", "\"disconnect\""] {
        assert!(recorded.contains(kind), "the log holds {kind} inputs");
    }
    let (ok1, out1, err1) = replay(&place, &log, "1");
    assert!(ok1, "{out1}\n{err1}");
    assert!(out1.contains("replayed 360 ticks: every hash matches the recording"), "{out1}");
    let (ok2, out2, err2) = replay(&place, &log, "2");
    assert!(ok2, "{out2}\n{err2}");
    assert_eq!(tick_lines(&out1).len(), 360);
    assert_eq!(tick_lines(&out1), tick_lines(&out2), "one thread and two replay the same hashes");
    let rolls = |s: &str| s.lines().filter(|l| l.contains("rolled")).map(str::to_owned).collect::<Vec<_>>();
    assert!(!rolls(&out1).is_empty(), "{out1}");
    assert_eq!(rolls(&out1), rolls(&out2), "the scripts' random draws replay too");
}

#[test]
fn a_changed_hash_is_named_by_its_tick_and_by_its_phase_when_the_log_has_them() {
    let dir = scratch("tamper");
    let place = test_place(&dir, |s| s);
    let log = dir.join("session.jsonl");
    record(&place, &log, "90", &["--record-phases"]);
    let (ok, stdout, stderr) = replay(&place, &log, "2");
    assert!(ok, "{stdout}\n{stderr}");

    let tick_changed = tamper(&log, 40, |l| {
        l["hash"] = json!("0000000000000000");
        l.as_object_mut().unwrap().remove("phases");
    });
    let (ok, stdout, stderr) = replay(&place, &tick_changed, "2");
    assert!(!ok);
    assert!(
        stderr.contains("tick 40 differs from the recording (recorded 0000000000000000, replayed "),
        "{stderr}"
    );
    assert_eq!(tick_lines(&stdout).len(), 41, "the replay stops at the tick that differs");

    let phase_changed = tamper(&log, 55, |l| {
        let physics = l["phases"].as_array_mut().unwrap().iter_mut().find(|p| p[0] == "PhysicsStep").unwrap();
        physics[1] = json!("00000000000000ff");
    });
    let (ok, _, stderr) = replay(&place, &phase_changed, "1");
    assert!(!ok);
    assert!(
        stderr.contains(
            "tick 55 differs from the recording after phase PhysicsStep (recorded 00000000000000ff"
        ),
        "{stderr}"
    );
}

#[test]
fn a_behaviour_error_replays_with_the_same_report() {
    let dir = scratch("error");
    let place = test_place(&dir, |s| {
        let broken = s.replace(
            "self.memory.opens = self.memory.opens + 1",
            "self.memory.opens = self.memory.opens + nil",
        );
        assert_ne!(broken, s);
        broken
    });
    let log = dir.join("session.jsonl");
    let served = record(&place, &log, "320", &[]);
    let report = |out: &str| {
        out.lines().find(|l| l.contains("behaviour error in Workspace.Door.DoorBehavior")).map(str::to_owned)
    };
    let recorded = report(&served).unwrap_or_else(|| panic!("the recorded run reported the error: {served}"));
    let (ok, stdout, stderr) = replay(&place, &log, "2");
    assert!(ok, "{stdout}\n{stderr}");
    assert_eq!(report(&(stdout + &stderr)), Some(recorded));
}

#[test]
fn a_log_refuses_another_place_and_a_broken_file() {
    let dir = scratch("refuse");
    let place = test_place(&dir, |s| s);
    let log = dir.join("session.jsonl");
    record(&place, &log, "5", &[]);
    let example = concat!(env!("CARGO_MANIFEST_DIR"), "/../places/example.place.json");
    let (ok, _, stderr) = replay(Path::new(example), &log, "1");
    assert!(!ok);
    assert!(stderr.contains("was recorded from another place"), "{stderr}");

    let broken = dir.join("broken.jsonl");
    std::fs::write(&broken, "{\"arborReplay\": 99}\n").unwrap();
    let (ok, _, stderr) = replay(&place, &broken, "1");
    assert!(!ok);
    assert!(stderr.contains(broken.to_str().unwrap()), "the error names the file: {stderr}");
}

#[test]
fn a_session_resumed_from_a_save_replays_on_the_save() {
    let dir = scratch("resume");
    let place = test_place(&dir, |s| s);
    let save = dir.join("s.json");
    let data = dir.join("data");
    let (out, stdout, stderr) = arbor(
        &[
            "serve",
            place.to_str().unwrap(),
            "--ticks",
            "120",
            "--summary-every",
            "100",
            "--save",
            save.to_str().unwrap(),
            "--data",
            data.to_str().unwrap(),
        ],
        "2",
    );
    assert!(out.status.success(), "{stdout}\n{stderr}");
    let log = dir.join("session.jsonl");
    let (out, stdout, stderr) = arbor(
        &[
            "serve",
            "--resume",
            save.to_str().unwrap(),
            "--ticks",
            "120",
            "--summary-every",
            "100",
            "--data",
            data.to_str().unwrap(),
            "--record",
            log.to_str().unwrap(),
        ],
        "2",
    );
    assert!(out.status.success(), "{stdout}\n{stderr}");
    let (ok, stdout, stderr) = replay(&save, &log, "1");
    assert!(ok, "{stdout}\n{stderr}");
    assert!(stdout.contains("replayed 120 ticks: every hash matches the recording"), "{stdout}");
    let (ok, _, stderr) = replay(&place, &log, "1");
    assert!(!ok, "the place before the save is another world");
    assert!(stderr.contains("was recorded from another place"), "{stderr}");
}
