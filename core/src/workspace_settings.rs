//! The Workspace settings: Number attributes of the Workspace by which a place tunes the
//! engine (its caps, the fallen-parts height, streaming and the replication budget). One
//! table, [`WORKSPACE_SETTINGS`], gives each its attribute name, default and range; the
//! loader, the tick, the fallen-parts scan and networking all read a setting through its
//! entry, so a setting has one name and one default. The user's view of each is in
//! `docs/scripting.md` ("Limits"), `docs/behaviours.md` ("Host caps") and
//! `docs/networking.md`.
//!
//! Invariants: `min <= default <= max` for every entry (a unit test checks it); a
//! [`SettingRule::Whole`] setting out of range is refused ([`SettingError`]), never read as a
//! default or as "unlimited"; the other rules never refuse, they say what an odd value means.

use crate::Arena;
use crate::setting_error::SettingError;
use crate::value::AttributeValue;

/// What a setting accepts, and what happens to a value it does not.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SettingRule {
    /// A whole Number from `min` to `max`; anything else (a fraction, out of range, another
    /// attribute type) is refused when the simulation is built.
    Whole,
    /// Any Number but NaN (infinities included); NaN or another attribute type reads as the
    /// default. `min` and `max` are the infinities.
    AnyNumber,
    /// A finite Number of at least `min`, lowered to `max` when above it; a smaller,
    /// non-finite or non-Number value reads as the default.
    AtMost,
}

/// One Workspace setting: the Number attribute of the Workspace named [`name`](Self::name).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WorkspaceSetting {
    /// The attribute's name (`MaxInstances`).
    pub name: &'static str,
    /// What a place that does not set it gets.
    pub default: f64,
    /// The least accepted value.
    pub min: f64,
    /// The most accepted value (for [`SettingRule::AtMost`], the value a larger one is
    /// lowered to).
    pub max: f64,
    /// What it accepts.
    pub rule: SettingRule,
}

/// Caps the place's instances (live ones and destroyed ones not yet reclaimed). Past it a
/// `Clone`, `Spawn` or any create is refused. The default is about 1 GB of arena.
pub const MAX_INSTANCES: WorkspaceSetting = WorkspaceSetting {
    name: "MaxInstances",
    default: 5_000_000.0,
    min: 1_000.0,
    max: 100_000_000.0,
    rule: SettingRule::Whole,
};

/// Caps the bytes of text the place holds (names, string attributes, string fields). Past it
/// a write adding text is refused. Default 256 MiB, from 1 MiB to 16 GiB.
pub const MAX_TEXT_BYTES: WorkspaceSetting = WorkspaceSetting {
    name: "MaxTextBytes",
    default: (256u64 << 20) as f64,
    min: (1u64 << 20) as f64,
    max: (16u64 << 30) as f64,
    rule: SettingRule::Whole,
};

/// Caps the instances created in one tick. Past it a `Clone`, `Spawn` or create is refused
/// until the next tick.
pub const MAX_CREATIONS_PER_TICK: WorkspaceSetting = WorkspaceSetting {
    name: "MaxCreationsPerTick",
    default: 250_000.0,
    min: 100.0,
    max: 10_000_000.0,
    rule: SettingRule::Whole,
};

/// The height below which unanchored parts are destroyed. The place file's
/// `settings.FallenPartsDestroyHeight` and the script service `Physics` name the same value.
pub const FALLEN_PARTS_DESTROY_HEIGHT: WorkspaceSetting = WorkspaceSetting {
    name: "FallenPartsDestroyHeight",
    default: -500.0,
    min: f64::NEG_INFINITY,
    max: f64::INFINITY,
    rule: SettingRule::AnyNumber,
};

/// The streaming radius in studs: a client holds what lies within it.
pub const STREAMING_RADIUS: WorkspaceSetting = WorkspaceSetting {
    name: "StreamingRadius",
    default: 1024.0,
    min: 0.0,
    max: 1_000_000.0,
    rule: SettingRule::AtMost,
};

/// The bytes a client may be sent per network tick (4,096 is about 1 Mbit/s at 30 Hz; steady
/// state sends only what changed, far less). Networking raises a smaller value to its largest
/// message, so one message always fits.
pub const REPLICATION_BUDGET: WorkspaceSetting = WorkspaceSetting {
    name: "ReplicationBudget",
    default: 4096.0,
    min: 1.0,
    max: (1u64 << 20) as f64,
    rule: SettingRule::AtMost,
};

/// Every Workspace setting.
pub const WORKSPACE_SETTINGS: [WorkspaceSetting; 6] = [
    MAX_INSTANCES,
    MAX_TEXT_BYTES,
    MAX_CREATIONS_PER_TICK,
    FALLEN_PARTS_DESTROY_HEIGHT,
    STREAMING_RADIUS,
    REPLICATION_BUDGET,
];

