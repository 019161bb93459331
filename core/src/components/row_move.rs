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
//! Every lane of a table's chunk lives in one [`TableChunk`] (see `table_chunk`), so a move makes
//! private at most three chunks, once each: the source chunk holding `row`, the one holding
//! the source's last row (when another), and the destination chunk receiving the row (created
//! if it is the next). Each lane's word then moves with plain loads and stores at the lane's
//! fixed offset in those chunks, with no per-lane ownership check, `Arc` or `Vec` header,
//! enum match or block push and pop: a chunk's buffer never grows, and only a chunk falling
//! empty is dropped (kept as the table's spare).
//!
//! Lane widths are resolved once per lane and move: ids and row ticks are 64-bit word lanes
//! by construction ([`Table`]'s constructor), so their moves pass `wide = true` as a constant,
//! and a component lane's kind is read once (string or not, then wide or not) instead of
//! again inside each of its swap-remove and push. Figures, and what was tried and not
//! kept: `docs/perf/row-moves.md`.

use super::indices::{ChunkIndex, TableRow};
use super::lane_layout::LaneKind;
use super::lane_layout::{CHUNK_ROWS, LaneSpec};
use super::table::{ComponentLanes, Table};
use super::table_chunk::TableChunk;
use super::writelog::WriteLog;
use crate::id::Id;

/// Moves `src`'s `row` to the end of `dst` (for the components both hold; components only
/// in `dst` start zeroed with tick `rev`). Returns the new row in `dst` and the id of the
/// instance that moved from `src`'s last row into `row`, if any.
pub(crate) fn move_row(src: &mut Table, dst: &mut Table, row: TableRow, rev: u64) -> (TableRow, Option<Id>) {
    let row = row.index();
    let len = src.len;
    let last = len - 1;
    let (row_chunk, last_chunk) = (row / CHUNK_ROWS, last / CHUNK_ROWS);
    let changes_chunk = row_chunk != last_chunk;
    if changes_chunk {
        // The last row changes chunk: it keeps its own revision, not its new chunk's.
        src.settle_bulk(ChunkIndex(row_chunk), rev);
    }
    if !dst.len.is_multiple_of(CHUNK_ROWS) {
        dst.settle_bulk(ChunkIndex(dst.len / CHUNK_ROWS), rev);
    }
    let new_row = dst.len;
    let mover = Mover {
        row,
        len,
        new_row,
        rev,
        changes_chunk,
        row_chunk,
        last_chunk,
        i_row: row % CHUNK_ROWS,
        i_last: last % CHUNK_ROWS,
        i_new: new_row % CHUNK_ROWS,
    };
    // Each table chunk the move touches is made private once, for all its lanes.
    let mut to = To {
        columns: &dst.columns,
        logs: &mut dst.logs,
        chunk: dst.chunks.for_write(new_row / CHUNK_ROWS, rev),
    };
    let (row_c, last_c) = if changes_chunk {
        let (a, b) = src.chunks.make_mut_pair(row_chunk, last_chunk);
        (a, Some(b))
    } else {
        (src.chunks.make_mut(row_chunk), None)
    };
    let mut from = From {
        columns: &src.columns,
        logs: &mut src.logs,
        bulk: &src.bulk,
        bulk_stamped: src.bulk_stamped,
        row: row_c,
        last: last_c,
    };
    // The last row's id, read once: it fills `row` and is the instance that moved.
    let mut moved = None;
    // SAFETY: the source's ids lane, 64-bit.
    let id = unsafe {
        from.take_word(&mover, src.ids.at as usize, true, |w| {
            moved = Some(Id(w));
            w
        })
    };
    // SAFETY: the destination's ids lane, 64-bit, and `i_new < CHUNK_ROWS` (a remainder).
    unsafe { to.chunk.set_word_unchecked(dst.ids.at as usize, true, mover.i_new, id) };

    let (src_slots, dst_slots) = (&src.slots, &dst.slots);
    let (mut s, mut d) = (0, 0);
    loop {
        match (src_slots.get(s).copied(), dst_slots.get(d).copied()) {
            (Some(a), Some(b)) if a.id == b.id => {
                mover.shared(&mut from, s, a, &mut to, d, b);
                s += 1;
                d += 1;
            }
            (Some(a), b) if b.is_none_or(|b| a.id < b.id) => {
                mover.dropped(&mut from, s, a);
                s += 1;
            }
            (_, Some(b)) => {
                mover.added(&mut to, d, b);
                d += 1;
            }
            _ => break,
        }
    }

    if mover.i_last == 0 {
        // The source's last chunk held only the row that left it.
        src.chunks.pop_chunk();
    }
    src.shrank();
    dst.grew(new_row + 1);
    (TableRow(new_row), moved)
}

