//! `arbor run` / `arbor serve` with behaviours: the example behaviours place, `--play`
//! pausing at a behaviour error, and `--save` / `--resume` round trips.

use std::path::PathBuf;
use std::process::{Command, Output};

fn arbor(args: &[&str]) -> (Output, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_arbor")).args(args).output().expect("run arbor");
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    (out, stdout, stderr)
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("arbor-behaviors-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

fn example() -> String {
    format!("{}/../places/behaviors.place.json", env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn the_behaviours_example_place_runs_its_door_and_shop() {
    let dir = scratch("example");
    let data = dir.join("data");
    let (out, stdout, stderr) =
        arbor(&["run", &example(), "--ticks", "700", "--data", data.to_str().unwrap()]);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    assert!(stdout.contains("Workspace.Door.DoorBehavior: door opened, time\t1"), "{stdout}");
    assert!(stdout.contains("Workspace.Shop.ShopBehavior: sold out; sold\t5"), "{stdout}");
}

#[test]
fn play_pauses_the_world_at_a_behaviour_error_and_prints_its_report() {
    let dir = scratch("play");
    let text = std::fs::read_to_string(example()).unwrap();
    let broken = text
        .replace("self.memory.opens = self.memory.opens + 1", "self.memory.opens = self.memory.opens + nil");
    assert_ne!(broken, text);
    let place = dir.join("broken.place.json");
    std::fs::write(&place, broken).unwrap();
    let data = dir.join("data");
    let (out, stdout, stderr) = arbor(&[
        "run",
        place.to_str().unwrap(),
        "--ticks",
        "1200",
        "--play",
        "--data",
        data.to_str().unwrap(),
    ]);
    assert!(!out.status.success());
    let all = format!("{stdout}{stderr}");
    assert!(all.contains("behaviour error in Workspace.Door.DoorBehavior during event Open"), "{all}");
    assert!(all.contains("Door:21:5: attempt to perform arithmetic"), "the report names its line: {all}");
    assert!(stderr.contains("play: the world is paused at tick 299"), "{stderr}");
    assert!(stdout.contains("ran 300 ticks"), "no tick ran after the error: {stdout}");
}

#[test]
fn save_then_resume_goes_on_where_it_was() {
    let dir = scratch("save");
    let save = dir.join("s.json");
    let data = dir.join("data");
    let (out, stdout, stderr) = arbor(&[
        "serve",
        &example(),
        "--ticks",
        "400",
        "--summary-every",
        "100",
        "--save",
        save.to_str().unwrap(),
        "--data",
        data.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    assert!(stdout.contains("saved"), "{stdout}");
    let state = std::fs::read_to_string(dir.join("s.json.behaviors.json")).unwrap();
    assert!(state.contains("\"format\": \"arbor-behavior-state\""), "{state}");
    let (out, stdout, stderr) = arbor(&[
        "run",
        "--resume",
        save.to_str().unwrap(),
        "--ticks",
        "400",
        "--data",
        data.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    assert!(stdout.contains("resumed"), "{stdout}");
    // The door opened once before the save; the count goes on from there.
    assert!(stdout.contains("door opened, time\t2"), "{stdout}");
    assert!(!stdout.contains("door opened, time\t1"), "{stdout}");
}
