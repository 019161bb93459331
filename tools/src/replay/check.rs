//! [`SessionTape`]: the hook that records a session log and checks a replay against one.
//!
//! After every tick it hashes the state ([`state_hash`]: the world, the behaviours and the
//! sessions), and after every phase too when phases are recorded or the log it checks has
//! them. The world's part comes from a [`WorldHasher`] the tape holds (updated from the
//! arena's logs; equal to `Arena::world_hash`). Recording, it writes the tick's
//! [`SessionInput`](arbor_sim::players::SessionInput)s and hashes; checking, it compares with the
//! log's and keeps the first difference, naming the tick and, when the log has phase hashes,
//! the phase.
//!
//! Invariant: the tape is the last hook of the simulation, so its hashes see what every
//! other hook did in the phase, and it takes the tick's journaled inputs after the transport
//! (or the replay feed) made them.

use super::log::{Input, LogWriter, TickLine, hex};
use arbor_core::WorldHasher;
use arbor_script::ScriptHost;
use arbor_sim::{Phase, TickContext, TickHooks, players::Players};
use std::cell::RefCell;
use std::rc::Rc;

/// The hash a log records: the world's content ([`arbor_core::Arena::world_hash`]), the
/// behaviours' state ([`ScriptHost::behavior_hash`]) and the sessions and their queues
/// ([`Players::digest`]).
pub fn state_hash(arena: &arbor_core::Arena, players: &Players, host: &ScriptHost) -> u64 {
    combine(arena.world_hash(), players, host)
}

/// [`state_hash`] with the world's hash given (a [`WorldHasher`]'s, equal to
/// [`arbor_core::Arena::world_hash`]).
fn combine(world: u64, players: &Players, host: &ScriptHost) -> u64 {
    mix(mix(world, host.behavior_hash()), players.digest())
}

/// Folds `b` into `a` (a 64x64->128-bit multiply, folded; fixed, unseeded).
fn mix(a: u64, b: u64) -> u64 {
    let m = u128::from(a ^ 0x9e37_79b9_7f4a_7c15) * u128::from(b ^ 0xd6e8_feb8_6659_fd93);
    (m as u64) ^ ((m >> 64) as u64)
}

/// Where a replay first differed from its log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Divergence {
    /// The tick.
    pub tick: u64,
    /// The first phase whose hash differs, when the log has phase hashes.
    pub phase: Option<String>,
    /// The log's hash there.
    pub recorded: String,
    /// The replay's.
    pub replayed: String,
}

impl std::fmt::Display for Divergence {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.phase {
            Some(p) => write!(
                f,
                "tick {} differs from the recording after phase {p} (recorded {}, replayed {})",
                self.tick, self.recorded, self.replayed
            ),
            None => write!(
                f,
                "tick {} differs from the recording (recorded {}, replayed {}); a log recorded with phase hashes names the phase",
                self.tick, self.recorded, self.replayed
            ),
        }
    }
}

/// Records and checks session logs (see the module docs).
pub struct SessionTape {
    host: Rc<RefCell<ScriptHost>>,
    /// The world hash, kept up to date from the arena's revision logs.
    world: WorldHasher,
    /// Where ticks are written, when recording.
    writer: Option<LogWriter>,
    /// Whether phase hashes are written.
    write_phases: bool,
    /// The log checked against, when replaying.
    expected: Option<Rc<[TickLine]>>,
    /// This tick's phase hashes so far.
    phases: Vec<(String, String)>,
    /// Print `tick N HASH` after every tick.
    print: bool,
    /// The first difference from `expected`.
    divergence: Option<Divergence>,
    /// The first error writing the log.
    error: Option<String>,
}

impl SessionTape {
    /// A tape hashing `host`'s behaviours with the world.
    pub fn new(host: Rc<RefCell<ScriptHost>>) -> SessionTape {
        SessionTape {
            host,
            world: WorldHasher::new(),
            writer: None,
            write_phases: false,
            expected: None,
            phases: Vec::new(),
            print: false,
            divergence: None,
            error: None,
        }
    }

    /// Writes every tick to `writer`, with phase hashes if `phases`.
    pub fn recording(mut self, writer: LogWriter, phases: bool) -> SessionTape {
        self.writer = Some(writer);
        self.write_phases = phases;
        self
    }

    /// Compares every tick with `ticks` (a log being replayed).
    pub fn checking(mut self, ticks: Rc<[TickLine]>) -> SessionTape {
        self.expected = Some(ticks);
        self
    }

    /// Prints each tick's hash.
    pub fn printing(mut self) -> SessionTape {
        self.print = true;
        self
    }

    /// The first difference from the log checked against.
    pub fn divergence(&self) -> Option<&Divergence> {
        self.divergence.as_ref()
    }

    /// Flushes the log; the first write error, if any.
    pub fn finish(&mut self) -> Result<(), String> {
        if let Some(w) = &mut self.writer
            && let Err(e) = w.flush()
        {
            self.error.get_or_insert(e);
        }
        self.error.clone().map_or(Ok(()), Err)
    }

    fn expected_line(&self, tick: u64) -> Option<&TickLine> {
        self.expected.as_ref()?.get(usize::try_from(tick).ok()?)
    }

    fn hash(&mut self, ctx: &TickContext<'_>) -> String {
        let world = self.world.update(ctx.arena);
        debug_assert_eq!(world, ctx.arena.world_hash(), "the incremental world hash is the full one");
        hex(combine(world, ctx.players, &self.host.borrow()))
    }
}

impl TickHooks for SessionTape {
    fn phase_done(&mut self, ctx: &mut TickContext<'_>, phase: Phase) {
        let checked =
            self.divergence.is_none() && self.expected_line(ctx.tick).is_some_and(|l| !l.phases.is_empty());
        if self.write_phases || checked {
            let hash = self.hash(ctx);
            self.phases.push((phase.name().to_owned(), hash));
        }
    }

    fn end_tick(&mut self, ctx: &mut TickContext<'_>) {
        let hash = self.hash(ctx);
        let phases = std::mem::take(&mut self.phases);
        if self.print {
            println!("tick {} {hash}", ctx.tick);
        }
        if self.divergence.is_none()
            && let Some(line) = self.expected_line(ctx.tick)
        {
            let phase = line.phases.iter().zip(&phases).find(|(want, got)| want != got);
            self.divergence = match phase {
                Some((want, got)) => Some(Divergence {
                    tick: ctx.tick,
                    phase: Some(got.0.clone()),
                    recorded: want.1.clone(),
                    replayed: got.1.clone(),
                }),
                None if line.hash != hash => Some(Divergence {
                    tick: ctx.tick,
                    phase: None,
                    recorded: line.hash.clone(),
                    replayed: hash.clone(),
                }),
                None => None,
            };
        }
        let inputs: Vec<Input> = ctx.players.take_inputs().iter().map(Input::from).collect();
        if let Some(w) = &mut self.writer {
            let phases = if self.write_phases { phases } else { Vec::new() };
            let wall_aborts = arbor_script::budget::take_wall_aborts().into_iter().map(Into::into).collect();
            let line = TickLine { tick: ctx.tick, inputs, hash, phases, wall_aborts };
            let written = w.tick(&line).and_then(|()| if ctx.tick % 60 == 59 { w.flush() } else { Ok(()) });
            if let Err(e) = written
                && self.error.is_none()
            {
                // Said when it happens, not only when the server stops: the session is being
                // lost from here on.
                eprintln!("recording stopped at tick {}: {e}", ctx.tick);
                self.error = Some(e);
            }
        }
    }
}
