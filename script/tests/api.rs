//! The Instance API from Luau: properties, attributes, hierarchy, `Clone`, `Destroy`,
//! `Vector3`, prefabs, handles, signals, platform ownership, and the sandbox.

mod common;

use common::{Place, run_one};

const P: &str = "Workspace.Holder.Main";

fn lines(log: &[String]) -> Vec<&str> {
    log.iter().map(|l| l.strip_prefix(&format!("{P}: ")).unwrap_or(l)).collect()
}

#[test]
fn properties_read_and_write() {
    let log = run_one(
        r#"
        self.Name = "Crate"
        self.Position = Vector3.new(1, 2, 3)
        self.Size = Vector3.new(4, 4, 4)
        self.Anchored = true
        self.Transparency = 0.5
        self.Shape = "Ball"
        print(self.Name, self.Position, self.Size.Magnitude > 6, self.Anchored, self.Transparency, self.Shape)
        print(self.Parent.Name, self.Parent.ClassName, self.Parent == workspace)
        print(pcall(function() self.Position = "up" end))
        print(pcall(function() return self.Nonsense end))
        "#,
        1,
    );
    assert_eq!(
        lines(&log),
        vec![
            "Crate 1, 2, 3 true true 0.5 Ball",
            "Workspace Workspace true",
            &format!("false {P}:10: invalid value for Position: expected Vector3, got string"),
            &format!("false {P}:11: Nonsense is not a valid member of Part \"Workspace.Crate\""),
        ]
    );
}

#[test]
fn vector3_conveniences() {
    let log = run_one(
        r#"
        local a = Vector3.new(3, 4, 0)
        print(a.Magnitude, a.X, a.y, a.Unit, a + Vector3.one, a * 2, -a, a == Vector3.new(3, 4, 0))
        print(a:Dot(Vector3.xAxis), a:Cross(Vector3.zAxis), Vector3.zero)
        "#,
        1,
    );
    assert_eq!(
        lines(&log),
        vec![
            "5 3 4 0.6000000238418579, 0.800000011920929, 0 4, 5, 1 6, 8, 0 -3, -4, -0 true",
            "3 4, -3, 0 0, 0, 0"
        ]
    );
}

#[test]
fn attributes_round_trip_all_types() {
    let log = run_one(
        r#"
        self:SetAttribute("Hp", 10)
        self:SetAttribute("Team", "Red")
        self:SetAttribute("Dir", Vector3.new(0, 1, 0))
        self:SetAttribute("Alive", true)
        self:SetAttribute("Home", workspace)
        print(self:GetAttribute("Hp"), self:GetAttribute("Team"), self:GetAttribute("Dir"), self:GetAttribute("Alive"), self:GetAttribute("Home") == workspace)
        self:SetAttribute("Hp", nil)
        print(self:GetAttribute("Hp"), self:GetAttribute("Missing"))
        print(pcall(function() self:SetAttribute("F", print) end))
        "#,
        1,
    );
    assert_eq!(
        lines(&log),
        vec![
            "10 Red 0, 1, 0 true true",
            "nil nil",
            &format!(
                "false {P}:10: attributes hold booleans, numbers, strings, Vector3s and Instances, not function"
            ),
        ]
    );
}

