//! Loading the binary form: the header checked (magic, version, length, checksum), the body
//! and trailing sections decoded, then the instances built in pre-order and their extras
//! consumed from the shared tables in order; a table shorter or longer than its users need
//! is refused as damaged.

use super::layout::{
    ANCHORED, ARCHIVABLE, BinAttr, BinBehaviors, BinStorage, BinValue, Body, CAN_COLLIDE, HAS_EXTRAS,
    HEADER_LEN, PLACE_BINARY_MAGIC, checksum,
};
use crate::behaviors::apply_behaviors;
use crate::build::{ExtrasLoader, NodeSpec, TreeLoader};
use crate::error::PlaceError;
use crate::model::PLACE_FORMAT_VERSION;
use arbor_core::LocalTransform;
use arbor_core::components::FieldValue;
use arbor_core::raw::DEFAULT_SIZE;
use arbor_core::raw::NameId;
use arbor_core::{Appearance, AttributeValue, Color, NodeFlags, PersistentId};
use arbor_core::{Arena, NodeFields};
use arbor_core::{Quat, Vec3};

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
        let settings = crate::model::PlaceSettings { behaviors: section.settings, ..Default::default() };
        apply_behaviors(&mut arena, &settings, &section.behaviors)?;
    }
    Ok(arena)
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
                doc.storage = crate::model::StorageDoc::SparseSet;
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
