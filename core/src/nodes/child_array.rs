//! [`ChildArray`]: a node's ordered, contiguous child list.
//!
//! Removing a child leaves a hole instead of shifting the tail, and the array compacts when
//! holes pass half its length. Order is kept, iteration reads one contiguous buffer, and
//! emptying a folder of N children one at a time costs O(N) in total (each compaction
//! moves at most as many entries as were removed since the last one), where shifting would
//! cost O(N^2). The arena remembers each child's position so removal needs no scan.
//!
//! Invariants: `holes` equals the number of `Id::NONE` entries in `entries`; the last entry
//! is never a hole, so `entries` is empty exactly when no child is live (what the arena's
//! `NodeFlags::HAS_CHILDREN` records).

use crate::id::Id;

/// Ordered child ids with holes left by removals.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ChildArray {
    entries: Vec<Id>,
    holes: u32,
}

impl ChildArray {
    /// No children (the default), usable in constants.
    pub const EMPTY: ChildArray = ChildArray { entries: Vec::new(), holes: 0 };

    /// Appends `child` and returns its position.
    #[inline]
    pub fn push(&mut self, child: Id) -> u32 {
        let pos = self.entries.len() as u32;
        self.entries.push(child);
        pos
    }

    /// Removes the child at `pos` (which must hold `child`), leaving a hole.
    ///
    /// Returns `true` when the array compacted, so every remaining child's position changed.
    pub fn remove_at(&mut self, pos: u32, child: Id) -> bool {
        debug_assert_eq!(self.entries.get(pos as usize), Some(&child));
        self.entries[pos as usize] = Id::NONE;
        self.holes += 1;
        if pos as usize + 1 == self.entries.len() {
            // Trailing holes cost nothing to drop.
            while self.entries.last() == Some(&Id::NONE) {
                self.entries.pop();
                self.holes -= 1;
            }
            if self.entries.is_empty() {
                self.entries = Vec::new();
            }
            return false;
        }
        if self.holes as usize * 2 > self.entries.len() {
            self.entries.retain(|c| !c.is_none());
            self.holes = 0;
            return true;
        }
        debug_assert!(self.entries.last().is_some_and(|c| !c.is_none()), "a hole at the end");
        false
    }

    /// Inserts `child` so that `rank` live children come before it (undo puts a moved child
    /// back in its old place); `rank` past the live children appends. Returns the first
    /// position whose entry changed: every child from there on moved (the holes go first, so
    /// with holes that is 0) and the caller renumbers them.
    pub fn insert(&mut self, rank: usize, child: Id) -> u32 {
        let compacted = self.holes > 0;
        if compacted {
            self.entries.retain(|c| !c.is_none());
            self.holes = 0;
        }
        let at = rank.min(self.entries.len());
        self.entries.insert(at, child);
        if compacted { 0 } else { at as u32 }
    }

    /// Position of `child`, by scanning (for callers without a remembered position).
    pub fn position(&self, child: Id) -> Option<u32> {
        self.entries.iter().position(|&c| c == child).map(|p| p as u32)
    }

