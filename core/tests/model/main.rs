//! Model-based tests of the arena.
//!
//! A proptest drives an [`Arena`] with random sequences of operations — create (every class,
//! attached or detached), rename, property and flag writes, attributes (including instance
//! references), weld and `ObjectValue` references, tags, handles, persistent ids, reparent
//! (valid and invalid: cycles, destroyed or missing targets, containment, platform-owned
//! entities and parents), destroy (also twice), clone (also of non-archivable nodes and past
//! the node limit), graft from a second arena's snapshot under every [`GraftPolicy`],
//! snapshots and event drains — and checks it after every step against a plain model (a
//! `BTreeMap` of nodes with parent, ordered children, name, class, flags, attributes, ...):
//!
//! - parent and child links agree with the model in both directions, in order, with no cycle;
//! - every created id is the next one the counter should mint, and is never seen again;
//! - destroyed nodes are not live (`get` is `None`, `node` says destroyed, then not found),
//!   their subtree neither; tombstones are readable through a lifecycle view until the
//!   second drain after their destruction; destroying twice is `Ok(false)`;
//! - per-node revisions, the global, topology and tag revisions, the pending events, the
//!   topology journal and the deletion log are exactly what the model predicts (the model stamps the nodes the arena documents as
//!   written: a reparent writes the moved root and both parents, a destroy the root, its old
//!   parent and the live holders whose references it clears, a clone or graft its copies);
//! - a snapshot never changes after later writes, and a diff between two snapshots reports
//!   exactly the nodes written, added and removed in between;
//! - a refused or no-op call returns what the model says and leaves a full dump of the
//!   arena (nodes, tombstones, revisions, events, journals, indexes) unchanged;
//! - references to a destroyed target are cleared in live holders; clone rewrites internal
//!   references to the copies and keeps external ones; graft applies its policy;
//! - the tag, handle, persistent-id, reverse-reference and family indexes agree with the model.
//!
//! Plain tests cover what the random test rarely reaches: a 1,000-child folder emptied one
//! child at a time, lifecycle views during delivery, two-phase reclamation with slot reuse,
//! clone and graft rollback at the node limit (compared with a twin arena that never tried),
//! reference rewriting on clone, and the place root and Workspace never being copied.
//!
//! Layout: `model` (the model's data, picks and navigation), `model_edit` and `model_copy`
//! (what each arena call does to the model), `ops` (the random operations), `world` (an
//! arena and its model driven in step), `check` and `dump` (comparing them), `scenarios`
//! (the plain tests); this file holds the shared constants and the proptest itself.

use arbor_core::{ArenaConfig, Id};
use check::check_snapshot;
use ops::op;
use proptest::prelude::*;
use world::World;

mod check;
mod dump;
mod model;
mod model_copy;
mod model_edit;
mod ops;
mod scenarios;
mod world;

pub(crate) const NAMES: [&str; 5] = ["A", "B", "Door", "", "Wheel"];
pub(crate) const ATTR_KEYS: [&str; 3] = ["hp", "target", "owner"];
pub(crate) const TAGS: [&str; 3] = ["red", "blue", "enemy"];
pub(crate) const HANDLES: [&str; 3] = ["H0", "H1", "H2"];
/// An id no arena in these tests ever mints.
pub(crate) const FOREIGN: Id = Id(1 << 40);

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn arena_matches_model(
        small in prop::bool::weighted(0.4),
        source_ops in prop::collection::vec(op(), 0..30),
        source_after in prop::collection::vec(op(), 0..6),
        ops in prop::collection::vec(op(), 1..64),
    ) {
        // A second arena to graft from: built by the same operations, snapshotted, then
        // written again so that grafts must read the snapshot, not the arena.
        // Its own GUID seed: arenas with one seed draw the same GUIDs, and grafts keep them.
        let mut source = World::new(1 << 20, 0x5EED_0000_50CE);
        source.populate();
        for op in &source_ops {
            source.step(op, None);
        }
        let graft_source = (source.arena.snapshot(), source.model.clone());
        for op in &source_after {
            source.step(op, None);
        }
        check_snapshot(&graft_source.0, &graft_source.1);

        let mut world = World::new(if small { 24 } else { 1 << 20 }, ArenaConfig::default().seed);
        world.populate();
        world.snapshot();
        for op in &ops {
            world.step(op, Some(&graft_source));
        }
        world.snapshot();
        check_snapshot(&graft_source.0, &graft_source.1);
    }
}
