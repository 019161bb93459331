//! The seeds' own examples that once broke, run as Luau in places (issue 16): container
//! moves reaching physics, signals of destroyed instances, lifetimes ending on their tick,
//! the disabled notice, and the warnings and errors a new user meets.

mod common;

use arbor_core::{NodeFlags, Vec3};
use common::{Place, run_main};

#[test]
fn a_script_moving_a_folder_moves_its_platform_for_physics() {
    let mut place = Place::new();
    let ws = place.workspace();
    let stage = place.folder("Stage", ws);
    let platform = place.part("Platform", stage);
    place.arena.set_size(platform, Vec3::new(20.0, 2.0, 20.0)).unwrap();
    place.arena.set_flag(platform, NodeFlags::ANCHORED, true).unwrap();
    let ball = place.part("Ball", ws);
    place.arena.set_flag(ball, NodeFlags::ANCHORED, true).unwrap();
    place.arena.set_position(ball, Vec3::new(100.0, 10.0, 0.0)).unwrap();
    place.script(
        "Mover",
        ws,
        r#"
        local ticks = 0
        function Update()
            ticks += 1
            if ticks == 2 then
                workspace.Stage.Position = Vector3.new(100, 0, 0)
                workspace.Ball.Shape = "Ball"
                workspace.Ball.Anchored = false
            elseif ticks == 150 then
                print("ball y", math.floor(workspace.Ball.Position.Y + 0.5))
            end
        end
        "#,
    );
    let mut running = place.start();
    running.tick(150);
    assert_eq!(running.log(), vec!["Workspace.Mover: ball y 3"], "the ball must land on the moved platform");
}

#[test]
fn a_destroyed_instances_signal_raises_and_never_runs_a_handler_again() {
    let log = run_main(
        |place| {
            place.part("Door", place.workspace());
        },
        r#"
        local door = workspace.Door
        local sig = door:GetSignal("Opened")
        sig:Connect(function() print("handler ran") end)
        sig:Emit()
        door:Destroy()
        print(pcall(sig.Emit, sig))
        print(pcall(sig.Connect, sig, function() end))
        print(pcall(door.GetSignal, door, "Opened"))
        local ticks = 0
        function Update()
            ticks += 1
            if ticks == 2 then print("later", pcall(sig.Emit, sig)) end
        end
        "#,
        3,
    );
    assert_eq!(
        log,
        vec![
            "Workspace.Main: handler ran",
            "Workspace.Main: false attempt to index a destroyed Instance",
            "Workspace.Main: false attempt to index a destroyed Instance",
            "Workspace.Main: false attempt to index a destroyed Instance",
            "Workspace.Main: later false attempt to index a destroyed Instance",
        ]
    );
}

#[test]
fn a_handler_that_destroys_the_target_stops_the_handlers_after_it() {
    let log = run_main(
        |place| {
            place.part("Bomb", place.workspace());
        },
        r#"
        local bomb = workspace.Bomb
        local sig = bomb:GetSignal("Boom")
        sig:Connect(function() print("first") bomb:Destroy() end)
        sig:Connect(function() print("second") end)
        sig:Emit()
        "#,
        1,
    );
    assert_eq!(log, vec!["Workspace.Main: first"]);
}

#[test]
fn a_quarter_second_lifetime_ends_at_tick_15_and_scripts_may_only_read_it() {
    let mut place = Place::new();
    let ws = place.workspace();
    let bullet = place.part("Bullet", ws);
    place.script(
        "Watch",
        ws,
        r#"
        local bullet = workspace.Bullet
        local life = bullet:GetComponent("Lifetime")
        print("remaining", life.Remaining)
        print(pcall(function() life.Remaining = 10 end))
        print(pcall(bullet.RemoveComponent, bullet, "Lifetime"))
        print(pcall(workspace.AddComponent, workspace, "Lifetime", { Remaining = 1 }))
        local ticks = 0
        function Update()
            ticks += 1
            if workspace:FindFirstChild("Bullet") == nil then
                print("gone before tick", ticks)
                Update = nil
            end
        end
        "#,
    );
    let mut running = place.start();
    running.sim.lifetimes().clone().set(&mut running.sim.arena, bullet, 0.25).unwrap();
    running.tick(20);
    let owned = "false 'Lifetime' belongs to the engine: scripts may read it but not add, write or remove it";
    let log = running.log();
    assert_eq!(log[0], "Workspace.Watch: remaining 0.25");
    assert!(log[1].ends_with(owned.trim_start_matches("false ")) && log[1].contains("false"), "{log:?}");
    assert_eq!(log[2], format!("Workspace.Watch: {owned}"));
    assert_eq!(log[3], format!("Workspace.Watch: {owned}"));
    assert_eq!(log[4], "Workspace.Watch: gone before tick 16", "{log:?}");
}

