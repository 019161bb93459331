//! Prints the memory figures of the place tree: builds the standard one-million-node place
//! (1,000 Models × 999 Parts under the Workspace), prints its storage by kind and in bytes
//! per node from `Arena::memory_report`, then takes a snapshot of the unchanged place and
//! prints the bytes the snapshot owns and how many pages it shares with the arena.
//!
//! Run with `cargo run --release -p arbor-benches --bin memory_report`.

use arbor_benches::build_million_place;
use std::time::Instant;

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
    println!("  pages             {:>14}  ({} nodes each)", grouped(report.pages), arbor_core::PAGE_SIZE);
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
}
