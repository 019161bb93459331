//! [`EntityState`]: the replicated state of one instance, quantised, split into
//! [`Groups`] that change and travel independently, with its wire encoding and hash.
//!
//! The server derives a state from the arena ([`EntityState::capture`]); a replica decodes it
//! from the wire and keeps it as its authority. Both hash the same integers, so a matching
//! [`EntityState::hash`] proves a replica holds exactly what the server sent.
//!
//! Invariants: a state's attribute list is sorted by name and holds at most
//! [`MAX_ATTRIBUTES`] entries; decoding a group never reads more than it bounds first.

use super::codec::{DecodeError, Reader, Writer};
use super::component_delta::{self, ComponentPatch, ComponentSend, ComponentsWire};
use super::position_delta::{self, PositionSend, PositionWire};
use super::quantize::{
    dequantize_position, dequantize_rotation, dequantize_size, dequantize_unit, quantize_position,
    quantize_rotation, quantize_size, quantize_unit,
};
use super::value::{MAX_TEXT, WireValue, cut};
use arbor_core::{
    Appearance, Arena, AttributeValue, Class, Color, Id, LocalTransform, Material, NodeFlags, Shape,
    components::ComponentId, raw::NodeRef,
};
use glam::Vec3;
use std::sync::Arc;

/// Most attributes replicated per instance (the arena's own cap).
pub(crate) const MAX_ATTRIBUTES: usize = arbor_core::limits::MAX_ATTRIBUTES;

/// A set of state groups, one bit each.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Groups(pub u16);

impl Groups {
    /// The parent.
    pub const PARENT: Groups = Groups(1 << 0);
    /// The name.
    pub const NAME: Groups = Groups(1 << 1);
    /// Local position.
    pub const POSITION: Groups = Groups(1 << 2);
    /// Local rotation.
    pub const ROTATION: Groups = Groups(1 << 3);
    /// Game-defined components (an update carries only those that changed, see
    /// `component_delta`).
    pub const COMPONENTS: Groups = Groups(1 << 4);
    /// Size.
    pub const SIZE: Groups = Groups(1 << 5);
    /// Colour, transparency, material, shape.
    pub const APPEARANCE: Groups = Groups(1 << 6);
    /// Anchored, CanCollide, Transient, Archivable.
    pub const FLAGS: Groups = Groups(1 << 7);
    /// Attributes.
    pub const ATTRIBUTES: Groups = Groups(1 << 8);
    /// Every group.
    pub const ALL: Groups = Groups(0x1ff);
    /// How many groups there are.
    pub const COUNT: usize = 9;

    /// Whether `other`'s bits are all set.
    pub fn contains(self, other: Groups) -> bool {
        self.0 & other.0 == other.0
    }

    /// Whether no bit is set.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The union.
    pub fn with(self, other: Groups) -> Groups {
        Groups(self.0 | other.0)
    }
}

/// The parts of a decoded update that depend on what the client holds.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct UpdateParts {
    /// The position, when the update carries it (a delta names its base).
    pub position: Option<PositionWire>,
    /// The components that changed, when the components group is a patch.
    pub patch: Option<ComponentPatch>,
}

/// The replicated state of one instance.
#[derive(Clone, Debug, PartialEq)]
pub struct EntityState {
    /// Class (never changes).
    pub class: Class,
    /// Parent id (raw).
    pub parent: u64,
    /// Name.
    pub name: Arc<str>,
    /// The handle name scripts find it by (`handles.X`), if it has one; travels with the
    /// name.
    pub handle: Option<Arc<str>>,
    /// Quantised local position.
    pub position: [i32; 3],
    /// Smallest-three rotation.
    pub rotation: u32,
    /// Quantised size.
    pub size: [u32; 3],
    /// RGBA colour.
    pub color: [u8; 4],
    /// Transparency in 1/255.
    pub transparency: u8,
    /// Material index in [`Material::ALL`].
    pub material: u8,
    /// Shape index in [`Shape::ALL`].
    pub shape: u8,
    /// Replicated flags (see `REPLICATED_FLAGS`).
    pub flags: u8,
    /// Attributes, sorted by name.
    pub attributes: Vec<(Arc<str>, WireValue)>,
    /// Game-defined components (those the mirror replicates), sorted by name, each with its
    /// fields in schema order.
    pub components: Vec<(Arc<str>, Vec<WireValue>)>,
}

/// The node flags that replicate, in wire bit order.
pub(crate) const REPLICATED_FLAGS: [NodeFlags; 4] =
    [NodeFlags::ANCHORED, NodeFlags::CAN_COLLIDE, NodeFlags::TRANSIENT, NodeFlags::ARCHIVABLE];

