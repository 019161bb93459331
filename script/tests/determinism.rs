//! What a replay relies on from Scripts: `pairs` over Instance-keyed tables in id order
//! (plain tables and `pairs` errors unchanged), and `math.random` drawn from the host's seed.

mod common;

use arbor_script::HostConfig;
use common::{Place, run_main, run_one};

fn lines(log: &[String]) -> Vec<String> {
    let text = |l: &str| l.split_once(": ").map_or(l, |(_, t)| t).to_owned();
    log.iter().map(|l| text(l)).collect()
}

#[test]
fn pairs_visits_instance_keys_in_creation_order() {
    let log = run_main(
        |place| {
            let ws = place.workspace();
            place.part("Template", ws);
        },
        r#"
        local parts = {}
        for i = 1, 40 do
            local p = workspace.Template:Clone()
            p.Name = "P" .. i
            p.Parent = workspace
            parts[i] = p
        end
        -- inserted in a scrambled order, with number, string and boolean keys mixed in
        local byPart = {}
        for i = 1, 40 do
            local j = (i * 17) % 40 + 1
            byPart[parts[j]] = j
        end
        byPart.label = "s"
        byPart[7.5] = "n"
        byPart[true] = "b"
        local seen = {}
        for k, v in pairs(byPart) do
            table.insert(seen, if typeof(k) == "Instance" then k.Name else tostring(k) .. "=" .. tostring(v))
        end
        print(table.concat(seen, ","))
        -- values are current, removed keys are skipped, breaking out works
        local n = 0
        for k in pairs(byPart) do
            if typeof(k) == "Instance" then
                byPart[parts[40]] = nil
                byPart[k] = "changed"
                n += 1
                if n == 3 then break end
            end
        end
        print(n, byPart[parts[1]], byPart[parts[40]])
        "#,
        1,
    );
    let mut expected = vec!["7.5=n".to_owned(), "label=s".to_owned(), "true=b".to_owned()];
    expected.extend((1..=40).map(|i| format!("P{i}")));
    assert_eq!(lines(&log), vec![expected.join(","), "3 changed nil".to_owned()]);
}

#[test]
fn pairs_over_plain_tables_and_its_errors_are_luau_s_own() {
    let log = run_one(
        r#"
        local t = { 10, 20, 30, x = 1 }
        local a = {}
        for k, v in pairs(t) do table.insert(a, tostring(k) .. ":" .. tostring(v)) end
        print(table.concat(a, " "))
        local f, s, c = pairs(t)
        print(f == next, s == t, c)
        print(pcall(pairs, 5))
        print(pcall(pairs))
        "#,
        1,
    );
    assert_eq!(
        lines(&log),
        vec![
            "1:10 2:20 3:30 x:1",
            "true true nil",
            "false invalid argument #1 to 'pairs' (table expected, got number)",
            "false missing argument #1 to 'pairs' (table expected)",
        ]
    );
}

fn draws(seed: Option<i32>) -> (Vec<String>, i32) {
    let mut place = Place::new();
    let ws = place.workspace();
    let part = place.part("Holder", ws);
    place.script(
        "Main",
        part,
        "local a = {} for i = 1, 8 do a[i] = math.random(1, 1000000) end print(table.concat(a, ' '))",
    );
    let mut running = place.start_with(HostConfig { random_seed: seed, ..Default::default() });
    running.tick(1);
    let seed = running.host.borrow().random_seed();
    (running.log(), seed)
}

#[test]
fn math_random_draws_from_the_host_seed() {
    let (first, _) = draws(Some(42));
    assert_eq!(first, draws(Some(42)).0, "the same seed draws the same numbers");
    assert_ne!(first, draws(Some(43)).0, "another seed draws others");
    let (unseeded, seed) = draws(None);
    assert_eq!(unseeded, draws(Some(seed)).0, "an unseeded host reports the seed it drew from");
}

#[test]
fn pairs_charges_the_entry_for_every_key() {
    // 100 calls over 20,000 keys: two million key visits, over the entry's budget, though
    // the loop itself is 100 iterations.
    let log = run_one(
        r#"
        local t = {}
        for i = 1, 20000 do t[i + 0.5] = true end
        function Update()
            for i = 1, 100 do pairs(t) end
            print("not stopped")
        end
        "#,
        1,
    );
    assert!(log.iter().any(|l| l.contains("script exceeded its instruction budget")), "{log:?}");
    assert!(!log.iter().any(|l| l.contains("not stopped")), "{log:?}");
}

#[test]
fn math_randomseed_in_one_script_does_not_fix_another_scripts_draws() {
    // Scripts once shared the VM's one generator: a script calling math.randomseed(1) every
    // tick made every other script draw the same numbers each tick.
    let run = |fixer: bool| {
        let mut place = Place::new();
        let ws = place.workspace();
        place.script(
            "Roller",
            ws,
            "function Update() print(math.random(1, 1000000), math.random(1, 1000000)) end",
        );
        // After the roller, so the roller's id (and so its generator's seed) is the same.
        if fixer {
            place.script("Fixer", ws, "function Update() math.randomseed(1) end");
        }
        let mut running = place.start_with(HostConfig { random_seed: Some(7), ..Default::default() });
        running.tick(3);
        running.log()
    };
    let alone = run(false);
    assert_eq!(alone.len(), 3);
    assert_ne!(alone[0], alone[1], "draws go on from tick to tick");
    assert_eq!(run(true), alone, "another script's randomseed changes nothing here");
}

#[test]
fn each_script_draws_from_its_own_generator() {
    // Two copies of one script draw different numbers; a script seeding itself draws Luau's
    // own sequence for that seed, whatever the others do.
    let mut place = Place::new();
    let ws = place.workspace();
    let source = "print(math.random(1, 1000000))";
    place.script("A", ws, source);
    place.script("B", ws, source);
    place.script("Seeded", ws, "math.randomseed(42) print(math.random(1, 1000000), math.random())");
    place.script(
        "Errors",
        ws,
        "print(pcall(math.random, 0)) print(pcall(math.random, 2, 1)) print(pcall(math.random, 1, 2, 3))",
    );
    let mut running = place.start_with(HostConfig { random_seed: Some(7), ..Default::default() });
    running.tick(1);
    let log = running.log();
    let value = |l: &String| l.split(": ").nth(1).unwrap().to_owned();
    assert_ne!(value(&log[0]), value(&log[1]), "{log:?}");
    let lua = mlua::Lua::new();
    let luau: String = lua
        .load(
            "math.randomseed(42) return tostring(math.random(1, 1000000)) .. ' ' .. tostring(math.random())",
        )
        .eval()
        .unwrap();
    assert_eq!(log[2], format!("Workspace.Seeded: {luau}"));
    assert_eq!(
        &log[3..],
        [
            "Workspace.Errors: false invalid argument #1 to 'random' (interval is empty)",
            "Workspace.Errors: false invalid argument #2 to 'random' (interval is empty)",
            "Workspace.Errors: false wrong number of arguments",
        ]
    );
}
