//! One transaction (`docs/behaviours.md`, "Transactions and errors"): a start, an event
//! delivery or a timer firing, run over the world with an undo scope open and the binding's
//! state saved, under the game's budgets. A transaction that succeeds (and whose written fields
//! pass the game's checks) commits and publishes the events it raised; one that fails is undone
//! whole, world and binding, and its binding closes with a [`BehaviorReport`].
//!
//! Invariant: when `run` returns, no transaction is open and the world has no undo scope.

use super::binding::Binding;
use super::report::{BehaviorReport, split_location, statement_column};
use super::runtime::{BindingIndex, Delivery, Entry, Raised, Tx, with_runtime};
use super::value::Value;
use crate::budget;
use crate::log::Level;
use crate::luau::convert::error_text;
use crate::state::{with_state, with_world};
use arbor_core::Arena;
use mlua::{Function, Lua};

/// How a transaction ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Nothing ran (a closed or removed binding, or no handler for the delivery).
    Skipped,
    /// It committed.
    Committed,
    /// It failed and was undone; its binding closed.
    Failed,
}

/// Where a committed transaction's events go: the running moment's queue, or the list held
/// until every instance of a start round has started.
pub enum Publish<'a> {
    /// Deliver in this moment, after what is queued.
    Queue,
    /// Hold for after the starts.
    Hold(&'a mut Vec<Delivery>),
}

/// The handlers `entry` runs on `binding`, or `None` if it runs nothing.
fn handlers(binding: &Binding, entry: &Entry) -> Option<Vec<Function>> {
    let def = &binding.def;
    let state = binding.live.state.as_deref();
    let fns: Vec<Function> = match entry {
        Entry::Start => {
            let enter = def.auto.as_deref().and_then(|a| def.states.get(a)).and_then(|s| s.enter.clone());
            return Some(enter.into_iter().chain(def.ready.clone()).collect());
        }
        Entry::Event { name, .. } | Entry::StartedTimer { name } => {
            def.handler(state, name).cloned().into_iter().collect()
        }
        Entry::DeclaredTimer { name } => {
            def.timers_in(state).find(|t| t.name == *name).map(|t| t.run.clone()).into_iter().collect()
        }
    };
    (!fns.is_empty()).then_some(fns)
}

/// The text of an error value a handler raised.
fn error_value_text(v: &mlua::Value) -> String {
    match v {
        mlua::Value::String(s) => s.to_string_lossy(),
        mlua::Value::Error(e) => error_text(e),
        other => format!("(an error value of type {})", other.type_name()),
    }
}

/// The error a written field's check gives at commit, with the line that last wrote it
/// (`world`: `None` when it cannot be read, as if every field were removed).
fn failed_field_check(world: Option<&Arena>, tx: &Tx, binding: &Binding) -> Option<(String, String)> {
    for write in &tx.fields {
        let spec = binding.def.field(&write.field)?;
        let value = world.and_then(|w| w.attribute(write.host, &write.field));
        let problem = match value.map(|a| Value::from_attribute(a, spec.kind)) {
            Some(Ok(v)) => spec.check(&v),
            Some(Err(e)) => Some(e),
            None => Some("it was removed".to_owned()),
        };
        if let Some(why) = problem {
            return Some((format!("field '{}' failed its check: {why}", write.field), write.at()));
        }
    }
    None
}

/// Runs `entry` on binding `b` as one transaction. `wrapper` is the `xpcall` wrapper that
/// captures the call stack at an error.
pub fn run(lua: &Lua, wrapper: &Wrapper, b: BindingIndex, entry: Entry, publish: Publish<'_>) -> Outcome {
    let planned = with_runtime(lua, |rt| {
        let binding = rt.bindings.get(b)?;
        if binding.closed || binding.removed {
            return None;
        }
        Some((handlers(binding, &entry)?, binding.handle.clone()))
    });
    let Ok(Some((fns, handle))) = planned else { return Outcome::Skipped };
    let payload = match &entry {
        Entry::Event { payload, .. } => super::handler_env::payload_table(lua, payload).ok(),
        _ => None,
    };
    let body = Body { label: entry.label(), fns, handle, payload, start: entry == Entry::Start };
    run_body(lua, wrapper, b, body, publish, true)
}

/// What one transaction calls.
pub struct Body {
    /// How reports name it.
    pub label: String,
    /// The functions, called in order with `(self, payload)`.
    pub fns: Vec<Function>,
    /// The binding's `self`.
    pub handle: mlua::Table,
    /// The payload, for an event.
    pub payload: Option<mlua::Table>,
    /// A start transaction (enters the auto state first).
    pub start: bool,
}

