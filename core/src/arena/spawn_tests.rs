//! Unit tests of `spawn_batch`'s streaming: iterators whose `size_hint` is wrong, batches
//! refused after rows were staged (the arena, its tables and a snapshot taken before stay as
//! they were), and a panicking iterator.

use super::super::components::tests::Position;
use super::*;
use crate::components::{FieldDef, FieldType, PodComponent, Query, Schema};
use crate::{ArenaConfig, ArenaError};

#[derive(Clone, Copy, Debug, PartialEq, bytemuck::Pod, bytemuck::Zeroable)]
#[repr(C)]
struct Mass {
    kg: f64,
}

impl PodComponent for Mass {
    fn schema() -> Schema {
        Schema::new("Mass", vec![FieldDef::new("Kg", FieldType::F64)])
    }
}

fn row(i: usize) -> (Position, Mass) {
    (Position { p: [i as f32, 1.0, -(i as f32)] }, Mass { kg: i as f64 * 0.25 })
}

/// Yields `real` rows from `first` on while claiming `hint` of them.
struct Lying {
    next: usize,
    end: usize,
    hint: usize,
}

impl Iterator for Lying {
    type Item = (Position, Mass);
    fn next(&mut self) -> Option<Self::Item> {
        (self.next < self.end).then(|| {
            self.next += 1;
            row(self.next - 1)
        })
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.hint, Some(self.hint))
    }
}

fn lying(first: usize, real: usize, hint: usize) -> Lying {
    Lying { next: first, end: first + real, hint }
}

/// Every id is a live node with exactly its row's values, and the table holds exactly them.
fn check_rows(arena: &Arena, ids: &[Id], first: usize) {
    for (k, &id) in ids.iter().enumerate() {
        assert!(arena.get(id).is_some(), "node {k}");
        assert_eq!(arena.components().get_pod::<Position>(id), Some(row(first + k).0), "row {k}");
        assert_eq!(arena.components().get_pod::<Mass>(id), Some(row(first + k).1), "row {k}");
    }
    assert_eq!(arena.components().row_count(), ids.len());
    let t = &arena.components().tables[arena.components().loc(ids[0]).unwrap().table as usize];
    assert_eq!(t.len, ids.len());
}

fn arena(max_nodes: usize) -> Arena {
    let mut arena = Arena::with_config(ArenaConfig { max_nodes, ..Default::default() });
    arena.register_pod::<Position>().unwrap();
    arena.register_pod::<Mass>().unwrap();
    arena
}

#[test]
fn short_and_long_iterators_spawn_exactly_what_they_yield() {
    let mut arena = arena(usize::MAX);
    let base = arena.len();
    let short = arena.spawn_batch(Class::Part, "S", None, lying(0, 1500, 5000)).unwrap();
    assert_eq!(short.len(), 1500);
    let long = arena.spawn_batch(Class::Part, "L", None, lying(1500, 3000, 10)).unwrap();
    assert_eq!(long.len(), 3000);
    let all: Vec<Id> = short.iter().chain(&long).copied().collect();
    check_rows(&arena, &all, 0);
    assert_eq!(arena.len(), base + 4500);
    let none = arena.spawn_batch(Class::Part, "N", None, lying(0, 0, 7)).unwrap();
    assert!(none.is_empty());
    check_rows(&arena, &all, 0);
}

#[test]
fn a_batch_refused_after_staging_rows_changes_nothing_even_in_a_snapshot() {
    let base = arena(usize::MAX).len();
    let mut arena = arena(base + 2000);
    let pos = arena.components().component("Position").unwrap();
    // 700 rows: the refused batch starts mid-chunk and mid-block.
    let first = arena.spawn_batch(Class::Part, "A", None, (0..700).map(row)).unwrap();
    let snap = arena.snapshot();
    let (revisions, tables) = (arena.revisions().global, arena.components().table_count());
    // 1,301 bundles fit the stage (one past the room) but not the arena; a lying iterator
    // claiming few and an honest one claiming too many are both refused whole.
    for bundles in [lying(700, 1400, 3), lying(700, 5000, 5000)] {
        let err = arena.spawn_batch(Class::Part, "B", None, bundles).unwrap_err();
        assert!(matches!(err, ArenaError::Full(_)), "{err:?}");
        check_rows(&arena, &first, 0);
        assert_eq!((arena.revisions().global, arena.components().table_count()), (revisions, tables));
        assert!(snap.diff(&arena.snapshot()).is_empty());
        assert!(arena.components().changed_since(&mut Query::new(&[pos]), pos, revisions).is_empty());
    }
    // A refused batch into a component set never seen before leaves no table behind.
    let err = arena.spawn_batch(Class::Part, "P", None, (0..1400).map(|i| (row(i).0,))).unwrap_err();
    assert!(matches!(err, ArenaError::Full(_)));
    assert_eq!(arena.components().table_count(), tables);
    // The room left is still whole: exactly 1,300 more fit, rows and change tracking exact.
    let second = arena.spawn_batch(Class::Part, "C", None, (700..2000).map(row)).unwrap();
    let all: Vec<Id> = first.iter().chain(&second).copied().collect();
    check_rows(&arena, &all, 0);
    assert_eq!(arena.components().changed_since(&mut Query::new(&[pos]), pos, revisions), second);
    for (k, &id) in first.iter().enumerate() {
        assert_eq!(snap.components().get_pod::<Mass>(id), Some(row(k).1));
    }
    assert_eq!(snap.components().get_pod::<Mass>(second[0]), None, "the snapshot never sees new rows");
    assert!(matches!(arena.spawn_batch(Class::Part, "D", None, (0..1).map(row)), Err(ArenaError::Full(_))));
}

#[test]
fn a_panicking_iterator_leaves_no_staged_row() {
    let mut arena = arena(usize::MAX);
    let first = arena.spawn_batch(Class::Part, "A", None, (0..300).map(row)).unwrap();
    let before = arena.len();
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let bundles = (300..3000).map(|i| if i == 2100 { panic!("bundle {i}") } else { row(i) });
        arena.spawn_batch(Class::Part, "B", None, bundles)
    }));
    assert!(result.is_err());
    assert_eq!(arena.len(), before);
    check_rows(&arena, &first, 0);
    let second = arena.spawn_batch(Class::Part, "C", None, (300..2500).map(row)).unwrap();
    let all: Vec<Id> = first.iter().chain(&second).copied().collect();
    check_rows(&arena, &all, 0);
}

#[test]
fn a_batch_past_the_limit_reports_the_error_create_batch_checks_first() {
    let base = arena(usize::MAX).len();
    let mut arena = arena(base + 2);
    let script = arena.create(Class::Script, "S", None).unwrap();
    // Three bundles do not fit, but the destination is refused first, as `create_batch` does.
    let err = arena.spawn_batch(Class::Part, "P", Some(script), (0..3).map(row)).unwrap_err();
    assert_eq!(err, ArenaError::Containment { child: Class::Part, parent: Class::Script });
    let err = arena.spawn_batch(Class::Part, "P", None, (0..3).map(row)).unwrap_err();
    assert!(matches!(err, ArenaError::Full(_)), "{err:?}");
    assert_eq!(arena.len(), base + 1);
}
