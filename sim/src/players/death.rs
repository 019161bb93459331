//! Death (`docs/scripting.md`, "Players and characters", **Death**): once per tick, before
//! physics, every `Character` with a `Health` whose `Value` is at most 0 and no `CharacterDead`
//! tag gets the tag (its `HumanoidState` becomes `Dead` and the controller stops driving it;
//! the body stays). On the following tick it gets `DiedAnnounced` and one [`CharacterDied`] is
//! queued for the script host, with the last damage dealer as the attacker. Corpses go only by
//! script or, once announced, by the fallen-parts rule.
//!
//! `Health` is the game's component (a place or script declares it, with at least a number
//! field `Value`; `I32`, `I64`, `F32` and `F64` all work), looked up by name, so a game keeps
//! its own schema. [`Players::damage`] is how scripts deal damage that records its dealer;
//! the dealer is remembered per character until the death is announced or the character
//! goes.

use super::Players;
use super::schemas::HEALTH;
use crate::fallen::DIED_ANNOUNCED;
use arbor_core::{
    Arena, ArenaError, Class, Id,
    components::{ComponentId, FieldValue, Query},
};

/// The tag a dead character gets.
pub const CHARACTER_DEAD: &str = "CharacterDead";

/// One announced death.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CharacterDied {
    /// The character.
    pub character: Id,
    /// Its owner, if a user owns it.
    pub user_id: Option<u64>,
    /// The last damage dealer, if it still exists.
    pub attacker: Option<Id>,
}

/// Why [`Players::damage`] refused.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum DamageError {
    /// The target is gone.
    #[error("entity is destroyed")]
    Destroyed,
    /// The target has no `Health`.
    #[error("the target has no Health component")]
    NoHealth,
    /// The amount is negative, NaN or infinite.
    #[error("damage must be a finite number of at least 0, got {0}")]
    BadAmount(f64),
    /// The arena refused the write.
    #[error("{0}")]
    Arena(#[from] ArenaError),
}

/// `id`'s `Health.Value` as a number.
fn health_of(arena: &Arena, health: ComponentId, id: Id) -> Option<f64> {
    match arena.field(id, health, "Value")? {
        FieldValue::F64(v) => Some(v),
        FieldValue::F32(v) => Some(f64::from(v)),
        FieldValue::I32(v) => Some(f64::from(v)),
        FieldValue::I64(v) => Some(v as f64),
        _ => None,
    }
}

/// `value` in the type of the `Value` field it replaces (integers round towards -inf,
/// saturating).
fn like(current: &FieldValue, value: f64) -> FieldValue {
    match current {
        FieldValue::F32(_) => FieldValue::F32(value as f32),
        FieldValue::I32(_) => FieldValue::I32(value.floor() as i32),
        FieldValue::I64(_) => FieldValue::I64(value.floor() as i64),
        _ => FieldValue::F64(value),
    }
}

impl Players {
    /// Takes `amount` from `target`'s `Health.Value` and records `attacker` as the last
    /// damage dealer. Returns the health left.
    pub fn damage(
        &mut self,
        arena: &mut Arena,
        target: Id,
        amount: f64,
        attacker: Option<Id>,
    ) -> Result<f64, DamageError> {
        if !arena.contains(target) {
            return Err(DamageError::Destroyed);
        }
        if !(amount.is_finite() && amount >= 0.0) {
            return Err(DamageError::BadAmount(amount));
        }
        let health = arena.components().component(HEALTH).ok_or(DamageError::NoHealth)?;
        let current = arena.field(target, health, "Value").ok_or(DamageError::NoHealth)?;
        let now = health_of(arena, health, target).ok_or(DamageError::NoHealth)?;
        let value = like(&current, now - amount);
        arena.set_field(target, health, "Value", value)?;
        if let Some(a) = attacker.filter(|&a| arena.contains(a) && a != target) {
            self.attackers.insert(target, a);
        }
        Ok(health_of(arena, health, target).unwrap_or(now - amount))
    }

    /// The death pass of one tick: announces the deaths marked on earlier ticks, then marks
    /// the new ones. Returns how many were marked.
    pub fn check_deaths(&mut self, arena: &mut Arena) -> usize {
        self.attackers.retain(|&c, _| arena.contains(c));
        let health = arena.components().component(HEALTH);
        // Announce first: whatever carries the tag now was marked before this pass.
        let dead: Vec<Id> = arena.tagged(CHARACTER_DEAD).collect();
        let announced = arena.names().find(DIED_ANNOUNCED);
        let mut to_announce: Vec<Id> = dead
            .into_iter()
            .filter(|&c| arena.get(c).is_some_and(|n| !announced.is_some_and(|t| n.has_tag(t))))
            .collect();
        to_announce.sort_unstable();
        for character in to_announce {
            if arena.add_tag(character, DIED_ANNOUNCED).is_err() {
                continue;
            }
            let attacker = self.attackers.remove(&character).filter(|&a| arena.contains(a));
            let user_id = self.owner_of(arena, character);
            self.died.push(CharacterDied { character, user_id, attacker });
        }
        // Then mark.
        let Some(health) = health else { return 0 };
        let state = self.schemas.map(|s| (s.humanoid_state, s.fields.state));
        let mut query = Query::new(&[health]);
        let candidates = arena.components().ids(&mut query);
        let dead_tag = arena.names().find(CHARACTER_DEAD);
        let mut newly: Vec<Id> = candidates
            .into_iter()
            .filter(|&id| {
                arena
                    .get(id)
                    .is_some_and(|n| n.class() == Class::Character && !dead_tag.is_some_and(|t| n.has_tag(t)))
                    && health_of(arena, health, id).is_some_and(|h| h <= 0.0 || h.is_nan())
            })
            .collect();
        newly.sort_unstable();
        let mut marked = 0;
        for id in newly {
            if arena.add_tag(id, CHARACTER_DEAD).is_ok() {
                marked += 1;
                if let Some((_, field)) = state.filter(|&(c, _)| arena.components().has(id, c)) {
                    let refused = arena.set_field_at(id, field, FieldValue::String("Dead".into())).is_err();
                    self.refused_writes += u64::from(refused);
                }
            }
        }
        marked
    }
}
