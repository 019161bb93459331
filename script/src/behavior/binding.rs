//! [`Binding`]: one behaviour instance (a behaviour bound to a host by a `Behavior` instance;
//! `docs/behaviours.md`, "Storing and binding behaviours"), its memory, state, started timers,
//! random generator and counters, and [`check_binding`], the check a binding passes before it
//! starts.
//!
//! Invariants: `memory[i]` satisfies the kind of the definition's memory slot `i`; `props[i]`
//! that of property `i`; `timers` is sorted by (due minute, sequence number) and holds at
//! most the game's timers-per-instance; a closed binding has no timers.

use super::definition::Definition;
use super::value::Value;
use arbor_core::{Arena, AttributeValue, Id, raw::SplitMix64};
use serde::{Deserialize, Serialize};
use std::rc::Rc;

/// The attribute of a `Behavior` instance that names its behaviour.
pub const BEHAVIOR_ATTRIBUTE: &str = "Behavior";

/// A timer a handler started (`self:StartTimer`): delivers the event `name` to its binding at
/// world minute `due`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StartedTimer {
    /// The event it delivers.
    pub name: String,
    /// The world minute it fires at.
    pub due: u64,
    /// Start order (ties at one minute fire in it).
    pub seq: u64,
}

/// What a binding has counted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Counters {
    /// Transactions committed.
    pub committed: u64,
    /// Timers started so far (the next timer's sequence number).
    pub timers_started: u64,
    /// Events raised and published.
    pub events_raised: u64,
}

/// The part of a binding a transaction can change, saved at its start and put back if it
/// fails.
#[derive(Clone, Debug)]
pub struct BindingState {
    /// Memory values, by slot.
    pub memory: Vec<Value>,
    /// The current state.
    pub state: Option<String>,
    /// Started timers.
    pub timers: Vec<StartedTimer>,
    /// The instance's random generator.
    pub rng: SplitMix64,
    /// Counters.
    pub counters: Counters,
}

/// One behaviour instance.
pub struct Binding {
    /// The `Behavior` instance.
    pub node: Id,
    /// Its host (the `Behavior` instance's parent when it started).
    pub host: Id,
    /// The definition it runs.
    pub def: Rc<Definition>,
    /// What transactions change.
    pub live: BindingState,
    /// The world minute it started in (declared timers never fire in it).
    pub start_minute: u64,
    /// Closed by an error: no more deliveries until a migration restarts it.
    pub closed: bool,
    /// Removed from the world: skipped, and dropped at the next compaction.
    pub removed: bool,
    /// The `self` table handlers receive.
    pub handle: mlua::Table,
}

/// A random generator seeded for the binding with persistent key `key` in a world seeded
/// `seed`: the same binding draws the same numbers on every run.
pub fn seeded_rng(seed: u64, key: u64) -> SplitMix64 {
    let mut mix = SplitMix64(seed ^ key.wrapping_mul(0x9E37_79B9_7F4A_7C15));
    SplitMix64(mix.next())
}

/// Checks the binding `node` (a `Behavior` instance) against `def` and returns its property
/// values: host class, contract fields (present, of their kind, passing their checks) and
/// property values (declared, of their kind; missing ones take their default).
pub fn check_binding(arena: &Arena, node: Id, def: &Definition) -> Result<Vec<Value>, String> {
    let host =
        arena.get(node).and_then(|n| n.parent()).ok_or("the Behavior instance has no host (parent)")?;
    let host_class = arena.get(host).map(|n| n.class()).ok_or("its host is gone")?;
    if let Some(want) = def.host
        && want != host_class
    {
        return Err(format!("host type: '{}' binds to a {want}, but its host is a {host_class}", def.name));
    }
    for f in &def.fields {
        let Some(a) = arena.attribute(host, &f.name) else {
            return Err(format!("contract field '{}' ({}) is missing on the host", f.name, f.kind.name()));
        };
        let v = Value::from_attribute(a, f.kind).map_err(|e| format!("contract field '{}': {e}", f.name))?;
        if let Some(why) = f.check(&v) {
            return Err(format!("contract field '{}' fails its check: {why}", f.name));
        }
    }
    let node_ref = arena.get(node).ok_or("the Behavior instance is gone")?;
    for (key, _) in node_ref.extras().attributes.iter() {
        let key = arena.names().text(*key);
        if key != BEHAVIOR_ATTRIBUTE && !def.properties.iter().any(|p| p.name == key) {
            return Err(format!("property '{key}' is not declared by '{}'", def.name));
        }
    }
    let mut props = Vec::with_capacity(def.properties.len());
    for p in &def.properties {
        let v = match arena.attribute(node, &p.name) {
            Some(a) => Value::from_attribute(a, p.kind).map_err(|e| format!("property '{}': {e}", p.name))?,
            None => p
                .default
                .clone()
                .ok_or_else(|| format!("property '{}' has no value and no default", p.name))?,
        };
        props.push(v);
    }
    Ok(props)
}

/// The behaviour a `Behavior` instance names, or why it names none.
pub fn named_behavior(arena: &Arena, node: Id) -> Result<String, String> {
    match arena.attribute(node, BEHAVIOR_ATTRIBUTE) {
        Some(AttributeValue::String(s)) => Ok(s.to_string()),
        Some(_) => Err(format!("its '{BEHAVIOR_ATTRIBUTE}' attribute must be a string")),
        None => Err(format!("it has no '{BEHAVIOR_ATTRIBUTE}' attribute naming a behaviour")),
    }
}