/// One row move's positions: `row` of a source table of `len` rows goes to `new_row`.
struct Mover {
    row: usize,
    len: usize,
    new_row: usize,
    rev: u64,
    /// Whether the source's last row moves to another chunk (to fill `row`).
    changes_chunk: bool,
    /// Chunks of `row` and of the source's last row.
    row_chunk: usize,
    last_chunk: usize,
    /// Indexes inside their chunks of `row`, of the source's last row, and of `new_row`.
    i_row: usize,
    i_last: usize,
    i_new: usize,
}

/// The source table's side of a move: its columns and logs, and its chunks holding `row`
/// and (when another one) the last row, both private.
struct From<'a> {
    columns: &'a [LaneSpec],
    logs: &'a mut [WriteLog],
    bulk: &'a [u64],
    bulk_stamped: bool,
    row: &'a mut TableChunk,
    /// The last row's chunk, if not `row`'s.
    last: Option<&'a mut TableChunk>,
}

/// The destination table's side of a move: its columns and logs, and its chunk receiving
/// the row, private.
struct To<'a> {
    columns: &'a [LaneSpec],
    logs: &'a mut [WriteLog],
    chunk: &'a mut TableChunk,
}

impl To<'_> {
    /// Writes `word` into the new row of the destination's word lane `col` (64-bit if
    /// `wide`).
    #[inline(always)]
    fn put_word(&mut self, m: &Mover, col: LaneSpec, wide: bool, word: u64) {
        debug_assert_eq!(col.kind == LaneKind::W64, wide);
        debug_assert!(col.kind != LaneKind::Str && self.columns.contains(&col));
        // SAFETY: `col` is a word lane of the destination table (callers take it from
        // `self.columns` or its ids lane), whose chunks follow its columns' layout (`Table`
        // invariant), and `i_new < CHUNK_ROWS` (a remainder).
        unsafe { self.chunk.set_word_unchecked(col.at as usize, wide, m.i_new, word) };
    }

    /// Writes tick `tick` into the new row of the destination's tick lane `col`, stamping
    /// its group `rev`.
    #[inline(always)]
    fn put_tick(&mut self, m: &Mover, col: LaneSpec, tick: u64) {
        self.put_word(m, col, true, tick);
        // SAFETY: a lane of the destination table (as in `put_word`), `i_new < CHUNK_ROWS`.
        unsafe { self.chunk.stamp_row_unchecked(col, m.i_new, m.rev) };
    }
}

impl From<'_> {
    /// Removes the moving row's word of the word lane at `at` (`wide`: 64-bit) and returns
    /// it, filling its place with the last row's word passed through `moved` (not called
    /// when the moving row is the last). The last row's word stays as a padding row.
    ///
    /// # Safety
    ///
    /// `at` is the offset of a word lane of the source table (64-bit if `wide`).
    #[inline(always)]
    unsafe fn take_word(&mut self, m: &Mover, at: usize, wide: bool, moved: impl FnOnce(u64) -> u64) -> u64 {
        // SAFETY: `at` is a word lane of the source table (the caller's contract), whose
        // chunks follow its columns' layout (`Table` invariant), and `i_row < CHUNK_ROWS`
        // (a remainder).
        let taken = unsafe { self.row.word_unchecked(at, wide, m.i_row) };
        if m.row != m.len - 1 {
            let filler = match &self.last {
                // SAFETY: as above, `i_last < CHUNK_ROWS` (a remainder).
                Some(last) => unsafe { last.word_unchecked(at, wide, m.i_last) },
                // SAFETY: as above.
                None => unsafe { self.row.word_unchecked(at, wide, m.i_last) },
            };
            // SAFETY: as above.
            unsafe { self.row.set_word_unchecked(at, wide, m.i_row, moved(filler)) };
        }
        taken
    }

    /// Chunk `k`'s bulk revision for component slot `s`.
    #[inline(always)]
    fn bulk_rev(&self, s: usize, k: usize) -> u64 {
        self.bulk[k * self.logs.len() + s]
    }
}

