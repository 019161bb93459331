//! Shared helpers of the place-file tests: a canonical dump of the part of an arena a save
//! keeps (so a saved-and-loaded arena can be compared with its source), and a rich sample
//! arena touching every feature of the format.

#![allow(dead_code)]

use arbor_core::{
    Appearance, Arena, AttributeValue, Class, Color, Id, LocalTransform, Material, NodeFlags, Quat, Shape,
    Vec3,
    components::{ComponentId, FieldDef, FieldType, FieldValue, RefPolicy, Schema},
    settings::FALLEN_PARTS_DESTROY_HEIGHT,
};
use std::collections::HashMap;

/// A float compared bit for bit, with every NaN the same.
fn bits32(x: f32) -> u32 {
    if x.is_nan() { 0x7fc0_0000 } else { x.to_bits() }
}

fn bits64(x: f64) -> u64 {
    if x.is_nan() { 0x7ff8_0000_0000_0000 } else { x.to_bits() }
}

fn vec_bits(v: Vec3) -> [u32; 3] {
    v.to_array().map(bits32)
}

/// A value with references replaced by dump positions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ValueDump {
    Bool(bool),
    Int(i64),
    F32(u32),
    F64(u64),
    Floats(Vec<u32>),
    Str(String),
    Ref(Option<usize>),
    Vector3([u32; 3]),
}

/// One saved node.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NodeDump {
    pub parent: Option<usize>,
    pub class: Class,
    pub name: String,
    pub position: [u32; 3],
    pub rotation: [u32; 4],
    pub size: [u32; 3],
    pub look: ([u8; 4], u32, Material, Shape),
    pub flags: (bool, bool, bool),
    pub attributes: Vec<(String, ValueDump)>,
    pub tags: Vec<String>,
    pub handle: Option<String>,
    pub persistent_id: Option<u128>,
    pub refs: Vec<Option<usize>>,
    pub components: Vec<(String, Vec<ValueDump>)>,
    pub source: Option<String>,
}

/// The saved part of an arena: nodes in pre-order, the destroy-height setting, schemas.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Dump {
    pub nodes: Vec<NodeDump>,
    pub destroy_height: Option<u64>,
    pub schemas: Vec<Schema>,
}

fn saved(arena: &Arena, id: Id) -> bool {
    let Some(n) = arena.get(id) else { return false };
    n.class() == Class::Workspace
        || (!n.flags().contains(NodeFlags::TRANSIENT) && n.flags().contains(NodeFlags::ARCHIVABLE))
}

/// The canonical dump of what a save of `arena` keeps.
pub fn dump(arena: &Arena) -> Dump {
    let mut order: Vec<(Id, Option<usize>)> = Vec::new();
    let mut stack: Vec<(Id, Option<usize>)> = arena.children(arena.root()).rev().map(|c| (c, None)).collect();
    while let Some((id, parent)) = stack.pop() {
        if !saved(arena, id) {
            continue;
        }
        let index = order.len();
        order.push((id, parent));
        stack.extend(arena.children(id).rev().map(|c| (c, Some(index))));
    }
    let index: HashMap<Id, usize> = order.iter().enumerate().map(|(i, (id, _))| (*id, i)).collect();
    let at = |r: Option<Id>| r.and_then(|t| index.get(&t).copied());
    let names = arena.names();
    let mut destroy_height = Some(bits64(-500.0));
    let mut nodes = Vec::new();
    for &(id, parent) in &order {
        let n = arena.get(id).unwrap();
        let e = n.extras();
        let mut attributes = Vec::new();
        for (k, v) in &e.attributes {
            let key = names.text(*k).to_owned();
            if n.class() == Class::Workspace && key == FALLEN_PARTS_DESTROY_HEIGHT.name {
                if let AttributeValue::Number(h) = v {
                    destroy_height = Some(bits64(*h));
                    continue;
                }
                destroy_height = None;
            }
            let v = match v {
                AttributeValue::Bool(b) => ValueDump::Bool(*b),
                AttributeValue::Number(x) => ValueDump::F64(bits64(*x)),
                AttributeValue::String(s) => ValueDump::Str(s.to_string()),
                AttributeValue::Vector3(v) => ValueDump::Vector3(vec_bits(*v)),
                AttributeValue::Ref(r) => ValueDump::Ref(at(*r)),
            };
            attributes.push((key, v));
        }
        let mut tags: Vec<String> = e.tags.iter().map(|t| names.text(*t).to_owned()).collect();
        tags.sort();
        let store = arena.components();
        let mut components: Vec<(String, Vec<ValueDump>)> = store
            .components_of(id)
            .iter()
            .map(|&c| {
                let schema = &store.registry().info(c).schema;
                let values = store.row(id, c).unwrap().into_iter().map(|v| field_dump(v, &at)).collect();
                (schema.name.to_string(), values)
            })
            .collect();
        components.sort_by(|a, b| a.0.cmp(&b.0));
        let look = n.appearance();
        let t = n.transform();
        nodes.push(NodeDump {
            parent,
            class: n.class(),
            name: names.text(n.name()).to_owned(),
            position: vec_bits(t.position),
            rotation: t.rotation.to_array().map(bits32),
            size: vec_bits(n.size()),
            look: (look.color.0, bits32(look.transparency), look.material, look.shape),
            flags: (n.anchored(), n.can_collide(), n.flags().contains(NodeFlags::ARCHIVABLE)),
            attributes,
            tags,
            handle: e.handle.map(|h| names.text(h).to_owned()),
            persistent_id: e.persistent_id.map(|p| p.0),
            refs: (0..n.class().reference_properties().len()).map(|k| at(n.reference(k))).collect(),
            components,
            source: e.source.as_deref().map(str::to_owned),
        });
    }
    let schemas = arena.components().registry().iter().map(|(_, i)| i.schema.clone()).collect();
    Dump { nodes, destroy_height, schemas }
}

