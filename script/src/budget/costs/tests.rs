//! The cost table is complete: every function a script can reach is either a library
//! function with an entry, an engine function listed in [`ENGINE`], or Luau code (metered by
//! its instructions).

use super::*;
use crate::{HostConfig, ScriptHost};
use arbor_core::Arena;
use mlua::{Table, Value};
use std::collections::BTreeSet;

/// Every function reachable from `root` through tables (keys and values, metatables'
/// `__index` tables), with a dotted path.
fn reachable(
    root: &Table,
    prefix: &str,
    seen: &mut BTreeSet<usize>,
    out: &mut Vec<(String, mlua::Function)>,
) {
    if !seen.insert(root.to_pointer() as usize) {
        return;
    }
    for pair in root.clone().pairs::<Value, Value>() {
        let Ok((key, value)) = pair else { continue };
        let name = match &key {
            Value::String(s) => s.to_string_lossy(),
            other => format!("[{}]", other.type_name()),
        };
        let path = if prefix.is_empty() { name } else { format!("{prefix}.{name}") };
        match value {
            Value::Function(f) => out.push((path, f)),
            Value::Table(t) => reachable(&t, &path, seen, out),
            _ => {}
        }
    }
    if let Some(meta) = root.metatable()
        && let Ok(Value::Table(index)) = meta.raw_get::<Value>("__index")
    {
        reachable(&index, prefix, seen, out);
    }
}

#[test]
fn every_reachable_function_has_a_cost() {
    let arena = Arena::new();
    let host = ScriptHost::new(&arena, HostConfig::default()).expect("a host");
    let lua = &host.lua;
    let mut functions = Vec::new();
    let mut seen = BTreeSet::new();
    reachable(&host.base, "", &mut seen, &mut functions);
    let string_meta: Table = lua.load("return getmetatable('')").eval().unwrap();
    reachable(&string_meta, "(string metatable)", &mut seen, &mut functions);
    assert!(functions.len() > 150, "{} functions reached", functions.len());

    let engine: BTreeSet<&str> = ENGINE.iter().map(|(name, _)| *name).collect();
    let mut missing = Vec::new();
    for (path, f) in functions {
        match c_function_address(lua, Value::Function(f)).unwrap() {
            None => {} // Luau code: metered by its instructions
            Some(address) if cost_of(address).is_some() => {}
            Some(_) if engine.contains(path.as_str()) => {}
            Some(_) => missing.push(path),
        }
    }
    assert!(missing.is_empty(), "functions without a cost: {missing:?}");
}

#[test]
fn every_library_entry_names_a_function_of_this_luau() {
    let arena = Arena::new();
    let _host = ScriptHost::new(&arena, HostConfig::default()).expect("a host");
    let names: BTreeSet<(&str, &str)> = LIBRARY.iter().map(|&(l, n, _)| (l, n)).collect();
    assert_eq!(names.len(), LIBRARY.len(), "an entry is listed twice");
    let lua = &_host.lua;
    let lacking: Vec<String> = LIBRARY
        .iter()
        .filter(|(library, name, _)| {
            let source = if library.is_empty() {
                format!("return {name}")
            } else {
                format!("return {library}.{name}")
            };
            !matches!(lua.load(source).eval::<Value>(), Ok(Value::Function(_)))
        })
        .map(|(library, name, _)| format!("{library}.{name}"))
        .collect();
    assert!(lacking.is_empty(), "entries naming functions this Luau lacks: {lacking:?}");
}

