//! Saves that resume (`docs/behaviours.md`, "Saves"), and migrations.
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
//!
//! A save is input like a place file, and is checked like one before anything is restored:
//! its shape (no unknown or repeated keys), the world clock and counters (at most 2^53),
//! each binding's key (a persistent id, used once, of a `Behavior` instance), state (one of
//! its definition's), memory (every slot, each of its slot's kind, finite), and started
//! timers (declared events, at most the game's timers per instance, none on a closed
//! binding). An error names the path in the file (`bindings[3].timers[0].name: ...`), and
//! leaves the runtime and the world as they were.

mod document;

use crate::behavior::Behaviors;
use crate::behavior::binding::{Binding, BindingState};
use crate::behavior::definition::{Definition, fnv1a};
use crate::behavior::runtime::{Entry, with_runtime};
use crate::behavior::transaction::{self, Outcome, Publish};
use crate::behavior::value::Value;
use crate::instances::instance::Instance;
use crate::state::with_world;
use arbor_core::{Arena, Class, Id, NodeFlags, PersistentId};
use document::{
    SaveDoc, SavedBinding, SavedSource, at_most, check_shape, invalid, parse_key, saved_state, syntax_error,
};
use mlua::Lua;
use std::collections::BTreeMap;
use std::rc::Rc;
use std::sync::Arc;

/// The `format` of a behaviour state document.
pub const BEHAVIOR_STATE_FORMAT: &str = "arbor-behavior-state";

/// Why a save could not be opened.
#[derive(Debug, thiserror::Error)]
pub enum ResumeError {
    /// Not a behaviour state document, or damaged (malformed JSON, a value of the wrong
    /// shape, an unknown or repeated key).
    #[error("not a behaviour save: {0}")]
    Format(String),
    /// A well-formed save whose content is refused; `path` is where, e.g.
    /// `bindings[3].timers[0].name`.
    #[error("{path}: {message}")]
    Invalid {
        /// Path of the offending value in the save.
        path: String,
        /// What is wrong with it.
        message: String,
    },
    /// Behaviours are already running: a save opens before the first tick.
    #[error("a behaviour save opens before the first tick, and behaviours are already running")]
    Running,
    /// The VM could not build a restored binding's `self` (out of memory).
    #[error("the VM could not restore a binding: {0}")]
    Vm(String),
    /// The runtime or world was busy (a bug, or called inside a tick).
    #[error("the behaviour runtime is busy")]
    Busy,
}

