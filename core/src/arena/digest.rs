//! [`Arena::world_hash`]: a 64-bit hash of the live world's content, independent of ids,
//! slots, revisions, GUIDs and persistent ids, so two arenas holding the same tree hash the
//! same however their ids were minted (a world saved and reloaded with fresh ids, a world
//! after an undo rollback).
//!
//! What is hashed: the tree under the root in pre-order (children in child-array order), and
//! for each live node its depth (with the pre-order, the tree's shape), class name, name text,
//! content flags ([`CONTENT_FLAGS`]: platform-owned, transient, archivable, anchored,
//! can-collide; not `DESTROYED`, `LOCKED` (set by the arena on the root, the Workspace and
//! tombstones), `IN_WORLD` or `HAS_CHILDREN`, which follow from the structure), local transform,
//! size and appearance (floats by bit pattern, so `NaN` and `-0.0` are exact), attributes in
//! stored order, tags sorted by text, builtin references, handle text, script source (none
//! reads as empty, as [`Arena::script_source`] does) and every component row, sorted by
//! component name, each field by name and value. A reference hashes as the pre-order position
//! of its target, not its id.
//!
//! Live detached subtrees (nodes with no parent other than the root) are hashed the same way,
//! each on its own, and folded in sorted by their hashes, so their order (slot order) does not
//! count. A reference into the tree under the root hashes as that position; into its own
//! detached subtree, as the position there; into another detached subtree, as the position
//! there with a marker (which one is not told apart).
//!
//! The mixer is fixed here (a folded 64x64->128-bit multiply per pair of 64-bit words,
//! wyhash-style;
//! strings length-prefixed, eight bytes a word, little-endian): no std hasher and no seed, so
//! a world hashes the same on every run, machine and build of the same code.

use super::Arena;
use crate::components::{ComponentId, FieldValue};
use crate::id::Id;
use crate::nodes::page::NodeRef;
use crate::value::{AttributeValue, NodeFlags};
use rustc_hash::FxHashMap;

/// The flags that are a node's content (the rest are bookkeeping or follow from the tree).
pub(crate) const CONTENT_FLAGS: NodeFlags = NodeFlags(
    NodeFlags::PLATFORM_OWNED.0
        | NodeFlags::TRANSIENT.0
        | NodeFlags::ARCHIVABLE.0
        | NodeFlags::ANCHORED.0
        | NodeFlags::CAN_COLLIDE.0,
);

const K0: u64 = 0xa076_1d64_78bd_642f;
const K1: u64 = 0xe703_7ed1_a0b4_28db;
const K2: u64 = 0x8ebc_6af0_9c88_c6e3;

/// The 128-bit product of `a` and `b`, its halves xored.
#[inline]
fn fold(a: u64, b: u64) -> u64 {
    let r = u128::from(a) * u128::from(b);
    (r as u64) ^ ((r >> 64) as u64)
}

/// A running hash over 64-bit words, taken two at a time: one multiply folds a pair into the
/// state (wyhash's absorb), halving the chain of dependent multiplies; an odd last word is
/// folded by [`finish`](Self::finish), with the word count.
struct Mixer {
    state: u64,
    pending: Option<u64>,
    words: u64,
}

impl Mixer {
    fn new(seed: u64) -> Self {
        Mixer { state: fold(seed ^ K2, K1), pending: None, words: 0 }
    }

    #[inline]
    fn word(&mut self, w: u64) {
        self.words += 1;
        match self.pending.take() {
            None => self.pending = Some(w),
            Some(a) => self.state = fold(self.state ^ a ^ K0, w ^ K1),
        }
    }

    fn f32(&mut self, x: f32) {
        self.word(u64::from(x.to_bits()));
    }

    fn text(&mut self, s: &str) {
        self.word(s.len() as u64);
        for chunk in s.as_bytes().chunks(8) {
            let mut w = [0u8; 8];
            w[..chunk.len()].copy_from_slice(chunk);
            self.word(u64::from_le_bytes(w));
        }
    }

