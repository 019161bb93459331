//! The saving side shared by both forms: which instances a save writes, in which order, and
//! how runtime ids map to file positions.
//!
//! A save writes the `DataModel`'s children in pre-order (parent before child, siblings in
//! order). The Workspace is always written; any other instance is left out, with its whole
//! subtree, when it is Transient or not archivable. A reference whose target was left out
//! (or is not in the place tree at all) is written as none. Both writers also share
//! [`sorted_tags`] (tags in text order, so a loaded place saves to the same file) and
//! [`differs`] (bit-exact float comparison, so `-0.0` is written).

use arbor_core::Arena;
use arbor_core::Class;
use arbor_core::Id;
use arbor_core::components::{ComponentId, FieldValue};
use arbor_core::raw::{NameId, NamePool, NodeRef};
use arbor_core::settings::FALLEN_PARTS_DESTROY_HEIGHT;
use arbor_core::{AttributeValue, NodeFlags};

/// Marks "no index" in the index tables.
pub(crate) const NONE: u32 = u32::MAX;

/// One instance to write.
pub(crate) struct SavedNode<'a> {
    /// The node.
    pub node: NodeRef<'a>,
    /// Index of its parent in [`Saved::nodes`], or [`NONE`] at the top level.
    pub parent: u32,
    /// Number of saved children.
    pub children: u32,
}

/// The saved part of an arena, in pre-order.
pub(crate) struct Saved<'a> {
    pub arena: &'a Arena,
    pub nodes: Vec<SavedNode<'a>>,
    /// File index by slot ([`NONE`] where the slot's node is not saved).
    index_by_slot: Vec<u32>,
    /// The Workspace attribute that becomes the destroy-height setting (left out of the
    /// Workspace's attributes), if it holds a number.
    pub setting_attribute: Option<NameId>,
    /// The destroy height to write (`None` when the attribute exists but is not a number,
    /// so it stays an ordinary attribute).
    pub destroy_height: Option<f64>,
}

impl<'a> Saved<'a> {
    /// Collects the instances `arena` saves.
    pub fn new(arena: &'a Arena) -> Self {
        let mut nodes: Vec<SavedNode<'a>> = Vec::with_capacity(arena.len());
        let mut index_by_slot = vec![NONE; arena.slot_capacity()];
        let mut stack: Vec<(Id, u32)> = Vec::new();
        if let Some(root) = arena.get(arena.root()) {
            stack.extend(root.children().iter().rev().map(|c| (c, NONE)));
        }
        while let Some((id, parent)) = stack.pop() {
            let Some(node) = arena.get(id) else { continue };
            let flags = node.flags();
            let skipped = flags.contains(NodeFlags::TRANSIENT) || !flags.contains(NodeFlags::ARCHIVABLE);
            if skipped && node.class() != Class::Workspace {
                continue;
            }
            let index = nodes.len() as u32;
            if let Some(slot) = arena.slot(id) {
                index_by_slot[slot.index()] = index;
            }
            if parent != NONE {
                nodes[parent as usize].children += 1;
            }
            nodes.push(SavedNode { node, parent, children: 0 });
            stack.extend(node.children().iter().rev().map(|c| (c, index)));
        }
        let key = arena.names().find(FALLEN_PARTS_DESTROY_HEIGHT.name);
        let (setting_attribute, destroy_height) =
            match key.and_then(|k| arena.get(arena.workspace())?.attribute(k)) {
                Some(AttributeValue::Number(h)) => (key, Some(*h)),
                Some(_) => (None, None),
                None => (None, Some(FALLEN_PARTS_DESTROY_HEIGHT.default)),
            };
        Saved { arena, nodes, index_by_slot, setting_attribute, destroy_height }
    }

    /// The file index of `target`, if it is saved.
    #[inline]
    pub fn index_of(&self, target: Id) -> Option<u32> {
        let slot = self.arena.slot(target)?;
        self.index_by_slot.get(slot.index()).copied().filter(|&i| i != NONE)
    }

    /// Whether `(key, value)` is written as an attribute of `node` (the destroy-height
    /// attribute of the Workspace is written as the setting instead).
    pub fn writes_attribute(&self, node: &NodeRef<'_>, key: NameId) -> bool {
        !(node.class() == Class::Workspace && Some(key) == self.setting_attribute)
    }

    /// The components of `node`, with their values, in component id order.
    pub fn rows(&self, node: &NodeRef<'_>) -> impl Iterator<Item = (ComponentId, RowValues<'a>)> + '_ {
        let id = node.id();
        let store = self.arena.components();
        let comps: smallvec::SmallVec<[ComponentId; 8]> = store.components_of(id).iter().copied().collect();
        comps.into_iter().map(move |c| (c, RowValues { saved_arena: self.arena, id, c }))
    }

    /// Every instance the saved nodes refer to (reference properties, attributes, component
    /// reference fields), as file indexes; targets that are not saved are skipped.
    pub fn referenced_targets(&self) -> Vec<bool> {
        let mut marked = vec![false; self.nodes.len()];
        for n in &self.nodes {
            let extras = n.node.extras();
            for (_, target) in extras.references() {
                if let Some(i) = self.index_of(target) {
                    marked[i as usize] = true;
                }
            }
            for (_, row) in self.rows(&n.node) {
                for v in row.values() {
                    if let FieldValue::Ref(Some(t)) = v
                        && let Some(i) = self.index_of(t)
                    {
                        marked[i as usize] = true;
                    }
                }
            }
        }
        marked
    }
}

/// The values of one component row, read field by field.
pub(crate) struct RowValues<'a> {
    saved_arena: &'a Arena,
    id: Id,
    c: ComponentId,
}

impl<'a> RowValues<'a> {
    /// The field values in schema order.
    pub fn values(&self) -> impl Iterator<Item = FieldValue> + '_ {
        let store = self.saved_arena.components();
        let fields = &store.registry().info(self.c).schema.fields;
        fields.iter().enumerate().map(move |(f, def)| {
            store.field(self.id, self.c, f).unwrap_or_else(|| FieldValue::default_of(def.ty))
        })
    }
}

/// Tag names sorted by text (the arena sorts them by interned id, which differs between
/// arenas), so saving a loaded place gives the same file.
pub(crate) fn sorted_tags<'n>(names: &'n NamePool, tags: &[NameId]) -> Vec<&'n str> {
    let mut out: Vec<&str> = tags.iter().map(|t| names.text(*t)).collect();
    out.sort_unstable();
    out
}

/// Whether two float arrays differ bit for bit (so `-0.0` and NaN payloads count).
pub(crate) fn differs(a: &[f32], b: &[f32]) -> bool {
    a.iter().zip(b).any(|(x, y)| x.to_bits() != y.to_bits())
}