/// A saved binding, checked and ready to restore.
struct Restore {
    node: Id,
    host: Id,
    def: Rc<Definition>,
    live: BindingState,
    start_minute: u64,
    closed: bool,
    handle: mlua::Table,
    /// The place's changed definition it migrates to once restored.
    migrate_to: Option<Rc<Definition>>,
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
            // A binding whose start has not run yet is not saved: a resumed world checks
            // and starts its instance as a new one.
            let pending = &rt.pending_starts;
            let saved = rt.bindings.iter().enumerate().filter(|(i, b)| !b.removed && !pending.contains(i));
            for (_, b) in saved {
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
    ///
    /// The whole save is checked before anything is restored: on an error the runtime and
    /// the world are as they were.
    pub fn resume(&self, lua: &Lua, arena: Arena, text: &str) -> (Arena, Result<u64, ResumeError>) {
        let doc: SaveDoc = match serde_json::from_str(text) {
            Ok(d) => d,
            Err(e) => return (arena, Err(syntax_error(text, &e))),
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
        // Checking compiles saved sources, whose chunks run: whatever they do to the world is
        // undone if the save is refused.
        let scope = with_world(lua, |w| w.begin_undo().is_ok()).unwrap_or(false);
        let planned = self.plan(lua, &doc);
        if scope {
            let _ = with_world(lua, |w| if planned.is_ok() { w.commit_undo() } else { w.rollback_undo() });
        }
        let result = planned.map(|plan| self.restore(lua, &doc, plan));
        let arena = slot.take().expect("the world put in above");
        (arena, result.map(|()| doc.tick))
    }

    /// Checks every saved binding against the world and its saved definition, and prepares
    /// what restoring it takes; changes nothing.
    fn plan(&self, lua: &Lua, doc: &SaveDoc) -> Result<Vec<Restore>, ResumeError> {
        let (running, settings, current) =
            with_runtime(lua, |rt| (!rt.bindings.is_empty(), rt.settings, rt.definitions.clone()))
                .map_err(|_| ResumeError::Busy)?;
        if running {
            return Err(ResumeError::Running);
        }
        at_most("tick", doc.tick)?;
        if let Some(m) = doc.minute {
            at_most("minute", m)?;
        }
        for (name, s) in &doc.sources {
            let hash = hex(fnv1a(s.source.as_bytes()));
            if s.hash != hash {
                let message = format!("'{}' is not the hash of its source ({hash})", s.hash);
                return Err(invalid(format!("sources.{name}.hash"), message));
            }
        }
        // Saved definitions, compiled once per behaviour (`None`: it cannot be restored).
        let mut defs: BTreeMap<&str, Option<Rc<Definition>>> = BTreeMap::new();
        let mut keys: BTreeMap<u128, usize> = BTreeMap::new();
        let mut plan = Vec::new();
        let first_index = with_runtime(lua, |rt| rt.bindings.len()).map_err(|_| ResumeError::Busy)?;
        for (i, saved) in doc.bindings.iter().enumerate() {
            let at = format!("bindings[{i}]");
            let pid = parse_key(&saved.key).ok_or_else(|| {
                invalid(format!("{at}.key"), format!("'{}' is not a persistent id (hexadecimal)", saved.key))
            })?;
            if let Some(j) = keys.insert(pid, i) {
                return Err(invalid(
                    format!("{at}.key"),
                    format!("'{}' is also the key of bindings[{j}]", saved.key),
                ));
            }
            check_shape(&at, saved, settings.timers_per_instance as usize)?;
            let found = with_world(lua, |w| {
                w.find_persistent(PersistentId(pid)).and_then(|node| w.get(node)).map(|n| {
                    let named = super::binding::named_behavior(w, n.id()).ok();
                    (n.id(), n.class(), n.flags().contains(NodeFlags::IN_WORLD), named)
                })
            })
            .map_err(|_| ResumeError::Busy)?;
            // Its instance is gone, or out of the world: the binding is dropped.
            let Some((node, class, in_world, named)) = found else { continue };
            if class != Class::Behavior {
                let message = format!("the instance with this persistent id is a {class}, not a Behavior");
                return Err(invalid(format!("{at}.key"), message));
            }
            // Out of the world, or now naming another behaviour: it starts as a new instance.
            if !in_world || named.as_deref() != Some(saved.behavior.as_str()) {
                continue;
            }
            // The save does not hold its source (one source per behaviour is saved, and a
            // binding whose migration was cancelled runs another): it starts as new.
            let Some(source) = doc.sources.get(&saved.behavior).filter(|s| s.hash == saved.hash) else {
                continue;
            };
            let def = defs
                .entry(saved.behavior.as_str())
                .or_insert_with(|| match current.get(&saved.behavior) {
                    Some(Ok(d)) if hex(d.hash) == saved.hash => Some(d.clone()),
                    _ => self.compile(lua, &saved.behavior, Arc::from(source.source.as_str())).ok(),
                })
                .clone();
            // A saved source that no longer compiles: it starts as a new instance.
            let Some(def) = def else { continue };
            let live = saved_state(&at, saved, &def)?;
            let checked = with_world(lua, |w| {
                let host = w.get(node).and_then(|n| n.parent()).unwrap_or(Id::NONE);
                super::binding::check_binding(w, node, &def).ok().map(|props| (host, props))
            })
            .map_err(|_| ResumeError::Busy)?;
            // It no longer fits its saved definition: it starts as a new instance.
            let Some((host, props)) = checked else { continue };
            let handle = self
                .make_handle(lua, first_index + plan.len(), host, &def, &props)
                .map_err(|e| ResumeError::Vm(crate::luau::convert::error_text(&e)))?;
            let migrate_to = match current.get(&saved.behavior) {
                Some(Ok(new_def)) if new_def.hash != def.hash => Some(new_def.clone()),
                _ => None,
            };
            plan.push(Restore {
                node,
                host,
                def,
                live,
                start_minute: saved.start_minute,
                closed: saved.closed,
                handle,
                migrate_to,
            });
        }
        Ok(plan)
    }

    /// Restores the checked bindings, then migrates those whose definition changed.
    fn restore(&self, lua: &Lua, doc: &SaveDoc, plan: Vec<Restore>) {
        let migrations = with_runtime(lua, |rt| {
            rt.minute = doc.minute;
            rt.now = doc.minute.unwrap_or(0);
            rt.tick = doc.tick;
            let mut migrations = Vec::new();
            for r in plan {
                let binding = Binding {
                    node: r.node,
                    host: r.host,
                    def: r.def,
                    live: r.live,
                    start_minute: r.start_minute,
                    closed: r.closed,
                    removed: false,
                    handle: r.handle,
                };
                let index = rt.push(binding);
                if let Some(new_def) = r.migrate_to {
                    migrations.push((index, new_def));
                }
            }
            migrations
        })
        .unwrap_or_default();
        for (index, new_def) in migrations {
            self.migrate(lua, index, new_def);
        }
    }

    /// The `self` table of the binding that will have index `index`.
    fn make_handle(
        &self,
        lua: &Lua,
        index: usize,
        host: Id,
        def: &Definition,
        props: &[Value],
    ) -> mlua::Result<mlua::Table> {
        let props_table = lua.create_table()?;
        for (p, v) in def.properties.iter().zip(props) {
            props_table.raw_set(p.name.as_str(), v.to_lua(lua)?)?;
        }
        self.make_self.call((index, Instance(host), props_table))
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
