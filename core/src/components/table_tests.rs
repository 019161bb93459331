//! Tests of the table-chunk layout: copy-on-write of whole table chunks, row moves across
//! chunk boundaries, string lanes.

use super::*;
use crate::components::indices::{ChunkIndex, ComponentSlot, TableRow};
use crate::components::row_move::move_row;
use crate::components::schema::{FieldDef, FieldType, Schema};
use std::sync::Arc;

/// A registry with `P` (an f32 and an i64 lane) and `L` (a string lane), and their ids.
fn registry() -> (SchemaRegistry, ComponentId, ComponentId) {
    let mut reg = SchemaRegistry::default();
    let p = reg
        .register(Schema::new(
            "P",
            vec![FieldDef::new("x", FieldType::F32), FieldDef::new("y", FieldType::I64)],
        ))
        .unwrap();
    let l = reg.register(Schema::new("L", vec![FieldDef::new("text", FieldType::String)])).unwrap();
    (reg, p, l)
}

fn text(r: usize) -> Option<Arc<str>> {
    Some(format!("row {r}").into())
}

/// A table of `set` holding `rows` rows: row `r` is instance `r + 1`, with `x = r`,
/// `y = -r` and (if the table has `L`) the text `row r`.
fn filled(reg: &SchemaRegistry, set: &[ComponentId], rows: usize) -> Table {
    let mut t = Table::new(set.into(), reg, 64);
    for r in 0..rows {
        t.push_row(Id(r as u64 + 1), 1);
        write_row(&mut t, reg, r, r, 1);
    }
    t
}

/// Writes values `v` into `row` of every component of `t`.
fn write_row(t: &mut Table, reg: &SchemaRegistry, row: usize, v: usize, rev: u64) {
    for s in t.component_slots() {
        let lanes: Vec<LaneValue> = if reg.info(t.lanes_of(s).id).schema.name.as_ref() == "P" {
            vec![LaneValue::Word(u64::from((v as f32).to_bits())), LaneValue::Word(-(v as i64) as u64)]
        } else {
            vec![LaneValue::Str(text(v))]
        };
        t.write_lanes(TableRow(row), s, lanes, rev);
    }
}

/// Asserts `row` of `t` holds instance `v + 1` and its values (see [`filled`]).
fn assert_row(t: &Table, reg: &SchemaRegistry, row: usize, v: usize) {
    assert_eq!(t.id_at(TableRow(row)), Id(v as u64 + 1), "id of row {row}");
    assert_lanes(t, reg, row, v);
}

/// Asserts `row` of `t` holds values `v` (see [`write_row`]).
fn assert_lanes(t: &Table, reg: &SchemaRegistry, row: usize, v: usize) {
    for slot in &t.slots {
        let lane = |i: usize| t.chunks.get(t.columns[slot.first_lane + i], row);
        if reg.info(slot.id).schema.name.as_ref() == "P" {
            assert_eq!(lane(0), LaneValue::Word(u64::from((v as f32).to_bits())), "x of row {row}");
            assert_eq!(lane(1), LaneValue::Word(-(v as i64) as u64), "y of row {row}");
        } else {
            assert_eq!(lane(0), LaneValue::Str(text(v)), "text of row {row}");
        }
    }
}

#[test]
fn a_write_after_a_clone_copies_one_table_chunk_with_all_its_lanes() {
    let (reg, p, l) = registry();
    let mut table = filled(&reg, &[p, l], 2500);
    let snap = table.clone();
    assert!((0..3).all(|k| table.chunks.shares(&snap.chunks, k)));
    write_row(&mut table, &reg, 1500, 9999, 2);
    assert!(table.chunks.shares(&snap.chunks, 0) && table.chunks.shares(&snap.chunks, 2));
    assert!(!table.chunks.shares(&snap.chunks, 1), "the written table chunk is copied");
    assert_lanes(&table, &reg, 1500, 9999);
    // The snapshot keeps every lane of the copied chunk, strings included.
    (0..2500).for_each(|r| assert_row(&snap, &reg, r, r));
    (1024..2048).filter(|&r| r != 1500).for_each(|r| assert_row(&table, &reg, r, r));
    // Only the written component's tick lane revisions moved.
    let (s0, k0, k1) = (ComponentSlot(0), ChunkIndex(0), ChunkIndex(1));
    assert_eq!((table.chunk_revision(s0, k1), snap.chunk_revision(s0, k1)), (2, 1));
    assert_eq!(table.chunk_revision(s0, k0), 1);
    // Written again: already private, nothing else copied.
    write_row(&mut table, &reg, 1501, 7, 3);
    assert!(table.chunks.shares(&snap.chunks, 0) && table.chunks.shares(&snap.chunks, 2));
}

