//! [`ScriptHost`]: one Luau VM running every script of a place, plugged into the tick.
//!
//! - **Starting.** A Script in the world at the start of a tick becomes a running instance:
//!   a fresh environment (`self` = the entity the script is attached to, i.e. its parent;
//!   `script` = the Script itself; everything else read-only from the sandboxed base), its
//!   precompiled bytecode loaded, the top-level chunk run under a fresh budget, then the
//!   `Update` and `PhysicsUpdate` globals captured. A compile error reports a *load error*,
//!   a top-level error an *init error*; both discard the instance and name the script's path
//!   (and the line, in the message).
//! - **Callbacks.** `Update(dt)` every tick, `PhysicsUpdate(1/60)` every physics step, each
//!   under a fresh budget. A runtime error increments the instance's consecutive error
//!   counter, a success resets it; at 5 the host logs `'<name>' disabled after 5 consecutive
//!   errors` and stops calling that instance until a reload.
//! - **Systems.** ECS systems a script registers at its top level run in the Systems phase,
//!   server only, each dispatch under a fresh budget and counted like a callback (`systems`).
//! - **Retiring.** When a script's subtree is destroyed its instance retires and its
//!   connections go; connections whose target was destroyed go too.
//!
//! The world is moved into the VM's world slot for the duration of each phase and moved back
//! after (see `state`), so callbacks reach it safely; scripts are found incrementally
//! through the topology journal.

use crate::api;
use crate::api::convert::error_text;
use crate::api::instance::Instance;
use crate::budget;
use crate::log::{Level, LogLine, ScriptLog};
use crate::session::{self, PlayersSlot};
use crate::state::{HostState, Running, RunningStack, WorldSlot, full_name, with_state, with_world};
use crate::systems::ScriptSystem;
use crate::tick_share::{SharedPhase, TICK_SHARE_UNITS, TickShare};
use arbor_core::{Arena, Class, Id, InstanceEvent, NodeFlags};
use arbor_sim::{TickContext, TickHooks};
use mlua::{Function, Lua, Table, Value};
use rustc_hash::{FxHashMap, FxHashSet};
use std::rc::Rc;
use std::sync::Arc;

/// Consecutive callback errors that disable an instance.
pub const MAX_CONSECUTIVE_ERRORS: u32 = 5;

/// Memory limit of the VM (bounds `string.rep` bombs and runaway tables).
pub const MEMORY_LIMIT: usize = 256 << 20;

/// How a host is set up.
#[derive(Clone, Debug)]
pub struct HostConfig {
    /// Echo log lines to stdout/stderr as they happen.
    pub echo: bool,
    /// Run as a client (client-local objects; `Destroy` raises).
    pub client: bool,
    /// VM memory limit in bytes.
    pub memory_limit: usize,
    /// Bytes of the VM one script may hold (see `budget::memory`); a quarter of
    /// `memory_limit` by default, so one script cannot fill the VM for the others.
    pub script_memory_share: usize,
    /// Units all scripts of one tick may use together before the rest of the tick's entries
    /// are deferred (see `tick_share`).
    pub tick_units: i64,
    /// Compile scripts to native code (Luau's code generator). Only takes effect when the
    /// crate's `jit` feature is on, and is then on by default; see the crate docs for why
    /// the feature is off by default.
    pub jit: bool,
    /// Where `game.Store` and `game.CloudStore` keep their data.
    pub stores: crate::store::StoreConfig,
    /// The host's seed for Scripts' `math.random` (each script instance draws from a
    /// generator of its own, seeded from this and the Script's id). None: one is picked
    /// from the clock at start, as Luau does; a recorded session keeps it
    /// ([`ScriptHost::random_seed`]) so a replay draws the same numbers.
    pub random_seed: Option<i32>,
    /// How long one top-level entry may hold the tick thread whatever the meter says
    /// (`budget::wall`); `None` turns the backstop off. A replay turns it off itself.
    pub wall_bound: Option<budget::WallBound>,
    /// The host's caps on the place's behaviour settings (`settings.behaviors`): a setting
    /// above its cap is lowered to it, with a warning in the log.
    pub behavior_caps: arbor_core::BehaviorCaps,
    /// Units all behaviour transactions of one tick may use together before the rest of the
    /// moment waits for the next tick ([`crate::BEHAVIOR_TICK_UNITS`] by default; see
    /// `behavior::share`).
    pub behavior_tick_units: i64,
}

