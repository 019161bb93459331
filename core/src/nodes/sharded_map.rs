//! [`ShardedMap`]: a copy-on-write hash map split into shards behind `Arc`.
//!
//! Cloning it (for a snapshot) copies 32 pointers; the first insert or removal after a clone
//! copies one shard, about 1/32 of the entries. Shards live in a [`CowVec`], so writes to a
//! shard this map already owns skip the reference-count check. Keys hash with a fixed multiplier, so the
//! layout (and any iteration order) is the same on every run.

use crate::nodes::cow::CowVec;
use rustc_hash::FxHashMap;
use std::hash::Hash;

const SHARDS: usize = 32;

/// Keys that pick their shard from a 64-bit value.
pub(crate) trait ShardKey: Copy + Eq + Hash {
    fn shard_bits(&self) -> u64;
}

impl ShardKey for crate::id::Id {
    #[inline]
    fn shard_bits(&self) -> u64 {
        self.0
    }
}

/// A sharded copy-on-write map.
#[derive(Clone)]
pub(crate) struct ShardedMap<K, V> {
    shards: CowVec<FxHashMap<K, V>>,
    len: usize,
}

impl<K, V> Default for ShardedMap<K, V> {
    fn default() -> Self {
        let mut shards = CowVec::default();
        for _ in 0..SHARDS {
            shards.push(FxHashMap::default());
        }
        Self { shards, len: 0 }
    }
}

impl<K: ShardKey, V: Copy> ShardedMap<K, V> {
    #[inline]
    fn shard(key: &K) -> usize {
        (key.shard_bits().wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 59) as usize % SHARDS
    }

    /// The value of `key`.
    #[inline]
    pub fn get(&self, key: K) -> Option<V> {
        if self.len == 0 {
            return None;
        }
        self.shards[Self::shard(&key)].get(&key).copied()
    }

    /// Inserts or replaces.
    #[inline]
    pub fn insert(&mut self, key: K, value: V) {
        if self.shards.make_mut(Self::shard(&key)).insert(key, value).is_none() {
            self.len += 1;
        }
    }

    /// Removes `key`, returning its value.
    pub fn remove(&mut self, key: K) -> Option<V> {
        self.get(key)?;
        let old = self.shards.make_mut(Self::shard(&key)).remove(&key);
        self.len -= 1;
        old
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Bytes a clone copies rather than shares: the shard pointers.
    pub fn top_bytes(&self) -> usize {
        self.shards.pointer_bytes()
    }

    /// Heap bytes of the shards' tables (an entry and its control byte per slot of capacity).
    pub fn heap_bytes(&self) -> usize {
        self.shards.iter().map(|m| m.capacity() * (std::mem::size_of::<(K, V)>() + 1)).sum::<usize>()
            + self.top_bytes()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::id::Id;

    #[test]
    fn clones_share_shards_until_written() {
        let mut a: ShardedMap<Id, u32> = ShardedMap::default();
        for i in 1..=1000 {
            a.insert(Id(i), i as u32);
        }
        let b = a.clone();
        a.insert(Id(5), 0);
        a.remove(Id(6));
        assert_eq!((a.get(Id(5)), b.get(Id(5))), (Some(0), Some(5)));
        assert_eq!((a.get(Id(6)), b.get(Id(6))), (None, Some(6)));
        assert_eq!((a.len(), b.len()), (999, 1000));
        let shared = (0..SHARDS).filter(|&i| a.shards.shares(&b.shards, i)).count();
        assert!(shared >= SHARDS - 2);
    }
}
