//! Loading the JSON form: the document built into a fresh arena through the two-stage
//! loader (instances first, then their extras), `sourceFile` scripts read from the place
//! folder, and the behaviours applied last.

use super::parse::{check_header, parse};
use crate::behaviors::apply_behaviors;
use crate::build::{ExtrasLoader, NodeSpec, TreeLoader};
use crate::error::PlaceError;
use crate::model::{AttributeDoc, InstanceDoc, PlaceFile};
use crate::serde_util::parse_non_finite;
use crate::source_file::{ScriptFile, read_source_file};
use arbor_core::LocalTransform;
use arbor_core::components::{FieldType, FieldValue};
use arbor_core::raw::DEFAULT_SIZE;
use arbor_core::{Appearance, AttributeValue, Color, NodeFlags, PersistentId};
use arbor_core::{Arena, NodeFields};
use arbor_core::{Quat, Vec3};
use serde_json::Value;
use std::path::Path;

/// Loads a place from JSON text into a fresh arena.
pub fn load_json(text: &str) -> Result<Arena, PlaceError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    parse(text)?.to_arena()
}

impl<'a> PlaceFile<'a> {
    /// Builds a fresh arena from this document (see [`load_json`]); a `sourceFile` is
    /// refused, having no folder to be read from.
    pub fn to_arena(&self) -> Result<Arena, PlaceError> {
        self.to_arena_in(None).map(|(arena, _)| arena)
    }

