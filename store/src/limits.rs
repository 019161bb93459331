//! The limits every store shares, in one place so the rules (`key`), the value format
//! (`format`) and the errors (`error`) name the same numbers without depending on each other.
//! The user guide states them (`docs/stores.md`, the introduction and "Local stores").

/// Most characters of a string key or a store name.
pub const MAX_KEY_CHARS: usize = 50;

/// Largest magnitude of an integer key: 2^53.
pub const MAX_INT_KEY: i64 = 1 << 53;

/// Deepest nesting of tables in a value (the value is level 1).
pub const MAX_DEPTH: usize = 8;

/// Stores a place may open ([`StoreError::TooManyStores`](crate::StoreError::TooManyStores)).
pub const MAX_STORES: usize = 8;
