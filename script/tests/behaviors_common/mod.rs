//! Helpers shared by the behaviour tests (`behaviors_*.rs`): places whose parts are bound
//! to a behaviour, the host's log, attributes, the world and behaviour hashes, and behaviour
//! sources whose `ready` runs given lines.

// Each test binary uses a different subset of these helpers.
#![allow(dead_code)]

use super::common::{Place, Running};
use arbor_core::{AttributeValue, Class, Id};

pub fn log(running: &Running) -> Vec<String> {
    running.host.borrow().log().into_iter().map(|l| l.text).collect()
}

pub fn attr(running: &Running, id: Id, name: &str) -> Option<AttributeValue> {
    running.sim.arena.attribute(id, name).cloned()
}

pub fn hash(running: &Running) -> (u64, u64) {
    (running.sim.arena.world_hash(), running.host.borrow().behavior_hash())
}

/// A place whose Workspace holds `hosts` parts, each bound to behaviour `name`.
pub fn hosts_place(name: &str, source: &str, hosts: usize) -> (Place, Vec<Id>) {
    let mut place = Place::new();
    place.arena.behaviors_mut().set(name, source).unwrap();
    let ws = place.workspace();
    let mut ids = Vec::new();
    for k in 0..hosts {
        let host = place.part(&format!("H{k}"), ws);
        place.arena.set_flag(host, arbor_core::NodeFlags::ANCHORED, true).unwrap();
        let b = place.arena.create(Class::Behavior, name, Some(host)).unwrap();
        place.arena.set_attribute(b, "Behavior", Some(AttributeValue::String(name.into()))).unwrap();
        ids.push(host);
    }
    (place, ids)
}

/// Runs behaviour source `src` once on one host (its `ready`), returns the reports.
pub fn ready_reports(src: &str) -> Vec<arbor_script::BehaviorReport> {
    let (place, _) = hosts_place("Limit", src, 1);
    let mut running = place.start();
    running.sim.step();
    running.host.borrow_mut().take_behavior_reports()
}

/// The 1-based line of `src` holding `needle`.
pub fn line_of(src: &str, needle: &str) -> u32 {
    src.lines().position(|l| l.contains(needle)).unwrap_or_else(|| panic!("{needle} in {src}")) as u32 + 1
}

/// A behaviour whose `ready` runs `body` (one statement per line) with a memory slot `n`
/// and a `number` slot `r`.
pub fn ready_source(body: &str) -> String {
    format!(
        "return {{\n\thost = 'Part',\n\tmemory = {{ n = 0, r = {{ type = 'number', value = 0 }} }},\n\tready = function(self)\n{body}\n\tend,\n}}\n"
    )
}
