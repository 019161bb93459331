//! `arbor run [PLACE] --ticks N`: run a place headless, with its scripts, as fast as
//! possible, printing the script log as it happens and a phase summary at the end.

use crate::{place_io, report};
use arbor_script::{HostConfig, ScriptHost};
use arbor_sim::{SimConfig, Simulation};
use std::path::PathBuf;

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
    let arena = match &args.place {
        Some(path) => place_io::load(path)?,
        None => place_io::load_bytes(place_io::EXAMPLE_PLACE.as_bytes())?,
    };
    let host = ScriptHost::new(&arena, HostConfig { echo: true, ..Default::default() })
        .map_err(|e| format!("starting the script host: {e}"))?;
    let mut sim = Simulation::new(arena, SimConfig::default()).map_err(|e| e.to_string())?;
    sim.add_hooks(host);
    sim.run(args.ticks);
    println!("ran {} ticks; {} instances", sim.ticks(), sim.arena.len());
    if args.profile {
        println!("{}", sim.profiler().table());
        print!("{}", report::memory(&sim));
    }
    Ok(())
}
