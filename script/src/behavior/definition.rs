//! [`Definition`]: a behaviour's definition, read from the table its chunk returns.
//!
//! ```lua
//! return {
//!   host = "Part",                                   -- the host's class ("Instance": any)
//!   fields = { Open = { type = "bool" },             -- the contract: attributes the host
//!              Stock = { type = "int", min = 0, max = 99 } },  -- must have, and checks
//!   properties = { CloseAfter = { type = "int", default = 2 } }, -- values each binding gives
//!   events = { Open = {}, Sold = { item = "string" } },          -- payload entry types
//!   memory = { opens = 0, ratio = { type = "number", value = 0 } },
//!   auto = "Closed",                                 -- the auto state
//!   states = { Closed = { enter = fn, on = { Open = fn }, timers = { ... } }, ... },
//!   on = { ... }, timers = { Restock = { every = 60, run = fn } },  -- in every state
//!   ready = fn, Migrate = fn,
//! }
//! ```
//!
//! Invariants: every handler names a declared event or a declared timer; the auto state,
//! when given, is one of the states; every memory slot has a kind and an initial value that
//! satisfies it. A definition that breaks one is refused with the reason.

use super::value::{Kind, Value};
use arbor_core::Class;
use mlua::{Function, Lua, Table};
use std::collections::BTreeMap;

/// A contract field: an attribute the host must have, its kind and the game's checks.
#[derive(Clone, Debug)]
pub struct FieldSpec {
    /// Field (attribute) name.
    pub name: String,
    /// Its kind.
    pub kind: Kind,
    /// Smallest accepted number.
    pub min: Option<f64>,
    /// Largest accepted number.
    pub max: Option<f64>,
    /// Longest accepted string, in bytes.
    pub max_length: Option<usize>,
    /// The accepted values, if only some are.
    pub one_of: Vec<Value>,
}

impl FieldSpec {
    /// Why `v` fails this field's checks, if it does.
    pub fn check(&self, v: &Value) -> Option<String> {
        if let Some(n) = v.as_number() {
            if let Some(min) = self.min.filter(|&m| n < m) {
                return Some(format!("{n} is below its min {min}"));
            }
            if let Some(max) = self.max.filter(|&m| n > m) {
                return Some(format!("{n} is above its max {max}"));
            }
        }
        if let (Value::String(s), Some(max)) = (v, self.max_length)
            && s.len() > max
        {
            return Some(format!("{} bytes is longer than its maxLength {max}", s.len()));
        }
        if !self.one_of.is_empty() && !self.one_of.contains(v) {
            return Some("the value is not one of its oneOf values".to_owned());
        }
        None
    }
}

/// A property a binding gives (an attribute of the `Behavior` instance).
#[derive(Clone, Debug)]
pub struct PropertySpec {
    /// Property name.
    pub name: String,
    /// Its kind.
    pub kind: Kind,
    /// The value when the binding gives none (`None`: the binding must give it).
    pub default: Option<Value>,
}

/// A declared timer: fires on world minutes that are multiples of `every`.
#[derive(Clone, Debug)]
pub struct TimerSpec {
    /// Timer name (reports name it).
    pub name: String,
    /// Period in world minutes (at least 1).
    pub every: u64,
    /// The handler.
    pub run: Function,
}

/// One state: its `enter`, its handlers and its declared timers.
#[derive(Clone, Debug, Default)]
pub struct StateSpec {
    /// Runs when the state is entered (in the transaction that enters it).
    pub enter: Option<Function>,
    /// Event and started-timer handlers, by name.
    pub on: BTreeMap<String, Function>,
    /// Declared timers active in this state.
    pub timers: Vec<TimerSpec>,
}

/// A behaviour's definition.
#[derive(Debug)]
pub struct Definition {
    /// Behaviour name.
    pub name: String,
    /// Its source (saves keep it, so a cancelled migration can go on with it).
    pub source: std::sync::Arc<str>,
    /// Hash of the source (saves compare it to tell loading from migrating).
    pub hash: u64,
    /// The host class (`None`: any).
    pub host: Option<Class>,
    /// Contract fields.
    pub fields: Vec<FieldSpec>,
    /// Binding properties.
    pub properties: Vec<PropertySpec>,
    /// Events and their payload entries.
    pub events: BTreeMap<String, Vec<(String, Kind)>>,
    /// Memory slots: name, kind, initial value.
    pub memory: Vec<(String, Kind, Value)>,
    /// The auto state.
    pub auto: Option<String>,
    /// States by name.
    pub states: BTreeMap<String, StateSpec>,
    /// Handlers and timers of every state.
    pub common: StateSpec,
    /// Runs once after the auto state's `enter`, in the start transaction.
    pub ready: Option<Function>,
    /// Turns a saved or running instance's memory into this definition's.
    pub migrate: Option<Function>,
}

/// FNV-1a, 64-bit: a hash that is the same on every machine and build.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
}

type Res<T> = Result<T, String>;

