//! [`PageTable`]: the two-level copy-on-write table of node pages.
//!
//! The top level is a short [`CowVec`] of directories; each directory holds up to
//! [`DIR_SIZE`] pages in a `CowVec` of its own, so writes to pages this table already owns
//! skip the reference-count check. Cloning the table (a snapshot) copies only the top level —
//! about 62 pointers for a million nodes. The first write to a shared page copies one
//! directory (its pointers) and the page; later writes to the same page copy nothing.
//!
//! Invariant: every directory but the last is full, and slot `s` lives in directory
//! `s / (DIR_SIZE * PAGE_SIZE)`, page `(s / PAGE_SIZE) % DIR_SIZE`, index `s % PAGE_SIZE`.

use crate::nodes::cow::CowVec;
use crate::nodes::page::{NodePage, PAGE_SHIFT, PAGE_SIZE};

/// log2 of pages per directory.
pub const DIR_SHIFT: u32 = 8;
/// Pages per directory.
pub const DIR_SIZE: usize = 1 << DIR_SHIFT;

#[derive(Clone, Default)]
pub(crate) struct Directory {
    pub pages: CowVec<NodePage>,
}

/// Node pages behind two levels of `Arc`.
#[derive(Clone, Default)]
pub(crate) struct PageTable {
    dirs: CowVec<Directory>,
    /// Number of pages in the table.
    pages: usize,
}

#[inline]
fn split(slot: u32) -> (usize, usize, usize) {
    let page = (slot >> PAGE_SHIFT) as usize;
    (page >> DIR_SHIFT, page & (DIR_SIZE - 1), slot as usize & (PAGE_SIZE - 1))
}

impl PageTable {
    /// Number of slots the table can hold without growing.
    #[inline]
    pub fn capacity(&self) -> usize {
        self.pages * PAGE_SIZE
    }

    /// Number of pages.
    pub fn page_count(&self) -> usize {
        self.pages
    }

    /// Appends one empty page.
    pub fn grow(&mut self) {
        self.push_page(NodePage::new_shared());
    }

    /// Appends `page`, built in place and pointed at by nothing else.
    pub fn push_page(&mut self, page: std::sync::Arc<NodePage>) {
        if self.pages.is_multiple_of(DIR_SIZE) {
            self.dirs.push(Directory::default());
        }
        let last = self.dirs.len() - 1;
        self.dirs.make_mut(last).pages.push_unique(page);
        self.pages += 1;
    }

    /// The page holding `slot` and the index inside it.
    #[inline]
    pub fn page(&self, slot: u32) -> Option<(&NodePage, usize)> {
        let (d, p, i) = split(slot);
        let page = self.dirs.get(d)?.pages.get(p)?;
        Some((page, i))
    }

    /// The page holding `slot`, made private to this table (copying it if shared).
    #[inline]
    pub fn page_mut(&mut self, slot: u32) -> (&mut NodePage, usize) {
        let (d, p, i) = split(slot);
        (self.dirs.make_mut(d).pages.make_mut(p), i)
    }

    /// Page `index` (for whole-table walks).
    #[inline]
    pub fn page_at(&self, index: usize) -> &NodePage {
        &self.dirs[index >> DIR_SHIFT].pages[index & (DIR_SIZE - 1)]
    }

    /// Each directory's pages, in order (every directory but the last holds [`DIR_SIZE`]).
    pub fn directories(&self) -> impl Iterator<Item = &[std::sync::Arc<NodePage>]> + '_ {
        self.dirs.iter().map(|d| d.pages.arcs())
    }

    /// Whether directory `index` is the same allocation in `self` and `other`.
    pub fn shares_dir(&self, other: &PageTable, index: usize) -> bool {
        self.dirs.shares(&other.dirs, index)
    }

    /// Whether page `index` is the same allocation in `self` and `other`.
    pub fn shares_page(&self, other: &PageTable, index: usize) -> bool {
        let d = index >> DIR_SHIFT;
        match (self.dirs.get(d), other.dirs.get(d)) {
            (Some(a), Some(b)) => a.pages.shares(&b.pages, index & (DIR_SIZE - 1)),
            _ => false,
        }
    }

    /// Bytes of the top level (what a clone copies).
    pub fn top_bytes(&self) -> usize {
        self.dirs.pointer_bytes()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::id::Id;

    #[test]
    fn clone_shares_pages_until_written() {
        let mut t = PageTable::default();
        for _ in 0..(DIR_SIZE + 3) {
            t.grow();
        }
        assert_eq!(t.dirs.len(), 2);
        assert_eq!(t.capacity(), (DIR_SIZE + 3) * PAGE_SIZE);
        let snap = t.clone();
        let slot = (DIR_SIZE * PAGE_SIZE + 5) as u32;
        t.page_mut(slot).0.hot[5].id = Id(9);
        assert_eq!(t.page(slot).unwrap().0.hot[5].id, Id(9));
        assert_eq!(snap.page(slot).unwrap().0.hot[5].id, Id::NONE);
        // Directory 0 and every other page of directory 1 are still shared.
        assert!(t.shares_dir(&snap, 0));
        assert!(!t.shares_dir(&snap, 1));
        assert!(t.shares_page(&snap, DIR_SIZE + 1));
        assert!(!t.shares_page(&snap, DIR_SIZE));
    }
}
