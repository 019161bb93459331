//! The built-in properties of an Instance, read and written on the arena: the members
//! scripts can name ([`Member`], each with a fixed Luau string atom), read into a
//! [`Read`] and written from an [`Arg`] (both in `convert`). Safe Rust only; the C
//! metamethods in `handle` move values between those types and the Lua stack.
//!
//! Nothing here allocates on the hot paths (a `Position` read or write, an `Anchored` flag):
//! errors carry `Cow` messages and names are copied into a small inline buffer.

use crate::luau::convert::{
    Arg, Fail, Read, euler_degrees, expect_bool, expect_instance, expect_vector, from_euler_degrees, invalid,
};
use crate::state::full_name;
use arbor_core::{Appearance, Arena, ArenaError, Class, Color, Id, Material, NodeFlags, Shape, Vec3};
use std::borrow::Cow;

/// The error raised when a destroyed Instance is indexed or mutated (quoted by the seeds).
pub const DESTROYED: &str = "attempt to index a destroyed Instance";

/// A property or method name scripts use on Instances. The discriminant is the Luau string
/// atom of the name (see `handle::user_atom`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Member {
    /// `Name` (string).
    Name,
    /// `ClassName` (read-only string).
    ClassName,
    /// `Parent` (Instance or nil).
    Parent,
    /// `Position` (Vector3).
    Position,
    /// `Rotation` (Vector3 of XYZ Euler degrees).
    Rotation,
    /// `Size` (Vector3).
    Size,
    /// `Anchored` (boolean).
    Anchored,
    /// `CanCollide` (boolean).
    CanCollide,
    /// `Archivable` (boolean).
    Archivable,
    /// `Transparency` (number in 0..=1).
    Transparency,
    /// `Shape` (name of a shape).
    Shape,
    /// `Material` (name of a material).
    Material,
    /// `Color` (Vector3 of 0..=1 channels).
    Color,
    /// `FindFirstChild(name, recursive?)`.
    FindFirstChild,
    /// `GetChildren()`.
    GetChildren,
    /// `Clone()`.
    Clone,
    /// `Destroy()`.
    Destroy,
    /// `GetAttribute(name)`.
    GetAttribute,
    /// `SetAttribute(name, value)`.
    SetAttribute,
    /// `IsA(class)`.
    IsA,
    /// `GetFullName()`.
    GetFullName,
    /// `GetSignal(name)`.
    GetSignal,
    /// `AddComponent(name, values?)`.
    AddComponent,
    /// `GetComponent(name)`.
    GetComponent,
    /// `HasComponent(name)`.
    HasComponent,
    /// `RemoveComponent(name)`.
    RemoveComponent,
}

impl Member {
    /// Every member, in atom order.
    pub const ALL: [Member; 26] = [
        Member::Name,
        Member::ClassName,
        Member::Parent,
        Member::Position,
        Member::Rotation,
        Member::Size,
        Member::Anchored,
        Member::CanCollide,
        Member::Archivable,
        Member::Transparency,
        Member::Shape,
        Member::Material,
        Member::Color,
        Member::FindFirstChild,
        Member::GetChildren,
        Member::Clone,
        Member::Destroy,
        Member::GetAttribute,
        Member::SetAttribute,
        Member::IsA,
        Member::GetFullName,
        Member::GetSignal,
        Member::AddComponent,
        Member::GetComponent,
        Member::HasComponent,
        Member::RemoveComponent,
    ];

