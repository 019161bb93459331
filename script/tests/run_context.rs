//! Where scripts run: a Script's `RunContext` attribute (`docs/scripting.md`, "Where
//! scripts run"). The server's host starts `Server` (the default) and `Both` scripts, a
//! client's host `Client` and `Both` scripts; a bad value is logged and the script does not
//! start on either.

use arbor_core::{Arena, AttributeValue, Class, RUN_CONTEXT_ATTRIBUTE};
use arbor_script::{HostConfig, ScriptHost};
use arbor_sim::{SimConfig, Simulation};
use std::cell::RefCell;
use std::rc::Rc;

mod common;

/// A place with one script per run context (and one unmarked, one with a bad value), each
/// printing from its chunk and its `Update`.
fn place() -> Arena {
    let mut arena = Arena::new();
    let ws = arena.workspace();
    for (name, context) in [
        ("Plain", None),
        ("Server", Some("Server")),
        ("Client", Some("Client")),
        ("Both", Some("Both")),
        ("Bad", Some("Anywhere")),
    ] {
        let s = arena.create(Class::Script, name, Some(ws)).unwrap();
        arena.set_script_source(s, "print('start')\nfunction Update(dt) print('update') end").unwrap();
        if let Some(context) = context {
            arena
                .set_attribute(s, RUN_CONTEXT_ATTRIBUTE, Some(AttributeValue::String(context.into())))
                .unwrap();
        }
    }
    arena
}

/// The log after one tick of `place` on a server host or a client host.
fn one_tick(client: bool) -> Vec<String> {
    let mut arena = place();
    let host = if client {
        common::client_host(&mut arena, HostConfig::default())
    } else {
        ScriptHost::new(&arena, HostConfig::default()).unwrap()
    };
    let host = Rc::new(RefCell::new(host));
    let mut sim = Simulation::new(arena, SimConfig::default()).unwrap();
    sim.add_hooks(host.clone());
    sim.run(1);
    host.borrow().log().into_iter().map(|l| l.text).collect()
}

const BAD: &str = r#"Workspace.Bad: RunContext must be "Server", "Client" or "Both", not "Anywhere"; the script does not start"#;

#[test]
fn the_server_runs_server_and_both_scripts() {
    assert_eq!(
        one_tick(false),
        [
            "Workspace.Plain: start",
            "Workspace.Server: start",
            "Workspace.Both: start",
            BAD,
            "Workspace.Plain: update",
            "Workspace.Server: update",
            "Workspace.Both: update",
        ]
    );
}

#[test]
fn a_client_runs_client_and_both_scripts() {
    assert_eq!(
        one_tick(true),
        [
            "Workspace.Client: start",
            "Workspace.Both: start",
            BAD,
            "Workspace.Client: update",
            "Workspace.Both: update"
        ]
    );
}

#[test]
fn server_only_calls_raise_in_a_client_script_naming_the_rule() {
    let mut arena = Arena::new();
    let ws = arena.workspace();
    let s = arena.create(Class::Script, "Hud", Some(ws)).unwrap();
    let source = r#"
        for _, call in {
            function() game.Store.open('S') end,
            function() game.CloudStore.open('S') end,
            function() game.Session.Kick(1) end,
            function() game.Session.BindCharacter(1, workspace) end,
            function() game.Session.Damage(workspace, 1) end,
            function() game.Behaviors.Send(workspace, 'Open') end,
        } do
            local ok, e = pcall(call)
            print(ok, (string.gsub(e, '^[^:]+:%d+: ', '')))
        end
    "#;
    arena.set_script_source(s, source).unwrap();
    arena.set_attribute(s, RUN_CONTEXT_ATTRIBUTE, Some(AttributeValue::String("Client".into()))).unwrap();
    let host = Rc::new(RefCell::new(common::client_host(&mut arena, HostConfig::default())));
    let mut sim = Simulation::new(arena, SimConfig::default()).unwrap();
    sim.add_hooks(host.clone());
    sim.run(1);
    let log: Vec<String> = host.borrow().log().into_iter().map(|l| l.text).collect();
    assert_eq!(
        log,
        [
            "Workspace.Hud: false game.Store is server-only",
            "Workspace.Hud: false game.CloudStore is server-only",
            "Workspace.Hud: false game.Session.Kick is server-only",
            "Workspace.Hud: false game.Session.BindCharacter is server-only",
            "Workspace.Hud: false game.Session.Damage is server-only",
            "Workspace.Hud: false game.Behaviors.Send is server-only",
        ]
    );
}
