//! [`StoreValue`]: a stored value without a scripting language, for Rust code and tests,
//! encoded and decoded through the byte format of `format` (the same bytes a script's
//! `put` writes, so either side reads what the other stored).
//!
//! A table is a list of (key, value) pairs; keys are booleans, numbers or strings, and are
//! meant to be distinct (the format writes every pair; a host's decoder keeps the last of a
//! key given twice). Decoding gives the array part first, keys `1.0, 2.0, ...`, then the
//! other pairs in canonical order.

use crate::error::StoreError;
use crate::format::{Build, Corrupt, Encoder, TableKey, canonical_order, decode_with};
use crate::limits::MAX_DEPTH;

/// One value a store can hold.
#[derive(Clone, Debug, PartialEq)]
pub enum StoreValue {
    /// `false` or `true`.
    Bool(bool),
    /// A finite number.
    Number(f64),
    /// A string (any bytes).
    Str(Vec<u8>),
    /// A `Vector3` (finite components).
    Vector([f32; 3]),
    /// A table: (key, value) pairs.
    Table(Vec<(StoreValue, StoreValue)>),
}

impl StoreValue {
    /// A string value.
    pub fn str(s: &str) -> Self {
        StoreValue::Str(s.as_bytes().to_vec())
    }

    /// What the value is, for messages (`a table`, `a Vector3`).
    fn describe(&self) -> &'static str {
        match self {
            StoreValue::Bool(_) => "a boolean",
            StoreValue::Number(_) => "a number",
            StoreValue::Str(_) => "a string",
            StoreValue::Vector(_) => "a Vector3",
            StoreValue::Table(_) => "a table",
        }
    }

    /// The value in the store format, refusing it if it breaks a rule (a number that is not
    /// finite, a table key that is not a boolean, number or string, nesting deeper than 8
    /// levels) or its encoding is longer than `max_bytes`.
    pub fn encode(&self, max_bytes: usize) -> Result<Vec<u8>, StoreError> {
        let mut e = Encoder::new(max_bytes);
        write(&mut e, self, 0)?;
        e.finish()
    }

    /// Decodes bytes in the store format (from [`StoreValue::encode`] or a script's `put`).
    pub fn decode(bytes: &[u8]) -> Result<StoreValue, Corrupt> {
        decode_with(bytes, &mut Builder)
    }
}

fn write(e: &mut Encoder, v: &StoreValue, depth: usize) -> Result<(), StoreError> {
    e.visit();
    match v {
        StoreValue::Bool(b) => e.boolean(*b),
        StoreValue::Number(n) => e.number(*n)?,
        StoreValue::Str(s) => e.string(s),
        StoreValue::Vector(c) => e.vector(*c)?,
        StoreValue::Table(pairs) => {
            let depth = depth + 1;
            if depth > MAX_DEPTH {
                return Err(StoreError::TooDeep);
            }
            let mut keyed = Vec::with_capacity(pairs.len());
            for (k, v) in pairs {
                let key = match k {
                    StoreValue::Bool(b) => TableKey::Bool(*b),
                    StoreValue::Number(n) => TableKey::Num(*n),
                    StoreValue::Str(s) => TableKey::Str(s.clone()),
                    other => return Err(StoreError::BadTableKey(other.describe().to_owned())),
                };
                keyed.push((key, v));
            }
            let (first, array) = canonical_order(&mut keyed);
            e.table(array, keyed.len() - array);
            for (_, v) in &keyed[first..first + array] {
                write(e, v, depth)?;
            }
            for (k, v) in keyed[..first].iter().chain(&keyed[first + array..]) {
                e.key(k)?;
                write(e, v, depth)?;
            }
        }
    }
    Ok(())
}

/// Builds [`StoreValue`]s for [`decode_with`].
struct Builder;

impl Build for Builder {
    type Value = StoreValue;
    type Table = Vec<(StoreValue, StoreValue)>;
    type Error = Corrupt;

