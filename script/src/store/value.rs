//! Lua values to store values and back: the walk that turns a Lua value into the bytes of
//! the store format (`arbor_store::format`) and the decoder's builder of Lua values. The
//! format, its canonical order and its limits are `arbor-store`'s; this file owns what is
//! Lua's: which Lua values are storable, cycles and metatables, and charging the walk to the
//! running entry.
//!
//! What a value can hold: numbers (finite; NaN and infinities are refused), booleans,
//! strings (any bytes), `Vector3`s (Luau vectors, finite components) and tables of those
//! nested at most [`MAX_DEPTH`] levels (the value itself is level 1), keyed by numbers,
//! strings or booleans. Refused: functions, Instances and other userdata, coroutines,
//! buffers, tables with a metatable, tables inside themselves. A table that appears twice
//! (not inside itself) is stored twice and comes back as two tables.
//!
//! [`encode`] checks every rule while it walks and stops writing once the value is over the
//! limit (it keeps counting, so the error gives the full size); the walk is charged to the
//! running entry. [`decode`] never panics on corrupt bytes and allocates at most in
//! proportion to their length.

use super::key::describe;
use crate::budget;
use arbor_store::format::{Build, Corrupt, Encoder, TableKey, canonical_order, decode_with};
use arbor_store::{MAX_DEPTH, StoreError};
use mlua::{Lua, Table, Value, Vector};
use std::ffi::c_void;

/// Encodes `value` (usually a table), refusing it if it breaks a rule or its encoding is
/// longer than `max_bytes`. Charges the running entry for the walk.
pub(crate) fn encode(lua: &Lua, value: &Value, max_bytes: usize) -> Result<Vec<u8>, StoreError> {
    let mut w = Walk { lua, e: Encoder::new(max_bytes), path: Vec::with_capacity(MAX_DEPTH) };
    w.item(value, 0)?;
    w.settle()?;
    w.e.finish()
}

/// The text of a VM failure during the walk, as the script sees it.
fn vm_error(e: &mlua::Error) -> StoreError {
    StoreError::Interrupted(crate::luau::convert::error_text(e))
}

/// A walk of one Lua value into an [`Encoder`].
struct Walk<'a> {
    lua: &'a Lua,
    e: Encoder,
    /// The tables being encoded, outermost first (to find cycles).
    path: Vec<*const c_void>,
}

impl Walk<'_> {
    /// Counts one visited item; charges the running entry once enough work piled up.
    fn visit(&mut self) -> Result<(), StoreError> {
        if self.e.visit() { self.settle() } else { Ok(()) }
    }

    fn settle(&mut self) -> Result<(), StoreError> {
        let bytes = self.e.take_work();
        budget::charge(bytes, 0).map_err(|_| StoreError::Interrupted(budget::BUDGET_MESSAGE.to_owned()))
    }

    /// An integer as mlua hands it over (a double that happens to be whole, or a Luau
    /// integer): stored as the number it is, refused if a double cannot hold it exactly.
    fn integer(&mut self, i: i64) -> Result<f64, StoreError> {
        let n = i as f64;
        if n as i64 == i && n != 9_223_372_036_854_775_808.0 {
            Ok(n)
        } else {
            Err(StoreError::BadType(format!("the integer {i}, which a number cannot hold exactly")))
        }
    }

    fn item(&mut self, v: &Value, depth: usize) -> Result<(), StoreError> {
        self.visit()?;
        match v {
            Value::Boolean(b) => self.e.boolean(*b),
            Value::Integer(i) => {
                let n = self.integer(*i)?;
                self.e.number(n)?;
            }
            Value::Number(n) => self.e.number(*n)?,
            Value::String(s) => self.e.string(&s.as_bytes()),
            Value::Vector(v) => self.e.vector([v.x(), v.y(), v.z()])?,
            Value::Table(t) => self.table(t, depth + 1)?,
            other => return Err(StoreError::BadType(describe(self.lua, other))),
        }
        Ok(())
    }

    /// Encodes table `t` at nesting level `depth` (the value itself is level 1).
    fn table(&mut self, t: &Table, depth: usize) -> Result<(), StoreError> {
        let p = t.to_pointer();
        if self.path.contains(&p) {
            return Err(StoreError::Cycle);
        }
        if depth > MAX_DEPTH {
            return Err(StoreError::TooDeep);
        }
        if t.metatable().is_some() {
            return Err(StoreError::Metatable);
        }
        let mut pairs: Vec<(TableKey, Value)> = Vec::new();
        for pair in t.pairs::<Value, Value>() {
            let (k, v) = pair.map_err(|e| vm_error(&e))?;
            self.visit()?;
            let key = match k {
                Value::Boolean(b) => TableKey::Bool(b),
                Value::Integer(i) => TableKey::Num(self.integer(i)?),
                Value::Number(n) => TableKey::Num(n),
                Value::String(s) => TableKey::Str(s.as_bytes().to_vec()),
                other => return Err(StoreError::BadTableKey(describe(self.lua, &other))),
            };
            pairs.push((key, v));
        }
        let (first_num, array) = canonical_order(&mut pairs);
        self.path.push(p);
        self.e.table(array, pairs.len() - array);
        for (_, v) in &pairs[first_num..first_num + array] {
            self.item(v, depth)?;
        }
        for (k, v) in pairs[..first_num].iter().chain(&pairs[first_num + array..]) {
            self.e.key(k)?;
            self.item(v, depth)?;
        }
        self.path.pop();
        Ok(())
    }
}