fn class_index(class: Class) -> u8 {
    Class::ALL.iter().position(|&c| c == class).unwrap_or(0) as u8
}

fn text(arena: &Arena, name: arbor_core::raw::NameId) -> Arc<str> {
    arena.names().shared_text(name).cloned().unwrap_or_else(|| Arc::from(arena.names().text(name)))
}

impl EntityState {
    /// The state of `node`, read from `arena`, with every component it holds.
    pub fn capture(arena: &Arena, node: &NodeRef<'_>) -> EntityState {
        Self::capture_with(arena, node, &|_| true)
    }

    /// The state of `node`, read from `arena`, with the components `replicates` accepts.
    pub fn capture_with(
        arena: &Arena,
        node: &NodeRef<'_>,
        replicates: &dyn Fn(ComponentId) -> bool,
    ) -> EntityState {
        let t = node.transform();
        let a = node.appearance();
        let flags = node.flags();
        let mut bits = 0u8;
        for (i, f) in REPLICATED_FLAGS.iter().enumerate() {
            if flags.contains(*f) {
                bits |= 1 << i;
            }
        }
        let mut attributes: Vec<(Arc<str>, WireValue)> = node
            .extras()
            .attributes
            .iter()
            .map(|(name, value)| {
                let name = text(arena, *name);
                let value = match value {
                    AttributeValue::Bool(b) => WireValue::Bool(*b),
                    AttributeValue::Number(n) => WireValue::Number(*n),
                    AttributeValue::String(s) => WireValue::String(cut(s)),
                    AttributeValue::Vector3(v) => WireValue::Vector3(quantize_position(*v)),
                    AttributeValue::Ref(r) => WireValue::Ref(r.map_or(0, |id| id.0)),
                };
                (name, value)
            })
            .collect();
        attributes.sort_by(|a, b| a.0.cmp(&b.0));
        let store = arena.components();
        let mut components: Vec<(Arc<str>, Vec<WireValue>)> = store
            .components_of(node.id())
            .iter()
            .filter(|&&c| replicates(c))
            .filter_map(|&c| {
                let row = store.row(node.id(), c)?;
                let name = store.registry().info(c).schema.name.clone();
                Some((Arc::from(name.as_ref()), row.iter().map(WireValue::from_field).collect()))
            })
            .collect();
        components.sort_by(|a, b| a.0.cmp(&b.0));
        EntityState {
            class: node.class(),
            parent: node.parent().map_or(0, |p| p.0),
            name: text(arena, node.name()),
            handle: node.extras().handle.map(|h| text(arena, h)).filter(|h| !h.is_empty()),
            position: quantize_position(t.position),
            rotation: quantize_rotation(t.rotation),
            size: quantize_size(node.size()),
            color: a.color.0,
            transparency: quantize_unit(a.transparency),
            material: Material::ALL.iter().position(|&m| m == a.material).unwrap_or(0) as u8,
            shape: Shape::ALL.iter().position(|&s| s == a.shape).unwrap_or(0) as u8,
            flags: bits,
            attributes,
            components,
        }
    }

    /// A blank state of `class` (what a create starts from before its groups are read).
    pub fn blank(class: Class) -> EntityState {
        EntityState {
            class,
            parent: 0,
            name: Arc::from(""),
            handle: None,
            position: [0; 3],
            rotation: quantize_rotation(glam::Quat::IDENTITY),
            size: [0; 3],
            color: [0; 4],
            transparency: 0,
            material: 0,
            shape: 0,
            flags: 0,
            attributes: Vec::new(),
            components: Vec::new(),
        }
    }

    /// The groups in which `self` and `other` differ.
    pub fn differences(&self, other: &EntityState) -> Groups {
        let mut g = 0u16;
        let mut mark = |changed: bool, group: Groups| {
            if changed {
                g |= group.0;
            }
        };
        mark(self.parent != other.parent, Groups::PARENT);
        mark(self.name != other.name || self.handle != other.handle, Groups::NAME);
        mark(self.position != other.position, Groups::POSITION);
        mark(self.rotation != other.rotation, Groups::ROTATION);
        mark(self.size != other.size, Groups::SIZE);
        mark(
            self.color != other.color
                || self.transparency != other.transparency
                || self.material != other.material
                || self.shape != other.shape,
            Groups::APPEARANCE,
        );
        mark(self.flags != other.flags, Groups::FLAGS);
        mark(self.attributes != other.attributes, Groups::ATTRIBUTES);
        mark(self.components != other.components, Groups::COMPONENTS);
        Groups(g)
    }

    /// Writes the class byte.
    pub fn encode_class(&self, w: &mut Writer) {
        w.u8(class_index(self.class));
    }

