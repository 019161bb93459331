//! The JSON form: [`PlaceFile`] to and from an arena, and [`load_json`] / [`save_json`].
//!
//! Loading parses the whole text into the model with `serde_json` (names borrowed from the
//! text where they need no unescaping), then creates the instances in pre-order through the
//! shared [`TreeLoader`], then applies extras with its [`ExtrasLoader`]. A `serde_json` error is turned into a path by
//! scanning the text up to the error position. [`load_json_file`] and [`load_json_in`] do
//! the same for a place whose scripts may lie in `.luau` files beside it.
//!
//! Saving streams: it walks the saved instances in pre-order and writes each one's model
//! document (names borrowed from the arena's pool) on its own line, without building the
//! document tree; [`PlaceFile::from_arena`] builds the same document as a value. Instances
//! nest at most [`JSON_NESTING`] levels inside one top-level entry; a deeper subtree becomes a
//! top-level entry naming its parent by `ref`, so any tree saves within `serde_json`'s nesting
//! guard and reads back.

mod file;
mod load;
mod parse;
mod save;

pub use file::{load_json_file, load_json_in};
pub use load::load_json;
pub use parse::JSON_NESTING;
pub use save::save_json;
