//! Behaviours (`docs/behaviours.md`): transactional, resumable scripts bound to host instances,
//! next to the `Script`s (`docs/scripting.md`), in the same VM and sharing its metering.
//!
//! - `definition`: the definition a behaviour's chunk returns; `binding`: a behaviour
//!   instance and the check it passes before it starts; `value`: the determinism rules at
//!   the crossing into memory, fields and payloads.
//! - `runtime`: every instance and queue, in the VM's app data; `handler_env`: what handlers see.
//! - `transaction`: one transaction, undone whole on an error; `moment`: one tick's round
//!   of deliveries; `share`: the tick's share of units they run under; `report`: error
//!   reports; `save`: saves that resume, and migrations.
//! - `rewrite` and `arith`: checked arithmetic (a NaN or an infinity is an error at the
//!   operation that made it).
//!
//! Behaviours compile at optimisation level 1: level 2 inlines small local functions, and an
//! inlined helper has no frame of its own, so an error report's call stack would lose it.
//!
//! [`Behaviors`] holds the Rust-side handles of the installed API; the host runs a moment at
//! the end of each tick's Update phase. The game's settings run under the host's caps
//! ([`BehaviorCaps`]): a setting above its cap is lowered to it, with a warning in the log.

mod arith;
mod binding;
pub(crate) mod definition;
mod handler_env;
mod moment;
mod report;
mod rewrite;
mod runtime;
mod save;
mod share;
mod transaction;
mod value;

pub use binding::BEHAVIOR_ATTRIBUTE;
pub use report::BehaviorReport;
pub use save::{BEHAVIOR_STATE_FORMAT, ResumeError};
pub use share::BEHAVIOR_TICK_UNITS;

pub(crate) use handler_env::send_from_script;
pub(crate) use runtime::with_runtime;

use crate::luau::convert::error_text;
use arbor_core::{Arena, BehaviorCaps};
use mlua::{Function, Lua, Table};
use runtime::Runtime;
use std::rc::Rc;
use std::sync::Arc;

/// Counters of a place's behaviours.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BehaviorStats {
    /// Bindings running (not closed, not removed).
    pub running: usize,
    /// Bindings closed by an error.
    pub closed: usize,
    /// Transactions committed.
    pub committed: u64,
    /// Transactions undone.
    pub rolled_back: u64,
    /// Error reports made (refused bindings included).
    pub errors: u64,
    /// Starts and deliveries that waited for a later tick because a tick's behaviour share
    /// was used, ever (each counted once, however long it waited).
    pub deferred: u64,
    /// Starts and deliveries waiting for the next tick now.
    pub waiting: usize,
    /// Deliveries dropped because more than a moment's transaction limit were waiting, ever.
    pub dropped_waiting: u64,
}

/// The behaviour runtime's Rust-side handles.
pub(crate) struct Behaviors {
    make_self: Function,
    env_base: Table,
    wrapper: transaction::Wrapper,
}

/// The seed of every instance's random generator (same place, same numbers).
const RNG_SEED: u64 = 0xB0A7_5EED_0004_0001;

impl Behaviors {
    /// Installs the behaviour API and runtime on `lua` (over the Scripts' `base`) and
    /// compiles the place's behaviours. The place's settings run under the host's `caps`
    /// (a setting above its cap is lowered to it and logged as a warning), and the moments'
    /// transactions share `tick_units` units a tick.
    pub fn install(
        lua: &Lua,
        base: &Table,
        check: Function,
        arena: &Arena,
        caps: &BehaviorCaps,
        tick_units: i64,
    ) -> mlua::Result<Self> {
        let installed = handler_env::install(lua, base, check)?;
        let (settings, lowered) = arena.behaviors().settings.capped(caps);
        for capped in lowered {
            let line = format!("behaviours: {capped}");
            let _ = crate::state::with_state(lua, |s| s.log.push(crate::log::Level::Warn, line));
        }
        lua.set_app_data(Runtime::new(settings, RNG_SEED, tick_units));
        let me = Self {
            make_self: installed.make_self,
            env_base: installed.env_base,
            wrapper: transaction::make_wrapper(lua, base)?,
        };
        for (name, source) in arena.behaviors().iter() {
            let compiled = me.compile(lua, name, source.clone());
            if let Err(e) = &compiled {
                let line = format!("behaviour '{name}': load error: {e}");
                let _ = crate::state::with_state(lua, |s| s.log.push(crate::log::Level::Error, line));
            }
            with_runtime(lua, |rt| rt.definitions.insert(name.to_owned(), compiled))?;
        }
        Ok(me)
    }

    /// Compiles behaviour `name`: checks its arithmetic (`rewrite`), runs its chunk (metered,
    /// in a behaviour environment) and reads the definition it returns.
    pub fn compile(&self, lua: &Lua, name: &str, source: Arc<str>) -> runtime::Compiled {
        // Level 1: no inlining, so every Luau function keeps its frame in error reports.
        let compiler = mlua::chunk::Compiler::new().set_optimization_level(1).set_debug_level(1);
        // Luau reads the source as written first, so a syntax error is reported as Luau
        // words it, and the rewrite only ever sees valid Luau.
        compiler.compile(&*source).map_err(|e| error_text(&e))?;
        let checked = rewrite::rewrite(&source).map_err(|e| format!("{name}:{}: {}", e.line, e.message))?;
        let code = compiler.compile(&checked.text).map_err(|e| {
            format!("the behaviour does not compile once its arithmetic is checked: {}", error_text(&e))
        })?;
        let env = lua.create_table().map_err(|e| e.to_string())?;
        let meta = lua.create_table().map_err(|e| e.to_string())?;
        meta.raw_set("__index", self.env_base.clone()).map_err(|e| e.to_string())?;
        env.set_metatable(Some(meta)).map_err(|e| e.to_string())?;
        let chunk = lua
            .load(&code[..])
            .set_name(format!("={name}"))
            .set_environment(env)
            .into_function()
            .map_err(|e| error_text(&e))?;
        let enclosing = crate::budget::enter();
        let result = chunk.call::<mlua::Value>(());
        crate::budget::leave(enclosing);
        match result.map_err(|e| error_text(&e))? {
            mlua::Value::Table(t) => definition::Definition::read(lua, name, source, &t).map(Rc::new),
            mlua::Value::Integer(_) | mlua::Value::Number(_) => {
                Err("the chunk must return the definition table, not number".to_owned())
            }
            other => Err(format!(
                "the chunk must return the definition table, not {}",
                crate::luau::convert::type_name(lua, &other)
            )),
        }
    }
}

/// The world minute of simulated time `seconds` at `minutes_per_second`.
pub(crate) fn world_minute(seconds: f64, minutes_per_second: f64) -> u64 {
    let m = seconds * minutes_per_second;
    // Ticks land exactly on minute boundaries in exact arithmetic; 1e-9 absorbs the
    // rounding of `tick * dt` (the same on every IEEE machine).
    (m + 1e-9).floor().max(0.0) as u64
}

/// The counters of `lua`'s behaviours.
pub(crate) fn stats(lua: &Lua) -> BehaviorStats {
    with_runtime(lua, |rt| BehaviorStats {
        running: rt.bindings.iter().filter(|b| !b.closed && !b.removed).count(),
        closed: rt.bindings.iter().filter(|b| b.closed && !b.removed).count(),
        committed: rt.committed,
        rolled_back: rt.rolled_back,
        errors: rt.errors,
        deferred: rt.share.deferred_total(),
        waiting: rt.pending_starts.len() + rt.queue.len(),
        dropped_waiting: rt.share.dropped_total(),
    })
    .unwrap_or_default()
}
