//! Moving one row from one archetype table to another in a single pass (adding or removing
//! a component): each column of the source row is read, swap-removed and appended to its
//! counterpart in the destination in one step, walking both tables' sorted component lists
//! together, instead of an append pass over the destination followed by a removal pass over
//! the source.
//!
//! It keeps the invariants of [`Table`] (and [`Table::swap_remove`]'s handling of the row
//! filling the hole):
//! - a row keeps its revision per component (tick or its chunk's bulk revision, carried in
//!   its tick when it changes chunk; a chunk receiving a row has its bulk revisions folded
//!   into its rows' ticks first), so `changed_since` neither loses nor gains a write;
//! - every row arriving at a new index with a revision newer than its log's horizon is
//!   logged there (the moved row in the destination, the last row filling the hole);
//! - components only the destination holds get zeroed lanes, tick `rev`, and a log entry;
//! - every column is written through copy-on-write chunks, so a snapshot keeps its rows.
//!
//! Lane widths are resolved once per lane and move: ids and row ticks are 64-bit word lanes
//! by construction ([`Table`]'s constructor), so their moves pass `wide = true` as a constant,
//! and a component lane's kind is read once (string or not, then wide or not) instead of
//! again inside each of its swap-remove and push. `add_remove` (ecs_bench_suite, 10,000
//! rows, callgrind over 2 rounds = 80,000 moves): 709 → 657 instructions per move,
//! `add_component` 946 → 895 and `remove_component` 907 → 856 per call; best-of 1.15–1.18
//! → 1.14–1.17 ms (hecs 0.49–0.52 ms in the same runs). Tried and not kept: a
//! const-generic width with a three-way match per lane (649 per move, yet best-of 1.17–1.20
//! ms), and the same with word loads/stores indexing the block and then the word instead of
//! casting the slice (675 per move, best-of 1.20 ms): the loop already runs at a high
//! instruction rate, and what these remove (fused compare-and-branch pairs) was nearly free.

use super::column::{CHUNK_ROWS, Column};
use super::schema::LaneKind;
use super::table::{CompSlot, Table};
use crate::id::Id;

/// Moves `src`'s `row` to the end of `dst` (for the components both hold; components only
/// in `dst` start zeroed with tick `rev`). Returns the new row in `dst` and the id of the
/// instance that moved from `src`'s last row into `row`, if any.
pub(crate) fn move_row(src: &mut Table, dst: &mut Table, row: usize, rev: u64) -> (usize, Option<Id>) {
    let len = src.len;
    let last = len - 1;
    let (row_chunk, last_chunk) = (row / CHUNK_ROWS, last / CHUNK_ROWS);
    let changes_chunk = row_chunk != last_chunk;
    if changes_chunk {
        // The last row changes chunk: it keeps its own revision, not its new chunk's.
        src.settle_bulk(row_chunk, rev);
    }
    if !dst.len.is_multiple_of(CHUNK_ROWS) {
        dst.settle_bulk(dst.len / CHUNK_ROWS, rev);
    }
    let new_row = dst.len;
    // The last row's id, read once: it fills `row` and is the instance that moved.
    let mut moved = None;
    let mover = Mover {
        row,
        len,
        new_row,
        rev,
        changes_chunk,
        at_row: (row_chunk, row % CHUNK_ROWS),
        at_last: (last_chunk, last % CHUNK_ROWS),
        at_new: (new_row / CHUNK_ROWS, new_row % CHUNK_ROWS),
    };
    let id = src.ids.swap_remove_word_at(true, mover.at_row, mover.at_last, None, |w| {
        moved = Some(Id(w));
        w
    });
    dst.ids.push_word_at(true, mover.at_new, id, rev, false);

    let (mut s, mut d) = (0, 0);
    loop {
        match (src.slots.get(s).copied(), dst.slots.get(d).copied()) {
            (Some(a), Some(b)) if a.id == b.id => {
                mover.shared(src, s, a, dst, d, b);
                s += 1;
                d += 1;
            }
            (Some(a), b) if b.is_none_or(|b| a.id < b.id) => {
                mover.dropped(src, s, a);
                s += 1;
            }
            (_, Some(b)) => {
                mover.added(dst, d, b);
                d += 1;
            }
            _ => break,
        }
    }

    src.shrank();
    dst.grew(new_row + 1);
    (new_row, moved)
}

/// One row move's positions: `row` of a source table of `len` rows goes to `new_row`.
struct Mover {
    row: usize,
    len: usize,
    new_row: usize,
    rev: u64,
    /// Whether the source's last row moves to another chunk (to fill `row`).
    changes_chunk: bool,
    /// (chunk, index in chunk) of `row`, of the source's last row, and of `new_row`.
    at_row: (usize, usize),
    at_last: (usize, usize),
    at_new: (usize, usize),
}

