//! Instance paths for people: [`Arena::full_name`] (`Workspace.Door.Hinge`, as Luau's
//! `GetFullName`) and [`ArenaError::describe`], which names the instances of an error by
//! their paths instead of their ids.

use super::Arena;
use crate::error::ArenaError;
use crate::id::Id;

impl Arena {
    /// The dotted path of `id` from below the DataModel (`Workspace.Door.Hinge`); the root
    /// itself is `""`. A tombstone is still named, as long as its slot is not reclaimed.
    ///
    /// ```
    /// use arbor_core::{Arena, Class};
    /// let mut arena = Arena::new();
    /// let door = arena.create(Class::Model, "Door", Some(arena.workspace())).unwrap();
    /// assert_eq!(arena.full_name(door), "Workspace.Door");
    /// ```
    pub fn full_name(&self, id: Id) -> String {
        let view = self.lifecycle_view(id);
        let mut parts: Vec<&str> = std::iter::once(id)
            .chain(self.ancestors(id))
            .filter(|&a| a != self.root())
            .filter_map(|a| self.name_of(a).or_else(|| view.get(a).map(|n| self.names().text(n.name()))))
            .collect();
        parts.reverse();
        parts.join(".")
    }

    /// `full_name`, or the id when the instance has no readable name any more.
    fn path_or_id(&self, id: Id) -> String {
        let path = self.full_name(id);
        if path.is_empty() && id != self.root() { id.to_string() } else { path }
    }
}

impl ArenaError {
    /// The error's message with every instance it names given by its path in `arena`
    /// (`Parent: the Parent property of Workspace is locked`); the `Display` text names ids.
    pub fn describe(&self, arena: &Arena) -> String {
        let p = |id: &Id| arena.path_or_id(*id);
        match self {
            Self::ParentDestroyed(id) => format!("Parent: the new parent {} is destroyed", p(id)),
            Self::ParentLocked(id) => format!("Parent: the Parent property of {} is locked", p(id)),
            Self::DestroyLocked(id) => format!("Destroy: {} is locked and cannot be destroyed", p(id)),
            Self::Cycle { child, parent } => {
                format!("Parent: setting the parent of {} to {} would create a cycle", p(child), p(parent))
            }
            Self::HandleTaken { name, holder } => {
                format!("handle name '{name}' is already used by {}", p(holder))
            }
            Self::ExternalReference { holder, target } => {
                format!("graft refused: {} refers to {}, outside the grafted subtree", p(holder), p(target))
            }
            Self::NotAScript(id) => format!("{} is not a Script", p(id)),
            Self::TooManyAttributes { id, max } => {
                format!("{} already holds {max} attributes, the most one instance may hold", p(id))
            }
            other => other.to_string(),
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::{Arena, Class};

    #[test]
    fn hierarchy_errors_name_paths() {
        let mut arena = Arena::new();
        let ws = arena.workspace();
        let a = arena.create(Class::Model, "A", Some(ws)).unwrap();
        let b = arena.create(Class::Model, "B", Some(a)).unwrap();
        let e = arena.set_parent(a, Some(b)).unwrap_err();
        assert_eq!(
            e.describe(&arena),
            "Parent: setting the parent of Workspace.A to Workspace.A.B would create a cycle"
        );
        let e = arena.set_parent(ws, None).unwrap_err();
        assert_eq!(e.describe(&arena), "Parent: the Parent property of Workspace is locked");
        let e = arena.destroy(ws).unwrap_err();
        assert_eq!(e.describe(&arena), "Destroy: Workspace is locked and cannot be destroyed");
        arena.destroy(b).unwrap();
        let e = arena.set_parent(a, Some(b)).unwrap_err();
        assert_eq!(
            e.describe(&arena),
            "Parent: the new parent B is destroyed",
            "a destroyed instance is detached"
        );
    }
}
