//! Locomotion (`docs/scripting.md`, "Players and characters", **Movement**): queued player
//! inputs become each character's `MoveIntent`, which drives it at the start of every physics
//! step. [`Players::drive`] runs in the PhysicsStep phase, after the arena's changes reached
//! rapier and before the step:
//!
//! 1. each connected user's newest input becomes their character's `MoveIntent`;
//! 2. every live `Character` with a `MoveIntent` and no `CharacterDead` tag (users'
//!    characters and scripted NPCs alike) is driven by its root part
//!    ([`Physics::drive_character`]): horizontal velocity `Direction × WalkSpeed`, a jump of
//!    `JumpPower` when `Jump` is set and it stands on something;
//! 3. `FloorInfo` (`Floor`, `Grounded`) and `HumanoidState.State` (`Running`, `Jumping`,
//!    `Freefall`) are written, each only when it changed.
//!
//! Characters are visited in id order, so the step is deterministic.

use super::death::CHARACTER_DEAD;
use super::schemas::{CharacterSchemas, root_part};
use super::{Players, infallible};
use crate::physics::{CharacterDrive, Physics};
use arbor_core::{
    Arena, Class, Id,
    components::{FieldHandle, FieldValue, Query},
};
use glam::Vec3;

fn number(arena: &Arena, id: Id, field: FieldHandle, default: f64) -> f64 {
    match arena.field_at(id, field) {
        Some(FieldValue::F64(v)) if v.is_finite() => v,
        _ => default,
    }
}

/// A ground-plane direction no longer than 1 (non-finite input is no input). A user's input
/// goes through it once on its way into `MoveIntent` and once more when the character is
/// driven; a predicting client does the same ([`character_drive`]).
pub fn ground_direction(v: Vec3) -> Vec3 {
    let flat = Vec3::new(v.x, 0.0, v.z);
    if !flat.is_finite() {
        return Vec3::ZERO;
    }
    if flat.length_squared() > 1.0 { flat.normalize() } else { flat }
}

/// The drive of one physics step for a character whose `MoveIntent.Direction` is `direction`
/// (already through [`ground_direction`]), with `Jump` = `jump`, `WalkSpeed` = `walk` and
/// `JumpPower` = `power`: the server's controller and a predicting client (`arbor-net`'s
/// `prediction`) both build their drive with it, so they step a character alike.
pub fn character_drive(direction: Vec3, jump: bool, walk: f64, power: f64) -> CharacterDrive {
    CharacterDrive {
        velocity: direction * walk.clamp(0.0, 1000.0) as f32,
        jump: jump.then_some(power.clamp(0.0, 1000.0) as f32),
    }
}

impl Players {
    /// Applies inputs and drives every character for one physics step; returns how many
    /// characters were driven.
    pub fn drive(&mut self, arena: &mut Arena, physics: &mut Physics) -> usize {
        let Some(schemas) = self.schemas else { return 0 };
        self.apply_inputs(arena, &schemas);
        let mut query = Query::new(&[schemas.move_intent]);
        let mut movers = arena.components().ids(&mut query);
        if movers.is_empty() {
            return 0;
        }
        movers.sort_unstable();
        let dead = arena.names().find(CHARACTER_DEAD);
        let mut driven = 0;
        for character in movers {
            let Some(node) = arena.get(character) else { continue };
            if node.class() != Class::Character || dead.is_some_and(|t| node.has_tag(t)) {
                continue;
            }
            let Some(root) = root_part(arena, character) else { continue };
            let half_height = arena.get(root).map_or(1.0, |n| n.size().y * 0.5);
            let f = schemas.fields;
            let direction = match arena.field_at(character, f.direction) {
                Some(FieldValue::Vector3(v)) => ground_direction(v),
                _ => Vec3::ZERO,
            };
            let jump = matches!(arena.field_at(character, f.jump), Some(FieldValue::Bool(true)));
            let walk = number(arena, character, f.walk_speed, super::DEFAULT_WALK_SPEED);
            let power = number(arena, character, f.jump_power, super::DEFAULT_JUMP_POWER);
            let drive = character_drive(direction, jump, walk, power);
            let Some(footing) = physics.drive_character(root, half_height, drive) else { continue };
            driven += 1;
            let floor = footing.floor.map(|h| h.id).filter(|&f| arena.contains(f));
            let state = if footing.jumped {
                "Jumping"
            } else if footing.floor.is_none() {
                "Freefall"
            } else {
                "Running"
            };
            self.refused_writes += Self::write_footing(arena, &schemas, character, floor, state);
        }
        driven
    }

    /// Each connected user's newest input into their character's `MoveIntent`.
    fn apply_inputs(&self, arena: &mut Arena, schemas: &CharacterSchemas) {
        // Vector3 and Bool writes to a live character holding the component: nothing to refuse.
        for session in self.sessions.values() {
            let Some(c) = session.character.filter(|&c| arena.contains(c)) else { continue };
            if !arena.components().has(c, schemas.move_intent) {
                continue;
            }
            let [x, z] = session.input.direction;
            let direction = ground_direction(Vec3::new(x, 0.0, z));
            let f = schemas.fields;
            infallible(arena.set_field_at(c, f.direction, FieldValue::Vector3(direction)));
            infallible(arena.set_field_at(c, f.jump, FieldValue::Bool(session.input.jump)));
        }
    }

    /// Writes `character`'s footing (`floor`: live or none) and state; returns how many
    /// writes the arena refused (a `State` string past a full text budget).
    fn write_footing(
        arena: &mut Arena,
        schemas: &CharacterSchemas,
        character: Id,
        floor: Option<Id>,
        state: &str,
    ) -> u64 {
        let f = schemas.fields;
        if arena.components().has(character, schemas.floor_info) {
            infallible(arena.set_field_at(character, f.floor, FieldValue::Ref(floor)));
            infallible(arena.set_field_at(character, f.grounded, FieldValue::Bool(floor.is_some())));
        }
        if arena.components().has(character, schemas.humanoid_state) {
            let same =
                matches!(arena.field_at(character, f.state), Some(FieldValue::String(s)) if &*s == state);
            if !same {
                return u64::from(
                    arena.set_field_at(character, f.state, FieldValue::String(state.into())).is_err(),
                );
            }
        }
        0
    }
}
