//! The byte format of stored values, version 1: compact, versioned and deterministic. The
//! local and the cloud store both keep values in this form. This file writes and reads the
//! bytes one item at a time ([`Encoder`], [`decode_with`]); a host walks its own values
//! through them (`arbor-script` walks Lua values), and [`StoreValue`](crate::StoreValue) is
//! the Lua-free value built on them.
//!
//! What a value can hold: numbers (finite; NaN and infinities are refused), booleans,
//! strings (any bytes), `Vector3`s (three finite `f32` components) and tables of those
//! nested at most [`MAX_DEPTH`] levels (the value itself is level 1), keyed by numbers,
//! strings or booleans.
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
//! Canonical order ([`TableKey::canonical_cmp`], [`canonical_order`]): booleans (false,
//! true), then numbers (ascending, `-0` before `0`), then strings (bytewise); the array part
//! is the longest run of keys 1, 2, 3, ... So equal tables encode to equal bytes, whatever
//! order their keys were inserted in.
//!
//! Numbers round-trip exactly (their f64 bits; whole numbers stay whole), vectors too (their
//! f32 bits). The [`Encoder`] stops writing once the value is over its limit (it keeps
//! counting, so the error gives the full size) and counts the work done so the host can
//! charge it. [`decode_with`] never panics on corrupt bytes and allocates at most in
//! proportion to their length.

use crate::error::StoreError;
use crate::key::number_text;
use crate::limits::MAX_DEPTH;

/// The first byte of every encoded value.
pub const FORMAT_VERSION: u8 = 1;

const T_FALSE: u8 = 0x00;
const T_TRUE: u8 = 0x01;
const T_INT: u8 = 0x02;
const T_F64: u8 = 0x03;
const T_STR: u8 = 0x04;
const T_VEC: u8 = 0x05;
const T_TABLE: u8 = 0x06;

/// Largest magnitude stored as a whole number (2^53).
const MAX_WHOLE: f64 = 9_007_199_254_740_992.0;

/// Bytes of work counted for visiting one item (a pair, a number) besides the bytes it
/// writes.
const ITEM_COST_BYTES: usize = 16;

/// Counted work is due for charging in chunks of at least this many bytes.
const CHARGE_CHUNK: usize = 1024;

/// A table key, as sorted in the canonical order.
#[derive(Clone, Debug, PartialEq)]
pub enum TableKey {
    /// `false` or `true`.
    Bool(bool),
    /// A number (finite when it is written).
    Num(f64),
    /// A string's bytes.
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

    /// The canonical order: booleans, then numbers (`total_cmp`), then strings (bytewise).
    pub fn canonical_cmp(&self, other: &Self) -> std::cmp::Ordering {
        match (self, other) {
            (TableKey::Bool(a), TableKey::Bool(b)) => a.cmp(b),
            (TableKey::Num(a), TableKey::Num(b)) => a.total_cmp(b),
            (TableKey::Str(a), TableKey::Str(b)) => a.cmp(b),
            _ => self.class().cmp(&other.class()),
        }
    }
}

/// Sorts a table's pairs into the canonical order and finds its array part: returns
/// `(first, array)`, where `pairs[first..first + array]` hold the keys 1, 2, ..., `array`
/// (written first, values only) and the rest (`pairs[..first]`, then
/// `pairs[first + array..]`) are written as key and value.
pub fn canonical_order<V>(pairs: &mut [(TableKey, V)]) -> (usize, usize) {
    pairs.sort_unstable_by(|a, b| a.0.canonical_cmp(&b.0));
    // The array part: keys 1, 2, 3, ... (numbers sort after the booleans).
    let first_num = pairs.iter().position(|(k, _)| !matches!(k, TableKey::Bool(_))).unwrap_or(pairs.len());
    let array = pairs[first_num..]
        .iter()
        .enumerate()
        .take_while(
            |(i, (k, _))| matches!(k, TableKey::Num(n) if *n == (*i + 1) as f64 && n.is_sign_positive()),
        )
        .count();
    (first_num, array)
}

