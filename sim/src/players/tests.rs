//! Random sequences of connects, disconnects, kicks, binds and destroys checked against a
//! plain model: one session per user, one character per user and per character, queues
//! bounded at 64, `PlayerLeft` only for users whose join fired, characters of leavers gone.

use super::*;
use arbor_core::Class;
use proptest::prelude::*;
use std::collections::BTreeSet;

#[derive(Clone, Debug)]
enum Op {
    Connect(u64),
    Disconnect(u64),
    Kick(u64),
    NetworkTick,
    AdmitJoins,
    Bind(u64, usize),
    Destroy(usize),
    FinishLeaves,
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        (0u64..12).prop_map(Op::Connect),
        (0u64..12).prop_map(Op::Disconnect),
        (0u64..12).prop_map(Op::Kick),
        Just(Op::NetworkTick),
        Just(Op::AdmitJoins),
        ((0u64..12), (0usize..6)).prop_map(|(u, c)| Op::Bind(u, c)),
        (0usize..6).prop_map(Op::Destroy),
        Just(Op::FinishLeaves),
    ]
}

proptest! {
    #[test]
    fn sessions_keep_their_invariants(ops in proptest::collection::vec(op(), 1..120)) {
        let mut arena = Arena::new();
        let ws = arena.workspace();
        let mut players = Players::new(&mut arena).unwrap();
        let characters: Vec<Id> = (0..6)
            .map(|i| {
                let c = arena.create(Class::Character, &format!("C{i}"), Some(ws)).unwrap();
                arena.create(Class::Part, HUMANOID_ROOT_PART, Some(c)).unwrap();
                c
            })
            .collect();
        let mut joined: BTreeSet<u64> = BTreeSet::new(); // PlayerJoined fired
        for op in ops {
            match op {
                Op::Connect(u) => {
                    let had = players.session(u).is_some();
                    let queued = players.pending_joins();
                    let r = players.connect(u, None);
                    prop_assert_eq!(r.is_ok(), u != 0 && !had && queued < MAX_PENDING_JOINS);
                }
                Op::Disconnect(u) => players.disconnect(&arena, u, "gone"),
                Op::Kick(u) => {
                    let pending = players.pending_kicks();
                    prop_assert_eq!(players.kick(u, None), u != 0 && pending < MAX_PENDING_KICKS);
                }
                Op::NetworkTick => {
                    players.process_kicks(&arena);
                    for (u, _) in players.take_kicked() {
                        prop_assert!(players.session(u).is_none());
                    }
                }
                Op::AdmitJoins => joined.extend(players.take_joins()),
                Op::Bind(u, c) => {
                    let c = characters[c];
                    let before = players.character_of(&arena, u);
                    let r = players.bind_character(&mut arena, u, c);
                    if r.is_ok() {
                        prop_assert!(before.is_none());
                        prop_assert_eq!(players.character_of(&arena, u), Some(c));
                    } else {
                        prop_assert_eq!(players.character_of(&arena, u), before);
                    }
                }
                Op::Destroy(c) => {
                    let _ = arena.destroy(characters[c]);
                }
                Op::FinishLeaves => {
                    for leave in players.leaving() {
                        prop_assert!(joined.contains(&leave.user_id), "PlayerLeft only after PlayerJoined");
                    }
                    let gone: Vec<Option<Id>> = players.leaving().iter().map(|l| l.character).collect();
                    players.finish_leaves(&mut arena);
                    for c in gone.into_iter().flatten() {
                        prop_assert!(!arena.contains(c));
                    }
                    joined.retain(|u| players.session(*u).is_some());
                }
            }
            prop_assert!(players.pending_joins() <= MAX_PENDING_JOINS);
            prop_assert!(players.pending_kicks() <= MAX_PENDING_KICKS);
            let owned: Vec<Id> = players.user_ids().filter_map(|u| players.character_of(&arena, u)).collect();
            let distinct: BTreeSet<Id> = owned.iter().copied().collect();
            prop_assert_eq!(owned.len(), distinct.len(), "a character has one owner");
        }
    }
}