impl Mover {
    /// Swap-removes source slot `s`'s tick of `row`, stamping the written group. Returns the
    /// moving row's revision and the revision of the last row, which fills `row` (0 when
    /// `row` is the last row).
    #[inline(always)]
    fn take_tick(&self, from: &mut From, s: usize, slot: ComponentLanes) -> (u64, u64) {
        let (bulk_row, bulk_last) = if from.bulk_stamped {
            (from.bulk_rev(s, self.row_chunk), from.bulk_rev(s, self.last_chunk))
        } else {
            (0, 0)
        };
        let tick_col = from.columns[slot.tick];
        let mut filler_written = 0;
        // SAFETY: a tick lane of the source table: 64-bit.
        let tick = unsafe {
            from.take_word(self, tick_col.at as usize, true, |tick| {
                filler_written = tick.max(bulk_last);
                // Changing chunk, the row folds its chunk's bulk revision into its own tick.
                if self.changes_chunk { filler_written } else { tick }
            })
        };
        if self.row != self.len - 1 {
            // SAFETY: a lane of the source table, `i_row < CHUNK_ROWS` (a remainder).
            unsafe { from.row.stamp_row_unchecked(tick_col, self.i_row, self.rev) };
        }
        (tick.max(bulk_row), filler_written)
    }

    /// Logs source slot `s`'s last row at `row`, its new index, if it was written after the
    /// log's horizon.
    #[inline]
    fn log_filler(&self, from: &mut From, s: usize, written: u64) {
        let last = self.len - 1;
        if self.row != last && written > from.logs[s].horizon() {
            from.logs[s].push(self.rev.max(written), self.row, 1, last);
        }
    }

    /// A component both tables hold: its lanes and revision move with the row.
    fn shared(&self, from: &mut From, s: usize, a: ComponentLanes, to: &mut To, d: usize, b: ComponentLanes) {
        let rev = self.rev;
        for lane in 0..a.lanes {
            let (fc, tc) = (from.columns[a.first_lane + lane], to.columns[b.first_lane + lane]);
            if fc.kind == LaneKind::Str {
                let value = take_str(from, self, fc);
                to.chunk.strs_mut(tc)[self.i_new] = value;
            } else {
                let wide = fc.kind == LaneKind::W64;
                // SAFETY: a word lane of the source table, 64-bit if `wide`.
                let word = unsafe { from.take_word(self, fc.at as usize, wide, |w| w) };
                to.put_word(self, tc, wide, word);
            }
        }
        let (written, filler_written) = self.take_tick(from, s, a);
        to.put_tick(self, to.columns[b.tick], written);
        self.log_filler(from, s, filler_written);
        if written > to.logs[d].horizon() {
            to.logs[d].push(rev.max(written), self.new_row, 1, self.new_row + 1);
        }
    }

    /// A component only the source holds: its lanes are removed.
    fn dropped(&self, from: &mut From, s: usize, a: ComponentLanes) {
        for lane in 0..a.lanes {
            let col = from.columns[a.first_lane + lane];
            if col.kind == LaneKind::Str {
                take_str(from, self, col);
            } else {
                // SAFETY: a word lane of the source table, 64-bit if its kind says so.
                unsafe { from.take_word(self, col.at as usize, col.kind == LaneKind::W64, |w| w) };
            }
        }
        let (_, filler_written) = self.take_tick(from, s, a);
        self.log_filler(from, s, filler_written);
    }

    /// A component only the destination holds: zeroed lanes, tick `rev`, logged.
    fn added(&self, to: &mut To, d: usize, b: ComponentLanes) {
        let (new_row, rev) = (self.new_row, self.rev);
        for lane in b.first_lane..b.first_lane + b.lanes {
            let col = to.columns[lane];
            if col.kind == LaneKind::Str {
                to.chunk.strs_mut(col)[self.i_new] = None;
            } else {
                to.put_word(self, col, col.kind == LaneKind::W64, 0);
            }
        }
        to.put_tick(self, to.columns[b.tick], rev);
        to.logs[d].push(rev, new_row, 1, new_row + 1);
    }
}

/// Removes the moving row's string of string lane `col` and returns it, moving the last
/// row's into its place (out of line: the word lanes' path stays small).
#[cold]
#[inline(never)]
fn take_str(from: &mut From, m: &Mover, col: LaneSpec) -> Option<std::sync::Arc<str>> {
    let taken = from.row.strs_mut(col)[m.i_row].take();
    if m.row != m.len - 1 {
        let filler = match &mut from.last {
            Some(last) => last.strs_mut(col)[m.i_last].take(),
            None => from.row.strs_mut(col)[m.i_last].take(),
        };
        from.row.strs_mut(col)[m.i_row] = filler;
    }
    taken
}
