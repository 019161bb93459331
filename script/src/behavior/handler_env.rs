//! The API behaviour handlers get: the `self` table (`self.host`, `self.memory`,
//! `self.fields`, `self.props`, and the methods `Goto`, `State`, `Raise`, `Send`,
//! `StartTimer`, `StopTimer`, `Random`, `Now`, `Log`), the sandboxed environment of
//! behaviour chunks (no wall clock, no shared random generator, `print` into the
//! transaction's log, `math` functions and `tonumber` that raise rather than give NaN or
//! infinity, the arithmetic checks `__arbor_checks`), and `game.Behaviors.Send` for Scripts.
//!
//! Every write crosses the determinism rules (`value`) and is recorded in the open
//! transaction (`runtime::Tx`) so it can be undone; world writes go through the arena, whose
//! undo scope journals them. Primitives answer `(ok, value)`; the Lua side raises at the
//! caller's line.

use super::runtime::{BindingIndex, FieldWrite, Payload, Raised, Runtime, with_runtime};
use super::value::{Kind, Value};
use crate::luau::convert::{Status, fail, instance_id, ok, type_name};
use crate::state::with_world;
use arbor_core::Id;
use mlua::{Function, Lua, Result, Table};
use std::ffi::CStr;

/// The Lua side: the `self` factory and the behaviour environment's overrides.
const BEHAVIOR_PRELUDE: &str = r#"
local check, prims = ...
local methods = {}
function methods:Goto(state)
	local enter = check(prims.goto(self._b, state))
	if enter then enter(self) end
end
function methods:State() return check(prims.state(self._b)) end
function methods:Raise(name, payload) check(prims.raise(self._b, nil, name, payload)) end
function methods:Send(target, name, payload) check(prims.raise(self._b, target, name, payload)) end
function methods:StartTimer(name, minutes) check(prims.startTimer(self._b, name, minutes)) end
function methods:StopTimer(name) return check(prims.stopTimer(self._b, name)) end
function methods:Random(m, n) return check(prims.random(self._b, m, n)) end
function methods:Now() return check(prims.now()) end
function methods:Log(...) check(prims.log(...)) end
table.freeze(methods)
local selfMeta = table.freeze({ __index = methods })
local function make(b, host, props)
	local memory = setmetatable({}, {
		__index = function(_, k) return check(prims.memGet(b, k)) end,
		__newindex = function(_, k, v) check(prims.memSet(b, k, v)) end,
		__metatable = "locked",
	})
	local fields = setmetatable({}, {
		__index = function(_, k) return check(prims.fieldGet(b, k)) end,
		__newindex = function(_, k, v) check(prims.fieldSet(b, k, v)) end,
		__metatable = "locked",
	})
	return table.freeze(setmetatable({ _b = b, host = host, memory = memory, fields = fields, props = table.freeze(props) }, selfMeta))
end
local function unavailable(what, instead)
	return function() error(what .. " is not available in behaviours: " .. instead, 2) end
end
local math2 = table.clone(math)
math2.random = unavailable("math.random", "use self:Random() (one seeded generator per instance)")
math2.randomseed = math2.random
-- NaN and infinity are errors where they arise: the library functions that can make them
-- from finite arguments raise at their caller's line.
local huge = math.huge
local function finite(label, r)
	if r ~= r then error(label .. " gave NaN (not a number; an invalid operation made it)", 3) end
	if r == huge or r == -huge then
		error(label .. " gave infinity (an overflow or a division by zero made it)", 3)
	end
	return r
end
for _, name in { "acos", "asin", "cosh", "deg", "exp", "fmod", "ldexp", "lerp", "log", "log10", "map", "pow", "sinh", "sqrt" } do
	local f, label = math[name], "math." .. name
	if f then math2[name] = function(...) return finite(label, f(...)) end end
end
local tonumber0 = tonumber
local function tonumber2(...)
	local r = tonumber0(...)
	if r == nil then return nil end
	return finite("tonumber", r)
