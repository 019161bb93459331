//! Property tests of place files: random arenas (every class, property, attribute type,
//! tag, handle, persistent id, reference, component field type, script, Transient and
//! non-archivable instances, deep chains, destroyed and detached instances) round-trip through
//! both forms; random and mutated input never panics either loader.

mod place_support;

use arbor_core::{
    Appearance, Arena, AttributeValue, Class, Color, Id, LocalTransform, Material, NodeFlags, Quat, Shape,
    Vec3, components::FieldValue,
};
use arbor_place::{load_binary, load_json, save_binary, save_json};
use place_support::{dump, register_schemas};
use proptest::prelude::*;

const NAMES: [&str; 6] = ["A", "Door", "", "quote\"back\\slash", "ünïcode", "new\nline"];
const KEYS: [&str; 4] = ["hp", "target", "FallenPartsDestroyHeight", "label"];
const TAGS: [&str; 3] = ["red", "Blue", "enemy"];
const HANDLES: [&str; 3] = ["H0", "H1", "H2"];
const MATERIALS: [Material; 7] = Material::ALL;
const SHAPES: [Shape; 3] = Shape::ALL;

#[derive(Clone, Debug)]
enum Attr {
    Bool(bool),
    Number(f64),
    Str(usize),
    Vector([f32; 3]),
    Ref(usize),
    NoRef,
}

#[derive(Clone, Debug)]
enum Op {
    Create { class: usize, name: usize, parent: usize },
    Chain { len: usize, parent: usize },
    Transform { node: usize, position: [f32; 3], rotation: [f32; 4] },
    Size { node: usize, size: [f32; 3] },
    Look { node: usize, color: [u8; 4], transparency: f32, material: usize, shape: usize },
    Flag { node: usize, flag: usize, on: bool },
    Attribute { node: usize, key: usize, value: Attr },
    Tag { node: usize, tag: usize },
    Handle { node: usize, handle: usize },
    PersistentId { node: usize },
    Reference { node: usize, index: usize, target: usize },
    Component { node: usize, which: usize, ints: (i32, i64), floats: (f32, f64), target: usize },
    Source { node: usize, name: usize },
    Reparent { node: usize, parent: usize },
    Detach { node: usize },
    Destroy { node: usize },
}

fn float32() -> impl Strategy<Value = f32> {
    prop_oneof![4 => -1000.0f32..1000.0, 1 => any::<f32>(), 1 => Just(-0.0f32), 1 => Just(f32::NAN)]
}

fn float64() -> impl Strategy<Value = f64> {
    prop_oneof![4 => -1e6f64..1e6, 1 => any::<f64>(), 1 => Just(f64::INFINITY), 1 => Just(f64::NAN)]
}

fn attr() -> impl Strategy<Value = Attr> {
    prop_oneof![
        any::<bool>().prop_map(Attr::Bool),
        float64().prop_map(Attr::Number),
        (0..NAMES.len()).prop_map(Attr::Str),
        [float32(), float32(), float32()].prop_map(Attr::Vector),
        any::<usize>().prop_map(Attr::Ref),
        Just(Attr::NoRef),
    ]
}

fn op() -> impl Strategy<Value = Op> {
    let n = any::<usize>;
    prop_oneof![
        12 => (0..Class::ALL.len(), 0..NAMES.len(), n()).prop_map(|(class, name, parent)| Op::Create { class, name, parent }),
        1 => (1usize..80, n()).prop_map(|(len, parent)| Op::Chain { len, parent }),
        2 => (n(), [float32(), float32(), float32()], [float32(), float32(), float32(), float32()])
            .prop_map(|(node, position, rotation)| Op::Transform { node, position, rotation }),
        1 => (n(), [float32(), float32(), float32()]).prop_map(|(node, size)| Op::Size { node, size }),
        1 => (n(), any::<[u8; 4]>(), float32(), 0..MATERIALS.len(), 0..SHAPES.len())
            .prop_map(|(node, color, transparency, material, shape)| Op::Look { node, color, transparency, material, shape }),
        2 => (n(), 0usize..4, any::<bool>()).prop_map(|(node, flag, on)| Op::Flag { node, flag, on }),
        3 => (n(), 0..KEYS.len(), attr()).prop_map(|(node, key, value)| Op::Attribute { node, key, value }),
        1 => (n(), 0..TAGS.len()).prop_map(|(node, tag)| Op::Tag { node, tag }),
        1 => (n(), 0..HANDLES.len()).prop_map(|(node, handle)| Op::Handle { node, handle }),
        1 => n().prop_map(|node| Op::PersistentId { node }),
        2 => (n(), 0usize..2, n()).prop_map(|(node, index, target)| Op::Reference { node, index, target }),
        2 => (n(), 0usize..3, any::<(i32, i64)>(), (float32(), float64()), n())
            .prop_map(|(node, which, ints, floats, target)| Op::Component { node, which, ints, floats, target }),
        1 => (n(), 0..NAMES.len()).prop_map(|(node, name)| Op::Source { node, name }),
        1 => (n(), n()).prop_map(|(node, parent)| Op::Reparent { node, parent }),
        1 => n().prop_map(|node| Op::Detach { node }),
        1 => n().prop_map(|node| Op::Destroy { node }),
    ]
}

