//! [`Payload`]: what an `Emit` hands its handlers. `Emit` accepts pure data only
//! (`docs/scripting.md`, "Signals"): nil, booleans, numbers, strings, vectors, Instances and
//! tables of those (nested at most 32 deep), checked once when the signal is emitted
//! ([`Payload::check`]).
//!
//! Invariant: no handler ever holds a table of the emitter or of another handler. Each
//! handler gets its own deep copy ([`Payload::copy`]) with no metatables, so nothing a
//! sender hid in a metatable reaches a receiver, and nothing a receiver does to its copy
//! (writing, freezing, setting a metatable) reaches the sender or the next handler. A table
//! that appears several times in the payload (or inside itself) appears the same way in the
//! copy: the copy keeps the payload's shape, cycles included. Strings, vectors and
//! Instances are values (or immutable) and are passed as they are.
//!
//! Both the check and the copy walk tables in Luau ([`PAYLOAD_SOURCE`], compiled once per VM
//! by [`install`]; a walk through mlua's iterators cost several times more), unmetered, and
//! are charged by what they walked: the check one unit per pair to the emitter (by the
//! caller), each copy [`COPY_UNITS_PER_PAIR`] per pair to its handler, up front, in the
//! handler's entry and memory category.

use crate::luau::convert::instance_id;
use mlua::{Function, Lua, MultiValue, Value};

/// Units a handler pays per key-value pair of its copy (the walk, and the bytes a pair takes
/// in the copy).
pub const COPY_UNITS_PER_PAIR: usize = 4;

/// The checking and copying functions. `next` is the raw iterator, so no metamethod of a
/// payload table runs; `typeof` names an Instance only for the engine's Instance handles
/// (scripts cannot make userdata, and a table's `typeof` is always "table").
const PAYLOAD_SOURCE: &str = r##"
local next, rawset, type, typeof, select, pack, unpack = next, rawset, type, typeof, select, table.pack, table.unpack
local PLAIN = { ["nil"] = true, boolean = true, number = true, string = true, vector = true }
local function walk(v, depth, seen, n)
    local t = type(v)
    if t == "table" then
        if depth > 32 then return "a table nested deeper than 32 levels", n end
        if seen[v] then return nil, n end
        seen[v] = true
        for k, x in next, v do
            n += 1
            local bad
            bad, n = walk(k, depth + 1, seen, n)
            if bad then return bad, n end
            bad, n = walk(x, depth + 1, seen, n)
            if bad then return bad, n end
        end
        return nil, n
    elseif PLAIN[t] or (t == "userdata" and typeof(v) == "Instance") then
        return nil, n
    elseif t == "function" then
        return "a function", n
    elseif t == "thread" then
        return "a coroutine", n
    end
    return "a " .. typeof(v), n
end
local function check(...)
    local seen, n = {}, 0
    for i = 1, select("#", ...) do
        local bad
        bad, n = walk((select(i, ...)), 0, seen, n)
        if bad then return i, bad end
    end
    return 0, n
end
local function copyOf(v, seen)
    if type(v) ~= "table" then return v end
    local c = seen[v]
    if c ~= nil then return c end
    c = {}
    seen[v] = c
    for k, x in next, v do
        rawset(c, copyOf(k, seen), copyOf(x, seen))
    end
    return c
end
local function copy(...)
    local seen, args = {}, pack(...)
    for i = 1, args.n do args[i] = copyOf(args[i], seen) end
    return unpack(args, 1, args.n)
end
return check, copy
"##;

/// The compiled functions, in the VM's app data.
struct PayloadFunctions {
    check: Function,
    copy: Function,
}

/// Compiles the checking and copying functions into `lua`'s app data.
pub(crate) fn install(lua: &Lua) -> mlua::Result<()> {
    let (check, copy) = lua.load(PAYLOAD_SOURCE).set_name("=arbor-payload").call(())?;
    lua.set_app_data(PayloadFunctions { check, copy });
    Ok(())
}

fn functions(lua: &Lua) -> mlua::Result<(Function, Function)> {
    let f = lua
        .app_data_ref::<PayloadFunctions>()
        .ok_or_else(|| mlua::Error::runtime("the payload functions are not installed"))?;
    Ok((f.check.clone(), f.copy.clone()))
}

/// An emitted payload, checked to be pure data.
pub(crate) struct Payload {
    values: MultiValue,
    /// Whether any argument is a table (else a copy is the values themselves).
    has_tables: bool,
    /// Key-value pairs in the payload's tables (each table counted once): the work of one
    /// walk over it.
    pub pairs: usize,
}