impl Default for HostConfig {
    fn default() -> Self {
        Self {
            echo: false,
            client: false,
            memory_limit: MEMORY_LIMIT,
            script_memory_share: MEMORY_LIMIT / 4,
            tick_units: TICK_SHARE_UNITS,
            jit: cfg!(feature = "jit"),
            stores: crate::store::StoreConfig::default(),
            random_seed: None,
            wall_bound: Some(budget::WallBound::DEFAULT),
            behavior_caps: arbor_core::BehaviorCaps::default(),
            behavior_tick_units: crate::behavior::BEHAVIOR_TICK_UNITS,
        }
    }
}

/// The warning logged at load for a script that is not under the Workspace.
fn outside_the_world(path: &str) -> String {
    format!(
        "{path}: warning: this script is outside the Workspace and does not run; scripts run \
         only under the Workspace (a copy placed there runs)"
    )
}

/// One running script instance.
pub(crate) struct ScriptInstance {
    pub running: Running,
    pub env: Table,
    pub update: Option<Function>,
    pub physics_update: Option<Function>,
    pub errors: u32,
    pub disabled: bool,
    pub source: Arc<str>,
    /// ECS systems registered by the top-level chunk, in registration order.
    pub systems: Vec<ScriptSystem>,
}

/// Why a script could not be prepared.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Prepared {
    Ok(Arc<[u8]>),
    LoadError(String),
}

/// The script runtime of one place.
pub struct ScriptHost {
    pub(crate) lua: Lua,
    pub(crate) base: Table,
    pub(crate) instances: Vec<ScriptInstance>,
    started: FxHashSet<Id>,
    pub(crate) bytecode: FxHashMap<Arc<str>, Prepared>,
    topology_seen: Option<u64>,
    /// Scripts to start again at the next tick although the topology did not change (a
    /// reload gave a script with no running instance new source).
    pub(crate) requeued: Vec<Id>,
    spare: Option<Arena>,
    pub(crate) world: Rc<WorldSlot>,
    players: Rc<PlayersSlot>,
    root: Id,
    running: Rc<RunningStack>,
    pub(crate) next_key: u64,
    /// The tick-level bound on script work.
    pub(crate) share: TickShare,
    /// The place's behaviours (`004`).
    pub(crate) behaviors: crate::behavior::Behaviors,
    /// Ticks the behaviours' world clock was ahead when this host started (a resumed save).
    pub(crate) clock_offset: u64,
    /// The seed every script instance's `math.random` generator is derived from (with the
    /// Script's id, `api::random`).
    random_seed: i32,
}

/// Why [`ScriptHost::new`] could not build a host (nothing was started).
#[derive(Debug, thiserror::Error)]
pub enum HostError {
    /// [`HostConfig::memory_limit`] leaves too little memory for the sandbox itself.
    #[error("the script memory limit ({limit} bytes) is too small to set up the sandbox")]
    MemoryLimitTooSmall {
        /// The limit asked for.
        limit: usize,
        /// The allocation that failed.
        #[source]
        source: mlua::Error,
    },
    /// Luau refused part of the sandbox's own set-up.
    #[error("the script sandbox could not be set up: {0}")]
    Sandbox(#[source] mlua::Error),
}

impl ScriptHost {
    /// A host for `arena`: builds the sandbox and compiles every script source in the place
    /// ahead of time. A script that fails to compile is not an error here: it is reported
    /// when it would start.
    pub fn new(arena: &Arena, config: HostConfig) -> Result<Self, HostError> {
        let limit = config.memory_limit;
        Self::build(arena, config).map_err(|e| match e {
            mlua::Error::MemoryError(_) => HostError::MemoryLimitTooSmall { limit, source: e },
            e => HostError::Sandbox(e),
        })
    }

