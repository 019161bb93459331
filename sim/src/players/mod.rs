//! Player sessions (`docs/scripting.md`, "Players and characters"): who is connected, which
//! character each user owns, the join, leave and kick queues, and the engine's half of the
//! character's life (binding, movement, death). The transport (`arbor-net`, or a test) feeds
//! [`Players`] with connections, disconnections and inputs; the script host reads it to fire
//! `PlayerJoined`, `PlayerLeft` and `CharacterDied` and to serve `game.Session`.
//!
//! The life of a session, in tick order:
//! 1. [`Players::connect`] (a transport, in the AdmitPlayers phase) opens a session and queues
//!    its join; at most [`MAX_PENDING_JOINS`] wait, a connection past them is refused (kicked).
//! 2. The script host takes the queued joins ([`Players::take_joins`]) once a `PlayerJoined`
//!    handler exists, still in AdmitPlayers, before physics; until then they wait.
//! 3. [`Players::bind_character`] binds a character atomically (`bind`).
//! 4. Every tick: client inputs become the character's `MoveIntent` and locomotion at the
//!    start of the physics step (`movement`); deaths are marked and, a tick later, announced
//!    (`death`).
//! 5. [`Players::disconnect`] (or a processed kick) ends the session: in the next AdmitPlayers
//!    phase the host fires `PlayerLeft(character, userId)` with the character intact
//!    ([`Players::leaving`]), then the simulation destroys the character
//!    ([`Players::finish_leaves`]).
//!
//! Invariants: a user has at most one session and one character; a character is bound to at
//! most one user; the join and kick queues never hold more than 64 entries; user ids are
//! below 2^53 (scripts see them as Luau numbers).

mod bind;
mod death;
mod journal;
mod movement;
mod schemas;
#[cfg(test)]
mod tests;

pub use bind::BindError;
pub use death::{CHARACTER_DEAD, CharacterDied, DamageError};
pub use journal::SessionInput;
pub use movement::{character_drive, ground_direction};
pub use schemas::{
    CharacterSchemas, DEFAULT_JUMP_POWER, DEFAULT_WALK_SPEED, FLOOR_INFO, HEALTH, HUMANOID_ROOT_PART,
    HUMANOID_STATE, IDENTITY, MOVE_INTENT, root_part,
};

use arbor_core::{Arena, ArenaError, Id, components::SchemaError};

/// Checks, in debug builds, an engine write that cannot fail: a live instance, a component it
/// has, a typed handle and no text (release builds carry on, as the write changed nothing).
#[inline]
fn infallible<T: std::fmt::Debug>(result: Result<T, ArenaError>) {
    debug_assert!(result.is_ok(), "an engine write that cannot fail failed: {result:?}");
}
use glam::Vec3;
use std::collections::{BTreeMap, VecDeque};

/// Joins that wait for a `PlayerJoined` handler; a connection past them is refused.
pub const MAX_PENDING_JOINS: usize = 64;
/// Kicks that wait for the next network tick; `Kick` past them returns false.
pub const MAX_PENDING_KICKS: usize = 64;
/// Longest kick reason, in bytes (what the wire carries).
pub const MAX_KICK_REASON_BYTES: usize = 256;
/// User ids are below this (2^53: exact as Luau numbers).
pub const MAX_USER_ID: u64 = 1 << 53;
/// The reason given to a connection refused because [`MAX_PENDING_JOINS`] joins wait.
pub const JOIN_QUEUE_FULL: &str = "the server's join queue is full";

/// What a client asks its character to do, as of its newest input.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct MoveInput {
    /// Wanted direction on the ground plane (`x`, `z`), each -1..=1; longer than 1 is
    /// shortened to 1.
    pub direction: [f32; 2],
    /// Jump held.
    pub jump: bool,
}

/// One connected user.
#[derive(Clone, Debug, PartialEq)]
pub struct Session {
    /// The user id (from the connect token).
    pub user_id: u64,
    /// The name shown for the user.
    pub display_name: String,
    /// The bound character (may have been destroyed since; see [`Players::character_of`]).
    character: Option<Id>,
    /// Newest input.
    pub input: MoveInput,
}

/// A session that ended and whose `PlayerLeft` has not run yet.
#[derive(Clone, Debug, PartialEq)]
pub struct Leave {
    /// The user id.
    pub user_id: u64,
    /// The character, if the user had a live one.
    pub character: Option<Id>,
    /// Why the session ended.
    pub reason: String,
}