    /// Live children, in order.
    #[inline]
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = Id> + '_ {
        self.entries.iter().copied().filter(|c| !c.is_none())
    }

    /// The entries in order, holes included as [`Id::NONE`] (for passes that batch over
    /// the contiguous buffer and skip holes themselves).
    #[inline]
    pub fn as_slice(&self) -> &[Id] {
        &self.entries
    }

    /// How many live children come before position `pos`.
    pub fn rank_of(&self, pos: u32) -> usize {
        let end = (pos as usize).min(self.entries.len());
        if self.holes == 0 {
            return end;
        }
        end - self.entries[..end].iter().filter(|c| c.is_none()).count()
    }

    /// Live children with their positions, in order.
    pub fn iter_positions(&self) -> impl Iterator<Item = (u32, Id)> + '_ {
        self.entries.iter().enumerate().filter(|(_, c)| !c.is_none()).map(|(i, c)| (i as u32, *c))
    }

    /// Number of live children.
    #[inline]
    pub fn len(&self) -> usize {
        self.entries.len() - self.holes as usize
    }

    /// Whether there are no live children.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Heap bytes held.
    pub fn heap_bytes(&self) -> usize {
        self.entries.capacity() * std::mem::size_of::<Id>()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn removal_keeps_order_and_compacts() {
        let mut a = ChildArray::default();
        for i in 1..=6 {
            assert_eq!(a.push(Id(i)), (i - 1) as u32);
        }
        assert!(!a.remove_at(1, Id(2)));
        assert!(!a.remove_at(2, Id(3)));
        assert!(!a.remove_at(0, Id(1)), "three holes of six is not past half");
        assert_eq!(a.iter().collect::<Vec<_>>(), vec![Id(4), Id(5), Id(6)]);
        assert_eq!(a.position(Id(5)), Some(4));
        assert_eq!(a.as_slice(), &[Id::NONE, Id::NONE, Id::NONE, Id(4), Id(5), Id(6)], "holes show");
        assert!(a.remove_at(3, Id(4)), "four holes of six compacts");
        assert_eq!(a.iter().collect::<Vec<_>>(), vec![Id(5), Id(6)]);
        assert_eq!(a.iter_positions().collect::<Vec<_>>(), vec![(0, Id(5)), (1, Id(6))]);
    }

    #[test]
    fn trailing_removal_shrinks() {
        let mut a = ChildArray::default();
        a.push(Id(1));
        a.push(Id(2));
        assert!(!a.remove_at(1, Id(2)));
        assert!(!a.remove_at(0, Id(1)));
        assert!(a.is_empty());
        assert_eq!(a.heap_bytes(), 0);
    }

    #[test]
    fn insert_at_rank_skips_holes() {
        let mut a = ChildArray::default();
        for i in 1..=4 {
            a.push(Id(i));
        }
        assert!(!a.remove_at(1, Id(2)));
        assert_eq!(a.rank_of(2), 1, "one live child before position 2");
        assert_eq!(a.insert(1, Id(2)), 0, "holes compacted first: every position moved");
        assert_eq!(a.iter().collect::<Vec<_>>(), vec![Id(1), Id(2), Id(3), Id(4)]);
        assert_eq!(a.as_slice().len(), 4);
        assert_eq!((a.rank_of(3), a.insert(3, Id(9))), (3, 3), "without holes, from the rank on");
        assert!(!a.remove_at(3, Id(9)));
        assert_eq!(a.insert(99, Id(5)), 0, "the hole left by 9 went first");
        assert_eq!(a.iter().last(), Some(Id(5)), "past the end appends");
        assert_eq!(a.len(), 5);
    }

    proptest! {
        #[test]
        fn removed_children_go_back_at_their_rank(ops in prop::collection::vec(any::<(u8, u16)>(), 1..200)) {
            let mut a = ChildArray::default();
            let mut model: Vec<Id> = Vec::new();
            let mut next = 1u64;
            for (kind, pick) in ops {
                if kind % 3 == 0 || model.is_empty() {
                    a.push(Id(next));
                    model.push(Id(next));
                    next += 1;
                    continue;
                }
                let k = pick as usize % model.len();
                let victim = model.remove(k);
                let pos = a.position(victim).unwrap();
                prop_assert_eq!(a.rank_of(pos), k);
                a.remove_at(pos, victim);
                if kind % 3 == 2 {
                    let before = a.as_slice().to_vec();
                    let from = a.insert(k, victim) as usize;
                    model.insert(k, victim);
                    prop_assert_eq!(&a.as_slice()[..from], &before[..from], "nothing moved before `from`");
                }
                prop_assert_eq!(a.iter().collect::<Vec<_>>(), model.clone());
                prop_assert_eq!(a.len(), model.len());
            }
        }

        #[test]
        fn matches_a_vec_model(ops in prop::collection::vec(any::<(bool, u16)>(), 1..200)) {
            let mut a = ChildArray::default();
            let mut model: Vec<Id> = Vec::new();
            let mut positions: std::collections::HashMap<Id, u32> = Default::default();
            let mut next = 1u64;
            for (push, pick) in ops {
                if push || model.is_empty() {
                    let id = Id(next);
                    next += 1;
                    positions.insert(id, a.push(id));
                    model.push(id);
                } else {
                    let victim = model.remove(pick as usize % model.len());
                    let pos = positions.remove(&victim).unwrap();
                    if a.remove_at(pos, victim) {
                        for (p, c) in a.iter_positions() {
                            positions.insert(c, p);
                        }
                    }
                }
                prop_assert_eq!(a.iter().collect::<Vec<_>>(), model.clone());
                prop_assert_eq!(a.len(), model.len());
            }
        }
    }
}
