//! Every conversion between Lua and Arbor values, in one place:
//!
//! - the `(ok, value)` results ([`Status`]) the Rust primitives hand to the Lua prelude,
//!   and the text of an mlua error as a script author reads it ([`error_text`]);
//! - vectors, type names, attribute values;
//! - property arguments ([`Arg`], borrowed from the Lua stack by the C metamethods) checked
//!   against what a property accepts;
//! - component fields: the type names scripts declare fields with and [`FieldValue`]s to and
//!   from Lua. Type names are those of place files (`Bool`, `I32`, `I64`, `F32`, `F64`,
//!   `Vector3`, `Quaternion`, `String`, `InstanceRef`) plus the Luau names `boolean`,
//!   `number` (an `F64`), `string` and `Instance` (an `InstanceRef`). A `Quaternion` field
//!   reads and writes as a `Vector3` of XYZ Euler degrees, like an Instance's `Rotation`.
//!
//! Invariants: a conversion from Lua either yields a value of exactly the target type or a
//! message naming the property or field, the expected type and the type given; integers must
//! be whole and in range (no silent truncation). Nothing on the property paths allocates:
//! errors carry `Cow` messages and short names are copied inline.

pub use super::{Arg, Fail, Read, instance_id, instance_value};
use arbor_core::{
    AttributeValue, Id, Quat, Vec3,
    components::{FieldType, FieldValue, RefPolicy},
};
use glam::EulerRot;
use mlua::{IntoLua, Lua, Value, Vector};
use std::borrow::Cow;

/// A primitive's result: `(true, value)` or `(false, message)`; the prelude raises the
/// message as a Lua error at the caller's line.
pub type Status = (bool, Value);

/// Success with `v`.
pub fn ok(lua: &Lua, v: impl IntoLua) -> mlua::Result<Status> {
    Ok((true, v.into_lua(lua)?))
}

/// Failure with `message`.
pub fn fail(lua: &Lua, message: impl AsRef<str>) -> mlua::Result<Status> {
    Ok((false, Value::String(lua.create_string(message.as_ref())?)))
}

/// A Luau vector from a `Vec3`.
pub fn to_vector(v: Vec3) -> Vector {
    Vector::new(v.x, v.y, v.z)
}

/// A `Vec3` from a Lua vector value.
pub fn from_vector(v: &Value) -> Option<Vec3> {
    match v {
        Value::Vector(v) => Some(Vec3::new(v.x(), v.y(), v.z())),
        _ => None,
    }
}

/// The Lua name of a value's type, for error messages.
pub fn type_name(lua: &Lua, v: &Value) -> &'static str {
    match v {
        Value::Vector(_) => "Vector3",
        Value::UserData(_) if instance_id(lua, v).is_some() => "Instance",
        other => other.type_name(),
    }
}

/// An attribute value as Lua.
pub fn attribute_to_lua(lua: &Lua, v: &AttributeValue) -> mlua::Result<Value> {
    Ok(match v {
        AttributeValue::Bool(b) => Value::Boolean(*b),
        AttributeValue::Number(n) => Value::Number(*n),
        AttributeValue::String(s) => Value::String(lua.create_string(&**s)?),
        AttributeValue::Vector3(v) => Value::Vector(to_vector(*v)),
        AttributeValue::Ref(r) => instance_value(lua, *r)?,
    })
}

/// A Lua value as an attribute value (`Ok(None)` for nil, `Err` with a message for types
/// attributes cannot hold).
pub fn attribute_from_lua(lua: &Lua, v: &Value) -> Result<Option<AttributeValue>, String> {
    Ok(Some(match v {
        Value::Nil => return Ok(None),
        Value::Boolean(b) => AttributeValue::Bool(*b),
        Value::Integer(i) => AttributeValue::Number(*i as f64),
        Value::Number(n) => AttributeValue::Number(*n),
        Value::String(s) => AttributeValue::String(s.to_str().map_err(|e| e.to_string())?.as_ref().into()),
        Value::Vector(_) => AttributeValue::Vector3(from_vector(v).expect("vector")),
        other => match instance_id(lua, other) {
            Some(id) => AttributeValue::Ref(Some(id)),
            None => {
                return Err(format!(
                    "attributes hold booleans, numbers, strings, Vector3s and Instances, not {}",
                    type_name(lua, other)
                ));
            }
        },
    }))
}