/// Why a connection was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ConnectError {
    /// The id is 0 or at least 2^53.
    #[error("user id {0} is outside 1..2^53")]
    BadUserId(u64),
    /// The user already has a session.
    #[error("user {0} is already connected")]
    AlreadyConnected(u64),
    /// [`MAX_PENDING_JOINS`] joins are waiting.
    #[error("{JOIN_QUEUE_FULL}")]
    QueueFull,
}

/// Every session of the server and the queues between the transport, the tick and scripts.
#[derive(Debug, Default)]
pub struct Players {
    sessions: BTreeMap<u64, Session>,
    /// Joins whose `PlayerJoined` has not fired, in connection order.
    joins: VecDeque<u64>,
    /// Ended sessions whose `PlayerLeft` runs in the next AdmitPlayers phase.
    leaves: Vec<Leave>,
    /// Kicks for the next network tick.
    kicks: VecDeque<(u64, String)>,
    /// Kicked users the transport must tell and disconnect.
    kicked: Vec<(u64, String)>,
    /// Deaths announced this tick, for `CharacterDied`.
    died: Vec<CharacterDied>,
    /// The last damage dealer of each damaged character, until its death is announced.
    attackers: BTreeMap<Id, Id>,
    schemas: Option<CharacterSchemas>,
    /// The transport's calls, when recording.
    journal: journal::SessionJournal,
    /// Engine writes of character state the arena refused (see [`refused_writes`](Self::refused_writes)).
    refused_writes: u64,
}

impl Players {
    /// No sessions; registers the engine's character components on `arena` (`MoveIntent`,
    /// `HumanoidState`, `FloorInfo`, `Identity`).
    pub fn new(arena: &mut Arena) -> Result<Self, SchemaError> {
        Ok(Self { schemas: Some(CharacterSchemas::register(arena)?), ..Self::default() })
    }

    /// The character components.
    pub fn schemas(&self) -> Option<&CharacterSchemas> {
        self.schemas.as_ref()
    }

    /// How many of the engine's writes of character state (`HumanoidState.State`) the arena
    /// refused since the start: a string write is refused when the place's text budget is
    /// full, and the state then keeps its old value rather than the server failing.
    pub fn refused_writes(&self) -> u64 {
        self.refused_writes
    }

    /// Opens a session for `user_id` and queues its join. Refused for ids outside
    /// `1..2^53`, a user already connected, or a full join queue: the caller disconnects it
    /// with the error's text.
    pub fn connect(&mut self, user_id: u64, display_name: Option<&str>) -> Result<(), ConnectError> {
        self.journal
            .push(|| SessionInput::Connect { user_id, display_name: display_name.map(str::to_owned) });
        if user_id == 0 || user_id >= MAX_USER_ID {
            return Err(ConnectError::BadUserId(user_id));
        }
        if self.sessions.contains_key(&user_id) {
            return Err(ConnectError::AlreadyConnected(user_id));
        }
        if self.joins.len() >= MAX_PENDING_JOINS {
            return Err(ConnectError::QueueFull);
        }
        let display_name = display_name.map_or_else(|| format!("Player{user_id}"), str::to_owned);
        self.sessions
            .insert(user_id, Session { user_id, display_name, character: None, input: MoveInput::default() });
        self.joins.push_back(user_id);
        Ok(())
    }

    /// Ends `user_id`'s session (a disconnect): its `PlayerLeft` runs in the next
    /// AdmitPlayers phase, then its character is destroyed. A user without a session is
    /// ignored (a transport reporting a kicked client's disconnect). A join still queued is
    /// dropped with the session: `PlayerLeft` fires only for users whose `PlayerJoined` did.
    pub fn disconnect(&mut self, arena: &Arena, user_id: u64, reason: &str) {
        if self.sessions.contains_key(&user_id) {
            self.journal.push(|| SessionInput::Disconnect { user_id, reason: reason.to_owned() });
        }
        self.end_session(arena, user_id, reason);
    }

    /// Ends a session (a disconnect or a processed kick).
    fn end_session(&mut self, arena: &Arena, user_id: u64, reason: &str) {
        let Some(session) = self.sessions.remove(&user_id) else { return };
        if let Some(k) = self.joins.iter().position(|&u| u == user_id) {
            self.joins.remove(k);
            return;
        }
        let character = session.character.filter(|&c| arena.contains(c));
        self.leaves.push(Leave { user_id, character, reason: reason.to_owned() });
    }

    /// Records `user_id`'s newest input (ignored without a session).
    pub fn set_input(&mut self, user_id: u64, input: MoveInput) {
        if let Some(s) = self.sessions.get_mut(&user_id)
            && s.input != input
        {
            s.input = input;
            self.journal.push(|| SessionInput::Move { user_id, input });
        }
    }

