//! [`Runtime`]: every behaviour instance of a place and the queues between them, kept in the
//! VM's app data so the handlers' environment (`handler_env`) reaches it. The moment loop (`moment`) and the
//! transactions (`transaction`) drive it.
//!
//! Invariants: `queue` holds the running moment's deliveries and, between moments, only those
//! waiting for the next tick's behaviour share (`share`), in order; `by_node` maps each live
//! binding's `Behavior` instance to its index in `bindings`; at most one transaction is open
//! (`tx`), and while it is, the world has an undo scope open; nothing holds a borrow of the
//! runtime while Lua runs.

use super::binding::{Binding, BindingState};
use super::definition::Definition;
use super::report::BehaviorReport;
use super::share::BehaviorShare;
use super::value::Value;
use arbor_core::{BehaviorSettings, Id};
use rustc_hash::FxHashMap;
use std::collections::{BTreeMap, VecDeque};
use std::rc::Rc;

/// Index of a binding in [`Runtime::bindings`].
pub type BindingIndex = usize;

/// An event payload: entries by name, in name order.
pub type Payload = Vec<(String, Value)>;

/// What one transaction runs.
#[derive(Clone, Debug, PartialEq)]
pub enum Entry {
    /// The start transaction: the auto state's `enter`, then `ready`.
    Start,
    /// An event delivery.
    Event {
        /// Event name.
        name: String,
        /// Its payload.
        payload: Payload,
    },
    /// A declared timer's firing.
    DeclaredTimer {
        /// Timer name.
        name: String,
    },
    /// A started timer's firing (delivers its event without payload).
    StartedTimer {
        /// The event it delivers.
        name: String,
    },
}

impl Entry {
    /// How reports name the entry (`start`, `event Open`, `timer Restock`).
    pub fn label(&self) -> String {
        match self {
            Entry::Start => "start".to_owned(),
            Entry::Event { name, .. } => format!("event {name}"),
            Entry::DeclaredTimer { name } => format!("timer {name}"),
            Entry::StartedTimer { name } => format!("started timer {name}"),
        }
    }
}

/// A queued delivery.
#[derive(Clone, Debug)]
pub struct Delivery {
    /// The binding it goes to.
    pub binding: BindingIndex,
    /// What it runs.
    pub entry: Entry,
}

/// An event raised by a running transaction, published if it commits.
#[derive(Clone, Debug)]
pub struct Raised {
    /// The host whose bindings receive it.
    pub target: Id,
    /// Event name.
    pub name: String,
    /// Payload.
    pub payload: Payload,
}

/// A field a transaction wrote, and where it last wrote it.
pub struct FieldWrite {
    /// The host written.
    pub host: Id,
    /// The field's name.
    pub field: String,
    /// The definition whose chunk wrote it last.
    pub by: Rc<Definition>,
    /// The line of that chunk that wrote it last (`None`: no frame of the chunk was found).
    pub line: Option<usize>,
}

impl FieldWrite {
    /// Where the field was last written: `Door:14`, or the behaviour's name alone.
    pub fn at(&self) -> String {
        match self.line {
            Some(l) => format!("{}:{l}", self.by.name),
            None => self.by.name.clone(),
        }
    }
}

/// The open transaction.
pub struct Tx {
    /// What it runs (for reports).
    pub entry: String,
    /// The binding as it was when the transaction began.
    pub saved: BindingState,
    /// Fields written, in first-write order.
    pub fields: Vec<FieldWrite>,
    /// Events raised, in order.
    pub raised: Vec<Raised>,
    /// Log lines kept.
    pub log: Vec<String>,
    /// Whether lines were cut.
    pub log_cut: bool,
    /// The call stack at the first error, innermost first, captured by the error handler.
    pub stack: Vec<String>,
    /// The first error raised in the transaction (caught or not).
    pub error: Option<String>,
}

/// A definition that compiled, or why it did not.
pub type Compiled = Result<Rc<Definition>, String>;

