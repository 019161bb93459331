//! [`Arena`]: the live place tree — lookup, revision stamping, event draining, slot
//! reclamation and snapshots. The rest lives in the sibling modules: `alloc` (node
//! allocation, checkpoints and rollback), `edit` (properties, attributes, tags, handles),
//! `hierarchy` (reparenting and queries), `destroy`, `copy` (clone and graft), `components`
//! (game-defined components), `component_queries` (chunk passes, ancestry queries),
//! `memory` (the memory report), `node_data`, `undo` (undo scopes: the journal the
//! mutation choke points feed and its rollback), `digest` (the world hash: its definition and
//! full recompute) and `world_hasher` (the world hash kept up to date from the revision logs).
//!
//! Invariants kept across every public call:
//! - parent and child links agree in both directions, and the tree has no cycle;
//! - a node's `IN_WORLD` flag is set exactly when it is the Workspace or under it;
//! - every mutation stamps the nodes it writes with one new global revision;
//! - a refused call changes nothing (validation runs before the first write);
//! - destroyed nodes are tombstones until the second event drain after their destruction.
//! - inside an undo scope every mutation is journaled before its first write, and a rollback
//!   leaves the world's content ([`Arena::world_hash`]) as it was when the scope opened.

mod alloc;
mod bulk;
mod component_fields;
mod component_queries;
mod components;
mod copy;
mod creation_window;
mod destroy;
mod digest;
mod edit;
mod graft_schemas;
mod hierarchy;
mod indexes;
mod memory;
mod node_data;
mod paths;
mod spawn;
mod text_budget;
mod undo;
mod world_hasher;

pub use bulk::{ArenaBuilder, NodeFields, NotFresh};
pub use component_queries::{AncestryQuery, LiveNodes};
pub use copy::GraftPolicy;
pub use edit::{MAX_ATTRIBUTES, NodeMut};
pub use hierarchy::SearchLimitReached;
pub use memory::MemoryReport;
pub use node_data::NodeData;
pub use world_hasher::{HasherStats, WorldHasher};

use crate::bounded_log::{BoundedLog, HistoryUnavailable, PART_WRITE_LOG_CAPACITY};
use crate::class::{Class, Family};
use crate::components::ComponentStore;
use crate::error::ArenaError;
use crate::events::InstanceEvent;
use crate::id::{Id, IdAllocator, IdRange, Slot};
use crate::names::{NameId, NamePool};
use crate::nodes::page::{NodePage, NodeRef};
use crate::nodes::snapshot::Snapshot;
use crate::nodes::store::NodeStore;
use crate::nodes::view::NodesView;
use crate::revision::Revisions;
use crate::rng::SplitMix64;
use crate::value::NodeFlags;
use components::RefHolders;
use indexes::Indexes;
use rustc_hash::FxHashMap;
use std::sync::Arc;

/// How an arena is set up.
#[derive(Clone, Debug)]
pub struct ArenaConfig {
    /// Which id range the arena mints from.
    pub id_range: IdRange,
    /// Most nodes (live and tombstones) the arena will hold; allocation beyond fails cleanly.
    pub max_nodes: usize,
    /// Seed for GUIDs and persistent ids (same seed, same operations → same ids).
    pub seed: u64,
    /// Capacity of the part-write log.
    pub part_write_log_capacity: usize,
    /// Capacity of the topology journal and the deletion log.
    pub journal_capacity: usize,
    /// Most nodes one creation window may allocate (see
    /// [`Arena::begin_creation_window`]).
    pub max_creations_per_window: usize,
    /// Most bytes of text (names, string attributes, string fields) the arena will hold;
    /// writes beyond fail cleanly (see [`Arena::max_text_bytes`]).
    pub max_text_bytes: usize,
    /// Most entries each archetype table keeps in each component's write log (tables also
    /// keep at most a quarter of their rows' worth beyond 1,024; older history makes
    /// `changed_since` scan revision groups instead).
    pub component_write_log_capacity: usize,
}

