//! ECS systems registered by scripts: top-level registration, queries (with, without,
//! under, detached subtrees skipped), dispatch order, a fresh budget per dispatch, the error
//! counter, reload and retirement, and server-only dispatch.

mod common;

use arbor_script::HostConfig;
use common::{Place, run_one};

const REGEN: &str = r#"
    game.Components.Define("Health", { Value = "number" })
    game.Components.Define("Dead", {})
    game.Systems.Register("Regen", { with = { "Health" }, without = { "Dead" } }, function(dt, entities)
        for _, e in entities do
            local h = e:GetComponent("Health")
            h.Value += 60 * dt
        end
        print("regen", #entities)
    end)
"#;

#[test]
fn a_system_runs_every_tick_over_its_matches() {
    let mut place = Place::new();
    let ws = place.workspace();
    let a = place.part("A", ws);
    let b = place.part("B", ws);
    let folder = place.folder("Storage", place.arena.root());
    let stored = place.part("Stored", folder);
    place.script("Regen", ws, REGEN);
    place.script(
        "Setup",
        ws,
        r#"
        workspace.A:AddComponent("Health", { Value = 10 })
        workspace.B:AddComponent("Health", { Value = 20 })
        workspace.B:AddComponent("Dead")
        game.Workspace.Parent.Storage.Stored:AddComponent("Health", { Value = 0 })
        "#,
    );
    let mut running = place.start();
    running.tick(3);
    assert_eq!(running.log(), vec!["Workspace.Regen: regen 1"; 3]);
    let health = running.sim.arena.components().component("Health").unwrap();
    let value = |id| running.sim.arena.field(id, health, "Value");
    assert_eq!(value(a), Some(arbor_core::components::FieldValue::F64(13.0)), "dt = 1/60, three ticks");
    assert_eq!(value(b), Some(arbor_core::components::FieldValue::F64(20.0)), "without Dead");
    assert_eq!(value(stored), Some(arbor_core::components::FieldValue::F64(0.0)), "outside the Workspace");
}

#[test]
fn matches_follow_membership_and_topology() {
    let mut place = Place::new();
    let ws = place.workspace();
    place.part("A", ws);
    place.script("Regen", ws, REGEN);
    place.script(
        "Driver",
        ws,
        r#"
        local a = workspace.A
        a:AddComponent("Health")
        local t = 0
        function Update()
            t += 1
            if t == 2 then a.Parent = nil end
            if t == 3 then a.Parent = workspace; a:Clone().Parent = workspace end
            if t == 4 then a:AddComponent("Dead") end
            if t == 5 then workspace:AddComponent("Health") end
        end
        "#,
    );
    let mut running = place.start();
    running.tick(6);
    let counts: Vec<String> = running.log().into_iter().filter(|l| l.contains("regen")).collect();
    assert_eq!(
        counts,
        vec![
            "Workspace.Regen: regen 1",
            "Workspace.Regen: regen 2",
            "Workspace.Regen: regen 1",
            "Workspace.Regen: regen 1",
            "Workspace.Regen: regen 1",
        ],
        "detached: not called; clone joins; Dead leaves; the Workspace itself is not under itself"
    );
}

#[test]
fn systems_run_in_start_then_registration_order_after_update() {
    let mut place = Place::new();
    let ws = place.workspace();
    let src = |tag: &str| {
        format!(
            r#"
            game.Components.Define("Tag", {{}})
            self:AddComponent("Tag")
            function Update() print("{tag} update") end
            game.Systems.Register("{tag}1", {{ with = {{ "Tag" }} }}, function() print("{tag} system 1") end)
            game.Systems.Register("{tag}2", {{ with = {{ "Tag" }} }}, function() print("{tag} system 2") end)
            function PhysicsUpdate() print("{tag} physics") end
            "#
        )
    };
    let a = place.part("A", ws);
    let b = place.part("B", ws);
    place.script("S", a, &src("a"));
    place.script("S", b, &src("b"));
    let mut running = place.start();
    running.tick(1);
    let log: Vec<String> =
        running.log().into_iter().map(|l| l.split(": ").nth(1).unwrap().to_owned()).collect();
    assert_eq!(
        log,
        vec![
            "a update",
            "b update",
            "a system 1",
            "a system 2",
            "b system 1",
            "b system 2",
            "a physics",
            "b physics"
        ]
    );
    assert_eq!(running.host.borrow().system_count(), 4);
}

#[test]
fn registration_only_at_the_top_level() {
    let log = run_one(
        r#"
        game.Components.Define("Tag", {})
        function Update()
            print(pcall(game.Systems.Register, "Late", { with = { "Tag" } }, function() end))
        end
        print(pcall(game.Systems.Register, "Empty", {}, function() end))
        print(pcall(game.Systems.Register, "Typo", { with = { "Tga" } }, function() end))
        print(pcall(game.Systems.Register, "Odd", { with = { "Tag" }, sorted = true }, function() end))
        "#,
        1,
    );
    let p = "Workspace.Holder.Main";
    assert_eq!(
        log,
        vec![
            format!("{p}: false system 'Empty' needs at least one component in 'with'"),
            format!("{p}: false no component named 'Tga'"),
            format!("{p}: false a system's query has no option 'sorted'"),
            format!("{p}: false systems can only be registered at the top level of a script"),
        ]
    );
}

#[test]
fn each_dispatch_gets_a_fresh_budget_and_errors_count() {
    let mut place = Place::new();
    let ws = place.workspace();
    let holder = place.part("Holder", ws);
    let s = place.script(
        "Busy",
        holder,
        r#"
        game.Components.Define("Tag", {})
        self:AddComponent("Tag")
        for _, name in { "One", "Two" } do
            game.Systems.Register(name, { with = { "Tag" } }, function()
                for i = 1, 600000 do end
                print(name)
            end)
        end
        game.Systems.Register("Endless", { with = { "Tag" } }, function()
            pcall(function() while true do end end)
            print("unreachable")
        end)
        "#,
    );
    let mut running = place.start();
    running.tick(1);
    let log = running.log();
    assert_eq!(log[0], "Workspace.Holder.Busy: One");
    assert_eq!(log[1], "Workspace.Holder.Busy: Two");
    assert!(log[2].ends_with("script exceeded its instruction budget"), "{log:?}");
    running.tick(5);
    assert_eq!(
        running.host.borrow().is_disabled(s),
        Some(false),
        "the successes between errors reset the counter"
    );
}

#[test]
fn five_consecutive_system_errors_disable_the_instance() {
    let mut place = Place::new();
    let ws = place.workspace();
    let holder = place.part("Holder", ws);
    let s = place.script(
        "Faulty",
        holder,
        r#"
        game.Components.Define("Tag", {})
        self:AddComponent("Tag")
        game.Systems.Register("Broken", { with = { "Tag" } }, function(dt, es) error("bad " .. #es) end)
        "#,
    );
    let mut running = place.start();
    running.tick(7);
    let log = running.log();
    assert_eq!(log.len(), 6, "{log:?}");
    assert!(
        log[..5].iter().all(|l| l == "Workspace.Holder.Faulty: error: Workspace.Holder.Faulty:4: bad 1"),
        "{log:?}"
    );
    assert_eq!(log[5], "Workspace.Holder.Faulty: 'Faulty' disabled after 5 consecutive errors");
    assert_eq!(running.host.borrow().is_disabled(s), Some(true));
    assert_eq!(
        running.reload(s, &running.sim.arena.script_source(s).unwrap().replace("error(", "print(")),
        Ok(1)
    );
    running.take_log();
    running.tick(1);
    assert_eq!(running.log(), vec!["Workspace.Holder.Faulty: bad 1"], "a reload revives the systems");
}

#[test]
fn reload_replaces_systems_and_rollback_keeps_them() {
    let mut place = Place::new();
    let ws = place.workspace();
    let v1 = r#"
        game.Components.Define("Tag", {})
        self:AddComponent("Tag")
        game.Systems.Register("V", { with = { "Tag" } }, function() print("v1") end)
    "#;
    let holder = place.part("Holder", ws);
    let s = place.script("Sys", holder, v1);
    let mut running = place.start();
    running.tick(1);
    let v2 = r#"
        game.Components.Define("Tag", {})
        game.Systems.Register("V", { with = { "Tag" } }, function() print("v2") end)
    "#;
    assert_eq!(running.reload(s, v2), Ok(1));
    assert!(
        running
            .reload(s, "game.Systems.Register('W', { with = { 'Tag' } }, function() end) error('no')")
            .is_err()
    );
    running.tick(1);
    assert_eq!(running.log(), vec!["Workspace.Holder.Sys: v1", "Workspace.Holder.Sys: v2"]);
    assert_eq!(running.host.borrow().system_count(), 1);
    running.sim.arena.destroy(s).unwrap();
    running.tick(1);
    assert_eq!(running.host.borrow().system_count(), 0, "retired with its script");
}

#[test]
fn systems_never_run_on_a_client() {
    let mut place = Place::new();
    let ws = place.workspace();
    place.script(
        "Shared",
        ws,
        r#"
        game.Components.Define("Tag", {})
        self:AddComponent("Tag")
        game.Systems.Register("S", { with = { "Tag" } }, function() print("system") end)
        print(pcall(game.Systems.Register, "Bad", {}, function() end))
        "#,
    );
    let mut running = place.start_with(HostConfig { client: true, ..Default::default() });
    running.tick(2);
    assert_eq!(
        running.log(),
        vec!["Workspace.Shared: false system 'Bad' needs at least one component in 'with'"]
    );
    assert_eq!(running.host.borrow().system_count(), 0);
}
