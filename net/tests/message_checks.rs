//! The per-message check end to end without sockets: every message a replica applies must
//! hash to its entries hash, under motion, loss, resyncs, rollbacks into the next message,
//! refocuses and clients at different baselines; a corrupted replica fails the next check.

mod common;

use arbor_core::{Arena, AttributeValue, Class, Id};
use arbor_net::replication::HISTORY_EPOCHS;
use common::Pipe;
use common::place::{apply, edit, place};
use glam::Vec3;
use proptest::prelude::*;

/// Moves every part of `ids` (from the third: the first two are the folder and the model)
/// to a new place on its own circle, as of network tick `t`.
fn move_parts(arena: &mut Arena, ids: &[Id], t: usize) {
    for (k, &id) in ids.iter().enumerate().skip(2) {
        let a = t as f32 * 0.3 + k as f32;
        arena.set_position(id, Vec3::new(k as f32 * 3.0 + a.cos() * 20.0, 1.0, a.sin() * 20.0)).unwrap();
    }
}

#[test]
fn a_replica_is_checked_message_by_message_while_every_part_moves_even_under_loss() {
    for (loss, ack_loss, budget) in [(0.0f64, 0.0, 4096), (0.3, 0.1, 2048), (0.6, 0.3, 1500)] {
        let (arena, ids) = place(300);
        let mut pipe = Pipe::new(arena, 1e6);
        pipe.seed(loss.to_bits() | 1);
        (pipe.loss, pipe.ack_loss, pipe.budget) = (loss, ack_loss, budget);
        // The pipe fails at once on a message whose check fails; here the counts.
        let mut messages = 0;
        for t in 0..150 {
            move_parts(&mut pipe.arena, &ids, t);
            let before = pipe.view.stats().messages;
            pipe.step();
            messages += pipe.view.stats().messages - before;
        }
        let s = pipe.replica.stats();
        // Every capture finds moves, so no build finds the view settled.
        assert_eq!(s.hash_checks, 0, "loss {loss}: the view never settles, so no settled check");
        assert!(messages > 150, "loss {loss}: {messages} messages (several per tick)");
        assert!(s.message_checks >= 60, "loss {loss}: {s:?}");
        assert_eq!((s.message_mismatches, s.apply_errors), (0, 0), "loss {loss}: {s:?}");
        // Once the parts stop, the settled check agrees too.
        pipe.converge(300);
        let s = pipe.replica.stats();
        assert!(s.hash_checks > 0 && s.hash_mismatches == 0, "loss {loss}: {s:?}");
        assert_eq!(pipe.replica.world_hash(), pipe.truth_hash());
    }
}

#[test]
fn entries_rolled_back_to_the_next_message_or_too_large_to_send_stay_out_of_the_entries_hash() {
    let (mut arena, ids) = place(30);
    let ws = arena.workspace();
    // An instance larger than any message: never sent, counted as oversized.
    let huge = arena.create(Class::Part, &"H".repeat(arbor_core::limits::MAX_NAME_BYTES), Some(ws)).unwrap();
    arena.set_attribute(huge, "Blob", Some(AttributeValue::String("x".repeat(600).into()))).unwrap();
    // Parts whose 400-byte attribute changes every tick: two fit a message, so a third is
    // written, rolled back and written again in the next message.
    let heavy: Vec<Id> = ids[2..8].to_vec();
    let mut pipe = Pipe::new(arena, 1e6);
    pipe.budget = 8192;
    for t in 0..60 {
        move_parts(&mut pipe.arena, &ids, t);
        for (k, &id) in heavy.iter().enumerate() {
            let text = format!("{t}-{k}-").repeat(200)[..400].to_owned();
            pipe.arena.set_attribute(id, "Log", Some(AttributeValue::String(text.into()))).unwrap();
        }
        pipe.step();
    }
    let (view, s) = (pipe.view.stats(), pipe.replica.stats());
    assert!(view.oversized > 0, "{view:?}");
    assert!(view.messages >= 3 * 60, "several messages per tick: {view:?}");
    assert!(s.message_checks >= 120, "{s:?}");
    assert_eq!(s.message_mismatches, 0, "{s:?}");
    assert!(pipe.replica.state(huge).is_none());
    assert_eq!(pipe.replica.state(heavy[5]).unwrap().attributes.len(), 1);
}

