//! Game-defined components from Luau: `game.Components.Define`, `AddComponent`,
//! `GetComponent`, `HasComponent`, `RemoveComponent` and field access through the returned
//! Component, with every refusal leaving the store as it was.

mod common;

use common::{Place, run_one};

const P: &str = "Workspace.Holder.Main";

fn lines(log: &[String]) -> Vec<&str> {
    log.iter().map(|l| l.strip_prefix(&format!("{P}: ")).unwrap_or(l)).collect()
}

#[test]
fn define_add_read_write_remove() {
    let log = run_one(
        r#"
        local Health = game.Components.Define("Health", { Value = "number", Max = "I32", Alive = "boolean" })
        print(Health, self:HasComponent(Health), self:GetComponent("Health"))
        local h = self:AddComponent("Health", { Value = 75.5, Max = 100 })
        print(h, typeof(h), h.Value, h.Max, h.Alive, self:HasComponent("Health"))
        h.Value -= 10
        h.Alive = true
        print(self:GetComponent("Health").Value, self:GetComponent("Health").Alive, h == self:GetComponent("Health"))
        self:AddComponent("Health", { Max = 150 })
        print(h.Value, h.Max)
        print(self:RemoveComponent("Health"), self:RemoveComponent("Health"), self:HasComponent("Health"))
        print(pcall(function() return h.Value end))
        "#,
        1,
    );
    assert_eq!(
        lines(&log),
        vec![
            "Health false nil",
            "Health component Component 75.5 100 false true",
            "65.5 true true",
            "65.5 150",
            "true false false",
            &format!("false {P}:12: component 'Health' is not on Workspace.Holder"),
        ]
    );
}

#[test]
fn every_field_type_round_trips() {
    let log = run_one(
        r#"
        game.Components.Define("Everything", {
            B = "Bool", I = "I32", L = "I64", F = "F32", D = "F64", V = "Vector3",
            Q = "Quaternion", S = "string", R = "Instance",
        })
        local c = self:AddComponent("Everything", {
            B = true, I = -7, L = 3000000000, F = 0.5, D = 1/3, V = Vector3.new(1, 2, 3),
            Q = Vector3.new(0, 90, 0), S = "hello", R = workspace,
        })
        print(c.B, c.I, c.L, c.F, c.D == 1/3, c.V, math.round(c.Q.Y), c.S, c.R == workspace)
        c.R = nil
        print(c.R)
        "#,
        1,
    );
    assert_eq!(lines(&log), vec!["true -7 3000000000 0.5 true 1, 2, 3 90 hello true", "nil"]);
}

#[test]
fn refusals_raise_at_the_line_and_change_nothing() {
    let log = run_one(
        r#"
        game.Components.Define("Stats", { Speed = "number", Level = "I32" })
        local s = self:AddComponent("Stats", { Speed = 4, Level = 2 })
        print(pcall(function() self:AddComponent("Stats", { Speed = 9, Level = 2.5 }) end))
        print(s.Speed, s.Level)
        print(pcall(function() self:AddComponent("Stats", { Speed = 9, Nope = 1 }) end))
        print(pcall(function() s.Speed = "fast" end))
        print(pcall(function() return s.Missing end))
        print(pcall(function() self:AddComponent("Unknown") end))
        print(pcall(function() game.Components.Define("Stats", { Speed = "string" }) end))
        print(pcall(function() game.Components.Define("Bad", { X = "float" }) end))
        print(pcall(function() game.Components.Define("Bad", { X = { type = "number", onDestroy = "DestroyHolder" } }) end))
        print(pcall(function() game.Components.Define("Bad", { X = "number" }, { requires = { "Ghost" } }) end))
        print(game.Components.Define("Stats", { Level = "I32", Speed = "number" }), s.Speed, s.Level)
        "#,
        1,
    );
    assert_eq!(
        lines(&log),
        vec![
            &format!("false {P}:4: invalid value for Stats.Level: 2.5 is not a whole number in range")
                as &str,
            "4 2",
            &format!("false {P}:6: component 'Stats' has no field 'Nope'"),
            &format!("false {P}:7: invalid value for Stats.Speed: expected number, got string"),
            &format!("false {P}:8: component 'Stats' has no field 'Missing'"),
            &format!("false {P}:9: no component named 'Unknown'"),
            &format!("false {P}:10: component 'Stats' is already registered with a different layout"),
            &format!("false {P}:11: field 'Bad.X' has unknown type 'float'"),
            &format!("false {P}:12: field 'Bad.X': onDestroy applies to Instance fields only"),
            &format!("false {P}:13: component 'Bad' requires unknown component 'Ghost'"),
            "Stats 4 2",
        ]
    );
}

#[test]
fn requirements_and_reference_policies() {
    let mut place = Place::new();
    let ws = place.workspace();
    let holder = place.part("Holder", ws);
    place.part("Enemy", ws);
    place.script(
        "Main",
        holder,
        r#"
        game.Components.Define("Team", { Name = "string" })
        game.Components.Define("Target", { Who = { type = "Instance", onDestroy = "RemoveComponent" } }, { requires = { "Team" } })
        local t = self:AddComponent("Target", { Who = workspace.Enemy })
        print(self:HasComponent("Team"), t.Who.Name)
        workspace.Enemy:Destroy()
        print(self:HasComponent("Target"), self:HasComponent("Team"))
        self:AddComponent("Target")
        print(self:RemoveComponent("Team"), self:HasComponent("Target"))
        "#,
    );
    let mut running = place.start();
    running.tick(1);
    assert_eq!(
        lines(&running.log()),
        vec!["true Enemy", "false true", "true false"],
        "removing a requirement removes its dependents"
    );
}

