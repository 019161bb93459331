//! The JSON form: [`PlaceFile`] to and from an arena, and [`load_json`] / [`save_json`].
//!
//! Loading parses the whole text into the model with `serde_json` (names borrowed from the
//! text where they need no unescaping), then creates the instances in pre-order through the
//! shared [`TreeLoader`], then applies extras with its [`ExtrasLoader`]. A `serde_json` error is turned into a path by
//! scanning the text up to the error position.
//!
//! Saving streams: it walks the saved instances in pre-order and writes each one's model
//! document (names borrowed from the arena's pool) on its own line, without building the
//! document tree; [`PlaceFile::from_arena`] builds the same document as a value. Instances
//! nest at most [`JSON_NESTING`] levels inside one top-level entry; a deeper subtree becomes a
//! top-level entry naming its parent by `ref`, so any tree saves within `serde_json`'s nesting
//! guard and reads back.

use super::build::{ExtrasLoader, NodeSpec, TreeLoader};
use super::collect::{NONE, Saved};
use super::error::PlaceError;
use super::json_text::{offset_of, path_at, write_inline};
use super::model::{
    AttributeDoc, BehaviorDoc, ComponentDoc, InstanceDoc, PLACE_FORMAT, PLACE_FORMAT_VERSION, PlaceFile,
    PlaceSettings,
};
use super::serde_util::{Num, Num32, parse_non_finite};
use super::source_file::{ScriptFile, read_source_file};
use crate::arena::{Arena, NodeFields};
use crate::components::{FieldType, FieldValue};
use crate::nodes::hot::LocalTransform;
use crate::nodes::page::{DEFAULT_SIZE, NodeRef};
use crate::value::{Appearance, AttributeValue, Color, NodeFlags, PersistentId};
use glam::{Quat, Vec3};
use serde::Deserialize;
use serde_json::Value;
use std::borrow::Cow;
use std::path::Path;

/// Deepest nesting of instances inside one top-level entry of a saved JSON file.
pub const JSON_NESTING: u32 = 32;

/// Checks the `format` and `version` fields.
pub(crate) fn check_header(format: Option<&str>, version: Option<u64>) -> Result<(), PlaceError> {
    match format {
        Some(PLACE_FORMAT) => {}
        Some(other) => {
            return Err(PlaceError::NotAPlace(format!("its \"format\" is '{other}', not '{PLACE_FORMAT}'")));
        }
        None => return Err(PlaceError::NotAPlace(format!("it has no \"format\": \"{PLACE_FORMAT}\" field"))),
    }
    match version {
        None => Err(PlaceError::invalid("version", "missing")),
        Some(0) => Err(PlaceError::BadVersion(0)),
        Some(v) if v > PLACE_FORMAT_VERSION as u64 => {
            Err(PlaceError::TooNew { found: v, supported: PLACE_FORMAT_VERSION })
        }
        Some(_) => Ok(()),
    }
}

/// Loads a place from JSON text into a fresh arena.
pub fn load_json(text: &str) -> Result<Arena, PlaceError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    parse(text)?.to_arena()
}

/// Parses place text (without a byte-order mark) into its document.
pub(super) fn parse(text: &str) -> Result<PlaceFile<'_>, PlaceError> {
    serde_json::from_str::<PlaceFile<'_>>(text).map_err(|e| explain(text, e))
}

