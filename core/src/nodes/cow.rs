//! [`CowVec`]: a vector of copy-on-write items behind `Arc` that knows, without touching any
//! reference count, which of its items it already owns.
//!
//! Cloning the vector (a snapshot) shares every item; writing an item copies it first if a
//! clone still shares it. `Arc::make_mut` proves uniqueness with an atomic compare-exchange on
//! every call, which dominated row moves and chunk passes (figures: `docs/perf/place-tree.md`).
//! `CowVec` remembers, per item, the *epoch* in which this vector
//! last proved the item unique, and skips the check while the epoch still matches.
//!
//! Invariant (what makes [`CowVec::make_mut`] sound): if `tags[i] == epoch`, then `items[i]`
//! is the only `Arc` (strong or weak) pointing at its allocation. It is kept because:
//! - epochs are minted from one global counter and never reused;
//! - a tag is set to the current epoch only for an item created here, or right after
//!   `Arc::make_mut` made it unique;
//! - the only way to obtain a second `Arc` to an item is `Clone for CowVec`, which first gives
//!   the original a fresh epoch and gives the copy another, so no tag matches on either side;
//! - no `Arc` is ever handed out: readers get `&T`, identity checks go through
//!   [`CowVec::shares`].

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

static NEXT_EPOCH: AtomicU64 = AtomicU64::new(1);

fn mint_epoch() -> u64 {
    NEXT_EPOCH.fetch_add(1, Ordering::Relaxed)
}

/// Copy-on-write items behind `Arc`, with per-item ownership tags (see the module docs).
pub(crate) struct CowVec<T> {
    items: Vec<Arc<T>>,
    /// Per item: the epoch in which this vector made it unique (0: unknown).
    tags: Vec<u64>,
    /// Changes on every clone, on both sides; only read through `&mut self` otherwise.
    epoch: AtomicU64,
}

impl<T> Default for CowVec<T> {
    fn default() -> Self {
        Self { items: Vec::new(), tags: Vec::new(), epoch: AtomicU64::new(mint_epoch()) }
    }
}

impl<T> Clone for CowVec<T> {
    fn clone(&self) -> Self {
        // The original stops trusting its tags before any item gains a second `Arc`.
        self.epoch.store(mint_epoch(), Ordering::Relaxed);
        Self { items: self.items.clone(), tags: self.tags.clone(), epoch: AtomicU64::new(mint_epoch()) }
    }
}

impl<T: std::fmt::Debug> std::fmt::Debug for CowVec<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.items.iter()).finish()
    }
}

impl<T> std::ops::Index<usize> for CowVec<T> {
    type Output = T;

    #[inline]
    fn index(&self, i: usize) -> &T {
        &self.items[i]
    }
}

impl<T> CowVec<T> {
    /// Number of items.
    #[inline]
    pub fn len(&self) -> usize {
        self.items.len()
    }

    /// Item `i`, if present.
    #[inline]
    pub fn get(&self, i: usize) -> Option<&T> {
        self.items.get(i).map(|a| &**a)
    }

    /// The items in order.
    #[inline]
    pub fn iter(&self) -> impl ExactSizeIterator<Item = &T> + '_ {
        self.items.iter().map(|a| &**a)
    }

    /// The items' `Arc`s in order, for readers that index them directly (the `Arc`s must
    /// never be cloned: see the module invariant).
    #[inline]
    pub fn arcs(&self) -> &[Arc<T>] {
        &self.items
    }

    /// Appends an item (owned by this vector).
    #[inline]
    pub fn push(&mut self, item: T) {
        self.items.push(Arc::new(item));
        self.tags.push(*self.epoch.get_mut());
    }

    /// Appends an item already behind its own `Arc` (built in place), which must be the only
    /// pointer to its allocation.
    #[inline]
    pub fn push_unique(&mut self, mut item: Arc<T>) {
        // Keeps the module invariant: the new tag matches the epoch, so the item must be unique.
        assert!(Arc::get_mut(&mut item).is_some(), "a pushed Arc must be unique");
        self.items.push(item);
        self.tags.push(*self.epoch.get_mut());
    }

    /// Removes the last item and returns it if no clone shares it (for reuse of its
    /// allocations).
    #[inline]
    pub fn pop_owned(&mut self) -> Option<T> {
        self.tags.pop();
        Arc::into_inner(self.items.pop()?)
    }

    /// Whether item `i` of `self` and of `other` are the same allocation (shared by a clone).
    #[inline]
    pub fn shares(&self, other: &Self, i: usize) -> bool {
        matches!((self.items.get(i), other.items.get(i)), (Some(a), Some(b)) if Arc::ptr_eq(a, b))
    }

    /// Heap bytes of the item pointers and tags.
    pub fn pointer_bytes(&self) -> usize {
        self.items.capacity() * std::mem::size_of::<Arc<T>>() + self.tags.capacity() * 8
    }
}

