//! The value codec of the stores: Lua values to compact, versioned, deterministic bytes and
//! back. The local and the cloud store both keep values in this form.
//!
//! What a value can hold: numbers (finite; NaN and infinities are refused), booleans,
//! strings (any bytes), `Vector3`s (Luau vectors, finite components) and tables of those
//! nested at most [`MAX_DEPTH`] levels (the value itself is level 1), keyed by numbers,
//! strings or booleans. Refused: functions, Instances and other userdata, coroutines,
//! buffers, tables with a metatable, tables inside themselves. A table that appears twice
//! (not inside itself) is stored twice and comes back as two tables.
//!
//! ## Format (version 1)
//!
//! ```text
//! value   := FORMAT_VERSION item
//! item    := 0x00                       false
//!          | 0x01                       true
//!          | 0x02 varint(zigzag(n))     whole number within ±2^53, not -0
//!          | 0x03 f64 (8 bytes, LE)     any other finite number, bit for bit
//!          | 0x04 varint(len) bytes     string
//!          | 0x05 3 × f32 (LE)          Vector3, bit for bit
//!          | 0x06 varint(n) varint(m) item × n (key item, item) × m
//!                                       table: values of keys 1..n, then the other m
//!                                       pairs, keys in canonical order
//! ```
//!
//! Canonical order: booleans (false, true), then numbers (ascending, `-0` before `0`), then
//! strings (bytewise); the array part is the longest run of keys 1, 2, 3, ... So equal
//! tables encode to equal bytes, whatever order their keys were inserted in.
//!
//! Numbers round-trip exactly (their f64 bits; whole numbers stay whole), vectors too (their
//! f32 bits). [`encode`] checks every rule while it walks and stops writing once the value
//! is over the limit (it keeps counting, so the error gives the full size); the walk is
//! charged to the running entry. [`decode`] never panics on corrupt bytes and allocates at
//! most in proportion to their length.

use super::error::StoreError;
use super::key::{describe, number_text};
use crate::budget;
use mlua::{Lua, Table, Value, Vector};
use std::ffi::c_void;

/// Deepest nesting of tables in a value (the value is level 1).
pub(crate) const MAX_DEPTH: usize = 8;

/// The first byte of every encoded value.
pub(crate) const FORMAT_VERSION: u8 = 1;

const T_FALSE: u8 = 0x00;
const T_TRUE: u8 = 0x01;
const T_INT: u8 = 0x02;
const T_F64: u8 = 0x03;
const T_STR: u8 = 0x04;
const T_VEC: u8 = 0x05;
const T_TABLE: u8 = 0x06;

/// Largest magnitude stored as a whole number (2^53).
const MAX_WHOLE: f64 = 9_007_199_254_740_992.0;

/// Bytes charged for visiting one item (a pair, a number) besides the bytes it writes.
const ITEM_COST_BYTES: usize = 16;

/// Charged work is settled in chunks of at least this many bytes.
const CHARGE_CHUNK: usize = 1024;

/// Encodes `value` (usually a table), refusing it if it breaks a rule or its encoding is
/// longer than `max_bytes`. Charges the running entry for the walk.
pub(crate) fn encode(lua: &Lua, value: &Value, max_bytes: usize) -> Result<Vec<u8>, StoreError> {
    let mut e = Encoder {
        lua,
        buf: Vec::with_capacity(64.min(max_bytes)),
        len: 0,
        max: max_bytes,
        path: Vec::with_capacity(MAX_DEPTH),
        uncharged: 0,
    };
    e.put(&[FORMAT_VERSION]);
    e.item(value, 0)?;
    e.settle()?;
    if e.len > max_bytes {
        return Err(StoreError::TooLarge { bytes: e.len, limit: max_bytes });
    }
    Ok(e.buf)
}

/// A table key, as sorted in the canonical order.
enum TableKey {
    Bool(bool),
    Num(f64),
    Str(Vec<u8>),
}

impl TableKey {
    fn class(&self) -> u8 {
        match self {
            TableKey::Bool(_) => 0,
            TableKey::Num(_) => 1,
            TableKey::Str(_) => 2,
        }
    }

    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        match (self, other) {
            (TableKey::Bool(a), TableKey::Bool(b)) => a.cmp(b),
            (TableKey::Num(a), TableKey::Num(b)) => a.total_cmp(b),
            (TableKey::Str(a), TableKey::Str(b)) => a.cmp(b),
            _ => self.class().cmp(&other.class()),
        }
    }
}

