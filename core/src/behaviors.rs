//! [`BehaviorLibrary`]: the behaviour definitions a place stores once (the `behaviors`
//! section of a place file), by name, and the game's behaviour settings (the limits of
//! `004` and the world clock's rate, `settings.behaviors`).
//!
//! The arena only keeps the texts and numbers, so they travel with the place through load
//! and save; `arbor-script` compiles and runs them. Invariants: names are unique (a map) and
//! each is a valid instance name ([`check_name`](crate::raw::check_name)); settings are positive.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::sync::Arc;

/// The game's behaviour settings: `004`'s budgets (its table is the default) and the rate of
/// the world clock that timers follow.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase", default)]
pub struct BehaviorSettings {
    /// Units one transaction may use (one per VM instruction, a library call what its
    /// schema says, one per 16 bytes of string made or scanned).
    pub units_per_transaction: u64,
    /// Logical bytes one transaction may allocate.
    pub memory_per_transaction: u64,
    /// Distinct fields one transaction may write.
    pub fields_per_transaction: u32,
    /// Timers one instance may have started and not yet fired.
    pub timers_per_instance: u32,
    /// Transactions one moment (one tick's round of deliveries) may run.
    pub transactions_per_moment: u32,
    /// Log lines one transaction keeps (the rest is cut and marked).
    pub log_lines_per_transaction: u32,
    /// Characters one log line keeps (the rest is cut and marked).
    pub log_line_chars: u32,
    /// World minutes per second of simulated time (timers fire on world minutes).
    pub world_minutes_per_second: f64,
}

impl Default for BehaviorSettings {
    fn default() -> Self {
        Self {
            units_per_transaction: 100_000,
            memory_per_transaction: 1 << 20,
            fields_per_transaction: 16,
            timers_per_instance: 16,
            transactions_per_moment: 5_000,
            log_lines_per_transaction: 20,
            log_line_chars: 400,
            world_minutes_per_second: 1.0,
        }
    }
}

impl BehaviorSettings {
    /// Whether these are the defaults (place files leave them out then).
    pub fn is_default(&self) -> bool {
        *self == Self::default()
    }

    /// Why these settings are unusable, if they are: every limit at least 1, the clock rate
    /// finite and positive.
    pub fn problem(&self) -> Option<&'static str> {
        let limits = [
            self.units_per_transaction,
            self.memory_per_transaction,
            u64::from(self.fields_per_transaction),
            u64::from(self.timers_per_instance),
            u64::from(self.transactions_per_moment),
            u64::from(self.log_lines_per_transaction),
            u64::from(self.log_line_chars),
        ];
        if limits.contains(&0) {
            return Some("every behaviour limit must be at least 1");
        }
        if !(self.world_minutes_per_second.is_finite() && self.world_minutes_per_second > 0.0) {
            return Some("worldMinutesPerSecond must be a positive finite number");
        }
        None
    }
}

/// The behaviour definitions of a place, by name, and its behaviour settings.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BehaviorLibrary {
    /// Luau source of each behaviour, by name.
    sources: BTreeMap<String, Arc<str>>,
    /// The game's settings.
    pub settings: BehaviorSettings,
}

impl BehaviorLibrary {
    /// The source of the behaviour `name`.
    pub fn source(&self, name: &str) -> Option<&Arc<str>> {
        self.sources.get(name)
    }

    /// Every behaviour as (name, source), in name order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &Arc<str>)> + '_ {
        self.sources.iter().map(|(n, s)| (n.as_str(), s))
    }

    /// Behaviours stored.
    pub fn len(&self) -> usize {
        self.sources.len()
    }

    /// Whether no behaviour is stored.
    pub fn is_empty(&self) -> bool {
        self.sources.is_empty()
    }

    /// Stores (or replaces) the behaviour `name`; refuses a name that is not a valid
    /// instance name.
    pub fn set(&mut self, name: &str, source: &str) -> Result<(), crate::NameError> {
        crate::names::check_name(name)?;
        self.sources.insert(name.to_owned(), source.into());
        Ok(())
    }

    /// Removes the behaviour `name`; whether it was there.
    pub fn remove(&mut self, name: &str) -> bool {
        self.sources.remove(name).is_some()
    }
}
