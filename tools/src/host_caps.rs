//! Host caps for `arbor serve` and `arbor run` (issue 33 §4): the most a place may ask of this
//! server. Each cap is a flag (`--max-instances N`, ...) and a key of the same name in a host
//! config file (`--host-config FILE`, JSON, e.g. `{"max-instances": 1000000}`); a flag given
//! too wins over the file, and the engine's defaults fill the rest.
//!
//! Invariants: every cap is checked when it is read, flag or file, against its range (a whole
//! number from its floor to the engine's hard ceiling, [`arbor_sim::SimCaps::HARD`],
//! [`arbor_core::BEHAVIOR_LIMITS`]); a value out of range, a key the file does not know, or a
//! file that is not JSON is an error naming the flag or key, before anything runs. A place's
//! own settings may then lower a cap, never raise it: one above is lowered to the cap with a
//! warning (see `docs/behaviours.md`, "Host caps").

use arbor_core::{BEHAVIOR_LIMITS, BehaviorCaps, MAX_EXACT_SETTING};
use arbor_script::{BEHAVIOR_TICK_UNITS, HostConfig, MEMORY_LIMIT};
use arbor_sim::SimCaps;
use std::path::PathBuf;

/// Least VM memory a host may give its scripts (the sandbox and prelude need some).
const MIN_SCRIPT_MEMORY: u64 = 16 << 20;
/// Most VM memory a host may give its scripts.
const MAX_SCRIPT_MEMORY: u64 = 64 << 30;
/// Least units a tick's behaviour transactions may share.
const MIN_BEHAVIOR_TICK_UNITS: u64 = 1_000;
/// Most units a tick's behaviour transactions may share (about ten seconds of Luau).
const MAX_BEHAVIOR_TICK_UNITS: u64 = 10_000_000_000;

/// Every cap the host sets, resolved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HostCaps {
    /// Instances, creations per tick, text bytes and physics bodies.
    pub sim: SimCaps,
    /// Bytes of the VM the place's scripts and behaviours may use together.
    pub script_memory: usize,
    /// The ceilings on the place's behaviour settings.
    pub behaviors: BehaviorCaps,
    /// Units a tick's behaviour transactions share.
    pub behavior_tick_units: i64,
}

impl Default for HostCaps {
    fn default() -> Self {
        Self {
            sim: SimCaps::default(),
            script_memory: MEMORY_LIMIT,
            behaviors: BehaviorCaps::default(),
            behavior_tick_units: BEHAVIOR_TICK_UNITS,
        }
    }
}

impl HostCaps {
    /// `base` with these caps: the VM's memory (a quarter of it per script, as by default),
    /// the behaviour caps and the behaviours' tick share.
    pub fn host_config(&self, base: HostConfig) -> HostConfig {
        HostConfig {
            memory_limit: self.script_memory,
            script_memory_share: self.script_memory / 4,
            behavior_caps: self.behaviors,
            behavior_tick_units: self.behavior_tick_units,
            ..base
        }
    }
}

/// A whole number from `min` to `max`, as typed (`1000000` or `1e6`), or why not.
fn whole_text(text: &str, min: u64, max: u64) -> Result<u64, String> {
    let v = match text.parse::<u64>() {
        Ok(v) => Some(v),
        Err(_) => text.parse::<f64>().ok().and_then(exact),
    };
    v.filter(|v| (min..=max).contains(v))
        .ok_or_else(|| format!("'{text}' must be a whole number from {min} to {max}"))
}

/// `v` as a whole number, if it is one of at most 2^53.
fn exact(v: f64) -> Option<u64> {
    (v.is_finite() && v >= 0.0 && v.fract() == 0.0 && v <= MAX_EXACT_SETTING as f64).then_some(v as u64)
}

/// A flag's value parser: a whole number from `MIN` to `MAX`.
fn flag<const MIN: u64, const MAX: u64>(text: &str) -> Result<u64, String> {
    whole_text(text, MIN, MAX)
}

/// A host config file's value for `key`: a whole number from `min` to `max`.
fn file_value(n: &serde_json::Number, key: &str, min: u64, max: u64) -> Result<u64, String> {
    n.as_u64()
        .or_else(|| n.as_f64().and_then(exact))
        .filter(|v| (min..=max).contains(v))
        .ok_or_else(|| format!("{key} must be a whole number from {min} to {max}; {n} is refused"))
}

