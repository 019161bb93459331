//! The Luau surface of the cloud store and the delivery of its callbacks.
//!
//! ```luau
//! local cloud = game.CloudStore.open("PlayerData")      -- a CloudStore handle
//! cloud:fetch(key, function(data, version, err) end)   -- callback required
//! cloud:put(key, data, function(version, err) end)     -- callback optional
//! cloud:update(key, function(old) return new end,      -- nil cancels; may run again
//!     function(data, version, err) end)                -- callback optional
//! ```
//!
//! Every call checks its arguments at once and raises at the caller's line (bad key, value
//! over 4 MiB or not storable, callback not a function, [`QUEUE_FULL`](arbor_store::cloud::QUEUE_FULL)
//! past 32 pending requests of the calling script); otherwise it queues and returns nothing.
//! Callbacks (and `update`'s function) run in a later tick, at the start of the Update
//! phase, each as its own entry of the script that made the request: a fresh instruction
//! budget, its memory share, `print` attributed to it. A callback's error is logged
//! (`<script>: error: ...`) and does not count toward the script's consecutive-error
//! counter. If the script is gone when the result arrives its callbacks are dropped; its
//! puts still land (and an `update` whose function can no longer run is abandoned).
//!
//! Callback values: `data` is the decoded value (`nil` for a missing record), `version` the
//! record's version (0 for a missing record, then 1, 2, ... per write), `err` `nil` on
//! success or the reason as a string. A cancelled `update` (its function returned `nil`)
//! calls back with `(nil, currentVersion, nil)`. A failed request without a callback is
//! logged as a warning of its script.

use super::key::{describe, store_key, store_name};
use super::value::{decode, encode};
use crate::budget;
use crate::log::Level;
use crate::luau::convert::{Status, error_text, fail, ok};
use crate::state::{Running, running_stack, with_state, with_world};
use arbor_store::cloud::{Event, Kind, MAX_VALUE_BYTES, Ready, RecordKey};
use arbor_store::{Cloud, StoreConfig, StoreKey};
use mlua::{Function, IntoLuaMulti, Lua, Result, Table, UserData, UserDataFields, Value};
use std::cell::RefCell;
use std::rc::Rc;
use std::sync::Arc;

const INDEX_KEY: &str = "arbor.cloudstore.index";

/// What a request carries on the tick thread.
#[derive(Clone)]
pub(crate) struct Payload {
    running: Running,
    /// `fetch`, `put` or `update`.
    what: &'static str,
    callback: Option<Function>,
    transform: Option<Function>,
}

/// The cloud store state in the Lua state's app data.
pub(crate) struct CloudHost {
    config: StoreConfig,
    cloud: RefCell<Option<Cloud<Payload>>>,
}

/// A script's handle to one cloud store.
#[derive(Clone, Debug)]
pub(crate) struct CloudStoreHandle {
    name: Arc<str>,
}

impl UserData for CloudStoreHandle {
    fn add_fields<F: UserDataFields<Self>>(fields: &mut F) {
        fields.add_meta_field_with("__index", |lua| lua.named_registry_value::<Function>(INDEX_KEY));
        fields.add_meta_field("__type", "CloudStore");
    }

    fn add_methods<M: mlua::UserDataMethods<Self>>(methods: &mut M) {
        methods.add_meta_method(mlua::MetaMethod::ToString, |_, this, ()| {
            Ok(format!("CloudStore {}", this.name))
        });
    }
}

fn host(lua: &Lua) -> Option<Rc<CloudHost>> {
    lua.app_data_ref::<Rc<CloudHost>>().map(|h| Rc::clone(&h))
}

/// The cloud store's queue as an operator sees it ([`ScriptHost::cloud_queue`](crate::ScriptHost::cloud_queue)).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CloudQueue {
    /// Requests waiting for the minute's budget or an in-flight slot.
    pub queued: usize,
    /// Requests sent to the database and not answered yet.
    pub in_flight: usize,
    /// Session locks this server holds.
    pub locks_held: usize,
}

/// The cloud store's queue, or `None` until a script opened a cloud store.
pub(crate) fn queue(lua: &Lua) -> Option<CloudQueue> {
    let host = host(lua)?;
    let cloud = host.cloud.borrow();
    let cloud = cloud.as_ref()?;
    Some(CloudQueue { queued: cloud.queued(), in_flight: cloud.in_flight(), locks_held: cloud.locks_held() })
}

