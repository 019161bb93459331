//! [`StoreError`]: why a store operation was refused. Every message names the rule or the
//! limit it broke, so a script author can fix the call from the message alone; the Luau API
//! (in `arbor-script`) raises them at the caller's line. The texts are part of the user
//! guide's contract (`docs/stores.md`): they do not change.

use crate::limits::{MAX_DEPTH, MAX_KEY_CHARS, MAX_STORES};

/// Why a store operation was refused.
#[derive(Debug, thiserror::Error, Clone, PartialEq)]
pub enum StoreError {
    /// A table nested deeper than [`MAX_DEPTH`] levels (the value itself is level 1).
    #[error("store value is nested deeper than {MAX_DEPTH} levels")]
    TooDeep,
    /// The encoded value is over the limit (`bytes` is its full encoded size).
    #[error("store value is {bytes} bytes encoded; the limit is {limit}")]
    TooLarge {
        /// Encoded size of the refused value.
        bytes: usize,
        /// The limit it broke.
        limit: usize,
    },
    /// A put of a new key into a full store (overwriting a key it holds still works).
    #[error("store '{store}' already holds {limit} keys")]
    TooManyKeys {
        /// The store's name.
        store: String,
        /// The key limit.
        limit: usize,
    },
    /// A place opening a ninth distinct store.
    #[error("a place can open at most {MAX_STORES} stores")]
    TooManyStores,
    /// A key that is neither a whole number within ±2^53 nor a string of 1 to 50 printable
    /// characters; the text says what it was.
    #[error("store keys are integers or strings of 1 to {MAX_KEY_CHARS} printable characters, not {0}")]
    BadKey(String),
    /// A store name that is not a string of 1 to 50 printable characters.
    #[error("store names are strings of 1 to {MAX_KEY_CHARS} printable characters, not {0}")]
    BadName(String),
    /// A value of a type stores cannot hold (`a function`, `an Instance`, ...; the text is
    /// the host's description of it).
    #[error("stores can hold numbers, booleans, strings, Vector3 values and tables, not {0}")]
    BadType(String),
    /// A table key that is not a number, a string or a boolean.
    #[error("store table keys are numbers, strings or booleans, not {0}")]
    BadTableKey(String),
    /// NaN or an infinity (in a number or a Vector3 component): refused so a broken
    /// computation is caught at the put instead of saved.
    #[error("stores can hold finite numbers only, not {0}")]
    NotFinite(String),
    /// A table that contains itself (directly or through other tables).
    #[error("store value contains a table inside itself")]
    Cycle,
    /// A table with a metatable (its behaviour would not survive the round trip).
    #[error("stores can hold plain tables only, not a table with a metatable")]
    Metatable,
    /// `put` with a value that is not a table.
    #[error("store:put expects a table as the value, not {0}")]
    NotATable(String),
    /// `game.Store` on a client host.
    #[error("game.Store is server-only")]
    ServerOnly,
    /// The server has no data directory.
    #[error("game.Store needs a data directory (start the server with --data DIR)")]
    NoDataDir,
    /// The store file could not be opened or read.
    #[error("store file {path} could not be opened: {reason}")]
    Open {
        /// The file.
        path: String,
        /// SQLite's or the OS's reason.
        reason: String,
    },
    /// The host stopped while it read a value to store: the calling script ran out of its
    /// instruction budget, or its VM failed (out of memory, ...). The text is the host's.
    #[error("{0}")]
    Interrupted(String),
}
