//! [`RowLocs`]: where each instance's component row is, indexed by id.
//!
//! Server ids are minted consecutively from 1, so locations sit in pages of 4,096 entries by
//! `id - 1`, kept in a [`CowVec`]: a lookup is two indexed loads with neighbouring ids on
//! neighbouring cache lines, and a snapshot copies one pointer per page. Ids outside the
//! dense range (client ids from 2^52, anything past 2^32) go to a sharded map. A page whose
//! last entry leaves drops its storage, so a long-running server that churns ids keeps only a
//! small header per 4,096 ids ever minted.
//!
//! Invariants: `len` counts present entries in both parts; a page's `count` counts its
//! present entries and its `locs` is empty exactly when `count == 0`; an absent dense entry
//! holds [`RowLocs::ABSENT`].

use super::indices::TableRow;
use crate::id::Id;
use crate::nodes::cow::CowVec;
use crate::nodes::sharded_map::ShardedMap;

const PAGE_BITS: u32 = 12;
const PAGE_LEN: usize = 1 << PAGE_BITS;
/// Ids `1..=DENSE_LIMIT` are stored in pages.
const DENSE_LIMIT: u64 = 1 << 32;

/// Where an instance's row is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct RowLoc {
    pub table: u32,
    pub row: u32,
}

impl RowLoc {
    /// The row in its table.
    #[inline(always)]
    pub fn table_row(self) -> TableRow {
        TableRow(self.row as usize)
    }
}

#[derive(Clone, Default)]
struct LocPage {
    count: u32,
    locs: Vec<RowLoc>,
}

/// Row locations by id.
#[derive(Clone, Default)]
pub(crate) struct RowLocs {
    pages: CowVec<LocPage>,
    overflow: ShardedMap<Id, RowLoc>,
    len: usize,
}

/// The page and index of a dense id, or `None` for ids kept in the overflow map.
#[inline]
fn dense(id: Id) -> Option<(usize, usize)> {
    let i = id.0.wrapping_sub(1);
    (i < DENSE_LIMIT).then_some(((i >> PAGE_BITS) as usize, i as usize & (PAGE_LEN - 1)))
}

impl RowLocs {
    /// The marker of an absent dense entry.
    const ABSENT: RowLoc = RowLoc { table: u32::MAX, row: u32::MAX };

    /// Where `id`'s row is.
    #[inline]
    pub fn get(&self, id: Id) -> Option<RowLoc> {
        match dense(id) {
            Some((p, i)) => {
                let loc = *self.pages.get(p)?.locs.get(i)?;
                (loc != Self::ABSENT).then_some(loc)
            }
            None => self.overflow.get(id),
        }
    }

    /// Records `id`'s row.
    #[inline]
    pub fn insert(&mut self, id: Id, loc: RowLoc) {
        debug_assert_ne!(loc, Self::ABSENT);
        let Some((p, i)) = dense(id) else {
            let had = self.overflow.get(id).is_some();
            self.overflow.insert(id, loc);
            self.len += usize::from(!had);
            return;
        };
        while self.pages.len() <= p {
            self.pages.push(LocPage::default());
        }
        let page = self.pages.make_mut(p);
        if page.locs.is_empty() {
            page.locs = vec![Self::ABSENT; PAGE_LEN];
        }
        if page.locs[i] == Self::ABSENT {
            page.count += 1;
            self.len += 1;
        }
        page.locs[i] = loc;
    }

    /// Moves `id`'s recorded row to `loc` (`id` must have one): no page to create, no count
    /// to update.
    #[inline]
    pub fn relocate(&mut self, id: Id, loc: RowLoc) {
        debug_assert!(self.get(id).is_some(), "relocating an id without a row");
        match dense(id) {
            Some((p, i)) => self.pages.make_mut(p).locs[i] = loc,
            None => self.overflow.insert(id, loc),
        }
    }

    /// Records rows `start..` of table `table` for `ids` in order (ids without rows yet),
    /// making each location page private once per run of ids on it.
    pub fn insert_run(&mut self, ids: &[Id], table: u32, start: usize) {
        let mut k = 0;
        while k < ids.len() {
            let Some((p, _)) = dense(ids[k]) else {
                self.insert(ids[k], RowLoc { table, row: (start + k) as u32 });
                k += 1;
                continue;
            };
            while self.pages.len() <= p {
                self.pages.push(LocPage::default());
            }
            let page = self.pages.make_mut(p);
            let run = k;
            if page.locs.is_empty() {
                // A new page, built in one pass: the consecutive ids from `ids[k]` on it are
                // written once, not over a filled page (any others go through the next turn).
                let mut locs = Vec::with_capacity(PAGE_LEN);
                let first = dense(ids[k]).map_or(0, |(_, i)| i);
                locs.resize(first, Self::ABSENT);
                // The run: the ids counting up by one from `ids[k]` to the page's end at most
                // (found first, so the entries are written by a loop of known length).
                let most = (PAGE_LEN - first).min(ids.len() - k);
                let base = ids[k].0;
                let consecutive =
                    ids[k..k + most].iter().zip(base..).take_while(|(id, want)| id.0 == *want).count();
                locs.extend((k..k + consecutive).map(|j| RowLoc { table, row: (start + j) as u32 }));
                k += consecutive;
                locs.resize(PAGE_LEN, Self::ABSENT);
                page.locs = locs;
                page.count += (k - run) as u32;
                self.len += k - run;
                continue;
            }
            // Every following id on the same page, written through the one private page (each
            // entry absent before: counted once for the run).
            while let Some(&id) = ids.get(k)
                && let Some((q, i)) = dense(id)
                && q == p
            {
                debug_assert_eq!(page.locs[i], Self::ABSENT, "an id given a second row");
                page.locs[i] = RowLoc { table, row: (start + k) as u32 };
                k += 1;
            }
            page.count += (k - run) as u32;
            self.len += k - run;
        }
    }

