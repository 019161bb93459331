//! [`BehaviorLibrary`]: the behaviour definitions a place stores once (the `behaviors`
//! section of a place file), by name, and the game's behaviour settings (its limits and the
//! world clock's rate, `settings.behaviors`; `docs/behaviours.md`, "Storing and binding
//! behaviours"); [`BehaviorCaps`]: the host's
//! ceilings on those limits. How a setting is refused or lowered ([`SettingError`],
//! [`Capped`]) is shared with the Workspace settings (`crate::settings`).
//!
//! The arena only keeps the texts and numbers, so they travel with the place through load
//! and save; `arbor-script` compiles and runs them. Invariants: names are unique (a map) and
//! each is a valid instance name ([`check_name`](crate::raw::check_name)); settings a place
//! file gives are checked at load ([`BehaviorSettings::check`]): every limit is a whole number
//! from 1 to its hard ceiling ([`BEHAVIOR_LIMITS`]), the clock rate positive, finite and at
//! most [`MAX_WORLD_MINUTES_PER_SECOND`]. Nothing is ever read as "unlimited": a value out of
//! range is an error naming the setting and its range. A host then lowers what is above its
//! caps ([`BehaviorSettings::capped`]).

use serde::de::{self, Deserializer, Visitor};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;

use crate::setting_error::{Capped, SettingError};

/// The largest whole number a setting may be given as: 2^53, up to which a JSON number
/// (a double) is exact.
pub const MAX_EXACT_SETTING: u64 = 1 << 53;

/// The fastest world clock a place may ask for: a world day per second (a tick then spans
/// 24 world minutes, each queued in order).
pub const MAX_WORLD_MINUTES_PER_SECOND: f64 = 1440.0;

/// One of the game's behaviour limits: its name in `settings.behaviors`, its default (the table of
/// `docs/behaviours.md`, "Storing and binding behaviours"), the cap a host sets when it is
/// given none, and the engine's hard ceiling, the most any host may allow.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BehaviorLimit {
    /// The camelCase name in `settings.behaviors`.
    pub name: &'static str,
    /// The value a place that leaves it out gets.
    pub default: u64,
    /// The host's cap when the host gives none.
    pub default_cap: u64,
    /// The most a host may allow.
    pub hard_max: u64,
}

/// Every behaviour limit, in the order of [`BehaviorSettings`]' fields. The hard ceilings
/// keep one transaction at most about a tenth of a second of Luau (units), a gigabyte
/// (memory), and every per-transaction list bounded.
pub const BEHAVIOR_LIMITS: [BehaviorLimit; 7] = [
    BehaviorLimit {
        name: "unitsPerTransaction",
        default: 100_000,
        default_cap: 10_000_000,
        hard_max: 100_000_000,
    },
    BehaviorLimit {
        name: "memoryPerTransaction",
        default: 1 << 20,
        default_cap: 64 << 20,
        hard_max: 1 << 30,
    },
    BehaviorLimit { name: "fieldsPerTransaction", default: 16, default_cap: 1_024, hard_max: 65_536 },
    BehaviorLimit { name: "timersPerInstance", default: 16, default_cap: 1_024, hard_max: 65_536 },
    BehaviorLimit {
        name: "transactionsPerMoment",
        default: 5_000,
        default_cap: 1_000_000,
        hard_max: 10_000_000,
    },
    BehaviorLimit { name: "logLinesPerTransaction", default: 20, default_cap: 1_000, hard_max: 100_000 },
    BehaviorLimit { name: "logLineChars", default: 400, default_cap: 10_000, hard_max: 1_000_000 },
];

/// The game's behaviour settings: the budgets of `docs/behaviours.md`, "Budgets" (its defaults
/// are the default) and the rate of the world clock that timers follow.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase", default)]
pub struct BehaviorSettings {
    /// Units one transaction may use (one per VM instruction, a library call what its
    /// schema says, one per 16 bytes of string made or scanned).
    #[serde(deserialize_with = "units_per_transaction")]
    pub units_per_transaction: u64,
    /// Logical bytes one transaction may allocate.
    #[serde(deserialize_with = "memory_per_transaction")]
    pub memory_per_transaction: u64,
    /// Distinct fields one transaction may write.
    #[serde(deserialize_with = "fields_per_transaction")]
    pub fields_per_transaction: u32,
    /// Timers one instance may have started and not yet fired.
    #[serde(deserialize_with = "timers_per_instance")]
    pub timers_per_instance: u32,
    /// Transactions one moment (one tick's round of deliveries) may run.
    #[serde(deserialize_with = "transactions_per_moment")]
    pub transactions_per_moment: u32,
    /// Log lines one transaction keeps (the rest is cut and marked).
    #[serde(deserialize_with = "log_lines_per_transaction")]
    pub log_lines_per_transaction: u32,
    /// Characters one log line keeps (the rest is cut and marked).
    #[serde(deserialize_with = "log_line_chars")]
    pub log_line_chars: u32,
    /// World minutes per second of simulated time (timers fire on world minutes).
    pub world_minutes_per_second: f64,
}

