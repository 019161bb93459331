//! Arbor's data stores, without a scripting language: what `game.Store` and
//! `game.CloudStore` keep, and how. `arbor-script` puts the Luau surface on top (the
//! conversion of Lua values, the callbacks, the budget); this crate never touches Lua.
//!
//! It owns:
//!
//! - **the local store** ([`LocalStores`]): each place's stores, read whole into memory on
//!   open, their puts group-committed once a tick to one SQLite file
//!   ([`LOCAL_STORE_FILE`]) by a writer thread, never dropped on a failed commit;
//! - **the cloud store** ([`cloud`]): the tick thread's side ([`Cloud`]: the request queue,
//!   the rate budget, the compare-and-swap loop of `update`, session locks) and its
//!   backends on a background tokio runtime (an offline SQLite file, or PostgreSQL for a
//!   fleet), chosen by [`StoreConfig`];
//! - **the value byte format** ([`mod@format`]): compact, versioned, deterministic bytes that
//!   both stores keep, with [`StoreValue`] as its Lua-free value type;
//! - what a shutdown with a deadline left undone ([`Abandoned`]), for the server to print;
//! - the rules both share: keys and store names ([`StoreKey`]), the limits, the errors
//!   ([`StoreError`], whose texts scripts see).
//!
//! The user guide (limits, durability, the cloud store's callbacks and locks) is
//! `docs/stores.md`.
//!
//! ```
//! use arbor_store::{StoreKey, StoreValue};
//!
//! let key = StoreKey::from_bytes(b"gold")?;
//! assert_eq!(key.to_db(), "s:gold");
//! let value = StoreValue::Table(vec![(StoreValue::Number(1.0), StoreValue::Bool(true))]);
//! let bytes = value.encode(1024)?;
//! assert_eq!(StoreValue::decode(&bytes)?, value);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod abandoned;
pub mod cloud;
mod config;
mod error;
pub mod format;
mod key;
mod limits;
mod local;
mod value;
mod writer;

pub use abandoned::{Abandoned, Pending};
pub use cloud::Cloud;
pub use config::{SQLITE_FILE, StoreConfig};
pub use error::StoreError;
pub use key::{StoreKey, number_text, store_name};
pub use limits::{MAX_DEPTH, MAX_INT_KEY, MAX_KEY_CHARS, MAX_STORES};
pub use local::{LOCAL_STORE_FILE, LocalStores, MAX_KEYS, MAX_VALUE_BYTES, Severity, StoreStats};
pub use value::StoreValue;
