//! `arbor run [PLACE] --ticks N`: run a place headless, with its scripts, as fast as
//! possible, printing the script log as it happens and a phase summary at the end.

use crate::{place_io, report};
use arbor_core::Arena;
use arbor_script::{HostConfig, ScriptHost};
use arbor_sim::{SimConfig, Simulation};
use std::path::PathBuf;

/// A simulation of `arena` with the place's scripts hooked in, their log echoed to the
/// output as it happens.
pub fn with_scripts(arena: Arena) -> Result<Simulation, String> {
    let host = ScriptHost::new(&arena, HostConfig { echo: true, ..Default::default() })
        .map_err(|e| format!("starting the script host: {e}"))?;
    let mut sim = Simulation::new(arena, SimConfig::default()).map_err(|e| e.to_string())?;
    sim.add_hooks(host);
    Ok(sim)
}

/// Options of `arbor run`.
#[derive(clap::Args, Debug)]
pub struct RunArgs {
    /// The place file (JSON or binary); the embedded example place if omitted.
    pub place: Option<PathBuf>,
    /// Ticks to run.
    #[arg(long, default_value_t = 60)]
    pub ticks: u64,
    /// Print the per-phase table after the run.
    #[arg(long)]
    pub profile: bool,
}

/// Runs `arbor run`.
pub fn run(args: RunArgs) -> Result<(), String> {
    let (arena, _) = place_io::load_or_example(args.place.as_deref())?;
    let mut sim = with_scripts(arena)?;
    sim.run(args.ticks);
    println!("ran {} ticks; {} instances", sim.ticks(), sim.arena.len());
    if args.profile {
        println!("{}", sim.profiler().table());
        print!("{}", report::memory(&sim));
    }
    Ok(())
}
