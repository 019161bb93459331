//! Figures printed by the commands: resident memory, arena memory, the phase table.

use arbor_sim::Simulation;
use std::fmt::Write as _;

pub use arbor_ops::process::resident_bytes;

/// Bytes as MiB with one decimal.
pub fn mib(bytes: u64) -> String {
    format!("{:.1} MiB", bytes as f64 / (1024.0 * 1024.0))
}

/// The memory section: arena bytes per node and process RSS.
pub fn memory(sim: &Simulation) -> String {
    let m = sim.arena.memory_report();
    let mut out = String::new();
    let _ = writeln!(
        out,
        "memory: {} live instances, {} pages, arena {} ({:.0} B/instance), process RSS {}",
        m.live_nodes,
        m.pages,
        mib(m.total_bytes() as u64),
        m.bytes_per_node(),
        resident_bytes().map_or_else(|| "unknown".into(), mib)
    );
    out
}

/// Writes the trace if one was asked for.
pub fn write_trace(sim: &Simulation, path: Option<&std::path::Path>) -> Result<(), String> {
    if let Some(path) = path {
        let spans =
            sim.profiler().write_trace(path).map_err(|e| format!("writing trace {}: {e}", path.display()))?;
        println!("trace: {spans} spans written to {} (open in https://ui.perfetto.dev)", path.display());
    }
    Ok(())
}
