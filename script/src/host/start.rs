//! Starting scripts: Scripts that entered the world since the last look (found through the
//! topology journal) get a fresh environment, their bytecode loaded and their top-level chunk
//! run under a fresh budget; their `Update` and `PhysicsUpdate` are captured. A load or init
//! error is logged with the script's path and discards the instance.

use super::{Prepared, ScriptHost, ScriptInstance};
use crate::instances::instance::Instance;
use crate::log::Level;
use crate::luau::convert::error_text;
use crate::signals::with_signals;
use crate::state::{Running, full_name, with_state, with_world};
use arbor_core::{Class, Id, NodeFlags, RunContext};
use mlua::{Table, Value};
use std::sync::Arc;

impl ScriptHost {
    /// Builds an instance of `source` for `script` (not yet registered): environment, load,
    /// top-level run. Errors are returned as log lines.
    pub(crate) fn build_instance(&mut self, script: Id, source: Arc<str>) -> Result<ScriptInstance, String> {
        let (name, owner) = with_world(&self.lua, |w| {
            let name = full_name(w, script);
            let owner = w.get(script).and_then(|n| n.parent()).unwrap_or(script);
            (name, owner)
        })
        .map_err(|e| e.to_string())?;
        let code = match self.prepare(&source) {
            Prepared::Ok(code) => code,
            Prepared::LoadError(m) => {
                // Luau's compiler reports `line: message`; name the script in front.
                let located = m
                    .split_once(':')
                    .is_some_and(|(l, _)| !l.is_empty() && l.bytes().all(|b| b.is_ascii_digit()));
                let m = if located { format!("{name}:{m}") } else { m };
                return Err(format!("load error in {name}: {m}"));
            }
        };
        let key = self.next_key;
        self.next_key += 1;
        let running = Running { key, script, name: name.as_str().into(), usage: Default::default() };
        let env =
            self.new_env(owner, script).map_err(|e| format!("init error in {name}: {}", error_text(&e)))?;
        let chunk = self
            .lua
            .load(&*code)
            .set_name(format!("={name}"))
            .set_environment(env.clone())
            .into_function()
            .map_err(|e| format!("load error in {name}: {}", error_text(&e)))?;
        let _ = with_state(&self.lua, |s| s.loading = Some(key));
        let loaded = self.call_entry(&running, &chunk, ());
        let _ = with_state(&self.lua, |s| s.loading = None);
        let systems = crate::systems::take_pending(&self.lua);
        if let Err(e) = loaded {
            let _ = with_signals(&self.lua, |s| s.remove_owner(key));
            return Err(format!("init error in {name}: {}", error_text(&e)));
        }
        let hook = |n: &str| match env.raw_get::<Value>(n) {
            Ok(Value::Function(f)) => Some(f),
            _ => None,
        };
        Ok(ScriptInstance {
            update: hook("Update"),
            physics_update: hook("PhysicsUpdate"),
            running,
            env,
            errors: 0,
            disabled: false,
            source,
            systems,
        })
    }

    pub(super) fn new_env(&self, owner: Id, script: Id) -> mlua::Result<Table> {
        let env = self.lua.create_table()?;
        env.raw_set("self", Instance(owner))?;
        env.raw_set("script", Instance(script))?;
        let seed = crate::instances::random::instance_seed(self.random_seed, script);
        env.raw_set(
            "math",
            crate::instances::random::math_table(&self.lua, &self.base.raw_get("math")?, seed)?,
        )?;
        let meta = self.lua.create_table()?;
        meta.raw_set("__index", self.base.clone())?;
        meta.raw_set("__metatable", "the environment is locked")?;
        meta.set_readonly(true);
        env.set_metatable(Some(meta))?;
        Ok(env)
    }

    /// Scripts in the world not yet started, in id order: all of them the first time, then
    /// those under nodes created or moved since (the topology journal), or all again if the
    /// journal's history is unavailable.
    pub(super) fn pending_scripts(&mut self) -> Vec<Id> {
        let seen = self.topology_seen;
        let requeued = std::mem::take(&mut self.requeued);
        let started = &self.started;
        let found = with_world(&self.lua, |w| {
            let is_pending = |id: Id| {
                w.get(id)
                    .is_some_and(|n| n.class() == Class::Script && n.flags().contains(NodeFlags::IN_WORLD))
                    && !started.contains(&id)
            };
            let mut out: Vec<Id> = match seen.map(|s| w.topology_since(s)) {
                Some(Ok(changes)) => {
                    let roots: Vec<Id> = changes
                        .filter_map(|(_, c)| match c {
                            arbor_core::raw::TopologyChange::Created { id, .. }
                            | arbor_core::raw::TopologyChange::Moved { id, .. } => Some(id),
                            arbor_core::raw::TopologyChange::Destroyed { .. } => None,
                        })
                        .collect();
                    roots.into_iter().flat_map(|r| w.subtree(r)).filter(|&id| is_pending(id)).collect()
                }
                _ => w.iter().map(|n| n.id()).filter(|&id| is_pending(id)).collect(),
            };
            out.extend(requeued.into_iter().filter(|&id| is_pending(id)));
            out.sort_unstable();
            out.dedup();
            (out, w.revisions().global)
        });
        match found {
            Ok((ids, rev)) => {
                self.topology_seen = Some(rev);
                ids
            }
            Err(_) => Vec::new(),
        }
    }

    /// Lets `script` start again at the next tick (its source changed while it had no
    /// running instance).
    pub(crate) fn forget_started(&mut self, script: Id) {
        if self.started.remove(&script) {
            self.requeued.push(script);
        }
    }

    /// Whether `script`'s `RunContext` lets this host (server or client) run it; a bad value
    /// is logged and the script does not start.
    fn runs_here(&self, script: Id) -> bool {
        let client = with_state(&self.lua, |s| s.client).unwrap_or(false);
        let context = with_world(&self.lua, |w| (RunContext::of(w, script), full_name(w, script)));
        match context {
            Ok((Ok(context), _)) => context.runs_on(client),
            Ok((Err(e), name)) => {
                self.push_log(Level::Error, format!("{name}: {e}; the script does not start"));
                false
            }
            Err(_) => false,
        }
    }

    pub(super) fn start_pending(&mut self) {
        let pending = self.pending_scripts();
        for (k, &script) in pending.iter().enumerate() {
            if self.share.exhausted() {
                // Started at a later tick, in the same order.
                self.requeued.extend_from_slice(&pending[k..]);
                self.share.defer_entries((pending.len() - k) as u64);
                break;
            }
            if !self.runs_here(script) {
                self.started.insert(script);
                continue;
            }
            let source: Arc<str> = with_world(&self.lua, |w| w.script_source(script).unwrap_or("").into())
                .unwrap_or_else(|_| "".into());
            if self.is_client() && !self.has_installed_code(&source) {
                continue; // a client script waits for its code from the server
            }
            self.started.insert(script);
            match self.build_instance(script, source) {
                Ok(instance) => self.instances.push(instance),
                Err(line) => self.push_log(Level::Error, line),
            }
        }
    }
}
