//! Saving the JSON form: the saved tree laid out as nested entries (deep subtrees split into
//! top-level entries past [`JSON_NESTING`]), floats written so they read back exactly, and
//! the settings and behaviours sections.

use super::parse::JSON_NESTING;
use crate::behaviors::behavior_docs;
use crate::collect::{NONE, Saved, differs, sorted_tags};
use crate::json_text::write_inline;
use crate::model::{AttributeDoc, ComponentDoc, InstanceDoc, PLACE_FORMAT, PlaceFile, PlaceSettings};
use crate::serde_util::{Num, Num32};
use arbor_core::Arena;
use arbor_core::components::FieldValue;
use arbor_core::raw::{DEFAULT_SIZE, NodeRef};
use arbor_core::{AttributeValue, Color, NodeFlags};
use serde_json::Value;
use std::borrow::Cow;

/// Where each saved instance goes in a JSON file: which subtrees become top-level entries
/// (to keep nesting within [`JSON_NESTING`]), how many children each writes nested, which
/// instances carry a `ref` number, and subtree sizes (pre-order ranges).
struct Layout {
    split: Vec<bool>,
    nested: Vec<u32>,
    refs: Vec<u64>,
    size: Vec<u32>,
}

impl Layout {
    fn new(saved: &Saved<'_>) -> Self {
        let n = saved.nodes.len();
        let mut marked = saved.referenced_targets();
        let mut depth = vec![0u32; n];
        let mut split = vec![false; n];
        let mut nested = vec![0u32; n];
        for i in 0..n {
            let p = saved.nodes[i].parent;
            if p == NONE {
                continue;
            }
            let d = depth[p as usize] + 1;
            if d >= JSON_NESTING {
                split[i] = true;
                marked[p as usize] = true;
            } else {
                depth[i] = d;
                nested[p as usize] += 1;
            }
        }
        let mut size = vec![1u32; n];
        for i in (0..n).rev() {
            let p = saved.nodes[i].parent;
            if p != NONE {
                size[p as usize] += size[i];
            }
        }
        let mut next = 0u64;
        let refs = marked
            .iter()
            .map(|&m| {
                next += m as u64;
                if m { next } else { 0 }
            })
            .collect();
        Layout { split, nested, refs, size }
    }

    fn ref_of(&self, i: u32) -> Option<u64> {
        self.refs.get(i as usize).copied().filter(|&r| r != 0)
    }

    /// The entries of the top-level `instances` list: top-level instances, then split
    /// subtrees in pre-order (each after the entry holding its parent).
    fn entries<'s>(&'s self, saved: &'s Saved<'_>) -> impl Iterator<Item = u32> + 's {
        let top = (0..saved.nodes.len()).filter(|&i| saved.nodes[i].parent == NONE);
        let split = (0..saved.nodes.len()).filter(|&i| self.split[i]);
        top.chain(split).map(|i| i as u32)
    }

    /// The document of saved instance `i` (without children).
    fn doc<'a>(&self, saved: &Saved<'a>, i: u32) -> InstanceDoc<'a> {
        let node = &saved.nodes[i as usize];
        let target = |id| saved.index_of(id).and_then(|t| self.ref_of(t));
        let mut doc = instance_doc(saved, &node.node, &target);
        doc.ref_id = self.ref_of(i);
        if self.split[i as usize] {
            doc.parent = self.ref_of(node.parent);
        }
        doc
    }
}

