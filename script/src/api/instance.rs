//! The `Instance` handle scripts hold, and the Rust primitives behind its properties and
//! methods. The prelude's `__index` / `__newindex` call [`get`] / [`set`] and turn a `false`
//! status into a Lua error at the script's line.
//!
//! A handle is just an id: it never keeps the instance alive, and once the instance is
//! destroyed every property or method use (except the idempotent `Destroy`) fails with
//! `attempt to index a destroyed Instance`.

use super::values::{
    Status, attribute_from_lua, attribute_to_lua, fail, from_vector, instance_id, instance_value, ok,
    to_vector, type_name,
};
use crate::signals::Signal;
use crate::state::{full_name, with_state, with_world};
use arbor_core::{Appearance, Arena, ArenaError, Class, Color, Id, Material, NodeFlags, Quat, Shape, Vec3};
use glam::EulerRot;
use mlua::{Lua, MetaMethod, Result, UserData, UserDataFields, UserDataMethods, Value};

/// A script's handle to an instance.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Instance(pub Id);

/// Registry key of the prelude's exports.
pub const PRELUDE_KEY: &str = "arbor.prelude";

pub(crate) fn prelude_field(lua: &Lua, key: &str) -> Result<Value> {
    lua.named_registry_value::<mlua::Table>(PRELUDE_KEY)?.get(key)
}

impl UserData for Instance {
    fn add_fields<F: UserDataFields<Self>>(fields: &mut F) {
        fields.add_meta_field_with("__index", |lua| prelude_field(lua, "index"));
        fields.add_meta_field_with("__newindex", |lua| prelude_field(lua, "newindex"));
        fields.add_meta_field("__type", "Instance");
    }

    fn add_methods<M: UserDataMethods<Self>>(methods: &mut M) {
        methods
            .add_meta_method(MetaMethod::Eq, |_, this, other: Value| Ok(instance_id(&other) == Some(this.0)));
        methods.add_meta_method(MetaMethod::ToString, |lua, this, ()| {
            with_world(lua, |w| {
                w.name_of(this.0).map_or_else(|| "<destroyed Instance>".to_owned(), str::to_owned)
            })
        });
    }
}

const DESTROYED: &str = "attempt to index a destroyed Instance";

fn live(lua: &Lua, this: &Value) -> std::result::Result<Id, String> {
    let id = instance_id(this).ok_or_else(|| "expected an Instance (use ':' to call methods)".to_owned())?;
    match with_world(lua, |w| w.contains(id)) {
        Ok(true) => Ok(id),
        Ok(false) => Err(DESTROYED.to_owned()),
        Err(e) => Err(e.to_string()),
    }
}

fn not_member(w: &Arena, id: Id, key: &str) -> String {
    let class = w.get(id).map_or("Instance", |n| n.class().name());
    format!("{key} is not a valid member of {class} \"{}\"", full_name(w, id))
}

fn euler_degrees(q: Quat) -> Vec3 {
    let (x, y, z) = q.to_euler(EulerRot::XYZ);
    Vec3::new(x.to_degrees(), y.to_degrees(), z.to_degrees())
}

fn reference_index(class: Class, key: &str) -> Option<usize> {
    class.reference_properties().iter().position(|p| *p == key)
}

/// `instance.key`: a property, or the first child named `key`.
pub fn get(lua: &Lua, (this, key): (Value, mlua::LuaString)) -> Result<Status> {
    let id = match live(lua, &this) {
        Ok(id) => id,
        Err(m) => return fail(lua, m),
    };
    let key = key.to_str()?;
    let key: &str = &key;
    enum Out {
        V(Value),
        Inst(Option<Id>),
        Err(String),
    }
    let out = with_world(lua, |w| -> Result<Out> {
        let n = w.get(id).expect("checked live");
        Ok(match key {
            "Name" => Out::V(Value::String(lua.create_string(w.names().text(n.name()))?)),
            "ClassName" => Out::V(Value::String(lua.create_string(n.class().name())?)),
            "Parent" => Out::Inst(n.parent()),
            "Position" => Out::V(Value::Vector(to_vector(n.position()))),
            "Rotation" => Out::V(Value::Vector(to_vector(euler_degrees(n.rotation())))),
            "Size" => Out::V(Value::Vector(to_vector(n.size()))),
            "Anchored" => Out::V(Value::Boolean(n.anchored())),
            "CanCollide" => Out::V(Value::Boolean(n.can_collide())),
            "Archivable" => Out::V(Value::Boolean(n.flags().contains(NodeFlags::ARCHIVABLE))),
            "Transparency" => Out::V(Value::Number(f64::from(n.appearance().transparency))),
            "Shape" => Out::V(Value::String(lua.create_string(n.appearance().shape.name())?)),
            "Material" => Out::V(Value::String(lua.create_string(n.appearance().material.name())?)),
            "Color" => {
                let [r, g, b, _] = n.appearance().color.0;
                Out::V(Value::Vector(mlua::Vector::new(r as f32 / 255.0, g as f32 / 255.0, b as f32 / 255.0)))
            }
            other => match reference_index(n.class(), other) {
                Some(k) => Out::Inst(n.reference(k)),
                None => match w.find_first_child(id, other) {
                    Some(child) => Out::Inst(Some(child)),
                    None => Out::Err(not_member(w, id, other)),
                },
            },
        })
    })??;
    match out {
        Out::V(v) => ok(lua, v),
        Out::Inst(i) => ok(lua, instance_value(lua, i)?),
        Out::Err(m) => fail(lua, m),
    }
}

