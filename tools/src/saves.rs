//! `--save FILE`, `--resume FILE` and `--play` for `arbor run` and `arbor serve`.
//!
//! A save is two files: `FILE`, the place (JSON, with the fields behaviours wrote), and
//! `FILE.behaviors.json`, the behaviours' state (memory, states, timers, random generators,
//! counters, the world clock). `--resume FILE` opens both: behaviours go on where they were.
//! `--play`: the first behaviour error pauses the world; the command stops ticking there,
//! prints the report, saves if asked, and exits with an error.

use arbor_script::ScriptHost;
use arbor_sim::Simulation;
use std::path::{Path, PathBuf};

/// Save and Play options.
#[derive(clap::Args, Debug, Default)]
pub struct SaveArgs {
    /// On exit, save the world to FILE and its behaviours' state to FILE.behaviors.json.
    #[arg(long, value_name = "FILE")]
    pub save: Option<PathBuf>,
    /// Open a save made with --save (instead of a place file).
    #[arg(long, value_name = "FILE")]
    pub resume: Option<PathBuf>,
    /// Play: the first behaviour error pauses the world (stops ticking) and prints its report.
    #[arg(long)]
    pub play: bool,
}

/// The behaviour state file beside a saved place.
pub fn state_path(place: &Path) -> PathBuf {
    let mut name = place.as_os_str().to_owned();
    name.push(".behaviors.json");
    PathBuf::from(name)
}

impl SaveArgs {
    /// The place file to load: the save to resume, else `place`.
    pub fn place<'a>(&'a self, place: Option<&'a Path>) -> Result<Option<&'a Path>, String> {
        match (&self.resume, place) {
            (Some(_), Some(_)) => Err("give either a place or --resume, not both".to_owned()),
            (Some(r), None) => Ok(Some(r.as_path())),
            (None, p) => Ok(p),
        }
    }

    /// Before the first tick: the save's files can be written (else the session would be
    /// lost at the end), Play mode, and the resumed behaviours' state.
    pub fn prepare(&self, sim: &mut Simulation, host: &mut ScriptHost) -> Result<(), String> {
        if let Some(save) = &self.save {
            check_writable(save)?;
            check_writable(&state_path(save))?;
        }
        host.set_play(self.play);
        let Some(save) = &self.resume else { return Ok(()) };
        let path = state_path(save);
        let text = std::fs::read_to_string(&path).map_err(|e| format!("reading {}: {e}", path.display()))?;
        host.resume_behaviors(&mut sim.arena, &text).map_err(|e| format!("{}: {e}", path.display()))?;
        println!("resumed {} ({} behaviour instances)", save.display(), host.behavior_stats().running);
        Ok(())
    }

    /// Whether Play paused the world; says so once.
    pub fn paused(&self, sim: &Simulation, host: &ScriptHost) -> bool {
        let paused = self.play && host.behaviors_paused();
        if paused {
            eprintln!(
                "play: the world is paused at tick {} by the behaviour error above",
                sim.ticks().saturating_sub(1)
            );
        }
        paused
    }

    /// On exit: writes the save, if asked.
    pub fn finish(&self, sim: &mut Simulation, host: &mut ScriptHost) -> Result<(), String> {
        let Some(save) = &self.save else { return Ok(()) };
        let last = sim.ticks().saturating_sub(1);
        let state = host.save_behaviors(&mut sim.arena, last).map_err(|e| e.to_string())?;
        let place = arbor_place::save_json(&sim.arena);
        std::fs::write(save, place).map_err(|e| format!("writing {}: {e}", save.display()))?;
        let path = state_path(save);
        std::fs::write(&path, state).map_err(|e| format!("writing {}: {e}", path.display()))?;
        println!("saved {} and {}", save.display(), path.display());
        Ok(())
    }
}

/// Checks that `path` can be written without changing it: an existing file is opened for
/// writing (not truncated), a missing one is created and removed again.
fn check_writable(path: &Path) -> Result<(), String> {
    let refused = |e: std::io::Error| format!("--save: {} cannot be written: {e}", path.display());
    if path.is_dir() {
        return Err(format!("--save: {} is a directory", path.display()));
    }
    let existed = path.exists();
    std::fs::OpenOptions::new().write(true).create(true).truncate(false).open(path).map_err(refused)?;
    if !existed {
        std::fs::remove_file(path).map_err(refused)?;
    }
    Ok(())
}
