//! The values that cross into a behaviour's memory, its host's fields and event payloads,
//! and the determinism rules checked at that crossing (`docs/behaviours.md`, "Determinism rules").
//!
//! - `int`: a 32-bit integer. A non-integral number is refused; one outside
//!   `-2^31..2^31` is an integer overflow.
//! - `number`: an IEEE double; NaN and infinity are errors (a division by zero or an
//!   overflow made them).
//! - `string` (compared by code point: Luau compares bytes, and UTF-8 byte order is code
//!   point order), `bool`, and `Vector3` (components checked like numbers).
//!
//! Invariant: a [`Value`] always satisfies the rules of its [`Kind`], so memory, fields and
//! payloads hold only values every machine computes alike.

use crate::luau::convert::{from_vector, to_vector, type_name};
use arbor_core::{AttributeValue, Vec3};
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// The declared type of a memory slot, field, property or payload entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// A 32-bit integer.
    Int,
    /// A finite double.
    Number,
    /// A string.
    String,
    /// A boolean.
    Bool,
    /// A `Vector3` with finite components.
    Vector3,
}

impl Kind {
    /// The kind named `name` in a definition (`"int"`, `"number"`, `"string"`, `"bool"`,
    /// `"Vector3"`).
    pub fn from_name(name: &str) -> Option<Kind> {
        Some(match name {
            "int" => Kind::Int,
            "number" => Kind::Number,
            "string" => Kind::String,
            "bool" | "boolean" => Kind::Bool,
            "Vector3" | "vector" => Kind::Vector3,
            _ => return None,
        })
    }

    /// The name definitions use.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Int => "int",
            Kind::Number => "number",
            Kind::String => "string",
            Kind::Bool => "bool",
            Kind::Vector3 => "Vector3",
        }
    }
}

/// A checked value.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Value {
    /// An `int`.
    Int(i32),
    /// A `number`.
    Number(f64),
    /// A `string`.
    String(Arc<str>),
    /// A `bool`.
    Bool(bool),
    /// A `Vector3`.
    Vector3([f32; 3]),
}

/// Why a number is refused, or `None` if it is finite.
fn non_finite(n: f64) -> Option<&'static str> {
    if n.is_nan() {
        Some("NaN (not a number; 0/0 or an invalid operation made it)")
    } else if n.is_infinite() {
        Some("infinity (a division by zero or an overflow made it)")
    } else {
        None
    }
}

/// `v` as a finite number: `None` if it is not a number, `Some(Err)` for NaN or infinity.
fn finite_number(v: &mlua::Value, what: &str) -> Option<Result<f64, String>> {
    let n = match v {
        mlua::Value::Integer(i) => *i as f64,
        mlua::Value::Number(n) => *n,
        _ => return None,
    };
    Some(match non_finite(n) {
        Some(why) => Err(format!("{what}: {why}")),
        None => Ok(n),
    })
}

impl Value {
    /// Checks `v` against `kind`'s rules; `what` names the slot in the message
    /// (`memory 'count'`).
    pub fn from_lua(lua: &mlua::Lua, v: &mlua::Value, kind: Kind, what: &str) -> Result<Value, String> {
        let wrong = || format!("{what} is {}, not {}", kind.name(), type_name(lua, v));
        Ok(match kind {
            Kind::Int => {
                let n = finite_number(v, what).ok_or_else(wrong)??;
                if n.fract() != 0.0 {
                    return Err(format!("{what} is an int; {n} is not an integer (round it first)"));
                }
                if !(-2_147_483_648.0..=2_147_483_647.0).contains(&n) {
                    return Err(format!("integer overflow: {n} does not fit the 32-bit int {what}"));
                }
                Value::Int(n as i32)
            }
            Kind::Number => Value::Number(finite_number(v, what).ok_or_else(wrong)??),
            Kind::String => match v {
                mlua::Value::String(s) => {
                    Value::String(s.to_str().map_err(|e| e.to_string())?.as_ref().into())
                }
                _ => return Err(wrong()),
            },
            Kind::Bool => match v {
                mlua::Value::Boolean(b) => Value::Bool(*b),
                _ => return Err(wrong()),
            },
            Kind::Vector3 => {
                let Some(p) = from_vector(v) else { return Err(wrong()) };
                if let Some(why) = p.to_array().iter().find_map(|c| non_finite(f64::from(*c))) {
                    return Err(format!("{what}: {why}"));
                }
                Value::Vector3(p.to_array())
            }
        })
    }

    /// The value as Lua.
    pub fn to_lua(&self, lua: &mlua::Lua) -> mlua::Result<mlua::Value> {
        Ok(match self {
            Value::Int(i) => mlua::Value::Number(f64::from(*i)),
            Value::Number(n) => mlua::Value::Number(*n),
            Value::String(s) => mlua::Value::String(lua.create_string(&**s)?),
            Value::Bool(b) => mlua::Value::Boolean(*b),
            Value::Vector3(v) => mlua::Value::Vector(to_vector(Vec3::from_array(*v))),
        })
    }

