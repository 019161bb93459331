//! The signals only the engine fires: the session signals of `game.Session`
//! (`PlayerJoined`, `PlayerLeft`, `CharacterDied`), on the DataModel. `Fire` from a script
//! refuses them; the session service fires them.

use super::Signal;
use arbor_core::Id;

/// `game.Session.PlayerJoined`.
pub const PLAYER_JOINED: &str = "PlayerJoined";
/// `game.Session.PlayerLeft`.
pub const PLAYER_LEFT: &str = "PlayerLeft";
/// `game.Session.CharacterDied`.
pub const CHARACTER_DIED: &str = "CharacterDied";
/// The session signals, which only the engine fires.
pub const SESSION_SIGNALS: [&str; 3] = [PLAYER_JOINED, PLAYER_LEFT, CHARACTER_DIED];

/// Whether `signal` is a session signal (which scripts may not emit).
pub(crate) fn is_session_signal(root: Id, signal: &Signal) -> bool {
    signal.target == root && SESSION_SIGNALS.contains(&&*signal.name)
}
