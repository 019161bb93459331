//! Replication end to end without sockets: a server arena, its mirror and one client view,
//! joined to a replica by a pipe that can lose snapshots and acks. Joins, edits, loss, a
//! silent client, late packets and random edit sequences.

mod common;

use arbor_core::{AttributeValue, Class, Id};
use arbor_net::replication::HISTORY_EPOCHS;
use arbor_net::wire::{Groups, SnapshotMessage};
use common::place::{apply, edit, place};
use common::{Pipe, replicated};
use glam::Vec3;
use proptest::prelude::*;

#[test]
fn a_join_converges_to_the_servers_hash_and_skips_scripts() {
    let (arena, _) = place(300);
    let mut pipe = Pipe::new(arena, 1e6);
    pipe.converge(200);
    assert_eq!(pipe.replica.world_hash(), pipe.truth_hash());
    assert_eq!(pipe.replica.len(), replicated(&pipe.arena).len());
    assert!(
        pipe.replica.arena().find_first_descendant(pipe.replica.arena().workspace(), "ServerOnly").is_none()
    );
    assert!(pipe.replica.stats().hash_checks > 0);
    assert_eq!(pipe.replica.stats().hash_mismatches, 0);
    assert_eq!(pipe.replica.stats().apply_errors, 0);
}

#[test]
fn moves_reparents_attributes_destroys_and_clones_replicate() {
    let (arena, ids) = place(40);
    let mut pipe = Pipe::new(arena, 1e6);
    pipe.converge(100);
    let a = &mut pipe.arena;
    a.set_position(ids[5], Vec3::new(9.0, 8.0, 7.0)).unwrap();
    a.set_parent(ids[6], Some(ids[0])).unwrap();
    a.set_attribute(ids[7], "Gold", Some(AttributeValue::Number(3.5))).unwrap();
    a.set_name(ids[1], "Truck").unwrap();
    a.destroy(ids[8]).unwrap();
    let copy = a.clone_subtree(ids[1]).unwrap().unwrap();
    a.set_parent(copy, Some(a.workspace())).unwrap();
    pipe.converge(100);
    assert_eq!(pipe.replica.world_hash(), pipe.truth_hash());
    let r = pipe.replica.arena();
    assert_eq!(r.get(ids[5]).unwrap().position(), Vec3::new(9.0, 8.0, 7.0));
    assert_eq!(r.get(ids[6]).unwrap().parent(), Some(ids[0]));
    assert!(r.get(ids[8]).is_none());
    assert_eq!(r.get(copy).map(|n| n.class()), Some(Class::Model));
    assert_eq!(r.name_of(ids[1]), Some("Truck"));
}

#[test]
fn a_client_losing_thirty_percent_of_snapshots_converges() {
    let (arena, ids) = place(200);
    let mut pipe = Pipe::new(arena, 1e6);
    pipe.loss = 0.3;
    pipe.ack_loss = 0.1;
    for t in 0..60 {
        for (k, &id) in ids.iter().enumerate().skip(2).step_by(9) {
            pipe.arena.set_position(id, Vec3::new(t as f32, k as f32, 0.5)).unwrap();
        }
        pipe.step();
    }
    pipe.converge(200);
    assert_eq!(pipe.replica.world_hash(), pipe.truth_hash());
    assert_eq!(pipe.replica.stats().hash_mismatches, 0);
}

#[test]
fn a_client_that_stopped_acking_gets_full_state_and_converges() {
    let (arena, ids) = place(50);
    let mut pipe = Pipe::new(arena, 1e6);
    pipe.converge(100);
    pipe.silent = true;
    for t in 0..(HISTORY_EPOCHS as usize + 10) {
        pipe.arena.set_position(ids[3], Vec3::new(t as f32, 0.0, 0.0)).unwrap();
        pipe.step();
    }
    assert!(pipe.view.stats().resyncs >= 1);
    pipe.silent = false;
    pipe.converge(100);
    assert_eq!(pipe.replica.world_hash(), pipe.truth_hash());
}