impl Default for ArenaConfig {
    fn default() -> Self {
        Self {
            id_range: IdRange::Server,
            max_nodes: u32::MAX as usize - 1,
            max_text_bytes: usize::MAX,
            max_creations_per_window: usize::MAX,
            seed: 0x00A7_B0E5_EED0_0001,
            part_write_log_capacity: PART_WRITE_LOG_CAPACITY,
            journal_capacity: PART_WRITE_LOG_CAPACITY,
            component_write_log_capacity: crate::components::WRITE_LOG_CAPACITY,
        }
    }
}

/// One entry of the topology journal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TopologyChange {
    /// A node was created (under `parent`).
    Created {
        /// The new node.
        id: Id,
        /// Its parent, if created attached.
        parent: Option<Id>,
    },
    /// A node (with its subtree) was moved under `parent` (`None`: detached).
    Moved {
        /// The moved root.
        id: Id,
        /// The new parent.
        parent: Option<Id>,
    },
    /// A subtree rooted at `id` was destroyed.
    Destroyed {
        /// The destroyed root.
        id: Id,
    },
}

/// The place tree: nodes, hierarchy, indexes, revisions, events and journals.
///
/// ```
/// use arbor_core::{Arena, Class};
/// let mut arena = Arena::new();
/// let ws = arena.workspace();
/// let model = arena.create(Class::Model, "Car", Some(ws)).unwrap();
/// let wheel = arena.create(Class::Part, "Wheel", Some(model)).unwrap();
/// assert_eq!(arena.find_first_child(model, "Wheel"), Some(wheel));
/// let snap = arena.snapshot();
/// arena.destroy(model).unwrap();
/// assert!(arena.get(wheel).is_none());
/// assert!(snap.get(wheel).is_some()); // the snapshot never changes
/// ```
pub struct Arena {
    pub(crate) store: NodeStore,
    pub(crate) names: Arc<NamePool>,
    /// The name [`intern`](Self::intern) returned last: loops creating many nodes of one name
    /// compare one string instead of hashing it each time. Needs no invalidation: a hit is
    /// checked against the pool's own text for the id, and ids never change meaning.
    last_name: NameId,
    ids: IdAllocator,
    config: ArenaConfig,
    pub(crate) revisions: Revisions,
    vacant: Vec<Slot>,
    live: usize,
    occupied: usize,
    /// Position of each slot's node in its parent's child array.
    child_pos: Vec<u32>,
    indexes: Indexes,
    /// Game-defined components (shared with snapshots).
    pub(crate) components: ComponentStore,
    /// Reverse index of component reference fields: target → holders.
    component_refs: FxHashMap<Id, RefHolders>,
    events: Vec<InstanceEvent>,
    doomed: Vec<Id>,
    reclaimable: Vec<Id>,
    part_writes: BoundedLog<Id>,
    /// Writes to in-world nodes that the part-write log does not name (not parts or models).
    node_writes: BoundedLog<Id>,
    topology: BoundedLog<TopologyChange>,
    deletions: BoundedLog<Id>,
    dirty_transforms: Vec<Id>,
    rng: SplitMix64,
    /// Ancestor chain of the last parent created under (parent, topology revision, chain).
    ancestor_cache: Option<(Id, u64, Arc<[Id]>)>,
    /// The running estimate of the text held (see `text_budget`).
    text: text_budget::TextBudget,
    /// The place's behaviour definitions and settings (`behaviors`).
    behaviors: crate::behaviors::BehaviorLibrary,
    /// Nodes allocated ever, and when the creation window opened (see `creation_window`).
    created: usize,
    window_start: usize,
    /// Moves and destructions so far (keys the ancestor cache).
    moves: u64,
    /// The open undo scope's journal (see `undo`); `None` outside a scope.
    undo: Option<undo::UndoJournal>,
    root: Id,
    workspace: Id,
}

/// `a == b`, comparing short strings (most names) inline: the call into `memcmp` was a
/// tenth of a one-node `create`.
#[inline]
fn same_text(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    if a.len() <= 16 { a.iter().zip(b).all(|(x, y)| x == y) } else { a == b }
}

impl Default for Arena {
    fn default() -> Self {
        Self::new()
    }
}

impl Arena {
    /// A server arena holding a `DataModel` root (id 1) and its `Workspace` (id 2).
    pub fn new() -> Self {
        Self::with_config(ArenaConfig::default())
    }

