//! Building a host: the sandboxed VM with the services scripts see installed (world and
//! session slots, stores, behaviours, budgets), and every script source of the place
//! compiled ahead of time ([`ScriptHost::new`]); sources are compiled once per text
//! (`prepare`).

use super::{HostConfig, HostError, Prepared, ScriptHost};
use crate::budget;
use crate::log::{Level, ScriptLog};
use crate::session::PlayersSlot;
use crate::state::{HostState, RunningStack, WorldSlot};
use crate::tick_share::TickShare;
use arbor_core::{Arena, Class, NodeFlags};
use mlua::{Function, Lua, Table};
use rustc_hash::{FxHashMap, FxHashSet};
use std::rc::Rc;

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

    pub(super) fn build(arena: &Arena, config: HostConfig) -> mlua::Result<Self> {
        let lua = Lua::new();
        #[cfg(feature = "jit")]
        lua.enable_jit(config.jit);
        crate::instances::handle::install_atoms(&lua)?;
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
        let base = crate::env::install(&lua, arena.root(), arena.workspace(), &config.stores)?;
        let random_seed = config.random_seed.unwrap_or_else(clock_seed);
        let check: Function =
            lua.named_registry_value::<Table>(crate::luau::prelude::PRELUDE_KEY)?.get("check")?;
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

    /// Compiles `source` (cached by text).
    pub(crate) fn prepare(&mut self, source: &str) -> Prepared {
        if let Some(p) = self.bytecode.get(source) {
            return p.clone();
        }
        let prepared = match super::code::compile_bytecode(source) {
            Ok(code) => Prepared::Ok(code.into()),
            Err(m) => Prepared::LoadError(m),
        };
        self.bytecode.insert(source.into(), prepared.clone());
        prepared
    }
}

/// The warning logged at load for a script that is not under the Workspace.
pub(super) fn outside_the_world(path: &str) -> String {
    format!(
        "{path}: warning: this script is outside the Workspace and does not run; scripts run \
         only under the Workspace (a copy placed there runs)"
    )
}

/// A seed for `math.random` from the clock's nanoseconds, as Luau seeds it by itself.
pub(super) fn clock_seed() -> i32 {
    let nanos =
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.subsec_nanos());
    nanos as i32
}