/// Writes one value item by item, refusing what breaks a rule it can see (a number or a
/// vector component that is not finite) and, at [`Encoder::finish`], a value longer than
/// its limit. The caller walks the value (in canonical order, see [`canonical_order`]) and
/// checks depth, cycles and types itself.
pub struct Encoder {
    buf: Vec<u8>,
    /// The encoded length so far (the buffer stops growing once it passes `max`).
    len: usize,
    max: usize,
    /// Work done but not taken yet ([`Encoder::take_work`]), in bytes.
    uncharged: usize,
}

impl Encoder {
    /// An encoder of one value of at most `max_bytes` bytes; the version byte is written.
    pub fn new(max_bytes: usize) -> Self {
        let mut e =
            Encoder { buf: Vec::with_capacity(64.min(max_bytes)), len: 0, max: max_bytes, uncharged: 0 };
        e.put(&[FORMAT_VERSION]);
        e
    }

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

    /// Counts one visited item; true once enough work piled up that the caller should
    /// charge it ([`Encoder::take_work`]).
    pub fn visit(&mut self) -> bool {
        self.uncharged += ITEM_COST_BYTES;
        self.uncharged >= CHARGE_CHUNK
    }

    /// Takes the work counted since the last call, in bytes (written and visited).
    pub fn take_work(&mut self) -> usize {
        std::mem::take(&mut self.uncharged)
    }

    /// Writes a boolean.
    pub fn boolean(&mut self, b: bool) {
        self.put(&[if b { T_TRUE } else { T_FALSE }]);
    }

    /// Writes a number; refuses NaN and the infinities.
    pub fn number(&mut self, n: f64) -> Result<(), StoreError> {
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

    /// Writes a string (any bytes).
    pub fn string(&mut self, bytes: &[u8]) {
        self.put(&[T_STR]);
        self.varint(bytes.len() as u64);
        self.put(bytes);
    }

    /// Writes a `Vector3`; refuses a component that is not finite.
    pub fn vector(&mut self, c: [f32; 3]) -> Result<(), StoreError> {
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
        Ok(())
    }

    /// Starts a table of `array` values (keys 1..=`array`) followed by `other` pairs.
    pub fn table(&mut self, array: usize, other: usize) {
        self.put(&[T_TABLE]);
        self.varint(array as u64);
        self.varint(other as u64);
    }

    /// Writes a table key.
    pub fn key(&mut self, k: &TableKey) -> Result<(), StoreError> {
        match k {
            TableKey::Bool(b) => self.boolean(*b),
            TableKey::Num(n) => self.number(*n)?,
            TableKey::Str(s) => self.string(s),
        }
        Ok(())
    }

    /// The encoded value, or [`StoreError::TooLarge`] with its full size.
    pub fn finish(self) -> Result<Vec<u8>, StoreError> {
        if self.len > self.max {
            return Err(StoreError::TooLarge { bytes: self.len, limit: self.max });
        }
        Ok(self.buf)
    }
}

/// Bytes that are not a value of this format; the text says what is wrong.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("corrupt store value ({0})")]
pub struct Corrupt(pub String);

fn corrupt(what: &str) -> Corrupt {
    Corrupt(what.to_owned())
}

/// What [`decode_with`] builds values with (a host builds its own values directly).
pub trait Build {
    /// A value.
    type Value;
    /// A table being filled.
    type Table;
    /// Why building failed.
    type Error: From<Corrupt>;

