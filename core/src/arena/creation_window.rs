//! The bound on creations per window (the simulation opens one window per tick): at most
//! [`Arena::max_creations_per_window`] nodes are allocated between two calls of
//! [`Arena::begin_creation_window`], so one tick of scripts cannot clone a million
//! instances even where the instance cap would allow it. Place loading runs before any
//! window is bounded.
//!
//! Invariant: `created` counts every node allocated since the arena was made and not rolled
//! back (a failed clone or graft restores it with the rest of its checkpoint).

use super::Arena;
use crate::error::ArenaError;

impl Arena {
    /// Most nodes one creation window may allocate (unbounded unless set).
    pub fn max_creations_per_window(&self) -> usize {
        self.config.max_creations_per_window
    }

    /// Sets [`max_creations_per_window`](Self::max_creations_per_window).
    pub fn set_max_creations_per_window(&mut self, max: usize) {
        self.config.max_creations_per_window = max;
    }

    /// Opens a new creation window (the simulation calls it at the start of every tick).
    pub fn begin_creation_window(&mut self) {
        self.window_start = self.created;
    }

    /// How many more nodes may be allocated now: the room under the node cap and in the
    /// window, whichever is less.
    pub(crate) fn creation_room(&self) -> usize {
        let under_cap = self.config.max_nodes.saturating_sub(self.occupied);
        let in_window = self
            .window_start
            .saturating_add(self.config.max_creations_per_window)
            .saturating_sub(self.created);
        under_cap.min(in_window)
    }

    /// Refuses allocating `count` more nodes if that passes the node cap or the window.
    pub(crate) fn check_room(&self, count: usize) -> Result<(), ArenaError> {
        if self.occupied.saturating_add(count) > self.config.max_nodes {
            return Err(ArenaError::Full(self.config.max_nodes));
        }
        if count > self.creation_room() {
            return Err(ArenaError::TooManyCreations(self.config.max_creations_per_window));
        }
        Ok(())
    }
}
