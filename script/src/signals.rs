//! Signals: `instance:GetSignal(name)` returns a [`Signal`]; `:Connect(fn)` registers a
//! handler; `:Emit(...)` runs every handler synchronously, in connection order, each
//! attributed to the script that connected it and drawing on the budget of the entry that
//! emitted (at most one entry budget each), so an emit cascade cannot outrun its first entry.
//!
//! There is no `Disconnect`: connections go when the connecting script instance retires or
//! the target leaves the world (see `host`). Once the target is destroyed, `GetSignal`,
//! `Connect` and `Emit` raise `attempt to index a destroyed Instance` at once — in the same
//! tick too, before the host drops the connections — and a handler that destroys the target
//! stops the handlers after it. `Emit` accepts pure data only — nil, booleans,
//! numbers, strings, vectors, Instances and tables of those; a function or coroutine raises
//! at once. Emitting with no listeners logs a warning. Errors inside handlers are logged and
//! do not count towards the consecutive error counter; the handler stays connected.
//! Handlers nest at most [`MAX_EMIT_DEPTH`] deep: an `Emit` deeper raises [`EMIT_TOO_DEEP`].
//! A script instance holds at most [`MAX_CONNECTIONS_PER_SCRIPT`] connections; an `Emit`
//! pays one unit per connection it scans for handlers.

use crate::api::convert::{Status, error_text, fail, ok, type_name};
use crate::api::props::DESTROYED;
use crate::budget;
use crate::log::Level;
use crate::state::{Running, full_name, running_stack, with_state, with_world};
use arbor_core::Id;
use mlua::{Function, Lua, MultiValue, Result, UserData, UserDataFields, Value};
use std::cell::Cell;
use std::sync::Arc;

/// A script's handle to one named signal of one instance.
#[derive(Clone, Debug)]
pub struct Signal {
    /// The instance the signal belongs to.
    pub target: Id,
    /// The signal name.
    pub name: Arc<str>,
}

impl UserData for Signal {
    fn add_fields<F: UserDataFields<Self>>(fields: &mut F) {
        fields.add_meta_field_with("__index", |lua| crate::api::instance::prelude_field(lua, "signalIndex"));
        fields.add_meta_field("__type", "Signal");
    }
}

/// One connection.
#[derive(Clone, Debug)]
pub struct Connection {
    target: Id,
    name: Arc<str>,
    handler: Function,
    owner: Running,
}

/// Every live connection, in connection order.
#[derive(Default, Debug)]
pub struct Signals {
    connections: Vec<Connection>,
    /// Live connections per owning instance key (invariant: counts `connections`).
    owned: rustc_hash::FxHashMap<u64, usize>,
}

/// Most connections one script instance holds; `Connect` past it raises
/// [`TOO_MANY_CONNECTIONS`].
pub const MAX_CONNECTIONS_PER_SCRIPT: usize = 10_000;

/// The error of a `Connect` past [`MAX_CONNECTIONS_PER_SCRIPT`].
pub const TOO_MANY_CONNECTIONS: &str = "a script may hold at most 10000 signal connections";

impl Signals {
    /// Adds a connection, or refuses it if its owner holds the most it may.
    fn connect(&mut self, connection: Connection) -> std::result::Result<(), &'static str> {
        let held = self.owned.entry(connection.owner.key).or_default();
        if *held >= MAX_CONNECTIONS_PER_SCRIPT {
            return Err(TOO_MANY_CONNECTIONS);
        }
        *held += 1;
        self.connections.push(connection);
        Ok(())
    }

    /// Keeps the connections `keep` accepts, keeping the per-owner counts.
    fn retain(&mut self, mut keep: impl FnMut(&Connection) -> bool) {
        let owned = &mut self.owned;
        self.connections.retain(|c| {
            let kept = keep(c);
            if !kept && let Some(n) = owned.get_mut(&c.owner.key) {
                *n -= 1;
            }
            kept
        });
        owned.retain(|_, n| *n > 0);
    }

    /// Drops the connections made by script instance `key`.
    pub fn remove_owner(&mut self, key: u64) {
        self.retain(|c| c.owner.key != key);
    }

    /// Drops the connections whose target is in `ids`.
    pub fn remove_targets(&mut self, ids: &[Id]) {
        if ids.len() > 16 {
            let set: rustc_hash::FxHashSet<Id> = ids.iter().copied().collect();
            self.retain(|c| !set.contains(&c.target));
        } else {
            self.retain(|c| !ids.contains(&c.target));
        }
    }

    /// Number of connections.
    pub fn count(&self) -> usize {
        self.connections.len()
    }
}