    fn build(arena: &Arena, config: HostConfig) -> mlua::Result<Self> {
        let lua = Lua::new();
        #[cfg(feature = "jit")]
        lua.enable_jit(config.jit);
        api::handle::install_atoms(&lua)?;
        lua.set_memory_limit(config.memory_limit)?;
        budget::set_memory_share(config.script_memory_share);
        budget::set_wall_bound(config.wall_bound);
        let world = Rc::new(WorldSlot::default());
        lua.set_app_data(Rc::clone(&world));
        let running = Rc::new(RunningStack::default());
        lua.set_app_data(Rc::clone(&running));
        let players = Rc::new(PlayersSlot::default());
        lua.set_app_data(Rc::clone(&players));
        let prefabs = arena.find_first_child(arena.root(), "Prefabs");
        lua.set_app_data(HostState {
            log: ScriptLog::new(config.echo),
            client: config.client,
            prefabs,
            ..Default::default()
        });
        let base = api::install(&lua, arena.root(), arena.workspace(), &config.stores)?;
        let random_seed = config.random_seed.unwrap_or_else(clock_seed);
        let check: Function = lua.named_registry_value::<Table>(api::instance::PRELUDE_KEY)?.get("check")?;
        lua.sandbox(true)?;
        budget::install(&lua)?;
        budget::limit_script_memory(&lua, config.memory_limit, config.script_memory_share)?;
        let behaviors = crate::behavior::Behaviors::install(
            &lua,
            &base,
            check,
            arena,
            &config.behavior_caps,
            config.behavior_tick_units,
        )?;
        let mut host = Self {
            lua,
            base,
            instances: Vec::new(),
            started: FxHashSet::default(),
            bytecode: FxHashMap::default(),
            topology_seen: None,
            requeued: Vec::new(),
            spare: Some(Arena::new()),
            world,
            players,
            root: arena.root(),
            running,
            next_key: 1,
            share: TickShare::new(config.tick_units),
            behaviors,
            clock_offset: 0,
            random_seed,
        };
        for node in arena.iter().filter(|n| n.class() == Class::Script) {
            if let Some(source) = arena.script_source(node.id()) {
                host.prepare(source);
            }
            if !node.flags().contains(NodeFlags::IN_WORLD) {
                host.push_log(Level::Warn, outside_the_world(&arena.full_name(node.id())));
            }
        }
        Ok(host)
    }

    /// The seed Scripts' `math.random` started from (give it as [`HostConfig::random_seed`]
    /// to draw the same numbers again).
    pub fn random_seed(&self) -> i32 {
        self.random_seed
    }

    /// Compiles `source` (cached by text).
    pub(crate) fn prepare(&mut self, source: &str) -> Prepared {
        if let Some(p) = self.bytecode.get(source) {
            return p.clone();
        }
        let compiled =
            mlua::chunk::Compiler::new().set_optimization_level(2).set_debug_level(1).compile(source);
        let prepared = match compiled {
            Ok(code) => Prepared::Ok(code.into()),
            Err(e) => Prepared::LoadError(error_text(&e)),
        };
        self.bytecode.insert(source.into(), prepared.clone());
        prepared
    }

    /// How many error lines scripts caused so far (load, init and runtime errors, and
    /// errors in signal handlers), including lines already taken from the log.
    pub fn error_count(&self) -> u64 {
        self.lua.app_data_ref::<HostState>().map_or(0, |s| s.log.error_count())
    }

    /// The log collected so far.
    pub fn log(&self) -> Vec<LogLine> {
        self.lua.app_data_ref::<HostState>().map(|s| s.log.lines().cloned().collect()).unwrap_or_default()
    }

    /// Takes the log lines collected so far.
    pub fn take_log(&mut self) -> Vec<LogLine> {
        self.lua.app_data_mut::<HostState>().map(|mut s| s.log.take()).unwrap_or_default()
    }

