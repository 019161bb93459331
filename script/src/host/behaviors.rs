//! What [`ScriptHost`] offers for behaviours: running a moment in the Update phase, error
//! reports and Play's pause, counters, saves, resuming and live migration.

use super::ScriptHost;
use crate::behavior::{BehaviorReport, BehaviorStats, ResumeError, with_runtime, world_minute};
use arbor_core::Arena;

impl ScriptHost {
    /// Runs the behaviours' moment for world tick `world_tick` (called in Update, with the
    /// world in the VM).
    pub(crate) fn run_moment(&mut self, world_tick: u64, dt: f64) {
        let Ok(rate) = with_runtime(&self.lua, |rt| rt.settings.world_minutes_per_second) else { return };
        let minute = world_minute(world_tick as f64 * dt, rate);
        self.behaviors.moment(&self.lua, world_tick, minute);
    }

    /// Queues the event `name` (no payload) for the behaviours bound to `host`, delivered in
    /// the next moment, as `game.Behaviors.Send` does from a Script (engine code feeding
    /// outside events: network input, tools).
    pub fn send_behavior_event(&mut self, host: arbor_core::Id, name: &str) -> Result<(), String> {
        crate::behavior::send_from_script(&self.lua, host, name, &mlua::Value::Nil)
    }

    /// In Play, the first behaviour error pauses the world: no more moments run (Scripts
    /// and physics are the tool's to stop, see [`behaviors_paused`](Self::behaviors_paused)).
    pub fn set_play(&mut self, play: bool) {
        let _ = with_runtime(&self.lua, |rt| rt.play = play);
    }

    /// Whether a behaviour error paused the world (Play only).
    pub fn behaviors_paused(&self) -> bool {
        with_runtime(&self.lua, |rt| rt.paused).unwrap_or(false)
    }

    /// Behaviour error reports not yet taken (also written to the log as they happen).
    pub fn take_behavior_reports(&mut self) -> Vec<BehaviorReport> {
        with_runtime(&self.lua, |rt| std::mem::take(&mut rt.reports)).unwrap_or_default()
    }

    /// The behaviours' counters.
    pub fn behavior_stats(&self) -> BehaviorStats {
        crate::behavior::stats(&self.lua)
    }

    /// A hash of every binding's memory, state, timers, random generator and counters (with
    /// [`Arena::world_hash`] it says whether two runs agree).
    pub fn behavior_hash(&self) -> u64 {
        with_runtime(&self.lua, |rt| {
            let mut text = String::new();
            for b in rt.bindings.iter().filter(|b| !b.removed) {
                let line = format!(
                    "{}|{:?}|{:?}|{:?}|{}|{:?}|{}\n",
                    b.def.name,
                    b.live.state,
                    b.live.memory,
                    b.live.timers,
                    b.live.rng.0,
                    b.live.counters,
                    b.closed
                );
                text.push_str(&line);
            }
            crate::behavior::definition::fnv1a(text.as_bytes())
        })
        .unwrap_or(0)
    }

    /// The behaviour state of the world as a save document (see `docs/behaviours.md`);
    /// `tick` is the last tick run. Gives bound `Behavior` instances persistent ids, so save
    /// the place after this.
    pub fn save_behaviors(&mut self, arena: &mut Arena, tick: u64) -> Result<String, ResumeError> {
        self.behaviors.save(&self.lua, arena, tick + self.clock_offset)
    }

    /// Opens a behaviour save for the world in `arena` (the place saved with it), before
    /// the first tick: bindings with unchanged definitions go on where they were, changed
    /// ones migrate. The world clock goes on from the saved tick. The save is checked whole
    /// first: a refused one ([`ResumeError::Invalid`] names the path in the file) restores
    /// nothing and leaves the world as it was.
    pub fn resume_behaviors(&mut self, arena: &mut Arena, text: &str) -> Result<(), ResumeError> {
        let world = std::mem::take(arena);
        let (world, result) = self.behaviors.resume(&self.lua, world, text);
        *arena = world;
        self.clock_offset = result? + 1;
        Ok(())
    }

    /// Replaces behaviour `name`'s definition with `source` in a running world: every
    /// binding of it migrates (closed ones start again as new instances; an error in
    /// `Migrate` cancels that binding's migration). The place keeps the new source.
    pub fn reload_behavior(&mut self, arena: &mut Arena, name: &str, source: &str) -> Result<(), String> {
        let def = self.behaviors.compile(&self.lua, name, source.into())?;
        arena.behaviors_mut().set(name, source).map_err(|e| e.to_string())?;
        let bindings: Vec<usize> = with_runtime(&self.lua, |rt| {
            rt.definitions.insert(name.to_owned(), Ok(def.clone()));
            rt.bindings
                .iter()
                .enumerate()
                .filter(|(_, b)| !b.removed && b.def.name == name)
                .map(|(i, _)| i)
                .collect()
        })
        .map_err(|e| e.to_string())?;
        self.with_world_in(arena, |h| {
            for i in bindings {
                h.behaviors.migrate(&h.lua, i, def.clone());
            }
        });
        Ok(())
    }
}
