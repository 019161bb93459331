//! Interned names: [`NameId`] and the [`NamePool`].
//!
//! Invariants: a string is interned at most once, so two names are equal exactly when their
//! ids are; ids are dense and never change meaning. Every instance name is interned on
//! assignment, so a lookup that misses the pool proves no instance carries that name.

use rustc_hash::FxHashMap;
use std::sync::Arc;

/// Most bytes of an instance name.
pub const MAX_NAME_BYTES: usize = 1024;

/// Why a text cannot be an instance name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NameError {
    /// It holds a NUL character (which paths, logs and C callers cannot carry).
    #[error("a name cannot contain a NUL character")]
    Nul,
    /// It is longer than [`MAX_NAME_BYTES`].
    #[error("a name is at most 1024 bytes long")]
    TooLong,
}

/// Checks that `text` can be an instance name (the empty name can).
pub fn check_name(text: &str) -> Result<(), NameError> {
    if text.len() > MAX_NAME_BYTES {
        Err(NameError::TooLong)
    } else if text.contains('\0') {
        Err(NameError::Nul)
    } else {
        Ok(())
    }
}

/// A 32-bit interned name.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Default)]
pub struct NameId(pub u32);

/// The world's string pool.
#[derive(Clone, Default, Debug)]
pub struct NamePool {
    by_text: FxHashMap<Arc<str>, NameId>,
    texts: Vec<Arc<str>>,
    /// Bytes the pool holds: every text and [`NAME_OVERHEAD`] per name.
    bytes: usize,
}

/// Bytes a name costs the pool beyond its text (its `Arc`, its list and map entries).
pub const NAME_OVERHEAD: usize = 48;

impl NamePool {
    /// An empty pool whose `NameId(0)` is the empty string.
    pub fn new() -> Self {
        let mut pool = Self::default();
        pool.intern("");
        pool
    }

    /// The id for `text`, interning it if new.
    pub fn intern(&mut self, text: &str) -> NameId {
        if let Some(&id) = self.by_text.get(text) {
            return id;
        }
        let id = NameId(u32::try_from(self.texts.len()).expect("more than 2^32 distinct names"));
        let text: Arc<str> = Arc::from(text);
        self.bytes += text.len() + NAME_OVERHEAD;
        self.texts.push(text.clone());
        self.by_text.insert(text, id);
        id
    }

    /// The id for `text` if it was ever interned; hashes once and reads no instance.
    #[inline]
    pub fn find(&self, text: &str) -> Option<NameId> {
        self.by_text.get(text).copied()
    }

    /// The text of `id`.
    ///
    /// # Panics
    /// If `id` did not come from this pool.
    #[inline]
    pub fn text(&self, id: NameId) -> &str {
        &self.texts[id.0 as usize]
    }

    /// The shared text of `id`, if it came from this pool.
    pub fn shared_text(&self, id: NameId) -> Option<&Arc<str>> {
        self.texts.get(id.0 as usize)
    }

    /// Bytes the pool holds (texts and per-name overhead); the pool never frees a name.
    pub fn text_bytes(&self) -> usize {
        self.bytes
    }

    /// How many distinct names are interned.
    pub fn len(&self) -> usize {
        self.texts.len()
    }

    /// Whether the pool is empty (never true after [`NamePool::new`]).
    pub fn is_empty(&self) -> bool {
        self.texts.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn interning_is_idempotent_and_find_misses_unknown_names() {
        let mut pool = NamePool::new();
        let a = pool.intern("Door");
        assert_eq!(pool.intern("Door"), a);
        assert_ne!(pool.intern("Wall"), a);
        assert_eq!(pool.find("Door"), Some(a));
        assert_eq!(pool.find("Window"), None);
        assert_eq!(pool.text(a), "Door");
        assert_eq!(pool.find(""), Some(NameId(0)));
    }
}