    /// Queues a kick of `user_id` for the next network tick; false for ids ≤ 0 (here: 0 or
    /// past 2^53) or when [`MAX_PENDING_KICKS`] kicks wait. A user not connected by then is
    /// skipped.
    pub fn kick(&mut self, user_id: u64, reason: Option<&str>) -> bool {
        if user_id == 0 || user_id >= MAX_USER_ID || self.kicks.len() >= MAX_PENDING_KICKS {
            return false;
        }
        let mut reason = reason.unwrap_or("kicked by the server").to_owned();
        if reason.len() > MAX_KICK_REASON_BYTES {
            let mut end = MAX_KICK_REASON_BYTES;
            while !reason.is_char_boundary(end) {
                end -= 1;
            }
            reason.truncate(end);
        }
        self.kicks.push_back((user_id, reason));
        true
    }

    /// Processes the kick queue (every network tick): each kicked user's session ends as a
    /// disconnect does, and the transport is asked to tell the client and drop it
    /// ([`take_kicked`](Self::take_kicked)).
    pub fn process_kicks(&mut self, arena: &Arena) {
        while let Some((user_id, reason)) = self.kicks.pop_front() {
            if self.sessions.contains_key(&user_id) {
                self.end_session(arena, user_id, &reason);
                self.kicked.push((user_id, reason));
            }
        }
    }

    /// Kicks pending for the next network tick.
    pub fn pending_kicks(&self) -> usize {
        self.kicks.len()
    }

    /// Users the transport must tell `reason` and disconnect.
    pub fn take_kicked(&mut self) -> Vec<(u64, String)> {
        std::mem::take(&mut self.kicked)
    }

    /// Joins whose `PlayerJoined` has not fired yet.
    pub fn pending_joins(&self) -> usize {
        self.joins.len()
    }

    /// Takes the queued joins (the host fires `PlayerJoined` for each, in order).
    pub fn take_joins(&mut self) -> Vec<u64> {
        self.joins.drain(..).collect()
    }

    /// Sessions that ended and whose `PlayerLeft` has not run.
    pub fn leaving(&self) -> &[Leave] {
        &self.leaves
    }

    /// Destroys the characters of the sessions that ended (after their `PlayerLeft` ran) and
    /// forgets them. Returns the characters destroyed.
    pub fn finish_leaves(&mut self, arena: &mut Arena) -> usize {
        let mut destroyed = 0;
        for leave in std::mem::take(&mut self.leaves) {
            if let Some(c) = leave.character
                && let Ok(true) = arena.destroy(c)
            {
                destroyed += 1;
            }
        }
        destroyed
    }

    /// Deaths announced this tick (taken by the host to fire `CharacterDied`).
    pub fn take_died(&mut self) -> Vec<CharacterDied> {
        std::mem::take(&mut self.died)
    }

    /// The session of `user_id`.
    pub fn session(&self, user_id: u64) -> Option<&Session> {
        self.sessions.get(&user_id)
    }

    /// Connected user ids, ascending.
    pub fn user_ids(&self) -> impl Iterator<Item = u64> + '_ {
        self.sessions.keys().copied()
    }

    /// Connected users.
    pub fn len(&self) -> usize {
        self.sessions.len()
    }

    /// Whether nobody is connected.
    pub fn is_empty(&self) -> bool {
        self.sessions.is_empty()
    }

    /// The live character `user_id` owns (also while their `PlayerLeft` runs).
    pub fn character_of(&self, arena: &Arena, user_id: u64) -> Option<Id> {
        let owned = match self.sessions.get(&user_id) {
            Some(s) => s.character,
            None => self.leaves.iter().find(|l| l.user_id == user_id)?.character,
        };
        owned.filter(|&c| arena.contains(c))
    }

    /// The user owning the live character `character`.
    pub fn owner_of(&self, arena: &Arena, character: Id) -> Option<u64> {
        if !arena.contains(character) {
            return None;
        }
        self.sessions.values().find(|s| s.character == Some(character)).map(|s| s.user_id)
    }

    /// Where `user_id`'s character is (its root part's world position as of the last
    /// physics write-back, composed from the arena), for the streaming focus.
    pub fn focus_of(&self, arena: &Arena, user_id: u64, world: impl Fn(Id) -> Option<Vec3>) -> Option<Vec3> {
        let c = self.character_of(arena, user_id)?;
        world(schemas::root_part(arena, c).unwrap_or(c))
    }
}
