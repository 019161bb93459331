//! The property test of [`WorldHasher`]: random sequences of the undo property test's
//! operations (create, batch, clone, graft, reparent, detach, destroy, attributes, tags,
//! names, transforms, `node_mut`, handles, references, components, fields, script sources,
//! flags) mixed with event drains (slot reuse), undo scopes rolled back or committed,
//! snapshots, POD rows and chunk passes, in arenas whose logs are tiny or default. After every
//! step a hasher updated at each step, and one updated every few steps, must equal the full
//! [`Arena::world_hash`]; with default log capacities neither may fall back to a rebuild.

use super::prop::{Op, apply, by_slot, by_tree, op};
use super::{Position, check, world_with};
use crate::components::{Lane, Query};
use crate::{Arena, ArenaConfig, Id, WorldHasher};
use proptest::prelude::*;

#[derive(Clone, Debug)]
enum Step {
    Op(Op),
    /// Picks nodes in tree order instead of slot order.
    TreeOp(Op),
    Drain,
    Begin,
    End(bool),
    Snapshot,
    Pod(u16, i8),
    Pass(i8),
}

fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        30 => op().prop_map(Step::Op),
        6 => op().prop_map(Step::TreeOp),
        3 => Just(Step::Drain),
        1 => Just(Step::Begin),
        1 => any::<bool>().prop_map(Step::End),
        1 => Just(Step::Snapshot),
        2 => (any::<u16>(), any::<i8>()).prop_map(|(n, x)| Step::Pod(n, x)),
        2 => any::<i8>().prop_map(Step::Pass),
    ]
}

fn config(small: u8) -> ArenaConfig {
    let base = ArenaConfig::default();
    match small % 3 {
        0 => base,
        1 => ArenaConfig {
            part_write_log_capacity: 4,
            journal_capacity: 4,
            component_write_log_capacity: 2,
            ..base
        },
        _ => ArenaConfig { part_write_log_capacity: 16, journal_capacity: 32, ..base },
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(384))]

    #[test]
    fn the_incremental_hash_equals_the_full_one_after_every_step(
        small in any::<u8>(),
        steps in prop::collection::vec(step(), 1..80),
        lazy_every in 2..7usize,
    ) {
        let default_logs = small % 3 == 0;
        let (mut a, c) = world_with(config(small));
        let mut eager = WorldHasher::new();
        let mut lazy = WorldHasher::new();
        prop_assert_eq!(eager.update(&a), a.world_hash());
        lazy.update(&a);
        let mut scoped = false;
        let mut snapshots = Vec::new();
        for (k, s) in steps.iter().enumerate() {
            match s {
                Step::Op(op) => apply(&mut a, c, op, by_slot),
                Step::TreeOp(op) => apply(&mut a, c, op, by_tree),
                Step::Drain if !scoped => drop(a.drain_events()),
                Step::Drain => {}
                Step::Begin => scoped |= a.begin_undo().is_ok(),
                Step::End(commit) if scoped => {
                    if *commit { a.commit_undo() } else { a.rollback_undo() }
                    scoped = false;
                }
                Step::End(_) => {}
                Step::Snapshot => snapshots.push(a.snapshot()),
                Step::Pod(n, x) => {
                    let list: Vec<Id> = by_slot(&a);
                    let id = list[usize::from(*n) % list.len()];
                    let _ = a.insert_pod(id, &(Position { p: [f32::from(*x), 0.0, 1.0] },));
                }
                Step::Pass(x) => {
                    if let Some(pos) = a.components().component("Position") {
                        let lane = Lane { component: pos, lane: u16::from(x.unsigned_abs() % 3) };
                        let v = f32::from(*x);
                        a.for_each_chunk_mut(&mut Query::new(&[pos]), &[], &[lane], |mut chunk| {
                            chunk.write::<f32>(0).iter_mut().step_by(2).for_each(|p| *p += v);
                        });
                    }
                }
            }
            let full = a.world_hash();
            prop_assert_eq!(eager.update(&a), full, "eager, after step {} {:?}", k, s);
            prop_assert!(!default_logs || !eager.stats().rebuilt, "default logs never lose history");
            if k % lazy_every == lazy_every - 1 {
                prop_assert_eq!(lazy.update(&a), full, "lazy, after step {} {:?}", k, s);
                prop_assert!(!default_logs || !lazy.stats().rebuilt);
            }
        }
        if scoped {
            a.rollback_undo();
        }
        check(&a);
        prop_assert_eq!(lazy.update(&a), a.world_hash());
        prop_assert_eq!(eager.update(&a), a.world_hash());
        drop(snapshots);
    }
}

/// A hasher that rebuilt agrees with one that followed, on a world of every kind of node.
#[test]
fn a_followed_world_and_a_fresh_hasher_agree() {
    let (mut a, c) = world_with(ArenaConfig::default());
    let mut h = WorldHasher::new();
    h.update(&a);
    let runner = |a: &mut Arena, k: u16| {
        apply(a, c, &Op::Create((k % 8) as u8, k.wrapping_mul(7919)), by_slot);
        apply(a, c, &Op::Reference(k.wrapping_mul(31), (k % 2) as u8, k.wrapping_mul(17)), by_slot);
    };
    for k in 0..200u16 {
        runner(&mut a, k);
        if k % 9 == 0 {
            a.drain_events();
        }
    }
    let followed = h.update(&a);
    assert!(!h.stats().rebuilt);
    assert_eq!(followed, WorldHasher::new().update(&a));
    assert_eq!(followed, a.world_hash());
}