end
local os2 = {
	time = unavailable("os.time", "use self:Now() (the world clock)"),
	clock = unavailable("os.clock", "use self:Now() (the world clock)"),
	date = unavailable("os.date", "use self:Now() (the world clock)"),
}
return make, table.freeze(math2), table.freeze(os2), tonumber2
"#;

/// What the behaviour API installed: the `self` factory and the environment's base.
pub struct BehaviorApi {
    /// `make(b, host, props)` → the `self` table.
    pub make_self: Function,
    /// The base of every behaviour chunk's environment.
    pub env_base: Table,
}

fn binding_of(v: &mlua::Value) -> Result<BindingIndex> {
    match v {
        mlua::Value::Integer(i) => Ok(*i as usize),
        mlua::Value::Number(n) => Ok(*n as usize),
        _ => Err(mlua::Error::runtime("not a behaviour's self")),
    }
}

fn text(v: &mlua::Value) -> Option<String> {
    match v {
        mlua::Value::String(s) => s.to_str().ok().map(|s| s.to_owned()),
        _ => None,
    }
}

/// The current line of the innermost frame of behaviour `chunk` on the stack (`None`: no
/// frame of it within reach; a frame without line information counts as line 0).
pub fn caller_line(lua: &Lua, chunk: &str) -> Option<usize> {
    lua.exec_raw_lua(|raw| {
        let state = raw.state();
        // SAFETY: `state` is the running thread (the one `Lua::inspect_stack` reads), live
        // while `raw` is held. `lua_getinfo` with "sl" pushes nothing and fills `ar`, whose
        // `short_src` then points at a NUL-terminated name in `ar` itself or in the VM,
        // read before the next call.
        unsafe {
            let mut ar: mlua::ffi::lua_Debug = std::mem::zeroed();
            for level in 1..12 {
                if mlua::ffi::lua_getinfo(state, level, c"sl".as_ptr(), &mut ar) == 0 {
                    break;
                }
                let src =
                    if ar.short_src.is_null() { &[][..] } else { CStr::from_ptr(ar.short_src).to_bytes() };
                if src == chunk.as_bytes() {
                    return Some(usize::try_from(ar.currentline).unwrap_or(0));
                }
            }
            None
        }
    })
}

/// A primitive's name argument as text (`""` for anything else).
fn key_text(v: &mlua::Value) -> Option<mlua::BorrowedStr> {
    v.as_string().and_then(|s| s.to_str().ok())
}

/// [`Value::from_lua`], its error labelled `what()` (built only when there is an error).
fn value_from_lua(
    lua: &Lua,
    v: &mlua::Value,
    kind: Kind,
    what: impl FnOnce() -> String,
) -> std::result::Result<Value, String> {
    Value::from_lua(lua, v, kind, "").or_else(|_| Value::from_lua(lua, v, kind, &what()))
}

/// Checks a Lua payload against the declared entries of event `name` in `entries`.
fn payload_of(
    lua: &Lua,
    name: &str,
    entries: &[(String, Kind)],
    v: &mlua::Value,
) -> std::result::Result<Payload, String> {
    let table = match v {
        mlua::Value::Nil => None,
        mlua::Value::Table(t) => Some(t),
        other => {
            return Err(format!("the payload of '{name}' must be a table, not {}", type_name(lua, other)));
        }
    };
    let mut out = Vec::with_capacity(entries.len());
    for (key, kind) in entries {
        let v: mlua::Value =
            table.map_or(Ok(mlua::Value::Nil), |t| t.raw_get(key.as_str())).map_err(|e| e.to_string())?;
        if v.is_nil() {
            return Err(format!("the payload of '{name}' lacks '{key}' ({})", kind.name()));
        }
        out.push((
            key.clone(),
            Value::from_lua(lua, &v, *kind, &format!("payload entry '{key}' of '{name}'"))?,
        ));
    }
    if let Some(t) = table {
        for pair in t.pairs::<mlua::Value, mlua::Value>() {
            let (k, _) = pair.map_err(|e| e.to_string())?;
            let k = text(&k).unwrap_or_else(|| "?".to_owned());
            if !entries.iter().any(|(e, _)| *e == k) {
                return Err(format!("the payload of '{name}' has no entry '{k}'"));
            }
        }
    }
    Ok(out)
}

