//! `BindCharacter(userId, character)`, atomic: every check runs before anything changes, then
//! ownership, the `Identity`, `MoveIntent`, `HumanoidState` and `FloorInfo` components
//! (the last three only if missing), the appearance seed (the root part's colour from the
//! user id) and the `Transient` flag (the character and its subtree leave place saves). If
//! any write fails the components added by the call are removed again, so a failed bind
//! changes nothing a script can see.

use super::schemas::{DEFAULT_JUMP_POWER, DEFAULT_WALK_SPEED, root_part};
use super::{Players, Session, infallible};
use arbor_core::{
    Appearance, Arena, ArenaError, Class, Color, Id, NodeFlags,
    components::{ComponentId, FieldValue},
};
use glam::Vec3;

/// Why `BindCharacter` refused.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum BindError {
    /// The user has no session.
    #[error("user {0} is not connected")]
    NotConnected(u64),
    /// The character was destroyed (or never existed).
    #[error("entity is destroyed")]
    Destroyed,
    /// The instance is not a `Character`.
    #[error("BindCharacter expects a Character, got a {0}")]
    NotACharacter(&'static str),
    /// The user already owns a live character.
    #[error("user {0} already owns a character; destroy it before binding another")]
    AlreadyOwns(u64),
    /// Another user owns this character.
    #[error("the character is already bound to user {0}")]
    BoundToOther(u64),
    /// The character has no part to move.
    #[error("the character has no Part to move (give it a HumanoidRootPart)")]
    NoRootPart,
    /// The character belongs to the platform.
    #[error("BindCharacter: the entity belongs to the platform")]
    PlatformOwned,
    /// Players were created without schemas (`Players::default`).
    #[error("the character components are not registered")]
    NoSchemas,
    /// The arena refused a write (the place's text or instance limits).
    #[error("{0}")]
    Arena(#[from] ArenaError),
}

/// A colour per user, from a fixed palette (the appearance seed).
fn seeded_color(user_id: u64) -> Color {
    const PALETTE: [[u8; 3]; 8] = [
        [196, 40, 28],
        [13, 105, 172],
        [39, 70, 45],
        [245, 205, 48],
        [107, 50, 124],
        [218, 133, 65],
        [17, 17, 17],
        [242, 243, 243],
    ];
    let [r, g, b] = PALETTE[(user_id.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 61) as usize];
    Color([r, g, b, 255])
}

impl Players {
    /// Binds `character` to `user_id` (see the module docs). The check order decides which
    /// error a script sees when several apply: connection, destroyed, class, platform, the
    /// user's own character, another owner, the root part.
    pub fn bind_character(
        &mut self,
        arena: &mut Arena,
        user_id: u64,
        character: Id,
    ) -> Result<(), BindError> {
        let schemas = self.schemas.ok_or(BindError::NoSchemas)?;
        let Some(session) = self.sessions.get(&user_id) else { return Err(BindError::NotConnected(user_id)) };
        let node = arena.get(character).ok_or(BindError::Destroyed)?;
        if node.class() != Class::Character {
            return Err(BindError::NotACharacter(node.class().name()));
        }
        if node.flags().contains(NodeFlags::PLATFORM_OWNED) {
            return Err(BindError::PlatformOwned);
        }
        if session.character.is_some_and(|c| arena.contains(c)) {
            return Err(BindError::AlreadyOwns(user_id));
        }
        if let Some(other) = self.owner_of(arena, character) {
            return Err(BindError::BoundToOther(other));
        }
        let root = root_part(arena, character).ok_or(BindError::NoRootPart)?;
        let display_name: std::sync::Arc<str> = session.display_name.as_str().into();

        let mut added: Vec<ComponentId> = Vec::new();
        let result = (|| -> Result<(), ArenaError> {
            let identity = [FieldValue::I64(user_id as i64), FieldValue::String(display_name)];
            if arena.add_component(character, schemas.identity, Some(&identity))? {
                added.push(schemas.identity);
            }
            let missing = |arena: &Arena, c| !arena.components().has(character, c);
            if missing(arena, schemas.move_intent) {
                let v = [FieldValue::Vector3(Vec3::ZERO), FieldValue::Bool(false)];
                arena.add_component(character, schemas.move_intent, Some(&v))?;
                added.push(schemas.move_intent);
            }
            if missing(arena, schemas.humanoid_state) {
                let v = [
                    FieldValue::String("Running".into()),
                    FieldValue::F64(DEFAULT_WALK_SPEED),
                    FieldValue::F64(DEFAULT_JUMP_POWER),
                ];
                arena.add_component(character, schemas.humanoid_state, Some(&v))?;
                added.push(schemas.humanoid_state);
            }
            if missing(arena, schemas.floor_info) {
                arena.add_component(character, schemas.floor_info, None)?;
                added.push(schemas.floor_info);
            }
            Ok(())
        })();
        if let Err(e) = result {
            // Removing what this call added from a live instance cannot fail.
            for c in added {
                infallible(arena.remove_component(character, c));
            }
            return Err(e.into());
        }
        // Infallible from here: the instance is live and the flag and colour carry no text.
        let appearance = arena.get(root).map(|n| n.appearance()).unwrap_or_default();
        infallible(arena.set_appearance(root, Appearance { color: seeded_color(user_id), ..appearance }));
        infallible(arena.set_flag(character, NodeFlags::TRANSIENT, true));
        if let Some(s) = self.sessions.get_mut(&user_id) {
            let Session { character: owned, .. } = s;
            *owned = Some(character);
        }
        Ok(())
    }
}
