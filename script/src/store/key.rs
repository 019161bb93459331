//! Store keys and store names, shared by the local and the cloud store.
//!
//! - **Integer keys** are Luau numbers that are whole and within ±2^53 (every such number
//!   is exact in a double); `-0` is the key `0`.
//! - **String keys** are 1 to [`MAX_KEY_CHARS`] *printable* characters: valid UTF-8 with no
//!   control character (Unicode category Cc: `\0`–`\x1f`, `\x7f`, `\u{80}`–`\u{9f}`, so no
//!   tab or newline either). Length counts characters, not bytes.
//! - Store **names** follow the string-key rule.
//!
//! In the database a key is its canonical text ([`StoreKey::to_db`]): `i:42`, `s:gold`, so
//! the integer `1` and the string `"1"` are different keys.

use super::error::StoreError;
use mlua::{Lua, Value};
use std::fmt;

/// Most characters of a string key or a store name.
pub(crate) const MAX_KEY_CHARS: usize = 50;

/// Largest magnitude of an integer key: 2^53.
pub(crate) const MAX_INT_KEY: i64 = 1 << 53;

/// One key of a store.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) enum StoreKey {
    /// A whole number within ±2^53.
    Int(i64),
    /// 1 to 50 printable characters.
    Str(String),
}

/// A number as messages show it (`1.5`, `1e+300`, `nan`, `inf`).
pub(crate) fn number_text(n: f64) -> String {
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
pub(crate) fn printable(bytes: &[u8]) -> Result<&str, String> {
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

/// What `v` is, for messages (`a boolean`, `the number 1.5`, `a table`).
pub(crate) fn describe(lua: &Lua, v: &Value) -> String {
    match v {
        Value::Nil => "nil".to_owned(),
        Value::Integer(i) => format!("the number {i}"),
        Value::Number(n) => format!("the number {}", number_text(*n)),
        other => {
            let name = crate::luau::convert::type_name(lua, other);
            let article = if name.starts_with(['a', 'e', 'i', 'o', 'u', 'I']) { "an" } else { "a" };
            format!("{article} {name}")
        }
    }
}

/// A store name from a Lua value.
pub(crate) fn store_name(lua: &Lua, v: &Value) -> Result<String, StoreError> {
    match v {
        Value::String(s) => printable(&s.as_bytes()).map(str::to_owned).map_err(StoreError::BadName),
        other => Err(StoreError::BadName(describe(lua, other))),
    }
}

impl StoreKey {
    /// The key a Lua value names, or why it is not a key.
    pub(crate) fn from_lua(lua: &Lua, v: &Value) -> Result<StoreKey, StoreError> {
        let whole = |n: f64| -> Result<StoreKey, StoreError> {
            if n.fract() == 0.0 && n.abs() <= MAX_INT_KEY as f64 {
                Ok(StoreKey::Int(n as i64))
            } else {
                Err(StoreError::BadKey(format!("the number {}", number_text(n))))
            }
        };
        match v {
            Value::Integer(i) if (-MAX_INT_KEY..=MAX_INT_KEY).contains(i) => Ok(StoreKey::Int(*i)),
            Value::Integer(i) => Err(StoreError::BadKey(format!("the number {i}"))),
            Value::Number(n) => whole(*n),
            Value::String(s) => {
                printable(&s.as_bytes()).map(|s| StoreKey::Str(s.to_owned())).map_err(StoreError::BadKey)
            }
            other => Err(StoreError::BadKey(describe(lua, other))),
        }
    }

    /// The canonical text of the key in a database: `i:<decimal>` or `s:<text>`.
    pub(crate) fn to_db(&self) -> String {
        match self {
            StoreKey::Int(i) => format!("i:{i}"),
            StoreKey::Str(s) => format!("s:{s}"),
        }
    }

    /// The key whose canonical text is `text` (`None` if it is not one).
    pub(crate) fn from_db(text: &str) -> Option<StoreKey> {
        if let Some(i) = text.strip_prefix("i:") {
            let i: i64 = i.parse().ok()?;
            return (-MAX_INT_KEY..=MAX_INT_KEY).contains(&i).then_some(StoreKey::Int(i));
        }
        let s = text.strip_prefix("s:")?;
        printable(s.as_bytes()).ok().map(|s| StoreKey::Str(s.to_owned()))
    }

    /// The key as a Lua value (a number or a string).
    #[allow(dead_code, reason = "part of the key interface the stores share; used by tests")]
    pub(crate) fn to_lua(&self, lua: &Lua) -> mlua::Result<Value> {
        Ok(match self {
            StoreKey::Int(i) => Value::Number(*i as f64),
            StoreKey::Str(s) => Value::String(lua.create_string(s)?),
        })
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

    fn key(lua: &Lua, src: &str) -> Result<StoreKey, String> {
        let v: Value = lua.load(src).eval().unwrap();
        StoreKey::from_lua(lua, &v).map_err(|e| e.to_string())
    }

    #[test]
    fn keys_follow_the_published_rules() {
        let lua = Lua::new();
        assert_eq!(key(&lua, "42"), Ok(StoreKey::Int(42)));
        assert_eq!(key(&lua, "-0"), Ok(StoreKey::Int(0)));
        assert_eq!(key(&lua, "2^53"), Ok(StoreKey::Int(1 << 53)));
        assert_eq!(key(&lua, "-2^53"), Ok(StoreKey::Int(-(1 << 53))));
        assert_eq!(key(&lua, "'gold'"), Ok(StoreKey::Str("gold".into())));
        assert_eq!(key(&lua, "string.rep('é', 50)"), Ok(StoreKey::Str("é".repeat(50))));
        let rule = "store keys are integers or strings of 1 to 50 printable characters, not";
        for (src, what) in [
            ("1.5", "the number 1.5"),
            ("2^53 + 2", "the number 9007199254740994"),
            ("1e300", "the number 1e300"),
            ("0/0", "the number nan"),
            ("math.huge", "the number inf"),
            ("''", "an empty string"),
            ("string.rep('x', 51)", "a string of 51 characters"),
            ("'a\\tb'", "a string with a control character"),
            ("'\\255'", "a string that is not UTF-8"),
            ("true", "a boolean"),
            ("{}", "a table"),
            ("nil", "nil"),
            ("vector.create(1, 2, 3)", "a Vector3"),
        ] {
            assert_eq!(key(&lua, src), Err(format!("{rule} {what}")), "{src}");
        }
    }

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
