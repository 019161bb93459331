//! The binary form: a fixed header, then a postcard body holding the same information as
//! the JSON form in a flat layout made for million-instance places.
//!
//! The body keeps one string table (class names, instance names, tags, attribute keys,
//! handles), the instances in pre-order with a child count each (no nesting, so decoding
//! never recurses however deep the tree is), and the rarer data (attributes, tags, component
//! rows and their values) in shared tables that instances consume in order. Strings are
//! borrowed from the input while loading, so decoding allocates only the tables themselves.

mod load;
mod save;

pub use load::load_binary;
pub use save::save_binary;

use super::model::{ComponentDoc, FieldDoc, FieldTypeDoc, MaterialDoc, RefPolicyDoc, ShapeDoc};
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