    /// Forgets `id`'s row, returning where it was.
    pub fn remove(&mut self, id: Id) -> Option<RowLoc> {
        let old = self.get(id)?;
        self.len -= 1;
        let Some((p, i)) = dense(id) else { return self.overflow.remove(id) };
        let page = self.pages.make_mut(p);
        page.locs[i] = Self::ABSENT;
        page.count -= 1;
        if page.count == 0 {
            page.locs = Vec::new();
        }
        Some(old)
    }

    /// Number of instances with a row.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Bytes a clone copies (the page pointers and their tags).
    pub fn top_bytes(&self) -> usize {
        self.pages.pointer_bytes()
    }

    /// Heap bytes held (pages shared with snapshots counted in full; overflow entries
    /// estimated at 24 bytes).
    pub fn heap_bytes(&self) -> usize {
        let pages: usize = self.pages.iter().map(|p| p.locs.capacity() * size_of::<RowLoc>()).sum();
        pages + self.pages.pointer_bytes() + self.overflow.len() * 24
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::id::CLIENT_ID_BASE;

    #[test]
    fn dense_and_overflow_ids_round_trip_and_empty_pages_free_their_storage() {
        let mut locs = RowLocs::default();
        let client = Id(CLIENT_ID_BASE + 3);
        for (n, id) in [Id(1), Id(5000), client].into_iter().enumerate() {
            locs.insert(id, RowLoc { table: n as u32, row: 7 });
        }
        locs.insert(Id(1), RowLoc { table: 9, row: 9 });
        assert_eq!(locs.len(), 3);
        assert_eq!(locs.get(Id(1)), Some(RowLoc { table: 9, row: 9 }));
        assert_eq!(locs.get(client), Some(RowLoc { table: 2, row: 7 }));
        assert_eq!((locs.get(Id(2)), locs.get(Id(1 << 40))), (None, None));
        let snap = locs.clone();
        assert_eq!(locs.remove(Id(5000)), Some(RowLoc { table: 1, row: 7 }));
        assert_eq!(locs.remove(Id(5000)), None);
        assert!(locs.pages[1].locs.is_empty(), "the emptied page dropped its storage");
        assert_eq!(snap.get(Id(5000)), Some(RowLoc { table: 1, row: 7 }), "the snapshot keeps it");
        assert_eq!(locs.remove(client), Some(RowLoc { table: 2, row: 7 }));
        assert_eq!((locs.len(), snap.len()), (1, 3));
    }

    #[test]
    fn runs_build_new_pages_once_and_fill_existing_ones() {
        let mut locs = RowLocs::default();
        locs.insert(Id(2), RowLoc { table: 0, row: 0 });
        let snap = locs.clone();
        // Page 0 exists; page 1 is new, entered mid-page, its run broken by a gap, a client id
        // and a step back; page 2 is new and runs to the end of the batch.
        let client = Id(CLIENT_ID_BASE + 1);
        let page = PAGE_LEN as u64;
        let ids: Vec<Id> = [3, 4, page + 10, page + 11, page + 13, page + 12]
            .into_iter()
            .map(Id)
            .chain([client])
            .chain((2 * page + 1..2 * page + 5).map(Id))
            .collect();
        locs.insert_run(&ids, 1, 100);
        assert_eq!(locs.len(), 1 + ids.len());
        for (k, &id) in ids.iter().enumerate() {
            assert_eq!(locs.get(id), Some(RowLoc { table: 1, row: 100 + k as u32 }), "id {id:?}");
        }
        assert_eq!((locs.pages[1].count, locs.pages[2].count), (4, 4));
        assert_eq!(locs.pages[1].locs.len(), PAGE_LEN);
        assert_eq!(
            (locs.get(Id(page + 9)), locs.get(Id(page + 14)), locs.get(Id(2 * page + 5))),
            (None, None, None)
        );
        assert_eq!((snap.get(Id(3)), snap.len()), (None, 1));
    }
}