/// Builds the frozen `game.CloudStore` table and puts the cloud state in `lua`'s app data.
/// No thread starts and no file opens until a script calls `open`.
pub(crate) fn install(
    lua: &Lua,
    config: &StoreConfig,
    checked: &dyn Fn(Function) -> Result<Function>,
) -> Result<Table> {
    lua.set_app_data(Rc::new(CloudHost { config: config.clone(), cloud: RefCell::new(None) }));
    let methods = lua.create_table()?;
    methods.raw_set("fetch", checked(lua.create_function(fetch)?)?)?;
    methods.raw_set("put", checked(lua.create_function(put)?)?)?;
    methods.raw_set("update", checked(lua.create_function(update)?)?)?;
    methods.set_readonly(true);
    let index: Function = lua
        .load(
            "local methods, nameOf = ...\n\
             return function(handle, key)\n\
               local m = methods[key]\n\
               if m ~= nil then return m end\n\
               if key == 'Name' then return nameOf(handle) end\n\
               error(tostring(key) .. ' is not a valid member of CloudStore', 2)\n\
             end",
        )
        .set_name("=arbor-cloudstore")
        .call((
            methods,
            lua.create_function(|_, h: mlua::UserDataRef<CloudStoreHandle>| Ok(h.name.to_string()))?,
        ))?;
    lua.set_named_registry_value(INDEX_KEY, index)?;
    // mlua protects userdata metatables (`getmetatable` gives `false`), so scripts cannot
    // reach the handles' shared metatable.
    let cloud = lua.create_table()?;
    cloud.raw_set("open", checked(lua.create_function(open)?)?)?;
    cloud.set_readonly(true);
    Ok(cloud)
}

fn open(lua: &Lua, name: Value) -> Result<Status> {
    if with_state(lua, |s| s.client)? {
        return fail(lua, "game.CloudStore is server-only");
    }
    let name = match store_name(lua, &name) {
        Ok(n) => n,
        Err(e) => return fail(lua, e.to_string()),
    };
    let Some(host) = host(lua) else { return fail(lua, "no script host") };
    if host.cloud.borrow().is_none() {
        match host.config.start_cloud() {
            Ok(cloud) => *host.cloud.borrow_mut() = Some(cloud),
            Err(m) => return fail(lua, m),
        }
    }
    ok(lua, CloudStoreHandle { name: name.into() })
}

fn this_store(v: &Value) -> Option<Arc<str>> {
    v.as_userdata()?.borrow::<CloudStoreHandle>().ok().map(|h| h.name.clone())
}

/// The instance making a request (the engine, key 0, outside any script).
fn requester(lua: &Lua) -> Result<Running> {
    Ok(running_stack(lua)?.current().unwrap_or_else(Running::engine))
}

fn record_key(lua: &Lua, v: &Value) -> std::result::Result<RecordKey, String> {
    let key = store_key(lua, v).map_err(|e| e.to_string())?;
    let player = match key {
        StoreKey::Int(i) => u64::try_from(i).ok(),
        StoreKey::Str(_) => None,
    };
    Ok(RecordKey { db: key.to_db().into(), text: key.to_string().into(), player })
}

fn optional_function(lua: &Lua, v: Value, what: &str) -> std::result::Result<Option<Function>, String> {
    match v {
        Value::Nil => Ok(None),
        Value::Function(f) => Ok(Some(f)),
        other => Err(format!("{what} must be a function, not {}", describe(lua, &other))),
    }
}

/// Checks and queues one request.
fn submit(
    lua: &Lua,
    this: &Value,
    key: &Value,
    kind: Kind,
    what: &'static str,
    callback: Option<Function>,
    transform: Option<Function>,
) -> Result<Status> {
    let Some(store) = this_store(this) else {
        return fail(lua, NOT_A_STORE);
    };
    let key = match record_key(lua, key) {
        Ok(k) => k,
        Err(m) => return fail(lua, m),
    };
    let running = requester(lua)?;
    let Some(host) = host(lua) else { return fail(lua, "no script host") };
    let mut cloud = host.cloud.borrow_mut();
    let Some(cloud) = cloud.as_mut() else { return fail(lua, "the cloud store is not open") };
    let owner = running.key;
    let payload = Payload { running, what, callback, transform };
    match cloud.submit(owner, store, key, kind, payload) {
        Ok(_) => ok(lua, Value::Nil),
        Err(m) => fail(lua, m),
    }
}

const NOT_A_STORE: &str = "expected a CloudStore (use ':' to call methods)";

