//! Saves that resume (`004`, "A loaded instance"), and migrations.
//!
//! A save is a JSON document holding, for every binding, its `Behavior` instance's persistent
//! id, its behaviour's name and source hash, memory, state, started timers, random generator
//! state, counters, starting minute and whether it is closed; plus the world clock (the last
//! tick run) and each behaviour's source. The world itself (fields, hosts) is saved as a place
//! file beside it; `arbor serve --save` writes both into one place file.
//!
//! Opening a save with the same definition (same hash) restores the binding as it was:
//! `ready` and `enter` do not run again. With a changed definition the binding migrates:
//! the new definition's `Migrate(old)` runs as a transaction and returns the new memory (a
//! table by slot name; slots it leaves out take their initial values), the state is kept if
//! the new definition has it (else the auto state). An error during a migration cancels it:
//! the binding goes on with its saved definition and state and is not closed. A binding
//! closed in the save starts again as a new instance under a changed definition; under the
//! same definition it stays closed.

use super::Behaviors;
use super::binding::{Binding, BindingState, Counters, StartedTimer};
use super::definition::fnv1a;
use super::runtime::{Entry, with_runtime};
use super::transaction::{self, Outcome, Publish};
use super::value::Value;
use crate::api::instance::Instance;
use crate::state::with_world;
use arbor_core::{Arena, Id, PersistentId, raw::SplitMix64};
use mlua::Lua;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::rc::Rc;
use std::sync::Arc;

/// The `format` of a behaviour state document.
pub const BEHAVIOR_STATE_FORMAT: &str = "arbor-behavior-state";

/// Why a save could not be opened.
#[derive(Debug, thiserror::Error)]
pub enum ResumeError {
    /// Not a behaviour state document, or damaged.
    #[error("not a behaviour save: {0}")]
    Format(String),
    /// The runtime or world was busy (a bug, or called inside a tick).
    #[error("the behaviour runtime is busy")]
    Busy,
}

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct SavedBinding {
    /// Persistent id of the `Behavior` instance, in hex.
    key: String,
    behavior: String,
    hash: String,
    state: Option<String>,
    memory: BTreeMap<String, Value>,
    timers: Vec<StartedTimer>,
    rng: u64,
    counters: Counters,
    start_minute: u64,
    closed: bool,
}

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct SavedSource {
    hash: String,
    source: String,
}

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct SaveDoc {
    format: String,
    version: u32,
    /// The last tick run, whose world clock the resumed world goes on from.
    tick: u64,
    /// The last world minute whose timers were queued.
    minute: Option<u64>,
    sources: BTreeMap<String, SavedSource>,
    bindings: Vec<SavedBinding>,
}

fn hex(h: u64) -> String {
    format!("{h:016x}")
}

impl Behaviors {
    /// The behaviour state of the world in `arena` as a save document. Gives every bound
    /// `Behavior` instance a persistent id (so the saved place names it).
    pub fn save(&self, lua: &Lua, arena: &mut Arena, tick: u64) -> Result<String, ResumeError> {
        let doc = with_runtime(lua, |rt| -> Result<SaveDoc, ResumeError> {
            let mut sources = BTreeMap::new();
            let mut bindings = Vec::new();
            for b in rt.bindings.iter().filter(|b| !b.removed) {
                let pid = arena.persistent_id(b.node).map_err(|e| ResumeError::Format(e.to_string()))?;
                sources.entry(b.def.name.clone()).or_insert_with(|| SavedSource {
                    hash: hex(b.def.hash),
                    source: b.def.source.to_string(),
                });
                bindings.push(SavedBinding {
                    key: format!("{:032x}", pid.0),
                    behavior: b.def.name.clone(),
                    hash: hex(b.def.hash),
                    state: b.live.state.clone(),
                    memory: b
                        .def
                        .memory
                        .iter()
                        .map(|(n, _, _)| n.clone())
                        .zip(b.live.memory.iter().cloned())
                        .collect(),
                    timers: b.live.timers.clone(),
                    rng: b.live.rng.0,
                    counters: b.live.counters,
                    start_minute: b.start_minute,
                    closed: b.closed,
                });
            }
            Ok(SaveDoc {
                format: BEHAVIOR_STATE_FORMAT.to_owned(),
                version: 1,
                tick,
                minute: rt.minute,
                sources,
                bindings,
            })
        })
        .map_err(|_| ResumeError::Busy)??;
        serde_json::to_string_pretty(&doc).map_err(|e| ResumeError::Format(e.to_string()))
    }