#[test]
fn a_corrupted_moving_instance_fails_the_next_message_that_carries_it() {
    let (arena, ids) = place(40);
    let mut pipe = Pipe::new(arena, 1e6);
    pipe.converge(100);
    pipe.check_messages = false;
    for t in 0..5 {
        move_parts(&mut pipe.arena, &ids, t);
        pipe.step();
    }
    let before = pipe.replica.stats();
    assert!(before.message_checks >= 5 && before.message_mismatches == 0, "{before:?}");
    let victim = ids[7];
    let hash = pipe.replica.world_hash();
    assert!(pipe.replica.corrupt_state_for_test(victim));
    assert!(!pipe.replica.corrupt_state_for_test(Id(1 << 40)), "an id not held");
    assert_ne!(pipe.replica.world_hash(), hash, "the world hash follows the corrupted state");
    assert_eq!(pipe.replica.arena().name_of(victim), Some("P5~"));
    // The next messages carry the victim's new position, not its name: the check fails.
    let mut ticks = 0;
    while pipe.replica.stats().message_mismatches == 0 {
        ticks += 1;
        assert!(ticks <= 3, "no mismatch after {ticks} network ticks: {:?}", pipe.replica.stats());
        move_parts(&mut pipe.arena, &ids, 5 + ticks);
        pipe.step();
    }
    // The others go on moving, the victim stands still: messages that do not carry it pass.
    let at = pipe.arena.get(victim).unwrap().position();
    let failed = pipe.replica.stats().message_mismatches;
    let checks = pipe.replica.stats().message_checks;
    for t in 10..20 {
        move_parts(&mut pipe.arena, &ids, t);
        pipe.arena.set_position(victim, at).unwrap();
        pipe.step();
    }
    // (One more failure at most: a message sent before the victim stopped may come again.)
    let s = pipe.replica.stats();
    assert!(s.message_checks >= checks + 8 && s.message_mismatches <= failed + 1, "{s:?}");
    // When everything stops, the settled check sees the wrong name too.
    for _ in 0..20 {
        pipe.step();
    }
    let s = pipe.replica.stats();
    assert!(pipe.view.is_settled() && s.hash_checks > before.hash_checks, "{s:?}");
    assert!(s.hash_mismatches > 0, "{s:?}");
}