    /// The name scripts write.
    pub fn name(self) -> &'static str {
        match self {
            Member::Name => "Name",
            Member::ClassName => "ClassName",
            Member::Parent => "Parent",
            Member::Position => "Position",
            Member::Rotation => "Rotation",
            Member::Size => "Size",
            Member::Anchored => "Anchored",
            Member::CanCollide => "CanCollide",
            Member::Archivable => "Archivable",
            Member::Transparency => "Transparency",
            Member::Shape => "Shape",
            Member::Material => "Material",
            Member::Color => "Color",
            Member::FindFirstChild => "FindFirstChild",
            Member::GetChildren => "GetChildren",
            Member::Clone => "Clone",
            Member::Destroy => "Destroy",
            Member::GetAttribute => "GetAttribute",
            Member::SetAttribute => "SetAttribute",
            Member::IsA => "IsA",
            Member::GetFullName => "GetFullName",
            Member::GetSignal => "GetSignal",
            Member::AddComponent => "AddComponent",
            Member::GetComponent => "GetComponent",
            Member::HasComponent => "HasComponent",
            Member::RemoveComponent => "RemoveComponent",
        }
    }

    /// Whether this is a method (looked up before the instance is checked, like a table
    /// field) rather than a property.
    pub fn is_method(self) -> bool {
        self as u8 >= Member::FindFirstChild as u8
    }

    /// The methods, in atom order.
    pub fn methods() -> impl Iterator<Item = Member> {
        Self::ALL.into_iter().filter(|m| m.is_method())
    }

    /// The member with atom `atom`.
    #[inline]
    pub fn from_atom(atom: i32) -> Option<Member> {
        Self::ALL.get(usize::try_from(atom).ok()?).copied()
    }

    /// The member named `bytes`.
    pub fn from_name(bytes: &[u8]) -> Option<Member> {
        Self::ALL.into_iter().find(|m| m.name().as_bytes() == bytes)
    }
}

/// `{key} is not a valid member of {class} "{path}"`.
pub fn not_member(w: &Arena, id: Id, key: &str) -> String {
    let class = w.get(id).map_or("Instance", |n| n.class().name());
    format!("{key} is not a valid member of {class} \"{}\"", full_name(w, id))
}

fn reference_index(class: Class, key: &str) -> Option<usize> {
    class.reference_properties().iter().position(|p| *p == key)
}

/// `instance.key` for a property or child: `member` is the key's member if it has one
/// (methods are resolved before this is called and count as plain names here).
pub fn read(w: &Arena, id: Id, member: Option<Member>, key: &[u8]) -> Result<Read, Fail> {
    let Some(n) = w.get(id) else { return Err(Cow::Borrowed(DESTROYED)) };
    Ok(match member {
        Some(Member::Name) => Read::text(w.names().text(n.name())),
        Some(Member::ClassName) => Read::Static(n.class().name()),
        Some(Member::Parent) => Read::Instance(n.parent()),
        Some(Member::Position) => Read::Vector(n.position()),
        Some(Member::Rotation) => Read::Vector(euler_degrees(n.rotation())),
        Some(Member::Size) => Read::Vector(n.size()),
        Some(Member::Anchored) => Read::Bool(n.anchored()),
        Some(Member::CanCollide) => Read::Bool(n.can_collide()),
        Some(Member::Archivable) => Read::Bool(n.flags().contains(NodeFlags::ARCHIVABLE)),
        Some(Member::Transparency) => Read::Number(f64::from(n.appearance().transparency)),
        Some(Member::Shape) => Read::Static(n.appearance().shape.name()),
        Some(Member::Material) => Read::Static(n.appearance().material.name()),
        Some(Member::Color) => {
            let [r, g, b, _] = n.appearance().color.0;
            Read::Vector(Vec3::new(r as f32, g as f32, b as f32) / 255.0)
        }
        _ => {
            let Ok(key) = std::str::from_utf8(key) else {
                return Err(Cow::Owned(not_member(w, id, &String::from_utf8_lossy(key))));
            };
            match reference_index(n.class(), key) {
                Some(k) => Read::Instance(n.reference(k)),
                None => match w.find_first_child(id, key) {
                    Some(child) => Read::Instance(Some(child)),
                    None => return Err(Cow::Owned(not_member(w, id, key))),
                },
            }
        }
    })
}

