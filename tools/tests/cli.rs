//! The `arbor` command as a user runs it: each subcommand on the embedded example place or
//! a small synthetic one, checked by its exit status and what it prints.

use std::path::PathBuf;
use std::process::{Command, Output};

/// Runs `arbor` with `args`; returns its output, stdout and stderr as text.
fn arbor(args: &[&str]) -> (Output, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_arbor")).args(args).output().expect("run arbor");
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    );
    (out, stdout, stderr)
}

/// A fresh scratch directory for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("arbor-cli-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

#[test]
fn serve_runs_the_embedded_example_place_with_its_scripts_in_real_time() {
    let started = std::time::Instant::now();
    let (out, stdout, stderr) = arbor(&["serve", "--ticks", "30", "--summary-every", "100"]);
    assert!(out.status.success(), "{stderr}");
    assert!(stdout.starts_with("serving embedded example place: 28 instances at 60 Hz"), "{stdout}");
    assert!(stdout.contains("Workspace.Hello: hello from Arbor"), "the place's scripts run: {stdout}");
    assert!(stdout.contains("stopped after 30 ticks"), "{stdout}");
    assert!(stdout.contains("PhysicsStep") && stdout.contains("memory: "), "{stdout}");
    // Paced to 60 Hz: 30 ticks take at least half a second of real time (a lower bound set
    // by the pacing's sleeps, which a loaded machine can only lengthen).
    assert!(started.elapsed().as_secs_f64() >= 0.45, "{:?}", started.elapsed());
}

#[test]
fn run_prints_the_script_log_of_the_example_place() {
    // Five seconds of the place: the turret keeps spawning bullets from its prefab (whose
    // three-second `Lifetime` does not run out while it is stored outside the world).
    let (out, stdout, stderr) = arbor(&["run", "--ticks", "300"]);
    assert!(out.status.success(), "{stderr}");
    assert_eq!(stdout.matches("Workspace.CrateHealth: Workspace.Crate healed to 100").count(), 2, "{stdout}");
    assert!(stdout.contains("Workspace.Turret: fired 15 bullets"), "{stdout}");
    assert!(!stdout.contains("no Bullet prefab") && !stderr.contains("no Bullet prefab"), "{stdout}{stderr}");
    assert!(stdout.contains("ran 300 ticks"), "{stdout}");
}

#[test]
fn stress_builds_runs_and_writes_a_chrome_trace() {
    let trace = scratch("stress").join("trace.json");
    let trace_arg = trace.to_str().expect("UTF-8 path");
    let (out, stdout, stderr) = arbor(&["stress", "--count", "2000", "--ticks", "10", "--trace", trace_arg]);
    assert!(out.status.success(), "{stderr}");
    assert!(stdout.contains("10 ticks in"), "{stdout}");
    assert!(stdout.contains("memory: 2000 live instances"), "{stdout}");
    let text = std::fs::read_to_string(&trace).expect("trace written");
    assert!(text.starts_with("{\"traceEvents\":["), "{text:.200}");
    // One span per phase per tick (11 phases; fallen parts and snapshots every second tick).
    assert_eq!(text.matches("\"ph\":\"X\"").count(), 10 * 9 + 5 * 2, "{text:.400}");
}

#[test]
fn place_files_convert_both_ways_and_keep_every_instance() {
    let dir = scratch("convert");
    let example = concat!(env!("CARGO_MANIFEST_DIR"), "/../places/example.place.json");
    let (binary, json) = (dir.join("example.place"), dir.join("example2.place.json"));
    let (binary, json) = (binary.to_str().expect("UTF-8"), json.to_str().expect("UTF-8"));
    for (from, to) in [(example, binary), (binary, json)] {
        let (out, stdout, stderr) = arbor(&["place", "convert", from, to]);
        assert!(out.status.success(), "{stderr}");
        assert!(stdout.starts_with("28 instances, "), "{stdout}");
    }
    let (out, stdout, _) = arbor(&["place", "check", json]);
    assert!(out.status.success());
    assert_eq!(stdout.trim(), format!("{json}: 28 instances"));
}

