//! Value types stored on nodes: attribute values, appearance, flags, GUIDs and persistent
//! ids. Plain data with no arena knowledge.

use crate::id::Id;
use crate::names::NameId;
use glam::Vec3;
use std::sync::Arc;

/// A typed attribute value.
#[derive(Clone, Debug, PartialEq)]
pub enum AttributeValue {
    /// `true` / `false`.
    Bool(bool),
    /// A number (Luau numbers are `f64`).
    Number(f64),
    /// A string.
    String(Arc<str>),
    /// A 3-vector.
    Vector3(Vec3),
    /// A reference to an instance; `None` once cleared (its target was destroyed, or a graft
    /// cut it).
    Ref(Option<Id>),
}

impl AttributeValue {
    /// The value's type as scripts and place files name it (`Number`, `Vector3`, …).
    pub fn type_name(&self) -> &'static str {
        match self {
            AttributeValue::Bool(_) => "Bool",
            AttributeValue::Number(_) => "Number",
            AttributeValue::String(_) => "String",
            AttributeValue::Vector3(_) => "Vector3",
            AttributeValue::Ref(_) => "Ref",
        }
    }

    /// The instance this value refers to, if it is a set reference.
    #[inline]
    pub fn referenced(&self) -> Option<Id> {
        match self {
            AttributeValue::Ref(r) => *r,
            _ => None,
        }
    }
}

/// An RGBA colour, 8 bits a channel.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct Color(pub [u8; 4]);

impl Color {
    /// Medium stone grey, the default part colour.
    pub const DEFAULT: Color = Color([163, 162, 165, 255]);
}

/// A part's geometric shape.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
#[repr(u8)]
pub enum Shape {
    /// An axis-aligned box of `Size`.
    #[default]
    Block,
    /// A ball of diameter `Size.x`.
    Ball,
    /// A cylinder along X, length `Size.x`, diameter `Size.y`.
    Cylinder,
}

/// A part's surface material.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
#[repr(u8)]
pub enum Material {
    /// Smooth plastic.
    #[default]
    Plastic,
    /// Wood.
    Wood,
    /// Metal.
    Metal,
    /// Concrete.
    Concrete,
    /// Ice.
    Ice,
    /// Glass.
    Glass,
    /// Light-emitting.
    Neon,
}

impl Shape {
    /// Every shape.
    pub const ALL: [Shape; 3] = [Shape::Block, Shape::Ball, Shape::Cylinder];

    /// The name scripts and place files use.
    pub fn name(self) -> &'static str {
        match self {
            Shape::Block => "Block",
            Shape::Ball => "Ball",
            Shape::Cylinder => "Cylinder",
        }
    }

    /// The shape called `name`.
    pub fn from_name(name: &str) -> Option<Shape> {
        Self::ALL.into_iter().find(|s| s.name() == name)
    }
}

impl Material {
    /// Every material.
    pub const ALL: [Material; 7] = [
        Material::Plastic,
        Material::Wood,
        Material::Metal,
        Material::Concrete,
        Material::Ice,
        Material::Glass,
        Material::Neon,
    ];

    /// The name scripts and place files use.
    pub fn name(self) -> &'static str {
        match self {
            Material::Plastic => "Plastic",
            Material::Wood => "Wood",
            Material::Metal => "Metal",
            Material::Concrete => "Concrete",
            Material::Ice => "Ice",
            Material::Glass => "Glass",
            Material::Neon => "Neon",
        }
    }

    /// The material called `name`.
    pub fn from_name(name: &str) -> Option<Material> {
        Self::ALL.into_iter().find(|m| m.name() == name)
    }
}

/// How a part looks; one column in the node pages.
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct Appearance {
    /// Colour.
    pub color: Color,
    /// Transparency, 0 (opaque) to 1.
    pub transparency: f32,
    /// Material.
    pub material: Material,
    /// Shape.
    pub shape: Shape,
}

impl Appearance {
    /// This appearance as the arena stores it: transparency clamped to 0..=1, NaN read as 0
    /// (place files accept 0 to 1 only, and what is stored must save and load back).
    pub fn stored(self) -> Appearance {
        let t = self.transparency;
        Appearance { transparency: if t.is_nan() { 0.0 } else { t.clamp(0.0, 1.0) }, ..self }
    }
}

impl Default for Appearance {
    fn default() -> Self {
        Self { color: Color::DEFAULT, transparency: 0.0, material: Material::Plastic, shape: Shape::Block }
    }
}

/// Per-node flags.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct NodeFlags(pub u16);

impl NodeFlags {
    /// Destroyed: a tombstone until reclaimed.
    pub const DESTROYED: NodeFlags = NodeFlags(1 << 0);
    /// `Parent` may not be assigned (destroyed nodes, services).
    pub const LOCKED: NodeFlags = NodeFlags(1 << 1);
    /// Owned by the platform: scripts may not move or destroy it, nor parent into it.
    pub const PLATFORM_OWNED: NodeFlags = NodeFlags(1 << 2);
    /// Lives only for the session; left out of place saves with its subtree.
    pub const TRANSIENT: NodeFlags = NodeFlags(1 << 3);
    /// Copied by `Clone` and saved; a non-archivable node and its subtree are skipped.
    pub const ARCHIVABLE: NodeFlags = NodeFlags(1 << 4);
    /// Part is anchored (not simulated).
    pub const ANCHORED: NodeFlags = NodeFlags(1 << 5);
    /// Part collides with others.
    pub const CAN_COLLIDE: NodeFlags = NodeFlags(1 << 6);
    /// Derived: the node is a descendant of the Workspace (in the world).
    pub const IN_WORLD: NodeFlags = NodeFlags(1 << 7);
    /// Derived: the node's child array is not empty (it has a live child: the array never
    /// ends in a hole). Kept by the arena wherever a child array changes, so a pass can learn
    /// that a node is a leaf from its flags, without reading its child array's line. Never
    /// user-settable, saved or compared by snapshot diffs.
    pub const HAS_CHILDREN: NodeFlags = NodeFlags(1 << 8);