/// A payload as a Lua table.
pub fn payload_table(lua: &Lua, payload: &Payload) -> Result<Table> {
    let t = lua.create_table_with_capacity(0, payload.len())?;
    for (k, v) in payload {
        t.raw_set(k.as_str(), v.to_lua(lua)?)?;
    }
    Ok(t)
}

type Prim = std::result::Result<mlua::Value, String>;

fn answer(lua: &Lua, r: Result<Prim>) -> Result<Status> {
    match r? {
        Ok(v) => ok(lua, v),
        Err(m) => fail(lua, m),
    }
}

fn mem_get(lua: &Lua, rt: &Runtime, b: BindingIndex, key: &str) -> Prim {
    let binding = rt.bindings.get(b).ok_or("no such behaviour instance")?;
    let slot = binding.def.memory_slot(key).ok_or_else(|| format!("'{key}' is not declared in memory"))?;
    binding.live.memory[slot].to_lua(lua).map_err(|e| e.to_string())
}

fn mem_set(lua: &Lua, rt: &mut Runtime, b: BindingIndex, key: &str, v: &mlua::Value) -> Prim {
    rt.tx_mut()?;
    let binding = rt.bindings.get_mut(b).ok_or("no such behaviour instance")?;
    let slot = binding.def.memory_slot(key).ok_or_else(|| format!("'{key}' is not declared in memory"))?;
    let kind = binding.def.memory[slot].1;
    let value = value_from_lua(lua, v, kind, || format!("memory '{key}'"))?;
    binding.live.memory[slot] = value;
    Ok(mlua::Value::Nil)
}

fn field_get(lua: &Lua, rt: &Runtime, b: BindingIndex, key: &str) -> Prim {
    let binding = rt.bindings.get(b).ok_or("no such behaviour instance")?;
    let spec = binding.def.field(key).ok_or_else(|| format!("'{key}' is not a contract field"))?;
    let host = binding.host;
    let value = with_world(lua, |w| w.attribute(host, key).cloned()).map_err(|e| e.to_string())?;
    match value {
        Some(a) => Value::from_attribute(&a, spec.kind)
            .map_err(|e| format!("field '{key}': {e}"))?
            .to_lua(lua)
            .map_err(|e| e.to_string()),
        None => Ok(mlua::Value::Nil),
    }
}

fn field_set(lua: &Lua, rt: &mut Runtime, b: BindingIndex, key: &str, v: &mlua::Value) -> Prim {
    let limit = rt.settings.fields_per_transaction as usize;
    let binding = rt.bindings.get(b).ok_or("no such behaviour instance")?;
    let spec = binding.def.field(key).ok_or_else(|| format!("'{key}' is not a contract field"))?;
    let value = value_from_lua(lua, v, spec.kind, || format!("field '{key}'"))?;
    let (host, by) = (binding.host, binding.def.clone());
    let line = caller_line(lua, &by.name);
    let tx = rt.tx_mut()?;
    match tx.fields.iter().position(|w| w.host == host && w.field == key) {
        Some(i) => {
            tx.fields[i].by = by;
            tx.fields[i].line = line;
        }
        None if tx.fields.len() >= limit => {
            return Err(format!("more than {limit} distinct fields written in one transaction"));
        }
        None => tx.fields.push(FieldWrite { host, field: key.to_owned(), by, line }),
    }
    with_world(lua, |w| w.set_attribute(host, key, Some(value.to_attribute())))
        .map_err(|e| e.to_string())?
        .map_err(|e| e.to_string())?;
    Ok(mlua::Value::Nil)
}