fn field_dump(v: FieldValue, at: &impl Fn(Option<Id>) -> Option<usize>) -> ValueDump {
    match v {
        FieldValue::Bool(b) => ValueDump::Bool(b),
        FieldValue::I32(x) => ValueDump::Int(x as i64),
        FieldValue::I64(x) => ValueDump::Int(x),
        FieldValue::F32(x) => ValueDump::F32(bits32(x)),
        FieldValue::F64(x) => ValueDump::F64(bits64(x)),
        FieldValue::Vector3(v) => ValueDump::Floats(v.to_array().map(bits32).to_vec()),
        FieldValue::Quaternion(q) => ValueDump::Floats(q.to_array().map(bits32).to_vec()),
        FieldValue::String(s) => ValueDump::Str(s.to_string()),
        FieldValue::Ref(r) => ValueDump::Ref(at(r)),
    }
}

/// The three test schemas: `Lifetime` (the simulation's), `Stats` (every scalar type) and
/// `Link` (a reference, requiring `Stats`).
pub fn register_schemas(arena: &mut Arena) -> [ComponentId; 3] {
    let lifetime =
        arena.register_component(Schema::new("Lifetime", vec![FieldDef::new("Remaining", FieldType::F64)]));
    let stats = arena.register_component(Schema::new(
        "Stats",
        vec![
            FieldDef::new("Hp", FieldType::I32),
            FieldDef::new("Xp", FieldType::I64),
            FieldDef::new("Speed", FieldType::F32),
            FieldDef::new("Alive", FieldType::Bool),
            FieldDef::new("Label", FieldType::String),
            FieldDef::new("Dir", FieldType::Vector3),
            FieldDef::new("Facing", FieldType::Quaternion),
        ],
    ));
    let link = arena.register_component(
        Schema::new("Link", vec![FieldDef::reference("Target", RefPolicy::DestroyHolder)]).requiring("Stats"),
    );
    [lifetime.unwrap(), stats.unwrap(), link.unwrap()]
}

/// Ids of interesting nodes of [`sample`].
pub struct Sample {
    pub arena: Arena,
    pub crate_part: Id,
    pub transient: Id,
    pub transient_child: Id,
    pub hidden: Id,
    pub value: Id,
    pub deep_leaf: Id,
}

