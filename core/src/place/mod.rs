//! Place files: a whole place (instance tree, component schemas and rows, settings) saved
//! to and loaded from a file, in a JSON form for people and tools ([`save_json`],
//! [`load_json`]) and a compact binary form for million-instance places ([`save_binary`],
//! [`load_binary`]). `docs/place-format.md` says the same more briefly.
//!
//! # The JSON form
//!
//! One object, the serde model [`PlaceFile`]:
//!
//! ```json
//! {
//!   "format": "arbor-place",
//!   "version": 1,
//!   "settings": {"FallenPartsDestroyHeight": -500.0},
//!   "components": [
//!     {"name": "Lifetime", "fields": [{"name": "Remaining", "type": "F64"}]}
//!   ],
//!   "instances": [
//!     {"class": "Workspace", "name": "Workspace", "children": [
//!       {"class": "Part", "name": "Crate", "ref": 1, "position": [0.0, 5.0, 0.0], "components": {"Lifetime": {"Remaining": 5.0}}},
//!       {"class": "ObjectValue", "name": "Target", "references": {"Value": 1}}
//!     ]}
//!   ]
//! }
//! ```
//!
//! [`save_json`] writes exactly this layout: one instance per line (its `children` on the
//! lines below), so a saved place reads and diffs instance by instance. Any JSON layout
//! loads.
//!
//! - `format` (required): always `"arbor-place"`; anything else is refused as not a place.
//! - `version` (required): the format version, an integer from 1 (see *Versions*).
//! - `settings` (optional): place settings. `FallenPartsDestroyHeight` (number, default
//!   -500): unanchored parts below it are destroyed. It is kept on the loaded place as the
//!   Number attribute `FallenPartsDestroyHeight` of the Workspace (where the simulation reads
//!   it), set before the Workspace's other attributes; saving writes that attribute here
//!   instead of among the Workspace's attributes. A file may not give it both ways.
//! - `components` (optional): component schemas, in registration order. Each has `name`
//!   (unique), `fields` (each `name`, `type` — one of `Bool`, `I32`, `I64`, `F32`, `F64`,
//!   `Vector3`, `Quaternion`, `String`, `InstanceRef` — and, for references, `onDestroy`:
//!   `ClearField` (default), `RemoveComponent` or `DestroyHolder`) and `requires` (names of
//!   components declared earlier).
//! - `instances` (optional): the children of the place's `DataModel`, in order. At most one is
//!   a `Workspace`: its properties and children become the loaded arena's own Workspace
//!   (always the `DataModel`'s first child). The others are top-level instances outside the
//!   world.
//!
//! An instance ([`InstanceDoc`]) has `class` and `name` (required) and optionally:
//!
//! | key | meaning | default |
//! |---|---|---|
//! | `ref` | file-local reference number, unique in the file | none |
//! | `parent` | top-level entries only: `ref` of an earlier instance to attach under | the `DataModel` |
//! | `position` | local position `[x, y, z]` | `[0, 0, 0]` |
//! | `rotation` | local rotation quaternion `[x, y, z, w]` | `[0, 0, 0, 1]` |
//! | `size` | `[x, y, z]` | `[4, 1, 2]` |
//! | `anchored`, `canCollide`, `archivable` | flags | `false`, `true`, `true` |
//! | `shape` | `Block`, `Ball`, `Cylinder` | `Block` |
//! | `color` | `[r, g, b, a]`, 0–255 | `[163, 162, 165, 255]` |
//! | `material` | `Plastic`, `Wood`, `Metal`, `Concrete`, `Ice`, `Glass`, `Neon` | `Plastic` |
//! | `transparency` | 0 (opaque) to 1 | 0 |
//! | `handle` | handle name registered in the place's handle map, unique | none |
//! | `persistentId` | 32 hex digits, unique | none |
//! | `tags` | list of tag names | none |
//! | `attributes` | name → typed value: `{"Bool": true}`, `{"Number": 16}`, `{"String": "x"}`, `{"Vector3": [0, 1, 0]}`, `{"Ref": 3}` / `{"Ref": null}` | none |
//! | `references` | class reference property → `ref` or `null`: `Value` (`ObjectValue`), `Part0`, `Part1` (`Weld`) | none |
//! | `components` | component name → row: field name → value typed by the schema (numbers; `[x, y, z]`, `[x, y, z, w]`; strings; booleans; `ref` or `null` for `InstanceRef`); missing fields take the type's default | none |
//! | `source` | Luau source (`Script` only) | none |
//! | `sourceFile` | instead of `source`: a `.luau` file relative to the place file's folder and inside it, read by [`load_json_file`] (`Script` only; saves write the source inline) | none |
//! | `children` | instances, in order | none |
//!
//! Floats that are not finite are written `"NaN"`, `"inf"` and `"-inf"`. Unknown keys are
//! refused, so a misspelt property is an error rather than silently ignored.
//!
//! # References
//!
//! Runtime ids never appear in a file. An instance that something refers to carries a `ref`
//! number (any integer, unique in the file; saving numbers them 1, 2, 3, ... in order), and a
//! reference — an `ObjectValue.Value`, a `Weld.Part0`/`Part1`, a `Ref` attribute or an
//! `InstanceRef` component field — holds that number or `null`. A reference may point forward
//! or backward in the file. Loading gives every instance a fresh server id (counting up from
//! the arena's own `DataModel` 1 and Workspace 2), registers handles and relinks every
//! reference to the new ids; a number no instance carries is an error.
//!
//! Saving leaves out Transient instances and instances that are not archivable, each with
//! its whole subtree (the Workspace itself is always written), and instances not under the
//! `DataModel`. A reference to an instance left out is written as `null`.
//!
//! A saved file nests instances at most [`JSON_NESTING`] levels inside one top-level entry:
//! a deeper subtree is written as a top-level entry with `"parent": <ref>`, after the entry
//! holding its parent, so any tree stays within `serde_json`'s nesting guard (128 brackets).
//!
//! # The binary form
//!
//! A 28-byte header — the magic [`PLACE_BINARY_MAGIC`] (`89 41 52 42 4F 52 0D 0A`, `\x89ARBOR\r\n`),
//! the version (`u32`), the body length (`u64`) and a checksum of the body (`u64`), all
//! little-endian — then a [postcard](https://docs.rs/postcard) body. The checksum runs over
//! the body's little-endian 64-bit words (the last one zero-padded): starting from
//! `0xcbf29ce484222325`, each word `w` gives `h = (h ^ w) * 0x100000001b3` (wrapping) then
//! `h ^= h >> 32`; the result is `h ^ body_length`.
//!
//! The body holds, in order: the destroy height (`Option<f64>`); a string table (class
//! names, instance names, tag names, attribute keys, handle names); the component schemas
//! (as in JSON); the instances in pre-order, each with its class and name (string indexes), its
//! number of children, flag bits (1 anchored, 2 can-collide, 4 archivable, 8 has extras),
//! position, and optional rotation, size and appearance (colour, transparency, material and
//! shape as indexes in the order listed above); then the extras of the instances with flag 8,
//! in instance order (counts of attributes, tags and rows, handle, persistent id, the two
//! reference properties, source), and the shared attribute, tag, row and value tables those
//! counts consume in order. A reference is `0` for none or `k + 1` for the `k`-th instance
//! in pre-order. Nothing in the body nests, so decoding never recurses and a wrong file is
//! refused, never followed.
//!
//! # Versions
//!
//! Both forms carry the version they were written with. Every change to either form bumps
//! [`PLACE_FORMAT_VERSION`]. A reader accepts every version up to its own (converting older
//! ones) and refuses newer ones with [`PlaceError::TooNew`], so a file is never half-read.
//! Version 1 is the first.
//!
//! # Errors
//!
//! Loading builds into a fresh arena and returns it only when the whole file was accepted;
//! on any error the arena is dropped and a [`PlaceError`] names the offending item by its
//! path, e.g. `instances[3].children[0].attributes.Speed.Number: invalid type: string
//! "fast", expected a number (line 12, column 40)` or `instances[7].class: unknown class
//! 'Spaceship'`. Neither loader panics on any input.

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
    AttributeDoc, ComponentDoc, ComponentRowDoc, DEFAULT_FALLEN_PARTS_DESTROY_HEIGHT,
    FALLEN_PARTS_DESTROY_HEIGHT, FieldDoc, FieldTypeDoc, InstanceDoc, MaterialDoc, PLACE_FORMAT,
    PLACE_FORMAT_VERSION, PlaceFile, PlaceSettings, RefPolicyDoc, ShapeDoc,
};
pub use source_file::{MAX_SOURCE_FILE_BYTES, ScriptFile, load_json_file, load_json_in};

#[cfg(test)]
mod tests;
