//! Reading JSON place text into the model: the `format` and `version` header checked, and a
//! `serde_json` error turned into a [`PlaceError`] naming the path of the value being read
//! (a wrong header is reported first, since a newer file may fail to parse as this
//! version). [`JSON_NESTING`], the nesting a saved file keeps to, lives here because the
//! reader's recursion-limit message names it.

use crate::error::PlaceError;
use crate::json_text::{offset_of, path_at};
use crate::model::{PLACE_FORMAT, PLACE_FORMAT_VERSION, PlaceFile};
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
pub(crate) fn parse(text: &str) -> Result<PlaceFile<'_>, PlaceError> {
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
