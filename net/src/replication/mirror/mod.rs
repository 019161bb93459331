//! [`Mirror`]: the server's replicated view of the place, shared by every client. Once per
//! network tick ([`Mirror::capture`]) it reads what changed in the arena since its last
//! capture — the part-write and node-write logs, the topology journal and the deletion log —
//! re-captures only those instances, and records for each of its [`Groups`] the epoch in
//! which it last changed. Per-client views read those epochs; nothing per client rescans the
//! place.
//!
//! What replicates: the `Workspace` and its subtree, and the top-level `Prefabs` folder and
//! its subtree (the templates `game.Prefabs.Spawn` copies, structure for every client), except
//! server-only `Script`s (a
//! `RunContext` other than `Client` or `Both`) and what is under any Script (a client Script
//! replicates as an instance, without its source: its code travels on its own channel, see
//! `server::script_shipping`); with each instance, its game-defined components except those named in
//! [`Mirror::exclude_component`] (by default `Lifetime`, a server-side countdown rewritten
//! every tick, and `MoveIntent`, the owner's input the character controller reads, rewritten
//! whenever the input changes: other clients see the motion it causes). Component writes
//! made chunk by chunk (systems) are found through the component store's change detection,
//! the rest through the node logs. Streaming units: a *top part* (a `Part` with no `Part`
//! above it) and its subtree stream in and out together; everything not under a part
//! (folders, models, the Workspace) is *structure*, sent to every client. So a client never
//! holds an orphan.
//!
//! Invariants: every mirrored entity's parent is mirrored (or is the `DataModel`); an
//! entity's `unit` is its top part (itself for a top part, [`Id::NONE`] for structure);
//! `cells` holds exactly the top parts, each under the cell of its world position, and
//! `structure` exactly the mirrored instances whose unit is [`Id::NONE`]; epochs
//! start at 1, so a client record confirmed at epoch 0 has seen nothing.

mod changes;
mod entity;

pub use changes::Changes;
pub use entity::MirrorEntity;

use crate::replication::cell::{Cell, CellChanges, cell_of};
use crate::wire::{EntityState, Groups, WireValue};
use arbor_core::{Arena, Class, Id};
use glam::Vec3;
use rustc_hash::{FxHashMap, FxHashSet};

/// The server's replicated view of the place.
#[derive(Debug)]
pub struct Mirror {
    epoch: u32,
    since: Option<u64>,
    entities: FxHashMap<Id, MirrorEntity>,
    cells: FxHashMap<Cell, FxHashSet<Id>>,
    /// The mirrored instances that are structure (`unit` is [`Id::NONE`]).
    structure: FxHashSet<Id>,
    changes: Changes,
    root: Id,
    /// Components not replicated, by name.
    excluded: Vec<String>,
    /// The components replicated, as of the last capture.
    replicated: Vec<arbor_core::components::ComponentId>,
}

impl Default for Mirror {
    fn default() -> Self {
        Self::new()
    }
}

impl Mirror {
    /// An empty mirror; the first capture fills it.
    pub fn new() -> Self {
        Self {
            epoch: 0,
            since: None,
            entities: FxHashMap::default(),
            cells: FxHashMap::default(),
            structure: FxHashSet::default(),
            changes: Changes::default(),
            root: Id::NONE,
            excluded: vec![
                arbor_sim::lifetime::LIFETIME.to_owned(),
                arbor_sim::players::MOVE_INTENT.to_owned(),
            ],
            replicated: Vec::new(),
        }
    }

    /// Stops replicating component `name` (takes effect at the next capture).
    pub fn exclude_component(&mut self, name: &str) {
        self.excluded.push(name.to_owned());
        self.since = None; // the next capture compares everything
    }

    fn capture_state(&self, arena: &Arena, node: &arbor_core::raw::NodeRef<'_>) -> EntityState {
        EntityState::capture_with(arena, node, &|c| self.replicated.contains(&c))
    }

    /// The number of the last capture (from 1).
    pub fn epoch(&self) -> u32 {
        self.epoch
    }

    /// The mirrored instance `id`.
    pub fn get(&self, id: Id) -> Option<&MirrorEntity> {
        self.entities.get(&id)
    }