#[test]
fn components_follow_clone_and_destroy() {
    let log = run_one(
        r#"
        game.Components.Define("Tag", {})
        game.Components.Define("Link", { To = "Instance" })
        local box = Instance and nil
        local part = workspace.Holder
        part:AddComponent("Tag")
        part:AddComponent("Link", { To = part })
        local copy = part:Clone()
        print(copy:HasComponent("Tag"), copy:GetComponent("Link").To == copy)
        local c = copy:GetComponent("Tag")
        copy:Destroy()
        print(pcall(function() return c.Anything end))
        print(pcall(function() copy:AddComponent("Tag") end))
        print(pcall(function() return copy:GetComponent("Tag") end))
        print(part:GetComponent("Missing"), pcall(function() return part.GetComponent("Tag") end))
        "#,
        1,
    );
    assert_eq!(
        lines(&log),
        vec![
            "true true",
            &format!("false {P}:12: attempt to index a destroyed Instance"),
            &format!("false {P}:13: attempt to index a destroyed Instance"),
            &format!("false {P}:14: attempt to index a destroyed Instance"),
            &format!("nil false {P}:15: expected an Instance (use ':' to call methods)"),
        ]
    );
}

#[test]
fn the_component_metatable_is_frozen() {
    let log = run_one(
        r#"
        game.Components.Define("Tag", {})
        local c = self:AddComponent("Tag")
        print(pcall(function() getmetatable(c).__index = function() return "hijacked" end end))
        "#,
        1,
    );
    assert!(log[0].starts_with(&format!("{P}: false")), "{log:?}");
}

#[test]
fn handles_refuse_bad_keys_and_values() {
    let log = run_one(
        r#"
        game.Components.Define("Named", { Label = "string", Owner = "Instance" })
        local c = self:AddComponent("Named", { Label = "door" })
        print(pcall(function() return c[1] end))
        print(pcall(function() c.Owner = 5 end))
        print(pcall(function() c.Owner = c end))
        c.Owner = self
        print(c.Label, c.Owner == self, tostring(c))
        "#,
        1,
    );
    assert_eq!(
        lines(&log),
        vec![
            &format!("false {P}:4: component fields are named by strings, not number") as &str,
            &format!("false {P}:5: invalid value for Named.Owner: expected Instance or nil, got number"),
            &format!("false {P}:6: invalid value for Named.Owner: expected Instance or nil, got userdata"),
            "door true Named component",
        ]
    );
}

#[test]
fn sparse_set_components_come_and_go_and_queries_see_both_kinds() {
    let mut place = Place::new();
    let ws = place.workspace();
    let a = place.part("A", ws);
    let b = place.part("B", ws);
    place.script(
        "Stun",
        ws,
        r#"
        game.Components.Define("Health", { Value = "number" })
        game.Components.Define("Stunned", { Left = "number" }, { storage = "sparse" })
        game.Systems.Register("Act", { with = { "Health" }, without = { "Stunned" } }, function(dt, entities)
            print("act", #entities)
        end)
        game.Systems.Register("Recover", { with = { "Stunned", "Health" } }, function(dt, entities)
            for _, e in entities do
                local s = e:GetComponent("Stunned")
                s.Left -= 1
                if s.Left <= 0 then print("recovered", e.Name, e:RemoveComponent("Stunned")) end
            end
        end)
        workspace.A:AddComponent("Health", { Value = 10 })
        workspace.B:AddComponent("Health", { Value = 20 })
        workspace.B:AddComponent("Stunned", { Left = 2 })
        print(workspace.B:HasComponent("Stunned"), workspace.B:GetComponent("Stunned").Left)
        local copy = workspace.B:Clone()
        print(copy:HasComponent("Stunned"), copy:GetComponent("Health").Value)
        print(pcall(function() game.Components.Define("Stunned", { Left = "number" }) end))
        print(pcall(function() game.Components.Define("Odd", {}, { storage = "heap" }) end))
        print(game.Components.Define("Stunned", { Left = "number" }, { storage = "sparse" }))
        "#,
    );
    let mut running = place.start();
    running.tick(3);
    let p = "Workspace.Stun";
    assert_eq!(
        running.log(),
        vec![
            format!("{p}: true 2"),
            format!("{p}: true 20"),
            format!("{p}: false {p}:20: component 'Stunned' is already registered with a different layout"),
            format!("{p}: false {p}:21: storage of 'Odd' must be \"table\" or \"sparse\", not \"heap\""),
            format!("{p}: Stunned"),
            format!("{p}: act 1"),
            format!("{p}: act 1"),
            format!("{p}: recovered B true"),
            format!("{p}: act 2"),
        ]
    );
    let arena = &running.sim.arena;
    let stunned = arena.components().component("Stunned").unwrap();
    assert!(!arena.components().has(b, stunned) && !arena.components().has(a, stunned));
    assert_eq!(arena.components().sparse_row_count(), 1, "only the detached copy is still stunned");
}
