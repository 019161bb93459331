//! The binary form: a fixed header, then a postcard body holding the same information as
//! the JSON form in a flat layout made for million-instance places.
//!
//! The body keeps one string table (class names, instance names, tags, attribute keys,
//! handles), the instances in pre-order with a child count each (no nesting, so decoding
//! never recurses however deep the tree is), and the rarer data (attributes, tags, component
//! rows and their values) in shared tables that instances consume in order. Strings are
//! borrowed from the input while loading, so decoding allocates only the tables themselves.

mod layout;
mod load;
mod save;

pub use layout::PLACE_BINARY_MAGIC;
/// The checksum rule, for the unit tests that pin it down.
#[cfg(test)]
pub(crate) use layout::checksum;
pub use load::load_binary;
pub use save::save_binary;