impl Default for BehaviorSettings {
    fn default() -> Self {
        let mut s = Self {
            units_per_transaction: 0,
            memory_per_transaction: 0,
            fields_per_transaction: 0,
            timers_per_instance: 0,
            transactions_per_moment: 0,
            log_lines_per_transaction: 0,
            log_line_chars: 0,
            world_minutes_per_second: 1.0,
        };
        for (i, limit) in BEHAVIOR_LIMITS.iter().enumerate() {
            s.set_limit(i, limit.default);
        }
        s
    }
}

impl BehaviorSettings {
    /// Whether these are the defaults (place files leave them out then).
    pub fn is_default(&self) -> bool {
        *self == Self::default()
    }

    /// The limits, in the order of [`BEHAVIOR_LIMITS`].
    pub fn limits(&self) -> [u64; 7] {
        [
            self.units_per_transaction,
            self.memory_per_transaction,
            u64::from(self.fields_per_transaction),
            u64::from(self.timers_per_instance),
            u64::from(self.transactions_per_moment),
            u64::from(self.log_lines_per_transaction),
            u64::from(self.log_line_chars),
        ]
    }

    /// Sets limit `i` (in the order of [`BEHAVIOR_LIMITS`]); a value past a 32-bit field is
    /// stored as that field's largest (callers pass values within the hard ceilings).
    fn set_limit(&mut self, i: usize, v: u64) {
        let small = u32::try_from(v).unwrap_or(u32::MAX);
        match i {
            0 => self.units_per_transaction = v,
            1 => self.memory_per_transaction = v,
            2 => self.fields_per_transaction = small,
            3 => self.timers_per_instance = small,
            4 => self.transactions_per_moment = small,
            5 => self.log_lines_per_transaction = small,
            _ => self.log_line_chars = small,
        }
    }

    /// Checks every setting: each limit a whole number from 1 to its hard ceiling
    /// ([`BEHAVIOR_LIMITS`]), the clock rate positive, finite and at most
    /// [`MAX_WORLD_MINUTES_PER_SECOND`]. The error names the first setting out of range.
    pub fn check(&self) -> Result<(), SettingError> {
        for (limit, v) in BEHAVIOR_LIMITS.iter().zip(self.limits()) {
            if !(1..=limit.hard_max).contains(&v) {
                return Err(SettingError::whole(limit.name, v, 1, limit.hard_max));
            }
        }
        let rate = self.world_minutes_per_second;
        if !(rate.is_finite() && rate > 0.0 && rate <= MAX_WORLD_MINUTES_PER_SECOND) {
            return Err(SettingError {
                setting: "worldMinutesPerSecond".to_owned(),
                given: rate.to_string(),
                rule: format!("a number above 0 and at most {MAX_WORLD_MINUTES_PER_SECOND}"),
            });
        }
        Ok(())
    }

    /// Why these settings are unusable, if they are ([`check`](Self::check)'s message).
    pub fn problem(&self) -> Option<String> {
        self.check().err().map(|e| e.to_string())
    }

    /// These settings under a host's `caps`: every limit above its cap lowered to the cap,
    /// with what was lowered (for the load's warnings). A cap outside 1 to its hard ceiling
    /// (one [`BehaviorCaps::check`] refuses) counts as the nearer bound, so the result is
    /// always within the hard ceilings.
    pub fn capped(&self, caps: &BehaviorCaps) -> (Self, Vec<Capped>) {
        let mut out = *self;
        let mut lowered = Vec::new();
        for (i, ((limit, asked), cap)) in
            BEHAVIOR_LIMITS.iter().zip(self.limits()).zip(caps.limits()).enumerate()
        {
            let cap = cap.clamp(1, limit.hard_max);
            if asked > cap {
                out.set_limit(i, cap);
                lowered.push(Capped { setting: format!("settings.behaviors.{}", limit.name), asked, cap });
            }
        }
        (out, lowered)
    }
}

