//! [`PlaceError`]: why a place file was refused. Every message names where the problem is:
//! a path such as `instances[3].children[0].attributes.Speed` (the same path for the JSON and
//! the binary form), a JSON line and column, or the part of the binary header that is wrong.

use thiserror::Error;

/// Why a place file was refused. Loading never returns a partly built arena: on any error the
/// arena under construction is dropped.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum PlaceError {
    /// The JSON text is malformed, or a value has the wrong shape or type.
    #[error("{}", syntax_message(.path, .message, *.line, *.column))]
    Syntax {
        /// Path of the value being read (empty at the top level).
        path: String,
        /// What was wrong.
        message: String,
        /// 1-based line of the error in the JSON text.
        line: usize,
        /// Byte column of the error in that line.
        column: usize,
    },
    /// The input is not an Arbor place at all (wrong `format` field or binary magic).
    #[error("not an Arbor place file: {0}")]
    NotAPlace(String),
    /// The file was written by a newer Arbor with a format this build cannot read.
    #[error(
        "place format version {found} is newer than this build supports (up to version {supported}); \
         open it with a newer Arbor"
    )]
    TooNew {
        /// The file's version.
        found: u64,
        /// The newest version this build reads.
        supported: u32,
    },
    /// The version number is not a valid one (versions start at 1).
    #[error("place format version {0} is not valid (versions start at 1)")]
    BadVersion(u64),
    /// A binary file whose bytes are damaged: truncated, failing its checksum, or undecodable.
    #[error("damaged binary place: {0}")]
    Damaged(String),
    /// The place file, or a file it names, could not be read.
    #[error("{0}")]
    Unreadable(String),
    /// A well-formed file whose content is refused (unknown class, dangling reference,
    /// duplicate handle, schema mismatch, ...).
    #[error("{path}: {message}")]
    Invalid {
        /// Path of the offending item, e.g. `instances[7].class`.
        path: String,
        /// What was wrong.
        message: String,
    },
}

fn syntax_message(path: &str, message: &str, line: usize, column: usize) -> String {
    if path.is_empty() {
        format!("{message} (line {line}, column {column})")
    } else {
        format!("{path}: {message} (line {line}, column {column})")
    }
}

impl PlaceError {
    /// An [`Invalid`](PlaceError::Invalid) error at `path`.
    pub(crate) fn invalid(path: impl Into<String>, message: impl Into<String>) -> Self {
        PlaceError::Invalid { path: path.into(), message: message.into() }
    }

    /// The path of the offending item, if the error names one.
    pub fn path(&self) -> Option<&str> {
        match self {
            PlaceError::Syntax { path, .. } | PlaceError::Invalid { path, .. } => Some(path),
            _ => None,
        }
    }
}
