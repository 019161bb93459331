//! The layout of a binary place file: the header (magic, version, body length, checksum),
//! the postcard body's types and the trailing behaviours and storage sections. Every table
//! holds plain indices into the others, so any byte string decodes to these types or fails
//! cleanly; the loader checks the indices.

use crate::model::{ComponentDoc, FieldDoc, FieldTypeDoc, MaterialDoc, RefPolicyDoc, ShapeDoc};
use serde::{Deserialize, Serialize};
use std::borrow::Cow;

/// The first 8 bytes of every binary place file.
pub const PLACE_BINARY_MAGIC: &[u8] = b"\x89ARBOR\r\n";

/// Magic (8), version (u32), body length (u64), checksum (u64), all little-endian.
pub(super) const HEADER_LEN: usize = 28;

pub(super) const ANCHORED: u8 = 1;
pub(super) const CAN_COLLIDE: u8 = 2;
pub(super) const ARCHIVABLE: u8 = 4;
pub(super) const HAS_EXTRAS: u8 = 8;

#[derive(Serialize, Deserialize)]
pub(super) struct Body<'a> {
    pub(super) destroy_height: Option<f64>,
    #[serde(borrow)]
    pub(super) strings: Vec<&'a str>,
    pub(super) components: Vec<BinSchema>,
    #[serde(with = "reserved")]
    pub(super) nodes: Vec<BinNode>,
    #[serde(borrow)]
    pub(super) extras: Vec<BinExtras<'a>>,
    #[serde(borrow)]
    pub(super) attributes: Vec<(u32, BinAttr<'a>)>,
    pub(super) tags: Vec<u32>,
    pub(super) rows: Vec<u32>,
    #[serde(borrow)]
    pub(super) values: Vec<BinValue<'a>>,
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
pub(super) struct BinSchema {
    pub(super) name: String,
    pub(super) fields: Vec<(String, FieldTypeDoc, RefPolicyDoc)>,
    pub(super) requires: Vec<String>,
}

impl BinSchema {
    pub(super) fn from_doc(doc: ComponentDoc) -> Self {
        let fields = doc.fields.into_iter().map(|f| (f.name, f.ty, f.on_destroy)).collect();
        BinSchema { name: doc.name, fields, requires: doc.requires }
    }

    pub(super) fn to_doc(&self) -> ComponentDoc {
        let fields = self.fields.iter().map(|(name, ty, on_destroy)| FieldDoc {
            name: name.clone(),
            ty: *ty,
            on_destroy: *on_destroy,
        });
        ComponentDoc {
            name: self.name.clone(),
            fields: fields.collect(),
            requires: self.requires.clone(),
            storage: crate::model::StorageDoc::Table,
        }
    }
}

#[derive(Serialize, Deserialize)]
pub(super) struct BinNode {
    pub(super) class: u32,
    pub(super) name: u32,
    pub(super) children: u32,
    pub(super) flags: u8,
    pub(super) position: [f32; 3],
    pub(super) rotation: Option<[f32; 4]>,
    pub(super) size: Option<[f32; 3]>,
    pub(super) look: Option<BinLook>,
}

#[derive(Serialize, Deserialize)]
pub(super) struct BinLook {
    pub(super) color: [u8; 4],
    pub(super) transparency: f32,
    pub(super) material: MaterialDoc,
    pub(super) shape: ShapeDoc,
}

#[derive(Serialize, Deserialize, Default)]
pub(super) struct BinExtras<'a> {
    pub(super) attributes: u32,
    pub(super) tags: u32,
    pub(super) handle: u32,
    pub(super) persistent_id: Option<u128>,
    pub(super) refs: [u32; 2],
    pub(super) rows: u32,
    #[serde(borrow)]
    pub(super) source: Option<&'a str>,
}

impl BinExtras<'_> {
    /// Whether nothing is left to write (e.g. only references to instances not saved).
    pub(super) fn is_empty(&self) -> bool {
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
pub(super) enum BinAttr<'a> {
    Bool(bool),
    Number(f64),
    String(&'a str),
    Vector3([f32; 3]),
    Ref(u32),
}

#[derive(Serialize, Deserialize)]
pub(super) enum BinValue<'a> {
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

/// The optional section after the body: the place's behaviour settings and definitions.
#[derive(Serialize, Deserialize)]
pub(super) struct BinBehaviors {
    pub(super) settings: arbor_core::BehaviorSettings,
    pub(super) behaviors: Vec<crate::model::BehaviorDoc>,
}

/// The optional section after the behaviours one (version 3): which schemas, by index in
/// the body's list, are stored in sparse sets.
#[derive(Serialize, Deserialize, Default)]
pub(super) struct BinStorage {
    pub(super) sparse_sets: Vec<u32>,
}