/// The text of an mlua error as a script author should read it: the Lua message (with its
/// `chunk:line:` prefix) without mlua's wrapping or stack traceback.
pub fn error_text(e: &mlua::Error) -> String {
    match e {
        mlua::Error::RuntimeError(m) => {
            m.split("\nstack traceback").next().unwrap_or(m).trim_end().to_owned()
        }
        mlua::Error::SyntaxError { message, .. } => message.clone(),
        mlua::Error::MemoryError(_) => "not enough memory".to_owned(),
        mlua::Error::CallbackError { cause, .. } => error_text(cause),
        mlua::Error::WithContext { cause, .. } => error_text(cause),
        other => other.to_string(),
    }
}

/// `invalid value for {key}: expected {expected}, got {type}`.
pub(crate) fn invalid(key: &str, expected: &str, got: &Arg<'_>) -> Fail {
    Cow::Owned(format!("invalid value for {key}: expected {expected}, got {}", got.type_name()))
}

/// Argument `v` of property `key` as a vector.
pub(crate) fn expect_vector(key: &str, v: &Arg<'_>) -> Result<Vec3, Fail> {
    match v {
        Arg::Vector(v) => Ok(*v),
        other => Err(invalid(key, "Vector3", other)),
    }
}

/// Argument `v` of property `key` as a boolean.
pub(crate) fn expect_bool(key: &str, v: &Arg<'_>) -> Result<bool, Fail> {
    match v {
        Arg::Bool(b) => Ok(*b),
        other => Err(invalid(key, "boolean", other)),
    }
}

/// Argument `v` of property `key` as an Instance or nil.
pub(crate) fn expect_instance(key: &str, v: &Arg<'_>) -> Result<Option<Id>, Fail> {
    match v {
        Arg::Nil => Ok(None),
        Arg::Instance(id) => Ok(Some(*id)),
        other => Err(invalid(key, "Instance or nil", other)),
    }
}

/// The field type a script names, if any.
pub fn field_type(name: &str) -> Option<FieldType> {
    Some(match name {
        "Bool" | "boolean" => FieldType::Bool,
        "I32" => FieldType::I32,
        "I64" => FieldType::I64,
        "F32" => FieldType::F32,
        "F64" | "number" => FieldType::F64,
        "Vector3" => FieldType::Vector3,
        "Quaternion" => FieldType::Quaternion,
        "String" | "string" => FieldType::String,
        "InstanceRef" | "Instance" => FieldType::InstanceRef,
        _ => return None,
    })
}

/// The reference policy a script names, if any.
pub fn ref_policy(name: &str) -> Option<RefPolicy> {
    Some(match name {
        "ClearField" => RefPolicy::ClearField,
        "RemoveComponent" => RefPolicy::RemoveComponent,
        "DestroyHolder" => RefPolicy::DestroyHolder,
        _ => return None,
    })
}

/// Degrees of XYZ Euler angles of `q` (the Lua face of a `Quaternion`).
pub fn euler_degrees(q: Quat) -> Vec3 {
    let (x, y, z) = q.to_euler(EulerRot::XYZ);
    Vec3::new(x.to_degrees(), y.to_degrees(), z.to_degrees())
}

/// The rotation of XYZ Euler angles `d` in degrees.
pub fn from_euler_degrees(d: Vec3) -> Quat {
    Quat::from_euler(EulerRot::XYZ, d.x.to_radians(), d.y.to_radians(), d.z.to_radians())
}

fn whole(n: f64, lo: f64, hi: f64) -> Option<f64> {
    (n.fract() == 0.0 && n >= lo && n <= hi).then_some(n)
}

