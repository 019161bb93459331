//! [`Replica`]: the client's copy of the server's place, built from snapshot messages. It
//! keeps the decoded [`EntityState`]s as its authority (the world hash is computed over them)
//! and mirrors them into a client [`Arena`], whose own objects take ids from 2^52. Game-defined
//! components are held in the states ([`Replica::component`]): the client arena has no
//! schemas to hold them.
//!
//! Two checks compare the replica with the server ([`ReplicaStats`]):
//! - *settled*: a message sent when the client's whole view is confirmed carries the
//!   server's view hash, which must equal the [`world_hash`](Replica::world_hash) after
//!   applying it (it covers every held instance, moving or not);
//! - *per message*: every message with an entry carries the XOR of the server's hashes of
//!   the full states, as of its epoch, of the instances its entries name; after applying
//!   it, the XOR of the replica's state hashes of those ids must be the same (an id it
//!   could not apply, so does not hold, adds nothing and so fails the check). This holds
//!   under motion, when a view never settles: messages apply in order, and an update
//!   carries every group changed since the newest state the client confirmed.
//!
//! Invariants: snapshots apply in sequence order — one older than the newest applied is
//! ignored and not acked, so the server never counts it as delivered; a state is kept only
//! for an instance the arena holds; an update or removal of an unknown id does nothing (a
//! late id finds nothing); every held state keeps its own hash, and the world hash is the
//! XOR of them.

use crate::error::NetError;
use crate::wire::{
    DecodeError, EntityState, Groups, PositionHistory, PositionWire, REPLICATED_FLAGS, SnapshotMessage,
    WireValue, dequantize_position,
};
use arbor_core::{Arena, ArenaConfig, AttributeValue, Id, IdRange, InstanceEvent};
use rustc_hash::FxHashMap;

/// The server's `DataModel` id (the first id a server arena mints).
pub(crate) const SERVER_ROOT: Id = Id(1);
/// The server's `Workspace` id.
pub(crate) const SERVER_WORKSPACE: Id = Id(2);

/// Checks that `arena` has the ids replicas assume for the `DataModel` and `Workspace`.
pub fn check_roots(arena: &Arena) -> Result<(), NetError> {
    if arena.root() != SERVER_ROOT || arena.workspace() != SERVER_WORKSPACE {
        return Err(NetError::Netcode(format!(
            "the place's DataModel and Workspace must be ids 1 and 2 (they are {} and {})",
            arena.root(),
            arena.workspace()
        )));
    }
    Ok(())
}

/// What applying one message did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Applied {
    /// Applied; `Some(matched)` for each hash it carried.
    Applied {
        /// Whether the replica's world hash equalled the server's view hash, if the server
        /// sent one (the view was settled).
        hash_matched: Option<bool>,
        /// Whether the replica's states of the instances named by the message's entries
        /// hashed to the server's entries hash, if the server sent one (it had an entry).
        entries_matched: Option<bool>,
    },
    /// Older than (or the same as) the newest applied: ignored.
    Stale,
    /// A position delta's base is not in the replica's history: nothing applied, not acked
    /// (the server sends the state again, and past its history resends everything whole).
    Unresolved,
}

/// Counters of a replica.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ReplicaStats {
    /// Messages applied.
    pub applied: u64,
    /// Messages ignored as older than the newest applied.
    pub stale: u64,
    /// Messages not applied because a position delta's base was not held (should stay 0:
    /// the server deltas only against positions the client must still remember).
    pub unresolved: u64,
    /// Entries the arena refused (should stay 0).
    pub apply_errors: u64,
    /// Settled snapshots whose hash was compared with the world hash.
    pub hash_checks: u64,
    /// Of those, how many differed.
    pub hash_mismatches: u64,
    /// Messages whose entries hash was compared with the replica's states of the instances
    /// they carried (every applied message with an entry: these run under motion too).
    pub message_checks: u64,
    /// Of those, how many differed: the replica holds a wrong state of an instance the
    /// message carried (should stay 0).
    pub message_mismatches: u64,
}