struct Encoder<'a> {
    lua: &'a Lua,
    buf: Vec<u8>,
    /// The encoded length so far (the buffer stops growing once it passes `max`).
    len: usize,
    max: usize,
    /// The tables being encoded, outermost first (to find cycles).
    path: Vec<*const c_void>,
    /// Work done but not charged yet, in bytes.
    uncharged: usize,
}

impl Encoder<'_> {
    fn put(&mut self, bytes: &[u8]) {
        self.len = self.len.saturating_add(bytes.len());
        if self.len <= self.max {
            self.buf.extend_from_slice(bytes);
            self.uncharged += bytes.len();
        }
    }

    fn varint(&mut self, mut n: u64) {
        let mut out = [0u8; 10];
        let mut i = 0;
        loop {
            let b = (n & 0x7f) as u8;
            n >>= 7;
            if n == 0 {
                out[i] = b;
                i += 1;
                break;
            }
            out[i] = b | 0x80;
            i += 1;
        }
        self.put(&out[..i]);
    }

    /// Counts one visited item; charges the running entry once enough work piled up.
    fn visit(&mut self) -> Result<(), StoreError> {
        self.uncharged += ITEM_COST_BYTES;
        if self.uncharged >= CHARGE_CHUNK { self.settle() } else { Ok(()) }
    }

    fn settle(&mut self) -> Result<(), StoreError> {
        let bytes = std::mem::take(&mut self.uncharged);
        budget::charge(bytes, 0).map_err(|_| StoreError::Budget)
    }

    fn number(&mut self, n: f64) -> Result<(), StoreError> {
        if !n.is_finite() {
            return Err(StoreError::NotFinite(number_text(n)));
        }
        if n.fract() == 0.0 && n.abs() <= MAX_WHOLE && !(n == 0.0 && n.is_sign_negative()) {
            let i = n as i64;
            self.put(&[T_INT]);
            self.varint(((i << 1) ^ (i >> 63)) as u64);
        } else {
            self.put(&[T_F64]);
            self.put(&n.to_bits().to_le_bytes());
        }
        Ok(())
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
            Value::Boolean(b) => self.put(&[if *b { T_TRUE } else { T_FALSE }]),
            Value::Integer(i) => {
                let n = self.integer(*i)?;
                self.number(n)?;
            }
            Value::Number(n) => self.number(*n)?,
            Value::String(s) => {
                let bytes = s.as_bytes();
                self.put(&[T_STR]);
                self.varint(bytes.len() as u64);
                self.put(&bytes);
            }
            Value::Vector(v) => {
                let c = [v.x(), v.y(), v.z()];
                if let Some(bad) = c.iter().find(|c| !c.is_finite()) {
                    return Err(StoreError::NotFinite(format!(
                        "a Vector3 with a component {}",
                        number_text(f64::from(*bad))
                    )));
                }
                self.put(&[T_VEC]);
                for c in c {
                    self.put(&c.to_bits().to_le_bytes());
                }
            }
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
            let (k, v) = pair?;
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
        pairs.sort_unstable_by(|a, b| a.0.cmp(&b.0));
        // The array part: keys 1, 2, 3, ... (numbers sort after the booleans).
        let first_num =
            pairs.iter().position(|(k, _)| !matches!(k, TableKey::Bool(_))).unwrap_or(pairs.len());
        let array = pairs[first_num..]
            .iter()
            .enumerate()
            .take_while(
                |(i, (k, _))| matches!(k, TableKey::Num(n) if *n == (*i + 1) as f64 && n.is_sign_positive()),
            )
            .count();
        self.path.push(p);
        self.put(&[T_TABLE]);
        self.varint(array as u64);
        self.varint((pairs.len() - array) as u64);
        for (_, v) in &pairs[first_num..first_num + array] {
            self.item(v, depth)?;
        }
        for (k, v) in pairs[..first_num].iter().chain(&pairs[first_num + array..]) {
            match k {
                TableKey::Bool(b) => self.put(&[if *b { T_TRUE } else { T_FALSE }]),
                TableKey::Num(n) => self.number(*n)?,
                TableKey::Str(s) => {
                    self.put(&[T_STR]);
                    self.varint(s.len() as u64);
                    self.put(s);
                }
            }
            self.item(v, depth)?;
        }
        self.path.pop();
        Ok(())
    }
}

/// Decodes bytes made by [`encode`]. Corrupt or truncated bytes give an error, never a
/// panic; allocation is bounded by the input's length.
pub(crate) fn decode(lua: &Lua, bytes: &[u8]) -> mlua::Result<Value> {
    let mut d = Decoder { lua, bytes, pos: 0 };
    match d.byte()? {
        FORMAT_VERSION => {}
        v => return Err(corrupt(&format!("unknown format version {v}"))),
    }
    let value = d.item(0)?;
    if d.pos != bytes.len() {
        return Err(corrupt("trailing bytes"));
    }
    Ok(value)
}

