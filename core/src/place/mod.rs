//! Place files: a whole place (instance tree, component schemas and rows, settings) saved
//! to and loaded from a file, in a JSON form for people and tools ([`save_json`],
//! [`load_json`]) and a compact binary form for million-instance places ([`save_binary`],
//! [`load_binary`]). Both forms are specified in `docs/place-format.md` in the repository.
//!
//! Invariants: loading builds into a fresh arena and returns it only when the whole file was
//! accepted; on any error a [`PlaceError`] names the offending item by its path
//! (`instances[3].children[0].class: ...`) and nothing is kept. Neither loader panics on any
//! input, and a decoder never recurses on the file's nesting. Every change to either form
//! bumps [`PLACE_FORMAT_VERSION`]; newer files are refused with [`PlaceError::TooNew`].

mod binary;
mod build;
mod collect;
mod error;
mod json;
mod json_text;
mod model;
mod serde_util;
mod source_file;

pub use binary::{PLACE_BINARY_MAGIC, load_binary, save_binary};
pub use error::PlaceError;
pub use json::{JSON_NESTING, load_json, save_json};
pub use model::{
    AttributeDoc, BehaviorDoc, ComponentDoc, ComponentRowDoc, FieldDoc, FieldTypeDoc, InstanceDoc,
    MaterialDoc, PLACE_FORMAT, PLACE_FORMAT_VERSION, PlaceFile, PlaceSettings, RefPolicyDoc, ShapeDoc,
    StorageDoc,
};
pub use source_file::{MAX_SOURCE_FILE_BYTES, ScriptFile, load_json_file, load_json_in};

#[cfg(test)]
mod tests;