impl<T: Clone> CowVec<T> {
    /// Item `i`, made private to this vector (copied if a clone shares it).
    #[inline(always)]
    pub fn make_mut(&mut self, i: usize) -> &mut T {
        let epoch = *self.epoch.get_mut();
        debug_assert_eq!(self.items.len(), self.tags.len());
        let tag = &mut self.tags[i];
        // SAFETY: `items` and `tags` always have the same length (every push and pop touches
        // both, clones copy both), and `tags[i]` exists.
        let item = unsafe { self.items.get_unchecked_mut(i) };
        own(item, tag, epoch)
    }

    /// Item `i` made private to this vector if `want` accepts it (left shared otherwise).
    #[inline(always)]
    pub fn make_mut_if(&mut self, i: usize, want: impl FnOnce(&T) -> bool) -> Option<&mut T> {
        let epoch = *self.epoch.get_mut();
        let item = &mut self.items[i];
        if !want(item) {
            return None;
        }
        // SAFETY: `items` and `tags` always have the same length (see `make_mut`), and
        // `items[i]` exists.
        let tag = unsafe { self.tags.get_unchecked_mut(i) };
        Some(own(item, tag, epoch))
    }

    /// Item `i`, made private to this vector (copied if a clone shares it), with no bounds
    /// check (for chunk passes, which know the item exists).
    ///
    /// # Safety
    ///
    /// `i < self.len()`.
    #[inline(always)]
    pub unsafe fn make_mut_unchecked(&mut self, i: usize) -> &mut T {
        let epoch = *self.epoch.get_mut();
        debug_assert!(i < self.items.len() && self.items.len() == self.tags.len());
        // SAFETY: `i < len` (the caller's contract), and `items` and `tags` always have the
        // same length (see `make_mut`).
        let (item, tag) = unsafe { (self.items.get_unchecked_mut(i), self.tags.get_unchecked_mut(i)) };
        own(item, tag, epoch)
    }

    /// Item `i` for writing if this vector already owns it (its tag is current), `None`
    /// otherwise (shared or not yet proven unique: [`make_mut`](Self::make_mut) then copies
    /// or adopts it). Touches no reference count and changes nothing.
    ///
    /// # Safety
    ///
    /// `i < self.len()`.
    #[inline(always)]
    pub unsafe fn owned_mut_unchecked(&mut self, i: usize) -> Option<&mut T> {
        let epoch = *self.epoch.get_mut();
        debug_assert!(i < self.items.len() && self.items.len() == self.tags.len());
        // SAFETY: `i < len` (the caller's contract), and `items` and `tags` always have the
        // same length (see `make_mut`).
        let (item, tag) = unsafe { (self.items.get_unchecked_mut(i), *self.tags.get_unchecked(i)) };
        // SAFETY: `tag == epoch` means this `Arc` is the only pointer to its allocation (the
        // module invariant, as in `own`), and we hold `&mut` to it.
        (tag == epoch).then(|| unsafe { &mut *Arc::as_ptr(item).cast_mut() })
    }

    /// Items `a` and `b` both made private, at once (`a != b`).
    pub fn make_mut_pair(&mut self, a: usize, b: usize) -> (&mut T, &mut T) {
        assert_ne!(a, b, "one item cannot be borrowed twice");
        let epoch = *self.epoch.get_mut();
        let (lo, hi) = (a.min(b), a.max(b));
        let (items_head, items_tail) = self.items.split_at_mut(hi);
        let (tags_head, tags_tail) = self.tags.split_at_mut(hi);
        let low = own(&mut items_head[lo], &mut tags_head[lo], epoch);
        let high = own(&mut items_tail[0], &mut tags_tail[0], epoch);
        if a < b { (low, high) } else { (high, low) }
    }

    /// The items `keep` selects by index, each made private to this vector (the others are
    /// left shared).
    pub fn iter_mut_where<'a>(
        &'a mut self,
        keep: impl Fn(usize) -> bool + 'a,
    ) -> impl Iterator<Item = (usize, &'a mut T)> + 'a {
        let epoch = *self.epoch.get_mut();
        self.items
            .iter_mut()
            .zip(self.tags.iter_mut())
            .enumerate()
            .filter(move |(i, _)| keep(*i))
            .map(move |(i, (item, tag))| (i, own(item, tag, epoch)))
    }

    /// Every item, each made private to this vector.
    pub fn iter_mut(&mut self) -> impl Iterator<Item = &mut T> + '_ {
        let epoch = *self.epoch.get_mut();
        self.items.iter_mut().zip(self.tags.iter_mut()).map(move |(item, tag)| own(item, tag, epoch))
    }
}