/// A held state, its hash, and its positions of the last messages that carried one.
struct Held {
    state: EntityState,
    hash: u64,
    positions: PositionHistory,
}

/// The client's replica of the server's place.
pub struct Replica {
    arena: Arena,
    states: FxHashMap<Id, Held>,
    hash: u64,
    newest: u32,
    received: u64,
    stats: ReplicaStats,
    /// Destructions the snapshots caused (replicated instances and the client's objects
    /// under them), not yet taken; `None` unless a caller asked for them.
    destroyed: Option<Vec<InstanceEvent>>,
}

impl Default for Replica {
    fn default() -> Self {
        Self::new()
    }
}

impl Replica {
    /// An empty replica: a client arena with its own `DataModel` and `Workspace`.
    pub fn new() -> Self {
        let config = ArenaConfig { id_range: IdRange::ClientLocal, ..ArenaConfig::default() };
        Self {
            arena: Arena::with_config(config),
            states: FxHashMap::default(),
            hash: 0,
            newest: 0,
            received: 0,
            stats: ReplicaStats::default(),
            destroyed: None,
        }
    }

    /// The client arena (server ids for replicated instances, except the `DataModel` and
    /// `Workspace`, which are the arena's own: see [`local`](Self::local)).
    pub fn arena(&self) -> &Arena {
        &self.arena
    }

    /// The client arena, for client-local objects (ids from 2^52, never sent).
    pub fn arena_mut(&mut self) -> &mut Arena {
        &mut self.arena
    }

    /// Keeps the destructions applying snapshots causes from now on, for
    /// [`take_destroyed`](Self::take_destroyed) (a client that runs scripts must retire what
    /// went; a client that does not ask keeps nothing).
    pub fn keep_destroyed(&mut self) {
        self.destroyed.get_or_insert_with(Vec::new);
    }

    /// Takes the destructions kept since the last call: each [`InstanceEvent::Destroyed`]
    /// names its whole subtree, the client's own objects under it included.
    pub fn take_destroyed(&mut self) -> Vec<InstanceEvent> {
        self.destroyed.as_mut().map(std::mem::take).unwrap_or_default()
    }

    /// Drains the arena's events, keeping the destructions if asked.
    fn drain_destructions(&mut self) {
        let events = self.arena.drain_events();
        if let Some(kept) = &mut self.destroyed {
            kept.extend(events.into_iter().filter(|e| matches!(e, InstanceEvent::Destroyed { .. })));
        }
    }

    /// The replicated state of server instance `id`.
    pub fn state(&self, id: Id) -> Option<&EntityState> {
        self.states.get(&id).map(|h| &h.state)
    }