    /// Every mirrored instance.
    pub fn iter(&self) -> impl Iterator<Item = (Id, &MirrorEntity)> + '_ {
        self.entities.iter().map(|(&id, e)| (id, e))
    }

    /// How many instances are mirrored.
    pub fn len(&self) -> usize {
        self.entities.len()
    }

    /// Whether nothing is mirrored.
    pub fn is_empty(&self) -> bool {
        self.entities.is_empty()
    }

    /// The place's `DataModel` (the parent of the Workspace; never replicated).
    pub fn root(&self) -> Id {
        self.root
    }

    /// The top parts in cell `cell`.
    pub fn units_in(&self, cell: Cell) -> impl Iterator<Item = Id> + '_ {
        self.cells.get(&cell).into_iter().flat_map(|s| s.iter().copied())
    }

    /// The mirrored structure (instances not under a part), in no particular order: every
    /// client holds all of it.
    pub fn structure(&self) -> impl Iterator<Item = Id> + '_ {
        self.structure.iter().copied()
    }

    /// How many cells hold a top part (at most the number of top parts).
    pub fn occupied_cells(&self) -> usize {
        self.cells.len()
    }

    /// The cells holding top parts, with their top parts.
    pub(crate) fn occupied(&self) -> impl Iterator<Item = (Cell, &FxHashSet<Id>)> + '_ {
        self.cells.iter().map(|(&c, s)| (c, s))
    }

    /// What the last capture changed.
    pub fn changes(&self) -> &Changes {
        &self.changes
    }

    /// Bytes held (entities and cells), estimated from capacities.
    pub fn heap_bytes(&self) -> usize {
        let per = std::mem::size_of::<(Id, MirrorEntity)>() + 1;
        let attrs: usize = self
            .entities
            .values()
            .map(|e| e.state.attributes.capacity() * std::mem::size_of::<(std::sync::Arc<str>, WireValue)>())
            .sum();
        self.entities.capacity() * per
            + attrs
            + self.cells.values().map(|s| s.capacity() * 9).sum::<usize>()
            + self.structure.capacity() * 9
    }

    /// Reads what changed in `arena` since the last capture into the mirror. `world` gives
    /// an instance's world position (the transform pass's result).
    pub fn capture(&mut self, arena: &Arena, world: &dyn Fn(Id) -> Vec3) {
        self.epoch += 1;
        self.changes = Changes::default();
        self.root = arena.root();
        let registry = arena.components().registry();
        let replicated: Vec<arbor_core::components::ComponentId> = registry
            .iter()
            .filter(|(_, info)| !self.excluded.iter().any(|x| **x == *info.schema.name))
            .map(|(c, _)| c)
            .collect();
        if replicated != self.replicated {
            self.replicated = replicated;
            self.since = None; // a newly registered component: compare everything once
        }
        let now = arena.revisions().global;
        let incremental = self.since.and_then(|since| self.read_logs(arena, since));
        match incremental {
            Some(log) => self.apply_logs(arena, world, log),
            None => self.rescan(arena, world),
        }
        let mut by_cell = Vec::new();
        for &id in &self.changes.changed {
            let Some(e) = self.entities.get(&id) else { continue };
            match self.entities.get(&e.unit) {
                Some(unit) => by_cell.push((unit.cell, id)),
                None => self.changes.changed_structure.push(id),
            }
        }
        self.changes.changed_by_cell = CellChanges::new(by_cell);
        self.since = Some(now);
    }

    /// The logs since `since`, or `None` when any of them lost history.
    fn read_logs(&self, arena: &Arena, since: u64) -> Option<Logs> {
        let mut log = Logs::default();
        for (_, change) in arena.topology_since(since).ok()? {
            match change {
                arbor_core::raw::TopologyChange::Created { id, .. }
                | arbor_core::raw::TopologyChange::Moved { id, .. } => log.topology.push(id),
                arbor_core::raw::TopologyChange::Destroyed { .. } => {}
            }
        }
        log.deleted.extend(arena.deletions_since(since).ok()?);
        log.written.extend(arena.part_writes_since(since).ok()?);
        log.written.extend(arena.node_writes_since(since).ok()?);
        for &c in &self.replicated {
            let mut query = arbor_core::components::Query::new(&[c]);
            log.written.extend(arena.components().changed_since(&mut query, c, since));
        }
        Some(log)
    }

    fn apply_logs(&mut self, arena: &Arena, world: &dyn Fn(Id) -> Vec3, log: Logs) {
        for id in log.deleted {
            if self.remove_entity(id).is_some() {
                self.changes.deleted.push(id);
            }
        }
        let mut seen = FxHashSet::default();
        for id in log.topology {
            if seen.insert(id) && arena.get(id).is_some() {
                self.place(arena, world, id);
            }
        }
        let mut written = FxHashSet::default();
        for id in log.written {
            if !written.insert(id) {
                continue;
            }
            if arena.get(id).is_some_and(|n| n.class() == Class::Script) {
                // Its `RunContext` may have changed: it enters or leaves the mirror.
                self.place(arena, world, id);
                continue;
            }
            if !self.entities.contains_key(&id) {
                continue;
            }
            self.refresh(arena, id);
            self.repose(arena, world, id);
        }
    }

    /// Compares the whole Workspace with the mirror (the first capture, or lost history).
    fn rescan(&mut self, arena: &Arena, world: &dyn Fn(Id) -> Vec3) {
        self.changes.rescanned = true;
        let epoch = self.epoch;
        self.walk_in(arena, world, arena.workspace(), Id::NONE);
        if let Some(prefabs) = templates_folder(arena) {
            self.walk_in(arena, world, prefabs, Id::NONE);
        }
        let gone: FxHashSet<Id> =
            self.entities.iter().filter(|(_, e)| e.touched != epoch).map(|(&id, _)| id).collect();
        for &id in &gone {
            let Some(e) = self.remove_entity(id) else { continue };
            if arena.get(id).is_some() {
                self.changes.removed.push((id, !gone.contains(&Id(e.state.parent))));
            } else {
                self.changes.deleted.push(id);
            }
        }
    }

    /// Where `id` (live, named by the topology journal) belongs now: in the mirror with the
    /// unit its current ancestors give it, or out of it.
    fn place(&mut self, arena: &Arena, world: &dyn Fn(Id) -> Vec3, id: Id) {
        let Some((in_scope, unit)) = scope_of(arena, id) else { return };
        let above = if unit == id { Id::NONE } else { unit };
        // Parents enter first (a child moved in before its parent came into the world).
        if in_scope
            && let Some(parent) = arena.get(id).and_then(|n| n.parent())
            && parent != arena.root()
            && !self.entities.contains_key(&parent)
        {
            self.place(arena, world, parent);
            if self.entities.contains_key(&id) {
                return; // it came in with its parent's subtree
            }
        }
        match (self.entities.get(&id).map(|e| e.unit), in_scope) {
            (Some(old), true) if old == unit => {
                self.refresh(arena, id);
                self.repose(arena, world, id);
            }
            (Some(_), _) => {
                self.remove_subtree(arena, id);
                if in_scope {
                    self.walk_in(arena, world, id, above);
                }
            }
            (None, true) => self.walk_in(arena, world, id, above),
            (None, false) => {}
        }
    }

    /// Adds or refreshes `top` and its subtree, pre-order; `above` is the unit of `top`'s
    /// parent.
    fn walk_in(&mut self, arena: &Arena, world: &dyn Fn(Id) -> Vec3, top: Id, above: Id) {
        // Templates are structure whatever their class: no part under `Prefabs` streams.
        let templates = under_templates(arena, top);
        let mut stack = vec![(top, above)];
        while let Some((id, above)) = stack.pop() {
            let Some(node) = arena.get(id) else { continue };
            let script = node.class() == Class::Script;
            if script && !ships_to_clients(arena, id) {
                continue;
            }
            let unit = if above.is_none() && node.class() == Class::Part && !templates { id } else { above };
            match self.entities.get(&id).map(|e| e.unit) {
                Some(old) if old == unit => {
                    self.refresh(arena, id);
                    if unit == id {
                        self.move_unit(id, world(id));
                    }
                }
                Some(_) => {
                    self.remove_subtree(arena, id);
                    self.add(arena, id, unit, world);
                }
                None => self.add(arena, id, unit, world),
            }
            if !script {
                for c in node.children().iter().rev() {
                    stack.push((c, unit));
                }
            }
        }
    }

    fn add(&mut self, arena: &Arena, id: Id, unit: Id, world: &dyn Fn(Id) -> Vec3) {
        let node = arena.get(id).expect("live");
        let state = self.capture_state(arena, &node);
        let epoch = self.epoch;
        let (cell, pos) = match unit {
            u if u == id => {
                let p = world(id);
                (cell_of(p), p)
            }
            Id::NONE => ((0, 0), world(id)),
            _ => ((0, 0), Vec3::ZERO),
        };
        if unit == id {
            self.cells.entry(cell).or_default().insert(id);
        } else if unit.is_none() {
            self.structure.insert(id);
        }
        let hash = state.hash(id);
        let n_components = state.components.len();
        self.entities.insert(
            id,
            MirrorEntity {
                hash,
                state,
                changed_at: [epoch; Groups::COUNT],
                last_change: epoch,
                component_epochs: vec![epoch; n_components],
                component_names_at: epoch,
                unit,
                cell,
                world: pos,
                touched: epoch,
            },
        );
        self.changes.added.push(id);
    }

    fn refresh(&mut self, arena: &Arena, id: Id) {
        let Some(node) = arena.get(id) else { return };
        let state = self.capture_state(arena, &node);
        let epoch = self.epoch;
        let e = self.entities.get_mut(&id).expect("mirrored");
        e.touched = epoch;
        let diff = e.state.differences(&state);
        if diff.is_empty() {
            return;
        }
        for (i, at) in e.changed_at.iter_mut().enumerate() {
            if diff.0 & (1 << i) != 0 {
                *at = epoch;
            }
        }
        if diff.contains(Groups::COMPONENTS) {
            let same_names = e.state.components.len() == state.components.len()
                && e.state.components.iter().zip(&state.components).all(|(a, b)| a.0 == b.0);
            if same_names {
                for ((old, new), at) in
                    e.state.components.iter().zip(&state.components).zip(&mut e.component_epochs)
                {
                    if old.1 != new.1 {
                        *at = epoch;
                    }
                }
            } else {
                e.component_names_at = epoch;
                e.component_epochs = vec![epoch; state.components.len()];
            }
        }
        let newly = e.last_change != epoch;
        e.last_change = epoch;
        e.hash = state.hash(id);
        e.state = state;
        if newly {
            self.changes.changed.push(id);
        }
    }

    fn move_unit(&mut self, id: Id, pos: Vec3) {
        let e = self.entities.get_mut(&id).expect("mirrored");
        e.world = pos;
        let cell = cell_of(pos);
        if cell == e.cell {
            return;
        }
        let old = std::mem::replace(&mut e.cell, cell);
        if let Some(s) = self.cells.get_mut(&old) {
            s.remove(&id);
            if s.is_empty() {
                self.cells.remove(&old);
            }
        }
        self.cells.entry(cell).or_default().insert(id);
        self.changes.unit_moves.push((id, old, cell));
    }

    /// Updates the cells of the top parts whose world position a write to `id` may have
    /// moved: `id` itself when it is one, the top parts below it when it is structure.
    fn repose(&mut self, arena: &Arena, world: &dyn Fn(Id) -> Vec3, id: Id) {
        let Some(e) = self.entities.get(&id) else { return };
        if e.unit == id {
            self.move_unit(id, world(id));
        } else if e.unit.is_none() && arena.get(id).is_some_and(|n| !n.children().is_empty()) {
            for d in arena.subtree(id) {
                if self.entities.get(&d).is_some_and(|e| e.unit == d) {
                    self.move_unit(d, world(d));
                }
            }
        }
    }

    /// Removes `id` (live) and its mirrored descendants, reporting them as removed.
    fn remove_subtree(&mut self, arena: &Arena, id: Id) {
        for (k, d) in arena.subtree(id).into_iter().enumerate() {
            if self.remove_entity(d).is_some() {
                self.changes.removed.push((d, k == 0));
            }
        }
    }

    fn remove_entity(&mut self, id: Id) -> Option<MirrorEntity> {
        let e = self.entities.remove(&id)?;
        if e.unit.is_none() {
            self.structure.remove(&id);
        } else if e.unit == id
            && let Some(s) = self.cells.get_mut(&e.cell)
        {
            s.remove(&id);
            if s.is_empty() {
                self.cells.remove(&e.cell);
            }
        }
        Some(e)
    }
}