/// Runs `body` on binding `b` as one transaction; on an error the binding closes if
/// `close_on_error` (a migration's error cancels the migration instead, which the caller
/// does).
pub fn run_body(
    lua: &Lua,
    wrapper: &Wrapper,
    b: BindingIndex,
    body: Body,
    publish: Publish<'_>,
    close_on_error: bool,
) -> Outcome {
    let opened = with_runtime(lua, |rt| {
        let settings = rt.settings;
        let binding = rt.bindings.get_mut(b)?;
        let saved = binding.live.clone();
        if body.start {
            binding.live.state = binding.def.auto.clone();
        }
        rt.tx = Some(Tx {
            entry: body.label.clone(),
            saved,
            fields: Vec::new(),
            raised: Vec::new(),
            log: Vec::new(),
            log_cut: false,
            stack: Vec::new(),
            error: None,
        });
        Some(settings)
    });
    let Ok(Some(settings)) = opened else { return Outcome::Skipped };
    let begun = with_world(lua, |w| w.begin_undo().map_err(|e| e.to_string())).map_err(|e| e.to_string());
    if let Err(e) = begun.and_then(|r| r) {
        let _ = with_runtime(lua, |rt| {
            if let (Some(tx), Some(binding)) = (rt.tx.take(), rt.bindings.get_mut(b)) {
                binding.live = tx.saved;
            }
        });
        let _ = with_state(lua, |s| {
            s.log.push(Level::Error, format!("behaviours: cannot open a transaction: {e}"))
        });
        return Outcome::Skipped;
    }
    let units = i64::try_from(settings.units_per_transaction).unwrap_or(i64::MAX);
    let bytes = i64::try_from(settings.memory_per_transaction).unwrap_or(i64::MAX);
    let budget = budget::enter_transaction(units, bytes);
    let mut error: Option<(String, Option<String>)> = None;
    for f in body.fns {
        match wrapper.call(f, &body.handle, &body.payload) {
            Ok((true, _)) => {}
            Ok((false, e)) => {
                error = Some((error_value_text(&e), None));
                break;
            }
            Err(e) => {
                error = Some((error_text(&e), None));
                break;
            }
        }
    }
    let (used, _) = budget::leave_transaction(budget);
    let tx = with_runtime(lua, |rt| {
        rt.share.charge(used);
        rt.tx.take()
    })
    .ok()
    .flatten();
    let Some(mut tx) = tx else {
        let _ = with_world(lua, |w| w.rollback_undo());
        return Outcome::Failed;
    };
    // The first error the handler saw is the one to report (a pcall may have caught it, but
    // an exhausted budget raises again at the next check).
    if let (Some(e), Some(first)) = (error.as_mut(), tx.error.take()) {
        e.0 = first;
    }
    if error.is_none() {
        let check = with_runtime(lua, |rt| {
            let binding = rt.bindings.get(b)?;
            with_world(lua, |w| failed_field_check(Some(w), &tx, binding))
                .unwrap_or_else(|_| failed_field_check(None, &tx, binding))
        });
        error = check.ok().flatten().map(|(m, at)| (m, Some(at)));
    }
    match error {
        None => commit(lua, b, tx, publish),
        Some((message, last_write)) => fail(lua, b, tx, &message, last_write, close_on_error),
    }
}

fn commit(lua: &Lua, b: BindingIndex, tx: Tx, publish: Publish<'_>) -> Outcome {
    let node = if tx.log.is_empty() { None } else { Some(tx_node(lua, b)) };
    let path = with_world(lua, |w| {
        w.commit_undo();
        node.map(|n| w.full_name(n))
    })
    .unwrap_or_else(|_| node.map(|_| String::new()));
    if let Some(path) = path {
        let lines: Vec<String> = tx.log.iter().map(|l| format!("{path}: {l}")).collect();
        let _ = with_state(lua, |s| lines.into_iter().for_each(|l| s.log.push(Level::Info, l)));
    }
    let _ = with_runtime(lua, |rt| {
        rt.committed += 1;
        let raised = tx.raised.len() as u64;
        if let Some(binding) = rt.bindings.get_mut(b) {
            binding.live.counters.committed += 1;
            binding.live.counters.events_raised += raised;
        }
        let deliveries = deliveries_of(rt, tx.raised);
        match publish {
            Publish::Queue => rt.queue.extend(deliveries),
            Publish::Hold(list) => list.extend(deliveries),
        }
    });
    Outcome::Committed
}

/// The deliveries of published events: each to every open binding hosted by its target, in
/// start order.
pub fn deliveries_of(rt: &super::runtime::Runtime, raised: Vec<Raised>) -> Vec<Delivery> {
    let mut out = Vec::new();
    for r in raised {
        let targets: Vec<BindingIndex> = rt.hosted_by(r.target).collect();
        for t in targets {
            out.push(Delivery {
                binding: t,
                entry: Entry::Event { name: r.name.clone(), payload: r.payload.clone() },
            });
        }
    }
    out
}

