//! The behaviours section, the same in both forms: the place's behaviour settings and
//! definitions (name and Luau source) read from the arena's library when saving, and stored
//! in a freshly loaded arena after its tree. Definitions are written in name order; loading
//! refuses invalid settings, a name defined twice and a source longer than
//! [`MAX_SOURCE_FILE_BYTES`], naming the offending entry.

use crate::error::PlaceError;
use crate::model::{BehaviorDoc, PlaceSettings};
use crate::source_file::MAX_SOURCE_FILE_BYTES;
use arbor_core::Arena;

/// The `behaviors` section for the place in `arena`, in name order.
pub(crate) fn behavior_docs(arena: &Arena) -> Vec<BehaviorDoc> {
    let docs = arena.behaviors().iter();
    docs.map(|(name, source)| BehaviorDoc { name: name.to_owned(), source: source.to_string() }).collect()
}

/// Stores the behaviour settings and definitions of a place file in its fresh arena.
pub(crate) fn apply_behaviors(
    arena: &mut Arena,
    settings: &PlaceSettings,
    docs: &[BehaviorDoc],
) -> Result<(), PlaceError> {
    if let Some(problem) = settings.behaviors.problem() {
        return Err(PlaceError::invalid("settings.behaviors", problem));
    }
    let library = arena.behaviors_mut();
    library.settings = settings.behaviors;
    for (k, doc) in docs.iter().enumerate() {
        if library.source(&doc.name).is_some() {
            return Err(PlaceError::invalid(
                format!("behaviors[{k}].name"),
                format!("a behaviour named '{}' is already defined", doc.name),
            ));
        }
        if doc.source.len() as u64 > MAX_SOURCE_FILE_BYTES {
            return Err(PlaceError::invalid(
                format!("behaviors[{k}].source"),
                format!("longer than {} bytes", MAX_SOURCE_FILE_BYTES),
            ));
        }
        library
            .set(&doc.name, &doc.source)
            .map_err(|e| PlaceError::invalid(format!("behaviors[{k}].name"), e.to_string()))?;
    }
    Ok(())
}
