//! The bound on the text a place holds: instance names (the name pool, which never frees),
//! string attribute values and `String` component fields, counted in bytes against
//! [`Arena::max_text_bytes`].
//!
//! Writes that add text are admitted against a running estimate: the exact figure of the last
//! count plus every byte admitted since (bytes freed are not subtracted, so the estimate only
//! over-counts). When the estimate would pass the limit, the arena counts again exactly (one
//! pass over its pages and component chunks) and refuses the write if the place then holds
//! more than seven eighths of the limit, or the write would pass it. The slack of one eighth
//! means a count runs at most once per `limit / 8` bytes admitted, so a place near its limit
//! pays an amortized constant per write.
//!
//! Invariant: `counted + admitted` is at least the text the place holds, unless text entered
//! by a path that does not admit it (a place file, a clone: both bounded by the instance cap
//! and counted at the next exact count).

use super::Arena;
use crate::error::ArenaError;

/// The running estimate of an arena's text.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct TextBudget {
    /// Bytes at the last exact count.
    counted: usize,
    /// Bytes admitted since.
    admitted: usize,
}

impl Arena {
    /// Bytes of text the place holds now: interned names, string attribute values and
    /// `String` component fields (each holder of a shared string counted). One pass over the
    /// storage.
    pub fn text_bytes(&self) -> usize {
        let pages = self.store.table.page_count();
        let attributes: usize = (0..pages).map(|p| self.store.table.page_at(p).text_bytes()).sum();
        self.names.text_bytes() + attributes + self.components.text_bytes()
    }

    /// Most bytes of text the place may hold (see [`Arena::text_bytes`]); writes past it
    /// are refused with [`ArenaError::TextFull`], changing nothing.
    pub fn max_text_bytes(&self) -> usize {
        self.config.max_text_bytes
    }

    /// Sets [`max_text_bytes`](Self::max_text_bytes).
    pub fn set_max_text_bytes(&mut self, max: usize) {
        self.config.max_text_bytes = max;
    }

    /// Interns `name`, admitting its bytes first if it is new to the pool.
    pub(crate) fn intern_admitted(&mut self, name: &str) -> Result<crate::names::NameId, ArenaError> {
        if let Some(id) = self.names.find(name) {
            return Ok(id);
        }
        self.admit_text(name.len() + crate::names::NAME_OVERHEAD)?;
        Ok(self.intern(name))
    }

    /// Admits a write adding `bytes` of text, or refuses it (see the module docs).
    pub(crate) fn admit_text(&mut self, bytes: usize) -> Result<(), ArenaError> {
        let limit = self.config.max_text_bytes;
        if bytes == 0 || limit == usize::MAX {
            return Ok(());
        }
        let estimate = self.text.counted.saturating_add(self.text.admitted).saturating_add(bytes);
        if estimate <= limit {
            self.text.admitted += bytes;
            return Ok(());
        }
        let held = self.text_bytes();
        self.text = TextBudget { counted: held, admitted: 0 };
        if held > limit - limit / 8 || held.saturating_add(bytes) > limit {
            return Err(ArenaError::TextFull(limit));
        }
        self.text.admitted = bytes;
        Ok(())
    }
}