/// Every behaviour instance of a place.
pub struct Runtime {
    /// Bindings in start order.
    pub bindings: Vec<Binding>,
    /// Live binding of each `Behavior` instance.
    pub by_node: FxHashMap<Id, BindingIndex>,
    /// Bindings of each host, in start order (removed ones included; readers skip them).
    pub by_host: FxHashMap<Id, Vec<BindingIndex>>,
    /// Each behaviour's definition, by name.
    pub definitions: BTreeMap<String, Compiled>,
    /// `Behavior` instances refused (by their check), so they are reported once.
    pub refused: FxHashMap<Id, String>,
    /// Bound instances whose start transaction has not run: the moment's transaction limit
    /// or the tick's behaviour share came first. They start first in the next moment.
    pub pending_starts: Vec<BindingIndex>,
    /// The running moment's deliveries; between moments, those waiting for the next tick's
    /// share (see `share`).
    pub queue: VecDeque<Delivery>,
    /// Events sent from outside behaviours (Scripts), delivered in the next moment.
    pub outside: Vec<Raised>,
    /// The open transaction.
    pub tx: Option<Tx>,
    /// The last world minute whose timers were queued.
    pub minute: Option<u64>,
    /// The world minute now.
    pub now: u64,
    /// The tick now (for reports).
    pub tick: u64,
    /// The game's settings.
    pub settings: BehaviorSettings,
    /// Error reports not yet taken.
    pub reports: Vec<BehaviorReport>,
    /// Error reports ever made.
    pub errors: u64,
    /// Transactions committed and rolled back, ever.
    pub committed: u64,
    /// Transactions rolled back, ever.
    pub rolled_back: u64,
    /// Whether the first error pauses the world (Play).
    pub play: bool,
    /// Paused by an error in Play.
    pub paused: bool,
    /// Seed of every instance's random generator.
    pub seed: u64,
    /// The topology revision bindings were looked for at.
    pub topology_seen: Option<u64>,
    /// The topology revision departures were last looked for at (a binding departs only
    /// through a move or a destroy, which bump it).
    pub departures_seen: Option<u64>,
    /// The tick's share of units for behaviour transactions.
    pub share: BehaviorShare,
}

impl Runtime {
    /// An empty runtime with `settings`, whose transactions share `tick_units` units a tick.
    pub fn new(settings: BehaviorSettings, seed: u64, tick_units: i64) -> Self {
        Self {
            bindings: Vec::new(),
            by_node: FxHashMap::default(),
            by_host: FxHashMap::default(),
            definitions: BTreeMap::new(),
            refused: FxHashMap::default(),
            pending_starts: Vec::new(),
            queue: VecDeque::new(),
            outside: Vec::new(),
            tx: None,
            minute: None,
            now: 0,
            tick: 0,
            settings,
            reports: Vec::new(),
            errors: 0,
            committed: 0,
            rolled_back: 0,
            play: false,
            paused: false,
            seed,
            topology_seen: None,
            departures_seen: None,
            share: BehaviorShare::new(tick_units),
        }
    }

    /// The live bindings hosted by `host`, in start order.
    pub fn hosted_by(&self, host: Id) -> impl Iterator<Item = BindingIndex> + '_ {
        let list = self.by_host.get(&host).map_or(&[][..], Vec::as_slice);
        list.iter().copied().filter(move |&i| {
            let b = &self.bindings[i];
            b.host == host && !b.removed && !b.closed
        })
    }

    /// Adds `binding`; returns its index.
    pub fn push(&mut self, binding: Binding) -> BindingIndex {
        let index = self.bindings.len();
        self.by_node.insert(binding.node, index);
        self.by_host.entry(binding.host).or_default().push(index);
        self.bindings.push(binding);
        index
    }

    /// The open transaction, or the error handlers' API raise when there is none.
    pub fn tx_mut(&mut self) -> Result<&mut Tx, String> {
        self.tx.as_mut().ok_or_else(|| "this can only be done inside a behaviour's handler".to_owned())
    }
}

/// Runs `f` with the runtime of `lua`'s host.
pub fn with_runtime<R>(lua: &mlua::Lua, f: impl FnOnce(&mut Runtime) -> R) -> mlua::Result<R> {
    let mut rt = lua
        .try_app_data_mut::<Runtime>()
        .map_err(|_| mlua::Error::runtime("the behaviour runtime is busy"))?
        .ok_or_else(|| mlua::Error::runtime("no behaviour runtime"))?;
    Ok(f(&mut rt))
}
