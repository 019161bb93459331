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
