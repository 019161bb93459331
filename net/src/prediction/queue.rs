//! [`CommandQueue`]: the server's side of one client's command stream. Input messages bring
//! windows of numbered commands (redundant, unreliable, possibly late or out of order); the
//! queue keeps the new ones in sequence order and hands the tick exactly one per physics
//! step: the oldest queued, or, when none is queued, the last one again.
//!
//! Invariants: commands come out in rising sequence order, each at most once as a new
//! command (a repeat is flagged by [`repeats`](CommandQueue::repeats)); a command at or below
//! the newest one applied or queued is dropped on arrival; at most [`MAX_QUEUED_COMMANDS`]
//! wait (past it the oldest are skipped, so a burst after a stall cannot build a lasting
//! delay); nothing here panics on any window the decoder accepts.

use crate::wire::{CommandWindow, InputCommand};
use std::collections::VecDeque;

/// Most commands waiting for their tick per client (100 ms of steps).
pub const MAX_QUEUED_COMMANDS: usize = 6;

/// One client's queue of commands not yet applied.
#[derive(Clone, Debug, Default)]
pub struct CommandQueue {
    queue: VecDeque<(u32, InputCommand)>,
    /// The seq of the newest command applied (0: none).
    applied: u32,
    /// The command applied last (repeated while the queue is empty).
    current: Option<InputCommand>,
    repeats: u8,
    skipped: u64,
    /// Steps that did not apply the next command in sequence, so far (wrapping).
    irregular: u32,
}

impl CommandQueue {
    /// An empty queue.
    pub fn new() -> Self {
        Self::default()
    }

    /// Queues the commands of `window` newer than every command applied or queued, in order
    /// (a gap, the commands of messages all lost, stays a gap); returns how many.
    pub fn receive(&mut self, window: &CommandWindow) -> usize {
        let mut added = 0;
        for (seq, command) in window.iter() {
            let newest = self.queue.back().map_or(self.applied, |&(s, _)| s);
            if seq > newest {
                self.queue.push_back((seq, command));
                added += 1;
            }
        }
        while self.queue.len() > MAX_QUEUED_COMMANDS {
            self.queue.pop_front();
            self.skipped += 1;
            self.irregular = self.irregular.wrapping_add(1);
        }
        added
    }

    /// The command for this physics step: the oldest queued, else the last applied again;
    /// `None` before the first command.
    pub fn next_step(&mut self) -> Option<InputCommand> {
        match self.queue.pop_front() {
            Some((seq, command)) => {
                if self.applied != 0 && seq != self.applied.wrapping_add(1) {
                    self.irregular = self.irregular.wrapping_add(1); // a gap: commands lost
                }
                self.applied = seq;
                self.current = Some(command);
                self.repeats = 0;
            }
            None if self.current.is_some() => {
                self.repeats = self.repeats.saturating_add(1);
                self.irregular = self.irregular.wrapping_add(1);
            }
            None => {}
        }
        self.current
    }

    /// The seq of the newest command applied (0: none).
    pub fn applied(&self) -> u32 {
        self.applied
    }

    /// Steps since the applied command was first applied (each repeated it), up to 255.
    pub fn repeats(&self) -> u8 {
        self.repeats
    }

    /// Steps so far that did not apply the next command in sequence (a repeat of the last
    /// command, commands skipped or lost), modulo 256.
    pub fn irregular(&self) -> u8 {
        self.irregular as u8
    }

    /// Commands waiting.
    pub fn len(&self) -> usize {
        self.queue.len()
    }

    /// Whether none waits.
    pub fn is_empty(&self) -> bool {
        self.queue.is_empty()
    }

    /// Commands skipped because more than [`MAX_QUEUED_COMMANDS`] waited.
    pub fn skipped(&self) -> u64 {
        self.skipped
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn cmd(seq: u32) -> InputCommand {
        InputCommand { movement: [(seq % 100) as i8, 1], buttons: 0 }
    }

    fn window(from: u32, to: u32) -> CommandWindow {
        CommandWindow::from_commands((from..=to).map(|s| (s, cmd(s)))).unwrap()
    }

    #[test]
    fn one_command_per_step_in_order_repeating_the_last_when_starved() {
        let mut q = CommandQueue::new();
        assert_eq!(q.next_step(), None);
        assert_eq!(q.receive(&window(1, 3)), 3);
        assert_eq!(q.receive(&window(1, 4)), 1); // redundancy: only 4 is new
        for s in 1..=4 {
            assert_eq!(q.next_step(), Some(cmd(s)));
            assert_eq!((q.applied(), q.repeats()), (s, 0));
        }
        assert_eq!(q.next_step(), Some(cmd(4)));
        assert_eq!((q.applied(), q.repeats()), (4, 1));
        // A late message with old commands adds nothing; a gap stays a gap.
        assert_eq!(q.receive(&window(2, 4)), 0);
        assert_eq!(q.receive(&window(7, 8)), 2);
        assert_eq!(q.next_step(), Some(cmd(7)));
        assert_eq!((q.applied(), q.repeats()), (7, 0));
        // One repeat and one gap since the start.
        assert_eq!(q.irregular(), 2);
    }

    #[test]
    fn a_burst_is_trimmed_to_the_newest_commands() {
        let mut q = CommandQueue::new();
        q.receive(&window(1, 8));
        assert_eq!((q.len(), q.skipped()), (MAX_QUEUED_COMMANDS, 2));
        assert_eq!(q.next_step(), Some(cmd(3)));
    }

    proptest! {
        /// Random windows (any order, overlaps, gaps) against a model: what comes out rises
        /// strictly, each new seq was sent, and nothing sent newer than the last applied is
        /// lost unless the queue overflowed.
        #[test]
        fn the_queue_matches_a_model(ops in proptest::collection::vec((0u32..60, 0u32..8, any::<bool>()), 0..120)) {
            let mut q = CommandQueue::new();
            let mut sent = std::collections::BTreeSet::new();
            let mut last = 0u32;
            for (start, len, tick) in ops {
                if tick {
                    let before = q.applied();
                    let out = q.next_step();
                    if q.applied() != before {
                        prop_assert!(q.applied() > last);
                        prop_assert!(sent.contains(&q.applied()));
                        prop_assert_eq!(out, Some(cmd(q.applied())));
                        last = q.applied();
                    } else if out.is_some() {
                        prop_assert!(q.repeats() > 0);
                    }
                } else {
                    let w = window(start + 1, start + 1 + len);
                    let before = q.len() as u64 + q.skipped();
                    let added = q.receive(&w) as u64;
                    sent.extend(w.iter().map(|(s, _)| s));
                    prop_assert_eq!(q.len() as u64 + q.skipped(), before + added);
                }
                prop_assert!(q.len() <= MAX_QUEUED_COMMANDS);
            }
        }
    }
}
