//! Store keys and store names, shared by the local and the cloud store.
//!
//! - **Integer keys** are numbers that are whole and within ±2^53 (every such number is exact
//!   in a double); `-0` is the key `0`.
//! - **String keys** are 1 to [`MAX_KEY_CHARS`] *printable* characters: valid UTF-8 with no
//!   control character (Unicode category Cc: `\0`–`\x1f`, `\x7f`, `\u{80}`–`\u{9f}`, so no
//!   tab or newline either). Length counts characters, not bytes.
//! - Store **names** follow the string-key rule.
//!
//! In the database a key is its canonical text ([`StoreKey::to_db`]): `i:42`, `s:gold`, so
//! the integer `1` and the string `"1"` are different keys. The conversion from a scripting
//! language's values (and the description of a value that is no key) is the host's; this
//! file checks numbers and bytes.

use crate::error::StoreError;
use crate::limits::{MAX_INT_KEY, MAX_KEY_CHARS};
use std::fmt;

/// One key of a store.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum StoreKey {
    /// A whole number within ±2^53.
    Int(i64),
    /// 1 to 50 printable characters.
    Str(String),
}

/// A number as messages show it (`1.5`, `1e+300`, `nan`, `inf`).
pub fn number_text(n: f64) -> String {
    if n.is_nan() {
        "nan".to_owned()
    } else if n.is_infinite() {
        if n > 0.0 { "inf".to_owned() } else { "-inf".to_owned() }
    } else if n != 0.0 && !(1e-5..1e16).contains(&n.abs()) {
        format!("{n:e}")
    } else {
        format!("{n}")
    }
}

/// Checks the string rule (1 to 50 printable characters); `Err` describes what `bytes` is.
pub fn printable(bytes: &[u8]) -> Result<&str, String> {
    let Ok(s) = std::str::from_utf8(bytes) else {
        return Err("a string that is not UTF-8".to_owned());
    };
    if s.is_empty() {
        return Err("an empty string".to_owned());
    }
    let chars = s.chars().count();
    if chars > MAX_KEY_CHARS {
        return Err(format!("a string of {chars} characters"));
    }
    if s.chars().any(char::is_control) {
        return Err("a string with a control character".to_owned());
    }
    Ok(s)
}

/// A store name from a string's bytes, or why it is not one.
pub fn store_name(bytes: &[u8]) -> Result<String, StoreError> {
    printable(bytes).map(str::to_owned).map_err(StoreError::BadName)
}

impl StoreKey {
    /// The key a number names (a double), or why it is not a key.
    pub fn from_number(n: f64) -> Result<StoreKey, StoreError> {
        if n.fract() == 0.0 && n.abs() <= MAX_INT_KEY as f64 {
            Ok(StoreKey::Int(n as i64))
        } else {
            Err(StoreError::BadKey(format!("the number {}", number_text(n))))
        }
    }

    /// The key an integer names, or why it is not a key (beyond ±2^53).
    pub fn from_integer(i: i64) -> Result<StoreKey, StoreError> {
        if (-MAX_INT_KEY..=MAX_INT_KEY).contains(&i) {
            Ok(StoreKey::Int(i))
        } else {
            Err(StoreError::BadKey(format!("the number {i}")))
        }
    }

    /// The key a string's bytes name, or why it is not a key.
    pub fn from_bytes(bytes: &[u8]) -> Result<StoreKey, StoreError> {
        printable(bytes).map(|s| StoreKey::Str(s.to_owned())).map_err(StoreError::BadKey)
    }

    /// The canonical text of the key in a database: `i:<decimal>` or `s:<text>`.
    pub fn to_db(&self) -> String {
        match self {
            StoreKey::Int(i) => format!("i:{i}"),
            StoreKey::Str(s) => format!("s:{s}"),
        }
    }

    /// The key whose canonical text is `text` (`None` if it is not one).
    pub fn from_db(text: &str) -> Option<StoreKey> {
        if let Some(i) = text.strip_prefix("i:") {
            let i: i64 = i.parse().ok()?;
            return (-MAX_INT_KEY..=MAX_INT_KEY).contains(&i).then_some(StoreKey::Int(i));
        }
        let s = text.strip_prefix("s:")?;
        printable(s.as_bytes()).ok().map(|s| StoreKey::Str(s.to_owned()))
    }
}

/// Integers as numbers (`42`), strings quoted (`"gold"`), as a Luau literal.
impl fmt::Display for StoreKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StoreKey::Int(i) => write!(f, "{i}"),
            StoreKey::Str(s) => write!(f, "{s:?}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn canonical_texts_never_collide_and_round_trip() {
        let keys =
            [StoreKey::Int(1), StoreKey::Str("1".into()), StoreKey::Str("i:1".into()), StoreKey::Int(-7)];
        let texts: Vec<String> = keys.iter().map(StoreKey::to_db).collect();
        assert_eq!(texts, ["i:1", "s:1", "s:i:1", "i:-7"]);
        for k in &keys {
            assert_eq!(StoreKey::from_db(&k.to_db()).as_ref(), Some(k));
        }
        assert_eq!(StoreKey::from_db("x:1"), None);
        assert_eq!(StoreKey::from_db("i:1.5"), None);
        assert_eq!(StoreKey::Str("gold".into()).to_string(), "\"gold\"");
        assert_eq!(StoreKey::Int(3).to_string(), "3");
    }
}