/// `item` made unique, trusting `tag == epoch` instead of the reference counts.
#[inline(always)]
fn own<'a, T: Clone>(item: &'a mut Arc<T>, tag: &mut u64, epoch: u64) -> &'a mut T {
    if *tag == epoch {
        // SAFETY: `tag == epoch` means this `Arc` is the only pointer to its allocation (the
        // module invariant: tags match only after creation here or `Arc::make_mut`, and every
        // clone re-mints the epochs on both sides). We hold `&mut` to that only `Arc`, so no
        // other reference to the value can exist for the returned lifetime — exactly what
        // `Arc::get_mut` would have checked.
        unsafe { &mut *Arc::as_ptr(item).cast_mut() }
    } else {
        adopt(item, tag, epoch)
    }
}

/// The slow path of [`own`]: proves (or makes) `item` unique and tags it, out of line so
/// the tag check inlines into every caller.
#[cold]
#[inline(never)]
fn adopt<'a, T: Clone>(item: &'a mut Arc<T>, tag: &mut u64, epoch: u64) -> &'a mut T {
    *tag = epoch;
    Arc::make_mut(item)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clones_share_until_written_on_either_side() {
        let mut a: CowVec<Vec<u32>> = CowVec::default();
        a.push(vec![1]);
        a.push(vec![2]);
        a.make_mut(0).push(10);
        let mut b = a.clone();
        assert!(a.shares(&b, 0) && a.shares(&b, 1));
        a.make_mut(0).push(11);
        assert_eq!((&a[0][..], &b[0][..]), (&[1, 10, 11][..], &[1, 10][..]));
        assert!(!a.shares(&b, 0) && a.shares(&b, 1));
        // The copy writes item 1 while the original still shares it.
        b.make_mut(1).push(20);
        assert_eq!((&a[1][..], &b[1][..]), (&[2][..], &[2, 20][..]));
        // A second clone of an already written vector: the original must copy again.
        let c = a.clone();
        a.make_mut(0).push(12);
        assert_eq!(&c[0][..], &[1, 10, 11]);
        assert_eq!(&a[0][..], &[1, 10, 11, 12]);
    }

    #[test]
    fn unchecked_make_mut_copies_shared_items_and_drops_cleanly() {
        let mut a: CowVec<Vec<u32>> = CowVec::default();
        a.push(vec![1]);
        a.push(vec![2]);
        // SAFETY: both items exist.
        unsafe { a.make_mut_unchecked(1).push(3) };
        let snap = a.clone();
        // SAFETY: item 1 exists; the snapshot shares it, so it must be copied.
        unsafe { a.make_mut_unchecked(1).push(4) };
        assert_eq!((&a[1][..], &snap[1][..]), (&[2, 3, 4][..], &[2, 3][..]));
        assert!(!a.shares(&snap, 1) && a.shares(&snap, 0));
        drop(snap);
        // Owned again after the snapshot is gone (adopted without a copy).
        // SAFETY: item 0 exists.
        unsafe { a.make_mut_unchecked(0).push(5) };
        assert_eq!(&a[0][..], &[1, 5]);
    }

    #[test]
    fn owned_items_are_lent_and_shared_ones_are_not() {
        fn owned(a: &mut CowVec<Vec<u32>>) -> Option<&mut Vec<u32>> {
            assert_eq!(a.len(), 1);
            // SAFETY: item 0 exists (asserted above).
            unsafe { a.owned_mut_unchecked(0) }
        }
        let mut a: CowVec<Vec<u32>> = CowVec::default();
        a.push(vec![1]);
        owned(&mut a).expect("created here: owned").push(2);
        let snap = a.clone();
        assert!(owned(&mut a).is_none(), "shared with a snapshot");
        a.make_mut(0).push(3);
        owned(&mut a).expect("copied: owned").push(4);
        assert_eq!((&a[0][..], &snap[0][..]), (&[1, 2, 3, 4][..], &[1, 2][..]));
        drop(snap);
        drop(a.clone());
        // Not proven unique since the clone: not lent until `make_mut` adopts it.
        assert!(owned(&mut a).is_none());
        a.make_mut(0).push(5);
        assert_eq!(owned(&mut a).map(|v| v.len()), Some(5));
    }

    #[test]
    fn dropped_clones_let_the_owner_adopt_items_again() {
        let mut a: CowVec<u64> = CowVec::default();
        a.push(1);
        drop(a.clone());
        *a.make_mut(0) = 2;
        *a.make_mut(0) = 3;
        assert_eq!(a[0], 3);
        for x in a.iter_mut() {
            *x += 1;
        }
        assert_eq!(a.iter().copied().collect::<Vec<_>>(), vec![4]);
    }

    #[test]
    fn pushed_unique_arcs_are_owned() {
        let mut a: CowVec<u64> = CowVec::default();
        a.push_unique(Arc::new(1));
        *a.make_mut(0) = 2;
        let b = a.clone();
        *a.make_mut(0) = 3;
        assert_eq!((a[0], b[0]), (3, 2));
    }

    #[test]
    #[should_panic(expected = "unique")]
    fn a_shared_arc_is_refused() {
        let mut a: CowVec<u64> = CowVec::default();
        let item = Arc::new(1);
        let _keep = item.clone();
        a.push_unique(item);
    }
}