    /// Reads a class byte.
    pub fn decode_class(r: &mut Reader<'_>) -> Result<Class, DecodeError> {
        let i = r.u8()? as usize;
        Class::ALL.get(i).copied().ok_or(DecodeError::BadValue("class"))
    }

    /// Writes the groups in `groups`, in bit order, whole (a create's form, and the hash's).
    pub fn encode(&self, groups: Groups, w: &mut Writer) {
        self.encode_with(groups, None, ComponentSend::All, w);
    }

    /// Writes the groups in `groups`, in bit order: with `position` set, in an update's
    /// form (the position as `position_delta` says), the components as `components` says.
    pub fn encode_with(
        &self,
        groups: Groups,
        position: Option<PositionSend>,
        components: ComponentSend<'_>,
        w: &mut Writer,
    ) {
        if groups.contains(Groups::PARENT) {
            w.varint(self.parent);
        }
        if groups.contains(Groups::NAME) {
            w.str(&self.name);
            w.str(self.handle.as_deref().unwrap_or(""));
        }
        if groups.contains(Groups::POSITION) {
            match position {
                Some(send) => position_delta::encode(self.position, send, w),
                None => {
                    for c in self.position {
                        w.zigzag(i64::from(c));
                    }
                }
            }
        }
        if groups.contains(Groups::ROTATION) {
            w.u32(self.rotation);
        }
        if groups.contains(Groups::COMPONENTS) {
            component_delta::encode(&self.components, components, w);
        }
        if groups.contains(Groups::SIZE) {
            for c in self.size {
                w.varint(u64::from(c));
            }
        }
        if groups.contains(Groups::APPEARANCE) {
            for c in self.color {
                w.u8(c);
            }
            w.u8(self.transparency);
            w.u8(self.material | (self.shape << 4));
        }
        if groups.contains(Groups::FLAGS) {
            w.u8(self.flags);
        }
        if groups.contains(Groups::ATTRIBUTES) {
            w.varint(self.attributes.len() as u64);
            for (name, value) in &self.attributes {
                w.str(name);
                value.encode(w);
            }
        }
    }

    /// Reads the groups in `groups`, whole (a create's form), into `self`, in bit order.
    pub fn decode(&mut self, groups: Groups, r: &mut Reader<'_>) -> Result<(), DecodeError> {
        self.decode_groups(groups, false, r).map(|_| ())
    }

    /// Reads the groups in `groups`, in an update's form, into `self`. What depends on
    /// what the client holds is returned rather than read into `self`: the position (a
    /// delta resolves against a base) and a components patch.
    pub fn decode_update(&mut self, groups: Groups, r: &mut Reader<'_>) -> Result<UpdateParts, DecodeError> {
        self.decode_groups(groups, true, r)
    }

    fn decode_groups(
        &mut self,
        groups: Groups,
        update: bool,
        r: &mut Reader<'_>,
    ) -> Result<UpdateParts, DecodeError> {
        let mut parts = UpdateParts::default();
        if groups.contains(Groups::PARENT) {
            self.parent = r.varint()?;
        }
        if groups.contains(Groups::NAME) {
            self.name = Arc::from(r.str("name", MAX_TEXT)?);
            let handle = r.str("handle", MAX_TEXT)?;
            self.handle = (!handle.is_empty()).then(|| Arc::from(handle));
        }
        if groups.contains(Groups::POSITION) {
            if update {
                let wire = position_delta::decode(r)?;
                if let PositionWire::Whole(p) = wire {
                    self.position = p;
                }
                parts.position = Some(wire);
            } else {
                for c in &mut self.position {
                    *c = r.zigzag_i32()?;
                }
            }
        }
        if groups.contains(Groups::ROTATION) {
            self.rotation = r.u32()?;
        }
        if groups.contains(Groups::COMPONENTS) {
            match component_delta::decode(r)? {
                ComponentsWire::All(components) => self.components = components,
                ComponentsWire::Patch(p) => parts.patch = Some(p),
            }
        }
        if groups.contains(Groups::SIZE) {
            for c in &mut self.size {
                *c = r.varint_u32()?;
            }
        }
        if groups.contains(Groups::APPEARANCE) {
            for c in &mut self.color {
                *c = r.u8()?;
            }
            self.transparency = r.u8()?;
            let b = r.u8()?;
            let (material, shape) = (b & 0x0f, b >> 4);
            if usize::from(material) >= Material::ALL.len() || usize::from(shape) >= Shape::ALL.len() {
                return Err(DecodeError::BadValue("material or shape"));
            }
            self.material = material;
            self.shape = shape;
        }
        if groups.contains(Groups::FLAGS) {
            let f = r.u8()?;
            if f >> REPLICATED_FLAGS.len() != 0 {
                return Err(DecodeError::BadValue("flags"));
            }
            self.flags = f;
        }
        if groups.contains(Groups::ATTRIBUTES) {
            let n = r.count("attributes", MAX_ATTRIBUTES, 3)?;
            let mut attributes = Vec::with_capacity(n);
            for _ in 0..n {
                let name: Arc<str> = Arc::from(r.str("attribute name", MAX_TEXT)?);
                let value = WireValue::decode(r)?;
                attributes.push((name, value));
            }
            if attributes.windows(2).any(|w| w[0].0 >= w[1].0) {
                return Err(DecodeError::BadValue("attributes out of order"));
            }
            self.attributes = attributes;
        }
        Ok(parts)
    }