fn tx_node(lua: &Lua, b: BindingIndex) -> arbor_core::Id {
    with_runtime(lua, |rt| rt.bindings.get(b).map(|x| x.node)).ok().flatten().unwrap_or(arbor_core::Id::NONE)
}

fn fail(
    lua: &Lua,
    b: BindingIndex,
    tx: Tx,
    message: &str,
    last_write: Option<String>,
    close_on_error: bool,
) -> Outcome {
    let _ = with_world(lua, |w| w.rollback_undo());
    let node = tx_node(lua, b);
    let path = with_world(lua, |w| w.full_name(node)).unwrap_or_default();
    let report = with_runtime(lua, |rt| {
        rt.rolled_back += 1;
        let (minute, tick) = (rt.now, rt.tick);
        let binding = rt.bindings.get_mut(b)?;
        binding.live = tx.saved;
        if close_on_error {
            close(binding);
        }
        let def = binding.def.clone();
        let (mut line, text) = split_location(&def.name, message);
        let mut text = text.to_owned();
        if let Some(at) = &last_write {
            line = split_location(&def.name, &format!("{at}: ")).0.or(line);
        }
        if line.is_none() {
            text = message.to_owned();
        }
        Some(BehaviorReport {
            behavior: def.name.clone(),
            binding: path.clone(),
            entry: tx.entry.clone(),
            message: text,
            line,
            column: line.and_then(|l| statement_column(&def.source, l)),
            stack: tx.stack.clone(),
            minute,
            tick,
            log: tx.log.clone(),
            last_write,
        })
    });
    if let Ok(Some(report)) = report {
        record(lua, report);
    }
    Outcome::Failed
}

/// Closes `binding`: its timers go, and it gets no more deliveries.
pub fn close(binding: &mut Binding) {
    binding.closed = true;
    binding.live.timers.clear();
}

/// Logs `report` and keeps it; in Play, pauses the world.
pub fn record(lua: &Lua, report: BehaviorReport) {
    let text = report.to_string();
    let _ = with_state(lua, |s| s.log.push(Level::Error, text));
    let _ = with_runtime(lua, |rt| {
        rt.errors += 1;
        if rt.play {
            rt.paused = true;
        }
        rt.reports.push(report);
    });
}

/// The `xpcall` call a transaction runs its handlers through: `call(f, self, payload)` runs
/// `f(self, payload)` in Luau's own `xpcall` with a Rust message handler that, on an error,
/// records the error and the call stack in the open transaction before the stack unwinds.
/// `xpcall` is called from Rust directly: no Lua frame of the engine's sits between the
/// handler and the host, so an exhausted budget cannot raise a second error over the first.
pub struct Wrapper {
    xpcall: Function,
    handler: Function,
}

impl Wrapper {
    /// Runs `f(handle, payload)` under the handler; `(false, error)` when it raised.
    fn call(
        &self,
        f: Function,
        handle: &mlua::Table,
        payload: &Option<mlua::Table>,
    ) -> mlua::Result<(bool, mlua::Value)> {
        self.xpcall.call::<(bool, mlua::Value)>((f, &self.handler, handle, payload.as_ref()))
    }
}

/// Makes the [`Wrapper`] over the Scripts' base `base` (whose `xpcall` is Luau's).
pub fn make_wrapper(lua: &Lua, base: &mlua::Table) -> mlua::Result<Wrapper> {
    let handler = lua.create_function(|lua, e: mlua::Value| {
        let mut stack = Vec::new();
        for level in 1..24 {
            let frame = lua.inspect_stack(level, |d| {
                let src = d.source();
                let name = d.names().name.map(|n| n.into_owned());
                (src.what, src.short_src.map(|s| s.into_owned()), d.current_line(), name)
            });
            let Some((what, src, line, name)) = frame else { break };
            if what != "Lua" {
                continue;
            }
            let src = src.unwrap_or_default();
            if src.starts_with("arbor-") {
                continue;
            }
            let at = match line {
                Some(l) => format!("{src}:{l}"),
                None => src,
            };
            stack.push(match name {
                Some(n) => format!("{at} in {n}"),
                None => format!("{at} in a function"),
            });
        }
        let text = error_value_text(&e);
        let _ = with_runtime(lua, |rt| {
            if let Some(tx) = rt.tx.as_mut()
                && tx.error.is_none()
            {
                tx.stack = stack;
                tx.error = Some(text);
            }
        });
        Ok(e)
    })?;
    Ok(Wrapper { xpcall: base.raw_get("xpcall")?, handler })
}
