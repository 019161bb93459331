//! Criterion benchmarks of the place tree (`arbor-core`). Every group holds our operation
//! and its baseline, measured in the same run, so the ratio baseline / ours can be read
//! straight off the report:
//!
//! | group | ours | baseline |
//! |---|---|---|
//! | `snapshot_1m` | `Arena::snapshot` of a 1M-node place (drop included) | `.clone()` of a `Vec` of 1M plain 128-byte structs |
//! | `first_write_after_snapshot` | `set_position` on a Part while a fresh snapshot shares every page (and, as a diagnostic, when its directory was already copied) | the same write with no snapshot alive |
//! | `diff_1m` | `Snapshot::diff` with 1% of nodes written (scattered, clustered) | look up every node of both snapshots and compare revisions |
//! | `create_1m` | 1,000 Models × 999 Parts with `Arena::create`, then `drain_events`; the same tree built in bulk with `ArenaBuilder` (as the place loader does) | bevy_ecs `World::spawn` of the same tree with `ChildOf` |
//! | `destroy_children` | `destroy` every child of a 10k/50k/100k-child folder in creation order, then both drains (events, reclamation) | bevy_ecs `World::despawn` of each child |
//! | `reparent_child_100k` | `set_parent` of the oldest/newest child of a 100k-child folder to a sibling folder | bevy_ecs `insert(ChildOf(sibling))` |
//! | `subtree` | `destroy` of a 10k-node subtree with both drains; `clone_subtree` of a 40-Part Model | bevy_ecs recursive `despawn`; `clone_and_spawn` with linked cloning |
//! | `find_first_child_1000` | `find_first_child` hit (last child) and miss (name never interned) | linear `==` scan of a `Vec<String>` |
//!
//! Building trees and dropping large results happen outside the timed region
//! (`iter_batched` with one input per iteration, or `iter_custom`). Event draining is timed
//! where it is part of the operation's cost. The million-node and 100k-child groups use 10
//! samples with flat sampling (`scale`).
//!
//! Memory figures are not timed here: see the `memory_report` binary.
//!
//! One module per row group of the table (`snapshots`, `creation`, `children` for
//! `destroy_children` and `reparent_child_100k`, `subtrees` for `subtree` and
//! `find_first_child_1000`, `attribute_writes`); `bevy` builds the bevy twins of the trees and
//! `scale` holds the million-node size and the sampling of the large groups.

#[path = "place_tree/attribute_writes.rs"]
mod attribute_writes;
#[path = "place_tree/bevy.rs"]
mod bevy;
#[path = "place_tree/children.rs"]
mod children;
#[path = "place_tree/creation.rs"]
mod creation;
#[path = "place_tree/scale.rs"]
mod scale;
#[path = "place_tree/snapshots.rs"]
mod snapshots;
#[path = "place_tree/subtrees.rs"]
mod subtrees;

use attribute_writes::text_write_benches;
use children::{destroy_children_benches, reparent_benches};
use creation::create_benches;
use criterion::{criterion_group, criterion_main};
use snapshots::snapshot_benches;
use subtrees::subtree_benches;

criterion_group!(
    benches,
    text_write_benches,
    snapshot_benches,
    create_benches,
    destroy_children_benches,
    reparent_benches,
    subtree_benches
);
criterion_main!(benches);
