//! Entries: each call into a script (`Update`, `PhysicsUpdate`, systems, handlers) runs
//! under a fresh budget with the script as the running entry; outcomes are counted (five
//! consecutive errors disable an instance until a reload), and instances whose script left
//! the world retire with their connections.

use super::{MAX_CONSECUTIVE_ERRORS, ScriptHost, ScriptInstance};
use crate::budget;
use crate::log::Level;
use crate::luau::convert::error_text;
use crate::signals::with_signals;
use crate::state::{Running, with_state, with_world};
use crate::tick_share::SharedPhase;
use arbor_core::Id;
use mlua::Function;
use rustc_hash::FxHashSet;

impl ScriptHost {
    /// Logs an error a session signal's dispatch hit (the world or sessions unavailable).
    pub(super) fn log_failure(&self, what: &str, result: mlua::Result<()>) {
        if let Err(e) = result {
            self.push_log(Level::Error, format!("{what}: {}", error_text(&e)));
        }
    }

    pub(crate) fn push_log(&self, level: Level, text: String) {
        let _ = with_state(&self.lua, |s| s.log.push(level, text));
    }

    /// Calls `f(args)` as one entry of `running`: fresh budget, attribution for `print`.
    pub(crate) fn call_entry<A: mlua::IntoLuaMulti>(
        &self,
        running: &Running,
        f: &Function,
        args: A,
    ) -> mlua::Result<()> {
        self.running.push(running.clone());
        let category = budget::enter_category(&self.lua, budget::category_of(running.key));
        let enclosing = budget::enter();
        let result = f.call::<()>(args);
        running.usage.count(budget::leave(enclosing), result.is_err());
        budget::enter_category(&self.lua, category);
        self.running.pop();
        result
    }

    /// Whether instance `i` is enabled and its script is live.
    pub(crate) fn is_runnable(&self, i: usize) -> bool {
        let inst = &self.instances[i];
        !inst.disabled && self.world.borrow().is_ok_and(|w| w.contains(inst.running.script))
    }

    /// Calls `Update` or `PhysicsUpdate` on every enabled instance whose script is live,
    /// from the phase's cursor round, until the tick's share is used.
    pub(super) fn run_callbacks(&mut self, physics: bool, dt: f64) {
        let phase = if physics { SharedPhase::PhysicsUpdate } else { SharedPhase::Update };
        let hook_of =
            |inst: &ScriptInstance| if physics { inst.physics_update.clone() } else { inst.update.clone() };
        let n = self.instances.len();
        let start = self.share.start(phase, n);
        for k in 0..n {
            let i = (start + k) % n;
            let Some(f) = hook_of(&self.instances[i]) else { continue };
            if !self.is_runnable(i) {
                continue;
            }
            if self.share.exhausted() {
                let left = (k..n).filter(|&k| hook_of(&self.instances[(start + k) % n]).is_some()).count();
                self.share.defer(phase, i, left as u64);
                return;
            }
            let result = self.call_entry(&self.instances[i].running, &f, dt);
            self.record_outcome(i, result);
        }
    }

    /// Counts the outcome of one callback of instance `i` (`Update`, `PhysicsUpdate` or a
    /// system): a success resets the consecutive error counter, an error increments it,
    /// logs it and, at [`MAX_CONSECUTIVE_ERRORS`], disables the instance.
    pub(crate) fn record_outcome(&mut self, i: usize, result: mlua::Result<()>) {
        let inst = &mut self.instances[i];
        let e = match result {
            Ok(()) => {
                inst.errors = 0;
                return;
            }
            Err(e) => e,
        };
        inst.errors += 1;
        let (name, script) = (inst.running.name.clone(), inst.running.script);
        let disable = inst.errors >= MAX_CONSECUTIVE_ERRORS;
        if disable {
            inst.disabled = true;
        }
        self.push_log(Level::Error, format!("{name}: error: {}", error_text(&e)));
        if disable {
            // The notice quotes the script's `Name` (`docs/scripting.md`, "Hooks, budgets and
            // the error counter"); the path leads the line, as on every other line a script
            // causes.
            let own = with_world(&self.lua, |w| w.name_of(script).map(str::to_owned)).ok().flatten();
            let own = own.unwrap_or_else(|| name.rsplit('.').next().unwrap_or(&name).to_owned());
            self.push_log(
                Level::Error,
                format!("{name}: '{own}' disabled after {MAX_CONSECUTIVE_ERRORS} consecutive errors"),
            );
        }
    }

    /// Retires instances whose scripts were destroyed and drops connections to destroyed
    /// targets.
    pub(super) fn retire(&mut self, destroyed: &[Id]) {
        let gone: FxHashSet<Id> = destroyed.iter().copied().collect();
        let mut retired = Vec::new();
        self.instances.retain(|i| {
            let dead = gone.contains(&i.running.script);
            if dead {
                retired.push(i.running.key);
            }
            !dead
        });
        let _ = with_signals(&self.lua, |s| {
            for key in retired {
                s.remove_owner(key);
            }
            s.remove_targets(destroyed);
        });
        for id in destroyed {
            self.started.remove(id);
        }
    }
}
