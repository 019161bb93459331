//! The save document (`arbor-behavior-state`): its types as serde reads them (no unknown or
//! repeated keys), the JSON path of a syntax error, and the checks a saved binding passes
//! before anything is restored (its shape, its counters, its state and memory against its
//! definition). Nothing here touches the runtime or the world.

use super::ResumeError;
use crate::behavior::binding::{BindingState, Counters, StartedTimer};
use crate::behavior::definition::Definition;
use crate::behavior::value::{Kind, Value};
use arbor_core::raw::SplitMix64;
use serde::de::{self, Deserializer, MapAccess, Visitor};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::marker::PhantomData;

/// The largest tick, world minute or counter a save may hold: 2^53, up to which a double
/// (the world clock's arithmetic) counts exactly.
const MAX_COUNT: u64 = 1 << 53;

pub(super) fn invalid(path: String, message: impl Into<String>) -> ResumeError {
    ResumeError::Invalid { path, message: message.into() }
}

pub(super) fn at_most(path: &str, n: u64) -> Result<(), ResumeError> {
    if n > MAX_COUNT {
        return Err(invalid(path.to_owned(), format!("{n} is more than the largest count, 2^53")));
    }
    Ok(())
}

/// A binding's key: the hexadecimal persistent id of its `Behavior` instance.
pub(super) fn parse_key(key: &str) -> Option<u128> {
    if key.is_empty() || key.len() > 32 || !key.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    u128::from_str_radix(key, 16).ok()
}

/// The checks of a saved binding that need no definition: counts, and started timers.
pub(super) fn check_shape(
    at: &str,
    saved: &SavedBinding,
    timers_per_instance: usize,
) -> Result<(), ResumeError> {
    if saved.timers.len() > timers_per_instance {
        let message = format!(
            "{} started timers, more than the {timers_per_instance} one instance may have",
            saved.timers.len()
        );
        return Err(invalid(format!("{at}.timers"), message));
    }
    if saved.closed && !saved.timers.is_empty() {
        return Err(invalid(format!("{at}.timers"), "a closed binding has no started timers"));
    }
    at_most(&format!("{at}.startMinute"), saved.start_minute)?;
    let c = &saved.counters;
    at_most(&format!("{at}.counters.committed"), c.committed)?;
    at_most(&format!("{at}.counters.timersStarted"), c.timers_started)?;
    at_most(&format!("{at}.counters.eventsRaised"), c.events_raised)?;
    for (j, t) in saved.timers.iter().enumerate() {
        at_most(&format!("{at}.timers[{j}].due"), t.due)?;
        if t.seq >= c.timers_started {
            let message = format!("{} is not below counters.timersStarted ({})", t.seq, c.timers_started);
            return Err(invalid(format!("{at}.timers[{j}].seq"), message));
        }
        if let Some(k) = saved.timers[..j].iter().position(|o| o.seq == t.seq) {
            return Err(invalid(
                format!("{at}.timers[{j}].seq"),
                format!("{} is also the seq of timers[{k}]", t.seq),
            ));
        }
    }
    Ok(())
}

/// Why a saved value does not fit `kind`, if it does not.
pub(super) fn misfit(v: &Value, kind: Kind) -> Option<String> {
    if v.kind() != kind {
        return Some(format!("is {}, not {}", kind.name(), v.kind().name()));
    }
    let finite = match v {
        Value::Number(n) => n.is_finite(),
        Value::Vector3(p) => p.iter().all(|c| c.is_finite()),
        _ => true,
    };
    (!finite).then(|| "is not finite (NaN and infinity are errors in behaviours)".to_owned())
}

/// A saved binding's state, checked against its saved definition `def`.
pub(super) fn saved_state(
    at: &str,
    saved: &SavedBinding,
    def: &Definition,
) -> Result<BindingState, ResumeError> {
    if let Some(state) = &saved.state
        && !def.states.contains_key(state)
    {
        return Err(invalid(
            format!("{at}.state"),
            format!("'{state}' is not one of the states of '{}'", def.name),
        ));
    }
    for name in saved.memory.keys() {
        if def.memory_slot(name).is_none() {
            let message = format!("'{name}' is not declared in the memory of '{}'", def.name);
            return Err(invalid(format!("{at}.memory.{name}"), message));
        }
    }
    let mut memory = Vec::with_capacity(def.memory.len());
    for (name, kind, _) in &def.memory {
        let v = saved
            .memory
            .get(name)
            .ok_or_else(|| invalid(format!("{at}.memory"), format!("memory '{name}' is missing")))?;
        if let Some(why) = misfit(v, *kind) {
            return Err(invalid(format!("{at}.memory.{name}"), format!("memory '{name}' {why}")));
        }
        memory.push(v.clone());
    }
    for (j, t) in saved.timers.iter().enumerate() {
        if !def.events.contains_key(&t.name) {
            let message = format!(
                "'{}' is not a declared event of '{}' (a started timer delivers one)",
                t.name, def.name
            );
            return Err(invalid(format!("{at}.timers[{j}].name"), message));
        }
    }
    let mut timers = saved.timers.clone();
    timers.sort_by_key(|t| (t.due, t.seq));
    Ok(BindingState {
        memory,
        state: saved.state.clone(),
        timers,
        rng: SplitMix64(saved.rng),
        counters: saved.counters,
    })
}