#[test]
fn row_moves_cross_chunk_boundaries_on_both_sides_and_keep_every_lane() {
    let (reg, p, l) = registry();
    let mut src = filled(&reg, &[p, l], CHUNK_ROWS + 3);
    let mut dst = filled(&reg, &[p], CHUNK_ROWS - 2);
    let snap = (src.clone(), dst.clone());
    // Row 5 leaves; the last row (in chunk 1) fills its place in chunk 0.
    let (new_row, moved) = move_row(&mut src, &mut dst, TableRow(5), 2);
    assert_eq!((new_row, moved), (TableRow(CHUNK_ROWS - 2), Some(Id(CHUNK_ROWS as u64 + 3))));
    assert_row(&src, &reg, 5, CHUNK_ROWS + 2);
    assert_eq!(dst.id_at(new_row), Id(6));
    assert_eq!(dst.chunks.word(dst.columns[0], new_row.index()), u64::from(5f32.to_bits()));
    // Three more moves: the source's last chunk empties and is dropped, the destination
    // gains a chunk.
    for row in [6, 7, 8] {
        move_row(&mut src, &mut dst, TableRow(row), 3);
    }
    assert_eq!((src.len, src.chunks.len()), (CHUNK_ROWS - 1, 1));
    assert_eq!((dst.len, dst.chunks.len()), (CHUNK_ROWS + 2, 2));
    assert_eq!(
        [6, 7, 8].map(|r| src.id_at(TableRow(r))),
        [CHUNK_ROWS + 2, CHUNK_ROWS + 1, CHUNK_ROWS].map(|v| Id(v as u64))
    );
    for (i, v) in [5, 6, 7, 8].into_iter().enumerate() {
        let row = CHUNK_ROWS - 2 + i;
        assert_eq!(dst.id_at(TableRow(row)), Id(v as u64 + 1));
        assert_eq!(dst.chunks.word(dst.columns[1], row), -(v as i64) as u64);
        assert_eq!(dst.row_revision(ComponentSlot(0), TableRow(row)), 1, "the row keeps its revision");
    }
    // Moving back: the string lane of the returning rows starts empty.
    let (back, _) = move_row(&mut dst, &mut src, TableRow(CHUNK_ROWS - 1), 4);
    assert_eq!(src.chunks.get(src.columns[3], back.index()), LaneValue::Str(None));
    assert_eq!(src.id_at(back), Id(7));
    // The snapshots kept every row.
    (0..CHUNK_ROWS + 3).for_each(|r| assert_row(&snap.0, &reg, r, r));
    (0..CHUNK_ROWS - 2).for_each(|r| assert_row(&snap.1, &reg, r, r));
}

#[test]
fn string_lanes_release_the_strings_of_rows_that_leave() {
    let (reg, p, l) = registry();
    let mut src = filled(&reg, &[p, l], 3);
    let mut dst = Table::new([p].into(), &reg, 64);
    let held: Arc<str> = "held".into();
    let label = src.slot(l).unwrap();
    src.write_lane(TableRow(2), label, 0, LaneValue::Str(Some(held.clone())), 2);
    src.write_lane(TableRow(0), label, 0, LaneValue::Str(Some("gone".into())), 2);
    assert_eq!(Arc::strong_count(&held), 2);
    // Row 0 leaves for a table without `L`: its string is dropped, row 2's moves into its
    // place, and the vacated row holds none.
    move_row(&mut src, &mut dst, TableRow(0), 3);
    assert_eq!(src.chunks.get(src.columns[3], 0), LaneValue::Str(Some(held.clone())));
    assert_eq!(Arc::strong_count(&held), 2, "moved, not copied");
    assert_eq!(src.chunks[0].clone().strs_mut(src.columns[3])[2], None);
    // Removing the rows (swap-remove) releases the string too.
    src.swap_remove(TableRow(0), 4);
    src.swap_remove(TableRow(0), 4);
    assert_eq!((src.len, src.chunks.len()), (0, 0));
    assert_eq!(Arc::strong_count(&held), 1);
}