    /// Entries deferred to a later tick because the scripts of their tick used their share
    /// ([`HostConfig::tick_units`]), since the host started.
    pub fn deferred_entries(&self) -> u64 {
        self.share.deferred_total()
    }

    /// Waits until every put accepted by `game.Store` is durable (or its commit failed for
    /// good and was logged), and the cloud store's pending writes are sent; call it when the
    /// server stops.
    pub fn shutdown_stores(&mut self) {
        crate::store::shutdown(&self.lua);
    }

    /// The local stores' counters (accepted, durable, commits, failed commits), after taking
    /// the writer's latest reports into the log.
    pub fn store_stats(&self) -> crate::store::StoreStats {
        crate::store::stats(&self.lua)
    }

    /// On a client host: the character this client's user owns, as the server told it
    /// (`game.Session.LocalCharacter()`).
    pub fn set_local_character(&mut self, character: Option<Id>) {
        let _ = with_state(&self.lua, |s| s.local_character = character);
    }

    /// Running instances.
    pub fn instance_count(&self) -> usize {
        self.instances.len()
    }

    /// Whether the instance of script `id` is disabled by errors.
    pub fn is_disabled(&self, id: Id) -> Option<bool> {
        self.instances.iter().find(|i| i.running.script == id).map(|i| i.disabled)
    }

    /// Live signal connections.
    pub fn connection_count(&self) -> usize {
        self.lua.app_data_ref::<HostState>().map_or(0, |s| s.signals.count())
    }

    /// Runs `f` with the world moved into the VM (so callbacks can reach it), then moves it
    /// back into `arena`.
    pub(crate) fn with_world_in<R>(&mut self, arena: &mut Arena, f: impl FnOnce(&mut Self) -> R) -> R {
        let spare = self.spare.take().expect("spare arena present between phases");
        self.world.put(std::mem::replace(arena, spare));
        let result = f(self);
        let world = self.world.take().expect("world returned by the VM");
        self.spare = Some(std::mem::replace(arena, world));
        result
    }

    /// Runs `f` with the world and the sessions moved into the VM, then moves them back
    /// into `ctx`.
    fn with_tick_in<R>(&mut self, ctx: &mut TickContext<'_>, f: impl FnOnce(&mut Self) -> R) -> R {
        self.players.put(std::mem::take(ctx.players));
        let result = self.with_world_in(ctx.arena, f);
        *ctx.players = self.players.take().expect("sessions returned by the VM");
        result
    }