/// Calls of the library functions that were once wrapped, each returning a description of
/// what it returned or raised (the error value's type, text, identity and fields).
const SEMANTICS: &[&str] = &[
    "return string.find('hello world', 'o w')",
    "return string.find('hello', 'l', 1, true)",
    "return string.match('key=value', '(%w+)=(%w+)')",
    "local t = {} for w in string.gmatch('a b c', '%a') do t[#t + 1] = w end return table.concat(t, ',')",
    "return string.gsub('abc', '%w', '%0%0')",
    "return string.gsub('abc', 'b', {b = 'B'})",
    "return string.find(nil, 'x')",
    "return string.find('a', '%')",
    "return string.match('a', '[a')",
    "return string.gsub('abc', 'b', function() error({code = 7}) end)",
    "return string.gsub('abc', 'b', function() error('inner', 0) end)",
    "return string.gsub('abc', 'b', function() error('inner') end)",
    "return string.gmatch('abc', '(')()",
    "return utf8.len('h\\xffi')",
    "return utf8.len('héllo')",
    "return utf8.offset('héllo', 3)",
    "return utf8.offset('héllo', 1, 3)",
    "local b = buffer.create(4) buffer.fill(b, 0, 65) return buffer.tostring(b)",
    "local b = buffer.create(4) return buffer.fill(b, 2, 65, 8)",
    "local b = buffer.create(4) buffer.copy(b, 1, buffer.fromstring('xy')) return buffer.tostring(b)",
    "local b = buffer.create(4) return buffer.copy(b, 3, buffer.fromstring('xy'))",
    "local b = buffer.create(4) buffer.writestring(b, 0, 'abcd', 2) return buffer.tostring(b)",
    "local b = buffer.create(4) return buffer.writestring(b, 2, 'abcd')",
    "return table.concat({1, 2, 3}, '-', 2, 3)",
    "return table.concat({1, {}, 3})",
    "return table.find({5, 6, 7}, 7)",
    "local t = {1, 2} table.insert(t, 1, 0) return table.concat(t, ',')",
    "return table.insert({}, 1, 2, 3)",
    "return table.insert({}, 5, 1)",
    "local t = {1, 2, 3} return table.remove(t, 1), table.concat(t, ',')",
    "return table.remove({1}, 7)",
    "return table.maxn({1, 2, [10] = 3})",
    "return table.clear(table.freeze({1}))",
    "local t = table.move({1, 2, 3}, 1, 3, 2) return table.concat(t, ',')",
    "return table.move({}, -2147483647, 2147483646, 1)",
    "return table.move({}, 1, 2147483647, 2)",
    "local t = {3, 1, 2} table.sort(t) return table.concat(t, ',')",
    "return table.sort({3, 1, 2}, function() error({code = 9}) end)",
    "return table.sort({3, 1, 2, 5, 4, 6, 8, 7}, function() return true end)",
    "return table.sort({1, 'x'})",
    "return tostring(vector.create(0.1, 1 / 3, 1e-7))",
    "return vector.create(1, 2, 3).foo",
    "local depth = 0
     local function f() depth += 1 table.sort({2, 1}, function(a, b) f() return a < b end) end
     local ok, e = pcall(f)
     return depth, ok",
    "local depth = 0
     local function f() depth += 1 return string.gsub('x', 'x', f) end
     local ok, e = pcall(f)
     return depth, ok",
];

/// Runs `source` under `pcall` and describes the outcome.
fn outcome(lua: &mlua::Lua, source: &str) -> String {
    let describe = r#"
        local f = ...
        local r = table.pack(pcall(f))
        local out = {}
        for i = 1, r.n do
            local v = r[i]
            local d = typeof(v) .. ':' .. tostring(v)
            if type(v) == 'table' then d = 'table:code=' .. tostring(v.code) end
            out[i] = d
        end
        return table.concat(out, ' | ')
    "#;
    let f = lua.load(source).set_name("=case").into_function().unwrap();
    let describe = lua.load(describe).into_function().unwrap();
    describe.call::<String>(f).unwrap()
}

#[test]
fn library_calls_return_and_raise_what_the_bare_vm_does() {
    let bare = mlua::Lua::new();
    bare.sandbox(true).unwrap();
    let arena = Arena::new();
    let host = ScriptHost::new(&arena, HostConfig::default()).expect("a host");
    for source in SEMANTICS {
        let expected = outcome(&bare, source);
        let enclosing = crate::budget::enter();
        let metered = outcome(&host.lua, source);
        crate::budget::leave(enclosing);
        assert_eq!(metered, expected, "{source}");
    }
}
