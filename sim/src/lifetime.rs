//! Lifetimes: the `Lifetime` component (`Remaining`, seconds, 0 to 3600) counted down at the
//! end of every tick; an instance whose timer reaches zero (within [`EXPIRY_TOLERANCE`], so
//! a lifetime of `k/60` seconds ends at tick `k`) is destroyed with its subtree. Scripts may
//! read `Lifetime` but not change it (`docs/scripting.md`, "Components"); place files and
//! engine code give lifetimes.
//!
//! Only instances in the world (under the Workspace) age: a template stored elsewhere (a
//! prefab, whose copies are spawned with its `Lifetime`) and a detached instance keep their
//! time until they enter the world. A bullet prefab with a three-second lifetime would
//! otherwise expire three seconds after the place starts, and every later spawn of it fail.
//!
//! The countdown is one chunk pass over the `Remaining` lane, reading each row's node flags
//! (one line); expired instances are destroyed after the pass. Values above 3600 are clamped
//! to 3600 when counted.

use arbor_core::{
    Arena, ArenaError, Id, NodeFlags,
    components::{ComponentId, FieldDef, FieldType, Query, Schema, SchemaError},
};

/// Name of the lifetime component.
pub const LIFETIME: &str = "Lifetime";
/// Its one field.
pub const REMAINING: &str = "Remaining";
/// Longest lifetime, in seconds.
pub const MAX_LIFETIME: f64 = 3600.0;

/// A timer at or below this many seconds has run out. Counting `k/60` down by `1/60` leaves
/// rounding residue (0.25 − 15 × (1/60) is 4.9e-17, not 0), which would end the lifetime a
/// tick late; the residue of even 216,000 steps from 3600 stays under 1e-7 s, and one
/// microsecond is 1/16,667 of a tick, so a lifetime of `k/60` seconds ends exactly at tick
/// `k`, and one of `k/60 + 2 µs` at tick `k + 1`.
pub const EXPIRY_TOLERANCE: f64 = 1e-6;

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
        arena.add_component(id, self.component, Some(&[arbor_core::components::FieldValue::F64(value)]))?;
        Ok(())
    }

    /// Subtracts `dt` from the timer of every instance in the world and destroys the ones
    /// that reach zero. Returns how many instances (roots) were destroyed.
    pub fn tick(&mut self, arena: &mut Arena, dt: f64) -> usize {
        if arena.components().row_count() == 0 || arena.components().count(&mut self.query) == 0 {
            return 0;
        }
        let Some(lane) = arena.components().lane(self.component, REMAINING) else { return 0 };
        let mut expired: Vec<Id> = Vec::new();
        arena.for_each_chunk_mut_with_nodes(&mut self.query, &[], &[lane], |mut chunk, nodes| {
            let ids = chunk.ids();
            for (left, id) in chunk.write::<f64>(0).iter_mut().zip(ids) {
                if !nodes.get(*id).is_some_and(|n| n.flags().contains(NodeFlags::IN_WORLD)) {
                    continue; // stored or detached: does not age
                }
                let now = if left.is_nan() { 0.0 } else { left.min(MAX_LIFETIME) - dt };
                let expired_now = now <= EXPIRY_TOLERANCE;
                *left = if expired_now { 0.0 } else { now };
                if expired_now {
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
        let Some(arbor_core::components::FieldValue::F64(left)) =
            arena.field(keeper, lifetimes.component(), REMAINING)
        else {
            panic!("keeper lost its lifetime")
        };
        assert!((left - (MAX_LIFETIME - 3.0 * dt)).abs() < 1e-9, "clamped to 3600: {left}");
    }

    #[test]
    fn a_lifetime_of_k_sixtieths_ends_exactly_at_tick_k() {
        let dt = 1.0 / 60.0;
        for seconds in [1.0 / 60.0, 0.1, 0.25, 0.5, 1.0, 3.0, 10.0, 61.7] {
            let mut arena = Arena::new();
            let ws = arena.workspace();
            let mut lifetimes = Lifetimes::new(&mut arena).unwrap();
            let p = arena.create(Class::Part, "P", Some(ws)).unwrap();
            lifetimes.set(&mut arena, p, seconds).unwrap();
            let k = (seconds * 60.0_f64).round() as usize;
            let mut ended = None;
            for tick in 1..=k + 2 {
                if lifetimes.tick(&mut arena, dt) == 1 {
                    ended = Some(tick);
                    break;
                }
            }
            assert_eq!(ended, Some(k), "a lifetime of {seconds} s");
        }
        // Just over a tick's worth more lives one tick longer.
        let mut arena = Arena::new();
        let ws = arena.workspace();
        let mut lifetimes = Lifetimes::new(&mut arena).unwrap();
        let p = arena.create(Class::Part, "P", Some(ws)).unwrap();
        lifetimes.set(&mut arena, p, 0.25 + 2e-6).unwrap();
        assert_eq!((1..=15).map(|_| lifetimes.tick(&mut arena, dt)).sum::<usize>(), 0);
        assert_eq!(lifetimes.tick(&mut arena, dt), 1, "ends at tick 16");
        assert!(!arena.contains(p));
    }

    #[test]
    fn only_instances_in_the_world_age() {
        let mut arena = Arena::new();
        let ws = arena.workspace();
        let mut lifetimes = Lifetimes::new(&mut arena).unwrap();
        let prefabs = arena.create(Class::Folder, "Prefabs", None).unwrap();
        let template = arena.create(Class::Part, "Bullet", Some(prefabs)).unwrap();
        let detached = arena.create(Class::Part, "Loose", None).unwrap();
        let live = arena.create(Class::Part, "Live", Some(ws)).unwrap();
        for id in [template, detached, live] {
            lifetimes.set(&mut arena, id, 0.02).unwrap();
        }
        let component = lifetimes.component();
        let remaining = |arena: &Arena, id| match arena.field(id, component, REMAINING) {
            Some(arbor_core::components::FieldValue::F64(left)) => left,
            other => panic!("no lifetime: {other:?}"),
        };
        let dt = 1.0 / 60.0;
        for _ in 0..10 {
            lifetimes.tick(&mut arena, dt);
        }
        assert!(!arena.contains(live), "expired in the world");
        assert_eq!((remaining(&arena, template), remaining(&arena, detached)), (0.02, 0.02));
        // Entering the world starts the clock.
        arena.set_parent(detached, Some(ws)).unwrap();
        assert_eq!(lifetimes.tick(&mut arena, dt), 0);
        assert!((remaining(&arena, detached) - (0.02 - dt)).abs() < 1e-12);
        assert_eq!(lifetimes.tick(&mut arena, dt), 1);
        assert!(!arena.contains(detached) && arena.contains(template));
    }
}