    /// Builds a fresh arena from this document, reading each `sourceFile` inside the folder
    /// `base` (see `load_json_file`); returns the scripts read from
    /// files with the files' paths.
    pub fn to_arena_in(&self, base: Option<&Path>) -> Result<(Arena, Vec<ScriptFile>), PlaceError> {
        check_header(Some(&self.format), Some(self.version as u64))?;
        let mut b = TreeLoader::new(self.instances.len());
        for (i, c) in self.components.iter().enumerate() {
            b.register_schema(i, c)?;
        }
        b.set_destroy_height(self.settings.fallen_parts_destroy_height);
        let mut order: Vec<&InstanceDoc<'_>> = Vec::new();
        let mut stack: Vec<(&InstanceDoc<'_>, Option<u32>, Option<u32>, u32)> = Vec::new();
        for (k, top) in self.instances.iter().enumerate() {
            let tree_parent = match top.parent {
                None => None,
                Some(n) => Some(b.by_ref_number(n).ok_or_else(|| {
                    PlaceError::invalid(
                        format!("instances[{k}].parent"),
                        format!(
                            "no earlier instance has ref {n} (a parent must come before the entries under it)"
                        ),
                    )
                })?),
            };
            stack.push((top, tree_parent, None, k as u32));
            while let Some((doc, tree_parent, file_parent, pos)) = stack.pop() {
                let spec = node_spec(&mut b, doc);
                let index = b.add_node(tree_parent, file_parent, pos, &spec)?;
                if file_parent.is_some() && doc.parent.is_some() {
                    return Err(b.err(index, "parent", "only a top-level entry may name its parent"));
                }
                if let Some(n) = doc.ref_id {
                    b.set_ref_number(index, n)?;
                }
                order.push(doc);
                for (j, child) in doc.children.iter().enumerate().rev() {
                    stack.push((child, Some(index), Some(index), j as u32));
                }
            }
        }
        let mut b = b.tree_done();
        let mut row: Vec<FieldValue> = Vec::new();
        let mut files = Vec::new();
        for (index, doc) in order.iter().enumerate() {
            apply_extras(&mut b, index as u32, doc, &mut row)?;
            if let Some(rel) = &doc.source_file {
                let index = index as u32;
                if doc.source.is_some() {
                    return Err(b.err(index, "sourceFile", "give either source or sourceFile, not both"));
                }
                let (path, text) = read_source_file(base, rel).map_err(|m| b.err(index, "sourceFile", m))?;
                b.set_source(index, &text)?;
                files.push(ScriptFile { script: b.id(index), path });
            }
        }
        let mut arena = b.finish();
        apply_behaviors(&mut arena, &self.settings, &self.behaviors)?;
        Ok((arena, files))
    }
}

fn node_spec<'s>(b: &mut TreeLoader, doc: &'s InstanceDoc<'_>) -> NodeSpec<'s> {
    let mut flags = NodeFlags(0);
    flags.set(NodeFlags::ANCHORED, doc.anchored.unwrap_or(false));
    flags.set(NodeFlags::CAN_COLLIDE, doc.can_collide.unwrap_or(true));
    flags.set(NodeFlags::ARCHIVABLE, doc.archivable.unwrap_or(true));
    let fields = NodeFields {
        name: b.intern(&doc.name),
        flags,
        transform: LocalTransform {
            position: doc.position.map_or(Vec3::ZERO, Vec3::from_array),
            rotation: doc.rotation.map_or(Quat::IDENTITY, Quat::from_array),
        },
        size: doc.size.map_or(DEFAULT_SIZE, Vec3::from_array),
        appearance: Appearance {
            color: doc.color.map_or(Color::DEFAULT, Color),
            transparency: doc.transparency.unwrap_or(0.0),
            material: doc.material.map(Into::into).unwrap_or_default(),
            shape: doc.shape.map(Into::into).unwrap_or_default(),
        },
    };
    NodeSpec { class: &doc.class, fields }
}

fn apply_extras(
    b: &mut ExtrasLoader,
    index: u32,
    doc: &InstanceDoc<'_>,
    row: &mut Vec<FieldValue>,
) -> Result<(), PlaceError> {
    for (key, value) in &doc.attributes {
        let value = match value {
            AttributeDoc::Bool(x) => AttributeValue::Bool(*x),
            AttributeDoc::Number(x) => AttributeValue::Number(*x),
            AttributeDoc::String(s) => AttributeValue::String(s.as_str().into()),
            AttributeDoc::Vector3(v) => AttributeValue::Vector3(Vec3::from_array(*v)),
            AttributeDoc::Ref(n) => {
                AttributeValue::Ref(b.resolve_ref(index, || format!("attributes.{key}.Ref"), *n)?)
            }
        };
        b.set_attribute(index, key, value)?;
    }
    for tag in &doc.tags {
        b.add_tag(index, tag)?;
    }
    if let Some(h) = &doc.handle {
        b.set_handle(index, h)?;
    }
    if let Some(p) = doc.persistent_id {
        b.set_persistent_id(index, PersistentId(p))?;
    }
    let class = b.class(index);
    for (prop, n) in &doc.references {
        let suffix = format!("references.{prop}");
        let Some(slot) = class.reference_properties().iter().position(|p| p == prop) else {
            return Err(b.err(index, &suffix, format!("a {class} has no reference property '{prop}'")));
        };
        let target = b.resolve_ref(index, || suffix.clone(), *n)?;
        b.set_reference(index, slot, target, &suffix)?;
    }
    for (name, values) in &doc.components {
        let suffix = format!("components.{name}");
        let Some(c) = b.component_named(name) else {
            return Err(b.err(
                index,
                &suffix,
                format!("unknown component '{name}' (declare it in \"components\")"),
            ));
        };
        let fields = b.arena().components().registry().info(c).schema.fields.clone();
        row.clear();
        row.extend(fields.iter().map(|f| FieldValue::default_of(f.ty)));
        for (field, value) in values {
            let field_suffix = || format!("{suffix}.{field}");
            let Some(k) = fields.iter().position(|f| &*f.name == field) else {
                return Err(b.err(
                    index,
                    &field_suffix(),
                    format!("component '{name}' has no field '{field}'"),
                ));
            };
            row[k] = match json_field(fields[k].ty, value) {
                Ok(FieldValue::Ref(_)) => {
                    FieldValue::Ref(b.resolve_ref(index, field_suffix, value.as_u64())?)
                }
                Ok(v) => v,
                Err(expected) => return Err(b.err(index, &field_suffix(), format!("expected {expected}"))),
            };
        }
        b.add_row(index, c, row, &suffix)?;
    }
    if let Some(src) = &doc.source {
        b.set_source(index, src)?;
    }
    Ok(())
}

fn json_float(v: &Value) -> Option<f64> {
    v.as_f64().or_else(|| v.as_str().and_then(parse_non_finite))
}

/// `x` as an `f32`, or `None` when a finite `x` is out of `f32`'s range (1e300 would
/// silently become infinity).
fn narrow(x: f64) -> Option<f32> {
    let f = x as f32;
    (f.is_finite() || !x.is_finite()).then_some(f)
}

fn json_floats<const N: usize>(v: &Value) -> Option<[f32; N]> {
    let items = v.as_array().filter(|a| a.len() == N)?;
    let mut out = [0.0; N];
    for (o, item) in out.iter_mut().zip(items) {
        *o = narrow(json_float(item)?)?;
    }
    Some(out)
}

/// A JSON value read as a field of `ty` (references are checked for shape only and come back
/// as `Ref(None)`; the caller resolves them), or what was expected.
fn json_field(ty: FieldType, v: &Value) -> Result<FieldValue, &'static str> {
    let value = match ty {
        FieldType::Bool => v.as_bool().map(FieldValue::Bool),
        FieldType::I32 => v.as_i64().and_then(|x| i32::try_from(x).ok()).map(FieldValue::I32),
        FieldType::I64 => v.as_i64().map(FieldValue::I64),
        FieldType::F32 => json_float(v).and_then(narrow).map(FieldValue::F32),
        FieldType::F64 => json_float(v).map(FieldValue::F64),
        FieldType::Vector3 => json_floats::<3>(v).map(|a| FieldValue::Vector3(Vec3::from_array(a))),
        FieldType::Quaternion => json_floats::<4>(v).map(|a| FieldValue::Quaternion(Quat::from_array(a))),
        FieldType::String => v.as_str().map(|s| FieldValue::String(s.into())),
        FieldType::InstanceRef => (v.is_null() || v.as_u64().is_some()).then_some(FieldValue::Ref(None)),
    };
    value.ok_or(match ty {
        FieldType::Bool => "true or false (Bool)",
        FieldType::I32 => "an integer from -2147483648 to 2147483647 (I32)",
        FieldType::I64 => "a 64-bit integer (I64)",
        FieldType::F32 => "a number (F32)",
        FieldType::F64 => "a number (F64)",
        FieldType::Vector3 => "an array of 3 numbers (Vector3)",
        FieldType::Quaternion => "an array of 4 numbers (Quaternion)",
        FieldType::String => "a string (String)",
        FieldType::InstanceRef => "a ref number or null (InstanceRef)",
    })
}