    /// An arena set up by `config`, holding a `DataModel` root and its `Workspace`.
    pub fn with_config(config: ArenaConfig) -> Self {
        let write_log_capacity = config.component_write_log_capacity;
        let mut arena = Arena {
            store: NodeStore::default(),
            names: Arc::new(NamePool::new()),
            last_name: NameId(0),
            ids: IdAllocator::new(config.id_range),
            part_writes: BoundedLog::new(config.part_write_log_capacity),
            node_writes: BoundedLog::new(config.part_write_log_capacity),
            topology: BoundedLog::new(config.journal_capacity),
            deletions: BoundedLog::new(config.journal_capacity),
            rng: SplitMix64(config.seed),
            config,
            revisions: Revisions::default(),
            vacant: Vec::new(),
            live: 0,
            occupied: 0,
            child_pos: Vec::new(),
            indexes: Indexes::default(),
            components: ComponentStore { write_log_capacity, ..ComponentStore::default() },
            component_refs: FxHashMap::default(),
            events: Vec::new(),
            doomed: Vec::new(),
            reclaimable: Vec::new(),
            dirty_transforms: Vec::new(),
            ancestor_cache: None,
            text: text_budget::TextBudget::default(),
            behaviors: crate::behaviors::BehaviorLibrary::default(),
            created: 0,
            window_start: 0,
            moves: 0,
            undo: None,
            root: Id::NONE,
            workspace: Id::NONE,
        };
        let rev = arena.revisions.bump();
        let root_name = arena.intern("Game");
        let ws_name = arena.intern("Workspace");
        let locked = NodeFlags::NEW.with(NodeFlags::LOCKED, true);
        arena.root = arena.new_node(None, Class::DataModel, root_name, locked, rev).expect("fresh arena");
        arena.workspace = arena
            .new_node(None, Class::Workspace, ws_name, locked.with(NodeFlags::IN_WORLD, true), rev)
            .expect("fresh arena");
        arena.link(arena.workspace, arena.root);
        arena.events.clear();
        arena
    }

    /// The place's behaviour definitions and settings.
    pub fn behaviors(&self) -> &crate::behaviors::BehaviorLibrary {
        &self.behaviors
    }

    /// The place's behaviour definitions and settings, to change (not journaled by undo
    /// scopes: they are the place's code, not its world).
    pub fn behaviors_mut(&mut self) -> &mut crate::behaviors::BehaviorLibrary {
        &mut self.behaviors
    }

    /// The `DataModel` root.
    pub fn root(&self) -> Id {
        self.root
    }

    /// The `Workspace`: nodes under it are in the world.
    pub fn workspace(&self) -> Id {
        self.workspace
    }

    /// Most nodes (live and tombstones) the arena holds: past it, creating, cloning and
    /// spawning are refused with [`ArenaError::Full`], changing nothing.
    pub fn max_nodes(&self) -> usize {
        self.config.max_nodes
    }

    /// Sets [`max_nodes`](Self::max_nodes) (not below the nodes already held, which stay).
    pub fn set_max_nodes(&mut self, max: usize) {
        self.config.max_nodes = max.max(self.occupied);
    }