/// `instance.key = v`.
pub fn write(w: &mut Arena, id: Id, member: Option<Member>, key: &[u8], v: &Arg<'_>) -> Result<(), Fail> {
    let Some(node) = w.get(id) else { return Err(Cow::Borrowed(DESTROYED)) };
    let class = node.class();
    let appearance = node.appearance();
    let member = member.filter(|m| !m.is_method());
    let done = |r: Result<bool, ArenaError>| r.map(drop).map_err(|e| Cow::Owned(e.to_string()));
    match member {
        Some(Member::Position) => done(w.set_position(id, expect_vector("Position", v)?)),
        Some(Member::Size) => done(w.set_size(id, expect_vector("Size", v)?.max(Vec3::splat(0.001)))),
        Some(Member::Rotation) => {
            let d = expect_vector("Rotation", v)?;
            let q = from_euler_degrees(d);
            done(w.set_rotation(id, q))
        }
        Some(Member::Anchored) => done(w.set_flag(id, NodeFlags::ANCHORED, expect_bool("Anchored", v)?)),
        Some(Member::CanCollide) => {
            done(w.set_flag(id, NodeFlags::CAN_COLLIDE, expect_bool("CanCollide", v)?))
        }
        Some(Member::Archivable) => {
            done(w.set_flag(id, NodeFlags::ARCHIVABLE, expect_bool("Archivable", v)?))
        }
        Some(Member::Name) if matches!(class, Class::DataModel | Class::Workspace) => {
            // Scripts find the place by these names (`game`, `workspace`, paths in logs).
            Err(Cow::Owned(format!("Name: the {} cannot be renamed", class.name())))
        }
        Some(Member::Name) => match v {
            Arg::Str(s) => {
                let name = std::str::from_utf8(s).map_err(|e| Cow::Owned(e.to_string()))?;
                // The engine keeps a copy: the entry pays for its bytes.
                crate::budget::charge(name.len(), 0)
                    .map_err(|_| Cow::Borrowed(crate::budget::BUDGET_MESSAGE))?;
                done(w.set_name(id, name))
            }
            other => Err(invalid("Name", "string", other)),
        },
        Some(Member::Parent) => {
            let parent = expect_instance("Parent", v)?;
            // A move walks the new parent's ancestors (the cycle check, the events' chain)
            // and the moved subtree: the entry pays for both.
            let limit = crate::budget::affordable_instances().saturating_add(1);
            let walked = parent.map_or(0, |p| w.depth_up_to(p, limit)) + w.subtree_len_up_to(id, limit);
            crate::budget::charge_instances(walked)
                .map_err(|_| Cow::Borrowed(crate::budget::BUDGET_MESSAGE))?;
            let r = w.set_parent(id, parent);
            r.map(drop).map_err(|e| Cow::Owned(e.describe(w)))
        }
        Some(Member::Transparency) => {
            let Arg::Number(t) = *v else { return Err(invalid("Transparency", "number", v)) };
            let t = if t.is_nan() { 0.0 } else { t.clamp(0.0, 1.0) as f32 };
            done(w.set_appearance(id, Appearance { transparency: t, ..appearance }))
        }
        Some(m @ (Member::Shape | Member::Material)) => {
            let s = match v {
                Arg::Str(s) => std::str::from_utf8(s).unwrap_or(""),
                _ => "",
            };
            let next = if m == Member::Shape {
                let shape =
                    Shape::from_name(s).ok_or_else(|| Cow::Owned(format!("'{s}' is not a valid Shape")))?;
                Appearance { shape, ..appearance }
            } else {
                let material = Material::from_name(s)
                    .ok_or_else(|| Cow::Owned(format!("'{s}' is not a valid Material")))?;
                Appearance { material, ..appearance }
            };
            done(w.set_appearance(id, next))
        }
        Some(Member::Color) => {
            let c = expect_vector("Color", v)?.clamp(Vec3::ZERO, Vec3::ONE) * 255.0;
            let color = Color([c.x.round() as u8, c.y.round() as u8, c.z.round() as u8, 255]);
            done(w.set_appearance(id, Appearance { color, ..appearance }))
        }
        Some(Member::ClassName) => Err(Cow::Borrowed("ClassName is read-only")),
        _ => {
            let key = String::from_utf8_lossy(key);
            match reference_index(class, &key) {
                Some(k) => done(w.set_reference(id, k, expect_instance(&key, v)?)),
                None => Err(Cow::Owned(not_member(w, id, &key))),
            }
        }
    }
}
