//! The test place (a folder and a model holding parts, and a server-only script) and random
//! edits of it (moves, reparents, renames, attributes, destroys, creates, clones, detaches,
//! component writes), shared by the replication tests.

use arbor_core::{Arena, AttributeValue, Class, Id};
use glam::Vec3;
use proptest::prelude::*;

/// A place with `parts` parts, alternately under a folder and a model, and a script that
/// never replicates; returns the folder, the model and the parts, in that order.
pub fn place(parts: usize) -> (Arena, Vec<Id>) {
    let mut arena = Arena::new();
    let ws = arena.workspace();
    let folder = arena.create(Class::Folder, "Stuff", Some(ws)).unwrap();
    let model = arena.create(Class::Model, "Car", Some(ws)).unwrap();
    let mut ids = vec![folder, model];
    for i in 0..parts {
        let parent = if i % 2 == 0 { folder } else { model };
        let p = arena.create(Class::Part, &format!("P{i}"), Some(parent)).unwrap();
        arena.set_position(p, Vec3::new(i as f32 * 3.0, 1.0, (i % 7) as f32)).unwrap();
        ids.push(p);
    }
    arena.create(Class::Script, "ServerOnly", Some(ws)).unwrap();
    (arena, ids)
}

/// One random edit of a place; indices pick from the live ids (modulo their count).
#[derive(Clone, Debug)]
pub enum Edit {
    Move(usize, f32, f32),
    Reparent(usize, usize),
    Rename(usize),
    Attribute(usize, f64),
    Destroy(usize),
    Create(usize),
    Clone(usize),
    Detach(usize),
    Component(usize, f32),
}

/// A random edit.
pub fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        4 => (0..64usize, -3000.0f32..3000.0, -3000.0f32..3000.0).prop_map(|(i, x, z)| Edit::Move(i, x, z)),
        2 => (0..64usize, 0..64usize).prop_map(|(i, j)| Edit::Reparent(i, j)),
        1 => (0..64usize).prop_map(Edit::Rename),
        1 => (0..64usize, -10.0f64..10.0).prop_map(|(i, v)| Edit::Attribute(i, v)),
        1 => (0..64usize).prop_map(Edit::Destroy),
        2 => (0..64usize).prop_map(Edit::Create),
        1 => (0..64usize).prop_map(Edit::Clone),
        1 => (0..64usize).prop_map(Edit::Detach),
        2 => (0..64usize, -5.0f32..5.0).prop_map(|(i, v)| Edit::Component(i, v)),
    ]
}

/// Applies `e` to `arena`, keeping `ids` the live ids it picks from (edits the arena refuses
/// do nothing).
pub fn apply(arena: &mut Arena, ids: &mut Vec<Id>, e: &Edit) {
    let pick = |ids: &Vec<Id>, i: usize| ids[i % ids.len()];
    let _ = match *e {
        Edit::Move(i, x, z) => arena.set_position(pick(ids, i), Vec3::new(x, 1.0, z)).map(|_| ()),
        Edit::Reparent(i, j) => arena.set_parent(pick(ids, i), Some(pick(ids, j))).map(|_| ()),
        Edit::Rename(i) => arena.set_name(pick(ids, i), "Renamed").map(|_| ()),
        Edit::Attribute(i, v) => {
            arena.set_attribute(pick(ids, i), "V", Some(AttributeValue::Number(v))).map(|_| ())
        }
        Edit::Destroy(i) => arena.destroy(pick(ids, i)).map(|_| ()),
        Edit::Create(i) => {
            let class = if i % 3 == 0 { Class::Folder } else { Class::Part };
            arena.create(class, "New", Some(pick(ids, i))).map(|id| ids.push(id))
        }
        Edit::Clone(i) => match arena.clone_subtree(pick(ids, i)) {
            Ok(Some(c)) => arena.set_parent(c, Some(arena.workspace())).map(|_| ids.push(c)),
            _ => Ok(()),
        },
        Edit::Detach(i) => arena.set_parent(pick(ids, i), None).map(|_| ()),
        Edit::Component(i, v) => {
            let heat = match arena.components().component("Heat") {
                Some(c) => c,
                None => arena
                    .register_component(arbor_core::components::Schema::new(
                        "Heat",
                        vec![arbor_core::components::FieldDef::new(
                            "Value",
                            arbor_core::components::FieldType::F32,
                        )],
                    ))
                    .unwrap(),
            };
            let id = pick(ids, i);
            if v < -4.0 {
                arena.remove_component(id, heat).map(|_| ())
            } else {
                let _ = arena.add_component(id, heat, None);
                arena.set_field(id, heat, "Value", arbor_core::components::FieldValue::F32(v)).map(|_| ())
            }
        }
    };
    ids.retain(|&id| arena.get(id).is_some());
    if ids.is_empty() {
        ids.push(arena.workspace());
    }
}