fn corrupt(what: &str) -> mlua::Error {
    mlua::Error::runtime(format!("corrupt store value ({what})"))
}

struct Decoder<'a> {
    lua: &'a Lua,
    bytes: &'a [u8],
    pos: usize,
}

impl Decoder<'_> {
    fn remaining(&self) -> usize {
        self.bytes.len() - self.pos
    }

    fn take(&mut self, n: usize) -> mlua::Result<&[u8]> {
        if n > self.remaining() {
            return Err(corrupt("truncated"));
        }
        let s = &self.bytes[self.pos..self.pos + n];
        self.pos += n;
        Ok(s)
    }

    fn byte(&mut self) -> mlua::Result<u8> {
        Ok(self.take(1)?[0])
    }

    fn varint(&mut self) -> mlua::Result<u64> {
        let mut n: u64 = 0;
        for shift in (0..64).step_by(7) {
            let b = self.byte()?;
            let part = u64::from(b & 0x7f);
            if shift == 63 && part > 1 {
                return Err(corrupt("varint overflow"));
            }
            n |= part << shift;
            if b & 0x80 == 0 {
                return Ok(n);
            }
        }
        Err(corrupt("varint overflow"))
    }

    /// A count of items each taking at least `min_bytes`, checked against what is left.
    fn count(&mut self, min_bytes: usize) -> mlua::Result<usize> {
        let n = self.varint()?;
        match usize::try_from(n) {
            Ok(n) if n.saturating_mul(min_bytes) <= self.remaining() => Ok(n),
            _ => Err(corrupt("count larger than the value")),
        }
    }

    fn number(&mut self, tag: u8) -> mlua::Result<f64> {
        if tag == T_INT {
            let z = self.varint()?;
            let i = ((z >> 1) as i64) ^ -((z & 1) as i64);
            let n = i as f64;
            if n.abs() > MAX_WHOLE {
                return Err(corrupt("whole number out of range"));
            }
            Ok(n)
        } else {
            let n = f64::from_bits(u64::from_le_bytes(self.take(8)?.try_into().expect("8 bytes")));
            if !n.is_finite() {
                return Err(corrupt("non-finite number"));
            }
            Ok(n)
        }
    }

    fn f32(&mut self) -> mlua::Result<f32> {
        Ok(f32::from_bits(u32::from_le_bytes(self.take(4)?.try_into().expect("4 bytes"))))
    }

    fn item(&mut self, depth: usize) -> mlua::Result<Value> {
        let tag = self.byte()?;
        Ok(match tag {
            T_FALSE => Value::Boolean(false),
            T_TRUE => Value::Boolean(true),
            T_INT | T_F64 => Value::Number(self.number(tag)?),
            T_STR => {
                let len = self.count(1)?;
                Value::String(self.lua.create_string(self.take(len)?)?)
            }
            T_VEC => {
                let (x, y, z) = (self.f32()?, self.f32()?, self.f32()?);
                if !(x.is_finite() && y.is_finite() && z.is_finite()) {
                    return Err(corrupt("a Vector3 with a non-finite component"));
                }
                Value::Vector(Vector::new(x, y, z))
            }
            T_TABLE => {
                let depth = depth + 1;
                if depth > MAX_DEPTH {
                    return Err(corrupt("nested too deep"));
                }
                let narr = self.count(1)?;
                let nhash = self.count(2)?;
                if narr.saturating_add(nhash.saturating_mul(2)) > self.remaining() {
                    return Err(corrupt("count larger than the value"));
                }
                let t = self.lua.create_table_with_capacity(narr, nhash)?;
                for i in 1..=narr {
                    let v = self.item(depth)?;
                    t.raw_set(i, v)?;
                }
                for _ in 0..nhash {
                    let key = match self.byte()? {
                        T_FALSE => Value::Boolean(false),
                        T_TRUE => Value::Boolean(true),
                        tag @ (T_INT | T_F64) => Value::Number(self.number(tag)?),
                        T_STR => {
                            let len = self.count(1)?;
                            Value::String(self.lua.create_string(self.take(len)?)?)
                        }
                        _ => return Err(corrupt("bad table key")),
                    };
                    let v = self.item(depth)?;
                    t.raw_set(key, v)?;
                }
                Value::Table(t)
            }
            other => return Err(corrupt(&format!("unknown tag {other}"))),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
