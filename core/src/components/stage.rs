//! Staged row appends for batch spawns: a batch's lanes are written past a table's length
//! while its bundles stream in (their number unknown until the iterator ends), and only
//! counted once the batch's instances exist.
//!
//! [`Table::stage_lanes`] appends lane words piece by piece without stamping anything;
//! [`Table::commit_staged`] then writes the rows' ids and ticks, stamps the touched chunks,
//! grows the table and logs the rows; [`Table::unstage`] drops staged rows instead (a refused
//! batch, or a panicking iterator), leaving the table exactly as it was.
//!
//! Invariants: between staging and commit or unstage, the table's chunks hold its `len` rows
//! plus the staged ones (every lane column written for them; the ids, tick, bulk and log
//! bookkeeping only for `len`), and nothing reads the table; a staged row's lanes are
//! written into chunks private to this table (copied first if a snapshot shared them), so
//! snapshots never see staged rows.

use super::lane_layout::CHUNK_ROWS;
use super::table::Table;
use crate::id::Id;

/// Drops the staged rows of a table if dropped armed (a panic inside a staging `fill`).
struct Unstage<'a> {
    table: &'a mut Table,
    armed: bool,
}

impl Drop for Unstage<'_> {
    fn drop(&mut self) {
        if self.armed {
            self.table.unstage();
        }
    }
}

impl Table {
    /// Stages rows past `len`, a piece at a time: `fill(table, row, room)` writes up to
    /// `room` rows from `row` (`room` at most `piece`, within one chunk, and together at most
    /// `limit` rows) into every lane column with [`stage_words`](Table::stage_words), and
    /// returns how many it wrote;
    /// staging stops at the first piece short of its room, or at `limit`. Returns the number
    /// of rows staged (commit or unstage them next). A panic in `fill` unstages every row.
    pub fn stage_lanes(
        &mut self,
        piece: usize,
        limit: usize,
        mut fill: impl FnMut(&mut Table, usize, usize) -> usize,
    ) -> usize {
        let start = self.len;
        let mut guard = Unstage { table: self, armed: true };
        let mut staged = 0;
        while staged < limit {
            let row = start + staged;
            let room = (CHUNK_ROWS - row % CHUNK_ROWS).min(piece).min(limit - staged);
            let rows = fill(guard.table, row, room);
            debug_assert!(rows <= room);
            staged += rows.min(room);
            if rows < room {
                break;
            }
        }
        guard.armed = false;
        staged
    }

    /// Commits the rows staged past `len` for `ids` (one per staged row, in order), with row
    /// ticks `rev`: writes their ids and ticks, stamps every chunk they touch `rev`, grows the
    /// table and logs the rows. Returns the first new row.
    pub fn commit_staged(&mut self, ids: &[Id], rev: u64) -> usize {
        let start = self.len;
        let n = ids.len();
        self.extend_words(self.ids, start, n, rev, |r| ids[r].0);
        for s in 0..self.slots.len() {
            let slot = self.slots[s];
            self.extend_words(self.columns[slot.tick], start, n, rev, |_| rev);
            if n > 0 {
                for c in slot.first_lane..slot.first_lane + slot.lanes {
                    self.stamp_rows(self.columns[c], start, start + n, rev);
                }
            }
        }
        self.grew(start + n);
        for log in &mut self.logs {
            log.push(rev, start, n, start + n);
        }
        start
    }

    /// Drops every row staged past `len`: the table is as it was before staging.
    pub fn unstage(&mut self) {
        self.truncate_chunks(self.len);
    }
}