fn go_to(rt: &mut Runtime, b: BindingIndex, state: &str) -> std::result::Result<Option<Function>, String> {
    rt.tx_mut()?;
    let binding = rt.bindings.get_mut(b).ok_or("no such behaviour instance")?;
    let spec = binding.def.states.get(state).ok_or_else(|| format!("'{state}' is not one of the states"))?;
    let enter = spec.enter.clone();
    binding.live.state = Some(state.to_owned());
    Ok(enter)
}

fn raise(
    lua: &Lua,
    rt: &mut Runtime,
    b: BindingIndex,
    target: &mlua::Value,
    name: &str,
    payload: &mlua::Value,
) -> Prim {
    let binding = rt.bindings.get(b).ok_or("no such behaviour instance")?;
    let entries = binding
        .def
        .events
        .get(name)
        .ok_or_else(|| format!("'{name}' is not a declared event of '{}'", binding.def.name))?;
    let payload = payload_of(lua, name, entries, payload)?;
    let target = match target {
        mlua::Value::Nil => binding.host,
        other => instance_id(lua, other)
            .ok_or_else(|| format!("Send: the target must be an Instance, not {}", type_name(lua, other)))?,
    };
    rt.tx_mut()?.raised.push(Raised { target, name: name.to_owned(), payload });
    Ok(mlua::Value::Nil)
}

fn start_timer(lua: &Lua, rt: &mut Runtime, b: BindingIndex, name: &str, minutes: &mlua::Value) -> Prim {
    let (now, limit) = (rt.now, rt.settings.timers_per_instance as usize);
    rt.tx_mut()?;
    let binding = rt.bindings.get_mut(b).ok_or("no such behaviour instance")?;
    if !binding.def.events.contains_key(name) {
        return Err(format!("StartTimer: '{name}' is not a declared event (a started timer delivers one)"));
    }
    let minutes = match Value::from_lua(lua, minutes, Kind::Int, "StartTimer's minutes")? {
        Value::Int(m) if m >= 1 => m as u64,
        _ => return Err("StartTimer: give a whole number of minutes, at least 1".to_owned()),
    };
    if binding.live.timers.len() >= limit {
        return Err(format!("more than {limit} started timers on one instance"));
    }
    let seq = binding.live.counters.timers_started;
    binding.live.counters.timers_started += 1;
    let timers = &mut binding.live.timers;
    let timer = super::binding::StartedTimer { name: name.to_owned(), due: now + minutes, seq };
    let at = timers.partition_point(|t| (t.due, t.seq) < (timer.due, timer.seq));
    timers.insert(at, timer);
    Ok(mlua::Value::Nil)
}

fn random(lua: &Lua, rt: &mut Runtime, b: BindingIndex, m: &mlua::Value, n: &mlua::Value) -> Prim {
    rt.tx_mut()?;
    let binding = rt.bindings.get_mut(b).ok_or("no such behaviour instance")?;
    let draw = binding.live.rng.next();
    let int = |v: &mlua::Value, what: &str| match Value::from_lua(lua, v, Kind::Int, what) {
        Ok(Value::Int(i)) => Ok(i64::from(i)),
        Ok(_) => unreachable!("an int checks as an int"),
        Err(e) => Err(e),
    };
    match (m.is_nil(), n.is_nil()) {
        (true, true) => Ok(mlua::Value::Number((draw >> 11) as f64 / (1u64 << 53) as f64)),
        (false, true) => {
            let hi = int(m, "Random's bound")?;
            if hi < 1 {
                return Err("Random(n): n must be at least 1".to_owned());
            }
            Ok(mlua::Value::Number((1 + (draw % hi as u64) as i64) as f64))
        }
        _ => {
            let (lo, hi) = (int(m, "Random's low bound")?, int(n, "Random's high bound")?);
            if hi < lo {
                return Err("Random(m, n): m must not be above n".to_owned());
            }
            let span = (hi - lo + 1) as u64;
            Ok(mlua::Value::Number((lo + (draw % span) as i64) as f64))
        }
    }
}