    /// The kind this value has.
    pub fn kind(&self) -> Kind {
        match self {
            Value::Int(_) => Kind::Int,
            Value::Number(_) => Kind::Number,
            Value::String(_) => Kind::String,
            Value::Bool(_) => Kind::Bool,
            Value::Vector3(_) => Kind::Vector3,
        }
    }

    /// The value as a number, for range checks.
    pub fn as_number(&self) -> Option<f64> {
        match self {
            Value::Int(i) => Some(f64::from(*i)),
            Value::Number(n) => Some(*n),
            _ => None,
        }
    }

    /// The attribute that stores this value on a host.
    pub fn to_attribute(&self) -> AttributeValue {
        match self {
            Value::Int(i) => AttributeValue::Number(f64::from(*i)),
            Value::Number(n) => AttributeValue::Number(*n),
            Value::String(s) => AttributeValue::String(s.clone()),
            Value::Bool(b) => AttributeValue::Bool(*b),
            Value::Vector3(v) => AttributeValue::Vector3(Vec3::from_array(*v)),
        }
    }

    /// The attribute `a` read as `kind`, or why it does not fit.
    pub fn from_attribute(a: &AttributeValue, kind: Kind) -> Result<Value, String> {
        let n = |n: f64| -> Result<f64, String> {
            match non_finite(n) {
                Some(why) => Err(why.to_owned()),
                None => Ok(n),
            }
        };
        Ok(match (a, kind) {
            (AttributeValue::Number(x), Kind::Int) => {
                let x = n(*x)?;
                if x.fract() != 0.0 || !(-2_147_483_648.0..=2_147_483_647.0).contains(&x) {
                    return Err(format!("{x} is not a 32-bit integer"));
                }
                Value::Int(x as i32)
            }
            (AttributeValue::Number(x), Kind::Number) => Value::Number(n(*x)?),
            (AttributeValue::String(s), Kind::String) => Value::String(s.clone()),
            (AttributeValue::Bool(b), Kind::Bool) => Value::Bool(*b),
            (AttributeValue::Vector3(v), Kind::Vector3) => Value::Vector3(v.to_array()),
            (other, kind) => {
                return Err(format!("it holds a {}, not {}", attribute_kind(other), kind.name()));
            }
        })
    }
}

/// The type name of an attribute value, for messages.
pub fn attribute_kind(a: &AttributeValue) -> &'static str {
    match a {
        AttributeValue::Bool(_) => "bool",
        AttributeValue::Number(_) => "number",
        AttributeValue::String(_) => "string",
        AttributeValue::Vector3(_) => "Vector3",
        AttributeValue::Ref(_) => "Instance",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(src: &str, kind: Kind) -> Result<Value, String> {
        let lua = mlua::Lua::new();
        let v: mlua::Value = lua.load(src).eval().unwrap();
        Value::from_lua(&lua, &v, kind, "memory 'x'")
    }

    #[test]
    fn ints_are_32_bit_and_overflow_is_an_error() {
        assert_eq!(check("2147483647", Kind::Int), Ok(Value::Int(i32::MAX)));
        assert_eq!(check("-2147483648", Kind::Int), Ok(Value::Int(i32::MIN)));
        let e = check("2147483647 + 1", Kind::Int).unwrap_err();
        assert!(e.starts_with("integer overflow"), "{e}");
        assert!(check("1.5", Kind::Int).unwrap_err().contains("not an integer"));
    }

    #[test]
    fn nan_and_infinity_are_errors() {
        assert!(check("0/0", Kind::Number).unwrap_err().contains("NaN"));
        assert!(check("1/0", Kind::Number).unwrap_err().contains("division by zero"));
        assert!(check("1//0", Kind::Int).unwrap_err().contains("infinity"));
        assert!(check("vector.create(1, 0/0, 0)", Kind::Vector3).unwrap_err().contains("NaN"));
        assert_eq!(check("0.25", Kind::Number), Ok(Value::Number(0.25)));
    }

    #[test]
    fn kinds_are_checked() {
        assert!(check("'a'", Kind::Int).unwrap_err().contains("is int, not string"));
        assert_eq!(check("true", Kind::Bool), Ok(Value::Bool(true)));
        assert_eq!(check("'é'", Kind::String), Ok(Value::String("é".into())));
    }

    #[test]
    fn attributes_round_trip() {
        for v in [Value::Int(-3), Value::Number(0.5), Value::String("s".into()), Value::Bool(false)] {
            assert_eq!(Value::from_attribute(&v.to_attribute(), v.kind()), Ok(v));
        }
        assert!(Value::from_attribute(&AttributeValue::Number(0.5), Kind::Int).is_err());
        assert!(Value::from_attribute(&AttributeValue::Bool(true), Kind::Int).unwrap_err().contains("bool"));
    }
}