    /// A 64-bit hash of `id` with this whole state (FNV-1a over the wire encoding, then a
    /// final mix). World hashes combine these by XOR, so they do not depend on order.
    pub fn hash(&self, id: Id) -> u64 {
        let mut w = Writer::with_capacity(64);
        w.u64(id.0);
        self.encode_class(&mut w);
        self.encode(Groups::ALL, &mut w);
        let mut h = 0xcbf2_9ce4_8422_2325u64;
        for &b in w.as_slice() {
            h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
        // SplitMix64's finaliser spreads the FNV state over all bits before XOR-combining.
        h = (h ^ (h >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        h = (h ^ (h >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        h ^ (h >> 31)
    }

    /// The local transform the quantised values stand for.
    pub fn transform(&self) -> LocalTransform {
        LocalTransform {
            position: dequantize_position(self.position),
            rotation: dequantize_rotation(self.rotation),
        }
    }

    /// The size the quantised values stand for.
    pub fn size(&self) -> Vec3 {
        dequantize_size(self.size)
    }

    /// The appearance the quantised values stand for.
    pub fn appearance(&self) -> Appearance {
        Appearance {
            color: Color(self.color),
            transparency: dequantize_unit(self.transparency),
            material: Material::ALL[usize::from(self.material) % Material::ALL.len()],
            shape: Shape::ALL[usize::from(self.shape) % Shape::ALL.len()],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_captured_part_round_trips_through_the_wire() {
        let mut arena = Arena::new();
        let ws = arena.workspace();
        let p = arena.create(Class::Part, "Crate", Some(ws)).unwrap();
        arena.set_position(p, Vec3::new(1.5, 2.25, -3.0)).unwrap();
        arena.set_attribute(p, "Gold", Some(AttributeValue::Number(12.5))).unwrap();
        arena.set_attribute(p, "Alive", Some(AttributeValue::Bool(true))).unwrap();
        let state = EntityState::capture(&arena, &arena.get(p).unwrap());
        assert_eq!(state.attributes[0].0.as_ref(), "Alive");
        let mut w = Writer::default();
        state.encode_class(&mut w);
        state.encode(Groups::ALL, &mut w);
        let mut r = Reader::new(w.as_slice());
        let mut back = EntityState::blank(EntityState::decode_class(&mut r).unwrap());
        back.decode(Groups::ALL, &mut r).unwrap();
        r.finish().unwrap();
        assert_eq!(back, state);
        assert_eq!(back.hash(p), state.hash(p));
        assert_ne!(back.hash(p), state.hash(Id(p.0 + 1)));
        assert_eq!(back.transform().position, Vec3::new(1.5, 2.25, -3.0));
    }

    #[test]
    fn differences_name_the_groups_that_changed() {
        let mut arena = Arena::new();
        let p = arena.create(Class::Part, "A", Some(arena.workspace())).unwrap();
        let before = EntityState::capture(&arena, &arena.get(p).unwrap());
        arena.set_position(p, Vec3::X).unwrap();
        arena.set_name(p, "B").unwrap();
        let after = EntityState::capture(&arena, &arena.get(p).unwrap());
        assert_eq!(before.differences(&after), Groups::POSITION.with(Groups::NAME));
    }

    #[test]
    fn a_handle_travels_with_the_name() {
        let mut arena = Arena::new();
        let p = arena.create(Class::Part, "Pad", Some(arena.workspace())).unwrap();
        let before = EntityState::capture(&arena, &arena.get(p).unwrap());
        assert_eq!(before.handle, None);
        arena.set_handle(p, Some("SpawnPad")).unwrap();
        let after = EntityState::capture(&arena, &arena.get(p).unwrap());
        assert_eq!(after.handle.as_deref(), Some("SpawnPad"));
        assert_eq!(before.differences(&after), Groups::NAME);
        assert_ne!(before.hash(p), after.hash(p));
        let mut w = Writer::default();
        after.encode(Groups::NAME, &mut w);
        let mut back = before.clone();
        back.decode(Groups::NAME, &mut Reader::new(w.as_slice())).unwrap();
        assert_eq!(back, after);
    }
}
