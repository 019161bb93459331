//! The definitions against the live environment: nothing exposed is missing from them,
//! nothing declared is missing from the engine, and the shipped file is current.

use super::declarations::{GLOBALS, SERVICES, member};
use super::luau_definitions;
use crate::env::SAFE_GLOBALS;
use crate::instances::props::Member;
use crate::{HostConfig, ScriptHost, StoreConfig};
use arbor_core::{Arena, Class};
use arbor_sim::{SimConfig, Simulation};
use mlua::{Table, Value};
use std::cell::RefCell;
use std::rc::Rc;

/// The dotted paths of every non-table value under `table` (tables are walked into).
fn leaves(prefix: &str, table: &Table, out: &mut Vec<String>) {
    for pair in table.clone().pairs::<String, Value>() {
        let (key, value) = pair.unwrap();
        let path = format!("{prefix}.{key}");
        match value {
            Value::Table(t) if t.metatable().is_none() => leaves(&path, &t, out),
            _ => out.push(path),
        }
    }
}

#[test]
fn every_exposed_name_is_declared() {
    let host = ScriptHost::new(&Arena::new(), HostConfig::default()).unwrap();
    let globals: Vec<&str> = GLOBALS.iter().map(|(name, _)| *name).collect();
    let services: Vec<&str> = SERVICES.iter().map(|(path, _, _)| *path).collect();
    let mut missing = Vec::new();
    for pair in host.base.clone().pairs::<String, Value>() {
        let (name, value) = pair.unwrap();
        if SAFE_GLOBALS.contains(&name.as_str()) || globals.contains(&name.as_str()) {
            continue;
        }
        match (name.as_str(), value) {
            ("game", Value::Table(game)) => {
                let mut paths = Vec::new();
                leaves("game", &game, &mut paths);
                // A service with a metatable (Physics) is declared by its members.
                let declared = |p: &str| services.iter().any(|s| *s == p || s.starts_with(&format!("{p}.")));
                missing.extend(paths.into_iter().filter(|p| !declared(p)));
            }
            _ => missing.push(name),
        }
    }
    assert!(
        missing.is_empty(),
        "exposed to scripts but not in script/src/types/declarations.rs: {missing:?}"
    );
}

#[test]
fn every_declared_name_exists_in_a_script() {
    let dir = std::env::temp_dir().join(format!("arbor-types-{}", std::process::id()));
    let mut arena = Arena::new();
    let ws = arena.workspace();
    let script = arena.create(Class::Script, "Check", Some(ws)).unwrap();
    let mut checks = String::from(
        "local missing = {}\nlocal function has(name, v) if v == nil then table.insert(missing, name) end end\n",
    );
    for (path, _, _) in SERVICES {
        checks.push_str(&format!("has('{path}', {path})\n"));
    }
    for (name, _) in GLOBALS {
        checks.push_str(&format!("has('{name}', {name})\n"));
    }
    checks.push_str(
        "local store, cloud = game.Store.open('TypesCheck'), game.CloudStore.open('TypesCheck')\n\
         for _, m in { 'get', 'put' } do has('Store:' .. m, store[m]) end\n\
         for _, m in { 'fetch', 'put', 'update' } do has('CloudStore:' .. m, cloud[m]) end\n\
         local signal = workspace:GetSignal('Check')\n\
         for _, m in { 'Connect', 'Emit' } do has('Signal:' .. m, signal[m]) end\n\
         local v = Vector3.new(1, 2, 3)\n\
         for _, m in { 'X', 'Y', 'Z', 'x', 'y', 'z', 'Magnitude', 'Unit', 'Dot', 'Cross' } do has('Vector3.' .. m, v[m]) end\n\
         print('missing: ' .. table.concat(missing, ', '))\n",
    );
    arena.set_script_source(script, &checks).unwrap();
    let config = HostConfig {
        stores: StoreConfig { data_dir: Some(dir.clone()), cloud_url: None },
        ..HostConfig::default()
    };
    let host = Rc::new(RefCell::new(ScriptHost::new(&arena, config).unwrap()));
    let mut sim = Simulation::new(arena, SimConfig::default()).unwrap();
    sim.add_hooks(host.clone());
    sim.run(1);
    let log: Vec<String> = host.borrow().log().into_iter().map(|l| l.text).collect();
    host.borrow_mut().shutdown_stores();
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(log, ["Workspace.Check: missing: "], "declared but not found by a script");
}

#[test]
fn the_instance_class_has_every_member() {
    let text = luau_definitions();
    for m in Member::ALL {
        let line = member(m);
        let named = line.starts_with(&format!("{}:", m.name()))
            || line.starts_with(&format!("function {}(", m.name()));
        assert!(named, "{line} declares {}", m.name());
        assert!(text.contains(line));
    }
}

#[test]
fn the_shipped_file_is_current() {
    let shipped = include_str!("../../../types/arbor.d.luau");
    assert!(
        shipped == luau_definitions(),
        "types/arbor.d.luau is stale: run `cargo run -p arbor-tools -- types > types/arbor.d.luau`"
    );
}