    /// A boolean.
    fn boolean(&mut self, b: bool) -> Result<Self::Value, Self::Error>;
    /// A finite number.
    fn number(&mut self, n: f64) -> Result<Self::Value, Self::Error>;
    /// A string.
    fn string(&mut self, bytes: &[u8]) -> Result<Self::Value, Self::Error>;
    /// A `Vector3` with finite components.
    fn vector(&mut self, c: [f32; 3]) -> Result<Self::Value, Self::Error>;
    /// An empty table with room for `array` values and `other` pairs.
    fn table(&mut self, array: usize, other: usize) -> Result<Self::Table, Self::Error>;
    /// Sets `key` (1..=`array` first, then the other keys) of `table` to `value`.
    fn set(
        &mut self,
        table: &mut Self::Table,
        key: Self::Value,
        value: Self::Value,
    ) -> Result<(), Self::Error>;
    /// The filled table as a value.
    fn end_table(&mut self, table: Self::Table) -> Result<Self::Value, Self::Error>;
}

/// Decodes bytes made by an [`Encoder`], building the value with `b`. Corrupt or truncated
/// bytes give an error ([`Corrupt`] through `B::Error`), never a panic; allocation is
/// bounded by the input's length.
pub fn decode_with<B: Build>(bytes: &[u8], b: &mut B) -> Result<B::Value, B::Error> {
    let mut d = Decoder { bytes, pos: 0 };
    match d.byte()? {
        FORMAT_VERSION => {}
        v => return Err(corrupt(&format!("unknown format version {v}")).into()),
    }
    let value = d.item(b, 0)?;
    if d.pos != bytes.len() {
        return Err(corrupt("trailing bytes").into());
    }
    Ok(value)
}

struct Decoder<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl<'a> Decoder<'a> {
    fn remaining(&self) -> usize {
        self.bytes.len() - self.pos
    }

    fn take(&mut self, n: usize) -> Result<&'a [u8], Corrupt> {
        if n > self.remaining() {
            return Err(corrupt("truncated"));
        }
        let s = &self.bytes[self.pos..self.pos + n];
        self.pos += n;
        Ok(s)
    }

    fn byte(&mut self) -> Result<u8, Corrupt> {
        Ok(self.take(1)?[0])
    }

    fn varint(&mut self) -> Result<u64, Corrupt> {
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
    fn count(&mut self, min_bytes: usize) -> Result<usize, Corrupt> {
        let n = self.varint()?;
        match usize::try_from(n) {
            Ok(n) if n.saturating_mul(min_bytes) <= self.remaining() => Ok(n),
            _ => Err(corrupt("count larger than the value")),
        }
    }

    fn number(&mut self, tag: u8) -> Result<f64, Corrupt> {
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

    fn f32(&mut self) -> Result<f32, Corrupt> {
        Ok(f32::from_bits(u32::from_le_bytes(self.take(4)?.try_into().expect("4 bytes"))))
    }

    fn item<B: Build>(&mut self, b: &mut B, depth: usize) -> Result<B::Value, B::Error> {
        let tag = self.byte()?;
        match tag {
            T_FALSE => b.boolean(false),
            T_TRUE => b.boolean(true),
            T_INT | T_F64 => {
                let n = self.number(tag)?;
                b.number(n)
            }
            T_STR => {
                let len = self.count(1)?;
                let s = self.take(len)?;
                b.string(s)
            }
            T_VEC => {
                let (x, y, z) = (self.f32()?, self.f32()?, self.f32()?);
                if !(x.is_finite() && y.is_finite() && z.is_finite()) {
                    return Err(corrupt("a Vector3 with a non-finite component").into());
                }
                b.vector([x, y, z])
            }
            T_TABLE => {
                let depth = depth + 1;
                if depth > MAX_DEPTH {
                    return Err(corrupt("nested too deep").into());
                }
                let narr = self.count(1)?;
                let nhash = self.count(2)?;
                if narr.saturating_add(nhash.saturating_mul(2)) > self.remaining() {
                    return Err(corrupt("count larger than the value").into());
                }
                let mut t = b.table(narr, nhash)?;
                for i in 1..=narr {
                    let v = self.item(b, depth)?;
                    let k = b.number(i as f64)?;
                    b.set(&mut t, k, v)?;
                }
                for _ in 0..nhash {
                    let key = match self.byte()? {
                        T_FALSE => b.boolean(false)?,
                        T_TRUE => b.boolean(true)?,
                        tag @ (T_INT | T_F64) => {
                            let n = self.number(tag)?;
                            b.number(n)?
                        }
                        T_STR => {
                            let len = self.count(1)?;
                            let s = self.take(len)?;
                            b.string(s)?
                        }
                        _ => return Err(corrupt("bad table key").into()),
                    };
                    let v = self.item(b, depth)?;
                    b.set(&mut t, key, v)?;
                }
                b.end_table(t)
            }
            other => Err(corrupt(&format!("unknown tag {other}")).into()),
        }
    }
}
