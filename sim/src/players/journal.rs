//! [`SessionInput`] and the journal of them: everything that reaches [`Players`] from outside
//! the tick (a transport's connections, disconnections and client inputs), in call order, so a
//! session can be recorded and replayed (`arbor serve --record`, `arbor replay`).
//!
//! Invariants: only the transport-facing calls ([`Players::connect`], [`Players::disconnect`],
//! [`Players::set_input`]) are journaled, never what the tick does on its own (a processed
//! kick ends a session through the same path but is not an input: a replay redoes it);
//! replaying the journal with [`Players::apply`] makes exactly the calls the live server made,
//! so the sessions, queues and characters come out the same.

use super::{MoveInput, Players};
use arbor_core::Arena;

/// One call a transport made on the sessions.
#[derive(Clone, Debug, PartialEq)]
pub enum SessionInput {
    /// [`Players::connect`].
    Connect {
        /// The user id.
        user_id: u64,
        /// The display name given, if any.
        display_name: Option<String>,
    },
    /// [`Players::disconnect`].
    Disconnect {
        /// The user id.
        user_id: u64,
        /// Why the session ended.
        reason: String,
    },
    /// [`Players::set_input`] that changed the session's input (repeats of the same input
    /// are not journaled: they change nothing).
    Move {
        /// The user id.
        user_id: u64,
        /// The new input.
        input: MoveInput,
    },
}

/// The inputs journaled since the last take, when recording is on.
#[derive(Debug, Default)]
pub(super) struct SessionJournal {
    /// Whether calls are journaled.
    recording: bool,
    /// Journaled calls, in call order.
    inputs: Vec<SessionInput>,
}

impl SessionJournal {
    pub(super) fn push(&mut self, input: impl FnOnce() -> SessionInput) {
        if self.recording {
            self.inputs.push(input());
        }
    }
}

impl Players {
    /// Starts journaling the transport's calls (see [`take_inputs`](Self::take_inputs)).
    pub fn record_inputs(&mut self) {
        self.journal.recording = true;
    }

    /// The calls journaled since the last take, in call order.
    pub fn take_inputs(&mut self) -> Vec<SessionInput> {
        std::mem::take(&mut self.journal.inputs)
    }

    /// A hash of the sessions and every queue between the transport, the tick and scripts
    /// (joins, leaves, pending kicks, deaths, attackers): what a replay compares besides the
    /// world. Not the kicks handed to the transport (its outbox, emptied when it sends them).
    /// Ids count as they are (a replay mints the same ones); fixed across runs and machines.
    pub fn digest(&self) -> u64 {
        let text = format!(
            "{:?}|{:?}|{:?}|{:?}|{:?}|{:?}",
            self.sessions, self.joins, self.leaves, self.kicks, self.died, self.attackers
        );
        // FNV-1a, 64-bit.
        text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
    }

    /// Makes the call `input` describes, as the transport did when it was journaled (the
    /// result of a refused connection is the same as it was, so it is dropped here too).
    pub fn apply(&mut self, arena: &Arena, input: &SessionInput) {
        match input {
            SessionInput::Connect { user_id, display_name } => {
                let _ = self.connect(*user_id, display_name.as_deref());
            }
            SessionInput::Disconnect { user_id, reason } => self.disconnect(arena, *user_id, reason),
            SessionInput::Move { user_id, input } => self.set_input(*user_id, *input),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::Session;
    use super::*;
    use proptest::prelude::*;

    #[derive(Clone, Debug)]
    enum Op {
        Connect(u64),
        Disconnect(u64),
        Move(u64, i8, bool),
        /// Done by the tick, not the transport: replayed by redoing it.
        Kick(u64),
        ProcessKicks,
    }

    fn op() -> impl Strategy<Value = Op> {
        prop_oneof![
            (0u64..6).prop_map(Op::Connect),
            (0u64..6).prop_map(Op::Disconnect),
            ((0u64..6), (-2i8..3), any::<bool>()).prop_map(|(u, d, j)| Op::Move(u, d, j)),
            (0u64..6).prop_map(Op::Kick),
            Just(Op::ProcessKicks),
        ]
    }

    fn sessions(players: &Players) -> Vec<Session> {
        players.user_ids().filter_map(|u| players.session(u).cloned()).collect()
    }

    proptest! {
        #[test]
        fn applying_the_journal_makes_the_same_sessions(ops in proptest::collection::vec(op(), 1..80)) {
            let mut arena = Arena::new();
            let mut live = Players::new(&mut arena).unwrap();
            let mut replica = Players::new(&mut arena).unwrap();
            live.record_inputs();
            for op in ops {
                match op {
                    Op::Connect(u) => {
                        let _ = live.connect(u, Some("n"));
                    }
                    Op::Disconnect(u) => live.disconnect(&arena, u, "gone"),
                    Op::Move(u, d, jump) => {
                        live.set_input(u, MoveInput { direction: [f32::from(d) / 2.0, 0.5], jump });
                    }
                    Op::Kick(u) => {
                        live.kick(u, None);
                        replica.kick(u, None);
                    }
                    Op::ProcessKicks => {
                        live.process_kicks(&arena);
                        replica.process_kicks(&arena);
                    }
                }
                let inputs = live.take_inputs();
                prop_assert!(inputs.len() <= 1);
                for input in &inputs {
                    replica.apply(&arena, input);
                }
                prop_assert_eq!(replica.take_inputs(), Vec::new(), "the replica does not record");
                prop_assert_eq!(sessions(&replica), sessions(&live));
                prop_assert_eq!(replica.pending_joins(), live.pending_joins());
            }
        }
    }

    #[test]
    fn repeats_and_calls_for_absent_users_are_not_journaled() {
        let mut arena = Arena::new();
        let mut players = Players::new(&mut arena).unwrap();
        players.connect(1, None).unwrap();
        assert_eq!(players.take_inputs(), Vec::new(), "not recording yet");
        players.record_inputs();
        let input = MoveInput { direction: [1.0, 0.0], jump: false };
        players.set_input(1, input);
        players.set_input(1, input);
        players.set_input(2, input);
        players.disconnect(&arena, 2, "never here");
        players.disconnect(&arena, 1, "bye");
        assert_eq!(
            players.take_inputs(),
            vec![
                SessionInput::Move { user_id: 1, input },
                SessionInput::Disconnect { user_id: 1, reason: "bye".to_owned() },
            ]
        );
    }
}