#[test]
fn a_bad_place_fails_with_the_path_of_the_offending_item() {
    let bad = scratch("bad").join("bad.place.json");
    std::fs::write(
        &bad,
        r#"{"format":"arbor-place","version":1,"instances":[{"class":"Workspace","name":"Workspace",
        "children":[{"class":"Part","name":"P","size":[1,"x",1]}]}]}"#,
    )
    .expect("write");
    let bad = bad.to_str().expect("UTF-8");
    for args in [vec!["place", "check", bad], vec!["serve", bad, "--ticks", "1"], vec!["run", bad]] {
        let (out, stdout, stderr) = arbor(&args);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {stdout}");
        assert!(stderr.contains("instances[0].children[0].size[1]: invalid value"), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{stderr}");
    }
}

/// Writes a JSON place with one Script under the Workspace whose source is `scripts/main.luau`
/// (holding `source`); returns the place's path.
fn place_with_source_file(dir: &std::path::Path, source: &str) -> PathBuf {
    std::fs::create_dir_all(dir.join("scripts")).unwrap();
    std::fs::write(dir.join("scripts/main.luau"), source).unwrap();
    let place = dir.join("game.place.json");
    std::fs::write(
        &place,
        r#"{"format": "arbor-place", "version": 1, "instances": [
            {"class": "Workspace", "name": "Workspace", "children": [
                {"class": "Script", "name": "Main", "sourceFile": "scripts/main.luau"}]}]}"#,
    )
    .unwrap();
    place
}