    /// Opens the save `text` for the world in `arena` (the place saved beside it). Must run
    /// before the first tick. Returns the tick the world clock goes on after.
    pub fn resume(&self, lua: &Lua, arena: Arena, text: &str) -> (Arena, Result<u64, ResumeError>) {
        let doc: SaveDoc = match serde_json::from_str(text) {
            Ok(d) => d,
            Err(e) => return (arena, Err(ResumeError::Format(e.to_string()))),
        };
        if doc.format != BEHAVIOR_STATE_FORMAT || doc.version != 1 {
            return (
                arena,
                Err(ResumeError::Format(format!("format '{}' version {}", doc.format, doc.version))),
            );
        }
        let slot = match crate::state::world_slot(lua) {
            Ok(s) => s,
            Err(_) => return (arena, Err(ResumeError::Busy)),
        };
        slot.put(arena);
        let result = self.resume_in_world(lua, &doc);
        let arena = slot.take().expect("the world put in above");
        (arena, result.map(|()| doc.tick))
    }

    fn resume_in_world(&self, lua: &Lua, doc: &SaveDoc) -> Result<(), ResumeError> {
        let _ = with_runtime(lua, |rt| {
            rt.minute = doc.minute;
            rt.now = doc.minute.unwrap_or(0);
            rt.tick = doc.tick;
        });
        for saved in &doc.bindings {
            let pid =
                u128::from_str_radix(&saved.key, 16).map_err(|e| ResumeError::Format(format!("key: {e}")))?;
            let Some(node) =
                with_world(lua, |w| w.find_persistent(PersistentId(pid))).map_err(|_| ResumeError::Busy)?
            else {
                continue;
            };
            self.resume_binding(lua, node, saved, doc);
        }
        Ok(())
    }

    /// Restores (or migrates) one saved binding onto `node`.
    fn resume_binding(&self, lua: &Lua, node: Id, saved: &SavedBinding, doc: &SaveDoc) {
        let current = with_runtime(lua, |rt| rt.definitions.get(&saved.behavior).cloned()).ok().flatten();
        let old_def = match doc.sources.get(&saved.behavior) {
            Some(s) if hex(fnv1a(s.source.as_bytes())) == saved.hash => match current.as_ref() {
                Some(Ok(d)) if hex(d.hash) == saved.hash => Ok(d.clone()),
                _ => self.compile(lua, &saved.behavior, Arc::from(s.source.as_str())),
            },
            _ => Err("the save does not hold this behaviour's source".to_owned()),
        };
        let Ok(old_def) = old_def else { return };
        let live = BindingState {
            memory: old_def
                .memory
                .iter()
                .map(|(n, k, init)| {
                    saved.memory.get(n).filter(|v| v.kind() == *k).cloned().unwrap_or_else(|| init.clone())
                })
                .collect(),
            state: saved.state.clone(),
            timers: saved.timers.clone(),
            rng: SplitMix64(saved.rng),
            counters: saved.counters,
        };
        let host =
            with_world(lua, |w| w.get(node).and_then(|n| n.parent())).ok().flatten().unwrap_or(Id::NONE);
        let props =
            with_world(lua, |w| super::binding::check_binding(w, node, &old_def)).ok().and_then(|r| r.ok());
        let Some(props) = props else { return };
        let Some(index) = self.push_binding(
            lua,
            node,
            host,
            old_def.clone(),
            props,
            live,
            saved.start_minute,
            saved.closed,
        ) else {
            return;
        };
        match current {
            Some(Ok(new_def)) if new_def.hash != old_def.hash => {
                self.migrate(lua, index, new_def);
            }
            _ => {}
        }
    }

