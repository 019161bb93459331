//! How a setting is refused or lowered, for every kind of setting the engine reads: the
//! behaviour settings of a place file, the Workspace settings, a host's flags.
//!
//! Invariant: a value out of range is refused with an error naming the setting, what was
//! given and the rule; it is never read as "unlimited" and never silently mapped to a default.
//! A value above a host's cap is lowered to the cap and reported ([`Capped`]).

use std::fmt;

/// A setting refused because it is out of range (or of the wrong type): never read as
/// "unlimited", never mapped to a default.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{setting} must be {rule}; {given} is refused")]
pub struct SettingError {
    /// The setting, as its owner names it (`unitsPerTransaction`, `Workspace.MaxInstances`,
    /// `--max-instances`).
    pub setting: String,
    /// What was given (`9223372036854775808`, `a String attribute`).
    pub given: String,
    /// What it must be (`a whole number from 1 to 100000000`).
    pub rule: String,
}

impl SettingError {
    /// `setting` must be a whole number from `min` to `max`, and `given` is not.
    pub fn whole(setting: impl Into<String>, given: impl fmt::Display, min: u64, max: u64) -> Self {
        Self {
            setting: setting.into(),
            given: given.to_string(),
            rule: format!("a whole number from {min} to {max}"),
        }
    }
}

/// A place setting lowered to the host's cap (reported as a warning at load).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Capped {
    /// The setting (`settings.behaviors.unitsPerTransaction`, `Workspace.MaxInstances`).
    pub setting: String,
    /// What the place asked for.
    pub asked: u64,
    /// The host's cap, which applies.
    pub cap: u64,
}

impl fmt::Display for Capped {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: the place asks for {}, more than this host's cap of {}; the cap applies",
            self.setting, self.asked, self.cap
        )
    }
}