/// The host's ceilings on the game's behaviour limits: a place may set a limit lower, never
/// higher (a higher one is lowered to the cap at load, with a warning). Each cap is itself a
/// whole number from 1 to the limit's hard ceiling ([`BehaviorCaps::check`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BehaviorCaps {
    /// Most units per transaction.
    pub units_per_transaction: u64,
    /// Most logical bytes per transaction.
    pub memory_per_transaction: u64,
    /// Most distinct fields written per transaction.
    pub fields_per_transaction: u32,
    /// Most started timers per instance.
    pub timers_per_instance: u32,
    /// Most transactions per moment.
    pub transactions_per_moment: u32,
    /// Most log lines kept per transaction.
    pub log_lines_per_transaction: u32,
    /// Most characters kept per log line.
    pub log_line_chars: u32,
}

impl BehaviorCaps {
    /// The engine's hard ceilings: the most any host may allow.
    pub const HARD: BehaviorCaps = BehaviorCaps::from_limits(true);

    /// Caps built from [`BEHAVIOR_LIMITS`]: the hard ceilings, or the default caps.
    const fn from_limits(hard: bool) -> Self {
        const fn pick(i: usize, hard: bool) -> u64 {
            let l = &BEHAVIOR_LIMITS[i];
            if hard { l.hard_max } else { l.default_cap }
        }
        // Every ceiling fits a u32 but the first two (checked by the tests below).
        Self {
            units_per_transaction: pick(0, hard),
            memory_per_transaction: pick(1, hard),
            fields_per_transaction: pick(2, hard) as u32,
            timers_per_instance: pick(3, hard) as u32,
            transactions_per_moment: pick(4, hard) as u32,
            log_lines_per_transaction: pick(5, hard) as u32,
            log_line_chars: pick(6, hard) as u32,
        }
    }

    /// The caps, in the order of [`BEHAVIOR_LIMITS`].
    pub fn limits(&self) -> [u64; 7] {
        [
            self.units_per_transaction,
            self.memory_per_transaction,
            u64::from(self.fields_per_transaction),
            u64::from(self.timers_per_instance),
            u64::from(self.transactions_per_moment),
            u64::from(self.log_lines_per_transaction),
            u64::from(self.log_line_chars),
        ]
    }

    /// Checks every cap: a whole number from 1 to the limit's hard ceiling.
    pub fn check(&self) -> Result<(), SettingError> {
        for (limit, v) in BEHAVIOR_LIMITS.iter().zip(self.limits()) {
            if !(1..=limit.hard_max).contains(&v) {
                return Err(SettingError::whole(
                    format!("the host's cap on {}", limit.name),
                    v,
                    1,
                    limit.hard_max,
                ));
            }
        }
        Ok(())
    }
}

impl Default for BehaviorCaps {
    /// The caps of a host given none (see [`BehaviorLimit::default_cap`]).
    fn default() -> Self {
        Self::from_limits(false)
    }
}

/// Reads a limit of a human-readable place file (JSON) as any JSON number that is a whole
/// number from 0 to 2^53 (so `1e15` is read as the number it is, then refused by its range
/// at load, and `-1` or `1.5` is refused here), naming the setting; a binary place file
/// holds the field's own integer.
fn whole<'de, D, T>(d: D, name: &'static str) -> Result<T, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de> + TryFrom<u64>,
{
    if !d.is_human_readable() {
        return T::deserialize(d);
    }
    let hard = BEHAVIOR_LIMITS.iter().find(|l| l.name == name).map_or(MAX_EXACT_SETTING, |l| l.hard_max);
    let refuse = |given: &dyn fmt::Display| de::Error::custom(SettingError::whole(name, given, 1, hard));
    let v = d.deserialize_any(WholeVisitor)?.map_err(|given| refuse(&given))?;
    T::try_from(v).map_err(|_| refuse(&v))
}

/// A JSON number as a whole number of at most 2^53, or the text of what was given instead.
struct WholeVisitor;

