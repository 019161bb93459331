//! Prints the memory figures of the place tree: builds the standard one-million-node place
//! (1,000 Models × 999 Parts under the Workspace), prints its storage by kind and in bytes
//! per node from `Arena::memory_report`, then takes a snapshot of the unchanged place and
//! prints the bytes the snapshot owns and how many pages it shares with the arena. Last, the
//! component store: one million rows of two `Vector3` POD components, in bytes per row, and
//! what a snapshot of that store owns; then the bytes a one-`f32` component adds per holder
//! on every 10th and every 100th of those instances, in a sparse set and in the tables.
//!
//! Run with `cargo run --release -p arbor-benches --bin memory_report`.

use arbor_benches::build_million_place;
use arbor_core::{
    Arena, Class,
    components::{FieldDef, FieldType, PodComponent, Schema, Storage},
};
use std::time::Instant;

#[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
#[repr(C)]
struct Position([f32; 3]);

#[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
#[repr(C)]
struct Velocity([f32; 3]);

impl PodComponent for Position {
    fn schema() -> Schema {
        Schema::new("Position", vec![FieldDef::new("Value", FieldType::Vector3)])
    }
}

impl PodComponent for Velocity {
    fn schema() -> Schema {
        Schema::new("Velocity", vec![FieldDef::new("Value", FieldType::Vector3)])
    }
}

/// One million detached Folders with (Position, Velocity): the store's bytes per row.
fn component_report() {
    const ROWS: usize = 1_000_000;
    let mut arena = Arena::new();
    arena.register_pod::<Position>().expect("register Position");
    arena.register_pod::<Velocity>().expect("register Velocity");
    arena
        .spawn_batch(Class::Folder, "E", None, (0..ROWS).map(|_| (Position([0.0; 3]), Velocity([1.0; 3]))))
        .expect("spawn a million rows");
    let bytes = arena.components().heap_bytes();
    println!("component store: {} rows of (Position, Velocity), 6 f32 lanes", grouped(ROWS));
    println!(
        "  heap bytes   {:>14} B  {:>8.1} MiB  {:>6.1} B/row  (payload 24 B; + 2 row ticks 16 B, id 8 B, location 8 B)",
        grouped(bytes),
        mib(bytes),
        bytes as f64 / ROWS as f64
    );
    let snapshot = arena.snapshot();
    println!(
        "  a snapshot shares every chunk and owns {} B ({:.4} B/row)",
        grouped(snapshot.own_bytes()),
        snapshot.own_bytes() as f64 / ROWS as f64
    );
    drop(snapshot);
    sparse_report(&mut arena, ROWS);
}

/// A one-`f32` component on every 10th, then on every 100th, instance of `arena` (ids
/// 1..=`rows`), stored in a sparse set and in the tables (a fresh component each time, so
/// nothing is reused): the bytes each holder adds.
fn sparse_report(arena: &mut Arena, rows: usize) {
    for (label, storage) in [("sparse set", Storage::SparseSet), ("table", Storage::Table)] {
        for every in [10, 100] {
            let name = format!("Stun {label} {every}");
            let c = arena
                .register_component(
                    Schema::new(&name, vec![FieldDef::new("Left", FieldType::F32)]).stored_in(storage),
                )
                .expect("register");
            let before = arena.components().heap_bytes();
            let holders: Vec<arbor_core::Id> = (1..=rows as u64).step_by(every).map(arbor_core::Id).collect();
            for &id in &holders {
                arena.add_component(id, c, None).expect("add");
            }
            let added = arena.components().heap_bytes().saturating_sub(before);
            println!(
                "  {label}: one f32 on every {every}th instance ({} holders): {:.1} B/holder",
                grouped(holders.len()),
                added as f64 / holders.len() as f64
            );
            for &id in &holders {
                arena.remove_component(id, c).expect("remove");
            }
        }
    }
}

/// `n` with thousands separators.
fn grouped(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

fn mib(bytes: usize) -> f64 {
    bytes as f64 / (1024.0 * 1024.0)
}

fn main() {
    let start = Instant::now();
    let place = build_million_place();
    let built = start.elapsed();
    let arena = &place.arena;
    let report = arena.memory_report();
    let nodes = report.live_nodes;
    let per_node = |bytes: usize| bytes as f64 / nodes.max(1) as f64;

    println!(
        "place: {} Models x {} Parts under the Workspace",
        place.models.len(),
        place.created() / place.models.len() - 1
    );
    println!("  built in {:.2} s", built.as_secs_f64());
    println!(
        "  live nodes        {:>14}  (created {} + DataModel + Workspace)",
        grouped(nodes),
        grouped(place.created())
    );
    println!("  occupied slots    {:>14}", grouped(report.occupied_slots));
    println!(
        "  pages             {:>14}  ({} nodes each)",
        grouped(report.pages),
        arbor_core::raw::PAGE_SIZE
    );
    println!();
    println!("arena memory (Arena::memory_report):");
    for (what, bytes) in [
        ("page columns", report.page_bytes),
        ("page heap (child arrays, extras)", report.page_heap_bytes),
        ("side tables and indexes", report.side_bytes),
        ("total", report.total_bytes()),
    ] {
        println!(
            "  {what:<34} {:>14} B  {:>8.1} MiB  {:>7.1} B/node",
            grouped(bytes),
            mib(bytes),
            per_node(bytes)
        );
    }
    println!("  bytes per node: {:.1}  (plain-struct baseline: 128)", report.bytes_per_node());
    println!();

    let snapshot = arena.snapshot();
    let unchanged = snapshot.diff(&arena.snapshot()).is_empty();
    println!("snapshot of the unchanged place:");
    println!("  own bytes (Snapshot::own_bytes)  {:>10} B", grouped(snapshot.own_bytes()));
    println!(
        "  pages shared with the arena      {:>10} of {} (nothing written since; diff against a fresh snapshot is empty: {unchanged})",
        grouped(report.pages),
        grouped(report.pages)
    );
    println!(
        "  own bytes per node               {:>10.6} B  ({:.0}x less than the arena's {} B)",
        snapshot.own_bytes() as f64 / nodes as f64,
        report.total_bytes() as f64 / snapshot.own_bytes() as f64,
        grouped(report.total_bytes())
    );
    assert!(unchanged, "a snapshot of an unchanged arena must share every page");
    println!();
    component_report();
}