/// Runs `ops` on a fresh arena, ignoring refused operations.
fn build(ops: &[Op]) -> Arena {
    let mut a = Arena::new();
    let [lifetime, stats, link] = register_schemas(&mut a);
    let mut ids: Vec<Id> = vec![a.root(), a.workspace()];
    let pick = |ids: &[Id], k: usize| ids[k % ids.len()];
    for op in ops {
        match op {
            Op::Create { class, name, parent } => {
                if let Ok(id) = a.create(Class::ALL[*class], NAMES[*name], Some(pick(&ids, *parent))) {
                    ids.push(id);
                }
            }
            Op::Chain { len, parent } => {
                let mut at = pick(&ids, *parent);
                for level in 0..*len {
                    match a.create(arbor_core::Class::Folder, &format!("L{level}"), Some(at)) {
                        Ok(id) => at = id,
                        Err(_) => break,
                    }
                }
                ids.push(at);
            }
            Op::Transform { node, position, rotation } => {
                let t = LocalTransform {
                    position: Vec3::from_array(*position),
                    rotation: Quat::from_array(*rotation),
                };
                let _ = a.set_transform(pick(&ids, *node), t);
            }
            Op::Size { node, size } => {
                let _ = a.set_size(pick(&ids, *node), Vec3::from_array(*size));
            }
            Op::Look { node, color, transparency, material, shape } => {
                let look = Appearance {
                    color: Color(*color),
                    transparency: *transparency,
                    material: MATERIALS[*material],
                    shape: SHAPES[*shape],
                };
                let _ = a.set_appearance(pick(&ids, *node), look);
            }
            Op::Flag { node, flag, on } => {
                let flag = [
                    NodeFlags::ANCHORED,
                    NodeFlags::CAN_COLLIDE,
                    NodeFlags::ARCHIVABLE,
                    NodeFlags::TRANSIENT,
                ][*flag];
                let _ = a.set_flag(pick(&ids, *node), flag, *on);
            }
            Op::Attribute { node, key, value } => {
                let value = match value {
                    Attr::Bool(b) => AttributeValue::Bool(*b),
                    Attr::Number(x) => AttributeValue::Number(*x),
                    Attr::Str(k) => AttributeValue::String(NAMES[*k].into()),
                    Attr::Vector(v) => AttributeValue::Vector3(Vec3::from_array(*v)),
                    Attr::Ref(t) => AttributeValue::Ref(Some(pick(&ids, *t))),
                    Attr::NoRef => AttributeValue::Ref(None),
                };
                let _ = a.set_attribute(pick(&ids, *node), KEYS[*key], Some(value));
            }
            Op::Tag { node, tag } => {
                let _ = a.add_tag(pick(&ids, *node), TAGS[*tag]);
            }
            Op::Handle { node, handle } => {
                let _ = a.set_handle(pick(&ids, *node), Some(HANDLES[*handle]));
            }
            Op::PersistentId { node } => {
                let _ = a.persistent_id(pick(&ids, *node));
            }
            Op::Reference { node, index, target } => {
                let _ = a.set_reference(pick(&ids, *node), *index, Some(pick(&ids, *target)));
            }
            Op::Component { node, which, ints, floats, target } => {
                let id = pick(&ids, *node);
                let _ = match which {
                    0 => a.add_component(id, lifetime, Some(&[FieldValue::F64(floats.1)])),
                    1 => a.add_component(
                        id,
                        stats,
                        Some(&[
                            FieldValue::I32(ints.0),
                            FieldValue::I64(ints.1),
                            FieldValue::F32(floats.0),
                            FieldValue::Bool(ints.0 % 2 == 0),
                            FieldValue::String(NAMES[ints.0.unsigned_abs() as usize % NAMES.len()].into()),
                            FieldValue::Vector3(Vec3::splat(floats.0)),
                            FieldValue::Quaternion(Quat::from_xyzw(floats.0, 0.0, -0.0, 1.0)),
                        ]),
                    ),
                    _ => a.add_component(id, link, Some(&[FieldValue::Ref(Some(pick(&ids, *target)))])),
                };
            }
            Op::Source { node, name } => {
                let _ = a.set_script_source(pick(&ids, *node), NAMES[*name]);
            }
            Op::Reparent { node, parent } => {
                let _ = a.set_parent(pick(&ids, *node), Some(pick(&ids, *parent)));
            }
            Op::Detach { node } => {
                let _ = a.set_parent(pick(&ids, *node), None);
            }
            Op::Destroy { node } => {
                let _ = a.destroy(pick(&ids, *node));
            }
        }
    }
    a
}