/// Appends a log line to the open transaction, cut as the game's log limit says.
pub fn push_log(rt: &mut Runtime, line: String) {
    let (lines, chars) =
        (rt.settings.log_lines_per_transaction as usize, rt.settings.log_line_chars as usize);
    let Some(tx) = rt.tx.as_mut() else { return };
    if tx.log.len() >= lines {
        if !tx.log_cut {
            tx.log_cut = true;
            tx.log.push(format!("… (log cut: more than {lines} lines in one transaction)"));
        }
        return;
    }
    let line = match line.char_indices().nth(chars) {
        Some((cut, _)) => format!("{}… (cut at {chars} characters)", &line[..cut]),
        None => line,
    };
    tx.log.push(line);
}

/// Installs the behaviour API on `lua`: the primitives, the `self` factory and the
/// environment base (over the Scripts' base `base`).
pub fn install(lua: &Lua, base: &Table, check: Function) -> Result<BehaviorApi> {
    let prims = lua.create_table()?;
    let key = |v: &mlua::Value| text(v).unwrap_or_default();
    prims.raw_set(
        "memGet",
        lua.create_function(move |lua, (b, k): (mlua::Value, mlua::Value)| {
            let b = binding_of(&b)?;
            let r = with_runtime(lua, |rt| mem_get(lua, rt, b, key_text(&k).as_deref().unwrap_or("")));
            answer(lua, r)
        })?,
    )?;
    prims.raw_set(
        "memSet",
        lua.create_function(move |lua, (b, k, v): (mlua::Value, mlua::Value, mlua::Value)| {
            let b = binding_of(&b)?;
            if let mlua::Value::String(s) = &v {
                crate::budget::charge(s.as_bytes().len(), 0)?;
            }
            let r = with_runtime(lua, |rt| mem_set(lua, rt, b, key_text(&k).as_deref().unwrap_or(""), &v));
            answer(lua, r)
        })?,
    )?;
    prims.raw_set(
        "fieldGet",
        lua.create_function(move |lua, (b, k): (mlua::Value, mlua::Value)| {
            let b = binding_of(&b)?;
            let r = with_runtime(lua, |rt| field_get(lua, rt, b, key_text(&k).as_deref().unwrap_or("")));
            answer(lua, r)
        })?,
    )?;
    prims.raw_set(
        "fieldSet",
        lua.create_function(move |lua, (b, k, v): (mlua::Value, mlua::Value, mlua::Value)| {
            let b = binding_of(&b)?;
            let r = with_runtime(lua, |rt| field_set(lua, rt, b, key_text(&k).as_deref().unwrap_or(""), &v));
            answer(lua, r)
        })?,
    )?;
    prims.raw_set(
        "goto",
        lua.create_function(move |lua, (b, s): (mlua::Value, mlua::Value)| {
            let b = binding_of(&b)?;
            match with_runtime(lua, |rt| go_to(rt, b, &key(&s)))? {
                Ok(enter) => ok(lua, enter),
                Err(m) => fail(lua, m),
            }
        })?,
    )?;
    prims.raw_set(
        "state",
        lua.create_function(move |lua, b: mlua::Value| {
            let b = binding_of(&b)?;
            let state = with_runtime(lua, |rt| rt.bindings.get(b).and_then(|x| x.live.state.clone()))?;
            ok(lua, state)
        })?,
    )?;
    prims.raw_set(
        "raise",
        lua.create_function(
            move |lua, (b, target, name, payload): (mlua::Value, mlua::Value, mlua::Value, mlua::Value)| {
                let b = binding_of(&b)?;
                let r = with_runtime(lua, |rt| raise(lua, rt, b, &target, &key(&name), &payload));
                answer(lua, r)
            },
        )?,
    )?;
    prims.raw_set(
        "startTimer",
        lua.create_function(move |lua, (b, name, minutes): (mlua::Value, mlua::Value, mlua::Value)| {
            let b = binding_of(&b)?;
            let r = with_runtime(lua, |rt| start_timer(lua, rt, b, &key(&name), &minutes));
            answer(lua, r)
        })?,
    )?;
    prims.raw_set(
        "stopTimer",
        lua.create_function(move |lua, (b, name): (mlua::Value, mlua::Value)| {
            let b = binding_of(&b)?;
            let name = key(&name);
            let r = with_runtime(lua, |rt| -> Prim {
                rt.tx_mut()?;
                let binding = rt.bindings.get_mut(b).ok_or("no such behaviour instance")?;
                let before = binding.live.timers.len();
                binding.live.timers.retain(|t| t.name != name);
                Ok(mlua::Value::Number((before - binding.live.timers.len()) as f64))
            });
            answer(lua, r)
        })?,
    )?;
    prims.raw_set(
        "random",
        lua.create_function(move |lua, (b, m, n): (mlua::Value, mlua::Value, mlua::Value)| {
            let b = binding_of(&b)?;
            let r = with_runtime(lua, |rt| random(lua, rt, b, &m, &n));
            answer(lua, r)
        })?,
    )?;
    prims.raw_set(
        "now",
        lua.create_function(move |lua, ()| {
            let now = with_runtime(lua, |rt| rt.now)?;
            ok(lua, now as f64)
        })?,
    )?;
    let tostring: Function = lua.globals().get("tostring")?;
    let log = lua.create_function(move |lua, args: mlua::MultiValue| {
        let mut line = String::new();
        for (k, a) in args.into_iter().enumerate() {
            if k > 0 {
                line.push('\t');
            }
            line.push_str(&tostring.call::<String>(a)?);
        }
        crate::budget::charge(line.len(), 0)?;
        with_runtime(lua, |rt| push_log(rt, line))?;
        ok(lua, mlua::Value::Nil)
    })?;
    prims.raw_set("log", log)?;
    let (make_self, math, os, tonumber): (Function, Table, Table, Function) =
        lua.load(BEHAVIOR_PRELUDE).set_name("=arbor-behaviors").call((check, prims.clone()))?;
    let methods_log: Function = lua
        .load("local log, check = ... return function(...) check(log(...)) end")
        .set_name("=arbor-behaviors")
        .call((
            prims.get::<Function>("log")?,
            lua.named_registry_value::<Table>(crate::luau::prelude::PRELUDE_KEY)?.get::<Function>("check")?,
        ))?;
    let env_base = lua.create_table()?;
    env_base.raw_set("math", math)?;
    env_base.raw_set("os", os)?;
    env_base.raw_set("print", methods_log)?;
    env_base.raw_set("tonumber", tonumber)?;
    env_base.raw_set("__arbor_checks", super::arith::checks_table(lua)?)?;
    let meta = lua.create_table()?;
    meta.raw_set("__index", base.clone())?;
    env_base.set_metatable(Some(meta))?;
    env_base.set_readonly(true);
    Ok(BehaviorApi { make_self, env_base })
}

/// Queues `name` with `payload` for the bindings hosted by `host` (from a Script:
/// `game.Behaviors.Send`); checked against the first of them that declares the event.
pub fn send_from_script(
    lua: &Lua,
    host: Id,
    name: &str,
    payload: &mlua::Value,
) -> std::result::Result<(), String> {
    let r = with_runtime(lua, |rt| -> std::result::Result<(), String> {
        let entries = rt
            .hosted_by(host)
            .find_map(|i| rt.bindings[i].def.events.get(name).cloned())
            .ok_or_else(|| format!("no behaviour on that instance declares the event '{name}'"))?;
        let payload = payload_of(lua, name, &entries, payload)?;
        rt.outside.push(Raised { target: host, name: name.to_owned(), payload });
        Ok(())
    });
    r.map_err(|e| e.to_string())?
}