    fn boolean(&mut self, b: bool) -> Result<StoreValue, Corrupt> {
        Ok(StoreValue::Bool(b))
    }
    fn number(&mut self, n: f64) -> Result<StoreValue, Corrupt> {
        Ok(StoreValue::Number(n))
    }
    fn string(&mut self, bytes: &[u8]) -> Result<StoreValue, Corrupt> {
        Ok(StoreValue::Str(bytes.to_vec()))
    }
    fn vector(&mut self, c: [f32; 3]) -> Result<StoreValue, Corrupt> {
        Ok(StoreValue::Vector(c))
    }
    fn table(&mut self, array: usize, other: usize) -> Result<Self::Table, Corrupt> {
        Ok(Vec::with_capacity(array + other))
    }
    fn set(&mut self, table: &mut Self::Table, key: StoreValue, value: StoreValue) -> Result<(), Corrupt> {
        table.push((key, value));
        Ok(())
    }
    fn end_table(&mut self, table: Self::Table) -> Result<StoreValue, Corrupt> {
        Ok(StoreValue::Table(table))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use StoreValue::{Bool, Number, Table, Vector};

    #[test]
    fn the_format_is_compact_and_versioned() {
        assert_eq!(Table(vec![]).encode(64).unwrap(), [1, 0x06, 0, 0]);
        let t = Table(vec![
            (StoreValue::str("x"), Number(-1.0)),
            (Number(2.0), Bool(true)),
            (Number(1.0), Number(5.0)),
        ]);
        assert_eq!(t.encode(64).unwrap(), [1, 0x06, 2, 1, 0x02, 10, 0x01, 0x04, 1, b'x', 0x02, 1]);
    }

    #[test]
    fn values_round_trip_and_come_back_in_canonical_order() {
        let v = Table(vec![
            (StoreValue::str("b"), Vector([-0.0, 1.5, 3.4e38])),
            (Number(2.0), Number(-0.0)),
            (Number(1.0), Number(0.1)),
            (Bool(false), Table(vec![(Number(1.5), StoreValue::str("a\0b"))])),
        ]);
        let bytes = v.encode(1024).unwrap();
        let back = StoreValue::decode(&bytes).unwrap();
        let Table(pairs) = &back else { panic!("a table") };
        assert_eq!(pairs[0], (Number(1.0), Number(0.1)));
        let Number(z) = pairs[1].1 else { panic!("a number") };
        assert_eq!(z.to_bits(), (-0.0f64).to_bits());
        assert_eq!(pairs[2].0, Bool(false));
        assert_eq!(pairs[3], (StoreValue::str("b"), Vector([-0.0, 1.5, 3.4e38])));
        assert_eq!(back.encode(1024).unwrap(), bytes);
    }

    #[test]
    fn every_rule_it_can_see_is_checked() {
        let mut deep = Table(vec![]);
        for _ in 1..8 {
            deep = Table(vec![(Number(1.0), deep)]);
        }
        assert!(deep.encode(1024).is_ok());
        let deeper = Table(vec![(Number(1.0), deep)]);
        assert_eq!(deeper.encode(1024), Err(StoreError::TooDeep));
        assert_eq!(
            Number(f64::NAN).encode(64).unwrap_err().to_string(),
            "stores can hold finite numbers only, not nan"
        );
        assert_eq!(
            Table(vec![(Vector([1.0, 2.0, 3.0]), Bool(true))]).encode(64).unwrap_err().to_string(),
            "store table keys are numbers, strings or booleans, not a Vector3"
        );
        assert_eq!(
            StoreValue::Str(vec![b'x'; 100]).encode(64),
            Err(StoreError::TooLarge { bytes: 103, limit: 64 })
        );
    }

    #[test]
    fn corrupt_bytes_are_refused() {
        let good = Table(vec![(Number(1.0), StoreValue::str("three"))]).encode(64).unwrap();
        for cut in 0..good.len() {
            assert!(StoreValue::decode(&good[..cut]).is_err(), "cut at {cut}");
        }
        assert_eq!(
            StoreValue::decode(&[2, 0x01]).unwrap_err().to_string(),
            "corrupt store value (unknown format version 2)"
        );
        let huge = [1, 0x06, 0xff, 0xff, 0xff, 0xff, 0x0f, 0];
        assert_eq!(StoreValue::decode(&huge), Err(Corrupt("count larger than the value".into())));
    }
}
