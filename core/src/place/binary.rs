//! The binary form: a fixed header, then a postcard body holding the same information as
//! the JSON form in a flat layout made for million-instance places.
//!
//! The body keeps one string table (class names, instance names, tags, attribute keys,
//! handles), the instances in pre-order with a child count each (no nesting, so decoding
//! never recurses however deep the tree is), and the rarer data (attributes, tags, component
//! rows and their values) in shared tables that instances consume in order. Strings are
//! borrowed from the input while loading, so decoding allocates only the tables themselves.

use super::build::{ExtrasLoader, NodeSpec, TreeLoader};
use super::collect::{NONE, Saved};
use super::error::PlaceError;
use super::model::{
    ComponentDoc, FieldDoc, FieldTypeDoc, MaterialDoc, PLACE_FORMAT_VERSION, RefPolicyDoc, ShapeDoc,
};
use crate::arena::{Arena, NodeFields};
use crate::components::FieldValue;
use crate::names::{NameId, NamePool};
use crate::nodes::hot::LocalTransform;
use crate::nodes::page::DEFAULT_SIZE;
use crate::value::{Appearance, AttributeValue, Color, NodeFlags, PersistentId};
use glam::{Quat, Vec3};
use rustc_hash::FxHashMap;
use serde::{Deserialize, Serialize};
use std::borrow::Cow;

/// The first 8 bytes of every binary place file.
pub const PLACE_BINARY_MAGIC: &[u8] = b"\x89ARBOR\r\n";

/// Magic (8), version (u32), body length (u64), checksum (u64), all little-endian.
const HEADER_LEN: usize = 28;

const ANCHORED: u8 = 1;
const CAN_COLLIDE: u8 = 2;
const ARCHIVABLE: u8 = 4;
const HAS_EXTRAS: u8 = 8;

#[derive(Serialize, Deserialize)]
struct Body<'a> {
    destroy_height: Option<f64>,
    #[serde(borrow)]
    strings: Vec<&'a str>,
    components: Vec<BinSchema>,
    #[serde(with = "reserved")]
    nodes: Vec<BinNode>,
    #[serde(borrow)]
    extras: Vec<BinExtras<'a>>,
    #[serde(borrow)]
    attributes: Vec<(u32, BinAttr<'a>)>,
    tags: Vec<u32>,
    rows: Vec<u32>,
    #[serde(borrow)]
    values: Vec<BinValue<'a>>,
}

/// The instance list, read with its whole length reserved up front. Serde caps the
/// reservation of an untrusted length at 1 MiB, which for a million instances means many
/// regrowths; here the length is trusted only as far as postcard vouches for it (it reports a
/// length only when the remaining input could hold that many entries).
mod reserved {
    use serde::de::{Deserialize, Deserializer, SeqAccess, Visitor};
    use serde::{Serialize, Serializer};
    use std::marker::PhantomData;

    pub fn serialize<S: Serializer, T: Serialize>(v: &[T], s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(v)
    }

    pub fn deserialize<'de, D: Deserializer<'de>, T: Deserialize<'de>>(d: D) -> Result<Vec<T>, D::Error> {
        struct V<T>(PhantomData<T>);
        impl<'de, T: Deserialize<'de>> Visitor<'de> for V<T> {
            type Value = Vec<T>;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a sequence")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<T>, A::Error> {
                // Each entry takes at least 17 bytes of input, and postcard only reports a
                // length the remaining input can hold: the reservation stays within a small
                // multiple of the input size.
                let mut out = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(1 << 26));
                while let Some(x) = seq.next_element()? {
                    out.push(x);
                }
                Ok(out)
            }
        }
        d.deserialize_seq(V(PhantomData))
    }
}

/// A component schema (as [`ComponentDoc`], without the JSON form's optional fields: a
/// postcard body has no field names, so every field is always present).
#[derive(Serialize, Deserialize)]
struct BinSchema {
    name: String,
    fields: Vec<(String, FieldTypeDoc, RefPolicyDoc)>,
    requires: Vec<String>,
}