    /// Flags of a new node.
    pub const NEW: NodeFlags = NodeFlags(Self::ARCHIVABLE.0 | Self::CAN_COLLIDE.0);
    /// Flags a user may set through [`NodeMut`](crate::NodeMut) or a place file; the rest are
    /// structural and kept by the arena.
    pub const USER: NodeFlags =
        NodeFlags(Self::TRANSIENT.0 | Self::ARCHIVABLE.0 | Self::ANCHORED.0 | Self::CAN_COLLIDE.0);

    /// Whether every flag of `other` is set.
    #[inline]
    pub fn contains(self, other: NodeFlags) -> bool {
        self.0 & other.0 == other.0
    }

    /// Sets or clears `other`.
    #[inline]
    pub fn set(&mut self, other: NodeFlags, on: bool) {
        if on {
            self.0 |= other.0;
        } else {
            self.0 &= !other.0;
        }
    }

    /// `self` with `other` set or cleared.
    #[inline]
    pub fn with(mut self, other: NodeFlags, on: bool) -> NodeFlags {
        self.set(other, on);
        self
    }
}

impl std::fmt::Debug for NodeFlags {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        const NAMES: [&str; 9] = [
            "DESTROYED",
            "LOCKED",
            "PLATFORM_OWNED",
            "TRANSIENT",
            "ARCHIVABLE",
            "ANCHORED",
            "CAN_COLLIDE",
            "IN_WORLD",
            "HAS_CHILDREN",
        ];
        let set: Vec<&str> =
            NAMES.iter().enumerate().filter(|(i, _)| self.0 & (1 << i) != 0).map(|(_, n)| *n).collect();
        write!(f, "NodeFlags({})", set.join("|"))
    }
}

/// A 128-bit identity given to every node at creation; copied by grafts, fresh on clone.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default, PartialOrd, Ord)]
pub struct Guid(pub u128);

/// A persistent unique id, assigned on demand and indexed; survives saves.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct PersistentId(pub u128);

/// Which reference field of a holder points at a target (for the reverse index).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum RefField {
    /// A class reference property, by index into
    /// [`Class::reference_properties`](crate::Class::reference_properties).
    Builtin(u8),
    /// An attribute holding [`AttributeValue::Ref`].
    Attribute(NameId),
}

/// Optional per-node state that most nodes lack; boxed so the page column stays one pointer.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct NodeExtras {
    /// Attributes in insertion order (small tables; linear search beats hashing).
    pub attributes: Vec<(NameId, AttributeValue)>,
    /// Tags, sorted.
    pub tags: Vec<NameId>,
    /// Class reference properties (`ObjectValue.Value`, `Weld.Part0/Part1`).
    pub refs: [Option<Id>; 2],
    /// Persistent id, once assigned.
    pub persistent_id: Option<PersistentId>,
    /// Handle name registered for this node.
    pub handle: Option<NameId>,
    /// Luau source of a `Script`.
    pub source: Option<Arc<str>>,
}

impl NodeExtras {
    /// Whether nothing is set (the box can be dropped).
    pub fn is_empty(&self) -> bool {
        self.attributes.is_empty()
            && self.tags.is_empty()
            && self.refs == [None, None]
            && self.persistent_id.is_none()
            && self.handle.is_none()
            && self.source.is_none()
    }

    /// The value of attribute `name`.
    pub fn attribute(&self, name: NameId) -> Option<&AttributeValue> {
        self.attributes.iter().find(|(n, _)| *n == name).map(|(_, v)| v)
    }

    /// Every (field, target) reference this node holds.
    pub fn references(&self) -> impl Iterator<Item = (RefField, Id)> + '_ {
        let builtin =
            self.refs.iter().enumerate().filter_map(|(i, r)| r.map(|t| (RefField::Builtin(i as u8), t)));
        let attrs =
            self.attributes.iter().filter_map(|(n, v)| v.referenced().map(|t| (RefField::Attribute(*n), t)));
        builtin.chain(attrs)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flags_set_and_clear() {
        let mut f = NodeFlags::NEW;
        assert!(f.contains(NodeFlags::ARCHIVABLE));
        f.set(NodeFlags::ANCHORED, true);
        assert!(f.contains(NodeFlags::ANCHORED));
        f.set(NodeFlags::ANCHORED, false);
        assert!(!f.contains(NodeFlags::ANCHORED));
        assert_eq!(format!("{f:?}"), "NodeFlags(ARCHIVABLE|CAN_COLLIDE)");
    }

    #[test]
    fn extras_list_references() {
        let mut e = NodeExtras::default();
        assert!(e.is_empty());
        e.refs[1] = Some(Id(7));
        e.attributes.push((NameId(3), AttributeValue::Ref(Some(Id(9)))));
        e.attributes.push((NameId(4), AttributeValue::Number(1.0)));
        let refs: Vec<_> = e.references().collect();
        assert_eq!(refs, vec![(RefField::Builtin(1), Id(7)), (RefField::Attribute(NameId(3)), Id(9))]);
    }
}
