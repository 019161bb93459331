//! [`PageTable`]: the two-level copy-on-write table of node pages.
//!
//! The top level is a short vector of `Arc<Directory>`; each directory holds up to
//! [`DIR_SIZE`] `Arc<NodePage>`s. Cloning the table (a snapshot) copies only the top level —
//! about 62 pointers for a million nodes. The first write to a shared page copies one
//! directory (its pointers) and the page; later writes to the same page copy nothing.
//!
//! Invariant: every directory but the last is full, and slot `s` lives in directory
//! `s / (DIR_SIZE * PAGE_SIZE)`, page `(s / PAGE_SIZE) % DIR_SIZE`, index `s % PAGE_SIZE`.

use crate::page::{NodePage, PAGE_SHIFT, PAGE_SIZE};
use std::sync::Arc;

/// log2 of pages per directory.
pub const DIR_SHIFT: u32 = 8;
/// Pages per directory.
pub const DIR_SIZE: usize = 1 << DIR_SHIFT;

#[derive(Clone, Default)]
pub(crate) struct Directory {
    pub pages: Vec<Arc<NodePage>>,
}

/// Node pages behind two levels of `Arc`.
#[derive(Clone, Default)]
pub(crate) struct PageTable {
    pub dirs: Vec<Arc<Directory>>,
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
        if self.pages.is_multiple_of(DIR_SIZE) {
            self.dirs.push(Arc::new(Directory { pages: Vec::with_capacity(DIR_SIZE) }));
        }
        let dir = Arc::make_mut(self.dirs.last_mut().expect("directory just ensured"));
        dir.pages.push(Arc::new(NodePage::new()));
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
        let dir = Arc::make_mut(&mut self.dirs[d]);
        (Arc::make_mut(&mut dir.pages[p]), i)
    }

    /// Page `index` (for whole-table walks).
    #[inline]
    pub fn page_at(&self, index: usize) -> &Arc<NodePage> {
        &self.dirs[index >> DIR_SHIFT].pages[index & (DIR_SIZE - 1)]
    }

    /// Directory `index`.
    pub fn dir_at(&self, index: usize) -> Option<&Arc<Directory>> {
        self.dirs.get(index)
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
        t.page_mut(slot).0.ids[5] = Id(9);
        assert_eq!(t.page(slot).unwrap().0.ids[5], Id(9));
        assert_eq!(snap.page(slot).unwrap().0.ids[5], Id::NONE);
        // Directory 0 and every other page of directory 1 are still shared.
        assert!(Arc::ptr_eq(&t.dirs[0], &snap.dirs[0]));
        assert!(!Arc::ptr_eq(&t.dirs[1], &snap.dirs[1]));
        assert!(Arc::ptr_eq(t.page_at(DIR_SIZE + 1), snap.page_at(DIR_SIZE + 1)));
        assert!(!Arc::ptr_eq(t.page_at(DIR_SIZE), snap.page_at(DIR_SIZE)));
    }
}