impl BinSchema {
    fn from_doc(doc: ComponentDoc) -> Self {
        let fields = doc.fields.into_iter().map(|f| (f.name, f.ty, f.on_destroy)).collect();
        BinSchema { name: doc.name, fields, requires: doc.requires }
    }

    fn to_doc(&self) -> ComponentDoc {
        let fields = self.fields.iter().map(|(name, ty, on_destroy)| FieldDoc {
            name: name.clone(),
            ty: *ty,
            on_destroy: *on_destroy,
        });
        ComponentDoc {
            name: self.name.clone(),
            fields: fields.collect(),
            requires: self.requires.clone(),
            storage: super::model::StorageDoc::Table,
        }
    }
}

#[derive(Serialize, Deserialize)]
struct BinNode {
    class: u32,
    name: u32,
    children: u32,
    flags: u8,
    position: [f32; 3],
    rotation: Option<[f32; 4]>,
    size: Option<[f32; 3]>,
    look: Option<BinLook>,
}

#[derive(Serialize, Deserialize)]
struct BinLook {
    color: [u8; 4],
    transparency: f32,
    material: MaterialDoc,
    shape: ShapeDoc,
}

#[derive(Serialize, Deserialize, Default)]
struct BinExtras<'a> {
    attributes: u32,
    tags: u32,
    handle: u32,
    persistent_id: Option<u128>,
    refs: [u32; 2],
    rows: u32,
    #[serde(borrow)]
    source: Option<&'a str>,
}

impl BinExtras<'_> {
    /// Whether nothing is left to write (e.g. only references to instances not saved).
    fn is_empty(&self) -> bool {
        self.attributes == 0
            && self.tags == 0
            && self.handle == 0
            && self.persistent_id.is_none()
            && self.refs == [0, 0]
            && self.rows == 0
            && self.source.is_none()
    }
}

#[derive(Serialize, Deserialize)]
enum BinAttr<'a> {
    Bool(bool),
    Number(f64),
    String(&'a str),
    Vector3([f32; 3]),
    Ref(u32),
}

#[derive(Serialize, Deserialize)]
enum BinValue<'a> {
    Bool(bool),
    I32(i32),
    I64(i64),
    F32(f32),
    F64(f64),
    Vector3([f32; 3]),
    Quaternion([f32; 4]),
    String(#[serde(borrow)] Cow<'a, str>),
    Ref(u32),
}

/// The body checksum: FNV-style over little-endian 64-bit words (the last zero-padded),
/// `h = ((h ^ w) * 0x100000001b3) ^ (that >> 32)`, finished with `h ^ len`.
pub(crate) fn checksum(body: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut chunks = body.chunks_exact(8);
    let mut mix = |w: u64| {
        h = (h ^ w).wrapping_mul(0x0000_0100_0000_01b3);
        h ^= h >> 32;
    };
    for c in &mut chunks {
        mix(u64::from_le_bytes([c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]]));
    }
    let rest = chunks.remainder();
    if !rest.is_empty() {
        let mut w = [0u8; 8];
        w[..rest.len()].copy_from_slice(rest);
        mix(u64::from_le_bytes(w));
    }
    h ^ body.len() as u64
}

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
            for tag in super::json::sorted_tags(names, &extras.tags) {
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
            rotation: super::json::differs(&t.rotation.to_array(), &[0.0, 0.0, 0.0, 1.0])
                .then(|| t.rotation.to_array()),
            size: super::json::differs(&size.to_array(), &DEFAULT_SIZE.to_array()).then(|| size.to_array()),
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
        let section =
            BinBehaviors { settings: library.settings, behaviors: super::json::behavior_docs(arena) };
        out = postcard::to_extend(&section, out).unwrap_or_default();
        if !sparse_sets.is_empty() {
            out = postcard::to_extend(&BinStorage { sparse_sets }, out).unwrap_or_default();
        }
    }
    let body_len = out.len().saturating_sub(HEADER_LEN);
    let sum = checksum(&out[HEADER_LEN..]);
    out[..8].copy_from_slice(PLACE_BINARY_MAGIC);
    out[8..12].copy_from_slice(&super::model::version_for(arena).to_le_bytes());
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

