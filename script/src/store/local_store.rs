//! The Luau surface of the local stores: `game.Store.open(name)` and the `Store` object's
//! `get` and `put` methods.
//!
//! ```lua
//! local scores = game.Store.open("Scores")
//! local entry = scores:get(userId) or { best = 0 }
//! entry.best = math.max(entry.best, score)
//! scores:put(userId, entry)
//! ```
//!
//! - `open` (server only) returns the same `Store` object for the same name; a place opens at
//!   most 8 distinct stores.
//! - `get(key)` answers from memory: a fresh table decoded from the stored bytes each call
//!   (changing it changes nothing until it is put), or nil.
//! - `put(key, table)` checks the key, the value and the key count, then stores the value;
//!   it returns once the value is in memory and queued for the tick's commit.
//!
//! Failures raise at the caller's line with the rule they broke (`StoreError`). The calling
//! script pays for encoding and decoding in its instruction budget. The stores themselves
//! (memory, writer thread, file) are `arbor_store::LocalStores`.

use super::key::{describe, store_key, store_name};
use super::value::{decode, encode};
use crate::budget;
use crate::luau::convert::{Status, fail, ok};
use arbor_store::{LocalStores, MAX_VALUE_BYTES, StoreError};
use mlua::{Function, Lua, Result, Table, UserData, UserDataFields, UserDataMethods, Value};
use std::sync::Arc;

/// Registry key of the `Store` objects by name (so `open` hands out one per store).
const HANDLES_KEY: &str = "arbor.store.handles";
/// Registry key of the `Store` objects' `__index` function.
const INDEX_KEY: &str = "arbor.store.index";

/// A script's handle to one open local store.
pub(crate) struct StoreHandle {
    index: usize,
    name: Arc<str>,
}

impl UserData for StoreHandle {
    fn add_fields<F: UserDataFields<Self>>(fields: &mut F) {
        fields.add_meta_field_with("__index", |lua| lua.named_registry_value::<Function>(INDEX_KEY));
        fields.add_meta_field("__type", "Store");
    }

    fn add_methods<M: UserDataMethods<Self>>(methods: &mut M) {
        methods.add_meta_method("__tostring", |_, this, ()| Ok(format!("Store({})", this.name)));
    }
}

/// Runs `f` with the local stores (in the Lua state's app data).
pub(crate) fn with_stores<R>(lua: &Lua, f: impl FnOnce(&mut LocalStores) -> R) -> Result<R> {
    let mut stores = lua
        .try_app_data_mut::<LocalStores>()
        .map_err(|_| mlua::Error::runtime("the stores are busy"))?
        .ok_or_else(|| mlua::Error::runtime("no stores in this host"))?;
    Ok(f(&mut stores))
}

fn this_store(v: &Value) -> Option<(usize, Arc<str>)> {
    let ud = v.as_userdata()?;
    let h = ud.borrow::<StoreHandle>().ok()?;
    Some((h.index, Arc::clone(&h.name)))
}

const NOT_A_STORE: &str = "expected a Store (use ':' to call methods)";

/// `game.Store.open(name)`.
fn open(lua: &Lua, name: Value) -> Result<Status> {
    if crate::state::with_state(lua, |s| s.client)? {
        return fail(lua, StoreError::ServerOnly.to_string());
    }
    let name = match store_name(lua, &name) {
        Ok(n) => n,
        Err(e) => return fail(lua, e.to_string()),
    };
    let handles: Table = lua.named_registry_value(HANDLES_KEY)?;
    if let Value::UserData(h) = handles.raw_get::<Value>(name.as_str())? {
        return ok(lua, h);
    }
    let index = match with_stores(lua, |s| s.open(&name))? {
        Ok(i) => i,
        Err(e) => return fail(lua, e.to_string()),
    };
    let handle = lua.create_userdata(StoreHandle { index, name: name.as_str().into() })?;
    handles.raw_set(name.as_str(), &handle)?;
    ok(lua, handle)
}

/// `store:get(key)`.
fn get(lua: &Lua, (this, key): (Value, Value)) -> Result<Status> {
    let Some((index, name)) = this_store(&this) else { return fail(lua, NOT_A_STORE) };
    let key = match store_key(lua, &key) {
        Ok(k) => k,
        Err(e) => return fail(lua, e.to_string()),
    };
    let Some(bytes) = with_stores(lua, |s| s.get(index, &key))? else { return ok(lua, Value::Nil) };
    if budget::charge(bytes.len(), 0).is_err() {
        return fail(lua, budget::BUDGET_MESSAGE);
    }
    match decode(lua, &bytes) {
        // `put` takes tables only (`docs/stores.md`), so anything else in the file was not written by it.
        Ok(v @ Value::Table(_)) => ok(lua, v),
        Ok(_) => fail(lua, format!("store '{name}' key {key}: corrupt value (not a table)")),
        Err(e) => fail(lua, format!("store '{name}' key {key}: {}", crate::luau::convert::error_text(&e))),
    }
}

/// `store:put(key, table)`.
fn put(lua: &Lua, (this, key, value): (Value, Value, Value)) -> Result<Status> {
    let Some((index, _)) = this_store(&this) else { return fail(lua, NOT_A_STORE) };
    let key = match store_key(lua, &key) {
        Ok(k) => k,
        Err(e) => return fail(lua, e.to_string()),
    };
    if !matches!(value, Value::Table(_)) {
        return fail(lua, StoreError::NotATable(describe(lua, &value)).to_string());
    }
    let bytes = match encode(lua, &value, MAX_VALUE_BYTES) {
        Ok(b) => b,
        Err(e) => return fail(lua, e.to_string()),
    };
    match with_stores(lua, |s| s.put(index, &key, bytes))? {
        Ok(()) => ok(lua, Value::Nil),
        Err(e) => fail(lua, e.to_string()),
    }
}

/// Builds the frozen `game.Store` table and the `Store` object's methods; puts the stores'
/// state into `lua`'s app data.
pub(crate) fn install(
    lua: &Lua,
    data_dir: Option<std::path::PathBuf>,
    checked: &dyn Fn(Function) -> Result<Function>,
) -> Result<Table> {
    lua.set_app_data(LocalStores::new(data_dir));
    lua.set_named_registry_value(HANDLES_KEY, lua.create_table()?)?;
    let methods = lua.create_table()?;
    methods.raw_set("get", checked(lua.create_function(get)?)?)?;
    methods.raw_set("put", checked(lua.create_function(put)?)?)?;
    methods.set_readonly(true);
    let index: Function = lua
        .load(
            "local methods = ...
            return function(_, key)
                local m = methods[key]
                if m ~= nil then
                    return m
                end
                error(tostring(key) .. ' is not a valid member of Store', 2)
            end",
        )
        .set_name("=arbor-store")
        .call(methods)?;
    lua.set_named_registry_value(INDEX_KEY, index)?;
    // The Store objects' metatable is out of scripts' reach: mlua protects userdata
    // metatables (`getmetatable` answers `false`), and `setmetatable` takes tables only.
    let store = lua.create_table()?;
    store.raw_set("open", checked(lua.create_function(open)?)?)?;
    store.set_readonly(true);
    Ok(store)
}
