//! `arbor client` and `arbor bots --client-scripts` against a real `arbor serve` on the
//! loopback interface, with the embedded example place (its `Hud` is a client script).

#[path = "support/arbor_process.rs"]
mod arbor_process;

use arbor_process::ArborProcess;
use std::time::Duration;

#[test]
fn arbor_client_runs_the_client_scripts_and_walks_its_character() {
    let mut server =
        ArborProcess::start(&["serve", "--listen", "127.0.0.1:0", "--insecure", "--ticks", "3000"]);
    let addr = server.addr();
    let mut client =
        ArborProcess::start(&["client", "--connect", &addr, "--insecure", "--user", "7", "--seconds", "6"]);
    let ok = client.finish();
    let out = client.log();
    assert!(ok, "arbor client failed:\n{out}");
    assert!(out.contains("Workspace.Hud: you are Cadet"), "the client script ran on the client:\n{out}");
    assert!(out.contains("connected to") && out.contains("as user 7"), "{out}");
    assert!(out.contains("walking character"), "{out}");
    assert!(out.contains("mismatches 0") && out.contains("client scripts: 1 running, 0 errors"), "{out}");
    assert!(
        out.contains("; prediction: ") && out.contains(" 0 snaps"),
        "the client predicted its character:\n{out}"
    );

    let mut bots = ArborProcess::start(&[
        "bots",
        "2",
        "--connect",
        &addr,
        "--insecure",
        "--seconds",
        "4",
        "--client-scripts",
    ]);
    let ok = bots.finish();
    let out = bots.log();
    assert!(ok, "arbor bots failed:\n{out}");
    assert!(out.contains("client scripts: 1.0 running per bot") && out.contains(" 0 errors"), "{out}");

    // The server ran no client script: the Hud's lines appear only on the clients.
    server.stop_within(Duration::from_secs(20));
    let log = server.log();
    assert!(!log.contains("Workspace.Hud"), "the server ran the client script:\n{log}");
}