/// A malformed save's error, with the path of the value it is in.
pub(super) fn syntax_error(text: &str, e: &serde_json::Error) -> ResumeError {
    let full = e.to_string();
    let message = match full.rfind(" at line ") {
        Some(i) => &full[..i],
        None => full.as_str(),
    };
    let path = json_path(text, e.line(), e.column());
    let place = format!("(line {}, column {})", e.line(), e.column());
    ResumeError::Format(if path.is_empty() {
        format!("{message} {place}")
    } else {
        format!("{path}: {message} {place}")
    })
}

/// The path (`bindings[2].memory`) of the JSON value that byte column `column` of line
/// `line` (both 1-based) of `text` is in.
pub(super) fn json_path(text: &str, line: usize, column: usize) -> String {
    enum Frame {
        Object(Option<String>),
        Array(usize),
    }
    let line_start =
        if line <= 1 { 0 } else { text.match_indices('\n').nth(line - 2).map_or(text.len(), |(i, _)| i + 1) };
    let end = (line_start + column).min(text.len());
    let b = text.as_bytes();
    let mut stack: Vec<Frame> = Vec::new();
    let mut last_string = String::new();
    let mut i = 0;
    while i < end {
        match b[i] {
            b'"' => {
                let start = i + 1;
                i += 1;
                while i < b.len() && b[i] != b'"' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
                last_string = text.get(start..i.min(b.len())).unwrap_or_default().to_owned();
            }
            b':' => {
                if let Some(Frame::Object(key)) = stack.last_mut() {
                    *key = Some(std::mem::take(&mut last_string));
                }
            }
            b',' => match stack.last_mut() {
                Some(Frame::Object(key)) => *key = None,
                Some(Frame::Array(n)) => *n += 1,
                None => {}
            },
            b'{' => stack.push(Frame::Object(None)),
            b'[' => stack.push(Frame::Array(0)),
            b'}' | b']' => {
                stack.pop();
            }
            _ => {}
        }
        i += 1;
    }
    let mut path = String::new();
    for frame in &stack {
        match frame {
            Frame::Object(Some(key)) => {
                if !path.is_empty() {
                    path.push('.');
                }
                path.push_str(key);
            }
            Frame::Object(None) => break,
            Frame::Array(n) => path.push_str(&format!("[{n}]")),
        }
    }
    path
}

/// A JSON object read into a map, refusing a key given twice (serde's maps keep the last).
pub(super) fn unique_map<'de, D: Deserializer<'de>, V: Deserialize<'de>>(
    d: D,
) -> Result<BTreeMap<String, V>, D::Error> {
    struct Unique<V>(PhantomData<V>);
    impl<'de, V: Deserialize<'de>> Visitor<'de> for Unique<V> {
        type Value = BTreeMap<String, V>;
        fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("an object")
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
            let mut out = BTreeMap::new();
            while let Some(key) = map.next_key::<String>()? {
                if out.contains_key(&key) {
                    return Err(de::Error::custom(format_args!("duplicate key '{key}'")));
                }
                let value = map.next_value::<V>()?;
                out.insert(key, value);
            }
            Ok(out)
        }
    }
    d.deserialize_map(Unique(PhantomData))
}

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(super) struct SavedBinding {
    /// Persistent id of the `Behavior` instance, in hex.
    pub(super) key: String,
    pub(super) behavior: String,
    pub(super) hash: String,
    pub(super) state: Option<String>,
    #[serde(deserialize_with = "unique_map")]
    pub(super) memory: BTreeMap<String, Value>,
    pub(super) timers: Vec<StartedTimer>,
    pub(super) rng: u64,
    pub(super) counters: Counters,
    pub(super) start_minute: u64,
    pub(super) closed: bool,
}

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(super) struct SavedSource {
    pub(super) hash: String,
    pub(super) source: String,
}

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(super) struct SaveDoc {
    pub(super) format: String,
    pub(super) version: u32,
    /// The last tick run, whose world clock the resumed world goes on from.
    pub(super) tick: u64,
    /// The last world minute whose timers were queued.
    pub(super) minute: Option<u64>,
    #[serde(deserialize_with = "unique_map")]
    pub(super) sources: BTreeMap<String, SavedSource>,
    pub(super) bindings: Vec<SavedBinding>,
}
