//! Script sources kept in `.luau` files beside a place file: `{"class": "Script",
//! "sourceFile": "scripts/turret.luau"}` instead of an inline `source`.
//!
//! This file holds the reading rules, below the JSON loader that applies them
//! (`load_json_file`, in `json/file.rs`, reads the place and every named file): a
//! `sourceFile` is a relative path inside the place file's folder (no `..`, no absolute
//! path, at most [`MAX_SOURCE_FILE_BYTES`]); the file's text becomes the script's source unchanged, so
//! line numbers in load and runtime errors count lines of that file. The loaded arena holds
//! the text, not the path: the returned [`ScriptFile`]s say which script came from which
//! file (for hot reload), and saving a place writes sources inline.

use arbor_core::Id;
use std::path::{Component, Path, PathBuf};

/// Largest script source file read (4 MiB).
pub const MAX_SOURCE_FILE_BYTES: u64 = 4 << 20;

/// A script whose source was read from a file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScriptFile {
    /// The `Script` instance.
    pub script: Id,
    /// The file, as the place's folder joined with the `sourceFile` path.
    pub path: PathBuf,
}

/// Reads source file `rel` inside folder `base`; the error is the message to report.
pub(crate) fn read_source_file(base: Option<&Path>, rel: &str) -> Result<(PathBuf, String), String> {
    let Some(base) = base else {
        return Err(format!("'{rel}' can only be read from a place loaded from a file"));
    };
    let inside = !rel.is_empty() && Path::new(rel).components().all(|c| matches!(c, Component::Normal(_)));
    if !inside {
        return Err(format!("'{rel}' must be a relative path inside the place's folder"));
    }
    let path = base.join(rel);
    let meta = std::fs::metadata(&path).map_err(|e| format!("reading {}: {e}", path.display()))?;
    if meta.len() > MAX_SOURCE_FILE_BYTES {
        return Err(format!("{} is larger than {MAX_SOURCE_FILE_BYTES} bytes", path.display()));
    }
    let text = std::fs::read_to_string(&path).map_err(|e| format!("reading {}: {e}", path.display()))?;
    Ok((path, text))
}