fn fetch(lua: &Lua, (this, key, cb): (Value, Value, Value)) -> Result<Status> {
    if this_store(&this).is_none() {
        return fail(lua, NOT_A_STORE);
    }
    let cb = match cb {
        Value::Function(f) => f,
        other => return fail(lua, format!("fetch needs a callback function, not {}", describe(lua, &other))),
    };
    submit(lua, &this, &key, Kind::Fetch, "fetch", Some(cb), None)
}

fn encode_value(lua: &Lua, value: &Value, what: &str) -> std::result::Result<Vec<u8>, String> {
    if value.is_nil() {
        return Err(format!("{what} needs a value to store, not nil"));
    }
    encode(lua, value, MAX_VALUE_BYTES).map_err(|e| e.to_string())
}

fn put(lua: &Lua, (this, key, data, cb): (Value, Value, Value, Value)) -> Result<Status> {
    if this_store(&this).is_none() {
        return fail(lua, NOT_A_STORE);
    }
    let cb = match optional_function(lua, cb, "put's callback") {
        Ok(cb) => cb,
        Err(m) => return fail(lua, m),
    };
    // The key is checked before the value is encoded (it is cheaper).
    if let Err(m) = record_key(lua, &key) {
        return fail(lua, m);
    }
    let bytes = match encode_value(lua, &data, "put") {
        Ok(b) => b,
        Err(m) => return fail(lua, m),
    };
    submit(lua, &this, &key, Kind::Put(bytes.into()), "put", cb, None)
}

fn update(lua: &Lua, (this, key, transform, cb): (Value, Value, Value, Value)) -> Result<Status> {
    if this_store(&this).is_none() {
        return fail(lua, NOT_A_STORE);
    }
    let transform = match transform {
        Value::Function(f) => f,
        other => return fail(lua, format!("update needs a function, not {}", describe(lua, &other))),
    };
    let cb = match optional_function(lua, cb, "update's callback") {
        Ok(cb) => cb,
        Err(m) => return fail(lua, m),
    };
    submit(lua, &this, &key, Kind::Update, "update", cb, Some(transform))
}

/// Runs `f` as one entry of `running` (as `ScriptHost::call_entry` does): the running stack,
/// its memory category, a fresh budget.
fn entry<R>(lua: &Lua, running: &Running, f: impl FnOnce(&Lua) -> Result<R>) -> Result<R> {
    let stack = running_stack(lua)?;
    stack.push(running.clone());
    let category = budget::enter_category(lua, budget::category_of(running.key));
    let enclosing = budget::enter();
    let result = f(lua);
    running.usage.count(budget::leave(enclosing), result.is_err());
    budget::enter_category(lua, category);
    stack.pop();
    result
}

fn log_error(lua: &Lua, running: &Running, e: &mlua::Error) {
    let line = format!("{}: error: {}", running.name, error_text(e));
    let _ = with_state(lua, |s| s.log.push(Level::Error, line));
}

fn decoded(lua: &Lua, data: Option<&[u8]>) -> Result<Value> {
    data.map_or(Ok(Value::Nil), |d| decode(lua, d))
}

/// Calls the request's callback with what `args` builds (inside the entry), logging its
/// error; without a callback, a failure `message` becomes a warning of the script.
fn call_back<A: IntoLuaMulti>(
    lua: &Lua,
    payload: &Payload,
    failure: Option<&str>,
    args: impl FnOnce(&Lua) -> Result<A>,
) {
    match &payload.callback {
        Some(cb) => {
            if let Err(e) = entry(lua, &payload.running, |lua| cb.call::<()>(args(lua)?)) {
                log_error(lua, &payload.running, &e);
            }
        }
        None => {
            if let Some(m) = failure {
                let line =
                    format!("{}: warning: cloud store {} failed: {m}", payload.running.name, payload.what);
                let _ = with_state(lua, |s| s.log.push(Level::Warn, line));
            }
        }
    }
}

/// Whether the script that made a request still runs.
fn live(lua: &Lua, running: &Running) -> bool {
    running.script.is_none() || with_world(lua, |w| w.contains(running.script)).unwrap_or(true)
}

