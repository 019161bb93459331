//! Store keys and store names from Lua values, and what a Lua value is in store messages.
//! The rules themselves (integers within ±2^53, 1 to 50 printable characters, the canonical
//! text in the database) are `arbor_store::StoreKey`'s; this file only takes Lua values
//! apart for them.

use arbor_store::{StoreError, StoreKey, number_text};
use mlua::{Lua, Value};

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
        Value::String(s) => arbor_store::store_name(&s.as_bytes()),
        other => Err(StoreError::BadName(describe(lua, other))),
    }
}

/// The key a Lua value names, or why it is not a key.
pub(crate) fn store_key(lua: &Lua, v: &Value) -> Result<StoreKey, StoreError> {
    match v {
        Value::Integer(i) => StoreKey::from_integer(*i),
        Value::Number(n) => StoreKey::from_number(*n),
        Value::String(s) => StoreKey::from_bytes(&s.as_bytes()),
        other => Err(StoreError::BadKey(describe(lua, other))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(lua: &Lua, src: &str) -> Result<StoreKey, String> {
        let v: Value = lua.load(src).eval().unwrap();
        store_key(lua, &v).map_err(|e| e.to_string())
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
}