fn kind_of(lua: &Lua, spec: &mlua::Value, what: &str) -> Res<Kind> {
    let name: String = match spec {
        mlua::Value::String(s) => s.to_str().map_err(|e| e.to_string())?.to_owned(),
        mlua::Value::Table(t) => t.get("type").map_err(|e| e.to_string())?,
        _ => return Err(format!("{what}: give a type name or a table with `type`")),
    };
    let _ = lua;
    Kind::from_name(&name)
        .ok_or_else(|| format!("{what}: unknown type '{name}' (int, number, string, bool, Vector3)"))
}

fn opt_fn(t: &Table, key: &str, what: &str) -> Res<Option<Function>> {
    match t.get::<mlua::Value>(key).map_err(|e| e.to_string())? {
        mlua::Value::Nil => Ok(None),
        mlua::Value::Function(f) => Ok(Some(f)),
        _ => Err(format!("{what}.{key} must be a function")),
    }
}

/// The string-keyed entries of an optional table field, in key order (determinism: never
/// Luau's `pairs` order).
fn sorted_entries(t: &Table, key: &str, what: &str) -> Res<Vec<(String, mlua::Value)>> {
    let sub = match t.get::<mlua::Value>(key).map_err(|e| e.to_string())? {
        mlua::Value::Nil => return Ok(Vec::new()),
        mlua::Value::Table(s) => s,
        _ => return Err(format!("{what}.{key} must be a table")),
    };
    let mut out = Vec::new();
    for pair in sub.pairs::<mlua::Value, mlua::Value>() {
        let (k, v) = pair.map_err(|e| e.to_string())?;
        let mlua::Value::String(k) = k else {
            return Err(format!("{what}.{key}: every key must be a name"));
        };
        out.push((k.to_str().map_err(|e| e.to_string())?.to_owned(), v));
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(out)
}

fn value_of(lua: &Lua, v: &mlua::Value, kind: Kind, what: &str) -> Res<Value> {
    Value::from_lua(lua, v, kind, what)
}

fn timers(lua: &Lua, t: &Table, what: &str) -> Res<Vec<TimerSpec>> {
    let mut out = Vec::new();
    for (name, spec) in sorted_entries(t, "timers", what)? {
        let mlua::Value::Table(spec) = spec else {
            return Err(format!(
                "{what}.timers.{name} must be a table {{ every = minutes, run = function }}"
            ));
        };
        let every: mlua::Value = spec.get("every").map_err(|e| e.to_string())?;
        let every = match value_of(lua, &every, Kind::Int, &format!("{what}.timers.{name}.every")) {
            Ok(Value::Int(n)) if n >= 1 => n as u64,
            _ => {
                return Err(format!(
                    "{what}.timers.{name}.every must be a whole number of minutes, at least 1"
                ));
            }
        };
        let run = opt_fn(&spec, "run", &format!("{what}.timers.{name}"))?
            .ok_or_else(|| format!("{what}.timers.{name}.run must be a function"))?;
        out.push(TimerSpec { name, every, run });
    }
    Ok(out)
}

fn state(lua: &Lua, t: &Table, what: &str) -> Res<StateSpec> {
    let mut on = BTreeMap::new();
    for (name, f) in sorted_entries(t, "on", what)? {
        let mlua::Value::Function(f) = f else {
            return Err(format!("{what}.on.{name} must be a function"));
        };
        on.insert(name, f);
    }
    Ok(StateSpec { enter: opt_fn(t, "enter", what)?, on, timers: timers(lua, t, what)? })
}

impl Definition {
    /// Reads the definition table `t` of behaviour `name` (source `source`).
    pub fn read(lua: &Lua, name: &str, source: std::sync::Arc<str>, t: &Table) -> Res<Definition> {
        let host = match t.get::<mlua::Value>("host").map_err(|e| e.to_string())? {
            mlua::Value::Nil => None,
            mlua::Value::String(s) => {
                let s = s.to_str().map_err(|e| e.to_string())?.to_owned();
                if s == "Instance" {
                    None
                } else {
                    Some(Class::from_name(&s).ok_or_else(|| format!("host: unknown class '{s}'"))?)
                }
            }
            _ => return Err("host must be a class name".to_owned()),
        };
        let mut fields = Vec::new();
        for (fname, spec) in sorted_entries(t, "fields", "definition")? {
            let what = format!("fields.{fname}");
            let kind = kind_of(lua, &spec, &what)?;
            let mut f =
                FieldSpec { name: fname, kind, min: None, max: None, max_length: None, one_of: Vec::new() };
            if let mlua::Value::Table(spec) = &spec {
                f.min = spec.get("min").map_err(|e| e.to_string())?;
                f.max = spec.get("max").map_err(|e| e.to_string())?;
                f.max_length = spec.get("maxLength").map_err(|e| e.to_string())?;
                if let Some(values) = spec.get::<Option<Table>>("oneOf").map_err(|e| e.to_string())? {
                    for v in values.sequence_values::<mlua::Value>() {
                        let v = v.map_err(|e| e.to_string())?;
                        f.one_of.push(value_of(lua, &v, kind, &format!("{what}.oneOf"))?);
                    }
                }
            }
            fields.push(f);
        }
        let mut properties = Vec::new();
        for (pname, spec) in sorted_entries(t, "properties", "definition")? {
            let what = format!("properties.{pname}");
            let kind = kind_of(lua, &spec, &what)?;
            let default = match &spec {
                mlua::Value::Table(spec) => {
                    match spec.get::<mlua::Value>("default").map_err(|e| e.to_string())? {
                        mlua::Value::Nil => None,
                        v => Some(value_of(lua, &v, kind, &format!("{what}.default"))?),
                    }
                }
                _ => None,
            };
            properties.push(PropertySpec { name: pname, kind, default });
        }
        let mut events = BTreeMap::new();
        for (ename, spec) in sorted_entries(t, "events", "definition")? {
            let what = format!("events.{ename}");
            let mlua::Value::Table(spec) = spec else {
                return Err(format!("{what} must be a table of payload entry types ({{}} for none)"));
            };
            let mut entries = Vec::new();
            for (k, v) in
                sorted_entries(&lua.create_table_from([("p", spec)]).map_err(|e| e.to_string())?, "p", &what)?
            {
                entries.push((k.clone(), kind_of(lua, &v, &format!("{what}.{k}"))?));
            }
            events.insert(ename, entries);
        }
        let mut memory = Vec::new();
        for (mname, spec) in sorted_entries(t, "memory", "definition")? {
            let what = format!("memory '{mname}'");
            let (kind, initial) = match &spec {
                mlua::Value::Table(s) => {
                    let kind = kind_of(lua, &spec, &what)?;
                    let v: mlua::Value = s.get("value").map_err(|e| e.to_string())?;
                    (kind, v)
                }
                mlua::Value::Number(n) if n.fract() == 0.0 => (Kind::Int, spec.clone()),
                mlua::Value::Integer(_) => (Kind::Int, spec.clone()),
                mlua::Value::Number(_) => (Kind::Number, spec.clone()),
                mlua::Value::String(_) => (Kind::String, spec.clone()),
                mlua::Value::Boolean(_) => (Kind::Bool, spec.clone()),
                mlua::Value::Vector(_) => (Kind::Vector3, spec.clone()),
                _ => return Err(format!("{what}: give an initial value or {{ type = ..., value = ... }}")),
            };
            let initial = value_of(lua, &initial, kind, &what)?;
            memory.push((mname, kind, initial));
        }
        let mut states = BTreeMap::new();
        for (sname, spec) in sorted_entries(t, "states", "definition")? {
            let mlua::Value::Table(spec) = spec else {
                return Err(format!("states.{sname} must be a table"));
            };
            states.insert(sname.clone(), state(lua, &spec, &format!("states.{sname}"))?);
        }
        let auto: Option<String> = t.get("auto").map_err(|e| format!("auto: {e}"))?;
        if let Some(a) = &auto
            && !states.contains_key(a)
        {
            return Err(format!("auto: '{a}' is not one of the states"));
        }
        let def = Definition {
            name: name.to_owned(),
            hash: fnv1a(source.as_bytes()),
            source,
            host,
            fields,
            properties,
            events,
            memory,
            auto,
            states,
            common: state(lua, t, "definition")?,
            ready: opt_fn(t, "ready", "definition")?,
            migrate: opt_fn(t, "Migrate", "definition")?,
        };
        def.check_handlers()?;
        Ok(def)
    }

    fn check_handlers(&self) -> Res<()> {
        let all = self.states.iter().map(|(n, s)| (format!("states.{n}"), s));
        for (what, s) in all.chain(std::iter::once(("definition".to_owned(), &self.common))) {
            for name in s.on.keys() {
                if !self.events.contains_key(name) {
                    return Err(format!(
                        "{what}.on.{name}: '{name}' is not a declared event (declare it in `events`; a \
                         started timer delivers a declared event too)"
                    ));
                }
            }
        }
        Ok(())
    }

    /// The field named `name`.
    pub fn field(&self, name: &str) -> Option<&FieldSpec> {
        self.fields.iter().find(|f| f.name == name)
    }

    /// The memory slot index of `name`.
    pub fn memory_slot(&self, name: &str) -> Option<usize> {
        self.memory.iter().position(|(n, _, _)| n == name)
    }

    /// The handler of `event` in `state` (the state's own, else the common one).
    pub fn handler(&self, state: Option<&str>, event: &str) -> Option<&Function> {
        state
            .and_then(|s| self.states.get(s))
            .and_then(|s| s.on.get(event))
            .or_else(|| self.common.on.get(event))
    }

    /// The declared timers active in `state`: the common ones, then the state's.
    pub fn timers_in(&self, state: Option<&str>) -> impl Iterator<Item = &TimerSpec> + '_ {
        let own = state.and_then(|s| self.states.get(s)).map(|s| s.timers.iter());
        self.common.timers.iter().chain(own.into_iter().flatten())
    }

    /// Initial memory values.
    pub fn initial_memory(&self) -> Vec<Value> {
        self.memory.iter().map(|(_, _, v)| v.clone()).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fnv_is_the_published_function() {
        assert_eq!(fnv1a(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a(b"a"), 0xaf63_dc4c_8601_ec8c);
    }
}
