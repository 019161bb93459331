//! Serde helpers for the JSON model: numbers that may be non-finite, fixed-size float arrays,
//! maps that keep their key order, and persistent ids written as hex.
//!
//! JSON has no NaN or infinity, but positions and attribute numbers can hold them (`math.huge`
//! is common in Luau), so a float is written as a JSON number when finite and as one of the
//! strings `"NaN"`, `"inf"`, `"-inf"` otherwise; reading accepts both.

use serde::de::{self, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde::ser::{SerializeMap, SerializeTuple};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;
use std::marker::PhantomData;

/// An `f64` that serializes non-finite values as strings.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Num(pub f64);

impl Serialize for Num {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let v = self.0;
        if v.is_finite() { s.serialize_f64(v) } else { s.serialize_str(non_finite_name(v)) }
    }
}

/// An `f32` that serializes non-finite values as strings (and finite ones as the shortest
/// decimal that reads back as the same `f32`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Num32(pub f32);

impl Serialize for Num32 {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let v = self.0;
        if v.is_finite() { s.serialize_f32(v) } else { s.serialize_str(non_finite_name(v as f64)) }
    }
}

fn non_finite_name(v: f64) -> &'static str {
    if v.is_nan() {
        "NaN"
    } else if v > 0.0 {
        "inf"
    } else {
        "-inf"
    }
}

/// Parses the names of non-finite numbers.
pub(crate) fn parse_non_finite(s: &str) -> Option<f64> {
    match s {
        "NaN" => Some(f64::NAN),
        "inf" => Some(f64::INFINITY),
        "-inf" => Some(f64::NEG_INFINITY),
        _ => None,
    }
}

struct NumVisitor;

impl<'de> Visitor<'de> for NumVisitor {
    type Value = f64;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a number (or \"NaN\", \"inf\", \"-inf\")")
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<f64, E> {
        Ok(v)
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<f64, E> {
        Ok(v as f64)
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<f64, E> {
        Ok(v as f64)
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<f64, E> {
        parse_non_finite(v).ok_or_else(|| E::invalid_value(de::Unexpected::Str(v), &self))
    }
}

impl<'de> Deserialize<'de> for Num {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(NumVisitor).map(Num)
    }
}

impl<'de> Deserialize<'de> for Num32 {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(NumVisitor).map(|v| Num32(v as f32))
    }
}

/// `f64` fields (`#[serde(with = "f64s")]`).
pub(crate) mod f64s {
    use super::*;

    pub fn serialize<S: Serializer>(v: &f64, s: S) -> Result<S::Ok, S::Error> {
        Num(*v).serialize(s)
    }
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
        Num::deserialize(d).map(|n| n.0)
    }
}

/// `Option<f64>` fields.
pub(crate) mod opt_f64 {
    use super::*;

    pub fn serialize<S: Serializer>(v: &Option<f64>, s: S) -> Result<S::Ok, S::Error> {
        v.map(Num).serialize(s)
    }
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<f64>, D::Error> {
        Ok(Option::<Num>::deserialize(d)?.map(|n| n.0))
    }
}

/// `Option<f32>` fields.
pub(crate) mod opt_f32 {
    use super::*;

    pub fn serialize<S: Serializer>(v: &Option<f32>, s: S) -> Result<S::Ok, S::Error> {
        v.map(Num32).serialize(s)
    }
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<f32>, D::Error> {
        Ok(Option::<Num32>::deserialize(d)?.map(|n| n.0))
    }
}

/// A borrowed float array that serializes as a JSON array of numbers.
pub(crate) struct Floats<'a, const N: usize>(pub &'a [f32; N]);

impl<const N: usize> Serialize for Floats<'_, N> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut t = s.serialize_tuple(N)?;
        for x in self.0 {
            t.serialize_element(&Num32(*x))?;
        }
        t.end()
    }
}

/// An owned float array read from a JSON array of exactly `N` numbers.
pub(crate) struct FloatsOwned<const N: usize>(pub [f32; N]);

struct FloatsVisitor<const N: usize>;

impl<'de, const N: usize> Visitor<'de> for FloatsVisitor<N> {
    type Value = [f32; N];

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "an array of {N} numbers")
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<[f32; N], A::Error> {
        let mut out = [0.0f32; N];
        for (i, slot) in out.iter_mut().enumerate() {
            *slot = seq.next_element::<Num32>()?.ok_or_else(|| de::Error::invalid_length(i, &self))?.0;
        }
        if seq.next_element::<IgnoredAny>()?.is_some() {
            return Err(de::Error::invalid_length(N + 1, &self));
        }
        Ok(out)
    }
}

impl<'de, const N: usize> Deserialize<'de> for FloatsOwned<N> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_tuple(N, FloatsVisitor::<N>).map(FloatsOwned)
    }
}

/// `[f32; N]` fields.
pub(crate) mod floats {
    use super::*;