    fn finish(&self) -> u64 {
        let last = self.pending.map_or(K2, |a| fold(a ^ K0, K1));
        fold(self.state ^ last ^ self.words, K0 ^ K1)
    }
}

/// Where each live node sits: (its tree: 0 under the root, `k` the `k`-th detached subtree;
/// its pre-order position in that tree).
type Places = FxHashMap<Id, (u32, u32)>;

impl Arena {
    /// A 64-bit hash of the live world's content, independent of ids, slots, revisions, GUIDs
    /// and persistent ids: the tree under the root in pre-order, each node's class, name,
    /// content flags, transform, size, appearance, attributes, tags, references (as
    /// positions), handle, script source and component rows, and the live detached subtrees
    /// as an unordered set (the `digest` module tells exactly what counts). Deterministic
    /// across runs, machines and builds of the same code.
    ///
    /// ```
    /// use arbor_core::{Arena, Class, Vec3};
    /// let (mut a, mut b) = (Arena::new(), Arena::new());
    /// let scratch = b.create(Class::Folder, "Scratch", None).unwrap();
    /// b.destroy(scratch).unwrap(); // `b` mints other ids from here on
    /// for arena in [&mut a, &mut b] {
    ///     let ws = arena.workspace();
    ///     let p = arena.create(Class::Part, "P", Some(ws)).unwrap();
    ///     arena.set_position(p, Vec3::X).unwrap();
    /// }
    /// assert_eq!(a.world_hash(), b.world_hash(), "other ids, same world");
    /// ```
    pub fn world_hash(&self) -> u64 {
        let mut trees = vec![self.preorder(self.root)];
        for node in self.iter() {
            if node.parent().is_none() && node.id() != self.root {
                trees.push(self.preorder(node.id()));
            }
        }
        let total = trees.iter().map(Vec::len).sum();
        let mut places = Places::with_capacity_and_hasher(total, Default::default());
        for (t, tree) in trees.iter().enumerate() {
            for (k, &(id, _)) in tree.iter().enumerate() {
                places.insert(id, (t as u32, k as u32));
            }
        }
        let mut hashes: Vec<u64> =
            trees.iter().enumerate().map(|(t, tree)| self.tree_hash(t as u32, tree, &places)).collect();
        let mut m = Mixer::new(0);
        m.word(hashes[0]);
        hashes.remove(0);
        hashes.sort_unstable();
        m.word(hashes.len() as u64);
        for h in hashes {
            m.word(h);
        }
        m.finish()
    }

    /// The live nodes of `root`'s subtree in pre-order, with their depths below `root`.
    fn preorder(&self, root: Id) -> Vec<(Id, u32)> {
        let mut out = Vec::new();
        let mut stack = vec![(root, 0u32)];
        while let Some((id, depth)) = stack.pop() {
            let Some(node) = self.get(id) else { continue };
            out.push((id, depth));
            stack.extend(node.children().iter().rev().map(|c| (c, depth + 1)));
        }
        out
    }

    /// The hash of tree number `tree` (its nodes in pre-order, with depths).
    fn tree_hash(&self, tree: u32, nodes: &[(Id, u32)], places: &Places) -> u64 {
        let mut m = Mixer::new(nodes.len() as u64);
        for &(id, depth) in nodes {
            let node = self.get(id).expect("a live node");
            m.word(u64::from(depth));
            self.hash_node(&mut m, node, tree, places);
        }
        m.finish()
    }

