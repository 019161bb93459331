//! [`ArenaError`]: every way an arena operation can refuse. A refused operation changes
//! nothing. Messages quoted by the seeds are kept word for word. `Display` names instances by
//! id; [`ArenaError::describe`] names them by path, for people.

use crate::class::Class;
use crate::components::SchemaError;
use crate::id::Id;
use thiserror::Error;

/// Why an arena operation was refused.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ArenaError {
    /// No instance, live or tombstone, has this id.
    #[error("no instance with id {0}")]
    NotFound(Id),
    /// The instance is destroyed.
    #[error("attempt to index a destroyed Instance")]
    Destroyed(Id),
    /// The moved instance, or its current parent, is owned by the platform.
    #[error("Parent: the entity belongs to the platform")]
    EntityPlatformOwned(Id),
    /// The destination parent is owned by the platform.
    #[error("Parent: the new parent belongs to the platform")]
    NewParentPlatformOwned(Id),
    /// `Destroy` on a platform-owned instance.
    #[error("Destroy: the entity belongs to the platform")]
    DestroyPlatformOwned(Id),
    /// The destination parent does not exist.
    #[error("Parent: the new parent {0} does not exist")]
    ParentMissing(Id),
    /// The destination parent is destroyed.
    #[error("Parent: the new parent {0} is destroyed")]
    ParentDestroyed(Id),
    /// The instance's `Parent` property is locked.
    #[error("Parent: the Parent property of {0} is locked")]
    ParentLocked(Id),
    /// `Destroy` on the DataModel or the Workspace.
    #[error("Destroy: {0} is locked and cannot be destroyed")]
    DestroyLocked(Id),
    /// The move would make an instance its own ancestor.
    #[error("Parent: setting the parent of {child} to {parent} would create a cycle")]
    Cycle {
        /// The moved instance.
        child: Id,
        /// The requested parent (inside the moved subtree).
        parent: Id,
    },
    /// Class containment forbids the move.
    #[error("Parent: a {child} cannot be a child of a {parent}")]
    Containment {
        /// Class of the moved instance.
        child: Class,
        /// Class of the requested parent.
        parent: Class,
    },
    /// The class cannot be created by users.
    #[error("{0} cannot be created")]
    NotCreatable(Class),
    /// The class has no reference property at this index.
    #[error("{class} has no reference property {index}")]
    NoSuchReference {
        /// The holder's class.
        class: Class,
        /// The requested index.
        index: usize,
    },
    /// An explicitly inserted id is already taken.
    #[error("id {0} is already in use")]
    IdInUse(Id),
    /// The arena's id range is exhausted.
    #[error("the id range is exhausted")]
    IdsExhausted,
    /// A new attribute on an instance that holds the most attributes allowed.
    #[error("{id} already holds {max} attributes, the most one instance may hold")]
    TooManyAttributes {
        /// The instance.
        id: Id,
        /// The limit ([`MAX_ATTRIBUTES`](crate::limits::MAX_ATTRIBUTES)).
        max: usize,
    },
    /// A text that cannot be an instance name.
    #[error("{0}")]
    InvalidName(#[from] crate::names::NameError),
    /// The place holds its configured most text (see `Arena::max_text_bytes`).
    #[error(
        "the place is full: it holds its maximum of {0} bytes of text (names, string attributes \
         and string fields)"
    )]
    TextFull(usize),
    /// The running creation window allocated its most nodes (one tick's worth).
    #[error("too many instances created in one tick: at most {0} may be created per tick")]
    TooManyCreations(usize),
    /// The arena reached its configured node limit.
    #[error("the place is full: it holds its maximum of {0} instances (live and destroyed)")]
    Full(usize),
    /// Another live instance already holds this handle name.
    #[error("handle name '{name}' is already used by {holder}")]
    HandleTaken {
        /// The handle name.
        name: String,
        /// The instance holding it.
        holder: Id,
    },
    /// A graft under [`GraftPolicy::Refuse`](crate::GraftPolicy::Refuse) met an external
    /// reference.
    #[error("graft refused: {holder} refers to {target}, outside the grafted subtree")]
    ExternalReference {
        /// The source instance holding the reference.
        holder: Id,
        /// Its target in the source arena.
        target: Id,
    },
    /// Only `Script` instances hold source.
    #[error("{0} is not a Script")]
    NotAScript(Id),
    /// [`Arena::begin_undo`](crate::Arena::begin_undo) while a scope is open (scopes do not
    /// nest).
    #[error("an undo scope is already open")]
    UndoScopeOpen,
    /// A component schema or value was refused.
    #[error(transparent)]
    Component(#[from] SchemaError),
}