#[test]
fn hierarchy_errors_name_paths_and_say_destroy_for_a_destroy() {
    let log = run_main(
        |place| {
            let a = place.folder("A", place.workspace());
            place.folder("B", a);
        },
        r#"
        print(pcall(function() workspace:Destroy() end))
        print(pcall(function() workspace.Parent = nil end))
        print(pcall(function() workspace.A.Parent = workspace.A.B end))
        "#,
        1,
    );
    let p = "Workspace.Main";
    assert_eq!(
        log,
        vec![
            format!("{p}: false {p}:2: Destroy: Workspace is locked and cannot be destroyed"),
            format!("{p}: false {p}:3: Parent: the Parent property of Workspace is locked"),
            format!(
                "{p}: false {p}:4: Parent: setting the parent of Workspace.A to Workspace.A.B would create a cycle"
            ),
        ]
    );
}

#[test]
fn a_script_outside_the_workspace_is_named_once_at_load() {
    let mut place = Place::new();
    let root = place.arena.root();
    let storage = place.arena.create(arbor_core::Class::Folder, "Storage", Some(root)).unwrap();
    place.script("Idle", storage, "print('never')");
    let ws = place.workspace();
    place.script("Live", ws, "print('runs')");
    let mut running = place.start();
    running.tick(3);
    assert_eq!(
        running.log(),
        vec![
            "Storage.Idle: warning: this script is outside the Workspace and does not run; scripts run only \
             under the Workspace (a copy placed there runs)",
            "Workspace.Live: runs",
        ]
    );
    assert_eq!(running.host.borrow().error_count(), 0);
}

#[test]
fn every_kind_of_script_error_is_counted() {
    let mut place = Place::new();
    let ws = place.workspace();
    place.script("Syntax", ws, "local = 1");
    place.script("Init", ws, "error('init')");
    place.script("Runtime", ws, "function Update() error('tick') end");
    let mut running = place.start();
    running.tick(2);
    running.take_log();
    assert_eq!(running.host.borrow().error_count(), 4, "one load, one init, two runtime errors");
}

#[test]
fn a_handler_that_emits_its_own_signal_twice_stops_at_the_ticks_share() {
    // Each handler has a budget of its own, so the cascade (2^32 handlers deep) is bounded by
    // the tick's share: once it is used, Emit runs no handler, and the next tick goes on.
    let log = run_main(
        |_| {},
        r#"
        local sig = workspace:GetSignal("Loop")
        local calls, last = 0, nil
        sig:Connect(function()
            calls += 1
            for i = 1, 2 do
                local ok, err = pcall(sig.Emit, sig)
                if not ok then last = err end
            end
        end)
        local ticks = 0
        function Update()
            ticks += 1
            if ticks == 1 then sig:Emit() end
            if ticks == 2 then print(calls > 1000, last) end
            if ticks == 3 then print("still ticking") end
        end
        "#,
        3,
    );
    assert!(log[0].starts_with("Workspace.Main: true "), "{log:?}");
    assert!(
        log[0].contains(
            "Emit: the scripts of this tick have used their share of it; no handler runs until the next tick"
        ),
        "{log:?}"
    );
    assert_eq!(log.last().map(String::as_str), Some("Workspace.Main: still ticking"), "{log:?}");
}

#[test]
fn a_runaway_handler_aborts_itself_and_not_its_emitter() {
    // 002: "each signal invocation dispatched across threads gets its own fresh budget". The
    // handler once drew on the top-level chunk's budget and took the chunk down with it.
    let log = run_main(
        |_| {},
        r#"
        local sig = workspace:GetSignal("Spin")
        sig:Connect(function() while true do end end)
        sig:Emit()
        print("the chunk goes on")
        function Update() print("and runs its hooks") end
        "#,
        1,
    );
    let p = "Workspace.Main";
    assert_eq!(log.len(), 3, "{log:?}");
    assert!(
        log[0].starts_with(&format!("{p}: error: {p}:3: script exceeded its instruction budget")),
        "{log:?}"
    );
    assert_eq!(&log[1..], [format!("{p}: the chunk goes on"), format!("{p}: and runs its hooks")]);
}