/// Turns a `serde_json` error into a [`PlaceError`]: a wrong format or version first (a
/// newer file may well fail to parse as this version), else the error with its path.
fn explain(text: &str, e: serde_json::Error) -> PlaceError {
    #[derive(Deserialize)]
    struct Probe<'a> {
        #[serde(borrow)]
        format: Option<Cow<'a, str>>,
        version: Option<u64>,
    }
    if let Ok(p) = serde_json::from_str::<Probe<'_>>(text)
        && let Err(header) = check_header(p.format.as_deref(), p.version)
    {
        return header;
    }
    let (line, column) = (e.line(), e.column());
    let full = e.to_string();
    let suffix = format!(" at line {line} column {column}");
    let mut message = full.strip_suffix(&suffix).unwrap_or(&full).to_owned();
    if message.starts_with("recursion limit exceeded") {
        message = format!(
            "{message}: instances nest too deeply for one JSON entry (a saved file nests at most \
             {JSON_NESTING} levels and moves deeper subtrees to the top level with \"parent\")"
        );
    }
    let path = if line == 0 { String::new() } else { path_at(text, offset_of(text, line, column)) };
    PlaceError::Syntax { path, message, line, column }
}

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
    write_inline(&mut out, &super::model::version_for(arena));
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
            version: super::model::version_for(arena),
            settings: place_settings(arena, &saved),
            components,
            behaviors: behavior_docs(arena),
            instances: stack,
        }
    }

    /// Builds a fresh arena from this document (see [`load_json`]); a `sourceFile` is
    /// refused, having no folder to be read from.
    pub fn to_arena(&self) -> Result<Arena, PlaceError> {
        self.to_arena_in(None).map(|(arena, _)| arena)
    }

    /// Builds a fresh arena from this document, reading each `sourceFile` inside the folder
    /// `base` (see [`load_json_file`](crate::place::load_json_file)); returns the scripts read from
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

/// The settings section for the place in `arena`.
fn place_settings(arena: &Arena, saved: &Saved<'_>) -> PlaceSettings {
    PlaceSettings { fallen_parts_destroy_height: saved.destroy_height, behaviors: arena.behaviors().settings }
}

/// The `behaviors` section for the place in `arena`, in name order.
pub(super) fn behavior_docs(arena: &Arena) -> Vec<BehaviorDoc> {
    let docs = arena.behaviors().iter();
    docs.map(|(name, source)| BehaviorDoc { name: name.to_owned(), source: source.to_string() }).collect()
}

/// Stores the behaviour settings and definitions of a place file in its fresh arena.
pub(super) fn apply_behaviors(
    arena: &mut Arena,
    settings: &PlaceSettings,
    docs: &[BehaviorDoc],
) -> Result<(), PlaceError> {
    if let Some(problem) = settings.behaviors.problem() {
        return Err(PlaceError::invalid("settings.behaviors", problem));
    }
    let library = arena.behaviors_mut();
    library.settings = settings.behaviors;
    for (k, doc) in docs.iter().enumerate() {
        if library.source(&doc.name).is_some() {
            return Err(PlaceError::invalid(
                format!("behaviors[{k}].name"),
                format!("a behaviour named '{}' is already defined", doc.name),
            ));
        }
        if doc.source.len() as u64 > super::MAX_SOURCE_FILE_BYTES {
            return Err(PlaceError::invalid(
                format!("behaviors[{k}].source"),
                format!("longer than {} bytes", super::MAX_SOURCE_FILE_BYTES),
            ));
        }
        library
            .set(&doc.name, &doc.source)
            .map_err(|e| PlaceError::invalid(format!("behaviors[{k}].name"), e.to_string()))?;
    }
    Ok(())
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

/// Tag names sorted by text (the arena sorts them by interned id, which differs between
/// arenas), so saving a loaded place gives the same file.
pub(crate) fn sorted_tags<'n>(
    names: &'n crate::names::NamePool,
    tags: &[crate::names::NameId],
) -> Vec<&'n str> {
    let mut out: Vec<&str> = tags.iter().map(|t| names.text(*t)).collect();
    out.sort_unstable();
    out
}

/// Whether two float arrays differ bit for bit (so `-0.0` and NaN payloads count).
pub(crate) fn differs(a: &[f32], b: &[f32]) -> bool {
    a.iter().zip(b).any(|(x, y)| x.to_bits() != y.to_bits())
}

/// The document of one saved node (without children, `ref` or `parent`).
fn instance_doc<'a>(
    saved: &Saved<'a>,
    node: &NodeRef<'a>,
    target: &impl Fn(crate::id::Id) -> Option<u64>,
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