fn this_signal(v: &Value) -> Option<Signal> {
    v.as_userdata()?.borrow::<Signal>().ok().map(|s| s.clone())
}

/// Most handlers running inside one another (an `Emit` in a handler of an `Emit` ...):
/// deeper, `Emit` raises [`EMIT_TOO_DEEP`] instead of running out of C stack.
pub const MAX_EMIT_DEPTH: u32 = 32;

/// The error of an `Emit` nested past [`MAX_EMIT_DEPTH`] handlers.
pub const EMIT_TOO_DEEP: &str = "Emit nested inside more than 32 signal handlers";

thread_local! {
    /// Handlers running now, innermost last.
    static EMIT_DEPTH: Cell<u32> = const { Cell::new(0) };
}

/// What a purity check has walked: the tables seen and the pairs read (the work charged to
/// the emitting entry).
#[derive(Default)]
struct PurityWalk {
    seen: rustc_hash::FxHashSet<usize>,
    pairs: usize,
}

/// Checks that `v` is pure data; returns a description of the first offending value.
fn impure(lua: &Lua, v: &Value, depth: usize, walk: &mut PurityWalk) -> Option<String> {
    match v {
        Value::Nil
        | Value::Boolean(_)
        | Value::Integer(_)
        | Value::Number(_)
        | Value::String(_)
        | Value::Vector(_) => None,
        Value::UserData(_) if crate::api::convert::instance_id(lua, v).is_some() => None,
        Value::Table(t) => {
            let p = t.to_pointer() as usize;
            if depth > 32 {
                return Some("a table nested deeper than 32 levels".to_owned());
            }
            if !walk.seen.insert(p) {
                return None; // checked already (a table may appear many times)
            }
            for pair in t.clone().pairs::<Value, Value>() {
                let Ok((k, v)) = pair else { return Some("an unreadable table".to_owned()) };
                walk.pairs += 1;
                if let Some(bad) =
                    impure(lua, &k, depth + 1, walk).or_else(|| impure(lua, &v, depth + 1, walk))
                {
                    return Some(bad);
                }
            }
            None
        }
        Value::Function(_) => Some("a function".to_owned()),
        Value::Thread(_) => Some("a coroutine".to_owned()),
        other => Some(format!("a {}", type_name(lua, other))),
    }
}

