//! [`Arena::world_hash`]: a 64-bit hash of the live world's content, independent of ids,
//! slots, revisions, GUIDs and persistent ids, so two arenas holding the same tree hash the
//! same however their ids were minted (a world saved and reloaded with fresh ids, a world
//! after an undo rollback). It is a Merkle hash, so that [`WorldHasher`](super::WorldHasher)
//! can keep it up to date in time proportional to what changed; this module owns the
//! definition (the per-node hashes and how they combine) and the full recompute.
//!
//! What is hashed, per live node (its *content*): class name, name text, content flags
//! ([`CONTENT_FLAGS`]: platform-owned, transient, archivable, anchored, can-collide; not
//! `DESTROYED`, `LOCKED` (set by the arena on the root, the Workspace and tombstones),
//! `IN_WORLD` or `HAS_CHILDREN`, which follow from the structure), local transform, size and
//! appearance (floats by bit pattern, so `NaN` and `-0.0` are exact), attributes sorted by
//! key, tags sorted by text, builtin references, handle text, script source (none reads as
//! empty, as [`Arena::script_source`] does) and every component row, sorted by component
//! name, each field by name and value.
//!
//! How it combines:
//! - a node's *base* hash is its content with every reference (builtin, `Ref` attribute,
//!   component reference field) left out (a fixed placeholder word where it stands);
//! - its *content* hash is its base with each reference, in order, as the *base* hash of its
//!   target (or a marker for none); base hashes read no other node, so there is no cycle;
//! - its *subtree* hash mixes its content hash with the wrapping sum, over its live children,
//!   of [`child_term`]`(rank, child's subtree hash)` (rank: its place among the live
//!   children), so one child's change is one subtraction and one addition;
//! - the world hash mixes the root's subtree hash with the number of live detached subtrees
//!   (nodes with no parent other than the root) and the wrapping sum of
//!   [`detached_term`] of their subtree hashes: their order (slot order) does not count.
//!
//! Dropped from the pre-order hash this replaced: a reference now names its target by the
//! target's base content, not by its position in the whole tree, so two references to
//! targets alike in content (say two identical Parts) hash alike whichever they point at.
//! That is what lets a reference be rehashed locally (only when its target's own content
//! changes, found through the arena's reverse reference indexes); everything else (shape,
//! child order, content) is hashed as before.
//!
//! The mixer is fixed here (a folded 64x64->128-bit multiply per pair of 64-bit words,
//! wyhash-style; strings length-prefixed, eight bytes a word, little-endian; sums wrapping):
//! no std hasher and no seed, so a world hashes the same on every run, machine and build of
//! the same code.

use super::Arena;
use crate::components::FieldValue;
use crate::id::Id;
use crate::nodes::page::NodeRef;
use crate::value::{AttributeValue, NodeFlags};

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
const K3: u64 = 0x5899_65cc_7537_4cc3;

/// Stands where a reference is, in a base hash.
const REF_PLACEHOLDER: u64 = 0x7265_6665_7265_6e63;

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

/// What child number `rank` (among the live children) with subtree hash `subtree` adds to
/// its parent's sum of children.
#[inline]
pub(crate) fn child_term(rank: u32, subtree: u64) -> u64 {
    let r = fold(subtree ^ K0, K1 ^ u64::from(rank).wrapping_mul(K3));
    fold(r ^ K2, subtree ^ K3)
}

/// A node's subtree hash from its content hash and the sum of its children's
/// [`child_term`]s.
#[inline]
pub(crate) fn subtree_hash(content: u64, children: u64) -> u64 {
    fold(fold(content ^ K0, children ^ K1) ^ K2, content ^ K3)
}

/// What a live detached subtree with hash `subtree` adds to the world's sum of them.
#[inline]
pub(crate) fn detached_term(subtree: u64) -> u64 {
    fold(fold(subtree ^ K3, K2) ^ K1, subtree ^ K0)
}

/// The world hash from the root's subtree hash and the live detached subtrees (how many, and
/// the sum of their [`detached_term`]s).
pub(crate) fn world_of(root: u64, detached: usize, detached_sum: u64) -> u64 {
    let mut m = Mixer::new(0);
    m.word(root);
    m.word(detached as u64);
    m.word(detached_sum);
    m.finish()
}

