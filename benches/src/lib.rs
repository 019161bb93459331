//! Shared helpers for the Arbor benchmarks: builders for the standard place trees that
//! several benches (and the `memory_report` binary) measure.
//!
//! - [`build_place`] / [`grow_place`]: the "large place", Models under the Workspace, each
//!   holding Parts (1,000 × 999 Parts plus their Models is one million created nodes);
//! - [`build_folder`]: one Folder (`Bullets`) under the Workspace holding many Parts, the
//!   shape of a bullets or debris folder that is emptied one child at a time.
//!
//! Every builder returns a settled arena (see [`settle`]): no event, doomed node,
//! reclaimable slot or dirty transform is pending when a measurement starts.

use arbor_core::{Arena, Class, Id};

/// Models in the standard one-million-node place.
pub const PLACE_MODELS: usize = 1_000;

/// Parts in each Model of the standard place: `PLACE_MODELS * (1 + PLACE_PARTS_PER_MODEL)`
/// is exactly 1,000,000 created nodes.
pub const PLACE_PARTS_PER_MODEL: usize = 999;

/// An arena built by [`build_place`], with the ids of its Models.
pub struct Place {
    /// The arena: `DataModel`, `Workspace`, and the created Models and Parts.
    pub arena: Arena,
    /// The Models, in creation order (each one's Parts are its children, in order).
    pub models: Vec<Id>,
}

impl Place {
    /// Number of nodes the builder created (Models and Parts, not the root or Workspace).
    pub fn created(&self) -> usize {
        self.models.len() + self.models.iter().map(|&m| self.arena.children(m).count()).sum::<usize>()
    }
}

/// Creates `models` Models named `Model` under the Workspace, each holding `parts_per_model`
/// Parts named `Part`, in depth-first order (a Model, then its Parts). Returns the Models.
///
/// This is the creation loop the `create` benchmark times; it queues events and does not
/// drain them.
///
/// # Panics
/// If the arena refuses a creation (it cannot, for a fresh arena with the default limits).
pub fn grow_place(arena: &mut Arena, models: usize, parts_per_model: usize) -> Vec<Id> {
    let ws = arena.workspace();
    let mut out = Vec::with_capacity(models);
    for _ in 0..models {
        let model = arena.create(Class::Model, "Model", Some(ws)).expect("create a Model");
        for _ in 0..parts_per_model {
            arena.create(Class::Part, "Part", Some(model)).expect("create a Part");
        }
        out.push(model);
    }
    out
}

/// A fresh arena holding `models` Models of `parts_per_model` Parts (see [`grow_place`]),
/// with its events drained twice.
pub fn build_place(models: usize, parts_per_model: usize) -> Place {
    let mut arena = Arena::new();
    let models = grow_place(&mut arena, models, parts_per_model);
    settle(&mut arena);
    Place { arena, models }
}

/// The standard one-million-node place: [`PLACE_MODELS`] Models of
/// [`PLACE_PARTS_PER_MODEL`] Parts.
pub fn build_million_place() -> Place {
    build_place(PLACE_MODELS, PLACE_PARTS_PER_MODEL)
}

/// A fresh arena holding a Folder named `Bullets` under the Workspace with `children` Parts
/// named `Bullet`. Returns the arena, the folder and its children in creation order.
///
/// # Panics
/// If the arena refuses a creation (it cannot, for a fresh arena with the default limits).
pub fn build_folder(children: usize) -> (Arena, Id, Vec<Id>) {
    let mut arena = Arena::new();
    let ws = arena.workspace();
    let folder = arena.create(Class::Folder, "Bullets", Some(ws)).expect("create the folder");
    let kids = (0..children)
        .map(|_| arena.create(Class::Part, "Bullet", Some(folder)).expect("create a Part"))
        .collect();
    settle(&mut arena);
    (arena, folder, kids)
}

/// Drains the arena's events twice (the first drain makes destroyed nodes reclaimable, the
/// second frees their slots) and takes its dirty-transform list, so nothing is left pending.
pub fn settle(arena: &mut Arena) {
    drop(arena.drain_events());
    drop(arena.drain_events());
    drop(arena.take_dirty_transforms());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn place_has_the_requested_shape() {
        let place = build_place(3, 4);
        assert_eq!(place.models.len(), 3);
        assert_eq!(place.created(), 15);
        assert_eq!(place.arena.len(), 17);
        assert!(place.arena.pending_events().is_empty());
        let ws = place.arena.workspace();
        assert_eq!(place.arena.children(ws).collect::<Vec<_>>(), place.models);
    }

    #[test]
    fn folder_holds_its_children_in_order() {
        let (arena, folder, kids) = build_folder(5);
        assert_eq!(arena.children(folder).collect::<Vec<_>>(), kids);
        assert_eq!(arena.name_of(folder), Some("Bullets"));
    }
}
