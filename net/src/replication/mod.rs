//! Replication: what the server sends each client and what the client rebuilds from it.
//! The [`Mirror`] reads what changed in the arena once per network tick, grouped by
//! streaming [`Cell`] ([`Changes`], [`CellChanges`]); a [`ClientView`] per client keeps
//! what that client holds within its streaming range and fills its messages by priority
//! under a byte budget; the [`Replica`] is the client's copy, checked against the server's
//! hashes. `docs/networking.md` ("What replicates", "Streaming range", "Snapshots, acks and
//! budgets") describes the behaviour.
//!
//! Invariants: the client never holds an orphan (streaming units are whole top-part
//! subtrees, structure goes to every client, a create travels with its unconfirmed
//! parents' creates); whatever messages are lost, duplicated or reordered, an update
//! carries every group changed since the client's confirmed state, so a settled view's
//! hash is the replica's world hash.

mod cell;
mod mirror;
mod replica;
mod view;

pub use cell::{Cell, CellChanges, INTEREST_CELL_SIZE, cell_of};
pub use mirror::{Changes, Mirror, MirrorEntity};
pub use replica::{Applied, Replica, ReplicaStats, check_roots};
pub use view::{AckError, ClientView, HISTORY_EPOCHS, STREAMING_HYSTERESIS, ViewStats};

pub(crate) use mirror::under_templates;