    /// The server ids the replica holds.
    pub fn ids(&self) -> impl Iterator<Item = Id> + '_ {
        self.states.keys().copied()
    }

    /// The replicated fields of component `name` of server instance `id`, in schema order.
    pub fn component(&self, id: Id, name: &str) -> Option<&[WireValue]> {
        let s = &self.states.get(&id)?.state;
        s.components.iter().find(|(n, _)| **n == *name).map(|(_, f)| f.as_slice())
    }

    /// How many server instances the replica holds.
    pub fn len(&self) -> usize {
        self.states.len()
    }

    /// Whether it holds none.
    pub fn is_empty(&self) -> bool {
        self.states.is_empty()
    }

    /// XOR of the hashes of every held state: equal to the server's view hash when the
    /// replica holds exactly what the server sent.
    pub fn world_hash(&self) -> u64 {
        self.hash
    }

    /// Counters.
    pub fn stats(&self) -> ReplicaStats {
        self.stats
    }

    /// The ack to send: the newest applied sequence and the 64 before it.
    pub fn ack(&self) -> (u32, u64) {
        (self.newest, self.received)
    }

    /// The client arena's id for server id `id`.
    pub fn local(&self, id: Id) -> Id {
        match id {
            SERVER_ROOT => self.arena.root(),
            SERVER_WORKSPACE => self.arena.workspace(),
            other => other,
        }
    }

    /// Decodes and applies one snapshot message.
    pub fn apply(&mut self, bytes: &[u8]) -> Result<Applied, DecodeError> {
        let snap = SnapshotMessage::decode(bytes)?;
        Ok(self.apply_snapshot(snap))
    }

    /// Applies a decoded snapshot.
    pub fn apply_snapshot(&mut self, snap: SnapshotMessage) -> Applied {
        if snap.seq <= self.newest {
            // Too old to apply. It is not acked either: the server resends what it held.
            self.stats.stale += 1;
            return Applied::Stale;
        }
        // Every position delta resolves against the history before anything is applied.
        let mut positions: Vec<Option<[i32; 3]>> = Vec::with_capacity(snap.entries.len());
        for entry in &snap.entries {
            let resolved = match (entry.create, entry.parts.position) {
                (None, Some(wire)) if !matches!(wire, PositionWire::Whole(_)) => {
                    let held = self.states.get(&entry.id).map(|h| &h.positions);
                    match wire.resolve(snap.seq, held) {
                        Some(p) => Some(p),
                        None => {
                            self.stats.unresolved += 1;
                            return Applied::Unresolved;
                        }
                    }
                }
                _ => None,
            };
            positions.push(resolved);
        }
        let shift = snap.seq - self.newest;
        self.received = if shift >= 64 { 0 } else { (self.received << shift) | (1u64 << (shift - 1)) };
        if self.newest == 0 {
            self.received = 0;
        }
        self.newest = snap.seq;
        self.stats.applied += 1;
        let removed = !snap.removes.is_empty();
        self.remove_all(&snap.removes);
        let mut reparent_later = Vec::new();
        let carried: Vec<Id> = if snap.entries_hash.is_some() {
            snap.entries.iter().map(|e| e.id).collect()
        } else {
            Vec::new()
        };
        for (entry, delta_position) in snap.entries.into_iter().zip(positions) {
            let id = entry.id;
            match entry.create {
                Some(_) => {
                    self.create(id, entry.state, &mut reparent_later);
                    if let Some(held) = self.states.get_mut(&id) {
                        held.positions.push(snap.seq, held.state.position);
                    }
                }
                None => {
                    let Some(old) = self.states.get(&id) else { continue };
                    let mut state = old.state.clone();
                    if entry.groups.contains(Groups::POSITION) {
                        state.position = delta_position.unwrap_or(entry.state.position);
                    }
                    let rest = Groups(entry.groups.0 & !Groups::POSITION.0);
                    match &entry.parts.patch {
                        Some(patch) => {
                            let others = Groups(rest.0 & !Groups::COMPONENTS.0);
                            copy_groups(&mut state, &entry.state, others);
                            if !patch.apply(&mut state.components) {
                                // It does not fit what is held: the message's check fails.
                                self.stats.apply_errors += 1;
                            }
                        }
                        None => copy_groups(&mut state, &entry.state, rest),
                    }
                    self.write(id, &state, entry.groups, &mut reparent_later);
                    self.set_state(id, state);
                    if entry.groups.contains(Groups::POSITION)
                        && let Some(held) = self.states.get_mut(&id)
                    {
                        held.positions.push(snap.seq, held.state.position);
                    }
                }
            }
        }
        // Parent changes that met a cycle with a later move of the same message.
        for _ in 0..reparent_later.len() {
            let before = reparent_later.len();
            reparent_later.retain(|&(id, parent)| self.arena.set_parent(id, Some(parent)).is_err());
            if reparent_later.is_empty() || reparent_later.len() == before {
                break;
            }
        }
        self.stats.apply_errors += reparent_later.len() as u64;
        self.drain_destructions();
        if removed {
            // A second drain frees the tombstones' slots, so an id streamed out may come back.
            self.drain_destructions();
        }
        let hash_matched = snap.view_hash.map(|h| {
            self.stats.hash_checks += 1;
            let ok = h == self.hash;
            if !ok {
                self.stats.hash_mismatches += 1;
            }
            ok
        });
        // The full states of the instances carried, as they are now: an id not held (an
        // entry that could not be applied) adds nothing, so it fails the check.
        let entries_matched = snap.entries_hash.map(|h| {
            self.stats.message_checks += 1;
            let mine = carried.iter().filter_map(|id| self.states.get(id)).fold(0, |acc, s| acc ^ s.hash);
            let ok = h == mine;
            if !ok {
                self.stats.message_mismatches += 1;
            }
            ok
        });
        Applied::Applied { hash_matched, entries_matched }
    }

    /// Changes the name of held instance `id` in its state and in the arena, keeping the
    /// world hash consistent with the changed state, as a bug that applied a wrong value
    /// would; whether `id` was held. For tests of the replica checks: the next message that
    /// carries `id` fails its check, and a settled view's hash no longer matches.
    #[doc(hidden)]
    pub fn corrupt_state_for_test(&mut self, id: Id) -> bool {
        let Some(held) = self.states.get(&id) else { return false };
        let mut state = held.state.clone();
        state.name = format!("{}~", state.name).into();
        let local = self.local(id);
        if local != self.arena.workspace() {
            let _ = self.arena.set_name(local, &state.name);
        }
        self.set_state(id, state);
        true
    }

    /// Holds `state` for `id` (keeping its position history, if held).
    fn set_state(&mut self, id: Id, state: EntityState) {
        let hash = state.hash(id);
        let positions = self.states.get(&id).map(|h| h.positions).unwrap_or_default();
        if let Some(old) = self.states.insert(id, Held { state, hash, positions }) {
            self.hash ^= old.hash;
        }
        self.hash ^= hash;
    }

    /// Drops exactly the instances in `ids`. A replicated child that is not among them
    /// survives, detached until the update that names its new parent arrives (this client's
    /// tree may lag the server's); client-local objects go with their parent.
    fn remove_all(&mut self, ids: &[Id]) {
        let doomed: rustc_hash::FxHashSet<Id> =
            ids.iter().copied().filter(|id| self.states.contains_key(id)).collect();
        for &id in &doomed {
            let local = self.local(id);
            let survivors: Vec<Id> = self
                .arena
                .children(local)
                .filter(|c| self.states.contains_key(c) && !doomed.contains(c))
                .collect();
            for c in survivors {
                if self.arena.set_parent(c, None).is_err() {
                    self.stats.apply_errors += 1;
                }
            }
        }
        for &id in &doomed {
            if let Some(s) = self.states.remove(&id) {
                self.hash ^= s.hash;
            }
            let local = self.local(id);
            if local != self.arena.workspace() && self.arena.destroy(local).is_err() {
                self.stats.apply_errors += 1;
            }
        }
    }

    fn create(&mut self, id: Id, state: EntityState, later: &mut Vec<(Id, Id)>) {
        let local = self.local(id);
        if self.arena.contains(local) {
            self.write(id, &state, Groups::ALL, later);
            self.set_state(id, state);
            return;
        }
        let parent = self.local(Id(state.parent));
        match self.arena.insert_with_id(local, state.class, &state.name, Some(parent)) {
            Ok(_) => {
                if set_handle(&mut self.arena, local, state.handle.as_deref()).is_err() {
                    self.stats.apply_errors += 1;
                }
                self.write(id, &state, Groups(Groups::ALL.0 & !Groups::PARENT.0 & !Groups::NAME.0), later);
                self.set_state(id, state);
            }
            Err(_) => self.stats.apply_errors += 1,
        }
    }

    /// Writes `groups` of `state` into the arena node of server instance `id`.
    fn write(&mut self, id: Id, state: &EntityState, groups: Groups, later: &mut Vec<(Id, Id)>) {
        let local = self.local(id);
        let a = &mut self.arena;
        let mut errors = 0u64;
        let mut check = |r: Result<bool, arbor_core::ArenaError>| errors += u64::from(r.is_err());
        if groups.contains(Groups::PARENT) && local != a.workspace() {
            let parent = match Id(state.parent) {
                SERVER_ROOT => a.root(),
                SERVER_WORKSPACE => a.workspace(),
                p => p,
            };
            if a.get(local).and_then(|n| n.parent()) != Some(parent)
                && a.set_parent(local, Some(parent)).is_err()
            {
                later.push((local, parent));
            }
        }
        if groups.contains(Groups::NAME) {
            if local != a.workspace() {
                check(a.set_name(local, &state.name));
            }
            check(set_handle(a, local, state.handle.as_deref()));
        }
        if groups.0 & (Groups::POSITION.0 | Groups::ROTATION.0) != 0 {
            check(a.set_transform(local, state.transform()));
        }
        if groups.contains(Groups::SIZE) {
            check(a.set_size(local, state.size()));
        }
        if groups.contains(Groups::APPEARANCE) {
            check(a.set_appearance(local, state.appearance()));
        }
        if groups.contains(Groups::FLAGS) {
            for (i, f) in REPLICATED_FLAGS.iter().enumerate() {
                check(a.set_flag(local, *f, state.flags & (1 << i) != 0));
            }
        }
        if groups.contains(Groups::ATTRIBUTES) {
            let held: Vec<String> = a
                .get(local)
                .map(|n| n.extras().attributes.iter().map(|(k, _)| a.names().text(*k).to_owned()).collect())
                .unwrap_or_default();
            for name in held {
                if !state.attributes.iter().any(|(k, _)| **k == *name) {
                    check(a.set_attribute(local, &name, None));
                }
            }
            for (name, value) in &state.attributes {
                let value = match value {
                    WireValue::Bool(b) => AttributeValue::Bool(*b),
                    WireValue::Number(n) => AttributeValue::Number(*n),
                    WireValue::String(s) => AttributeValue::String(s.clone()),
                    WireValue::Vector3(v) => AttributeValue::Vector3(dequantize_position(*v)),
                    // A reference to an instance outside the client's range reads as empty.
                    WireValue::Ref(r) => AttributeValue::Ref(Some(Id(*r)).filter(|t| a.contains(*t))),
                    // Component-only kinds: an attribute never carries them.
                    WireValue::Int(i) => AttributeValue::Number(*i as f64),
                    WireValue::Rotation(_) => {
                        check(Err(arbor_core::ArenaError::NotFound(local)));
                        continue;
                    }
                };
                check(a.set_attribute(local, name, Some(value)));
            }
        }
        self.stats.apply_errors += errors;
    }
}

