//! `arbor run [PLACE] --ticks N`: run a place headless, with its scripts, as fast as
//! possible, printing the script log as it happens and a phase summary at the end. Both
//! `run` and `serve` build their simulation here, under the host caps (`host_caps`).

use crate::host_caps::{HostCapArgs, HostCaps};
use crate::{place_io, report};
use arbor_core::Arena;
use arbor_script::{HostConfig, ScriptHost, StoreConfig};
use arbor_sim::{SimConfig, Simulation};
use std::cell::RefCell;
use std::path::PathBuf;
use std::rc::Rc;

/// A simulation of `arena` with the place's scripts hooked in (`math.random` seeded with
/// `random_seed`, or from the clock), their log echoed to the output as it happens; the host
/// is shared so the caller can count errors and reload. Runs under the default host caps.
pub fn with_scripts(
    arena: Arena,
    stores: StoreConfig,
    random_seed: Option<i32>,
) -> Result<(Simulation, Rc<RefCell<ScriptHost>>), String> {
    with_scripts_capped(arena, stores, random_seed, &HostCaps::default())
}

/// [`with_scripts`] under the host's `caps`: a place setting out of range is refused, one
/// above a cap is lowered to it with a warning (on stderr; the behaviour settings' warnings
/// are in the script log).
pub fn with_scripts_capped(
    arena: Arena,
    stores: StoreConfig,
    random_seed: Option<i32>,
    caps: &HostCaps,
) -> Result<(Simulation, Rc<RefCell<ScriptHost>>), String> {
    let config = caps.host_config(HostConfig { echo: true, stores, random_seed, ..Default::default() });
    let host = ScriptHost::new(&arena, config).map_err(|e| format!("starting the script host: {e}"))?;
    let host = Rc::new(RefCell::new(host));
    let mut sim = Simulation::with_caps(arena, SimConfig::default(), caps.sim).map_err(|e| e.to_string())?;
    for lowered in sim.lowered_settings() {
        eprintln!("warning: {lowered}");
    }
    sim.add_hooks(Rc::clone(&host));
    Ok((sim, host))
}

/// Options of `arbor run` (which exits with status 1 when any script failed).
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
    #[command(flatten)]
    pub stores: StoreArgs,
    #[command(flatten)]
    pub saves: crate::saves::SaveArgs,
    #[command(flatten)]
    pub caps: HostCapArgs,
}

/// Where the place's data stores live.
#[derive(clap::Args, Debug)]
pub struct StoreArgs {
    /// Directory of `game.Store` files and the offline cloud store (default: `NAME.data`
    /// beside the place file, `arbor-data` for the embedded example place).
    #[arg(long, value_name = "DIR")]
    pub data: Option<PathBuf>,
    /// The fleet cloud store, `postgres://user@host:port/db` (default: offline, a SQLite file
    /// in the data directory).
    #[arg(long, value_name = "URL")]
    pub cloud_store: Option<String>,
}

impl StoreArgs {
    /// The store configuration for a place loaded from `place` (the example place if None).
    pub fn config(&self, place: Option<&std::path::Path>) -> Result<StoreConfig, String> {
        if let Some(url) = &self.cloud_store
            && !(url.starts_with("postgres://") || url.starts_with("postgresql://"))
        {
            return Err(format!("--cloud-store must be a postgres:// URL, got {url}"));
        }
        let data_dir = match (&self.data, place) {
            (Some(dir), _) => dir.clone(),
            (None, Some(p)) => {
                let stem = p.file_name().map_or_else(|| "place".into(), |n| n.to_string_lossy().into_owned());
                p.with_file_name(format!("{stem}.data"))
            }
            (None, None) => PathBuf::from("arbor-data"),
        };
        let config = StoreConfig { data_dir: Some(data_dir), cloud_url: self.cloud_store.clone() };
        config.check_cloud_store()?;
        Ok(config)
    }
}

/// Runs `arbor run`.
pub fn run(args: RunArgs) -> Result<(), String> {
    let caps = args.caps.resolve()?;
    let place_path = args.saves.place(args.place.as_deref())?;
    let place = place_io::load_or_example(place_path)?;
    let (mut sim, host) = with_scripts_capped(place.arena, args.stores.config(place_path)?, None, &caps)?;
    args.saves.prepare(&mut sim, &mut host.borrow_mut())?;
    let mut paused = false;
    while sim.ticks() < args.ticks {
        sim.step();
        if args.saves.paused(&sim, &host.borrow()) {
            paused = true;
            break;
        }
    }
    host.borrow_mut().shutdown_stores();
    args.saves.finish(&mut sim, &mut host.borrow_mut())?;
    println!("ran {} ticks; {} instances", sim.ticks(), sim.arena.len());
    if paused {
        return Err("paused by a behaviour error (see the report above)".to_owned());
    }
    if args.profile {
        println!("{}", sim.profiler().table());
        print!("{}", report::memory(&sim));
    }
    match host.borrow().error_count() {
        0 => Ok(()),
        1 => Err("1 script error (see the log above)".to_owned()),
        n => Err(format!("{n} script errors (see the log above)")),
    }
}
