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
//!   topology journal and the deletion log are exactly what the model predicts (the model
//!   stamps the nodes the arena documents as written: a reparent writes the moved root and
//!   both parents, a destroy the root, its old parent and the live holders whose references
//!   it clears or whose components its policies change, a clone or graft its copies, a
//!   component edit its instance);
//! - a snapshot never changes after later writes, and a diff between two snapshots reports
//!   exactly the nodes written, added and removed in between;
//! - a refused or no-op call returns what the model says and leaves a full dump of the
//!   arena (nodes, tombstones, revisions, events, journals, indexes) unchanged;
//! - references to a destroyed target are cleared in live holders; clone rewrites internal
//!   references to the copies and keeps external ones; graft applies its policy;
//! - the tag, handle, persistent-id, reverse-reference and family indexes agree with the model.
//!
//! Game-defined components interleave with the tree operations. Each world registers part
//! of a schema catalogue in its own order (so component ids differ between the arenas a
//! graft joins), with typed fields (`Vector3`, `Quaternion`, `String`, ...), reference
//! fields under each [`RefPolicy`](arbor_core::components::RefPolicy), requirements, a layout that
//! conflicts with another, and a malformed schema; some POD types too (one with a
//! requirement, one with a reference field, which must be refused). The operations add
//! components (with and without values, of wrong type or arity, naming dead or unknown
//! targets or components), remove them (with their dependents), set fields (also unknown
//! fields and mismatched types), insert POD bundles (one naming a component twice), spawn
//! batches, run chunk passes (sequential and parallel; some lanes cannot be lent), destroy
//! reference targets, and clone or graft around holders so references point inside and
//! outside the copy. After every step, besides the above:
//!
//! - every instance's components, every field (by index, by name, through the arena, as
//!   POD) and every row revision match the model; destroyed instances have no rows;
//! - the reverse reference index equals the one the model derives, and no live holder
//!   refers to a destroyed instance: destroying a target clears the field, removes the
//!   component and its dependents, or destroys the holder (clearing the field of a holder
//!   that cannot be destroyed), cascading in an order the model accepts from the arena;
//! - clone copies rows with inside references remapped and outside ones kept; graft adopts
//!   the schemas it needs (refusing a conflicting layout) and applies its policy to
//!   component references too;
//! - queries kept from step to step (so their table caches grow) return exactly the
//!   matching instances, on the arena and on older snapshots; `changed_since` returns
//!   exactly the rows written after the revision, as documented, for recent and old
//!   revisions, with table write logs small enough to overflow (old revisions then fall
//!   back to scanning) and with the default capacity, and a chunk view holding
//!   such a row says it may have changed; chunk views lend exactly the model's lane values;
//!   ancestry queries under the Workspace, a model and a detached folder match;
//! - a snapshot's component store matches the model copied with it; a diff reports exactly
//!   the (instance, component) rows written and removed in between;
//! - the membership revision and row count match; refused calls change no component state.
//!
//! Plain tests cover what the random test rarely reaches: a 1,000-child folder emptied one
//! child at a time, lifecycle views during delivery, two-phase reclamation with slot reuse,
//! clone and graft rollback at the node limit (compared with a twin arena that never tried),
//! reference rewriting on clone, and the place root and Workspace never being copied.
//!
//! Layout: `model` (the model's data, picks and navigation), `model_edit` and `model_copy`
//! (what each arena call does to the model), `comp_model` and `comp_schemas` (the component
//! part), `ops` and `comp_ops` (the random operations), `world` (an arena and its model
//! driven in step), `check`, `comp_check` and `dump` (comparing them), `scenarios` (the
//! plain tests); this file holds the shared constants and the proptest itself.

use arbor_core::{ArenaConfig, Id, components::WRITE_LOG_CAPACITY};
use check::check_snapshot;
use comp_ops::{link_op, register_prelude};
use ops::{Op, op};
use proptest::prelude::*;
use proptest::test_runner::FileFailurePersistence;
use world::World;

mod check;
mod comp_check;
mod comp_model;
mod comp_ops;
mod comp_schemas;
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
    // Failures persist next to this file (`main.proptest-regressions`).
    #![proptest_config(ProptestConfig {
        cases: 256,
        failure_persistence: Some(Box::new(FileFailurePersistence::WithSource("proptest-regressions"))),
        ..ProptestConfig::default()
    })]

    #[test]
    fn arena_matches_model(
        small in prop::bool::weighted(0.4),
        write_log in prop::sample::select(vec![2usize, 5, 16, WRITE_LOG_CAPACITY]),
        source_registers in register_prelude(),
        source_ops in prop::collection::vec(op(), 0..48),
        source_links in prop::collection::vec(link_op(), 0..6),
        source_after in prop::collection::vec(op(), 0..6),
        registers in register_prelude(),
        ops in prop::collection::vec(op(), 1..96),
    ) {
        // A second arena to graft from: built by the same operations, snapshotted, then
        // written again so that grafts must read the snapshot, not the arena.
        // Its own GUID seed: arenas with one seed draw the same GUIDs, and grafts keep them.
        // Each world registers its components in its own order, so their ids differ.
        let mut source = World::new(1 << 20, 0x5EED_0000_50CE, write_log);
        source.populate();
        // A few component references on top, so that grafts carry some.
        let links = source_links.into_iter().map(Op::Comp);
        for op in source_registers.into_iter().map(Op::Comp).chain(source_ops).chain(links) {
            source.step(&op, None);
        }
        let graft_source = (source.arena.snapshot(), source.model.clone());
        for op in &source_after {
            source.step(op, None);
        }
        check_snapshot(&graft_source.0, &graft_source.1);

        let mut world = World::new(if small { 24 } else { 1 << 20 }, ArenaConfig::default().seed, write_log);
        world.populate();
        for op in registers {
            world.step(&Op::Comp(op), None);
        }
        world.snapshot();
        for op in &ops {
            world.step(op, Some(&graft_source));
        }
        world.snapshot();
        check_snapshot(&graft_source.0, &graft_source.1);
    }
}
