//! What [`ScriptHost`] does in the Systems phase: runs every registered system of every
//! enabled, live instance under the tick's share, with each system's matches kept as a frozen
//! array that is rebuilt only when the world's ancestry revisions say they may have changed.

use super::ScriptHost;
use crate::instances::handle::instance_list;
use crate::log::Level;
use crate::state::with_world;
use crate::systems::CachedMatches;
use crate::tick_share::SharedPhase;
use mlua::{Result, Table};

impl ScriptHost {
    /// The frozen Lua array of system `s` of instance `i`'s matches, or `None` when nothing
    /// matches. The array is rebuilt only when the matches changed.
    fn system_matches(&mut self, i: usize, s: usize) -> Result<Option<Table>> {
        let system = &mut self.instances[i].systems[s];
        let lua = &self.lua;
        // The usual case, nothing moved: answered from the world's revisions and the cached
        // list, without touching the query.
        let current = self.world.borrow().map_err(mlua::Error::runtime)?.ancestry_revisions();
        if let Some(c) = &system.cached
            && c.computed_at == Some(current)
        {
            return Ok((!c.ids.is_empty()).then(|| c.list.clone()));
        }
        // Recomputed (or not, if the revisions moved back): keep the array if the matches are
        // the same, else build a new one.
        let cached_ids = system.cached.as_ref().map(|c| c.ids.as_slice());
        let fresh = with_world(lua, |w| {
            let ids = w.query_under(&mut system.query);
            (cached_ids != Some(ids)).then(|| ids.to_vec())
        })?;
        let computed_at = system.query.computed_at();
        match fresh {
            None => system.cached.as_mut().expect("cached").computed_at = computed_at,
            Some(ids) => {
                let list = instance_list(lua, &ids)?;
                list.set_readonly(true);
                system.cached = Some(CachedMatches { computed_at, ids, list });
            }
        }
        Ok(system.cached.as_ref().filter(|c| !c.ids.is_empty()).map(|c| c.list.clone()))
    }

    /// Runs every registered system of every enabled, live instance (the Systems phase).
    pub(crate) fn run_systems(&mut self, dt: f64) {
        let n = self.instances.len();
        let start = self.share.start(SharedPhase::Systems, n);
        for k in 0..n {
            let i = (start + k) % n;
            if self.instances[i].systems.is_empty() || !self.is_runnable(i) {
                continue;
            }
            if self.share.exhausted() {
                let left: usize = (k..n).map(|k| self.instances[(start + k) % n].systems.len()).sum();
                self.share.defer(SharedPhase::Systems, i, left as u64);
                return;
            }
            for s in 0..self.instances[i].systems.len() {
                if self.instances[i].disabled {
                    break;
                }
                // The array is the script's: built in its memory category, under its share.
                let key = self.instances[i].running.key;
                let category = crate::budget::enter_category(&self.lua, crate::budget::category_of(key));
                let matches = self.system_matches(i, s);
                crate::budget::enter_category(&self.lua, category);
                let list = match matches {
                    Ok(Some(list)) => list,
                    Ok(None) => continue,
                    Err(e) => {
                        let name = &self.instances[i].systems[s].name;
                        self.push_log(Level::Error, format!("system '{name}' could not run: {e}"));
                        continue;
                    }
                };
                let inst = &self.instances[i];
                let result = self.call_entry(&inst.running, &inst.systems[s].callback, (dt, list));
                self.record_outcome(i, result);
            }
        }
    }

    /// Systems registered by running instances.
    pub fn system_count(&self) -> usize {
        self.instances.iter().map(|i| i.systems.len()).sum()
    }
}