/// Registers `Connect` and `Emit` (`raw.signal`) on `table`.
pub fn register(lua: &Lua, table: &mlua::Table) -> Result<()> {
    table.set(
        "Connect",
        lua.create_function(|lua, (this, handler): (Value, Value)| -> Result<Status> {
            let Some(signal) = this_signal(&this) else {
                return fail(lua, "expected a Signal (use ':' to call methods)");
            };
            let Value::Function(handler) = handler else {
                return fail(lua, format!("Connect expects a function, got {}", type_name(lua, &handler)));
            };
            if !with_world(lua, |w| w.contains(signal.target))? {
                return fail(lua, DESTROYED);
            }
            let owner = running_stack(lua)?.current().unwrap_or(Running {
                key: 0,
                script: Id::NONE,
                name: Arc::from("engine"),
            });
            let connection = Connection { target: signal.target, name: signal.name, handler, owner };
            match with_state(lua, |s| s.signals.connect(connection))? {
                Ok(()) => ok(lua, Value::Nil),
                Err(m) => fail(lua, m),
            }
        })?,
    )?;
    table.set(
        "Emit",
        lua.create_function(|lua, args: MultiValue| -> Result<Status> {
            let mut args = args.into_iter();
            let Some(signal) = args.next().as_ref().and_then(this_signal) else {
                return fail(lua, "expected a Signal (use ':' to call methods)");
            };
            if !with_world(lua, |w| w.contains(signal.target))? {
                return fail(lua, DESTROYED);
            }
            if with_world(lua, |w| crate::session::is_session_signal(w.root(), &signal))? {
                return fail(lua, format!("{} is fired by the engine; scripts cannot emit it", signal.name));
            }
            if EMIT_DEPTH.with(Cell::get) >= MAX_EMIT_DEPTH {
                return fail(lua, EMIT_TOO_DEEP);
            }
            let payload: MultiValue = args.collect();
            let mut walk = PurityWalk::default();
            for (i, v) in payload.iter().enumerate() {
                if let Some(bad) = impure(lua, v, 0, &mut walk) {
                    return fail(lua, format!("Emit accepts pure data only: argument {} is {bad}", i + 1));
                }
            }
            // The walk is paid for after it ran: the payload was paid for when it was built,
            // and emitting it again in a loop fails at the next emit.
            if budget::charge(walk.pairs.saturating_mul(16), 0).is_err() {
                return fail(lua, budget::BUDGET_MESSAGE);
            }
            // Finding the handlers scans every connection.
            if budget::charge_instances(with_state(lua, |s| s.signals.count())?).is_err() {
                return fail(lua, budget::BUDGET_MESSAGE);
            }
            // A connection whose script was destroyed earlier in this tick is already gone,
            // even though the host retires it when the tick's events are drained.
            let handlers = handlers_of(lua, &signal)?;
            if handlers.is_empty() {
                let path = with_world(lua, |w| full_name(w, signal.target))?;
                crate::state::log(
                    lua,
                    Level::Warn,
                    &format!("signal '{}' of {path} has no listeners", signal.name),
                )?;
                return ok(lua, Value::Nil);
            }
            for (handler, owner) in handlers {
                // A handler may destroy the target: the ones after it are connected to a
                // destroyed instance and do not run.
                if !with_world(lua, |w| w.contains(signal.target))? {
                    break;
                }
                run_handler(lua, &handler, owner, payload.clone())?;
            }
            ok(lua, Value::Nil)
        })?,
    )?;
    Ok(())
}

/// The handlers connected to `signal`, with their owners, in connection order, leaving out
/// those whose script was destroyed earlier in this tick.
fn handlers_of(lua: &Lua, signal: &Signal) -> Result<Vec<(Function, Running)>> {
    let mut handlers: Vec<(Function, Running)> = with_state(lua, |s| {
        s.signals
            .connections
            .iter()
            .filter(|c| c.target == signal.target && c.name == signal.name)
            .map(|c| (c.handler.clone(), c.owner.clone()))
            .collect()
    })?;
    with_world(lua, |w| handlers.retain(|(_, o)| o.script.is_none() || w.contains(o.script)))?;
    Ok(handlers)
}

/// Whether any live handler is connected to `signal`.
pub(crate) fn has_handlers(lua: &Lua, signal: &Signal) -> Result<bool> {
    Ok(!handlers_of(lua, signal)?.is_empty())
}

/// Runs the handlers of `signal` with `args` from engine code (outside any entry: each
/// handler gets a fresh budget); errors are logged. No handler, no warning.
pub(crate) fn fire(lua: &Lua, signal: &Signal, args: MultiValue) -> Result<()> {
    for (handler, owner) in handlers_of(lua, signal)? {
        run_handler(lua, &handler, owner, args.clone())?;
    }
    Ok(())
}

/// Runs one handler, attributed to `owner`, on the budget of the entry that emitted (see
/// `budget`: a nested entry draws from the one that triggered it); errors are logged.
fn run_handler(lua: &Lua, handler: &Function, owner: Running, args: MultiValue) -> Result<()> {
    let name = owner.name.clone();
    let stack = running_stack(lua)?;
    let category = budget::enter_category(lua, budget::category_of(owner.key));
    stack.push(owner);
    let nested = budget::enter_nested();
    EMIT_DEPTH.with(|d| d.set(d.get() + 1));
    let result = handler.call::<()>(args);
    EMIT_DEPTH.with(|d| d.set(d.get() - 1));
    budget::leave_nested(nested);
    stack.pop();
    budget::enter_category(lua, category);
    with_state(lua, |s| {
        if let Err(e) = &result {
            s.log.push(Level::Error, format!("{name}: error: {}", error_text(e)));
        }
    })
}