/// Saves the place in `arena` as JSON (see the module documentation for the format).
///
/// The file is written as it is walked, one instance per line, without building the
/// document tree: `settings`, each schema and each instance (its `children` aside) are the
/// serde model's own serialization, so the text is exactly what [`PlaceFile::from_arena`]
/// serializes to, in a fixed layout.
pub fn save_json(arena: &Arena) -> String {
    let saved = Saved::new(arena);
    let layout = Layout::new(&saved);
    let mut out: Vec<u8> = Vec::with_capacity(saved.nodes.len() * 100 + 1024);
    out.extend_from_slice(b"{\n  \"format\": ");
    write_inline(&mut out, PLACE_FORMAT);
    out.extend_from_slice(b",\n  \"version\": ");
    write_inline(&mut out, &crate::model::version_for(arena));
    out.extend_from_slice(b",\n  \"settings\": ");
    write_inline(&mut out, &place_settings(arena, &saved));
    let registry = arena.components().registry();
    if !registry.is_empty() {
        out.extend_from_slice(b",\n  \"components\": [");
        for (k, (_, info)) in registry.iter().enumerate() {
            out.extend_from_slice(if k == 0 { b"\n    " } else { b",\n    " });
            write_inline(&mut out, &ComponentDoc::from_schema(&info.schema));
        }
        out.extend_from_slice(b"\n  ]");
    }
    let behaviors = behavior_docs(arena);
    if !behaviors.is_empty() {
        out.extend_from_slice(b",\n  \"behaviors\": [");
        for (k, doc) in behaviors.iter().enumerate() {
            out.extend_from_slice(if k == 0 { b"\n    " } else { b",\n    " });
            write_inline(&mut out, doc);
        }
        out.extend_from_slice(b"\n  ]");
    }
    out.extend_from_slice(b",\n  \"instances\": [");
    for (k, entry) in layout.entries(&saved).enumerate() {
        out.extend_from_slice(if k == 0 { b"\n" } else { b",\n" });
        write_entry(&mut out, &saved, &layout, entry);
    }
    out.extend_from_slice(b"\n  ]\n}\n");
    String::from_utf8(out).unwrap_or_default()
}

fn indent(out: &mut Vec<u8>, depth: usize) {
    out.resize(out.len() + 4 + 2 * depth, b' ');
}

/// Writes one top-level entry: instance `root` and its nested subtree, one instance per line.
fn write_entry(out: &mut Vec<u8>, saved: &Saved<'_>, layout: &Layout, root: u32) {
    // Open instances: (end of their pre-order range, whether a child was written yet).
    let mut open: Vec<(u32, bool)> = Vec::new();
    let end = root + layout.size[root as usize];
    let mut j = root;
    while j < end {
        if j != root && layout.split[j as usize] {
            j += layout.size[j as usize];
            continue;
        }
        while open.last().is_some_and(|&(e, _)| e <= j) {
            open.pop();
            out.push(b'\n');
            indent(out, open.len());
            out.extend_from_slice(b"]}");
        }
        if let Some((_, written)) = open.last_mut() {
            out.extend_from_slice(if *written { b",\n" } else { b"\n" });
            *written = true;
        }
        indent(out, open.len());
        write_inline(out, &layout.doc(saved, j));
        if layout.nested[j as usize] > 0 {
            out.pop();
            out.extend_from_slice(b", \"children\": [");
            open.push((j + layout.size[j as usize], false));
        }
        j += 1;
    }
    while open.pop().is_some() {
        out.push(b'\n');
        indent(out, open.len());
        out.extend_from_slice(b"]}");
    }
}