    pub fn serialize<S: Serializer, const N: usize>(v: &[f32; N], s: S) -> Result<S::Ok, S::Error> {
        Floats(v).serialize(s)
    }
    pub fn deserialize<'de, D: Deserializer<'de>, const N: usize>(d: D) -> Result<[f32; N], D::Error> {
        FloatsOwned::<N>::deserialize(d).map(|f| f.0)
    }
}

/// `Option<[f32; N]>` fields.
pub(crate) mod opt_floats {
    use super::*;

    pub fn serialize<S: Serializer, const N: usize>(v: &Option<[f32; N]>, s: S) -> Result<S::Ok, S::Error> {
        v.as_ref().map(Floats).serialize(s)
    }
    pub fn deserialize<'de, D: Deserializer<'de>, const N: usize>(
        d: D,
    ) -> Result<Option<[f32; N]>, D::Error> {
        Ok(Option::<FloatsOwned<N>>::deserialize(d)?.map(|f| f.0))
    }
}

/// `Vec<(String, V)>` fields written as JSON objects in their order. Reading keeps the
/// order and refuses a repeated key.
pub(crate) mod ordered {
    use super::*;

    pub fn serialize<S: Serializer, V: Serialize>(v: &[(String, V)], s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(v.len()))?;
        for (k, x) in v {
            m.serialize_entry(k, x)?;
        }
        m.end()
    }

    pub fn deserialize<'de, D: Deserializer<'de>, V: Deserialize<'de>>(
        d: D,
    ) -> Result<Vec<(String, V)>, D::Error> {
        d.deserialize_map(OrderedVisitor(PhantomData))
    }

    struct OrderedVisitor<V>(PhantomData<V>);

    impl<'de, V: Deserialize<'de>> Visitor<'de> for OrderedVisitor<V> {
        type Value = Vec<(String, V)>;

        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("an object")
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
            let mut out: Vec<(String, V)> = Vec::new();
            let mut seen: rustc_hash::FxHashSet<String> = Default::default();
            while let Some(key) = map.next_key::<String>()? {
                let repeated = if out.len() < 16 {
                    out.iter().any(|(k, _)| *k == key)
                } else {
                    if seen.is_empty() {
                        seen.extend(out.iter().map(|(k, _)| k.clone()));
                    }
                    !seen.insert(key.clone())
                };
                if repeated {
                    return Err(de::Error::custom(format_args!("duplicate key '{key}'")));
                }
                let value = map.next_value::<V>()?;
                out.push((key, value));
            }
            Ok(out)
        }
    }
}

/// A nested ordered map (`Vec<(String, V)>` as a map value).
pub(crate) struct Nested<V>(pub Vec<(String, V)>);

impl<V: Serialize> Serialize for Nested<V> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        ordered::serialize(&self.0, s)
    }
}

impl<'de, V: Deserialize<'de>> Deserialize<'de> for Nested<V> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        ordered::deserialize(d).map(Nested)
    }
}

/// `Vec<(String, Vec<(String, V)>)>` fields: an object of objects, both ordered.
pub(crate) mod ordered2 {
    use super::*;

    pub fn serialize<S: Serializer, V: Serialize>(
        v: &[(String, Vec<(String, V)>)],
        s: S,
    ) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(v.len()))?;
        for (k, inner) in v {
            m.serialize_entry(k, &NestedRef(inner))?;
        }
        m.end()
    }

    /// An ordered map of ordered maps.
    pub type Map2<V> = Vec<(String, Vec<(String, V)>)>;

    pub fn deserialize<'de, D: Deserializer<'de>, V: Deserialize<'de>>(d: D) -> Result<Map2<V>, D::Error> {
        let outer: Vec<(String, Nested<V>)> = ordered::deserialize(d)?;
        Ok(outer.into_iter().map(|(k, n)| (k, n.0)).collect())
    }

    struct NestedRef<'a, V>(&'a [(String, V)]);

    impl<V: Serialize> Serialize for NestedRef<'_, V> {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            ordered::serialize(self.0, s)
        }
    }
}

/// `Option<u128>` persistent ids written as 32 hex digits.
pub(crate) mod hex_id {
    use super::*;

    pub fn serialize<S: Serializer>(v: &Option<u128>, s: S) -> Result<S::Ok, S::Error> {
        match v {
            Some(x) => s.serialize_some(&format_args!("{x:032x}")),
            None => s.serialize_none(),
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<u128>, D::Error> {
        d.deserialize_option(HexOpt)
    }

    struct HexOpt;

    impl<'de> Visitor<'de> for HexOpt {
        type Value = Option<u128>;

        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("a persistent id of 1 to 32 hex digits")
        }
        fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
            Ok(None)
        }
        fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
            Ok(None)
        }
        fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
            d.deserialize_str(self)
        }
        fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
            let ok = !v.is_empty() && v.len() <= 32 && v.bytes().all(|b| b.is_ascii_hexdigit());
            match ok.then(|| u128::from_str_radix(v, 16).ok()).flatten() {
                Some(x) => Ok(Some(x)),
                None => Err(E::invalid_value(de::Unexpected::Str(v), &self)),
            }
        }
    }
}
