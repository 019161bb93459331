//! A moment (`docs/behaviours.md`, "Lifecycle"): one tick's round of deliveries. In order:
//! bindings that left the world are removed; new `Behavior` instances are checked and bound,
//! and each runs its start transaction in instance order, the events they raise held until
//! every one has started; declared and started timers due in the world minutes since the last
//! moment are queued; events Scripts sent are queued; then the queue is delivered, each
//! delivery one transaction, events raised by committed ones joining the back of the queue,
//! until it is empty, the moment's transaction limit is reached, or the tick's behaviour share
//! is used.
//!
//! At the limit the transaction that would go over fails (its binding closes: one error
//! report, the moment's only error) and what is still queued is dropped and logged, as a
//! warning, by type and count; the next moment starts afresh. Instances bound in the moment
//! whose start did not run yet start first in the next one.
//!
//! When the share is used (`share`), nothing fails: the starts not run start first in the
//! next moment, and the deliveries not run stay at the front of the queue, in order, ahead of
//! the next moment's timers and sends. At most `transactionsPerMoment` deliveries wait; the
//! newest past that are dropped. Waits and drops are reported as one warning at most once a
//! second.

use super::Behaviors;
use super::binding::{Binding, BindingState, Counters, check_binding, named_behavior, seeded_rng};
use super::report::BehaviorReport;
use super::runtime::{Delivery, Entry, Runtime, with_runtime};
use super::transaction::{self, Outcome, Publish};
use crate::instances::instance::Instance;
use crate::log::Level;
use crate::state::{with_state, with_world};
use arbor_core::{Arena, Class, Id, NodeFlags, raw::TopologyChange};
use mlua::Lua;
use std::collections::BTreeMap;

/// `Behavior` instances in the world that are neither bound nor refused, in id order: all of
/// them the first time, then those under nodes created or moved since `seen` (or all again
/// when the topology journal's history is gone).
fn unbound(w: &Arena, rt: &Runtime) -> (Vec<Id>, u64) {
    let fresh = |id: Id| {
        w.get(id).is_some_and(|n| n.class() == Class::Behavior && n.flags().contains(NodeFlags::IN_WORLD))
            && !rt.by_node.contains_key(&id)
            && !rt.refused.contains_key(&id)
    };
    let mut out: Vec<Id> = match rt.topology_seen.map(|s| w.topology_since(s)) {
        Some(Ok(changes)) => changes
            .filter_map(|(_, c)| match c {
                TopologyChange::Created { id, .. } | TopologyChange::Moved { id, .. } => Some(id),
                TopologyChange::Destroyed { .. } => None,
            })
            .flat_map(|r| w.subtree(r))
            .filter(|&id| fresh(id))
            .collect(),
        _ => w.iter().map(|n| n.id()).filter(|&id| fresh(id)).collect(),
    };
    out.sort_unstable();
    out.dedup();
    (out, w.revisions().topology)
}

/// A refusal report for `node` (its check failed, or its behaviour did not compile).
fn refusal(rt: &Runtime, path: String, behavior: String, message: String) -> BehaviorReport {
    BehaviorReport {
        behavior,
        binding: path,
        entry: "check".to_owned(),
        message,
        line: None,
        column: None,
        stack: Vec::new(),
        minute: rt.now,
        tick: rt.tick,
        log: Vec::new(),
        last_write: None,
    }
}

impl Behaviors {
    /// Removes bindings whose `Behavior` instance is gone, left the world or changed host:
    /// their timers and subscriptions go; the fields they wrote keep their values.
    pub(crate) fn remove_departed(&self, lua: &Lua) {
        let _ = with_world(lua, |w| {
            let _ = with_runtime(lua, |rt| {
                let topology = w.revisions().topology;
                if rt.departures_seen == Some(topology) {
                    return;
                }
                rt.departures_seen = Some(topology);
                let mut any = false;
                for b in rt.bindings.iter_mut().filter(|b| !b.removed) {
                    let stays = w.get(b.node).is_some_and(|n| {
                        n.parent() == Some(b.host) && n.flags().contains(NodeFlags::IN_WORLD)
                    });
                    if !stays {
                        b.removed = true;
                        b.live.timers.clear();
                        any = true;
                    }
                }
                if any {
                    rt.by_node.retain(|_, &mut i| !rt.bindings[i].removed);
                    rt.refused.retain(|&id, _| w.contains(id));
                }
            });
        });
    }

    /// Binds the new `Behavior` instances (checking each); returns the new bindings' indexes.
    pub(crate) fn bind_new(&self, lua: &Lua) -> Vec<usize> {
        let found = with_world(lua, |w| with_runtime(lua, |rt| unbound(w, rt)).ok()).ok().flatten();
        let Some((nodes, rev)) = found else { return Vec::new() };
        let _ = with_runtime(lua, |rt| rt.topology_seen = Some(rev));
        let mut started = Vec::new();
        for node in nodes {
            match self.bind(lua, node) {
                Ok(Some(i)) => started.push(i),
                Ok(None) => {}
                Err(report) => transaction::record(lua, report),
            }
        }
        started
    }