/// The documented checksum of the binary body, re-implemented from the format doc.
fn checksum(body: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for chunk in body.chunks(8) {
        let mut w = [0u8; 8];
        w[..chunk.len()].copy_from_slice(chunk);
        h = (h ^ u64::from_le_bytes(w)).wrapping_mul(0x100_0000_01b3);
        h ^= h >> 32;
    }
    h ^ body.len() as u64
}

/// `bytes` with a header re-stamped for its (possibly mutated) body, so mutations reach the
/// body decoder instead of stopping at the checksum.
fn restamp(mut bytes: Vec<u8>) -> Vec<u8> {
    if bytes.len() >= 28 {
        let body_len = (bytes.len() - 28) as u64;
        let sum = checksum(&bytes[28..]);
        bytes[12..20].copy_from_slice(&body_len.to_le_bytes());
        bytes[20..28].copy_from_slice(&sum.to_le_bytes());
    }
    bytes
}

fn sample_json() -> String {
    save_json(&place_support::sample().arena)
}

fn sample_binary() -> Vec<u8> {
    save_binary(&place_support::sample().arena)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn random_arenas_round_trip(ops in prop::collection::vec(op(), 0..120)) {
        let arena = build(&ops);
        let expected = dump(&arena);
        let json = save_json(&arena);
        let from_json = load_json(&json).map_err(|e| TestCaseError::fail(format!("{e}\n{json}")))?;
        prop_assert_eq!(&dump(&from_json), &expected);
        prop_assert_eq!(save_json(&from_json), json);
        let bytes = save_binary(&arena);
        let from_binary = load_binary(&bytes).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(&dump(&from_binary), &expected);
        prop_assert_eq!(save_binary(&from_binary), bytes);
    }

    #[test]
    fn random_strings_never_panic_load_json(text in ".{0,400}") {
        let _ = load_json(&text);
        let wrapped = format!(r#"{{"format": "arbor-place", "version": 1, "instances": [{text}]}}"#);
        let _ = load_json(&wrapped);
    }

    #[test]
    fn mutated_json_never_panics(edits in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..8)) {
        let mut bytes = sample_json().into_bytes();
        for (at, b) in edits {
            let i = at.index(bytes.len());
            bytes[i] = b;
        }
        let text = String::from_utf8_lossy(&bytes);
        if let Err(e) = load_json(&text) {
            prop_assert!(!e.to_string().is_empty());
        }
    }

    #[test]
    fn random_bytes_never_panic_load_binary(mut bytes in prop::collection::vec(any::<u8>(), 0..600), magic in any::<bool>()) {
        if magic && bytes.len() >= 12 {
            bytes[..8].copy_from_slice(arbor_place::PLACE_BINARY_MAGIC);
            bytes[8..12].copy_from_slice(&1u32.to_le_bytes());
        }
        let _ = load_binary(&bytes);
        let _ = load_binary(&restamp(bytes));
    }

    #[test]
    fn mutated_binary_never_panics(
        edits in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..6),
        cut in any::<prop::sample::Index>(),
        truncate in any::<bool>(),
    ) {
        let mut bytes = sample_binary();
        for (at, b) in edits {
            let i = 28 + at.index(bytes.len() - 28);
            bytes[i] = b;
        }
        if truncate {
            bytes.truncate(28 + cut.index(bytes.len() - 28));
        }
        let _ = load_binary(&bytes);
        if let Err(e) = load_binary(&restamp(bytes)) {
            prop_assert!(!e.to_string().is_empty());
        }
    }
}
