//! [`HotNode`]: the per-node fields every hot path reads, packed into one 64-byte,
//! 64-byte-aligned record (one cache line), the first array of a node page
//! (`page::NodePage`).
//!
//! A node's local transform (32 bytes), id, parent, revision, flags and class share one
//! line, so a scattered node costs the transform pass, `Arena::stamp` and `Arena::live_slot`
//! one cache line instead of several. The name (4 bytes) would fit in the padding but stays
//! a column: no hot path reads it with the others. Figures: `docs/perf/nodes.md`.
//!
//! Invariants: `size_of::<HotNode>() == align_of::<HotNode>() == 64` (asserted below), so
//! record `i` of a 64-byte-aligned page is exactly cache line `i` of its hot array; a
//! vacant slot holds [`HotNode::VACANT`].

use crate::class::Class;
use crate::id::Id;
use crate::value::NodeFlags;
use glam::{Quat, Vec3};

/// Built-in spatial state: local position and rotation (relative to the parent).
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct LocalTransform {
    /// Local position.
    pub position: Vec3,
    /// Local rotation.
    pub rotation: Quat,
}

impl Default for LocalTransform {
    fn default() -> Self {
        Self { position: Vec3::ZERO, rotation: Quat::IDENTITY }
    }
}

/// One node's hot fields: local transform, id, parent, revision, flags and class, in one
/// cache line (`repr(C, align(64))`, 5 bytes of padding at the end).
#[derive(Clone, Copy, PartialEq, Debug)]
#[repr(C, align(64))]
pub struct HotNode {
    /// Local transform (32 bytes, 16-aligned: first, so it needs no padding before it).
    pub(crate) local: LocalTransform,
    /// Runtime id (`Id::NONE`: the slot is vacant).
    pub(crate) id: Id,
    /// Parent (`Id::NONE`: none).
    pub(crate) parent: Id,
    /// Global revision of the node's last write.
    pub(crate) revision: u64,
    /// Flags.
    pub(crate) flags: NodeFlags,
    /// Class.
    pub(crate) class: Class,
}

const _: () = {
    assert!(size_of::<HotNode>() == 64);
    assert!(align_of::<HotNode>() == 64);
    assert!(size_of::<LocalTransform>() == 32);
    assert!(std::mem::offset_of!(HotNode, id) == 32);
    assert!(std::mem::offset_of!(HotNode, class) == 58);
};

impl HotNode {
    /// A vacant slot's record: no id, no parent, identity transform, no flags, revision 0,
    /// class `Folder`.
    pub(crate) const VACANT: HotNode = HotNode {
        local: LocalTransform { position: Vec3::ZERO, rotation: Quat::IDENTITY },
        id: Id::NONE,
        parent: Id::NONE,
        revision: 0,
        flags: NodeFlags(0),
        class: Class::Folder,
    };

    /// Runtime id (`Id::NONE`: vacant).
    #[inline(always)]
    pub fn id(&self) -> Id {
        self.id
    }

    /// Parent (`Id::NONE`: none).
    #[inline(always)]
    pub fn parent(&self) -> Id {
        self.parent
    }

    /// Flags.
    #[inline(always)]
    pub fn flags(&self) -> NodeFlags {
        self.flags
    }

    /// Local transform.
    #[inline(always)]
    pub fn local(&self) -> &LocalTransform {
        &self.local
    }

    /// Global revision of the node's last write.
    #[inline(always)]
    pub fn revision(&self) -> u64 {
        self.revision
    }

    /// Class.
    #[inline(always)]
    pub fn class(&self) -> Class {
        self.class
    }
}

impl Default for HotNode {
    fn default() -> Self {
        Self::VACANT
    }
}