    /// Checks and binds one `Behavior` instance.
    // A refusal is the cold path, once per refused instance: boxing it would buy nothing.
    #[allow(clippy::result_large_err)]
    fn bind(&self, lua: &Lua, node: Id) -> Result<Option<usize>, BehaviorReport> {
        let checked = with_world(lua, |w| {
            with_runtime(lua, |rt| {
                let path = w.full_name(node);
                let name = match named_behavior(w, node) {
                    Ok(n) => n,
                    Err(m) => return Err(refusal(rt, path, String::new(), m)),
                };
                let def = match rt.definitions.get(&name) {
                    Some(Ok(def)) => def.clone(),
                    Some(Err(e)) => {
                        return Err(refusal(rt, path, name, format!("the behaviour did not load: {e}")));
                    }
                    None => {
                        return Err(refusal(
                            rt,
                            path,
                            name.clone(),
                            format!("no behaviour named '{name}' in the place"),
                        ));
                    }
                };
                let props = check_binding(w, node, &def).map_err(|m| refusal(rt, path, name, m))?;
                let host = w.get(node).and_then(|n| n.parent()).unwrap_or(Id::NONE);
                let key = w.get(node).and_then(|n| n.extras().persistent_id).map_or(node.0, |p| p.0 as u64);
                Ok((def, props, host, key))
            })
        });
        let (def, props, host, key) = match checked {
            Ok(Ok(Ok(x))) => x,
            Ok(Ok(Err(report))) => {
                let _ = with_runtime(lua, |rt| rt.refused.insert(node, report.message.clone()));
                return Err(report);
            }
            _ => return Ok(None),
        };
        let props_table = lua.create_table().map_err(|e| self.internal(lua, node, &e))?;
        for (p, v) in def.properties.iter().zip(&props) {
            let _ = v.to_lua(lua).and_then(|v| props_table.raw_set(p.name.as_str(), v));
        }
        let index = with_runtime(lua, |rt| rt.bindings.len()).unwrap_or(0);
        let handle: mlua::Table = self
            .make_self
            .call((index, Instance(host), props_table))
            .map_err(|e| self.internal(lua, node, &e))?;
        let _ = with_runtime(lua, |rt| {
            let live = BindingState {
                memory: def.initial_memory(),
                state: None,
                timers: Vec::new(),
                rng: seeded_rng(rt.seed, key),
                counters: Counters::default(),
            };
            let start_minute = rt.now;
            rt.push(Binding { node, host, def, live, start_minute, closed: false, removed: false, handle });
        });
        Ok(Some(index))
    }

    fn internal(&self, lua: &Lua, node: Id, e: &mlua::Error) -> BehaviorReport {
        let path = with_world(lua, |w| w.full_name(node)).unwrap_or_default();
        let message = format!("the VM could not build its instance: {}", crate::luau::convert::error_text(e));
        with_runtime(lua, |rt| refusal(rt, path, String::new(), message))
            .unwrap_or_else(|_| unreachable_report())
    }

    /// Runs one moment at world minute `minute` of tick `tick`.
    pub(crate) fn moment(&self, lua: &Lua, tick: u64, minute: u64) {
        let paused = with_runtime(lua, |rt| {
            rt.tick = tick;
            rt.now = minute;
            rt.share.begin_moment();
            rt.paused
        });
        if paused.unwrap_or(true) {
            return;
        }
        self.remove_departed(lua);
        let limit = with_runtime(lua, |rt| rt.settings.transactions_per_moment as u64).unwrap_or(0);
        let mut count = 0u64;
        let mut starts = with_runtime(lua, |rt| std::mem::take(&mut rt.pending_starts)).unwrap_or_default();
        starts.extend(self.bind_new(lua));
        let mut held = Vec::new();
        let mut over = None;
        for (k, &b) in starts.iter().enumerate() {
            // The share first: a start that waits for the next tick is not over any limit.
            let shared = with_runtime(lua, |rt| {
                let exhausted = rt.share.exhausted();
                if exhausted {
                    rt.pending_starts = starts[k..].to_vec();
                } else {
                    rt.share.took_start();
                }
                exhausted
            });
            if shared.unwrap_or(true) {
                break;
            }
            if count >= limit {
                over = Some(Delivery { binding: b, entry: Entry::Start });
                let rest = starts[k + 1..].to_vec();
                let _ = with_runtime(lua, |rt| rt.pending_starts = rest);
                break;
            }
            if transaction::run(lua, &self.wrapper, b, Entry::Start, Publish::Hold(&mut held))
                != Outcome::Skipped
            {
                count += 1;
            }
        }
        let _ = with_runtime(lua, |rt| {
            rt.queue.extend(held);
            queue_timers(rt, minute);
            let outside = std::mem::take(&mut rt.outside);
            let deliveries = transaction::deliveries_of(rt, outside);
            rt.queue.extend(deliveries);
        });
        if let Some(delivery) = over {
            // The limit came during the starts: this moment delivers nothing more.
            self.over_the_limit(lua, delivery, limit);
        } else {
            self.deliver(lua, count, limit);
        }
        self.end_moment(lua);
    }