/// Checks the header and returns the format version and the body.
fn body_of(bytes: &[u8]) -> Result<(u32, &[u8]), PlaceError> {
    if !bytes.starts_with(PLACE_BINARY_MAGIC) {
        let json = bytes.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'{');
        let hint = if json { " (it looks like JSON: load it with load_json)" } else { "" };
        return Err(PlaceError::NotAPlace(format!("the binary place magic is missing{hint}")));
    }
    if bytes.len() < HEADER_LEN {
        return Err(PlaceError::Damaged(format!(
            "the header is truncated ({} of {HEADER_LEN} bytes)",
            bytes.len()
        )));
    }
    let word = |at: usize| u64::from_le_bytes(bytes[at..at + 8].try_into().unwrap_or_default());
    let version = u32::from_le_bytes([bytes[8], bytes[9], bytes[10], bytes[11]]);
    if version == 0 {
        return Err(PlaceError::BadVersion(0));
    }
    if version > PLACE_FORMAT_VERSION {
        return Err(PlaceError::TooNew { found: version as u64, supported: PLACE_FORMAT_VERSION });
    }
    let (len, sum) = (word(12), word(20));
    let body = &bytes[HEADER_LEN..];
    if body.len() as u64 != len {
        return Err(PlaceError::Damaged(format!(
            "the header promises {len} body bytes but the file holds {} (truncated or padded)",
            body.len()
        )));
    }
    if checksum(body) != sum {
        return Err(PlaceError::Damaged("the checksum does not match the body".into()));
    }
    Ok((version, body))
}

/// Loads a place from its binary form into a fresh arena.
pub fn load_binary(bytes: &[u8]) -> Result<Arena, PlaceError> {
    let (version, body) = body_of(bytes)?;
    let (body, rest): (Body<'_>, &[u8]) = postcard::take_from_bytes(body)
        .map_err(|e| PlaceError::Damaged(format!("the body does not decode: {e}")))?;
    let (behaviors, rest) = if rest.is_empty() {
        (None, rest)
    } else {
        let (section, rest): (BinBehaviors, &[u8]) = postcard::take_from_bytes(rest)
            .map_err(|e| PlaceError::Damaged(format!("the behaviours section does not decode: {e}")))?;
        (Some(section), rest)
    };
    let (storage, rest) = if version >= 3 && !rest.is_empty() {
        let (section, rest): (BinStorage, &[u8]) = postcard::take_from_bytes(rest)
            .map_err(|e| PlaceError::Damaged(format!("the storage section does not decode: {e}")))?;
        (section, rest)
    } else {
        (BinStorage::default(), rest)
    };
    if !rest.is_empty() {
        return Err(PlaceError::Damaged(format!("{} unexpected bytes after the body", rest.len())));
    }
    let mut arena = Loader::new(&body, &storage.sparse_sets).load()?;
    if let Some(section) = behaviors {
        let settings = super::model::PlaceSettings { behaviors: section.settings, ..Default::default() };
        super::json::apply_behaviors(&mut arena, &settings, &section.behaviors)?;
    }
    Ok(arena)
}

/// The optional section after the body: the place's behaviour settings and definitions.
#[derive(Serialize, Deserialize)]
struct BinBehaviors {
    settings: crate::BehaviorSettings,
    behaviors: Vec<super::model::BehaviorDoc>,
}

/// The optional section after the behaviours one (version 3): which schemas, by index in
/// the body's list, are stored in sparse sets.
#[derive(Serialize, Deserialize, Default)]
struct BinStorage {
    sparse_sets: Vec<u32>,
}

fn damaged(what: impl Into<String>) -> PlaceError {
    PlaceError::Damaged(what.into())
}

/// Reads `count` entries of `table` from `cursor`, advancing it.
fn take<'t, T>(table: &'t [T], cursor: &mut usize, count: u32, what: &str) -> Result<&'t [T], PlaceError> {
    let end = cursor.checked_add(count as usize).filter(|&e| e <= table.len());
    let Some(end) = end else {
        return Err(damaged(format!("the {what} table is shorter than its users need")));
    };
    let out = &table[*cursor..end];
    *cursor = end;
    Ok(out)
}