/// Argument `v` as a value of field `component.field` of type `ty`, or the message to raise.
pub fn field_from_arg(
    component: &str,
    field: &str,
    ty: FieldType,
    v: &Arg<'_>,
) -> Result<FieldValue, String> {
    let invalid = |expected: &str| {
        format!("invalid value for {component}.{field}: expected {expected}, got {}", v.type_name())
    };
    let number = || match v {
        Arg::Number(n) => Ok(*n),
        _ => Err(invalid("number")),
    };
    let vector = || match v {
        Arg::Vector(v) => Ok(*v),
        _ => Err(invalid("Vector3")),
    };
    let out_of_range =
        |n: f64| format!("invalid value for {component}.{field}: {n} is not a whole number in range");
    Ok(match ty {
        FieldType::Bool => match v {
            Arg::Bool(b) => FieldValue::Bool(*b),
            _ => return Err(invalid("boolean")),
        },
        FieldType::I32 => {
            let n = number()?;
            FieldValue::I32(
                whole(n, f64::from(i32::MIN), f64::from(i32::MAX)).ok_or_else(|| out_of_range(n))? as i32,
            )
        }
        FieldType::I64 => {
            let n = number()?;
            // -2^63 is exact; the largest double below 2^63 is the top of the range.
            let (lo, hi) = (-9.223_372_036_854_776e18, 9.223_372_036_854_775e18);
            FieldValue::I64(whole(n, lo, hi).ok_or_else(|| out_of_range(n))? as i64)
        }
        FieldType::F32 => FieldValue::F32(number()? as f32),
        FieldType::F64 => FieldValue::F64(number()?),
        FieldType::Vector3 => FieldValue::Vector3(vector()?),
        FieldType::Quaternion => FieldValue::Quaternion(from_euler_degrees(vector()?)),
        FieldType::String => match v {
            Arg::Str(b) => FieldValue::String(
                std::str::from_utf8(b)
                    .map_err(|_| format!("invalid value for {component}.{field}: the string is not UTF-8"))?
                    .into(),
            ),
            _ => return Err(invalid("string")),
        },
        FieldType::InstanceRef => match v {
            Arg::Nil => FieldValue::Ref(None),
            Arg::Instance(id) => FieldValue::Ref(Some(*id)),
            _ => return Err(invalid("Instance or nil")),
        },
    })
}

/// Lua value `v` as a value of field `component.field` of type `ty`, or the message to raise.
pub fn field_from_lua(
    lua: &Lua,
    component: &str,
    field: &str,
    ty: FieldType,
    v: &Value,
) -> Result<FieldValue, String> {
    let arg = match v {
        Value::String(s) => return field_from_arg(component, field, ty, &Arg::Str(&s.as_bytes())),
        Value::Nil => Arg::Nil,
        Value::Boolean(b) => Arg::Bool(*b),
        Value::Integer(i) => Arg::Number(*i as f64),
        Value::Number(n) => Arg::Number(*n),
        Value::Vector(_) => Arg::Vector(from_vector(v).expect("a vector")),
        other => match instance_id(lua, other) {
            Some(id) => Arg::Instance(id),
            None => Arg::Other(type_name(lua, other)),
        },
    };
    field_from_arg(component, field, ty, &arg)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn type_names_cover_every_field_type() {
        for (name, ty) in [
            ("Bool", FieldType::Bool),
            ("boolean", FieldType::Bool),
            ("I32", FieldType::I32),
            ("I64", FieldType::I64),
            ("F32", FieldType::F32),
            ("number", FieldType::F64),
            ("Vector3", FieldType::Vector3),
            ("Quaternion", FieldType::Quaternion),
            ("string", FieldType::String),
            ("Instance", FieldType::InstanceRef),
        ] {
            assert_eq!(field_type(name), Some(ty), "{name}");
        }
        assert_eq!(field_type("float"), None);
    }

    #[test]
    fn integers_must_be_whole_and_in_range() {
        let lua = Lua::new();
        let conv = |ty, v: Value| field_from_lua(&lua, "C", "f", ty, &v);
        assert_eq!(conv(FieldType::I32, Value::Number(7.0)), Ok(FieldValue::I32(7)));
        assert!(conv(FieldType::I32, Value::Number(7.5)).unwrap_err().contains("not a whole number"));
        assert!(conv(FieldType::I32, Value::Number(3e9)).is_err());
        assert_eq!(conv(FieldType::I64, Value::Number(3e9)), Ok(FieldValue::I64(3_000_000_000)));
        assert!(conv(FieldType::I64, Value::Number(1e19)).is_err());
        assert_eq!(
            conv(FieldType::Bool, Value::Number(1.0)),
            Err("invalid value for C.f: expected boolean, got number".to_owned())
        );
    }

    #[test]
    fn quaternions_read_as_euler_degrees() {
        let q = from_euler_degrees(Vec3::new(0.0, 90.0, 0.0));
        let back = euler_degrees(q);
        assert!((back - Vec3::new(0.0, 90.0, 0.0)).length() < 1e-3, "{back}");
    }
}