#[test]
fn a_resync_under_motion_and_loss_passes_every_message_check() {
    let (arena, ids) = place(60);
    let mut pipe = Pipe::new(arena, 1e6);
    pipe.loss = 0.3;
    pipe.converge(100);
    // The client stops acking (but still applies what arrives) long enough to be resynced.
    pipe.silent = true;
    for t in 0..(HISTORY_EPOCHS as usize + 20) {
        move_parts(&mut pipe.arena, &ids, t);
        pipe.step();
    }
    assert!(pipe.view.stats().resyncs >= 1);
    let checks = pipe.replica.stats().message_checks;
    pipe.silent = false;
    for t in 0..60 {
        move_parts(&mut pipe.arena, &ids, 1000 + t);
        pipe.step();
    }
    let s = pipe.replica.stats();
    assert!(s.message_checks > checks + 30 && s.message_mismatches == 0, "{s:?}");
    pipe.converge(200);
    assert_eq!(pipe.replica.world_hash(), pipe.truth_hash());
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 32, ..ProptestConfig::default() })]

    /// Every part moving every tick, with random edits (creates with parent chains,
    /// reparents, clones, destroys), focus jumps that stream units in and out, small budgets
    /// and loss: every applied message passes its entries check (the pipe fails on the
    /// first that does not), and the replica converges once the motion stops.
    #[test]
    fn every_message_check_passes_under_motion_edits_refocuses_and_loss(
        ticks in proptest::collection::vec(
            (
                proptest::collection::vec(edit(), 0..4),
                proptest::option::of((-3000.0f32..3000.0, -3000.0f32..3000.0)),
            ),
            1..40,
        ),
        radius in prop_oneof![Just(1e6f32), Just(1500.0f32), Just(300.0f32)],
        loss in 0.0f64..0.6,
        budget in prop_oneof![Just(1200usize), Just(4096usize)],
        seed in any::<u64>(),
    ) {
        let (arena, mut ids) = place(16);
        let mut pipe = Pipe::new(arena, radius);
        pipe.seed(seed);
        (pipe.loss, pipe.ack_loss, pipe.budget) = (loss, loss / 2.0, budget);
        for (t, (edits, focus)) in ticks.iter().enumerate() {
            for (k, &id) in ids.iter().enumerate() {
                let a = t as f32 * 0.5 + k as f32;
                // Folders and models refuse a position: only parts move.
                let _ = pipe.arena.set_position(id, Vec3::new(a.cos() * 40.0 + k as f32, 1.0, a.sin() * 40.0));
            }
            for e in edits {
                apply(&mut pipe.arena, &mut ids, e);
            }
            if let Some((x, z)) = focus {
                pipe.view.set_focus(Vec3::new(*x, 0.0, *z));
            }
            pipe.step();
        }
        prop_assert_eq!(pipe.replica.stats().message_mismatches, 0);
        pipe.converge(300);
        prop_assert_eq!(pipe.replica.world_hash(), pipe.truth_hash());
        prop_assert_eq!(pipe.replica.stats().message_mismatches, 0);
        prop_assert_eq!(pipe.replica.stats().apply_errors, 0);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    /// Several clients of one server, at different baselines (each its own loss, acks lost,
    /// messages reordered, its own focus), while everything moves and the place is edited:
    /// every message passes its check, no position delta names a base the client lacks,
    /// and each replica converges to the server's hash of what it should hold.
    #[test]
    fn clients_at_different_baselines_under_loss_and_reorder_converge(
        edits in proptest::collection::vec(proptest::collection::vec(edit(), 0..4), 1..40),
        losses in proptest::collection::vec((0.0f64..0.5, 0.0f64..0.4), 3),
        seed in any::<u64>(),
    ) {
        let (arena, mut ids) = place(40);
        let mut pipe = Pipe::new(arena, 1e6);
        pipe.seed(seed);
        pipe.loss = losses[0].0;
        pipe.reorder = losses[0].1;
        pipe.ack_loss = losses[0].0 / 2.0;
        let mut others: Vec<common::OtherClient> = losses[1..]
            .iter()
            .enumerate()
            .map(|(k, &(loss, reorder))| {
                let focus = Vec3::new(40.0 * k as f32, 0.0, 0.0);
                common::OtherClient::new(focus, 300.0 + 200.0 * k as f32, loss, reorder, seed ^ (k as u64 + 1))
            })
            .collect();
        for (t, tick) in edits.iter().enumerate() {
            move_parts(&mut pipe.arena, &ids, t);
            for e in tick {
                apply(&mut pipe.arena, &mut ids, e);
            }
            pipe.step_with(&mut others);
        }
        // Quiet network: everyone settles and holds exactly the server's state.
        pipe.loss = 0.0;
        pipe.ack_loss = 0.0;
        pipe.reorder = 0.0;
        for o in &mut others {
            o.loss = 0.0;
            o.reorder = 0.0;
        }
        for _ in 0..400 {
            pipe.step_with(&mut others);
            if pipe.view.is_settled() && others.iter().all(|o| o.view.is_settled()) {
                break;
            }
        }
        pipe.step_with(&mut others);
        prop_assert_eq!(pipe.replica.world_hash(), pipe.truth_hash());
        for o in &others {
            prop_assert!(o.view.is_settled());
            prop_assert_eq!(o.replica.world_hash(), o.truth_hash(&pipe.arena));
            prop_assert_eq!(o.replica.stats().message_mismatches, 0);
            prop_assert_eq!(o.replica.stats().unresolved, 0);
        }
        prop_assert_eq!(pipe.replica.stats().message_mismatches, 0);
    }
}