impl Mover {
    /// Swap-removes source slot `s`'s tick of `row`. Returns the moving row's revision and
    /// the revision of the last row, which fills `row` (0 when `row` is the last row).
    #[inline(always)]
    fn take_tick(&self, src: &mut Table, s: usize, slot: CompSlot) -> (u64, u64) {
        let (row, last) = (self.row, self.len - 1);
        let (bulk_row, bulk_last) = if src.bulk_stamped {
            (src.bulk_rev(s, row / CHUNK_ROWS), src.bulk_rev(s, last / CHUNK_ROWS))
        } else {
            (0, 0)
        };
        let mut filler_written = 0;
        let tick = src.columns[slot.tick].swap_remove_word_at(
            true,
            self.at_row,
            self.at_last,
            Some(self.rev),
            |tick| {
                filler_written = tick.max(bulk_last);
                // Changing chunk, the row folds its chunk's bulk revision into its own tick.
                if self.changes_chunk { filler_written } else { tick }
            },
        );
        (tick.max(bulk_row), filler_written)
    }

    /// Logs source slot `s`'s last row at `row`, its new index, if it was written after the
    /// log's horizon.
    #[inline]
    fn log_filler(&self, src: &mut Table, s: usize, written: u64) {
        let last = self.len - 1;
        if self.row != last && written > src.logs[s].horizon() {
            src.logs[s].push(self.rev.max(written), self.row, 1, last);
        }
    }

    /// A component both tables hold: its lanes and revision move with the row.
    fn shared(&self, src: &mut Table, s: usize, a: CompSlot, dst: &mut Table, d: usize, b: CompSlot) {
        let rev = self.rev;
        for lane in 0..a.lanes {
            let from = &mut src.columns[a.first_lane + lane];
            let to = &mut dst.columns[b.first_lane + lane];
            self.move_lane(from, to);
        }
        let (written, filler_written) = self.take_tick(src, s, a);
        dst.columns[b.tick].push_word_at(true, self.at_new, written, rev, true);
        self.log_filler(src, s, filler_written);
        if written > dst.logs[d].horizon() {
            dst.logs[d].push(rev.max(written), self.new_row, 1, self.new_row + 1);
        }
    }

    /// A component only the source holds: its lanes are removed.
    fn dropped(&self, src: &mut Table, s: usize, a: CompSlot) {
        let (row, len, rev) = (self.row, self.len, self.rev);
        for col in &mut src.columns[a.first_lane..a.first_lane + a.lanes] {
            if col.kind == LaneKind::Str {
                drop_str(col, row, len, rev);
            } else {
                let wide = col.kind == LaneKind::W64;
                col.swap_remove_word_at(wide, self.at_row, self.at_last, None, |w| w);
            }
        }
        let (_, filler_written) = self.take_tick(src, s, a);
        self.log_filler(src, s, filler_written);
    }

    /// A component only the destination holds: zeroed lanes, tick `rev`, logged.
    fn added(&self, dst: &mut Table, d: usize, b: CompSlot) {
        let (new_row, rev) = (self.new_row, self.rev);
        for col in &mut dst.columns[b.first_lane..b.first_lane + b.lanes] {
            if col.kind == LaneKind::Str {
                add_str(col, new_row, rev);
            } else {
                col.push_word_at(col.kind == LaneKind::W64, self.at_new, 0, rev, false);
            }
        }
        dst.columns[b.tick].push_word_at(true, self.at_new, rev, rev, true);
        dst.logs[d].push(rev, new_row, 1, new_row + 1);
    }

    /// Moves the row of source lane `from` to destination lane `to`.
    #[inline(always)]
    fn move_lane(&self, from: &mut Column, to: &mut Column) {
        if from.kind == LaneKind::Str {
            move_str(from, to, self.row, self.len, self.new_row, self.rev);
        } else {
            let wide = from.kind == LaneKind::W64;
            let word = from.swap_remove_word_at(wide, self.at_row, self.at_last, None, |w| w);
            to.push_word_at(wide, self.at_new, word, self.rev, false);
        }
    }
}

/// Moves `row` of string lane `from` (of `len` rows, swap-removed) to `new_row` of `to` (out
/// of line: the word lanes' path stays small).
#[cold]
#[inline(never)]
fn move_str(from: &mut Column, to: &mut Column, row: usize, len: usize, new_row: usize, rev: u64) {
    let value = from.get(row);
    from.swap_remove(row, len, rev);
    to.push(new_row, value, rev);
}

/// Swap-removes `row` of string lane `col` (of `len` rows).
#[cold]
#[inline(never)]
fn drop_str(col: &mut Column, row: usize, len: usize, rev: u64) {
    col.swap_remove(row, len, rev);
}

/// Appends an empty string as `new_row` of string lane `col`.
#[cold]
#[inline(never)]
fn add_str(col: &mut Column, new_row: usize, rev: u64) {
    col.push_empty(new_row, rev);
}