    fn hash_node(&self, m: &mut Mixer, node: NodeRef<'_>, tree: u32, places: &Places) {
        let text = |n| self.names.text(n);
        m.text(node.class().name());
        m.text(text(node.name()));
        m.word(u64::from(node.flags().0 & CONTENT_FLAGS.0));
        let t = node.transform();
        let s = node.size();
        let (p, r) = (t.position, t.rotation);
        for (a, b) in [(p.x, p.y), (p.z, r.x), (r.y, r.z), (r.w, s.x), (s.y, s.z)] {
            m.word(u64::from(a.to_bits()) << 32 | u64::from(b.to_bits()));
        }
        let a = node.appearance();
        m.word(u64::from(u32::from_le_bytes(a.color.0)));
        m.f32(a.transparency);
        m.text(a.material.name());
        m.text(a.shape.name());
        let e = node.extras();
        // By key: attribute order is not observable (place files write them sorted).
        let mut attributes: Vec<(&str, &AttributeValue)> =
            e.attributes.iter().map(|(k, v)| (text(*k), v)).collect();
        attributes.sort_unstable_by_key(|&(k, _)| k);
        m.word(attributes.len() as u64);
        for (key, value) in attributes {
            m.text(key);
            match value {
                AttributeValue::Bool(b) => {
                    m.word(0);
                    m.word(u64::from(*b));
                }
                AttributeValue::Number(x) => {
                    m.word(1);
                    m.word(x.to_bits());
                }
                AttributeValue::String(s) => {
                    m.word(2);
                    m.text(s);
                }
                AttributeValue::Vector3(v) => {
                    m.word(3);
                    v.to_array().into_iter().for_each(|x| m.f32(x));
                }
                AttributeValue::Ref(r) => {
                    m.word(4);
                    reference(m, tree, *r, places);
                }
            }
        }
        let mut tags: Vec<&str> = e.tags.iter().map(|&t| text(t)).collect();
        tags.sort_unstable();
        m.word(tags.len() as u64);
        tags.into_iter().for_each(|t| m.text(t));
        for r in e.refs {
            reference(m, tree, r, places);
        }
        match e.handle {
            None => m.word(0),
            Some(h) => {
                m.word(1);
                m.text(text(h));
            }
        }
        m.text(e.source.as_deref().unwrap_or(""));
        self.hash_rows(m, node.id(), tree, places);
    }

    /// Every component row of `id`, sorted by component name, each field by name and value.
    fn hash_rows(&self, m: &mut Mixer, id: Id, tree: u32, places: &Places) {
        let registry = &self.components.registry;
        let mut rows: Vec<(&str, ComponentId)> =
            self.components.components_of(id).iter().map(|&c| (&*registry.info(c).schema.name, c)).collect();
        rows.sort_unstable();
        m.word(rows.len() as u64);
        for (name, c) in rows {
            m.text(name);
            let fields = &registry.info(c).schema.fields;
            m.word(fields.len() as u64);
            for (f, def) in fields.iter().enumerate() {
                m.text(&def.name);
                match self.components.field(id, c, f) {
                    None => m.word(u64::MAX),
                    Some(FieldValue::Bool(b)) => m.word(u64::from(b)),
                    Some(FieldValue::I32(x)) => m.word(u64::from(x as u32)),
                    Some(FieldValue::I64(x)) => m.word(x as u64),
                    Some(FieldValue::F32(x)) => m.f32(x),
                    Some(FieldValue::F64(x)) => m.word(x.to_bits()),
                    Some(FieldValue::Vector3(v)) => v.to_array().into_iter().for_each(|x| m.f32(x)),
                    Some(FieldValue::Quaternion(q)) => q.to_array().into_iter().for_each(|x| m.f32(x)),
                    Some(FieldValue::String(s)) => m.text(&s),
                    Some(FieldValue::Ref(r)) => reference(m, tree, r, places),
                }
            }
        }
    }
}

/// Hashes a reference held in tree `tree` as its target's position (see the module docs).
fn reference(m: &mut Mixer, tree: u32, target: Option<Id>, places: &Places) {
    let (marker, position) = match target.map(|t| places.get(&t)) {
        None => (0, 0),
        Some(None) => (1, 0), // not live (never in a consistent arena)
        Some(Some(&(0, k))) => (2, k),
        Some(Some(&(t, k))) if t == tree => (3, k),
        Some(Some(&(_, k))) => (4, k),
    };
    m.word(marker);
    m.word(u64::from(position));
}
