//! [`Revisions`]: the arena's revision domains.
//!
//! Every mutation advances the global counter; each domain records the global value of its
//! last change, so any two revisions are comparable and a consumer keeps one number per
//! domain it watches. A revision says *that* something changed even after a bounded journal
//! has dropped the details.

use crate::class::{ALL_FAMILIES, Family};

/// Revision counters, one per domain.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Revisions {
    /// Advances on every mutation; per-node revisions are values of this counter.
    pub global: u64,
    /// Allocation, destruction and reparenting (membership and ancestry).
    pub topology: u64,
    /// Per component family (index with [`Family::index`]).
    pub families: [u64; ALL_FAMILIES.len()],
    /// Changes relevant to collision scenes (part geometry, anchoring, world membership).
    pub collision: u64,
    /// Changes to authored animation data.
    pub animation: u64,
    /// Changes to tag membership.
    pub tags: u64,
}

impl Revisions {
    /// Advances the global counter and returns the new revision.
    #[inline]
    pub(crate) fn bump(&mut self) -> u64 {
        self.global += 1;
        self.global
    }

    /// The revision of `family`.
    #[inline]
    pub fn family(&self, family: Family) -> u64 {
        self.families[family.index()]
    }
}