impl Arena {
    /// A 64-bit hash of the live world's content, independent of ids, slots, revisions, GUIDs
    /// and persistent ids: the tree under the root with child order, each node's class, name,
    /// content flags, transform, size, appearance, attributes, tags, references (by their
    /// targets' content), handle, script source and component rows, and the live detached
    /// subtrees as an unordered set (the `digest` module tells exactly what counts).
    /// Deterministic across runs, machines and builds of the same code. Recomputed from
    /// scratch; [`WorldHasher`](crate::WorldHasher) gives the same value in time proportional
    /// to what changed since its last call.
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
        let mut refs = Vec::new();
        let mut order = Vec::new();
        let mut values = Vec::new();
        let root = self.tree_hash(self.root, &mut order, &mut values, &mut refs);
        let (mut count, mut sum) = (0usize, 0u64);
        for node in self.iter() {
            if node.parent().is_none() && node.id() != self.root {
                count += 1;
                sum = sum.wrapping_add(detached_term(self.tree_hash(
                    node.id(),
                    &mut order,
                    &mut values,
                    &mut refs,
                )));
            }
        }
        world_of(root, count, sum)
    }

    /// The subtree hash of live node `top`: its subtree in pre-order, then evaluated in
    /// reverse (every node after its descendants) with a stack of the children's hashes.
    fn tree_hash(
        &self,
        top: Id,
        order: &mut Vec<Id>,
        values: &mut Vec<u64>,
        refs: &mut Vec<Option<Id>>,
    ) -> u64 {
        order.clear();
        values.clear();
        let mut stack = vec![top];
        while let Some(id) = stack.pop() {
            let Some(node) = self.get(id) else { continue };
            order.push(id);
            stack.extend(node.children().iter().rev());
        }
        for &id in order.iter().rev() {
            let node = self.get(id).expect("a live node");
            let content = self.content_hash(node, refs);
            // The children's hashes are on top of the stack, the first child's topmost.
            let mut children = 0u64;
            for rank in 0..node.children().len() {
                let h = values.pop().expect("a child's hash");
                children = children.wrapping_add(child_term(rank as u32, h));
            }
            values.push(subtree_hash(content, children));
        }
        values.pop().expect("the top's hash")
    }

    /// `node`'s content hash (see the module docs); `refs` is scratch.
    pub(crate) fn content_hash(&self, node: NodeRef<'_>, refs: &mut Vec<Option<Id>>) -> u64 {
        refs.clear();
        let base = self.base_hash(node, refs);
        if refs.is_empty() {
            return base;
        }
        let mut m = Mixer::new(base);
        let mut none = Vec::new();
        for &target in refs.iter() {
            match target.map(|t| self.get(t)) {
                None => m.word(0),
                Some(None) => m.word(1), // not live (never in a consistent arena)
                Some(Some(t)) => m.word(self.base_hash(t, &mut none)),
            }
        }
        m.finish()
    }

    /// `node`'s base hash (its content without references), pushing its references' targets
    /// to `refs` in the order they stand.
    fn base_hash(&self, node: NodeRef<'_>, refs: &mut Vec<Option<Id>>) -> u64 {
        let text = |n| self.names.text(n);
        let mut m = Mixer::new(K3);
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
        if !e.attributes.is_empty() {
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
                        m.word(REF_PLACEHOLDER);
                        refs.push(*r);
                    }
                }
            }
        } else {
            m.word(0);
        }
        if e.tags.is_empty() {
            m.word(0);
        } else {
            let mut tags: Vec<&str> = e.tags.iter().map(|&t| text(t)).collect();
            tags.sort_unstable();
            m.word(tags.len() as u64);
            tags.into_iter().for_each(|t| m.text(t));
        }
        for r in e.refs {
            m.word(REF_PLACEHOLDER);
            refs.push(r);
        }
        match e.handle {
            None => m.word(0),
            Some(h) => {
                m.word(1);
                m.text(text(h));
            }
        }
        m.text(e.source.as_deref().unwrap_or(""));
        self.hash_rows(&mut m, node.id(), refs);
        m.finish()
    }

    /// Every component row of `id`, sorted by component name, each field by name and value
    /// (reference fields as placeholders, their targets pushed to `refs`).
    fn hash_rows(&self, m: &mut Mixer, id: Id, refs: &mut Vec<Option<Id>>) {
        let registry = &self.components.registry;
        let comps = self.components.components_of(id);
        m.word(comps.len() as u64);
        if comps.is_empty() {
            return;
        }
        let mut rows: Vec<(&str, crate::components::ComponentId)> =
            comps.iter().map(|&c| (&*registry.info(c).schema.name, c)).collect();
        rows.sort_unstable();
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
                    Some(FieldValue::Ref(r)) => {
                        m.word(REF_PLACEHOLDER);
                        refs.push(r);
                    }
                }
            }
        }
    }
}
