//! Conversions between Lua values and arena values: vectors, instances, attribute values,
//! and the `(ok, value)` results the Rust primitives hand to the Lua prelude.

pub use super::handle::{instance_id, instance_value};
use arbor_core::{AttributeValue, Vec3};
use mlua::{IntoLua, Lua, Result, Value, Vector};

/// A primitive's result: `(true, value)` or `(false, message)`; the prelude raises the
/// message as a Lua error at the caller's line.
pub type Status = (bool, Value);

/// Success with `v`.
pub fn ok(lua: &Lua, v: impl IntoLua) -> Result<Status> {
    Ok((true, v.into_lua(lua)?))
}

/// Failure with `message`.
pub fn fail(lua: &Lua, message: impl AsRef<str>) -> Result<Status> {
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
pub fn attribute_to_lua(lua: &Lua, v: &AttributeValue) -> Result<Value> {
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
pub fn attribute_from_lua(lua: &Lua, v: &Value) -> std::result::Result<Option<AttributeValue>, String> {
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