impl Visitor<'_> for WholeVisitor {
    type Value = Result<u64, String>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a whole number")
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Self::Value, E> {
        Ok(Ok(v))
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Self::Value, E> {
        Ok(u64::try_from(v).map_err(|_| v.to_string()))
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Self::Value, E> {
        let whole = v.is_finite() && v >= 0.0 && v.fract() == 0.0 && v <= MAX_EXACT_SETTING as f64;
        Ok(if whole { Ok(v as u64) } else { Err(v.to_string()) })
    }
}

/// One `deserialize_with` function per whole-number setting, each naming its key in errors.
macro_rules! whole_settings {
    ($($name:ident: $ty:ty = $key:literal;)*) => {
        $(fn $name<'de, D: Deserializer<'de>>(d: D) -> Result<$ty, D::Error> {
            whole(d, $key)
        })*
    };
}

whole_settings! {
    units_per_transaction: u64 = "unitsPerTransaction";
    memory_per_transaction: u64 = "memoryPerTransaction";
    fields_per_transaction: u32 = "fieldsPerTransaction";
    timers_per_instance: u32 = "timersPerInstance";
    transactions_per_moment: u32 = "transactionsPerMoment";
    log_lines_per_transaction: u32 = "logLinesPerTransaction";
    log_line_chars: u32 = "logLineChars";
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

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(json: &str) -> Result<BehaviorSettings, String> {
        serde_json::from_str(json).map_err(|e| e.to_string()).and_then(|s: BehaviorSettings| {
            s.check().map_err(|e| e.to_string())?;
            Ok(s)
        })
    }

    #[test]
    fn defaults_are_within_the_default_caps_and_the_caps_within_the_hard_ceilings() {
        assert!(BehaviorSettings::default().check().is_ok());
        assert_eq!(BehaviorSettings::default().units_per_transaction, 100_000);
        assert_eq!(BehaviorSettings::default().capped(&BehaviorCaps::default()).1, Vec::new());
        assert!(BehaviorCaps::default().check().is_ok());
        assert!(BehaviorCaps::HARD.check().is_ok());
        for l in BEHAVIOR_LIMITS {
            assert!(
                l.default <= l.default_cap && l.default_cap <= l.hard_max && l.hard_max < MAX_EXACT_SETTING
            );
        }
        assert_eq!(BehaviorCaps::HARD.limits().to_vec(), BEHAVIOR_LIMITS.map(|l| l.hard_max).to_vec());
    }

    #[test]
    fn out_of_range_limits_are_refused_by_name_never_unlimited() {
        for text in ["9223372036854775808", "1e15", "1000000000000000", "100000001", "0"] {
            let e = parse(&format!(r#"{{"unitsPerTransaction": {text}}}"#)).unwrap_err();
            assert!(
                e.contains("unitsPerTransaction must be a whole number from 1 to 100000000"),
                "{text}: {e}"
            );
        }
        for text in ["-1", "1.5", "1e300", "18446744073709551616"] {
            let e = parse(&format!(r#"{{"unitsPerTransaction": {text}}}"#)).unwrap_err();
            assert!(
                e.contains("unitsPerTransaction must be a whole number from 1 to 100000000"),
                "{text}: {e}"
            );
        }
        let e = parse(r#"{"fieldsPerTransaction": 4294967296}"#).unwrap_err();
        assert!(e.contains("fieldsPerTransaction must be a whole number from 1 to 65536"), "{e}");
        let e = parse(r#"{"worldMinutesPerSecond": 1e9}"#).unwrap_err();
        assert!(e.contains("worldMinutesPerSecond must be a number above 0 and at most 1440"), "{e}");
        assert_eq!(parse(r#"{"unitsPerTransaction": 2e5}"#).unwrap().units_per_transaction, 200_000);
    }

    #[test]
    fn a_binary_place_keeps_its_integers() {
        let s = BehaviorSettings { transactions_per_moment: 77, ..Default::default() };
        let bytes = postcard::to_stdvec(&s).unwrap();
        assert_eq!(postcard::from_bytes::<BehaviorSettings>(&bytes).unwrap(), s);
    }

    #[test]
    fn a_host_cap_lower_than_the_place_wins() {
        let place = BehaviorSettings { units_per_transaction: 5_000_000, ..Default::default() };
        let caps = BehaviorCaps { units_per_transaction: 200_000, ..Default::default() };
        let (used, lowered) = place.capped(&caps);
        assert_eq!(used.units_per_transaction, 200_000);
        assert_eq!(
            lowered.iter().map(ToString::to_string).collect::<Vec<_>>(),
            ["settings.behaviors.unitsPerTransaction: the place asks for 5000000, more than this \
              host's cap of 200000; the cap applies"]
        );
    }
}