    /// The live node with `id`.
    #[inline]
    pub fn get(&self, id: Id) -> Option<NodeRef<'_>> {
        self.store.live(id)
    }

    /// The physical slot of live node `id` (engine passes keep dense columns by slot; a
    /// slot is reused only after the node's reclamation).
    #[inline]
    pub fn slot(&self, id: Id) -> Option<Slot> {
        self.live_slot(id).ok()
    }

    /// Number of slots ever used (an upper bound for slot-indexed columns).
    pub fn slot_capacity(&self) -> usize {
        self.store.slots as usize
    }

    /// A read-only view of every node page, for passes that visit many nodes by slot (see
    /// [`NodesView`]). Building it costs one pointer copy per 64 slots.
    pub fn nodes_view(&self) -> NodesView<'_> {
        NodesView::new(&self.store)
    }

    /// Whether `id` names a live node.
    #[inline]
    pub fn contains(&self, id: Id) -> bool {
        self.get(id).is_some()
    }

    /// The live node with `id`, or why there is none.
    pub fn node(&self, id: Id) -> Result<NodeRef<'_>, ArenaError> {
        match self.store.node(id) {
            Some(n) if n.is_destroyed() => Err(ArenaError::Destroyed(id)),
            Some(n) => Ok(n),
            None => Err(ArenaError::NotFound(id)),
        }
    }

    /// Live nodes.
    pub fn len(&self) -> usize {
        self.live
    }

    /// Whether the arena holds no live node (never true: the root always exists).
    pub fn is_empty(&self) -> bool {
        self.live == 0
    }

    /// Every live node, in slot order.
    pub fn iter(&self) -> impl Iterator<Item = NodeRef<'_>> + '_ {
        self.store.iter().filter(|n| !n.is_destroyed())
    }

    /// The name pool.
    pub fn names(&self) -> &NamePool {
        &self.names
    }

    /// The text of a node's name.
    pub fn name_of(&self, id: Id) -> Option<&str> {
        self.get(id).map(|n| self.names.text(n.name()))
    }

    /// Interns `text` (copying the pool once if a snapshot shares it).
    #[inline]
    pub fn intern(&mut self, text: &str) -> NameId {
        let last = self.last_name;
        if self.names.shared_text(last).is_some_and(|t| same_text(t, text)) {
            return last;
        }
        self.intern_slow(text)
    }

    #[inline(never)]
    fn intern_slow(&mut self, text: &str) -> NameId {
        let id = match self.names.find(text) {
            Some(id) => id,
            None => Arc::make_mut(&mut self.names).intern(text),
        };
        self.last_name = id;
        id
    }

    /// The id the next allocation would mint.
    pub(crate) fn ids_peek(&self) -> u64 {
        self.ids.peek()
    }

    /// Current revision counters.
    pub fn revisions(&self) -> &Revisions {
        &self.revisions
    }

    /// The part-write log after revision `since` (oldest first, possibly repeated), or
    /// [`HistoryUnavailable`]: parts and models written, or entering or leaving the world,
    /// and every other in-world node with children whose transform was written or that was
    /// moved (a Folder, a Character...). An entry that is not a part, or a part with
    /// children, means the world poses of the parts below it may have changed: consumers
    /// expand it ([`NodeRef::moves_parts_below`]).
    pub fn part_writes_since(&self, since: u64) -> Result<impl Iterator<Item = Id> + '_, HistoryUnavailable> {
        Ok(self.part_writes.since(since)?.map(|(_, id)| *id))
    }

    /// In-world nodes other than parts and models whose state was written after revision
    /// `since` (oldest first, possibly repeated), or [`HistoryUnavailable`]. With
    /// [`part_writes_since`](Self::part_writes_since) it names every in-world node whose own
    /// state was written; creation, moves and destruction are in the topology journal.
    pub fn node_writes_since(&self, since: u64) -> Result<impl Iterator<Item = Id> + '_, HistoryUnavailable> {
        Ok(self.node_writes.since(since)?.map(|(_, id)| *id))
    }

    /// Topology changes after revision `since`, or [`HistoryUnavailable`].
    pub fn topology_since(
        &self,
        since: u64,
    ) -> Result<impl Iterator<Item = (u64, TopologyChange)> + '_, HistoryUnavailable> {
        Ok(self.topology.since(since)?.copied())
    }

    /// Ids destroyed after revision `since` (for replication), or [`HistoryUnavailable`].
    pub fn deletions_since(&self, since: u64) -> Result<impl Iterator<Item = Id> + '_, HistoryUnavailable> {
        Ok(self.deletions.since(since)?.map(|(_, id)| *id))
    }

    /// The live in-world members of `family`, as one shared list rebuilt only after
    /// membership changed.
    pub fn family(&self, family: Family) -> Arc<[Id]> {
        self.indexes.family_list(family)
    }

    /// Takes the nodes whose transform became dirty (written, or moved with their subtree)
    /// since the last call. A node may appear more than once.
    pub fn take_dirty_transforms(&mut self) -> Vec<Id> {
        std::mem::take(&mut self.dirty_transforms)
    }

    /// Events queued so far, without draining them.
    pub fn pending_events(&self) -> &[InstanceEvent] {
        &self.events
    }

    /// Returns the queued events. Nodes destroyed before this drain become reclaimable;
    /// nodes made reclaimable by the previous drain are freed now, so tombstones stay
    /// readable to the consumers of the batch that announced them.
    ///
    /// Callers must not drain inside an undo scope ([`Arena::begin_undo`]): the events of a
    /// scope that rolls back must reach no one, and freeing tombstones would leave nothing
    /// for the rollback to revive (debug builds assert it).
    pub fn drain_events(&mut self) -> Vec<InstanceEvent> {
        debug_assert!(self.undo.is_none(), "drain_events inside an undo scope");
        for id in std::mem::take(&mut self.reclaimable) {
            self.free_node(id);
        }
        self.reclaimable = std::mem::take(&mut self.doomed);
        std::mem::take(&mut self.events)
    }

    /// A copy-on-write snapshot: shares every page, copies the top-level page table.
    pub fn snapshot(&self) -> Snapshot {
        Snapshot::new(
            self.store.clone(),
            self.names.clone(),
            self.components.clone(),
            self.revisions,
            self.root,
            self.workspace,
            self.live,
        )
    }

    // ---- internals shared by the edit modules ----

    /// The slot of live node `id`.
    #[inline]
    pub(crate) fn live_slot(&self, id: Id) -> Result<Slot, ArenaError> {
        // The direct slot: one page-table walk finds the node and its flags.
        if let Some(slot) = id.direct_slot()
            && slot.0 < self.store.slots
            && let Some((page, i)) = self.store.table.page(slot.0)
            && page.hot[i].id == id
        {
            // Id and flags share the node's hot record: one cache line.
            if page.hot[i].flags.contains(NodeFlags::DESTROYED) {
                return Err(ArenaError::Destroyed(id));
            }
            return Ok(slot);
        }
        self.live_slot_mapped(id)
    }

    /// [`live_slot`](Self::live_slot) for an id off its direct slot (out of line).
    #[cold]
    #[inline(never)]
    fn live_slot_mapped(&self, id: Id) -> Result<Slot, ArenaError> {
        let slot = self.store.locate(id).ok_or(ArenaError::NotFound(id))?;
        let (page, i) = self.store.table.page(slot.0).expect("located slot");
        if page.hot[i].flags.contains(NodeFlags::DESTROYED) {
            return Err(ArenaError::Destroyed(id));
        }
        Ok(slot)
    }

    #[inline]
    pub(crate) fn slot_of(&self, id: Id) -> Slot {
        self.store.locate(id).expect("node of a consistent tree")
    }

    #[inline]
    pub(crate) fn read(&self, slot: Slot) -> NodeRef<'_> {
        self.store.at(slot).expect("occupied slot")
    }

    #[inline]
    pub(crate) fn page_mut(&mut self, slot: Slot) -> (&mut NodePage, usize) {
        self.store.table.page_mut(slot.0)
    }

    /// Stamps the node in `slot` as written at `rev` and feeds the domains its class watches.
    /// Revision, class, flags and id share the node's hot record: one cache line.
    pub(crate) fn stamp(&mut self, slot: Slot, rev: u64) {
        let (page, i) = self.store.table.page_mut(slot.0);
        let hot = &mut page.hot[i];
        hot.revision = rev;
        let (class, flags, id) = (hot.class, hot.flags, hot.id);
        if flags.contains(NodeFlags::IN_WORLD) {
            if matches!(class, Class::Part | Class::Model) {
                self.part_writes.push(rev, id);
            } else {
                self.node_writes.push(rev, id);
            }
        }
        if let Some(f) = class.family() {
            self.revisions.families[f.index()] = rev;
        }
        if class.is_animation() {
            self.revisions.animation = rev;
        }
    }

    /// Logs the node in `slot` as a moved container when it is in the world, has children
    /// and is not already logged by [`stamp`](Self::stamp) (parts and models are): the world
    /// poses below it changed, whatever its class.
    pub(crate) fn log_container_move(&mut self, slot: Slot, rev: u64) {
        let node = self.read(slot);
        let (class, flags, id) = (node.class(), node.flags(), node.id());
        if flags.contains(NodeFlags::IN_WORLD)
            && flags.contains(NodeFlags::HAS_CHILDREN)
            && !matches!(class, Class::Part | Class::Model)
        {
            self.part_writes.push(rev, id);
        }
    }
}

#[cfg(test)]
mod tests;

#[cfg(test)]
mod undo_tests;