/// An update's function ran: `Ok(Some)` the new value encoded, `Ok(None)` cancelled,
/// `Err` the reason it failed (already logged if the function raised).
fn run_transform(lua: &Lua, p: &Payload, old: Option<&[u8]>) -> std::result::Result<Option<Vec<u8>>, String> {
    let Some(transform) = &p.transform else { return Ok(None) };
    let ran = entry(lua, &p.running, |lua| {
        let new: Value = transform.call(decoded(lua, old)?)?;
        Ok(if new.is_nil() { Ok(None) } else { encode_value(lua, &new, "update").map(Some) })
    });
    match ran {
        Ok(outcome) => outcome,
        Err(e) => {
            log_error(lua, &p.running, &e);
            Err(format!("update's function raised an error: {}", error_text(&e)))
        }
    }
}

fn run(lua: &Lua, host: &CloudHost, ready: Ready<Payload>) {
    let Ready { id, payload: p, event, .. } = ready;
    let alive = live(lua, &p.running);
    match event {
        Event::RunUpdate { old, version } => {
            let outcome = if alive { run_transform(lua, &p, old.as_deref()) } else { Ok(None) };
            let outcome = {
                let mut guard = host.cloud.borrow_mut();
                let Some(cloud) = guard.as_mut() else { return };
                match outcome {
                    Ok(Some(bytes)) => return cloud.answer_update(id, bytes),
                    other => {
                        cloud.finish(id);
                        other
                    }
                }
            };
            match outcome {
                Ok(_) if alive => call_back(lua, &p, None, |_| Ok((Value::Nil, version, Value::Nil))),
                Ok(_) => {}
                Err(m) => call_back(lua, &p, Some(&m), |_| Ok((Value::Nil, Value::Nil, m.clone()))),
            }
        }
        _ if !alive => {}
        Event::Fetched { data, version } => {
            call_back(lua, &p, None, |lua| Ok((decoded(lua, data.as_deref())?, version, Value::Nil)));
        }
        Event::Put { version } => call_back(lua, &p, None, |_| Ok((version, Value::Nil))),
        Event::Updated { data, version } => {
            call_back(lua, &p, None, |lua| Ok((decoded(lua, Some(&data))?, version, Value::Nil)));
        }
        Event::Failed(m) => {
            if p.what == "put" {
                call_back(lua, &p, Some(&m), |_| Ok((Value::Nil, m.clone())));
            } else {
                call_back(lua, &p, Some(&m), |_| Ok((Value::Nil, Value::Nil, m.clone())));
            }
        }
    }
}

fn log_notices(lua: &Lua, notices: Vec<String>) {
    if notices.is_empty() {
        return;
    }
    let _ = with_state(lua, |s| {
        for n in notices {
            s.log.push(Level::Warn, format!("cloud store: warning: {n}"));
        }
    });
}

/// The start of a tick's Update phase: runs the callbacks whose results arrived, then sends
/// what the budget allows (including requests those callbacks made).
pub(crate) fn deliver(lua: &Lua, time: f64, players: &[u64]) {
    let Some(host) = host(lua) else { return };
    let ready = match host.cloud.borrow_mut().as_mut() {
        Some(cloud) => cloud.pump(time, players),
        None => return,
    };
    for r in ready {
        run(lua, &host, r);
    }
    let notices = match host.cloud.borrow_mut().as_mut() {
        Some(cloud) => {
            cloud.dispatch();
            cloud.take_notices()
        }
        None => Vec::new(),
    };
    log_notices(lua, notices);
}

/// The end of a tick: sends the requests made during it that the budget allows, so their
/// results can arrive by the next tick.
pub(crate) fn end_tick(lua: &Lua) {
    if let Some(host) = host(lua)
        && let Some(cloud) = host.cloud.borrow_mut().as_mut()
    {
        cloud.dispatch();
    }
}

/// The server stops: pending writes land and locks are released (see
/// `arbor_store::Cloud::shutdown`).
pub(crate) fn shutdown(lua: &Lua) {
    let Some(host) = host(lua) else { return };
    let warnings = match host.cloud.borrow_mut().as_mut() {
        Some(cloud) => cloud.shutdown(),
        None => return,
    };
    log_notices(lua, warnings);
}

/// [`shutdown`] that waits until `deadline` at most; returns what it abandoned (see
/// `arbor_store::Cloud::shutdown_by`).
pub(crate) fn shutdown_by(lua: &Lua, deadline: std::time::Instant) -> arbor_store::Abandoned {
    let Some(host) = host(lua) else { return arbor_store::Abandoned::default() };
    let (warnings, abandoned) = match host.cloud.borrow_mut().as_mut() {
        Some(cloud) => cloud.shutdown_by(deadline),
        None => return arbor_store::Abandoned::default(),
    };
    log_notices(lua, warnings);
    abandoned
}