struct Loader<'b, 'a> {
    body: &'b Body<'a>,
    /// Indices of the schemas stored in sparse sets.
    sparse_sets: &'b [u32],
    /// Interned name of each string (interned on first use).
    name_ids: Vec<Option<NameId>>,
}

impl<'b, 'a> Loader<'b, 'a> {
    fn new(body: &'b Body<'a>, sparse_sets: &'b [u32]) -> Self {
        Loader { body, sparse_sets, name_ids: vec![None; body.strings.len()] }
    }

    fn string(&self, k: u32, user: usize) -> Result<&'a str, PlaceError> {
        self.body.strings.get(k as usize).copied().ok_or_else(|| {
            damaged(format!(
                "instance #{user} uses string #{k} but the table holds {}",
                self.body.strings.len()
            ))
        })
    }

    fn name(&mut self, b: &mut TreeLoader, k: u32, user: usize) -> Result<NameId, PlaceError> {
        if let Some(Some(id)) = self.name_ids.get(k as usize) {
            return Ok(*id);
        }
        let id = b.intern(self.string(k, user)?);
        self.name_ids[k as usize] = Some(id);
        Ok(id)
    }

    fn load(mut self) -> Result<Arena, PlaceError> {
        let body = self.body;
        let mut b = TreeLoader::new(body.nodes.len());
        if let Some(&k) = self.sparse_sets.iter().find(|&&k| k as usize >= body.components.len()) {
            return Err(damaged(format!(
                "the storage section names schema #{k} but the body declares {}",
                body.components.len()
            )));
        }
        for (i, c) in body.components.iter().enumerate() {
            let mut doc = c.to_doc();
            if self.sparse_sets.contains(&(i as u32)) {
                doc.storage = super::model::StorageDoc::SparseSet;
            }
            b.register_schema(i, &doc)?;
        }
        b.set_destroy_height(body.destroy_height);
        // Pre-order with child counts: `open` holds the instances still expecting children.
        let mut open: Vec<(u32, u32)> = Vec::new();
        for (i, node) in body.nodes.iter().enumerate() {
            while open.last().is_some_and(|&(_, left)| left == 0) {
                open.pop();
            }
            let parent = open.last_mut().map(|(p, left)| {
                *left -= 1;
                *p
            });
            if node.flags & !(ANCHORED | CAN_COLLIDE | ARCHIVABLE | HAS_EXTRAS) != 0 {
                return Err(damaged(format!("instance #{i} has unknown flag bits {:#04x}", node.flags)));
            }
            let pos = b.child_count(parent);
            let class = self.string(node.class, i)?;
            let name = self.name(&mut b, node.name, i)?;
            let mut flags = NodeFlags(0);
            flags.set(NodeFlags::ANCHORED, node.flags & ANCHORED != 0);
            flags.set(NodeFlags::CAN_COLLIDE, node.flags & CAN_COLLIDE != 0);
            flags.set(NodeFlags::ARCHIVABLE, node.flags & ARCHIVABLE != 0);
            let appearance = match &node.look {
                None => Appearance::default(),
                Some(l) => Appearance {
                    color: Color(l.color),
                    transparency: l.transparency,
                    material: l.material.into(),
                    shape: l.shape.into(),
                },
            };
            let fields = NodeFields {
                name,
                flags,
                transform: LocalTransform {
                    position: Vec3::from_array(node.position),
                    rotation: node.rotation.map_or(Quat::IDENTITY, Quat::from_array),
                },
                size: node.size.map_or(DEFAULT_SIZE, Vec3::from_array),
                appearance,
            };
            let index = b.add_node(parent, parent, pos, &NodeSpec { class, fields })?;
            if node.children > 0 {
                open.push((index, node.children));
            }
        }
        if let Some(&(p, left)) = open.iter().find(|(_, left)| *left > 0) {
            return Err(damaged(format!("instance #{p} declares {left} more children than the file holds")));
        }
        let mut b = b.tree_done();
        self.extras(&mut b)?;
        Ok(b.finish())
    }

    fn extras(&self, b: &mut ExtrasLoader) -> Result<(), PlaceError> {
        let body = self.body;
        let (mut e_at, mut a_at, mut t_at, mut r_at, mut v_at) = (0, 0, 0, 0, 0);
        let mut row: Vec<FieldValue> = Vec::new();
        for (i, node) in body.nodes.iter().enumerate() {
            if node.flags & HAS_EXTRAS == 0 {
                continue;
            }
            let index = i as u32;
            let e = take(&body.extras, &mut e_at, 1, "extras")?.first().ok_or_else(|| damaged("extras"))?;
            for (key, value) in take(&body.attributes, &mut a_at, e.attributes, "attribute")? {
                let key = self.string(*key, i)?;
                let value = match value {
                    BinAttr::Bool(x) => AttributeValue::Bool(*x),
                    BinAttr::Number(x) => AttributeValue::Number(*x),
                    BinAttr::String(s) => AttributeValue::String((*s).into()),
                    BinAttr::Vector3(v) => AttributeValue::Vector3(Vec3::from_array(*v)),
                    BinAttr::Ref(k) => {
                        AttributeValue::Ref(b.resolve_index(index, || format!("attributes.{key}"), *k)?)
                    }
                };
                b.set_attribute(index, key, value)?;
            }
            for tag in take(&body.tags, &mut t_at, e.tags, "tag")? {
                let tag = self.string(*tag, i)?;
                b.add_tag(index, tag)?;
            }
            if e.handle != 0 {
                let handle = self.string(e.handle - 1, i)?;
                b.set_handle(index, handle)?;
            }
            if let Some(p) = e.persistent_id {
                b.set_persistent_id(index, PersistentId(p))?;
            }
            let class = b.class(index);
            for (k, &r) in e.refs.iter().enumerate() {
                if r == 0 {
                    continue;
                }
                let Some(prop) = class.reference_properties().get(k) else {
                    return Err(b.err(
                        index,
                        &format!("references[{k}]"),
                        format!("a {class} has no reference property #{k}"),
                    ));
                };
                let suffix = format!("references.{prop}");
                let target = b.resolve_index(index, || suffix.clone(), r)?;
                b.set_reference(index, k, target, &suffix)?;
            }
            for &ci in take(&body.rows, &mut r_at, e.rows, "row")? {
                let Some(c) = b.schema(ci as usize) else {
                    return Err(damaged(format!(
                        "instance #{i} has a row of component #{ci}, which the file does not declare"
                    )));
                };
                let info = b.arena().components().registry().info(c);
                let name = info.schema.name.clone();
                let fields = info.schema.fields.len() as u32;
                row.clear();
                for v in take(&body.values, &mut v_at, fields, "value")? {
                    row.push(match v {
                        BinValue::Bool(x) => FieldValue::Bool(*x),
                        BinValue::I32(x) => FieldValue::I32(*x),
                        BinValue::I64(x) => FieldValue::I64(*x),
                        BinValue::F32(x) => FieldValue::F32(*x),
                        BinValue::F64(x) => FieldValue::F64(*x),
                        BinValue::Vector3(v) => FieldValue::Vector3(Vec3::from_array(*v)),
                        BinValue::Quaternion(q) => FieldValue::Quaternion(Quat::from_array(*q)),
                        BinValue::String(s) => FieldValue::String(s.as_ref().into()),
                        BinValue::Ref(k) => {
                            FieldValue::Ref(b.resolve_index(index, || format!("components.{name}"), *k)?)
                        }
                    });
                }
                b.add_row(index, c, &row, &format!("components.{name}"))?;
            }
            if let Some(src) = e.source {
                b.set_source(index, src)?;
            }
        }
        let unused = [
            ("extras", body.extras.len() - e_at),
            ("attribute", body.attributes.len() - a_at),
            ("tag", body.tags.len() - t_at),
            ("row", body.rows.len() - r_at),
            ("value", body.values.len() - v_at),
        ];
        if let Some((what, n)) = unused.iter().find(|(_, n)| *n > 0) {
            return Err(damaged(format!("{n} {what} entries belong to no instance")));
        }
        Ok(())
    }
}
