//! [`InputHistory`]: the client's side of the command stream. Each client physics step
//! (1/60 s) gets a command with the next sequence number; the history keeps every command
//! the server has not acknowledged yet (what reconciliation replays) and the newest
//! [`MAX_INPUT_COMMANDS`] (what every input message carries, so losing a few messages in a
//! row loses no step).
//!
//! Invariants: sequence numbers start at 1 and rise by one per step; the unacked commands
//! are exactly those with a seq above [`acked`](InputHistory::acked), oldest first,
//! consecutive, at most [`MAX_UNACKED`] (older ones are given up, counted in
//! [`dropped`](InputHistory::dropped)); `acked` never goes back and never passes the newest
//! seq issued (a bogus ack from the wire is refused).

use crate::wire::{CommandWindow, InputCommand, MAX_INPUT_COMMANDS};
use std::collections::VecDeque;

/// Most commands kept unacknowledged (4.3 s of steps): past it the oldest are given up.
pub const MAX_UNACKED: usize = 256;

/// What [`InputHistory::ack`] did with an acknowledgement.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ack {
    /// Newer than the last one: the commands up to it were dropped.
    Advanced,
    /// The same as, or older than, the last one (a late or repeated message): nothing changed.
    Stale,
    /// Names a command never issued: refused.
    Bogus,
}

/// The client's numbered commands.
#[derive(Clone, Debug)]
pub struct InputHistory {
    /// The seq of the newest command issued (0: none yet).
    newest: u32,
    acked: u32,
    unacked: VecDeque<(u32, InputCommand)>,
    window: CommandWindow,
    dropped: u64,
}

impl Default for InputHistory {
    fn default() -> Self {
        Self::new()
    }
}

impl InputHistory {
    /// No command yet.
    pub fn new() -> Self {
        Self { newest: 0, acked: 0, unacked: VecDeque::new(), window: CommandWindow::default(), dropped: 0 }
    }

    /// Issues `command` for the next step; returns its sequence number.
    pub fn push(&mut self, command: InputCommand) -> u32 {
        self.newest = self.newest.wrapping_add(1).max(1);
        let seq = self.newest;
        self.unacked.push_back((seq, command));
        if self.unacked.len() > MAX_UNACKED {
            self.unacked.pop_front();
            self.dropped += 1;
        }
        let kept = self.window.iter().skip((self.window.len() + 1).saturating_sub(MAX_INPUT_COMMANDS));
        // Consecutive by construction: the window's newest is `seq - 1` (or it is empty).
        self.window = CommandWindow::from_commands(kept.chain([(seq, command)])).unwrap_or_default();
        seq
    }

    /// The server applied every command up to `seq`.
    pub fn ack(&mut self, seq: u32) -> Ack {
        if seq > self.newest {
            return Ack::Bogus;
        }
        if seq <= self.acked {
            return Ack::Stale;
        }
        self.acked = seq;
        while self.unacked.front().is_some_and(|&(s, _)| s <= seq) {
            self.unacked.pop_front();
        }
        Ack::Advanced
    }

    /// The newest acknowledged seq (0: none).
    pub fn acked(&self) -> u32 {
        self.acked
    }

    /// The newest seq issued (0: none).
    pub fn newest(&self) -> u32 {
        self.newest
    }

    /// The commands not yet acknowledged, oldest first.
    pub fn unacked(&self) -> impl ExactSizeIterator<Item = (u32, InputCommand)> + '_ {
        self.unacked.iter().copied()
    }

    /// The newest commands, for the next input message.
    pub fn window(&self) -> CommandWindow {
        self.window
    }

    /// Unacked commands given up because more than [`MAX_UNACKED`] waited.
    pub fn dropped(&self) -> u64 {
        self.dropped
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn cmd(i: u32) -> InputCommand {
        InputCommand { movement: [i as i8, 0], buttons: 0 }
    }

    #[test]
    fn acks_drop_what_they_cover_and_bogus_or_stale_ones_change_nothing() {
        let mut h = InputHistory::new();
        assert_eq!(h.ack(1), Ack::Bogus);
        for i in 1..=10 {
            assert_eq!(h.push(cmd(i)), i);
        }
        assert_eq!(h.window().iter().map(|(s, _)| s).collect::<Vec<_>>(), (3..=10).collect::<Vec<_>>());
        assert_eq!(h.ack(4), Ack::Advanced);
        assert_eq!(h.unacked().map(|(s, _)| s).collect::<Vec<_>>(), (5..=10).collect::<Vec<_>>());
        assert_eq!(h.ack(3), Ack::Stale);
        assert_eq!(h.ack(4), Ack::Stale);
        assert_eq!(h.ack(11), Ack::Bogus);
        assert_eq!((h.acked(), h.unacked().len()), (4, 6));
        // The window still carries acked commands (the server drops them).
        assert_eq!(h.window().len(), 8);
    }

    #[test]
    fn an_unanswered_history_is_bounded() {
        let mut h = InputHistory::new();
        for i in 0..(MAX_UNACKED as u32 + 10) {
            h.push(cmd(i));
        }
        assert_eq!((h.unacked().len(), h.dropped()), (MAX_UNACKED, 10));
        assert_eq!(h.unacked().next().map(|(s, _)| s), Some(11));
    }

    proptest! {
        /// Against a model (a list of every command and the highest ack): the unacked ones
        /// are exactly those above the highest valid ack, in order, and the window is the
        /// newest eight issued.
        #[test]
        fn history_matches_a_model(ops in proptest::collection::vec((any::<bool>(), 0u32..80), 0..200)) {
            let mut h = InputHistory::new();
            let mut issued: Vec<(u32, InputCommand)> = Vec::new();
            let mut acked = 0u32;
            for (push, n) in ops {
                if push {
                    let seq = h.push(cmd(n));
                    issued.push((seq, cmd(n)));
                } else {
                    let r = h.ack(n);
                    let newest = issued.last().map_or(0, |c| c.0);
                    let want = if n > newest { Ack::Bogus } else if n <= acked { Ack::Stale } else { Ack::Advanced };
                    prop_assert_eq!(r, want);
                    if want == Ack::Advanced { acked = n; }
                }
                let model: Vec<_> = issued.iter().copied().filter(|c| c.0 > acked).collect();
                prop_assert_eq!(h.unacked().collect::<Vec<_>>(), model);
                let tail = &issued[issued.len().saturating_sub(MAX_INPUT_COMMANDS)..];
                prop_assert_eq!(h.window().iter().collect::<Vec<_>>(), tail.to_vec());
            }
        }
    }
}