#[test]
fn a_handler_has_a_full_budget_whatever_its_emitter_has_left() {
    // The emitter spends about 900k of its 1M units, then emits; the handler spends 500k of
    // its own. Both finish: neither draws on the other.
    let log = run_main(
        |_| {},
        r#"
        local function spend(n) local x = 0 for i = 1, n do x += 1 end return x end
        local sig = workspace:GetSignal("Work")
        sig:Connect(function() spend(250000) print("handler done") end)
        spend(450000)
        sig:Emit()
        print("emitter done")
        "#,
        1,
    );
    let p = "Workspace.Main";
    assert_eq!(log, vec![format!("{p}: handler done"), format!("{p}: emitter done")]);
}

#[test]
fn scripts_cannot_rename_the_data_model_or_the_workspace() {
    let log = run_main(
        |_| {},
        r#"
        print(pcall(function() workspace.Name = "Elsewhere" end))
        print(pcall(function() workspace.Parent.Name = "Game2" end))
        print(workspace:GetFullName())
        "#,
        1,
    );
    let p = "Workspace.Main";
    assert_eq!(
        log,
        vec![
            format!("{p}: false {p}:2: Name: the Workspace cannot be renamed"),
            format!("{p}: false {p}:3: Name: the DataModel cannot be renamed"),
            format!("{p}: Workspace"),
        ]
    );
}

#[test]
fn a_doubling_clone_loop_stops_at_the_places_instance_cap() {
    // 40 doublings once aborted the server at 6.2 GB.
    let log = run_main(
        |place| {
            let ws = place.workspace();
            place.folder("F", ws);
            let cap = arbor_core::AttributeValue::Number(10_000.0);
            place.arena.set_attribute(ws, arbor_core::settings::MAX_INSTANCES.name, Some(cap)).unwrap();
        },
        r#"
        local f = workspace.F
        local ok, err = pcall(function() for i = 1, 40 do f:Clone().Parent = f end end)
        print(ok, err)
        print(#f:GetChildren() > 5 and #f:GetChildren() < 20)
        function Update() end
        "#,
        2,
    );
    assert_eq!(log.len(), 2, "{log:?}");
    assert!(
        log[0].ends_with("the place is full: it holds its maximum of 10000 instances (live and destroyed)"),
        "{log:?}"
    );
    assert_eq!(log[1], "Workspace.Main: true");
}

#[test]
fn an_error_value_with_tostring_is_reported_by_its_text() {
    let log = run_main(
        |_| {},
        r#"
        local E = setmetatable({}, { __tostring = function() return "custom failure" end })
        local sig = workspace:GetSignal("S")
        sig:Connect(function() error(E) end)
        function Update() sig:Emit() error(E) end
        "#,
        1,
    );
    assert_eq!(log.len(), 2, "the handler's error and Update's: {log:?}");
    assert!(log.iter().all(|l| l.contains("custom failure")), "{log:?}");
}

#[test]
fn an_instance_holds_a_bounded_number_of_attributes() {
    let log = run_main(
        |_| {},
        r#"
        local ok, err = pcall(function() for i = 1, 300000 do self:SetAttribute("a" .. i, i) end end)
        print(ok, err)
        self:SetAttribute("a1", 5)
        print(self:GetAttribute("a1"), self:GetAttribute("a4096"), self:GetAttribute("a4097"))
        "#,
        1,
    );
    let p = "Workspace.Main";
    assert_eq!(
        log,
        vec![
            format!(
                "{p}: false {p}:2: Workspace already holds 4096 attributes, the most one instance may hold"
            ),
            format!("{p}: 5 4096 nil"),
        ]
    );
}

#[test]
fn emitting_a_payload_of_30k_subtables_is_checked_in_linear_time() {
    // The purity check kept a list of seen tables: 200,000 subtables took 3.8 s (release).
    // Building 200,000 now costs more than one entry's budget; 30,000 fit.
    let log = run_main(
        |_| {},
        r#"
        local sig = workspace:GetSignal("Big")
        sig:Connect(function(t) print("got", #t) end)
        local t = table.create(30000)
        for i = 1, 30000 do t[i] = { i } end
        sig:Emit(t)
        "#,
        1,
    );
    assert_eq!(log, vec!["Workspace.Main: got 30000"]);
}