/// Declares the caps once: each flag (and file key, its name without the dashes), its range,
/// and the field of [`HostCaps`] it sets.
macro_rules! caps {
    ($( $(#[doc = $doc:literal])* $field:ident [$min:expr, $max:expr] => $($target:ident).+ ; )*) => {
        /// The host-cap options of `arbor serve` and `arbor run`.
        #[derive(clap::Args, Debug, Clone, Default)]
        pub struct HostCapArgs {
            /// Read host caps from this JSON file, by the flags' names without the dashes
            /// (`{"max-instances": 1000000}`); a flag given too wins.
            #[arg(long, value_name = "FILE")]
            pub host_config: Option<PathBuf>,
            $(
                $(#[doc = $doc])*
                #[arg(long, value_name = "N", value_parser = flag::<{ $min }, { $max }>)]
                pub $field: Option<u64>,
            )*
        }

        /// A host config file: the caps by the flags' names.
        #[derive(serde::Deserialize, Debug, Default)]
        #[serde(deny_unknown_fields, rename_all = "kebab-case")]
        struct CapsFile {
            $( #[serde(default)] $field: Option<serde_json::Number>, )*
        }

        impl HostCapArgs {
            /// The caps: the defaults, then the host config file's, then the flags'.
            pub fn resolve(&self) -> Result<HostCaps, String> {
                let mut caps = HostCaps::default();
                if let Some(path) = &self.host_config {
                    let at = |e: String| format!("host config {}: {e}", path.display());
                    let text = std::fs::read_to_string(path).map_err(|e| at(e.to_string()))?;
                    let file: CapsFile = serde_json::from_str(&text).map_err(|e| at(e.to_string()))?;
                    $(
                        if let Some(n) = &file.$field {
                            let key = stringify!($field).replace('_', "-");
                            caps.$($target).+ = file_value(n, &key, $min, $max).map_err(at)? as _;
                        }
                    )*
                }
                $( if let Some(v) = self.$field { caps.$($target).+ = v as _; } )*
                Ok(caps)
            }
        }
    };
}

caps! {
    /// Most instances a place may hold (caps the Workspace's `MaxInstances`) [default: 5000000]
    max_instances [SimCaps::FLOOR.instances as u64, SimCaps::HARD.instances as u64] => sim.instances;
    /// Most instances created in one tick (caps `MaxCreationsPerTick`) [default: 250000]
    max_creations_per_tick [SimCaps::FLOOR.creations_per_tick as u64, SimCaps::HARD.creations_per_tick as u64]
        => sim.creations_per_tick;
    /// Most bytes of text a place may hold (caps `MaxTextBytes`) [default: 268435456]
    max_text_bytes [SimCaps::FLOOR.text_bytes as u64, SimCaps::HARD.text_bytes as u64] => sim.text_bytes;
    /// Most physics bodies (carried to the physics step) [default: 1000000]
    max_physics_bodies [SimCaps::FLOOR.physics_bodies as u64, SimCaps::HARD.physics_bodies as u64]
        => sim.physics_bodies;
    /// Bytes of VM memory for the place's scripts and behaviours [default: 268435456]
    max_script_memory [MIN_SCRIPT_MEMORY, MAX_SCRIPT_MEMORY] => script_memory;
    /// Most units per behaviour transaction (caps `unitsPerTransaction`) [default: 10000000]
    max_transaction_units [1, BEHAVIOR_LIMITS[0].hard_max] => behaviors.units_per_transaction;
    /// Most logical bytes per behaviour transaction (caps `memoryPerTransaction`) [default: 67108864]
    max_transaction_memory [1, BEHAVIOR_LIMITS[1].hard_max] => behaviors.memory_per_transaction;
    /// Most fields one behaviour transaction may write (caps `fieldsPerTransaction`) [default: 1024]
    max_transaction_fields [1, BEHAVIOR_LIMITS[2].hard_max] => behaviors.fields_per_transaction;
    /// Most started timers per behaviour instance (caps `timersPerInstance`) [default: 1024]
    max_instance_timers [1, BEHAVIOR_LIMITS[3].hard_max] => behaviors.timers_per_instance;
    /// Most transactions per behaviour moment (caps `transactionsPerMoment`) [default: 1000000]
    max_moment_transactions [1, BEHAVIOR_LIMITS[4].hard_max] => behaviors.transactions_per_moment;
    /// Most log lines a behaviour transaction keeps (caps `logLinesPerTransaction`) [default: 1000]
    max_transaction_log_lines [1, BEHAVIOR_LIMITS[5].hard_max] => behaviors.log_lines_per_transaction;
    /// Most characters a behaviour log line keeps (caps `logLineChars`) [default: 10000]
    max_log_line_chars [1, BEHAVIOR_LIMITS[6].hard_max] => behaviors.log_line_chars;
    /// Units all behaviour transactions of one tick share; the rest waits [default: 8000000]
    behavior_tick_units [MIN_BEHAVIOR_TICK_UNITS, MAX_BEHAVIOR_TICK_UNITS] => behavior_tick_units;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_defaults_are_within_every_range_and_the_flags_refuse_what_is_not() {
        let caps = HostCaps::default();
        assert!(caps.sim.check().is_ok() && caps.behaviors.check().is_ok());
        assert_eq!(whole_text("1e6", 1, 2_000_000), Ok(1_000_000));
        for bad in ["4e9", "-1", "1.5", "NaN", "inf", "x", "18446744073709551616"] {
            let e = whole_text(bad, 1_000, 100_000_000).unwrap_err();
            assert!(e.ends_with("must be a whole number from 1000 to 100000000"), "{bad}: {e}");
        }
    }

    #[test]
    fn a_flag_wins_over_the_file_and_the_file_over_the_defaults() {
        let dir = std::env::temp_dir().join(format!("arbor-host-caps-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("host.json");
        std::fs::write(&path, r#"{"max-instances": 2e6, "max-transaction-units": 50000}"#).unwrap();
        let args =
            HostCapArgs { host_config: Some(path.clone()), max_instances: Some(3_000), ..Default::default() };
        let caps = args.resolve().unwrap();
        assert_eq!(caps.sim.instances, 3_000);
        assert_eq!(caps.behaviors.units_per_transaction, 50_000);
        assert_eq!(caps.sim.creations_per_tick, SimCaps::default().creations_per_tick);
        std::fs::write(&path, r#"{"max-instances": 4e9}"#).unwrap();
        let e = args.resolve().unwrap_err();
        assert!(
            e.contains(
                "max-instances must be a whole number from 1000 to 100000000; 4000000000.0 is refused"
            ),
            "{e}"
        );
        std::fs::write(&path, r#"{"max-instance": 1}"#).unwrap();
        assert!(args.resolve().unwrap_err().contains("unknown field `max-instance`"));
    }
}
