//! Signals: `instance:GetSignal(name)` returns a [`Signal`]; `:Connect(fn)` registers a
//! handler; `:Emit(...)` runs every handler synchronously, in connection order, each as an
//! entry of its own: a fresh instruction budget, attributed (log lines, memory) to the script
//! that connected it (`budget::enter_handler`). A handler that overruns aborts itself, never
//! its emitter. Cascades are bounded by the tick: every handler's units count towards the
//! tick's share, and an `Emit` made once the share is used raises [`TICK_SHARE_USED`]
//! instead of running handlers.
//!
//! There is no `Disconnect`: connections go when the connecting script instance retires or
//! the target leaves the world (see `host`). Once the target is destroyed, `GetSignal`,
//! `Connect` and `Emit` raise `attempt to index a destroyed Instance` at once — in the same
//! tick too, before the host drops the connections — and a handler that destroys the target
//! stops the handlers after it. `Emit` accepts pure data only — nil, booleans,
//! numbers, strings, vectors, Instances and tables of those; a function or coroutine raises
//! at once — and each handler receives its own deep copy, without metatables (`payload`).
//! Emitting with no listeners logs a warning. Errors inside handlers are logged and
//! do not count towards the consecutive error counter; the handler stays connected.
//! Handlers nest at most [`MAX_EMIT_DEPTH`] deep: an `Emit` deeper raises [`EMIT_TOO_DEEP`].
//! A script instance holds at most [`MAX_CONNECTIONS_PER_SCRIPT`] connections; an `Emit`
//! pays one unit per connection it scans for handlers and one per 16 bytes of the payload
//! walk; each handler pays for its own copy.

mod payload;
pub(crate) mod reserved;

use crate::budget;
use crate::instances::props::DESTROYED;
use crate::log::Level;
use crate::luau::convert::{Status, error_text, fail, ok, type_name};
use crate::state::{Running, full_name, running_stack, with_state, with_world};
use arbor_core::Id;
use mlua::{Function, Lua, MultiValue, Result, UserData, UserDataFields, Value};
use payload::Payload;
use std::cell::Cell;
use std::rc::Rc;
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
        fields.add_meta_field_with("__index", |lua| crate::luau::prelude::prelude_field(lua, "signalIndex"));
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

/// Runs `f` with `lua`'s signal connections (the Lua state's app data, set by
/// [`register`]).
pub fn with_signals<R>(lua: &Lua, f: impl FnOnce(&mut Signals) -> R) -> Result<R> {
    let mut signals = lua
        .try_app_data_mut::<Signals>()
        .map_err(|_| mlua::Error::runtime("the signal registry is busy"))?
        .ok_or_else(|| mlua::Error::runtime("no script host"))?;
    Ok(f(&mut signals))
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

/// The error of an `Emit` made after the scripts of the tick used their share of it.
pub const TICK_SHARE_USED: &str =
    "Emit: the scripts of this tick have used their share of it; no handler runs until the next tick";

/// Registers `Connect` and `Emit` (`raw.signal`) on `table`.
pub fn register(lua: &Lua, table: &mlua::Table) -> Result<()> {
    payload::install(lua)?;
    lua.set_app_data(Signals::default());
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
            let owner = running_stack(lua)?.current().unwrap_or_else(Running::engine);
            let connection = Connection { target: signal.target, name: signal.name, handler, owner };
            match with_signals(lua, |s| s.connect(connection))? {
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
            if with_world(lua, |w| reserved::is_session_signal(w.root(), &signal))? {
                return fail(lua, format!("{} is fired by the engine; scripts cannot emit it", signal.name));
            }
            if EMIT_DEPTH.with(Cell::get) >= MAX_EMIT_DEPTH {
                return fail(lua, EMIT_TOO_DEEP);
            }
            if budget::phase_exhausted() {
                return fail(lua, TICK_SHARE_USED);
            }
            let payload = match Payload::check(lua, args.collect())? {
                Ok(p) => p,
                Err(m) => return fail(lua, m),
            };
            // The walk is paid for after it ran: the payload was paid for when it was built,
            // and emitting it again in a loop fails at the next emit.
            if budget::charge(payload.pairs.saturating_mul(16), 0).is_err() {
                return fail(lua, budget::BUDGET_MESSAGE);
            }
            // Finding the handlers scans every connection.
            if budget::charge_instances(with_signals(lua, |s| s.count())?).is_err() {
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
            match run_handlers(lua, &signal, handlers, &payload)? {
                0 => ok(lua, Value::Nil),
                skipped => fail(lua, format!("{TICK_SHARE_USED} ({skipped} handlers did not run)")),
            }
        })?,
    )?;
    Ok(())
}

/// The handlers connected to `signal`, with their owners, in connection order, leaving out
/// those whose script was destroyed earlier in this tick.
fn handlers_of(lua: &Lua, signal: &Signal) -> Result<Vec<(Function, Running)>> {
    let mut handlers: Vec<(Function, Running)> = with_signals(lua, |s| {
        s.connections
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

/// Runs the handlers of `signal` with `args` from engine code (outside any entry); errors
/// are logged, and so are handlers the tick's share left out. No handler, no warning.
pub(crate) fn fire(lua: &Lua, signal: &Signal, args: MultiValue) -> Result<()> {
    let handlers = handlers_of(lua, signal)?;
    let skipped = run_handlers(lua, signal, handlers, &Payload::engine(args))?;
    if skipped > 0 {
        let text = format!(
            "{}: the scripts of this tick have used their share of it; {skipped} handlers did not run",
            signal.name
        );
        with_state(lua, |s| s.log.push(Level::Warn, text))?;
    }
    Ok(())
}

/// Runs `handlers` of `signal` in order, each with its own copy of `payload`, until the
/// target is destroyed (the handlers after that are connected to a destroyed instance) or
/// the tick's share is used. Returns how many the share left out.
fn run_handlers(
    lua: &Lua,
    signal: &Signal,
    handlers: Vec<(Function, Running)>,
    payload: &Payload,
) -> Result<usize> {
    let n = handlers.len();
    for (i, (handler, owner)) in handlers.into_iter().enumerate() {
        if !with_world(lua, |w| w.contains(signal.target))? {
            break;
        }
        if budget::phase_exhausted() {
            return Ok(n - i);
        }
        run_handler(lua, &handler, owner, payload)?;
    }
    Ok(0)
}

/// Runs one handler as an entry of its own, attributed to `owner`: a fresh budget and
/// `owner`'s memory category, in which its copy of `payload` is made and metered. Errors
/// are logged; what the handler used counts towards the tick, not towards its emitter.
fn run_handler(lua: &Lua, handler: &Function, owner: Running, payload: &Payload) -> Result<()> {
    let (name, usage) = (owner.name.clone(), Rc::clone(&owner.usage));
    let stack = running_stack(lua)?;
    let category = budget::enter_category(lua, budget::category_of(owner.key));
    stack.push(owner);
    let entry = budget::enter_handler();
    EMIT_DEPTH.with(|d| d.set(d.get() + 1));
    let result = payload.copy(lua).and_then(|args| handler.call::<()>(args));
    EMIT_DEPTH.with(|d| d.set(d.get() - 1));
    let used = budget::leave_handler(entry);
    stack.pop();
    budget::enter_category(lua, category);
    usage.count(used, result.is_err());
    with_state(lua, |s| {
        if let Err(e) = &result {
            s.log.push(Level::Error, format!("{name}: error: {}", error_text(e)));
        }
    })
}
