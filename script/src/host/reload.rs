//! Hot reload: replacing a script's source builds a trial instance of the new code for every
//! instance bound to that source, while the old instances keep their state. A `Migrate(old)`
//! function, if the new code defines one, receives the old instance's environment. The swap
//! commits only if every trial loads, initialises and migrates without error; otherwise the
//! trials (and the connections they made) are discarded, nothing changes, and the error is
//! returned. A commit clears error counts and revives disabled instances; Lua state not
//! migrated is gone, while component and tree state is untouched.

use super::{ScriptHost, ScriptInstance};
use crate::luau::convert::error_text;
use crate::signals::with_signals;
use arbor_core::{Arena, Id};
use mlua::{Function, Value};
use std::sync::Arc;
use thiserror::Error;

/// Why a reload was refused (nothing changed).
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ReloadError {
    /// The id is not a live Script.
    #[error("{0} is not a live Script")]
    NotAScript(Id),
    /// Shipped client code was given to a server host (which compiles its own sources).
    #[error("client code can only be installed on a client host")]
    ServerHost,
    /// A trial failed to load, initialise or migrate.
    #[error("reload of {script} rolled back: {message}")]
    TrialFailed {
        /// The script whose trial failed.
        script: String,
        /// The error.
        message: String,
    },
}

impl ScriptHost {
    /// Reloads every running instance bound to the same source as `script` with
    /// `new_source`. Returns how many instances were swapped.
    ///
    /// A script with no running instance (its load or init failed, or it never started)
    /// just takes the new source, and starts at the next tick if it is in the world: fixing
    /// a syntax error and saving brings the script up. That returns `Ok(0)`.
    pub fn reload(&mut self, arena: &mut Arena, script: Id, new_source: &str) -> Result<usize, ReloadError> {
        let old_source: Arc<str> = match arena.script_source(script) {
            Some(s) => s.into(),
            None => return Err(ReloadError::NotAScript(script)),
        };
        if !self.instances.iter().any(|i| i.running.script == script) {
            arena.set_script_source(script, new_source).map_err(|_| ReloadError::NotAScript(script))?;
            self.forget_started(script);
            return Ok(0);
        }
        let new_source: Arc<str> = new_source.into();
        self.with_world_in(arena, |host| host.reload_in_world(&old_source, new_source))
    }

    fn reload_in_world(&mut self, old_source: &Arc<str>, new_source: Arc<str>) -> Result<usize, ReloadError> {
        let bound: Vec<usize> =
            (0..self.instances.len()).filter(|&i| self.instances[i].source == *old_source).collect();
        let mut trials: Vec<(usize, ScriptInstance)> = Vec::new();
        let mut failure = None;
        for &i in &bound {
            let script = self.instances[i].running.script;
            match self.build_instance(script, new_source.clone()) {
                Ok(trial) => {
                    let migrate = match trial.env.raw_get::<Value>("Migrate") {
                        Ok(Value::Function(f)) => Some(f),
                        _ => None,
                    };
                    let migrated = match migrate {
                        Some(f) => self.migrate(&trial, &f, i),
                        None => Ok(()),
                    };
                    trials.push((i, trial));
                    if let Err(m) = migrated {
                        failure = Some((self.instances[i].running.name.to_string(), m));
                        break;
                    }
                }
                Err(line) => {
                    failure = Some((self.instances[i].running.name.to_string(), line));
                    break;
                }
            }
        }
        if let Some((script, message)) = failure {
            let keys: Vec<u64> = trials.iter().map(|(_, t)| t.running.key).collect();
            let _ = with_signals(&self.lua, |s| keys.iter().for_each(|k| s.remove_owner(*k)));
            return Err(ReloadError::TrialFailed { script, message });
        }
        let swapped = trials.len();
        for (i, trial) in trials {
            let old_key = self.instances[i].running.key;
            let script = trial.running.script;
            let _ = with_signals(&self.lua, |s| s.remove_owner(old_key));
            let _ = crate::state::with_world(&self.lua, |w| w.set_script_source(script, &new_source));
            self.instances[i] = trial;
        }
        Ok(swapped)
    }

    fn migrate(&self, trial: &ScriptInstance, migrate: &Function, old: usize) -> Result<(), String> {
        let old_env = self.instances[old].env.clone();
        self.call_entry(&trial.running, migrate, old_env)
            .map_err(|e| format!("Migrate failed in {}: {}", trial.running.name, error_text(&e)))
    }
}
