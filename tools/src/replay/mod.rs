//! Record and replay of whole sessions: `arbor serve --record LOG` writes what came from
//! outside (connections, disconnections and client inputs, tick by tick, on the tick's
//! fixed clock) and the world hash after every tick; `arbor replay PLACE LOG` runs the same
//! place on those inputs, prints its hash per tick and names the first tick (and phase) that
//! differs from the recording.
//!
//! A replay runs its stores in a scratch directory, so it never writes to the live data.

mod check;
mod feed;
mod log;

use crate::{place_io, run, saves};
use arbor_script::StoreConfig;
use check::{SessionTape, state_hash};
use log::{Header, LOG_VERSION, LogWriter, TickLine};
use std::cell::RefCell;
use std::path::{Path, PathBuf};
use std::rc::Rc;

/// `--record` options of `arbor serve`.
#[derive(clap::Args, Debug, Default)]
pub struct RecordArgs {
    /// Record the session (inputs and a world hash per tick) to this log, for `arbor replay`.
    /// Not with `--watch` (reloaded sources are not recorded) or `--stress`.
    #[arg(long, value_name = "LOG", conflicts_with_all = ["watch", "stress"])]
    pub record: Option<PathBuf>,
    /// With `--record`: a hash after every phase too (slower; lets a replay name the phase
    /// that differs).
    #[arg(long, requires = "record")]
    pub record_phases: bool,
}

impl RecordArgs {
    /// Starts recording `sim` when asked: journals the sessions' inputs, writes the header and
    /// adds the tape as the last hook (call after every other hook is added). `resume` is the
    /// save the session began from, if any.
    pub fn start(
        &self,
        sim: &mut arbor_sim::Simulation,
        host: &Rc<RefCell<arbor_script::ScriptHost>>,
        resume: Option<&Path>,
    ) -> Result<Option<Rc<RefCell<SessionTape>>>, String> {
        let Some(path) = &self.record else { return Ok(None) };
        let resume = match resume {
            Some(save) => {
                let state = saves::state_path(save);
                Some(
                    std::fs::read_to_string(&state)
                        .map_err(|e| format!("reading {}: {e}", state.display()))?,
                )
            }
            None => None,
        };
        let header = Header {
            arbor_replay: LOG_VERSION,
            place_hash: log::hex(state_hash(&sim.arena, &sim.players, &host.borrow())),
            dt: sim.config().dt,
            network_every: sim.config().network_every,
            random_seed: host.borrow().random_seed(),
            resume,
        };
        let writer = LogWriter::create(path, &header)?;
        sim.players.record_inputs();
        let tape =
            Rc::new(RefCell::new(SessionTape::new(Rc::clone(host)).recording(writer, self.record_phases)));
        sim.add_hooks(Rc::clone(&tape));
        println!("recording the session to {}", path.display());
        Ok(Some(tape))
    }
}

/// Options of `arbor replay`.
#[derive(clap::Args, Debug)]
pub struct ReplayArgs {
    /// The place the session was recorded from (the save, if it began with `--resume`).
    pub place: PathBuf,
    /// The session log written by `arbor serve --record`.
    pub log: PathBuf,
    /// Write the replay as a new log, with a hash after every phase (replaying that log
    /// then names the phase that differs, not only the tick).
    #[arg(long, value_name = "LOG")]
    pub record: Option<PathBuf>,
}

/// A directory removed when dropped.
struct ScratchDir(PathBuf);

impl Drop for ScratchDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Runs `arbor replay`.
pub fn replay(args: ReplayArgs) -> Result<(), String> {
    let log = log::read(&args.log)?;
    let place = place_io::load(&args.place)?;
    let scratch = ScratchDir(std::env::temp_dir().join(format!("arbor-replay-{}", std::process::id())));
    let _ = std::fs::remove_dir_all(&scratch.0);
    let stores = StoreConfig { data_dir: Some(scratch.0.clone()), cloud_url: None };
    let (mut sim, host) = run::with_scripts(place.arena, stores, Some(log.header.random_seed))?;
    if sim.config().dt != log.header.dt || sim.config().network_every != log.header.network_every {
        return Err(format!(
            "{}: recorded at {} s a tick with a network tick every {}; this build ticks at {} s, every {}",
            args.log.display(),
            log.header.dt,
            log.header.network_every,
            sim.config().dt,
            sim.config().network_every
        ));
    }
    if let Some(text) = &log.header.resume {
        host.borrow_mut()
            .resume_behaviors(&mut sim.arena, text)
            .map_err(|e| format!("{}: the resumed behaviours: {e}", args.log.display()))?;
    }
    let start = log::hex(state_hash(&sim.arena, &sim.players, &host.borrow()));
    if start != log.header.place_hash {
        return Err(format!(
            "{} was recorded from another place: its world hashed {} before the first tick, {} hashes {start}",
            args.log.display(),
            log.header.place_hash,
            args.place.display()
        ));
    }
    let ticks: Rc<[TickLine]> = log.ticks.into();
    sim.add_hooks(feed::InputFeed::new(Rc::clone(&ticks)));
    let mut tape = SessionTape::new(Rc::clone(&host)).checking(Rc::clone(&ticks)).printing();
    if let Some(out) = &args.record {
        tape = tape.recording(LogWriter::create(out, &log.header)?, true);
    }
    let tape = Rc::new(RefCell::new(tape));
    sim.add_hooks(Rc::clone(&tape));
    println!("replaying {} ticks of {} on {}", ticks.len(), args.log.display(), args.place.display());
    while sim.ticks() < ticks.len() as u64 && tape.borrow().divergence().is_none() {
        sim.step();
    }
    host.borrow_mut().shutdown_stores();
    let mut tape = tape.borrow_mut();
    tape.finish()?;
    match tape.divergence() {
        Some(d) => Err(d.to_string()),
        None => {
            println!("replayed {} ticks: every hash matches the recording", sim.ticks());
            Ok(())
        }
    }
}