#[test]
fn hierarchy_find_children_clone_and_destroy() {
    let log = run_one(
        r#"
        local model = workspace:FindFirstChild("Holder")
        local copy = model:Clone()
        print(copy.Parent, copy.Name, #copy:GetChildren())
        copy.Parent = workspace
        copy.Name = "Copy"
        print(#workspace:GetChildren(), workspace:FindFirstChild("Copy") == copy, workspace:FindFirstChild("Main", true) ~= nil)
        copy:Destroy()
        copy:Destroy() -- idempotent
        print(pcall(function() return copy.Name end))
        print(pcall(function() copy.Parent = workspace end))
        print(pcall(function() self.Parent = copy end))
        print(workspace:FindFirstChild("Copy"), #workspace:GetChildren())
        "#,
        1,
    );
    assert_eq!(
        lines(&log),
        vec![
            "nil Holder 1",
            "2 true true",
            &format!("false {P}:10: attempt to index a destroyed Instance"),
            &format!("false {P}:11: attempt to index a destroyed Instance"),
            &format!("false {P}:12: Parent: the new parent Copy is destroyed"),
            "nil 1",
        ]
    );
}

#[test]
fn reparent_errors_use_the_seed_messages() {
    let mut place = Place::new();
    let ws = place.workspace();
    let core = place.folder("CoreGui", ws);
    let owned = place.part("Owned", core);
    place.arena.set_platform_owned(core, true).unwrap();
    place.script(
        "Main",
        ws,
        r#"
        local core = workspace.CoreGui
        print(pcall(function() core.Parent = nil end))
        print(pcall(function() core.Owned.Parent = workspace end))
        print(pcall(function() script.Parent = core end))
        print(pcall(function() core:Destroy() end))
        print(pcall(function() workspace.Parent = nil end))
        "#,
    );
    let mut running = place.start();
    running.tick(1);
    let log = running.log();
    let p = "Workspace.Main";
    assert_eq!(
        log,
        vec![
            format!("{p}: false {p}:3: Parent: the entity belongs to the platform"),
            format!("{p}: false {p}:4: Parent: the entity belongs to the platform"),
            format!("{p}: false {p}:5: Parent: the new parent belongs to the platform"),
            format!("{p}: false {p}:6: Destroy: the entity belongs to the platform"),
            format!("{p}: false {p}:7: Parent: the Parent property of Workspace is locked"),
        ]
    );
    let _ = owned;
}

#[test]
fn prefabs_spawn_copies_templates_into_the_world() {
    let mut place = Place::new();
    let root = place.arena.root();
    let prefabs = place.arena.create(arbor_core::Class::Folder, "Prefabs", Some(root)).unwrap();
    let crate_ = place.arena.create(arbor_core::Class::Model, "Crate", Some(prefabs)).unwrap();
    place.arena.create(arbor_core::Class::Part, "Lid", Some(crate_)).unwrap();
    let ws = place.workspace();
    place.script(
        "Spawner",
        ws,
        r#"
        local c = game.Prefabs.Spawn("Crate")
        print(c.Name, c.Parent == workspace, c.Lid.ClassName)
        print(game.Prefabs.Spawn("Nope"))
        "#,
    );
    let mut running = place.start();
    running.tick(1);
    assert_eq!(running.log(), vec!["Workspace.Spawner: Crate true Part", "Workspace.Spawner: nil"]);
}

#[test]
fn handles_resolve_after_rearrangement() {
    let mut place = Place::new();
    let ws = place.workspace();
    let lobby = place.folder("Lobby", ws);
    let door = place.part("Door", lobby);
    place.arena.set_handle(door, Some("LobbyDoor")).unwrap();
    place.script(
        "Main",
        ws,
        r#"
        workspace.Lobby.Door.Parent = workspace
        workspace.Lobby:Destroy()
        print(handles.LobbyDoor.Name, handles.LobbyDoor.Parent == workspace, handles.Nope)
        print(pcall(function() handles.X = 1 end))
        "#,
    );
    let mut running = place.start();
    running.tick(1);
    let log = running.log();
    assert_eq!(log[0], "Workspace.Main: Door true nil");
    assert!(log[1].starts_with("Workspace.Main: false"), "{log:?}");
}

#[test]
fn signals_run_in_order_with_pure_data_only() {
    let log = run_one(
        r#"
        local sig = self:GetSignal("Hit")
        sig:Connect(function(a, b) print("first", a, b.k) end)
        sig:Connect(function(a) print("second", a) ; self:SetAttribute("Seen", a) end)
        sig:Connect(function() error("handler broke") end)
        sig:Connect(function() print("after the error", self:GetAttribute("Seen")) end)
        sig:Emit(7, { k = "v" })
        print(pcall(function() sig:Emit(function() end) end))
        print(pcall(function() sig:Emit({ nested = { coroutine.create(print) } }) end))
        self:GetSignal("Lonely"):Emit(1)
        "#,
        1,
    );
    assert_eq!(
        lines(&log),
        vec![
            "first 7 v",
            "second 7",
            &format!("error: {P}:5: handler broke"),
            "after the error 7",
            &format!("false {P}:8: Emit accepts pure data only: argument 1 is a function"),
            &format!("false {P}:9: Emit accepts pure data only: argument 1 is a coroutine"),
            "warning: signal 'Lonely' of Workspace.Holder has no listeners",
        ]
    );
}

#[test]
fn handler_errors_do_not_count_towards_disabling() {
    let log = run_one(
        r#"
        local sig = self:GetSignal("S")
        sig:Connect(function() error("x") end)
        function Update() sig:Emit() end
        "#,
        7,
    );
    assert_eq!(log.len(), 7);
    assert!(!log.iter().any(|l| l.contains("disabled")));
}

#[test]
fn connections_go_when_the_connecting_script_retires() {
    let mut place = Place::new();
    let ws = place.workspace();
    let listener_holder = place.part("Listener", ws);
    place.script("L", listener_holder, "workspace:GetSignal('Ping'):Connect(function() print('pong') end)");
    place.script(
        "E",
        ws,
        "local n = 0\nfunction Update() n += 1 if n <= 2 then workspace:GetSignal('Ping'):Emit() end end",
    );
    let mut running = place.start();
    running.tick(1);
    running.sim.arena.destroy(listener_holder).unwrap();
    running.tick(2);
    let log = running.log();
    assert_eq!(log[0], "Workspace.Listener.L: pong");
    assert_eq!(log[1], "Workspace.E: warning: signal 'Ping' of Workspace has no listeners");
    assert_eq!(running.host.borrow().connection_count(), 0);
}

#[test]
fn sandbox_escapes_are_refused() {
    let log = run_one(
        r#"
        print(getfenv, setfenv, load, loadstring, require, debug, os, collectgarbage, newproxy)
        print(pcall(function() setmetatable(string, {}) end))
        print(pcall(function() string.upper = nil end))
        print(pcall(function() getmetatable("").__index = {} end))
        print(pcall(function() getmetatable(self).__index = nil end))
        print(pcall(function() Vector3.new = nil end))
        print(pcall(function() return #string.rep("x", 2^29) end))
        local t = {}
        for i = 1, 1e9 do t[i] = i end
        "#,
        1,
    );
    let l = lines(&log);
    assert_eq!(l[0], "nil nil nil nil nil nil nil nil nil");
    for line in &l[1..6] {
        assert!(line.starts_with("false"), "refused: {line}");
    }
    assert!(l[1].contains("readonly") && l[2].contains("readonly") && l[5].contains("readonly"), "{l:?}");
    assert!(l[6].starts_with("false") && l[6].contains("not enough memory"), "memory bomb bounded: {}", l[6]);
    assert_eq!(
        l[7],
        "init error in Workspace.Holder.Main: Workspace.Holder.Main:10: script exceeded its instruction budget",
        "an endless table fill is bounded by the budget"
    );
}

#[test]
fn scripts_do_not_see_each_others_globals() {
    let mut place = Place::new();
    let ws = place.workspace();
    place.script("A", ws, "shared = 'from A'");
    place.script("B", ws, "print(shared, _G and _G.shared)");
    let mut running = place.start();
    running.tick(1);
    assert_eq!(running.log(), vec!["Workspace.B: nil nil"]);
}

#[test]
fn a_client_destroys_its_own_objects_but_not_replicated_ones() {
    use arbor_core::{Class, Id};
    use arbor_script::HostConfig;
    // A replica's arena: it mints client-local ids, and holds replicated instances under the
    // server's ids.
    let mut arena = arbor_core::Arena::with_config(arbor_core::ArenaConfig {
        id_range: arbor_core::IdRange::ClientLocal,
        ..Default::default()
    });
    let ws = arena.workspace();
    arena.insert_with_id(Id(10), Class::Part, "Debris", Some(ws)).unwrap();
    let s = arena.create(Class::Script, "C", Some(ws)).unwrap();
    let source = "local d = workspace.Debris:Clone()\n\
                  print(pcall(function() workspace.Debris:Destroy() end))\n\
                  print(pcall(function() d:Destroy() end))";
    arena.set_script_source(s, source).unwrap();
    let client = arbor_core::AttributeValue::String("Client".into());
    arena.set_attribute(s, arbor_core::RUN_CONTEXT_ATTRIBUTE, Some(client)).unwrap();
    let host =
        std::rc::Rc::new(std::cell::RefCell::new(common::client_host(&mut arena, HostConfig::default())));
    let mut sim = arbor_sim::Simulation::new(arena, arbor_sim::SimConfig::default()).unwrap();
    sim.add_hooks(host.clone());
    sim.run(1);
    let log: Vec<String> = host.borrow().log().into_iter().map(|l| l.text).collect();
    assert_eq!(
        log,
        ["Workspace.C: false Workspace.C:2: Destroy can only be called on the server", "Workspace.C: true"]
    );
    assert!(sim.arena.contains(Id(10)), "the replicated instance is still there");
}

#[test]
fn place_with_many_scripts_runs_in_id_order() {
    let mut place = Place::new();
    let ws = place.workspace();
    for i in 0..5 {
        place.script(&format!("S{i}"), ws, &format!("print({i})"));
    }
    let mut running = place.start();
    running.tick(1);
    let log = running.log();
    assert_eq!(log, (0..5).map(|i| format!("Workspace.S{i}: {i}")).collect::<Vec<_>>());
}

#[test]
fn properties_through_constant_and_computed_keys_agree() {
    let log = run_one(
        r#"
        self.Rotation = Vector3.new(0, 90, 0)
        self.Color = Vector3.new(1, 0.5, 0)
        self.Material = "Neon"
        self.CanCollide = false
        self.Archivable = false
        local k = "Posi" .. "tion"
        self[k] = Vector3.new(7, 8, 9)
        print(self.Position, self[k] == self.Position, math.round(self.Rotation.Y), self.Color, self.Material, self.CanCollide, self.Archivable)
        print(typeof(self), type(self), self == workspace.Holder, rawequal(self, workspace.Holder), tostring(self))
        print(pcall(function() self.ClassName = "Model" end))
        print(pcall(function() return self[1] end))
        print(pcall(function() return self[true] end))
        print(pcall(function() self.Anchored = 1 end))
        "#,
        1,
    );
    assert_eq!(
        lines(&log),
        vec![
            "7, 8, 9 true 90 1, 0.501960813999176, 0 Neon false false",
            "Instance userdata true false Holder",
            &format!("false {P}:11: ClassName is read-only"),
            &format!("false {P}:12: 1 is not a valid member of Part \"Workspace.Holder\""),
            &format!("false {P}:13: attempt to index an Instance with a boolean"),
            &format!("false {P}:14: invalid value for Anchored: expected boolean, got number"),
        ]
    );
}

#[test]
fn methods_can_be_read_as_values_and_check_their_receiver() {
    let log = run_one(
        r#"
        local find = workspace.FindFirstChild
        print(find(workspace, "Holder") == self, find == self.FindFirstChild)
        print(pcall(find, 5, "Holder"))
        print(pcall(function() return workspace.FindFirstChild("Holder") end))
        local copy = self:Clone()
        copy:Destroy()
        print(tostring(copy), pcall(function() return copy:GetFullName() end))
        print(pcall(function() return copy:FindFirstChild("Main") end))
        print(workspace:FindFirstChild("Main", true) == script, workspace:FindFirstChild("Main"), workspace:FindFirstChild(42))
        print(pcall(function() return workspace:FindFirstChild({}) end))
        "#,
        1,
    );
    let l = lines(&log);
    // Other argument types take the generic (mlua) path and its conversion error.
    assert!(l[6].starts_with("false bad argument #2: error converting Lua table to string"), "{l:?}");
    assert_eq!(
        l[..6],
        [
            "true true",
            "false expected an Instance (use ':' to call methods)",
            &format!("false {P}:5: expected an Instance (use ':' to call methods)"),
            &format!("<destroyed Instance> false {P}:8: attempt to index a destroyed Instance"),
            &format!("false {P}:9: attempt to index a destroyed Instance"),
            "true nil nil",
        ]
    );
}

#[test]
fn the_physics_service_reads_and_writes_the_destroy_height() {
    // 003 names Physics.FallenPartsDestroyHeight; there was no Physics global.
    let mut place = Place::new();
    let ws = place.workspace();
    place.script(
        "Main",
        ws,
        r#"
        print(Physics.FallenPartsDestroyHeight, game.Physics == Physics)
        Physics.FallenPartsDestroyHeight = -20
        print(workspace:GetAttribute("FallenPartsDestroyHeight"), Physics.FallenPartsDestroyHeight)
        workspace:SetAttribute("FallenPartsDestroyHeight", -30)
        print(Physics.FallenPartsDestroyHeight)
        print(pcall(function() Physics.FallenPartsDestroyHeight = 0/0 end))
        print(pcall(function() Physics.FallenPartsDestroyHeight = "high" end))
        print(pcall(function() return Physics.Gravity end))
        print(pcall(function() Physics.Gravity = 1 end))
        print(pcall(rawset, Physics, "FallenPartsDestroyHeight", 5))
        print(pcall(setmetatable, Physics, {}))
        print(Physics.FallenPartsDestroyHeight)
        "#,
    );
    let mut running = place.start();
    running.tick(1);
    let p = "Workspace.Main";
    assert_eq!(
        running.log(),
        vec![
            format!("{p}: -500 true"),
            format!("{p}: -20 -20"),
            format!("{p}: -30"),
            format!("{p}: false {p}:7: Physics.FallenPartsDestroyHeight must be a finite number, got nan"),
            format!("{p}: false {p}:8: Physics.FallenPartsDestroyHeight must be a finite number, got 'high'"),
            format!(
                "{p}: false {p}:9: 'Gravity' is not a member of Physics (it has FallenPartsDestroyHeight)"
            ),
            format!(
                "{p}: false {p}:10: 'Gravity' is not a member of Physics (it has FallenPartsDestroyHeight)"
            ),
            format!("{p}: false attempt to modify a readonly table"),
            format!("{p}: false cannot change a protected metatable"),
            format!("{p}: -30"),
        ]
    );
    let height = running.sim.arena.attribute(ws, "FallenPartsDestroyHeight").cloned();
    assert_eq!(height, Some(arbor_core::AttributeValue::Number(-30.0)), "the place setting follows");
}