impl Payload {
    /// Checks that every argument is pure data; on failure, says which argument is what.
    /// `Err` of `Ok` is the script's mistake; `Err` of `Err` a VM error.
    pub fn check(lua: &Lua, values: MultiValue) -> mlua::Result<Result<Self, String>> {
        let refuse = |i: usize, bad: &str| Err(format!("Emit accepts pure data only: argument {i} is {bad}"));
        if !values.iter().any(|v| matches!(v, Value::Table(_))) {
            for (i, v) in values.iter().enumerate() {
                if let Some(bad) = not_plain(lua, v) {
                    return Ok(refuse(i + 1, &bad));
                }
            }
            return Ok(Ok(Self { values, has_tables: false, pairs: 0 }));
        }
        let (check, _) = functions(lua)?;
        let (at, what): (usize, Value) = crate::budget::unmetered(|| check.call(values.clone()))?;
        Ok(match (at, what) {
            (0, Value::Integer(n)) => Ok(Self { values, has_tables: true, pairs: n as usize }),
            (0, Value::Number(n)) => Ok(Self { values, has_tables: true, pairs: n as usize }),
            (i, what) => refuse(i, &what.to_string()?),
        })
    }

    /// A payload of engine values (a join's user id, a dying character): passed as they are.
    pub fn engine(values: MultiValue) -> Self {
        Self { values, has_tables: false, pairs: 0 }
    }

    /// A deep copy of the payload for one handler: every table new, without metatables.
    /// Charges the running entry (the handler's) [`COPY_UNITS_PER_PAIR`] per pair first.
    pub fn copy(&self, lua: &Lua) -> mlua::Result<MultiValue> {
        if !self.has_tables {
            return Ok(self.values.clone());
        }
        crate::budget::charge(0, self.pairs.saturating_mul(COPY_UNITS_PER_PAIR))?;
        let (_, copy) = functions(lua)?;
        crate::budget::unmetered(|| copy.call(self.values.clone()))
    }
}

/// What a value that is not a table is, if it is not pure data.
fn not_plain(lua: &Lua, v: &Value) -> Option<String> {
    match v {
        Value::Nil
        | Value::Boolean(_)
        | Value::Integer(_)
        | Value::Number(_)
        | Value::String(_)
        | Value::Vector(_) => None,
        Value::UserData(_) if instance_id(lua, v).is_some() => None,
        Value::Function(_) => Some("a function".to_owned()),
        Value::Thread(_) => Some("a coroutine".to_owned()),
        other => Some(format!("a {}", crate::luau::convert::type_name(lua, other))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use mlua::Table;

    #[test]
    fn a_copy_keeps_shape_and_cycles_and_drops_metatables() {
        let lua = Lua::new();
        install(&lua).unwrap();
        let (t, shared): (Table, Table) = lua
            .load(
                "local s = { 1 } local t = { a = s, b = s, n = 5 } t.self = t \
                 setmetatable(t, { __index = function() return 'hidden' end }) return t, s",
            )
            .eval()
            .unwrap();
        let payload =
            Payload::check(&lua, MultiValue::from_iter([Value::Table(t.clone())])).unwrap().unwrap();
        assert_eq!(payload.pairs, 5, "four pairs in t, one in s");
        let copy = payload.copy(&lua).unwrap();
        let Some(Value::Table(c)) = copy.front() else { panic!("a table") };
        assert!(!c.equals(&t).unwrap() && c.metatable().is_none());
        assert_eq!(c.get::<Option<String>>("missing").unwrap(), None, "the metatable did not come along");
        let (a, b): (Table, Table) = (c.get("a").unwrap(), c.get("b").unwrap());
        assert!(
            a.equals(&b).unwrap() && !a.equals(&shared).unwrap(),
            "a shared table stays shared, as a copy"
        );
        assert!(c.get::<Table>("self").unwrap().equals(c).unwrap(), "the cycle is kept");
        assert_eq!(c.get::<i64>("n").unwrap(), 5);
    }

    #[test]
    fn functions_and_coroutines_are_named() {
        let lua = Lua::new();
        install(&lua).unwrap();
        let t: Table = lua.load("return { x = { print } }").eval().unwrap();
        let err = Payload::check(&lua, MultiValue::from_iter([Value::Nil, Value::Table(t)])).unwrap().err();
        assert_eq!(err.as_deref(), Some("Emit accepts pure data only: argument 2 is a function"));
    }
}