impl<'a> PlaceFile<'a> {
    /// The place in `arena` as a document (names borrowed from the arena). Transient and
    /// non-archivable instances are left out with their subtrees; references to left-out
    /// instances become `null`.
    pub fn from_arena(arena: &'a Arena) -> PlaceFile<'a> {
        let saved = Saved::new(arena);
        let layout = Layout::new(&saved);
        // Assemble bottom-up: in reverse pre-order a node's nested children are the top
        // entries of the stack, first child on top.
        let mut stack: Vec<InstanceDoc<'a>> = Vec::new();
        let mut split_entries: Vec<InstanceDoc<'a>> = Vec::new();
        for i in (0..saved.nodes.len()).rev() {
            let mut doc = layout.doc(&saved, i as u32);
            let kids = layout.nested[i] as usize;
            doc.children = stack.drain(stack.len().saturating_sub(kids)..).rev().collect();
            if layout.split[i] {
                split_entries.push(doc);
            } else {
                stack.push(doc);
            }
        }
        stack.reverse();
        split_entries.reverse();
        stack.extend(split_entries);
        let components = arena
            .components()
            .registry()
            .iter()
            .map(|(_, info)| ComponentDoc::from_schema(&info.schema))
            .collect();
        PlaceFile {
            format: Cow::Borrowed(PLACE_FORMAT),
            version: crate::model::version_for(arena),
            settings: place_settings(arena, &saved),
            components,
            behaviors: behavior_docs(arena),
            instances: stack,
        }
    }
}

/// The settings section for the place in `arena`.
fn place_settings(arena: &Arena, saved: &Saved<'_>) -> PlaceSettings {
    PlaceSettings { fallen_parts_destroy_height: saved.destroy_height, behaviors: arena.behaviors().settings }
}

fn float_value(x: f64) -> Value {
    serde_json::to_value(Num(x)).unwrap_or(Value::Null)
}

/// An `f32` as a JSON value printed with its own shortest digits (not those of the `f64`
/// it widens to).
fn float32_value(x: f32) -> Value {
    if x.is_finite() {
        x.to_string().parse::<f64>().map_or(Value::Null, Value::from)
    } else {
        serde_json::to_value(Num32(x)).unwrap_or(Value::Null)
    }
}

/// The document of one saved node (without children, `ref` or `parent`).
fn instance_doc<'a>(
    saved: &Saved<'a>,
    node: &NodeRef<'a>,
    target: &impl Fn(arbor_core::Id) -> Option<u64>,
) -> InstanceDoc<'a> {
    let names = saved.arena.names();
    let t = node.transform();
    let size = node.size();
    let look = node.appearance();
    let flags = node.flags();
    let extras = node.extras();
    let mut doc = InstanceDoc {
        class: Cow::Borrowed(node.class().name()),
        name: Cow::Borrowed(names.text(node.name())),
        position: differs(&t.position.to_array(), &[0.0; 3]).then(|| t.position.to_array()),
        rotation: differs(&t.rotation.to_array(), &[0.0, 0.0, 0.0, 1.0]).then(|| t.rotation.to_array()),
        size: differs(&size.to_array(), &DEFAULT_SIZE.to_array()).then(|| size.to_array()),
        anchored: flags.contains(NodeFlags::ANCHORED).then_some(true),
        can_collide: (!flags.contains(NodeFlags::CAN_COLLIDE)).then_some(false),
        archivable: (!flags.contains(NodeFlags::ARCHIVABLE)).then_some(false),
        shape: (look.shape != Default::default()).then(|| look.shape.into()),
        color: (look.color != Color::DEFAULT).then_some(look.color.0),
        material: (look.material != Default::default()).then(|| look.material.into()),
        transparency: (look.transparency.to_bits() != 0).then_some(look.transparency),
        handle: extras.handle.map(|h| names.text(h).to_owned()),
        persistent_id: extras.persistent_id.map(|p| p.0),
        tags: sorted_tags(names, &extras.tags).into_iter().map(str::to_owned).collect(),
        source: extras.source.as_deref().map(str::to_owned),
        ..Default::default()
    };
    doc.attributes = extras
        .attributes
        .iter()
        .filter(|(k, _)| saved.writes_attribute(node, *k))
        .map(|(k, v)| {
            let value = match v {
                AttributeValue::Bool(x) => AttributeDoc::Bool(*x),
                AttributeValue::Number(x) => AttributeDoc::Number(*x),
                AttributeValue::String(s) => AttributeDoc::String(s.to_string()),
                AttributeValue::Vector3(v) => AttributeDoc::Vector3(v.to_array()),
                AttributeValue::Ref(r) => AttributeDoc::Ref(r.and_then(target)),
            };
            (names.text(*k).to_owned(), value)
        })
        .collect();
    doc.references = node
        .class()
        .reference_properties()
        .iter()
        .enumerate()
        .filter_map(|(k, prop)| {
            // A reference to an instance not saved is none, which is what an absent one means.
            let r = extras.refs.get(k).copied().flatten().and_then(target);
            r.map(|r| (prop.to_string(), Some(r)))
        })
        .collect();
    let registry = saved.arena.components().registry();
    doc.components = saved
        .rows(node)
        .map(|(c, row)| {
            let schema = &registry.info(c).schema;
            let values = schema
                .fields
                .iter()
                .zip(row.values())
                .map(|(f, v)| {
                    let json = match v {
                        FieldValue::Bool(x) => Value::Bool(x),
                        FieldValue::I32(x) => Value::from(x),
                        FieldValue::I64(x) => Value::from(x),
                        FieldValue::F32(x) => float32_value(x),
                        FieldValue::F64(x) => float_value(x),
                        FieldValue::Vector3(v) => Value::Array(v.to_array().map(float32_value).to_vec()),
                        FieldValue::Quaternion(q) => Value::Array(q.to_array().map(float32_value).to_vec()),
                        FieldValue::String(s) => Value::String(s.to_string()),
                        FieldValue::Ref(r) => r.and_then(target).map_or(Value::Null, Value::from),
                    };
                    (f.name.to_string(), json)
                })
                .collect();
            (schema.name.to_string(), values)
        })
        .collect();
    doc
}