/// Ids the logs named since the last capture.
#[derive(Default)]
struct Logs {
    topology: Vec<Id>,
    deleted: Vec<Id>,
    written: Vec<Id>,
}

/// Whether live `id` replicates now (under the Workspace, not under a Script, and a client
/// Script if a Script at all) and its unit.
fn scope_of(arena: &Arena, id: Id) -> Option<(bool, Id)> {
    let ws = arena.workspace();
    let mut top_part = Id::NONE;
    let mut at = id;
    loop {
        let node = arena.get(at)?;
        if node.class() == Class::Script && (at != id || !ships_to_clients(arena, id)) {
            return Some((false, Id::NONE));
        }
        if node.class() == Class::Part {
            top_part = at;
        }
        if at == ws {
            return Some((true, top_part));
        }
        if node.parent() == Some(arena.root()) && templates_folder(arena) == Some(at) {
            return Some((true, Id::NONE));
        }
        match node.parent() {
            Some(p) => at = p,
            None => return Some((false, Id::NONE)),
        }
    }
}

/// The top-level `Prefabs` folder (the first child of the `DataModel` so named, as the script
/// host finds it), if the place has one.
fn templates_folder(arena: &Arena) -> Option<Id> {
    arena.find_first_child(arena.root(), "Prefabs")
}

/// Whether `id` is the `Prefabs` folder or under it.
pub(crate) fn under_templates(arena: &Arena, id: Id) -> bool {
    let Some(prefabs) = templates_folder(arena) else { return false };
    let mut at = Some(id);
    while let Some(a) = at {
        if a == prefabs {
            return true;
        }
        at = arena.get(a).and_then(|n| n.parent());
    }
    false
}

/// Whether Script `id` runs on clients (`RunContext` `Client` or `Both`), so replicates.
fn ships_to_clients(arena: &Arena, id: Id) -> bool {
    arbor_core::RunContext::of(arena, id).is_ok_and(|c| c.runs_on(true))
}

#[cfg(test)]
mod tests;