#[test]
fn a_deleted_instance_never_reappears_even_from_late_packets() {
    let (arena, ids) = place(10);
    let mut pipe = Pipe::new(arena, 1e6);
    pipe.converge(100);
    // Capture a message that names the part, hold it back, then destroy the part.
    pipe.arena.set_position(ids[4], Vec3::splat(5.0)).unwrap();
    let dirty = pipe.arena.take_dirty_transforms();
    pipe.transforms.update(&pipe.arena, &dirty, arbor_sim::transform::PassMode::default());
    let world = |_| Vec3::ZERO;
    pipe.mirror.capture(&pipe.arena, &world);
    pipe.view.update(&pipe.arena, &pipe.mirror);
    let late = pipe.view.build(&pipe.mirror, 4096, 2);
    pipe.arena.destroy(ids[4]).unwrap();
    pipe.converge(100);
    assert!(pipe.replica.arena().get(ids[4]).is_none());
    for m in late {
        pipe.replica.apply(&m).unwrap();
    }
    assert!(pipe.replica.arena().get(ids[4]).is_none(), "a late message brought it back");
    assert!(pipe.replica.state(ids[4]).is_none());
}

#[test]
fn an_update_carries_only_the_changed_groups() {
    let (arena, ids) = place(4);
    let mut pipe = Pipe::new(arena, 1e6);
    pipe.converge(50);
    pipe.arena.set_position(ids[2], Vec3::new(1.0, 2.0, 3.0)).unwrap();
    let dirty = pipe.arena.take_dirty_transforms();
    pipe.transforms.update(&pipe.arena, &dirty, arbor_sim::transform::PassMode::default());
    let world = |_| Vec3::ZERO;
    pipe.mirror.capture(&pipe.arena, &world);
    pipe.view.update(&pipe.arena, &pipe.mirror);
    let msgs = pipe.view.build(&pipe.mirror, 4096, 2);
    let snap = SnapshotMessage::decode(&msgs[0]).unwrap();
    assert_eq!(snap.entries.len(), 1);
    assert_eq!(snap.entries[0].groups, Groups::POSITION);
    // id delta, mask, 3 coordinates (after 6 bytes of header and 8 of entries hash)
    let entry_bytes = msgs[0].len() - 16;
    assert!(entry_bytes <= 10, "{entry_bytes} bytes for one moved part");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 32, ..ProptestConfig::default() })]

    /// Random edit sequences under random snapshot and ack loss converge to the arena's
    /// own state, within range or not.
    #[test]
    fn random_edits_with_random_loss_converge(
        edits in proptest::collection::vec(proptest::collection::vec(edit(), 0..6), 1..30),
        loss in 0.0f64..0.5,
        radius in prop_oneof![Just(1e6f32), Just(1500.0f32), Just(300.0f32)],
        scan_cells in any::<bool>(),
        seed in any::<u64>(),
    ) {
        let (arena, mut ids) = place(12);
        let mut pipe = Pipe::new(arena, radius);
        pipe.view.set_scan_cells(scan_cells && radius < 1e5);
        pipe.seed(seed);
        pipe.loss = loss;
        pipe.ack_loss = loss / 2.0;
        pipe.budget = 1500;
        for tick in &edits {
            for e in tick {
                apply(&mut pipe.arena, &mut ids, e);
            }
            pipe.step();
        }
        pipe.converge(300);
        prop_assert_eq!(pipe.replica.world_hash(), pipe.truth_hash());
        prop_assert_eq!(pipe.replica.stats().hash_mismatches, 0);
        prop_assert_eq!(pipe.replica.stats().apply_errors, 0);
        // The replica holds no orphan: every held instance's parent is held (or is a root).
        for id in pipe.replica.ids() {
            let parent = pipe.replica.state(id).unwrap().parent;
            prop_assert!(parent <= 2 || pipe.replica.state(Id(parent)).is_some());
        }
    }
}