fn expect_vector(key: &str, v: &Value) -> std::result::Result<Vec3, String> {
    from_vector(v).ok_or_else(|| format!("invalid value for {key}: expected Vector3, got {}", type_name(v)))
}

fn expect_bool(key: &str, v: &Value) -> std::result::Result<bool, String> {
    v.as_boolean().ok_or_else(|| format!("invalid value for {key}: expected boolean, got {}", type_name(v)))
}

fn expect_instance(key: &str, v: &Value) -> std::result::Result<Option<Id>, String> {
    match v {
        Value::Nil => Ok(None),
        other => instance_id(other).map(Some).ok_or_else(|| {
            format!("invalid value for {key}: expected Instance or nil, got {}", type_name(other))
        }),
    }
}

fn write_property(w: &mut Arena, id: Id, key: &str, v: &Value) -> std::result::Result<(), String> {
    let arena = |e: ArenaError| e.to_string();
    let class = w.get(id).expect("checked live").class();
    let appearance = w.get(id).expect("checked live").appearance();
    match key {
        "Name" => match v {
            Value::String(s) => {
                w.set_name(id, &s.to_str().map_err(|e| e.to_string())?).map(drop).map_err(arena)
            }
            other => Err(format!("invalid value for Name: expected string, got {}", type_name(other))),
        },
        "Parent" => {
            let parent = expect_instance(key, v)?;
            w.set_parent(id, parent).map(drop).map_err(arena)
        }
        "Position" => w.set_position(id, expect_vector(key, v)?).map(drop).map_err(arena),
        "Size" => w.set_size(id, expect_vector(key, v)?.max(Vec3::splat(0.001))).map(drop).map_err(arena),
        "Rotation" => {
            let d = expect_vector(key, v)?;
            let q = Quat::from_euler(EulerRot::XYZ, d.x.to_radians(), d.y.to_radians(), d.z.to_radians());
            w.set_rotation(id, q).map(drop).map_err(arena)
        }
        "Anchored" => w.set_flag(id, NodeFlags::ANCHORED, expect_bool(key, v)?).map(drop).map_err(arena),
        "CanCollide" => w.set_flag(id, NodeFlags::CAN_COLLIDE, expect_bool(key, v)?).map(drop).map_err(arena),
        "Archivable" => w.set_flag(id, NodeFlags::ARCHIVABLE, expect_bool(key, v)?).map(drop).map_err(arena),
        "Transparency" => {
            let t = v.as_number().ok_or_else(|| {
                format!("invalid value for Transparency: expected number, got {}", type_name(v))
            })?;
            let t = if t.is_nan() { 0.0 } else { t.clamp(0.0, 1.0) as f32 };
            w.set_appearance(id, Appearance { transparency: t, ..appearance }).map(drop).map_err(arena)
        }
        "Shape" | "Material" => {
            let s = v.as_string().and_then(|s| s.to_str().ok()).map(|s| s.to_string()).unwrap_or_default();
            let next = if key == "Shape" {
                Appearance {
                    shape: Shape::from_name(&s).ok_or_else(|| format!("'{s}' is not a valid Shape"))?,
                    ..appearance
                }
            } else {
                Appearance {
                    material: Material::from_name(&s)
                        .ok_or_else(|| format!("'{s}' is not a valid Material"))?,
                    ..appearance
                }
            };
            w.set_appearance(id, next).map(drop).map_err(arena)
        }
        "Color" => {
            let c = expect_vector(key, v)?.clamp(Vec3::ZERO, Vec3::ONE) * 255.0;
            let color = Color([c.x.round() as u8, c.y.round() as u8, c.z.round() as u8, 255]);
            w.set_appearance(id, Appearance { color, ..appearance }).map(drop).map_err(arena)
        }
        "ClassName" => Err("ClassName is read-only".to_owned()),
        other => match reference_index(class, other) {
            Some(k) => w.set_reference(id, k, expect_instance(other, v)?).map(drop).map_err(arena),
            None => Err(not_member(w, id, other)),
        },
    }
}