    /// Logs an error a session signal's dispatch hit (the world or sessions unavailable).
    fn log_failure(&self, what: &str, result: mlua::Result<()>) {
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
        budget::leave(enclosing);
        budget::enter_category(&self.lua, category);
        self.running.pop();
        result
    }

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
        let running = Running { key, script, name: name.as_str().into() };
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
        let systems = with_state(&self.lua, |s| {
            s.loading = None;
            std::mem::take(&mut s.registered)
        })
        .unwrap_or_default();
        if let Err(e) = loaded {
            let _ = with_state(&self.lua, |s| s.signals.remove_owner(key));
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

    fn new_env(&self, owner: Id, script: Id) -> mlua::Result<Table> {
        let env = self.lua.create_table()?;
        env.raw_set("self", Instance(owner))?;
        env.raw_set("script", Instance(script))?;
        let seed = api::random::instance_seed(self.random_seed, script);
        env.raw_set("math", api::random::math_table(&self.lua, &self.base.raw_get("math")?, seed)?)?;
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
    fn pending_scripts(&mut self) -> Vec<Id> {
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

    fn start_pending(&mut self) {
        let pending = self.pending_scripts();
        for (k, &script) in pending.iter().enumerate() {
            if self.share.exhausted() {
                // Started at a later tick, in the same order.
                self.requeued.extend_from_slice(&pending[k..]);
                self.share.defer_entries((pending.len() - k) as u64);
                break;
            }
            self.started.insert(script);
            let source: Arc<str> = with_world(&self.lua, |w| w.script_source(script).unwrap_or("").into())
                .unwrap_or_else(|_| "".into());
            match self.build_instance(script, source) {
                Ok(instance) => self.instances.push(instance),
                Err(line) => self.push_log(Level::Error, line),
            }
        }
    }

    /// Whether instance `i` is enabled and its script is live.
    pub(crate) fn is_runnable(&self, i: usize) -> bool {
        let inst = &self.instances[i];
        !inst.disabled && self.world.borrow().is_ok_and(|w| w.contains(inst.running.script))
    }

    /// Calls `Update` or `PhysicsUpdate` on every enabled instance whose script is live,
    /// from the phase's cursor round, until the tick's share is used.
    fn run_callbacks(&mut self, physics: bool, dt: f64) {
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
            // `003`'s notice quotes the script's `Name`; the path leads the line, as on every
            // other line a script causes.
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
    fn retire(&mut self, destroyed: &[Id]) {
        let gone: FxHashSet<Id> = destroyed.iter().copied().collect();
        let mut retired = Vec::new();
        self.instances.retain(|i| {
            let dead = gone.contains(&i.running.script);
            if dead {
                retired.push(i.running.key);
            }
            !dead
        });
        let _ = with_state(&self.lua, |s| {
            for key in retired {
                s.signals.remove_owner(key);
            }
            s.signals.remove_targets(destroyed);
        });
        for id in destroyed {
            self.started.remove(id);
        }
    }
}

impl TickHooks for ScriptHost {
    fn start_scripts(&mut self, ctx: &mut TickContext<'_>) {
        if let Some(line) = self.share.report() {
            self.push_log(Level::Warn, line);
        }
        self.share.begin_tick(ctx.tick);
        self.with_tick_in(ctx, |h| h.start_pending());
    }

    fn admit_players(&mut self, ctx: &mut TickContext<'_>) {
        if ctx.players.leaving().is_empty() && ctx.players.pending_joins() == 0 {
            return;
        }
        self.with_tick_in(ctx, |h| {
            let fired = session::fire_joins_and_leaves(&h.lua, h.root);
            h.log_failure("game.Session", fired);
        });
    }

    fn update(&mut self, ctx: &mut TickContext<'_>, dt: f64) {
        self.share.enter_phase(ctx.tick);
        let time = ctx.time;
        let users: Vec<u64> = ctx.players.user_ids().collect();
        let world_tick = ctx.tick + self.clock_offset;
        self.with_tick_in(ctx, |h| {
            crate::store::deliver(&h.lua, time, &users);
            h.run_callbacks(false, dt);
            h.run_moment(world_tick, dt);
        });
    }

    fn systems(&mut self, ctx: &mut TickContext<'_>, dt: f64) {
        self.share.enter_phase(ctx.tick);
        self.with_tick_in(ctx, |h| {
            let fired = session::fire_deaths(&h.lua, h.root);
            h.log_failure("game.Session.CharacterDied", fired);
            h.run_systems(dt)
        });
    }

    fn physics_update(&mut self, ctx: &mut TickContext<'_>, dt: f64) {
        self.share.enter_phase(ctx.tick);
        self.with_tick_in(ctx, |h| h.run_callbacks(true, dt));
    }

    fn end_tick(&mut self, ctx: &mut TickContext<'_>) {
        crate::store::end_tick(&self.lua, ctx.tick);
    }

    fn count(&mut self, counters: &mut arbor_sim::TickCounters) {
        counters.script_wall_aborts += budget::wall_aborts_since_last_count() as usize;
    }

    fn events(&mut self, _ctx: &mut TickContext<'_>, events: &[InstanceEvent]) {
        let destroyed: Vec<Id> = events
            .iter()
            .filter_map(|e| match e {
                InstanceEvent::Destroyed { subtree, .. } => Some(subtree.iter().copied()),
                _ => None,
            })
            .flatten()
            .collect();
        if !destroyed.is_empty() {
            self.retire(&destroyed);
        }
    }
}

/// A seed for `math.random` from the clock's nanoseconds, as Luau seeds it by itself.
fn clock_seed() -> i32 {
    let nanos =
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.subsec_nanos());
    nanos as i32
}
