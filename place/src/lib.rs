//! # arbor-place
//!
//! Place files for Arbor: a whole place (instance tree, component schemas and rows,
//! behaviours, settings) saved to and loaded from a file, built only on `arbor-core`'s public
//! face ([`arbor_core::ArenaBuilder`] for the bulk build, the arena's setters and readers for
//! the rest). Two forms hold the same information:
//!
//! - **JSON** ([`save_json`], [`load_json`]), for people and tools: the serde model in [`doc`],
//!   one instance per line. [`load_json_file`] and [`load_json_in`] also read `Script` sources
//!   kept in `.luau` files beside the place ([`ScriptFile`]).
//! - **Binary** ([`save_binary`], [`load_binary`]), for million-instance places: a header
//!   starting with [`PLACE_BINARY_MAGIC`], then a flat postcard body.
//!
//! Both forms are specified, with a user guide, in `docs/place-format.md` in the repository.
//!
//! Invariants: loading builds into a fresh arena and returns it only when the whole file was
//! accepted; on any error a [`PlaceError`] names the offending item by its path
//! (`instances[3].children[0].class: ...`) and nothing is kept. Neither loader panics on any
//! input, and a decoder never recurses on the file's nesting. Every change to either form
//! bumps [`PLACE_FORMAT_VERSION`]; newer files are refused with [`PlaceError::TooNew`].
//!
//! ```
//! let text = r#"{"format": "arbor-place", "version": 1, "instances": [
//!     {"class": "Workspace", "name": "Workspace", "children": [
//!         {"class": "Part", "name": "Floor", "anchored": true, "tags": ["Ground"]}]}]}"#;
//! let arena = arbor_place::load_json(text)?;
//! let bytes = arbor_place::save_binary(&arena);
//! assert!(bytes.starts_with(arbor_place::PLACE_BINARY_MAGIC));
//! let back = arbor_place::load_binary(&bytes)?;
//! let floor = back.find_first_child(back.workspace(), "Floor").expect("the part came back");
//! assert_eq!(back.tagged("Ground").collect::<Vec<_>>(), [floor]);
//! assert_eq!(arbor_place::save_json(&back), arbor_place::save_json(&arena));
//! # Ok::<(), arbor_place::PlaceError>(())
//! ```

mod behaviors;
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
pub use json::{JSON_NESTING, load_json, load_json_file, load_json_in, save_json};
pub use model::PLACE_FORMAT_VERSION;
pub use source_file::{MAX_SOURCE_FILE_BYTES, ScriptFile};

/// The serde model of a place file, which the JSON form is exactly: [`doc::PlaceFile`] and
/// the documents inside it, for tools that read or write place files without an arena.
/// Field names, defaults and meanings are specified in `docs/place-format.md`.
pub mod doc {
    pub use crate::model::{
        AttributeDoc, BehaviorDoc, ComponentDoc, ComponentRowDoc, FieldDoc, FieldTypeDoc, InstanceDoc,
        MaterialDoc, PLACE_FORMAT, PlaceFile, PlaceSettings, RefPolicyDoc, ShapeDoc, StorageDoc,
    };
}

#[cfg(test)]
mod tests;