/// `instance.key = value`.
pub fn set(lua: &Lua, (this, key, value): (Value, mlua::LuaString, Value)) -> Result<Status> {
    let id = match live(lua, &this) {
        Ok(id) => id,
        Err(m) => return fail(lua, m),
    };
    let key = key.to_str()?;
    match with_world(lua, |w| write_property(w, id, &key, &value))? {
        Ok(()) => ok(lua, Value::Nil),
        Err(m) => fail(lua, m),
    }
}

macro_rules! checked {
    ($lua:expr, $this:expr) => {
        match live($lua, &$this) {
            Ok(id) => id,
            Err(m) => return fail($lua, m),
        }
    };
}

/// Registers the instance methods (`raw.methods`) on `table`.
pub fn register_methods(lua: &Lua, table: &mlua::Table) -> Result<()> {
    table.set(
        "FindFirstChild",
        lua.create_function(|lua, (this, name, recursive): (Value, mlua::LuaString, Option<bool>)| {
            let id = checked!(lua, this);
            let name = name.to_str()?;
            let found = with_world(lua, |w| {
                if recursive.unwrap_or(false) {
                    w.find_first_descendant(id, &name)
                } else {
                    w.find_first_child(id, &name)
                }
            })?;
            ok(lua, instance_value(lua, found)?)
        })?,
    )?;
    table.set(
        "GetChildren",
        lua.create_function(|lua, this: Value| {
            let id = checked!(lua, this);
            let kids: Vec<Id> = with_world(lua, |w| w.children(id).collect())?;
            let t = lua.create_table_with_capacity(kids.len(), 0)?;
            for (i, k) in kids.into_iter().enumerate() {
                t.raw_set(i + 1, lua.create_userdata(Instance(k))?)?;
            }
            ok(lua, t)
        })?,
    )?;
    table.set(
        "Clone",
        lua.create_function(|lua, this: Value| {
            let id = checked!(lua, this);
            match with_world(lua, |w| w.clone_subtree(id))? {
                Ok(copy) => ok(lua, instance_value(lua, copy)?),
                Err(e) => fail(lua, e.to_string()),
            }
        })?,
    )?;
    table.set(
        "Destroy",
        lua.create_function(|lua, this: Value| {
            let Some(id) = instance_id(&this) else {
                return fail(lua, "expected an Instance (use ':' to call methods)");
            };
            if with_state(lua, |s| s.client)? {
                return fail(lua, "Destroy can only be called on the server");
            }
            match with_world(lua, |w| w.destroy(id))? {
                Ok(_) | Err(ArenaError::NotFound(_)) => ok(lua, Value::Nil),
                Err(e) => fail(lua, e.to_string()),
            }
        })?,
    )?;
    table.set(
        "GetAttribute",
        lua.create_function(|lua, (this, name): (Value, mlua::LuaString)| {
            let id = checked!(lua, this);
            let name = name.to_str()?;
            let v = with_world(lua, |w| w.attribute(id, &name).cloned())?;
            match v {
                Some(v) => ok(lua, attribute_to_lua(lua, &v)?),
                None => ok(lua, Value::Nil),
            }
        })?,
    )?;
    table.set(
        "SetAttribute",
        lua.create_function(|lua, (this, name, value): (Value, mlua::LuaString, Value)| {
            let id = checked!(lua, this);
            let name = name.to_str()?;
            let value = match attribute_from_lua(&value) {
                Ok(v) => v,
                Err(m) => return fail(lua, m),
            };
            match with_world(lua, |w| w.set_attribute(id, &name, value))? {
                Ok(_) => ok(lua, Value::Nil),
                Err(e) => fail(lua, e.to_string()),
            }
        })?,
    )?;
    table.set(
        "IsA",
        lua.create_function(|lua, (this, class): (Value, mlua::LuaString)| {
            let id = checked!(lua, this);
            let class = class.to_str()?;
            let is = with_world(lua, |w| {
                w.get(id).is_some_and(|n| class == "Instance" || n.class().name() == &*class)
            })?;
            ok(lua, is)
        })?,
    )?;
    table.set(
        "GetFullName",
        lua.create_function(|lua, this: Value| {
            let id = checked!(lua, this);
            let name = with_world(lua, |w| full_name(w, id))?;
            ok(lua, name)
        })?,
    )?;
    table.set(
        "GetSignal",
        lua.create_function(|lua, (this, name): (Value, mlua::LuaString)| {
            let id = checked!(lua, this);
            let name = name.to_str()?;
            ok(lua, Signal { target: id, name: name.as_ref().into() })
        })?,
    )?;
    Ok(())
}