/// An arena using every feature: all built-in properties, attributes of every type
/// (references inside the place and to a Transient instance), tags, handles, persistent
/// ids, welds and an `ObjectValue`, component rows of every field type, scripts, a
/// Transient subtree, a non-archivable instance, a detached instance, a top-level folder
/// outside the Workspace and a chain deeper than the JSON nesting limit.
pub fn sample() -> Sample {
    let mut a = Arena::new();
    let [lifetime, stats, link] = register_schemas(&mut a);
    let ws = a.workspace();
    let root = a.root();
    a.set_attribute(ws, FALLEN_PARTS_DESTROY_HEIGHT.name, Some(AttributeValue::Number(-250.0))).unwrap();
    a.set_attribute(ws, "Gravity", Some(AttributeValue::Number(196.2))).unwrap();
    let base = a.create(Class::Part, "Baseplate", Some(ws)).unwrap();
    a.set_size(base, Vec3::new(512.0, 20.0, 512.0)).unwrap();
    a.set_position(base, Vec3::new(0.0, -10.0, 0.0)).unwrap();
    a.set_flag(base, NodeFlags::ANCHORED, true).unwrap();
    let crate_part = a.create(Class::Part, "Crate \"quoted\" ünï\n", Some(ws)).unwrap();
    a.set_transform(
        crate_part,
        LocalTransform { position: Vec3::new(1.5, f32::NAN, -0.0), rotation: Quat::from_rotation_y(0.7) },
    )
    .unwrap();
    a.set_appearance(
        crate_part,
        Appearance {
            color: Color([1, 2, 3, 4]),
            transparency: 0.5,
            material: Material::Glass,
            shape: Shape::Cylinder,
        },
    )
    .unwrap();
    a.set_flag(crate_part, NodeFlags::CAN_COLLIDE, false).unwrap();
    a.add_tag(crate_part, "Pushable").unwrap();
    a.add_tag(crate_part, "Alpha").unwrap();
    a.set_handle(crate_part, Some("TheCrate")).unwrap();
    a.persistent_id(crate_part).unwrap();
    let model = a.create(Class::Model, "Cart", Some(ws)).unwrap();
    let p0 = a.create(Class::Part, "Body", Some(model)).unwrap();
    let p1 = a.create(Class::Part, "Seat", Some(model)).unwrap();
    let weld = a.create(Class::Weld, "Weld", Some(model)).unwrap();
    a.set_reference(weld, 0, Some(p0)).unwrap();
    a.set_reference(weld, 1, Some(p1)).unwrap();
    let value = a.create(Class::ObjectValue, "Target", Some(ws)).unwrap();
    a.set_reference(value, 0, Some(crate_part)).unwrap();
    // Attributes of every type, with references forward and backward.
    a.set_attribute(p0, "Flag", Some(AttributeValue::Bool(true))).unwrap();
    a.set_attribute(p0, "Speed", Some(AttributeValue::Number(f64::INFINITY))).unwrap();
    a.set_attribute(p0, "Label", Some(AttributeValue::String("hi \"there\"".into()))).unwrap();
    a.set_attribute(p0, "Home", Some(AttributeValue::Vector3(Vec3::new(1.0, 2.0, 3.0)))).unwrap();
    a.set_attribute(p0, "Seat", Some(AttributeValue::Ref(Some(p1)))).unwrap();
    a.set_attribute(p0, "Nobody", Some(AttributeValue::Ref(None))).unwrap();
    a.set_attribute(crate_part, "Value", Some(AttributeValue::Ref(Some(value)))).unwrap();
    // Components of every field type.
    a.add_component(crate_part, lifetime, Some(&[FieldValue::F64(5.0)])).unwrap();
    let row = [
        FieldValue::I32(-7),
        FieldValue::I64(1 << 40),
        FieldValue::F32(f32::NEG_INFINITY),
        FieldValue::Bool(true),
        FieldValue::String("label".into()),
        FieldValue::Vector3(Vec3::new(0.25, -1.0, 9.0)),
        FieldValue::Quaternion(Quat::from_rotation_x(1.0)),
    ];
    a.add_component(p0, stats, Some(&row)).unwrap();
    a.add_component(p1, link, Some(&[FieldValue::Ref(Some(crate_part))])).unwrap();
    // Scripts.
    let hello = a.create(Class::Script, "Hello", Some(ws)).unwrap();
    a.set_script_source(hello, "print(\"hello from Arbor\")\n").unwrap();
    // A Transient subtree, referenced from a kept instance: the reference is saved as none.
    let transient = a.create(Class::Model, "Character", Some(ws)).unwrap();
    let transient_child = a.create(Class::Part, "Head", Some(transient)).unwrap();
    a.set_flag(transient, NodeFlags::TRANSIENT, true).unwrap();
    a.set_handle(transient_child, Some("Head")).unwrap();
    a.set_attribute(p1, "Owner", Some(AttributeValue::Ref(Some(transient_child)))).unwrap();
    let hidden = a.create(Class::Folder, "NotArchived", Some(ws)).unwrap();
    a.set_flag(hidden, NodeFlags::ARCHIVABLE, false).unwrap();
    a.create(Class::Part, "InsideHidden", Some(hidden)).unwrap();
    let detached = a.create(Class::Part, "Detached", None).unwrap();
    a.set_attribute(p1, "Loose", Some(AttributeValue::Ref(Some(detached)))).unwrap();
    // Outside the world, and a chain deeper than the JSON nesting limit.
    let storage = a.create(Class::Folder, "Storage", Some(root)).unwrap();
    let gui = a.create(Class::ScreenGui, "Hud", Some(storage)).unwrap();
    a.create(Class::Frame, "Panel", Some(gui)).unwrap();
    let mut deep = storage;
    for level in 0..(arbor_place::JSON_NESTING as usize * 2 + 5) {
        deep = a.create(Class::Folder, &format!("Level{level}"), Some(deep)).unwrap();
    }
    a.set_attribute(deep, "Back", Some(AttributeValue::Ref(Some(p0)))).unwrap();
    a.set_attribute(p0, "Deep", Some(AttributeValue::Ref(Some(deep)))).unwrap();
    Sample { arena: a, crate_part, transient, transient_child, hidden, value, deep_leaf: deep }
}
