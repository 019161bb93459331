//! Runtime identity: [`Id`], physical [`Slot`]s and the [`IdAllocator`].
//!
//! Invariants:
//! - An id is never handed out twice in a session by one allocator (a rolled-back batch
//!   returns ids that nobody outside the batch ever saw, see [`IdAllocator::rewind`]).
//! - Server ids count up from 1; client-local ids count up from [`CLIENT_ID_BASE`] (2^52, so
//!   every id stays exact as a Luau number, an `f64`); the two ranges never meet.
//! - `Id(0)` is never allocated; it marks an empty slot or an absent reference.

use std::fmt;

/// First client-local id: 2^52. Ids below it are minted by the server.
///
/// Not higher: scripts see ids as `f64`, exact only below 2^53, so every id, server or client,
/// must stay below that (`docs/architecture.md`, "`arbor-core`", invariants: **Ids**).
pub const CLIENT_ID_BASE: u64 = 1 << 52;

/// Last id a client may mint: ids must stay exact as `f64`.
pub const CLIENT_ID_LIMIT: u64 = (1 << 53) - 1;

/// A 64-bit runtime id, also the id on the wire. Never reused within a session.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default, bytemuck::Pod, bytemuck::Zeroable)]
#[repr(transparent)]
pub struct Id(pub u64);

impl Id {
    /// The empty id: no instance ever has it.
    pub const NONE: Id = Id(0);

    /// Whether this is [`Id::NONE`].
    #[inline]
    pub fn is_none(self) -> bool {
        self.0 == 0
    }

    /// Whether the id was minted by a client (at or above [`CLIENT_ID_BASE`]).
    #[inline]
    pub fn is_client_local(self) -> bool {
        self.0 >= CLIENT_ID_BASE
    }

    /// The slot this id occupies in the contiguous case (`id - 1`).
    #[inline]
    pub(crate) fn direct_slot(self) -> Option<Slot> {
        u32::try_from(self.0.wrapping_sub(1)).ok().map(Slot)
    }
}

impl fmt::Debug for Id {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#{}", self.0)
    }
}

impl fmt::Display for Id {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// A physical storage position in the node pages. Slots are reused after reclamation; ids
/// are not.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Slot(pub u32);

impl Slot {
    /// The slot as an index.
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// Which id range an arena mints from.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum IdRange {
    /// Server ids: 1, 2, 3, ...
    Server,
    /// Client-local ids: 2^52, 2^52 + 1, ... (never sent over the network).
    ClientLocal,
}

/// Hands out ids from one range, in increasing order.
#[derive(Clone, Debug)]
pub struct IdAllocator {
    next: u64,
    limit: u64,
}

impl IdAllocator {
    /// A fresh allocator for `range`.
    pub fn new(range: IdRange) -> Self {
        match range {
            IdRange::Server => Self { next: 1, limit: CLIENT_ID_BASE - 1 },
            IdRange::ClientLocal => Self { next: CLIENT_ID_BASE, limit: CLIENT_ID_LIMIT },
        }
    }

    /// The next id, or `None` once the range is exhausted.
    #[inline]
    pub fn allocate(&mut self) -> Option<Id> {
        if self.next > self.limit {
            return None;
        }
        let id = Id(self.next);
        self.next += 1;
        Some(id)
    }

    /// Reserves `count` consecutive ids and returns the first, or `None` if they do not fit.
    pub fn reserve(&mut self, count: u64) -> Option<Id> {
        let end = self.next.checked_add(count)?;
        if end.saturating_sub(1) > self.limit {
            return None;
        }
        let first = Id(self.next);
        self.next = end;
        Some(first)
    }

    /// The id the next call to [`allocate`](Self::allocate) would return.
    pub fn peek(&self) -> u64 {
        self.next
    }

    /// Makes sure an explicitly inserted id (a replica mirroring the server) is never minted
    /// again by this allocator.
    pub fn observe(&mut self, id: Id) {
        if id.0 >= self.next && id.0 <= self.limit {
            self.next = id.0 + 1;
        }
    }

    /// Rolls the counter back to `next`, returning the ids of a failed batch.
    ///
    /// Only ids that were never visible outside the batch may be returned this way.
    pub(crate) fn rewind(&mut self, next: u64) {
        debug_assert!(next <= self.next);
        self.next = next;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn server_ids_count_from_one() {
        let mut a = IdAllocator::new(IdRange::Server);
        assert_eq!(a.allocate(), Some(Id(1)));
        assert_eq!(a.allocate(), Some(Id(2)));
        assert_eq!(a.reserve(10), Some(Id(3)));
        assert_eq!(a.allocate(), Some(Id(13)));
    }

    #[test]
    fn client_ids_start_at_2_pow_52_and_stay_exact_as_f64() {
        let mut a = IdAllocator::new(IdRange::ClientLocal);
        let id = a.allocate().unwrap();
        assert_eq!(id.0, 1 << 52);
        assert!(id.is_client_local());
        assert_eq!((id.0 as f64) as u64, id.0);
        a.next = CLIENT_ID_LIMIT;
        assert_eq!(a.allocate(), Some(Id(CLIENT_ID_LIMIT)));
        assert_eq!(a.allocate(), None);
    }

    #[test]
    fn observe_skips_explicit_ids() {
        let mut a = IdAllocator::new(IdRange::Server);
        a.observe(Id(40));
        assert_eq!(a.allocate(), Some(Id(41)));
        a.observe(Id(5));
        assert_eq!(a.allocate(), Some(Id(42)));
    }

    #[test]
    fn direct_slot_is_id_minus_one() {
        assert_eq!(Id(1).direct_slot(), Some(Slot(0)));
        assert_eq!(Id(0).direct_slot(), None);
        assert_eq!(Id(CLIENT_ID_BASE).direct_slot(), None);
    }
}