    /// Adds a binding with the given state (no start transaction); returns its index.
    #[allow(clippy::too_many_arguments)]
    fn push_binding(
        &self,
        lua: &Lua,
        node: Id,
        host: Id,
        def: Rc<super::definition::Definition>,
        props: Vec<Value>,
        live: BindingState,
        start_minute: u64,
        closed: bool,
    ) -> Option<usize> {
        let props_table = lua.create_table().ok()?;
        for (p, v) in def.properties.iter().zip(&props) {
            let _ = v.to_lua(lua).and_then(|v| props_table.raw_set(p.name.as_str(), v));
        }
        let index = with_runtime(lua, |rt| rt.bindings.len()).ok()?;
        let handle: mlua::Table = self.make_self.call((index, Instance(host), props_table)).ok()?;
        with_runtime(lua, |rt| {
            rt.push(Binding { node, host, def, live, start_minute, closed, removed: false, handle });
        })
        .ok()?;
        Some(index)
    }

    /// Moves binding `index` to `new_def`: a closed binding starts again as a new instance; an
    /// open one runs `Migrate(old)` as a transaction, and goes on with its old definition if
    /// that fails.
    pub(crate) fn migrate(
        &self,
        lua: &Lua,
        index: usize,
        new_def: Rc<super::definition::Definition>,
    ) -> Outcome {
        let setup = with_runtime(lua, |rt| {
            let b = rt.bindings.get_mut(index)?;
            let old_memory: Vec<(String, Value)> =
                b.def.memory.iter().map(|(n, _, _)| n.clone()).zip(b.live.memory.iter().cloned()).collect();
            let old_state = b.live.state.clone();
            let old = (b.def.clone(), b.live.clone(), b.closed);
            b.def = new_def.clone();
            b.live.memory = new_def.initial_memory();
            b.live.state =
                old_state.clone().filter(|s| new_def.states.contains_key(s)).or_else(|| new_def.auto.clone());
            b.live.timers.retain(|t| new_def.events.contains_key(&t.name));
            Some((old_memory, old_state, old))
        });
        let Ok(Some((old_memory, old_state, (old_def, old_live, was_closed)))) = setup else {
            return Outcome::Skipped;
        };
        if was_closed {
            let _ = with_runtime(lua, |rt| {
                let b = &mut rt.bindings[index];
                b.closed = false;
                b.live = BindingState { timers: Vec::new(), counters: b.live.counters, ..b.live.clone() };
                b.live.state = None;
                b.start_minute = rt.now;
            });
            return transaction::run(lua, &self.wrapper, index, Entry::Start, Publish::Queue);
        }
        let Some(migrate) = new_def.migrate.clone() else { return Outcome::Committed };
        let outcome = self.run_migration(lua, index, migrate, &old_memory, old_state.as_deref());
        if outcome == Outcome::Failed {
            // Cancelled: back to the old definition, not closed.
            let _ = with_runtime(lua, |rt| {
                let b = &mut rt.bindings[index];
                b.def = old_def;
                b.live = old_live;
                b.closed = false;
            });
        }
        outcome
    }

    /// Runs `Migrate(old)` on binding `index` as a transaction: its result sets the memory.
    fn run_migration(
        &self,
        lua: &Lua,
        index: usize,
        migrate: mlua::Function,
        old_memory: &[(String, Value)],
        old_state: Option<&str>,
    ) -> Outcome {
        let old = match lua.create_table() {
            Ok(t) => t,
            Err(_) => return Outcome::Failed,
        };
        let memory = lua.create_table().ok();
        if let Some(m) = &memory {
            for (n, v) in old_memory {
                let _ = v.to_lua(lua).and_then(|v| m.raw_set(n.as_str(), v));
            }
        }
        let _ = old.raw_set("memory", memory);
        let _ = old.raw_set("state", old_state);
        // The migration's transaction: `Migrate(old)` returns a memory table, read through
        // `self.memory` so every value crosses the determinism rules.
        let body: mlua::Function = match lua
            .load(
                "local migrate, old = ... return function(self) local new = migrate(old) \
                 if type(new) == 'table' then for k, v in next, new do self.memory[k] = v end end end",
            )
            .set_name("=arbor-migrate")
            .call((migrate, old))
        {
            Ok(f) => f,
            Err(_) => return Outcome::Failed,
        };
        let handle = with_runtime(lua, |rt| rt.bindings.get(index).map(|b| b.handle.clone())).ok().flatten();
        let Some(handle) = handle else { return Outcome::Skipped };
        let body = transaction::Body {
            label: "migration".to_owned(),
            fns: vec![body],
            handle,
            payload: None,
            start: false,
        };
        transaction::run_body(lua, &self.wrapper, index, body, Publish::Queue, false)
    }
}