    /// Delivers the queue, `count` transactions of the moment's `limit` already run, until it
    /// is empty, the limit is reached or the tick's share is used (the rest then waits).
    fn deliver(&self, lua: &Lua, mut count: u64, limit: u64) {
        loop {
            let next = with_runtime(lua, |rt| {
                if rt.share.exhausted() {
                    return None;
                }
                let d = rt.queue.pop_front()?;
                rt.share.took_delivery();
                Some(d)
            });
            let Ok(Some(delivery)) = next else { break };
            if count >= limit {
                self.over_the_limit(lua, delivery, limit);
                break;
            }
            if transaction::run(lua, &self.wrapper, delivery.binding, delivery.entry, Publish::Queue)
                != Outcome::Skipped
            {
                count += 1;
            }
        }
    }

    /// The end of a moment: bounds what waits for the next tick (at most the moment's
    /// transaction limit of deliveries; the newest past it are dropped), counts it, and logs
    /// the share's report when one is due.
    fn end_moment(&self, lua: &Lua) {
        let line = with_runtime(lua, |rt| {
            let bound = rt.settings.transactions_per_moment as usize;
            if rt.queue.len() > bound {
                let mut by_type: BTreeMap<String, u64> = BTreeMap::new();
                for d in rt.queue.drain(bound..) {
                    *by_type.entry(d.entry.label()).or_default() += 1;
                }
                rt.share.dropped(by_type, bound);
            }
            let (starts, deliveries) = (rt.pending_starts.len(), rt.queue.len());
            rt.share.carry(starts, deliveries);
            rt.share.report(rt.tick, starts + deliveries)
        });
        if let Ok(Some(line)) = line {
            let _ = with_state(lua, |s| s.log.push(Level::Warn, line));
        }
    }

    /// The moment's limit is reached: `delivery`'s transaction fails (its binding closes) and
    /// the rest of the queue is dropped and reported by type and count.
    fn over_the_limit(&self, lua: &Lua, delivery: Delivery, limit: u64) {
        let node =
            with_runtime(lua, |rt| rt.bindings.get(delivery.binding).map(|b| (b.node, b.def.name.clone())));
        let Ok(Some((node, behavior))) = node else { return };
        let path = with_world(lua, |w| w.full_name(node)).unwrap_or_default();
        let dropped = with_runtime(lua, |rt| {
            if let Some(b) = rt.bindings.get_mut(delivery.binding) {
                transaction::close(b);
            }
            let mut by_type: BTreeMap<String, u64> = BTreeMap::new();
            for d in rt.queue.drain(..) {
                *by_type.entry(d.entry.label()).or_default() += 1;
            }
            let report = BehaviorReport {
                message: format!("the moment's limit of {limit} transactions was reached"),
                entry: delivery.entry.label(),
                ..refusal(rt, path, behavior, String::new())
            };
            (report, by_type)
        });
        let Ok((report, by_type)) = dropped else { return };
        transaction::record(lua, report);
        if !by_type.is_empty() {
            let total: u64 = by_type.values().sum();
            let kinds: Vec<String> = by_type.iter().map(|(k, n)| format!("{k} ×{n}")).collect();
            let line = format!(
                "behaviours: {total} deliveries still queued at the moment's limit were not delivered: {}",
                kinds.join(", ")
            );
            // The binding that went over is the moment's one error (reported above); the
            // deliveries it cost are a consequence, logged as a warning.
            let _ = with_state(lua, |s| s.log.push(Level::Warn, line));
        }
    }
}

fn unreachable_report() -> BehaviorReport {
    BehaviorReport {
        behavior: String::new(),
        binding: String::new(),
        entry: "check".to_owned(),
        message: "the behaviour runtime is busy".to_owned(),
        line: None,
        column: None,
        stack: Vec::new(),
        minute: 0,
        tick: 0,
        log: Vec::new(),
        last_write: None,
    }
}

/// Queues the timers due in the world minutes after the last queued one, up to `minute`:
/// per minute, per binding in start order, its declared timers (never in its starting
/// minute), then its started timers due by then.
fn queue_timers(rt: &mut Runtime, minute: u64) {
    let first = match rt.minute {
        Some(last) if last >= minute => return,
        Some(last) => last + 1,
        None => minute,
    };
    rt.minute = Some(minute);
    // A long pause (a server that was not ticking) fires each timer once, not once per
    // missed minute.
    let first = first.max(minute.saturating_sub(60 * 24));
    for m in first..=minute {
        let mut due = Vec::new();
        for (i, b) in rt.bindings.iter_mut().enumerate() {
            if b.closed || b.removed {
                continue;
            }
            if m > b.start_minute {
                for t in b.def.timers_in(b.live.state.as_deref()) {
                    if m % t.every == 0 {
                        due.push(Delivery {
                            binding: i,
                            entry: Entry::DeclaredTimer { name: t.name.clone() },
                        });
                    }
                }
            }
            let fired = b.live.timers.partition_point(|t| t.due <= m);
            for t in b.live.timers.drain(..fired) {
                due.push(Delivery { binding: i, entry: Entry::StartedTimer { name: t.name } });
            }
        }
        rt.queue.extend(due);
    }
}
