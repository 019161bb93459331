//! Saving a place in the binary form: the body built from the saved tree (strings interned
//! once into one table), then the trailing behaviours and storage sections, then the header.

use super::layout::{
    ANCHORED, ARCHIVABLE, BinAttr, BinBehaviors, BinExtras, BinLook, BinNode, BinSchema, BinStorage,
    BinValue, Body, CAN_COLLIDE, HAS_EXTRAS, HEADER_LEN, PLACE_BINARY_MAGIC, checksum,
};
use crate::behaviors::behavior_docs;
use crate::collect::{NONE, Saved, differs, sorted_tags};
use crate::model::ComponentDoc;
use arbor_core::Arena;
use arbor_core::components::FieldValue;
use arbor_core::raw::DEFAULT_SIZE;
use arbor_core::raw::{NameId, NamePool};
use arbor_core::{AttributeValue, Color, NodeFlags};
use rustc_hash::FxHashMap;
use std::borrow::Cow;

/// Saves the place in `arena` in the binary form.
pub fn save_binary(arena: &Arena) -> Vec<u8> {
    let saved = Saved::new(arena);
    let names = arena.names();
    let mut strings = Strings::new(names);
    let registry = arena.components().registry();
    let mut body = Body {
        destroy_height: saved.destroy_height,
        strings: Vec::new(),
        components: registry
            .iter()
            .map(|(_, info)| BinSchema::from_doc(ComponentDoc::from_schema(&info.schema)))
            .collect(),
        nodes: Vec::with_capacity(saved.nodes.len()),
        extras: Vec::new(),
        attributes: Vec::new(),
        tags: Vec::new(),
        rows: Vec::new(),
        values: Vec::new(),
    };
    let target = |id| saved.index_of(id).map_or(0, |i| i + 1);
    for n in &saved.nodes {
        let node = &n.node;
        let flags = node.flags();
        let t = node.transform();
        let look = node.appearance();
        let mut bits = 0u8;
        for (flag, bit) in [
            (NodeFlags::ANCHORED, ANCHORED),
            (NodeFlags::CAN_COLLIDE, CAN_COLLIDE),
            (NodeFlags::ARCHIVABLE, ARCHIVABLE),
        ] {
            if flags.contains(flag) {
                bits |= bit;
            }
        }
        let extras = node.extras();
        let rows = arena.components().components_of(node.id()).len();
        if !extras.is_empty() || rows > 0 {
            let mut e = BinExtras { persistent_id: extras.persistent_id.map(|p| p.0), ..Default::default() };
            for (k, v) in extras.attributes.iter().filter(|(k, _)| saved.writes_attribute(node, *k)) {
                let value = match v {
                    AttributeValue::Bool(x) => BinAttr::Bool(*x),
                    AttributeValue::Number(x) => BinAttr::Number(*x),
                    AttributeValue::String(s) => BinAttr::String(s),
                    AttributeValue::Vector3(v) => BinAttr::Vector3(v.to_array()),
                    AttributeValue::Ref(r) => BinAttr::Ref(r.map_or(0, target)),
                };
                body.attributes.push((strings.name(*k), value));
                e.attributes += 1;
            }
            for tag in sorted_tags(names, &extras.tags) {
                body.tags.push(strings.text(tag));
            }
            e.tags = extras.tags.len() as u32;
            e.handle = extras.handle.map_or(0, |h| strings.name(h) + 1);
            e.refs = extras.refs.map(|r| r.map_or(0, target));
            e.source = extras.source.as_deref();
            for (c, row) in saved.rows(node) {
                body.rows.push(c.0 as u32);
                e.rows += 1;
                body.values.extend(row.values().map(|v| match v {
                    FieldValue::Bool(x) => BinValue::Bool(x),
                    FieldValue::I32(x) => BinValue::I32(x),
                    FieldValue::I64(x) => BinValue::I64(x),
                    FieldValue::F32(x) => BinValue::F32(x),
                    FieldValue::F64(x) => BinValue::F64(x),
                    FieldValue::Vector3(v) => BinValue::Vector3(v.to_array()),
                    FieldValue::Quaternion(q) => BinValue::Quaternion(q.to_array()),
                    FieldValue::String(s) => BinValue::String(Cow::Owned(s.to_string())),
                    FieldValue::Ref(r) => BinValue::Ref(r.map_or(0, target)),
                }));
            }
            if !e.is_empty() {
                bits |= HAS_EXTRAS;
                body.extras.push(e);
            }
        }
        let size = node.size();
        body.nodes.push(BinNode {
            class: strings.text(node.class().name()),
            name: strings.name(node.name()),
            children: n.children,
            flags: bits,
            position: t.position.to_array(),
            rotation: differs(&t.rotation.to_array(), &[0.0, 0.0, 0.0, 1.0]).then(|| t.rotation.to_array()),
            size: differs(&size.to_array(), &DEFAULT_SIZE.to_array()).then(|| size.to_array()),
            look: (look.color != Color::DEFAULT
                || look.transparency.to_bits() != 0
                || look.material != Default::default()
                || look.shape != Default::default())
            .then(|| BinLook {
                color: look.color.0,
                transparency: look.transparency,
                material: look.material.into(),
                shape: look.shape.into(),
            }),
        });
    }
    body.strings = strings.list;
    let mut out = Vec::with_capacity(HEADER_LEN + 24 * body.nodes.len() + 1024);
    out.resize(HEADER_LEN, 0);
    // Serializing plain data into a Vec cannot fail.
    let mut out = postcard::to_extend(&body, out).unwrap_or_else(|_| vec![0; HEADER_LEN]);
    let library = arena.behaviors();
    let sparse_sets: Vec<u32> =
        registry.iter().filter(|(_, info)| info.sparse_set.is_some()).map(|(c, _)| u32::from(c.0)).collect();
    if !library.is_empty() || !library.settings.is_default() || !sparse_sets.is_empty() {
        // Trailing sections, so files without behaviours or sparse sets keep the layout older
        // readers know; the storage section (version 3) follows the behaviours one.
        let section = BinBehaviors { settings: library.settings, behaviors: behavior_docs(arena) };
        out = postcard::to_extend(&section, out).unwrap_or_default();
        if !sparse_sets.is_empty() {
            out = postcard::to_extend(&BinStorage { sparse_sets }, out).unwrap_or_default();
        }
    }
    let body_len = out.len().saturating_sub(HEADER_LEN);
    let sum = checksum(&out[HEADER_LEN..]);
    out[..8].copy_from_slice(PLACE_BINARY_MAGIC);
    out[8..12].copy_from_slice(&crate::model::version_for(arena).to_le_bytes());
    out[12..20].copy_from_slice(&(body_len as u64).to_le_bytes());
    out[20..28].copy_from_slice(&sum.to_le_bytes());
    out
}

/// The string table being written.
struct Strings<'a> {
    names: &'a NamePool,
    list: Vec<&'a str>,
    by_name: Vec<u32>,
    by_text: FxHashMap<&'a str, u32>,
}

impl<'a> Strings<'a> {
    fn new(names: &'a NamePool) -> Self {
        Strings { names, list: Vec::new(), by_name: vec![NONE; names.len()], by_text: FxHashMap::default() }
    }

    fn text(&mut self, s: &'a str) -> u32 {
        let list = &mut self.list;
        *self.by_text.entry(s).or_insert_with(|| {
            list.push(s);
            list.len() as u32 - 1
        })
    }

    fn name(&mut self, id: NameId) -> u32 {
        match self.by_name.get(id.0 as usize) {
            Some(&k) if k != NONE => k,
            _ => {
                let k = self.text(self.names.text(id));
                if let Some(slot) = self.by_name.get_mut(id.0 as usize) {
                    *slot = k;
                }
                k
            }
        }
    }
}
