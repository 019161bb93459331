//! Where the prelude's exports live: the Luau helpers (`prelude.luau`: `check`, the signal
//! index, …) that every service's Luau side calls, kept in the registry under
//! [`PRELUDE_KEY`] once the environment is installed.

use mlua::{Lua, Result, Value};

/// Registry key of the prelude's exports.
pub const PRELUDE_KEY: &str = "arbor.prelude";

/// The prelude's export `key`.
pub(crate) fn prelude_field(lua: &Lua, key: &str) -> Result<Value> {
    lua.named_registry_value::<mlua::Table>(PRELUDE_KEY)?.get(key)
}