/// Gives `local` the handle `handle` (or none), taking it from another holder first: the
/// server's state is the truth, and a handle that moved between two instances may arrive for
/// the new holder before the old one's update.
fn set_handle(arena: &mut Arena, local: Id, handle: Option<&str>) -> Result<bool, arbor_core::ArenaError> {
    match arena.set_handle(local, handle) {
        Err(arbor_core::ArenaError::HandleTaken { holder, .. }) => {
            arena.set_handle(holder, None)?;
            arena.set_handle(local, handle)
        }
        other => other,
    }
}

/// Copies `groups` of `from` into `to`.
pub(crate) fn copy_groups(to: &mut EntityState, from: &EntityState, groups: Groups) {
    if groups.contains(Groups::PARENT) {
        to.parent = from.parent;
    }
    if groups.contains(Groups::NAME) {
        to.name = from.name.clone();
        to.handle = from.handle.clone();
    }
    if groups.contains(Groups::POSITION) {
        to.position = from.position;
    }
    if groups.contains(Groups::ROTATION) {
        to.rotation = from.rotation;
    }
    if groups.contains(Groups::SIZE) {
        to.size = from.size;
    }
    if groups.contains(Groups::APPEARANCE) {
        to.color = from.color;
        to.transparency = from.transparency;
        to.material = from.material;
        to.shape = from.shape;
    }
    if groups.contains(Groups::FLAGS) {
        to.flags = from.flags;
    }
    if groups.contains(Groups::ATTRIBUTES) {
        to.attributes = from.attributes.clone();
    }
    if groups.contains(Groups::COMPONENTS) {
        to.components = from.components.clone();
    }
}