#[test]
fn run_exits_non_zero_when_a_script_failed_and_counts_lines_in_its_source_file() {
    let dir = scratch("run-errors");
    let place = place_with_source_file(&dir, "print('one')\n\nlocal x = nil\nprint(x.y)\n");
    let (out, stdout, stderr) = arbor(&["run", place.to_str().unwrap(), "--ticks", "3"]);
    assert_eq!(out.status.code(), Some(1), "{stdout}\n{stderr}");
    assert!(stdout.contains("Workspace.Main: one"), "{stdout}");
    assert!(stderr.contains("Workspace.Main:4: attempt to index nil"), "line 4 of main.luau: {stderr}");
    assert!(stderr.contains("arbor: 1 script error"), "{stderr}");
    std::fs::write(dir.join("scripts/main.luau"), "print('fine')\n").unwrap();
    let (out, stdout, stderr) = arbor(&["run", place.to_str().unwrap(), "--ticks", "3"]);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    let (_, help, _) = arbor(&["run", "--help"]);
    assert!(help.contains("Exits with status 1 when any script failed"), "{help}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn serve_watch_hot_reloads_a_saved_source_file() {
    use std::io::{BufRead, BufReader};
    let dir = scratch("watch");
    let place = place_with_source_file(&dir, "function Update() end\nprint('version 1')\n");
    let mut child = Command::new(env!("CARGO_BIN_EXE_arbor"))
        .args(["serve", place.to_str().unwrap(), "--watch", "--ticks", "240", "--summary-every", "100"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("start arbor serve");
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let mut seen = Vec::new();
    for line in lines.by_ref() {
        let line = line.unwrap();
        seen.push(line.clone());
        if line.contains("version 1") {
            break;
        }
    }
    assert!(seen.iter().any(|l| l == "watching 1 script source file for changes"), "{seen:?}");
    std::fs::write(dir.join("scripts/main.luau"), "function Update() end\nprint('version 2')\n").unwrap();
    seen.extend(lines.map(|l| l.unwrap()));
    assert!(child.wait().unwrap().success());
    let text = seen.join("\n");
    assert!(text.contains("reloaded Workspace.Main from"), "{text}");
    assert!(text.contains("Workspace.Main: version 2"), "{text}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn out_of_range_options_are_refused_before_anything_runs() {
    for args in [
        &["serve", "--summary-every", "inf", "--ticks", "1"][..],
        &["stress", "--count", "1e10"],
        &["stress", "--moved", "inf"],
        &["stress", "--dynamic", "NaN"],
    ] {
        let (out, _, stderr) = arbor(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains("invalid value") && !stderr.contains("panicked"), "{args:?}: {stderr}");
    }
    let (out, stdout, stderr) =
        arbor(&["stress", "--count", "100", "--ticks", "1", "--trace", "/nonexistent/dir/t.json"]);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("cannot write trace /nonexistent/dir/t.json"), "{stderr}");
    assert!(!stdout.contains("ticks/s"), "refused before the run: {stdout}");
}

#[test]
fn place_check_refuses_an_endless_input() {
    let (out, _, stderr) = arbor(&["place", "check", "/dev/zero"]);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("larger than 1073741824 bytes"), "{stderr}");
}

#[test]
fn serve_listens_securely_with_a_key_file_that_token_then_signs_with() {
    let dir = scratch("listen");
    let key = dir.join("server.key");
    let _ = std::fs::remove_file(&key);
    let key_arg = key.to_str().unwrap();
    let (out, stdout, stderr) = arbor(&[
        "serve",
        "--listen",
        "127.0.0.1:0",
        "--key",
        key_arg,
        "--ticks",
        "20",
        "--summary-every",
        "100",
    ]);
    assert!(out.status.success(), "{stderr}");
    assert!(stdout.contains("created the server key"), "{stdout}");
    assert!(
        stdout.contains("listening on 127.0.0.1:") && stdout.contains("connect tokens signed with"),
        "{stdout}"
    );
    assert!(stdout.contains("net: 0 clients"), "{stdout}");
    let text = std::fs::read_to_string(&key).unwrap();
    assert_eq!(text.trim().len(), 64, "32 bytes of hex");

    let (out, token, stderr) =
        arbor(&["token", "--user", "42", "--key", key_arg, "--server", "127.0.0.1:53640"]);
    assert!(out.status.success(), "{stderr}");
    let token = token.trim();
    assert!(token.len() > 1000 && token.bytes().all(|b| b.is_ascii_hexdigit()), "{token}");
    assert_eq!(arbor_net::token_from_hex(token).unwrap().client_id, 42);
    let (out, _, stderr) =
        arbor(&["token", "--user", "42", "--key", dir.join("missing.key").to_str().unwrap()]);
    assert!(!out.status.success());
    assert!(stderr.contains("reading the key file"), "{stderr}");

    let (out, _, stderr) = arbor(&["serve", "--listen", "127.0.0.1:0", "--insecure", "--ticks", "2"]);
    assert!(out.status.success(), "{stderr}");
    assert!(stderr.contains("WARNING: --insecure"), "{stderr}");
}

/// Writes a key file of 32 bytes of hex in `dir`; returns its path.
fn key_file(dir: &std::path::Path) -> PathBuf {
    let key = dir.join("server.key");
    std::fs::write(&key, format!("{}\n", "ab".repeat(32))).unwrap();
    key
}

#[test]
fn token_refuses_an_expiry_past_what_a_token_holds_and_user_ids_sessions_refuse() {
    let dir = scratch("token-range");
    let key = key_file(&dir);
    let key = key.to_str().unwrap();
    let (out, stdout, stderr) =
        arbor(&["token", "--user", "42", "--key", key, "--expire", &u64::MAX.to_string()]);
    assert_eq!(out.status.code(), Some(1), "{stdout}{stderr}");
    assert!(stderr.contains("past what a token can hold"), "{stderr}");
    assert!(stdout.is_empty() && !stderr.contains("panicked"), "{stdout}{stderr}");
    // A long expiry that fits is a token that expires in the future.
    let (out, token, stderr) = arbor(&["token", "--user", "42", "--key", key, "--expire", "1000000000000"]);
    assert!(out.status.success(), "{stderr}");
    let token = arbor_net::token_from_hex(token.trim()).unwrap();
    assert!(token.expire_timestamp > token.create_timestamp + 999_999_999_000, "{token:?}");
    for user in ["0", "9007199254740992", &u64::MAX.to_string()] {
        let (out, stdout, stderr) = arbor(&["token", "--user", user, "--key", key]);
        assert_eq!(out.status.code(), Some(1), "--user {user}: {stdout}{stderr}");
        assert!(stderr.contains("ids are from 1 to 9007199254740991"), "{stderr}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bots_refuse_user_ids_that_wrap_or_fall_outside_the_sessions_range() {
    // Nothing listens on the address: the ids are refused before any bot connects.
    for (first, count) in [("18446744073709551614", "3"), ("18446744073709551615", "1"), ("0", "2")] {
        let (out, stdout, stderr) = arbor(&[
            "bots",
            count,
            "--connect",
            "127.0.0.1:9",
            "--insecure",
            "--seconds",
            "0.5",
            "--first-user",
            first,
        ]);
        assert_eq!(out.status.code(), Some(1), "--first-user {first}: {stdout}{stderr}");
        assert!(stderr.contains(&format!("--first-user {first} with {count} bot")), "{stderr}");
        assert!(stderr.contains("ids are from 1 to 9007199254740991"), "{stderr}");
        assert!(!stderr.contains("panicked") && !stdout.contains("connected"), "{stdout}{stderr}");
    }
}

#[test]
fn bots_print_why_the_server_kicked_them_and_stop_counting_them_as_connected() {
    use std::io::{BufRead, BufReader};
    let dir = scratch("bots-kick");
    let place = place_with_source_file(
        &dir,
        "game.Session.PlayerJoined:Connect(function(userId)\n  game.Session.Kick(userId, 'no bots today')\nend)\n",
    );
    let mut server = Command::new(env!("CARGO_BIN_EXE_arbor"))
        .args(["serve", place.to_str().unwrap(), "--listen", "127.0.0.1:0", "--insecure", "--ticks", "480"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("start arbor serve");
    let mut lines = BufReader::new(server.stdout.take().unwrap()).lines();
    let mut addr = None;
    for line in lines.by_ref() {
        let line = line.unwrap();
        if let Some(rest) = line.strip_prefix("listening on ") {
            addr = rest.split_whitespace().next().map(str::to_owned);
            break;
        }
    }
    let addr = addr.expect("the server listens");
    // The rest of the server's output, read as it comes so the pipe never fills.
    let rest = std::thread::spawn(move || lines.map(|l| l.unwrap()).collect::<Vec<String>>());
    let (out, stdout, stderr) =
        arbor(&["bots", "2", "--connect", &addr, "--insecure", "--seconds", "3", "--wander", "0"]);
    assert!(out.status.success(), "{stdout}{stderr}");
    for user in [1_000_000, 1_000_001] {
        assert!(stdout.contains(&format!("bot {user}: kicked: no bots today")), "{stdout}");
    }
    assert!(stdout.contains(": 0/2 connected;"), "kicked bots do not count as connected: {stdout}");
    assert!(stdout.contains("2 bots lost their connection (first: kicked: no bots today)"), "{stdout}");
    assert!(server.wait().unwrap().success());
    let served = rest.join().unwrap().join("\n");
    assert!(served.contains("user 1000000 left: kicked: no bots today"), "{served}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn an_unwritable_save_or_record_path_fails_at_start() {
    // Both once failed only when the server stopped, so the whole session was lost.
    let missing = scratch("unwritable").join("no-such-dir").join("s.json");
    let missing = missing.to_str().unwrap();
    let (out, stdout, stderr) = arbor(&["run", "--ticks", "600", "--save", missing]);
    assert!(!out.status.success());
    assert!(stderr.contains(&format!("--save: {missing} cannot be written")), "{stderr}");
    assert!(!stdout.contains("hello from Arbor"), "no script ran: {stdout}");
    let (out, stdout, stderr) = arbor(&["serve", "--ticks", "600", "--record", "/dev/full"]);
    assert!(!out.status.success());
    assert!(stderr.contains("/dev/full: writing the session log: No space left on device"), "{stderr}");
    assert!(!stdout.contains("stopped after"), "no tick ran: {stdout}");
}

#[test]
fn an_unreachable_cloud_store_fails_at_start() {
    // Port 1 on loopback: nothing listens, the connection is refused at once.
    let url = "postgres://arbor@127.0.0.1:1/arbor";
    let (out, stdout, stderr) = arbor(&["run", "--ticks", "60", "--cloud-store", url]);
    assert!(!out.status.success(), "{stdout}");
    assert!(stderr.contains(&format!("the cloud store at {url} cannot be reached")), "{stderr}");
}

/// Starts `arbor` with `args` (a server that listens), reads its output up to the
/// `listening on ADDR` line, and returns the process, the address and a thread collecting
/// the rest of its output (read as it comes, so the pipe never fills).
fn serve_listening(args: &[&str]) -> (std::process::Child, String, std::thread::JoinHandle<Vec<String>>) {
    use std::io::{BufRead, BufReader};
    let mut server = Command::new(env!("CARGO_BIN_EXE_arbor"))
        .args(args)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("start arbor serve");
    let mut lines = BufReader::new(server.stdout.take().unwrap()).lines();
    let mut addr = None;
    for line in lines.by_ref() {
        if let Some(rest) = line.unwrap().strip_prefix("listening on ") {
            addr = rest.split_whitespace().next().map(str::to_owned);
            break;
        }
    }
    let addr = addr.expect("the server listens");
    (server, addr, std::thread::spawn(move || lines.map(|l| l.unwrap()).collect()))
}

#[test]
fn serve_stress_gives_every_bot_a_walking_character_and_reports_its_cpu_per_tick() {
    let (mut server, addr, rest) = serve_listening(&[
        "serve",
        "--stress",
        "20000",
        "--listen",
        "127.0.0.1:0",
        "--insecure",
        "--ticks",
        "900",
        "--summary-every",
        "1",
    ]);
    let (out, stdout, stderr) = arbor(&["bots", "3", "--connect", &addr, "--insecure", "--seconds", "3"]);
    // The server's summaries are in by now; it need not run out its ticks.
    server.kill().unwrap();
    server.wait().unwrap();
    let served = rest.join().unwrap().join("\n");
    assert!(out.status.success(), "{stdout}{stderr}");
    assert!(stdout.contains(": 3/3 connected;") && stdout.contains("3 with characters"), "{stdout}");
    assert!(
        served.contains("serving a 20000-instance stress place with a player spawner: 20000 instances"),
        "{served}"
    );
    assert!(served.contains("user 1000002 connected"), "{served}");
    let cpu = served.lines().find(|l| l.starts_with("server CPU ")).unwrap_or_else(|| panic!("{served}"));
    assert!(cpu.contains(" ms per tick (") && cpu.contains("% of a core), wall "), "{cpu}");
}

#[test]
fn serve_stress_without_a_spawner_binds_no_characters() {
    let (mut server, addr, rest) = serve_listening(&[
        "serve",
        "--stress",
        "20000",
        "--no-spawner",
        "--listen",
        "127.0.0.1:0",
        "--insecure",
        "--ticks",
        "900",
    ]);
    let (out, stdout, stderr) = arbor(&["bots", "2", "--connect", &addr, "--insecure", "--seconds", "2"]);
    server.kill().unwrap();
    server.wait().unwrap();
    let served = rest.join().unwrap().join("\n");
    assert!(out.status.success(), "{stdout}{stderr}");
    assert!(stdout.contains(": 2/2 connected;") && stdout.contains("no characters bound"), "{stdout}");
    assert!(served.contains("a 20000-instance stress place without a player spawner"), "{served}");
    let (out, _, stderr) = arbor(&["serve", "--no-spawner", "--ticks", "1"]);
    assert_eq!(out.status.code(), Some(2), "--no-spawner needs --stress: {stderr}");
    assert!(stderr.contains("--stress"), "{stderr}");
}

/// Writes a version 2 place asking for 50,000 instances and 5,000,000 units a behaviour
/// transaction (or what `settings` and `attributes` say); returns its path.
fn asking_place(dir: &std::path::Path, settings: &str, attributes: &str) -> String {
    let path = dir.join("asking.place.json");
    let text = format!(
        r#"{{"format": "arbor-place", "version": 2, "settings": {settings}, "instances": [{{"class": "Workspace", "name": "Workspace", "attributes": {attributes}}}]}}"#
    );
    std::fs::write(&path, text).expect("write place");
    path.to_str().expect("UTF-8").to_owned()
}

#[test]
fn serve_and_run_take_host_caps_from_flags_and_a_config_file_and_a_place_cannot_raise_them() {
    let dir = scratch("host-caps");
    let place = asking_place(
        &dir,
        r#"{"behaviors": {"unitsPerTransaction": 5000000}}"#,
        r#"{"MaxInstances": {"Number": 50000}}"#,
    );
    let config = dir.join("host.json");
    std::fs::write(
        &config,
        r#"{"max-instances": 3000, "max-transaction-units": 50000, "behavior-tick-units": 1e6}"#,
    )
    .expect("write host config");
    let config = config.to_str().expect("UTF-8");
    let lowered = |instances: u32, units: u32| {
        [
            format!(
                "warning: Workspace.MaxInstances: the place asks for 50000, more than this host's cap of \
                 {instances}; the cap applies"
            ),
            format!(
                "behaviours: settings.behaviors.unitsPerTransaction: the place asks for 5000000, more than \
                 this host's cap of {units}; the cap applies"
            ),
        ]
    };
    let cases: [(&[&str], u32, u32); 4] = [
        (
            &["run", &place, "--ticks", "2", "--max-instances", "2000", "--max-transaction-units", "2e5"],
            2_000,
            200_000,
        ),
        (&["run", &place, "--ticks", "2", "--host-config", config], 3_000, 50_000),
        (&["run", &place, "--ticks", "2", "--host-config", config, "--max-instances", "2500"], 2_500, 50_000),
        (
            &["serve", &place, "--ticks", "2", "--summary-every", "100", "--host-config", config],
            3_000,
            50_000,
        ),
    ];
    for (args, instances, units) in cases {
        let (out, stdout, stderr) = arbor(args);
        assert!(out.status.success(), "{args:?}: {stdout}{stderr}");
        for line in lowered(instances, units) {
            assert!(stderr.contains(&line), "{args:?}: {line}\n{stderr}");
        }
    }
    // Under the default caps the place's own settings hold, silently.
    let (out, _, stderr) = arbor(&["run", &place, "--ticks", "2"]);
    assert!(out.status.success() && !stderr.contains("the cap applies"), "{stderr}");
}

#[test]
fn out_of_range_host_caps_and_place_settings_are_refused_before_anything_runs() {
    let dir = scratch("host-caps-refused");
    let config = dir.join("host.json");
    let config_arg = config.to_str().expect("UTF-8");
    for (file, expected) in [
        (r#"{"max-instance": 5000}"#, "unknown field `max-instance`"),
        (
            r#"{"max-transaction-units": 1e15}"#,
            "max-transaction-units must be a whole number from 1 to 100000000",
        ),
        (
            r#"{"max-instances": -1}"#,
            "max-instances must be a whole number from 1000 to 100000000; -1 is refused",
        ),
        ("max-instances = 5", "expected value"),
    ] {
        std::fs::write(&config, file).expect("write host config");
        let (out, stdout, stderr) = arbor(&["run", "--ticks", "1", "--host-config", config_arg]);
        assert_eq!(out.status.code(), Some(1), "{file}: {stderr}");
        assert!(stderr.contains(&format!("arbor: host config {config_arg}: ")), "{file}: {stderr}");
        assert!(stderr.contains(expected), "{file}: {stderr}");
        assert!(!stdout.contains("ran "), "refused before the run: {stdout}");
    }
    for (flag, value, range) in [
        ("--max-instances", "4e9", "from 1000 to 100000000"),
        ("--max-creations-per-tick", "1e9", "from 100 to 10000000"),
        ("--max-transaction-units", "9223372036854775808", "from 1 to 100000000"),
        ("--behavior-tick-units", "inf", "from 1000 to 10000000000"),
    ] {
        let (out, _, stderr) = arbor(&["serve", "--ticks", "1", flag, value]);
        assert_eq!(out.status.code(), Some(2), "{flag}: {stderr}");
        assert!(stderr.contains(&format!("'{value}' must be a whole number {range}")), "{flag}: {stderr}");
    }
    for (settings, attributes, expected) in [
        (
            "{}",
            r#"{"MaxInstances": {"Number": 4e9}}"#,
            "Workspace.MaxInstances must be a whole number from 1000 to 100000000; 4000000000 is refused",
        ),
        (
            r#"{"behaviors": {"unitsPerTransaction": 9223372036854775808}}"#,
            "{}",
            "settings.behaviors: unitsPerTransaction must be a whole number from 1 to 100000000; \
             9223372036854775808 is refused",
        ),
    ] {
        let place = asking_place(&dir, settings, attributes);
        let (out, stdout, stderr) = arbor(&["run", &place, "--ticks", "1"]);
        assert_eq!(out.status.code(), Some(1), "{stdout}{stderr}");
        assert!(stderr.contains(expected), "{stderr}");
    }
}

#[test]
fn a_slow_tick_is_traced_with_the_ticks_around_it() {
    let dir = scratch("spikes");
    let traces = dir.join("traces");
    // Every tick counts as slow at 0.001 ms; one trace every 10 s means exactly one here.
    let (out, stdout, stderr) = arbor(&[
        "serve",
        "--ticks",
        "60",
        "--summary-every",
        "100",
        "--spike-traces",
        traces.to_str().unwrap(),
        "--spike-ms",
        "0.001",
    ]);
    assert!(out.status.success(), "{stderr}");
    assert!(stdout.contains("spike: tick 0 took"), "{stdout}");
    assert!(stdout.contains("spike trace of tick 0:"), "{stdout}");
    let files: Vec<_> = std::fs::read_dir(&traces).unwrap().map(|e| e.unwrap().path()).collect();
    assert_eq!(files.len(), 1, "rate-limited to one: {files:?}");
    let name = files[0].file_name().unwrap().to_string_lossy().into_owned();
    assert!(name.starts_with("spike-tick-0-") && name.ends_with("ms.json"), "{name}");
    let json: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&files[0]).unwrap()).unwrap();
    let events = json["traceEvents"].as_array().unwrap();
    let named = |name: &str| events.iter().filter(|e| e["name"] == name).count();
    assert_eq!(named("process_name"), 1);
    assert_eq!(named("tick 0"), 1, "the slow tick itself");
    assert_eq!(named("tick 30"), 1, "the ticks after it");
    assert_eq!(named("tick 31"), 0, "no later than 30 ticks after");
    assert_eq!(named("Update"), 31, "one span per phase per tick");
    assert!(events.iter().filter(|e| e["ph"] == "X").all(|e| e["dur"].as_f64().unwrap() >= 0.0));
    let (refused, _, stderr) = arbor(&["serve", "--ticks", "1", "--spike-ms", "5"]);
    assert!(!refused.status.success(), "--spike-ms needs --spike-traces");
    assert!(stderr.contains("--spike-traces"), "{stderr}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn types_prints_the_shipped_definitions_and_the_typed_example_place_runs() {
    let (out, stdout, stderr) = arbor(&["types"]);
    assert!(out.status.success(), "{stderr}");
    let shipped = include_str!("../../types/arbor.d.luau");
    assert_eq!(stdout, shipped, "`arbor types` prints what types/arbor.d.luau holds");
    let place = concat!(env!("CARGO_MANIFEST_DIR"), "/../places/sourcefile-example/spinner.place.json");
    let (out, _, stderr) = arbor(&["run", place, "--ticks", "30"]);
    assert!(out.status.success(), "the example's sourceFile script runs without errors: {stderr}");
}
