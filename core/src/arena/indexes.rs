//! [`Indexes`]: the arena's secondary indexes — tags, handles, persistent ids, world-scoped
//! family member lists and the reverse reference index.
//!
//! Invariants (for live nodes; destroyed nodes are removed at destruction):
//! - `tags[t]` holds exactly the live nodes whose extras list tag `t`;
//! - `handles[h] == id` exactly when node `id`'s extras name handle `h`;
//! - `persistent[p] == id` exactly when node `id` carries persistent id `p`;
//! - `families[f].list` holds exactly the live in-world nodes of family `f`, and
//!   `family_pos[slot]` is each one's position in it (`u32::MAX` elsewhere);
//! - `refs[target]` lists every (holder, field) whose field refers to `target`.
//!
//! Ordered containers (`BTreeSet`, positional vectors) keep iteration deterministic.

use crate::class::{ALL_FAMILIES, Family};
use crate::id::{Id, Slot};
use crate::names::NameId;
use crate::value::{PersistentId, RefField};
use rustc_hash::FxHashMap;
use smallvec::SmallVec;
use std::collections::BTreeSet;
use std::sync::{Arc, OnceLock};

/// Members of one component family inside the world, with a shared cached list.
#[derive(Default, Clone)]
pub(crate) struct FamilyMembers {
    pub list: Vec<Id>,
    pub cache: OnceLock<Arc<[Id]>>,
}

#[derive(Default, Clone)]
pub(crate) struct Indexes {
    pub tags: FxHashMap<NameId, BTreeSet<Id>>,
    pub handles: FxHashMap<NameId, Id>,
    pub persistent: FxHashMap<PersistentId, Id>,
    pub families: [FamilyMembers; ALL_FAMILIES.len()],
    /// Position of a slot's node in its family list, `u32::MAX` when not a member.
    pub family_pos: Vec<u32>,
    pub refs: FxHashMap<Id, SmallVec<[(Id, RefField); 2]>>,
}

impl Indexes {
    pub fn ensure_slot(&mut self, slot: Slot) {
        if self.family_pos.len() <= slot.index() {
            self.family_pos.resize(slot.index() + 1, u32::MAX);
        }
    }

    /// Makes room for slots up to `end` at once (a batch), so `ensure_slot` page by page
    /// does not regrow (and copy) the positions step by step.
    pub fn reserve_slots(&mut self, end: usize) {
        self.family_pos.reserve(end.saturating_sub(self.family_pos.len()));
    }

    /// Adds `id` (in `slot`) to `family`'s world member list.
    pub fn family_insert(&mut self, family: Family, id: Id, slot: Slot) {
        if self.family_pos[slot.index()] != u32::MAX {
            return;
        }
        let members = &mut self.families[family.index()];
        self.family_pos[slot.index()] = members.list.len() as u32;
        members.list.push(id);
        members.cache = OnceLock::new();
    }

    /// Removes `id` (in `slot`) from `family`; `slot_of` finds the slot of the member swapped
    /// into its place.
    pub fn family_remove(&mut self, family: Family, slot: Slot, slot_of: impl Fn(Id) -> Option<Slot>) {
        let pos = self.family_pos[slot.index()];
        if pos == u32::MAX {
            return;
        }
        self.family_pos[slot.index()] = u32::MAX;
        let members = &mut self.families[family.index()];
        members.list.swap_remove(pos as usize);
        if let Some(&moved) = members.list.get(pos as usize)
            && let Some(moved_slot) = slot_of(moved)
        {
            self.family_pos[moved_slot.index()] = pos;
        }
        members.cache = OnceLock::new();
    }

    /// The shared member list of `family`, rebuilt only after membership changed.
    pub fn family_list(&self, family: Family) -> Arc<[Id]> {
        let members = &self.families[family.index()];
        members.cache.get_or_init(|| Arc::from(members.list.as_slice())).clone()
    }

    pub fn tag_insert(&mut self, tag: NameId, id: Id) {
        self.tags.entry(tag).or_default().insert(id);
    }

    pub fn tag_remove(&mut self, tag: NameId, id: Id) {
        if let Some(set) = self.tags.get_mut(&tag) {
            set.remove(&id);
            if set.is_empty() {
                self.tags.remove(&tag);
            }
        }
    }

    pub fn ref_insert(&mut self, target: Id, holder: Id, field: RefField) {
        let list = self.refs.entry(target).or_default();
        if !list.contains(&(holder, field)) {
            list.push((holder, field));
        }
    }

    pub fn ref_remove(&mut self, target: Id, holder: Id, field: RefField) {
        if let Some(list) = self.refs.get_mut(&target) {
            list.retain(|e| *e != (holder, field));
            if list.is_empty() {
                self.refs.remove(&target);
            }
        }
    }
}
