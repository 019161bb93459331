//! The host's per-script usage report ([`ScriptHost::script_usage`]): counters kept by
//! [`crate::usage`] and the memory each script's category holds, summed per script path.

use super::ScriptHost;
use crate::budget;
use crate::usage::ScriptUsage;
use rustc_hash::FxHashMap;

impl ScriptHost {
    /// What each running script has used: entries, work units, errors and the memory its
    /// category holds, one row per script path (instances of one path summed), most units
    /// first. Cheap enough to call every second (one pass over the instances).
    pub fn script_usage(&self) -> Vec<ScriptUsage> {
        let mut rows: FxHashMap<&str, ScriptUsage> = FxHashMap::default();
        let mut counted_categories: FxHashMap<&str, Vec<u8>> = FxHashMap::default();
        for inst in &self.instances {
            let name = &*inst.running.name;
            let (entries, units, errors) = inst.running.usage.totals();
            let row = rows.entry(name).or_insert_with(|| ScriptUsage {
                name: name.to_owned(),
                entries: 0,
                units: 0,
                errors: 0,
                memory_bytes: 0,
            });
            row.entries += entries;
            row.units += units;
            row.errors += errors;
            let category = budget::category_of(inst.running.key);
            let seen = counted_categories.entry(name).or_default();
            if !seen.contains(&category) {
                seen.push(category);
                row.memory_bytes += budget::category_bytes(&self.lua, category);
            }
        }
        let mut rows: Vec<ScriptUsage> = rows.into_values().collect();
        rows.sort_by(|a, b| b.units.cmp(&a.units).then_with(|| a.name.cmp(&b.name)));
        rows
    }
}

#[cfg(test)]
mod tests {
    use crate::{HostConfig, ScriptHost};
    use arbor_core::{Arena, Class};
    use arbor_sim::{SimConfig, Simulation};
    use std::cell::RefCell;
    use std::rc::Rc;

    #[test]
    fn usage_counts_entries_units_errors_and_memory_per_script() {
        let mut arena = Arena::new();
        let ws = arena.workspace();
        let busy = arena.create(Class::Script, "Busy", Some(ws)).unwrap();
        let source = "local t = {}\nfunction Update(dt) for i = 1, 200 do t[i] = i end end";
        arena.set_script_source(busy, source).unwrap();
        let failing = arena.create(Class::Script, "Failing", Some(ws)).unwrap();
        arena.set_script_source(failing, "function Update(dt) error('no') end").unwrap();
        let host = Rc::new(RefCell::new(ScriptHost::new(&arena, HostConfig::default()).unwrap()));
        let mut sim = Simulation::new(arena, SimConfig::default()).unwrap();
        sim.add_hooks(host.clone());
        sim.run(3);
        let usage = host.borrow().script_usage();
        let busy = usage.iter().find(|u| u.name == "Workspace.Busy").expect("Busy is reported");
        let failing = usage.iter().find(|u| u.name == "Workspace.Failing").expect("Failing is reported");
        // The chunk plus three Updates each.
        assert_eq!((busy.entries, busy.errors), (4, 0));
        assert_eq!((failing.entries, failing.errors), (4, 3));
        assert!(busy.units > failing.units, "{usage:?}");
        assert_eq!(usage[0].name, "Workspace.Busy", "most units first");
        assert!(busy.memory_bytes >= 200 * 8, "the table of 200 numbers is its memory: {usage:?}");
    }
}
