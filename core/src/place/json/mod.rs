//! The JSON form: [`PlaceFile`] to and from an arena, and [`load_json`] / [`save_json`].
//!
//! Loading parses the whole text into the model with `serde_json` (names borrowed from the
//! text where they need no unescaping), then creates the instances in pre-order through the
//! shared [`TreeLoader`], then applies extras with its [`ExtrasLoader`]. A `serde_json` error is turned into a path by
//! scanning the text up to the error position.
//!
//! Saving streams: it walks the saved instances in pre-order and writes each one's model
//! document (names borrowed from the arena's pool) on its own line, without building the
//! document tree; [`PlaceFile::from_arena`] builds the same document as a value. Instances
//! nest at most [`JSON_NESTING`] levels inside one top-level entry; a deeper subtree becomes a
//! top-level entry naming its parent by `ref`, so any tree saves within `serde_json`'s nesting
//! guard and reads back.

mod load;
mod save;

pub(crate) use load::apply_behaviors;
pub use load::load_json;
pub use save::save_json;
pub(crate) use save::{behavior_docs, differs, sorted_tags};

use super::error::PlaceError;
use super::json_text::{offset_of, path_at};
use super::model::{PLACE_FORMAT, PLACE_FORMAT_VERSION, PlaceFile};
use serde::Deserialize;
use std::borrow::Cow;

/// Deepest nesting of instances inside one top-level entry of a saved JSON file.
pub const JSON_NESTING: u32 = 32;

/// Checks the `format` and `version` fields.
pub(crate) fn check_header(format: Option<&str>, version: Option<u64>) -> Result<(), PlaceError> {
    match format {
        Some(PLACE_FORMAT) => {}
        Some(other) => {
            return Err(PlaceError::NotAPlace(format!("its \"format\" is '{other}', not '{PLACE_FORMAT}'")));
        }
        None => return Err(PlaceError::NotAPlace(format!("it has no \"format\": \"{PLACE_FORMAT}\" field"))),
    }
    match version {
        None => Err(PlaceError::invalid("version", "missing")),
        Some(0) => Err(PlaceError::BadVersion(0)),
        Some(v) if v > PLACE_FORMAT_VERSION as u64 => {
            Err(PlaceError::TooNew { found: v, supported: PLACE_FORMAT_VERSION })
        }
        Some(_) => Ok(()),
    }
}

/// Parses place text (without a byte-order mark) into its document.
pub(super) fn parse(text: &str) -> Result<PlaceFile<'_>, PlaceError> {
    serde_json::from_str::<PlaceFile<'_>>(text).map_err(|e| explain(text, e))
}

/// Turns a `serde_json` error into a [`PlaceError`]: a wrong format or version first (a
/// newer file may well fail to parse as this version), else the error with its path.
fn explain(text: &str, e: serde_json::Error) -> PlaceError {
    #[derive(Deserialize)]
    struct Probe<'a> {
        #[serde(borrow)]
        format: Option<Cow<'a, str>>,
        version: Option<u64>,
    }
    if let Ok(p) = serde_json::from_str::<Probe<'_>>(text)
        && let Err(header) = check_header(p.format.as_deref(), p.version)
    {
        return header;
    }
    let (line, column) = (e.line(), e.column());
    let full = e.to_string();
    let suffix = format!(" at line {line} column {column}");
    let mut message = full.strip_suffix(&suffix).unwrap_or(&full).to_owned();
    if message.starts_with("recursion limit exceeded") {
        message = format!(
            "{message}: instances nest too deeply for one JSON entry (a saved file nests at most \
             {JSON_NESTING} levels and moves deeper subtrees to the top level with \"parent\")"
        );
    }
    let path = if line == 0 { String::new() } else { path_at(text, offset_of(text, line, column)) };
    PlaceError::Syntax { path, message, line, column }
}