/// Decodes bytes made by [`encode`]. Corrupt or truncated bytes give an error, never a
/// panic; allocation is bounded by the input's length.
pub(crate) fn decode(lua: &Lua, bytes: &[u8]) -> mlua::Result<Value> {
    decode_with(bytes, &mut LuaBuild(lua)).map_err(|e| e.0)
}

/// A failure while Lua values were built: the VM's, or corrupt bytes as a runtime error.
struct BuildError(mlua::Error);

impl From<Corrupt> for BuildError {
    fn from(c: Corrupt) -> Self {
        BuildError(mlua::Error::runtime(c.to_string()))
    }
}

impl From<mlua::Error> for BuildError {
    fn from(e: mlua::Error) -> Self {
        BuildError(e)
    }
}

/// Builds Lua values for [`decode_with`].
struct LuaBuild<'a>(&'a Lua);

impl Build for LuaBuild<'_> {
    type Value = Value;
    type Table = Table;
    type Error = BuildError;

    fn boolean(&mut self, b: bool) -> Result<Value, BuildError> {
        Ok(Value::Boolean(b))
    }
    fn number(&mut self, n: f64) -> Result<Value, BuildError> {
        Ok(Value::Number(n))
    }
    fn string(&mut self, bytes: &[u8]) -> Result<Value, BuildError> {
        Ok(Value::String(self.0.create_string(bytes)?))
    }
    fn vector(&mut self, c: [f32; 3]) -> Result<Value, BuildError> {
        Ok(Value::Vector(Vector::new(c[0], c[1], c[2])))
    }
    fn table(&mut self, array: usize, other: usize) -> Result<Table, BuildError> {
        Ok(self.0.create_table_with_capacity(array, other)?)
    }
    fn set(&mut self, table: &mut Table, key: Value, value: Value) -> Result<(), BuildError> {
        Ok(table.raw_set(key, value)?)
    }
    fn end_table(&mut self, table: Table) -> Result<Value, BuildError> {
        Ok(Value::Table(table))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use arbor_store::format::FORMAT_VERSION;

    // The format's tags (`arbor_store::format`).
    const T_TRUE: u8 = 0x01;
    const T_INT: u8 = 0x02;
    const T_F64: u8 = 0x03;
    const T_STR: u8 = 0x04;
    const T_TABLE: u8 = 0x06;

    const LIMIT: usize = 64 * 1024;

    fn enc(lua: &Lua, src: &str) -> Result<Vec<u8>, String> {
        let v: Value = lua.load(src).eval().unwrap();
        encode(lua, &v, LIMIT).map_err(|e| e.to_string())
    }

    #[test]
    fn the_format_is_compact_and_versioned() {
        let lua = Lua::new();
        assert_eq!(enc(&lua, "{}").unwrap(), [FORMAT_VERSION, T_TABLE, 0, 0]);
        assert_eq!(
            enc(&lua, "{ 5, true, x = -1 }").unwrap(),
            [1, T_TABLE, 2, 1, T_INT, 10, T_TRUE, T_STR, 1, b'x', T_INT, 1]
        );
        let mut half = vec![1, T_TABLE, 1, 0, T_F64];
        half.extend_from_slice(&0.5f64.to_le_bytes());
        assert_eq!(enc(&lua, "{ 0.5 }").unwrap(), half);
    }

    #[test]
    fn equal_tables_encode_equally_whatever_the_insertion_order() {
        let lua = Lua::new();
        let a = enc(&lua, "local t = {} t.b = 1 t.a = 2 t[3] = 'x' t[1] = 1 t[2] = 2 t[true] = 0 return t");
        let b = enc(&lua, "local t = {} t[true] = 0 t[1] = 1 t.a = 2 t[2] = 2 t[3] = 'x' t.b = 1 return t");
        assert_eq!(a.unwrap(), b.unwrap());
    }

    #[test]
    fn values_round_trip_bit_for_bit() {
        let lua = Lua::new();
        let src = "return { -0.0, 0.1, 1e308, 5e-324, 2^53, -2^53, 2^53 + 2, 2^60, 3,
            vector.create(-0.0, 1.5, 3.4e38), 'a\\0b', { {}, { x = { false } } },
            [0] = 'zero', [-1] = true, [1.5] = 2, [false] = 'no', [20] = 'gap' }";
        let v: Value = lua.load(src).eval().unwrap();
        let bytes = encode(&lua, &v, LIMIT).unwrap();
        let back = decode(&lua, &bytes).unwrap();
        assert_eq!(encode(&lua, &back, LIMIT).unwrap(), bytes);
        let t = back.as_table().unwrap();
        let first: f64 = t.raw_get(1).unwrap();
        assert_eq!(first.to_bits(), (-0.0f64).to_bits());
        let v: Value = t.raw_get(10).unwrap();
        let Value::Vector(v) = v else { panic!("vector") };
        assert_eq!(v.x().to_bits(), (-0.0f32).to_bits());
        assert_eq!(v.z(), 3.4e38);
    }

    #[test]
    fn every_rule_is_checked() {
        let lua = Lua::new();
        let deep = |n: usize| format!("return {}{}", "{".repeat(n), "}".repeat(n));
        assert!(enc(&lua, &deep(8)).is_ok());
        assert_eq!(enc(&lua, &deep(9)), Err("store value is nested deeper than 8 levels".into()));
        // 4 bytes of header + 1 (string tag) + 3 (varint) = 8 bytes around the string.
        assert_eq!(enc(&lua, &format!("return {{ string.rep('x', {}) }}", LIMIT - 8)).unwrap().len(), LIMIT);
        assert_eq!(
            enc(&lua, &format!("return {{ string.rep('x', {}) }}", LIMIT - 7)),
            Err(format!("store value is {} bytes encoded; the limit is {LIMIT}", LIMIT + 1))
        );
        for (src, msg) in [
            (
                "{ print }",
                "stores can hold numbers, booleans, strings, Vector3 values and tables, not a function",
            ),
            (
                "{ coroutine.create(print) }",
                "stores can hold numbers, booleans, strings, Vector3 values and tables, not a thread",
            ),
            ("{ 0/0 }", "stores can hold finite numbers only, not nan"),
            ("{ -math.huge }", "stores can hold finite numbers only, not -inf"),
            (
                "{ vector.create(1, math.huge, 0) }",
                "stores can hold finite numbers only, not a Vector3 with a component inf",
            ),
            ("{ [{}] = 1 }", "store table keys are numbers, strings or booleans, not a table"),
            (
                "(function() local t = {} t.me = { t } return t end)()",
                "store value contains a table inside itself",
            ),
            ("setmetatable({}, {})", "stores can hold plain tables only, not a table with a metatable"),
        ] {
            assert_eq!(enc(&lua, &format!("return {src}")), Err(msg.into()), "{src}");
        }
        // A table shared (not cyclic) is stored twice.
        assert!(enc(&lua, "local s = { 1 } return { s, s }").is_ok());
    }

    #[test]
    fn a_huge_value_is_refused_without_building_it() {
        let lua = Lua::new();
        let v: Value = lua.load("return { string.rep('x', 50000000) }").eval().unwrap();
        let e = encode(&lua, &v, LIMIT).unwrap_err();
        assert_eq!(e, StoreError::TooLarge { bytes: 50_000_000 + 9, limit: LIMIT });
    }

    #[test]
    fn the_decoder_refuses_what_put_refuses() {
        let lua = Lua::new();
        let mut bytes = enc(&lua, "return vector.create(1, 2, 3)").unwrap();
        assert!(decode(&lua, &bytes).is_ok());
        let x = bytes.len() - 12;
        bytes[x..x + 4].copy_from_slice(&f32::INFINITY.to_le_bytes());
        let err = decode(&lua, &bytes).unwrap_err().to_string();
        assert!(err.contains("a Vector3 with a non-finite component"), "{err}");
    }

    #[test]
    fn corrupt_bytes_never_panic() {
        let lua = Lua::new();
        let good = enc(
            &lua,
            "return { 1, 2.5, 'three', { vector.create(1, 2, 3), { a = { b = { c = true } } } }, x = -7 }",
        )
        .unwrap();
        assert!(decode(&lua, &good).is_ok());
        for cut in 0..good.len() {
            assert!(decode(&lua, &good[..cut]).is_err(), "cut at {cut}");
        }
        let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for _ in 0..20_000 {
            let mut b = good.clone();
            for _ in 0..1 + next() % 4 {
                let i = (next() as usize) % b.len();
                b[i] = next() as u8;
            }
            let _ = decode(&lua, &b);
        }
        // Counts far beyond the input are refused before anything is allocated.
        let huge = [1, T_TABLE, 0xff, 0xff, 0xff, 0xff, 0x0f, 0];
        assert!(decode(&lua, &huge).unwrap_err().to_string().contains("count larger than the value"));
        let deep: Vec<u8> = std::iter::once(1).chain((0..9).flat_map(|_| [T_TABLE, 1, 0])).collect();
        assert!(decode(&lua, &deep).unwrap_err().to_string().contains("nested too deep"));
        assert!(decode(&lua, &[2, T_TRUE]).unwrap_err().to_string().contains("unknown format version 2"));
    }
}
