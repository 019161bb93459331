//! Lifetimes: the `Lifetime` component (`Remaining`, seconds, 0 to 3600) counted down at the
//! end of every tick; an instance whose timer reaches zero is destroyed with its subtree.
//!
//! The countdown is one chunk pass over the `Remaining` lane (no per-row lookups); expired
//! instances are destroyed after the pass. Values above 3600 are clamped to 3600 when counted.

use arbor_core::{Arena, ArenaError, ComponentId, FieldDef, FieldType, Id, Query, Schema, SchemaError};

/// Name of the lifetime component.
pub const LIFETIME: &str = "Lifetime";
/// Its one field.
pub const REMAINING: &str = "Remaining";
/// Longest lifetime, in seconds.
pub const MAX_LIFETIME: f64 = 3600.0;

/// The `Lifetime` schema: one `F64` field, `Remaining`.
pub fn lifetime_schema() -> Schema {
    Schema::new(LIFETIME, vec![FieldDef::new(REMAINING, FieldType::F64)])
}

/// Counts lifetimes down and destroys expired instances.
#[derive(Clone, Debug)]
pub struct Lifetimes {
    component: ComponentId,
    query: Query,
}

impl Lifetimes {
    /// Registers (or finds) the `Lifetime` component on `arena`.
    pub fn new(arena: &mut Arena) -> Result<Self, SchemaError> {
        let component = arena.register_component(lifetime_schema())?;
        Ok(Self { component, query: Query::new(&[component]) })
    }

    /// The component id.
    pub fn component(&self) -> ComponentId {
        self.component
    }

    /// Gives `id` a lifetime of `seconds` (clamped to 0..=3600).
    pub fn set(&self, arena: &mut Arena, id: Id, seconds: f64) -> Result<(), ArenaError> {
        let value = if seconds.is_nan() { 0.0 } else { seconds.clamp(0.0, MAX_LIFETIME) };
        arena.add_component(id, self.component, Some(&[arbor_core::FieldValue::F64(value)]))?;
        Ok(())
    }

    /// Subtracts `dt` from every timer and destroys the instances that reach zero. Returns
    /// how many instances (roots) were destroyed.
    pub fn tick(&mut self, arena: &mut Arena, dt: f64) -> usize {
        if arena.components().row_count() == 0 || arena.components().ids(&mut self.query).is_empty() {
            return 0;
        }
        let Some(lane) = arena.components().lane(self.component, REMAINING) else { return 0 };
        let mut expired: Vec<Id> = Vec::new();
        arena.for_each_chunk_mut(&mut self.query, &[], &[lane], |mut chunk| {
            let ids = chunk.ids();
            for (left, id) in chunk.write::<f64>(0).iter_mut().zip(ids) {
                let now = if left.is_nan() { 0.0 } else { left.min(MAX_LIFETIME) - dt };
                *left = now.max(0.0);
                if now <= 0.0 {
                    expired.push(*id);
                }
            }
        });
        let mut destroyed = 0;
        for id in expired {
            // Already gone with an expired ancestor, or platform-owned: nothing to do.
            if let Ok(true) = arena.destroy(id) {
                destroyed += 1;
            }
        }
        destroyed
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use arbor_core::Class;

    #[test]
    fn timers_count_down_and_destroy_the_subtree_at_zero() {
        let mut arena = Arena::new();
        let ws = arena.workspace();
        let mut lifetimes = Lifetimes::new(&mut arena).unwrap();
        let bullet = arena.create(Class::Part, "Bullet", Some(ws)).unwrap();
        let trail = arena.create(Class::Part, "Trail", Some(bullet)).unwrap();
        let keeper = arena.create(Class::Part, "Keeper", Some(ws)).unwrap();
        lifetimes.set(&mut arena, bullet, 0.04).unwrap();
        lifetimes.set(&mut arena, keeper, 99_999.0).unwrap();
        let dt = 1.0 / 60.0;
        assert_eq!(lifetimes.tick(&mut arena, dt), 0);
        assert_eq!(lifetimes.tick(&mut arena, dt), 0);
        assert!(arena.contains(bullet));
        assert_eq!(lifetimes.tick(&mut arena, dt), 1);
        assert!(!arena.contains(bullet) && !arena.contains(trail));
        let Some(arbor_core::FieldValue::F64(left)) = arena.field(keeper, lifetimes.component(), REMAINING)
        else {
            panic!("keeper lost its lifetime")
        };
        assert!((left - (MAX_LIFETIME - 3.0 * dt)).abs() < 1e-9, "clamped to 3600: {left}");
    }
}