impl WorkspaceSetting {
    /// The setting as the place gives it: `Ok(None)` when the Workspace has no such
    /// attribute (or, for the rules that never refuse, a value that reads as the default);
    /// `Ok(Some(v))` with `v` under the rule; `Err` for a [`SettingRule::Whole`] setting given
    /// a value it refuses.
    ///
    /// ```
    /// use arbor_core::{Arena, AttributeValue, settings::STREAMING_RADIUS};
    ///
    /// let mut arena = Arena::new();
    /// assert_eq!(STREAMING_RADIUS.value(&arena), 1024.0);
    /// let ws = arena.workspace();
    /// arena.set_attribute(ws, STREAMING_RADIUS.name, Some(AttributeValue::Number(5e6))).unwrap();
    /// assert_eq!(STREAMING_RADIUS.value(&arena), 1e6, "lowered to the most");
    /// ```
    pub fn read(&self, arena: &Arena) -> Result<Option<f64>, SettingError> {
        let given = arena.attribute(arena.workspace(), self.name);
        match self.rule {
            SettingRule::Whole => match given {
                None => Ok(None),
                Some(AttributeValue::Number(n)) => {
                    if n.is_finite() && n.fract() == 0.0 && *n >= self.min && *n <= self.max {
                        Ok(Some(*n))
                    } else {
                        Err(self.refused(n))
                    }
                }
                Some(other) => Err(self.refused(format!("a {} attribute", other.type_name()))),
            },
            SettingRule::AnyNumber => Ok(match given {
                Some(AttributeValue::Number(n)) if !n.is_nan() => Some(*n),
                _ => None,
            }),
            SettingRule::AtMost => Ok(match given {
                Some(AttributeValue::Number(n)) if n.is_finite() && *n >= self.min => Some(n.min(self.max)),
                _ => None,
            }),
        }
    }

    /// The setting's value, the default when the place does not give one, for the rules
    /// that never refuse. A [`SettingRule::Whole`] setting it refuses reads as the default
    /// here; the simulation refuses such a place when it is built, so a running world never
    /// holds one.
    pub fn value(&self, arena: &Arena) -> f64 {
        self.read(arena).ok().flatten().unwrap_or(self.default)
    }

    /// The error for `given` ([`SettingRule::Whole`] settings only name whole ranges).
    fn refused(&self, given: impl std::fmt::Display) -> SettingError {
        SettingError::whole(format!("Workspace.{}", self.name), given, self.min as u64, self.max as u64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn with(setting: &WorkspaceSetting, value: AttributeValue) -> Arena {
        let mut arena = Arena::new();
        let ws = arena.workspace();
        arena.set_attribute(ws, setting.name, Some(value)).unwrap();
        arena
    }

    #[test]
    fn every_default_lies_in_its_range_and_names_are_unique() {
        for s in WORKSPACE_SETTINGS {
            assert!(s.min <= s.default && s.default <= s.max, "{}", s.name);
            assert_eq!(WORKSPACE_SETTINGS.iter().filter(|t| t.name == s.name).count(), 1);
        }
    }

    #[test]
    fn a_whole_setting_is_refused_out_of_range_and_absent_is_none() {
        assert_eq!(MAX_INSTANCES.read(&Arena::new()), Ok(None));
        let fine = with(&MAX_INSTANCES, AttributeValue::Number(2_000.0));
        assert_eq!(MAX_INSTANCES.read(&fine), Ok(Some(2_000.0)));
        let low = with(&MAX_INSTANCES, AttributeValue::Number(999.0));
        assert_eq!(
            MAX_INSTANCES.read(&low).unwrap_err().to_string(),
            "Workspace.MaxInstances must be a whole number from 1000 to 100000000; 999 is refused"
        );
        let half = with(&MAX_INSTANCES, AttributeValue::Number(1_000.5));
        assert!(MAX_INSTANCES.read(&half).is_err());
        let text = with(&MAX_INSTANCES, AttributeValue::String("many".into()));
        assert_eq!(
            MAX_INSTANCES.read(&text).unwrap_err().given,
            "a String attribute",
            "the type is named, not the value"
        );
    }

    #[test]
    fn lenient_rules_read_odd_values_as_the_default_and_lower_large_ones() {
        let nan = with(&FALLEN_PARTS_DESTROY_HEIGHT, AttributeValue::Number(f64::NAN));
        assert_eq!(FALLEN_PARTS_DESTROY_HEIGHT.value(&nan), -500.0);
        let deep = with(&FALLEN_PARTS_DESTROY_HEIGHT, AttributeValue::Number(f64::NEG_INFINITY));
        assert_eq!(FALLEN_PARTS_DESTROY_HEIGHT.value(&deep), f64::NEG_INFINITY);
        let negative = with(&STREAMING_RADIUS, AttributeValue::Number(-1.0));
        assert_eq!(STREAMING_RADIUS.value(&negative), 1024.0);
        let infinite = with(&STREAMING_RADIUS, AttributeValue::Number(f64::INFINITY));
        assert_eq!(STREAMING_RADIUS.value(&infinite), 1024.0);
        let huge = with(&REPLICATION_BUDGET, AttributeValue::Number(1e9));
        assert_eq!(REPLICATION_BUDGET.value(&huge), (1u64 << 20) as f64);
        let flag = with(&REPLICATION_BUDGET, AttributeValue::Bool(true));
        assert_eq!(REPLICATION_BUDGET.value(&flag), 4096.0);
    }
}
