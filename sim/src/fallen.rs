//! Fallen parts: on every network tick, unanchored parts below the place's
//! `FallenPartsDestroyHeight` (a Number attribute on the Workspace, default -500) or with a
//! NaN or infinite world position are destroyed.
//!
//! The scan is incremental: it checks the parts written (or entering the world) since the
//! last scan, and the parts under every logged node with children (a written model, a moved
//! folder or character), through the part-write log; it falls back to every in-world part
//! when the log's history is unavailable, and when the destroy height changed since the last
//! scan (parts resting below a raised height fall now, although nothing wrote them). Parts
//! of a `Character` are skipped until the character carries the `DiedAnnounced` tag (the
//! players issue sets it when the death is announced).
//!
//! The scan costs what was written, not what is unanchored: each logged id costs one read
//! of its node's hot record (class, flags and whether it has children in one line, reached
//! through the arena's [`NodesView`] and asked for a few ids
//! ahead), and only the unanchored parts among them a read of their world (asked for ahead
//! too). A node logged twice is checked twice (the log repeats a body written every tick);
//! the few parts found fallen are sorted and deduplicated, so a scan destroys each once, in
//! id order, whatever the log's repeats and order.

use crate::prefetch::prefetch_ptr;
use crate::transform::WorldTransforms;
use arbor_core::settings::FALLEN_PARTS_DESTROY_HEIGHT;
use arbor_core::{
    Arena, Class, Family, Id, NodeFlags,
    raw::{NodeRef, NodesView, Slot},
};

/// Tag a character gets once its death was announced.
pub const DIED_ANNOUNCED: &str = "DiedAnnounced";

/// Logged ids ahead of the one being checked whose hot records are asked for.
const HOT_AHEAD: usize = 16;
/// Loose parts ahead of the one being checked whose worlds are asked for.
const WORLD_AHEAD: usize = 16;

/// The incremental fallen-parts scanner.
#[derive(Clone, Debug, Default)]
pub struct FallenParts {
    since: u64,
    /// The destroy height of the last scan (its bits; `None` before the first).
    height_scanned: Option<u64>,
}

impl FallenParts {
    /// The place's destroy height.
    pub fn destroy_height(arena: &Arena) -> f64 {
        FALLEN_PARTS_DESTROY_HEIGHT.value(arena)
    }

    /// Destroys fallen parts; returns how many were destroyed.
    pub fn scan(&mut self, arena: &mut Arena, transforms: &WorldTransforms) -> usize {
        let height = Self::destroy_height(arena);
        let height_changed = self.height_scanned.replace(height.to_bits()) != Some(height.to_bits());
        let history = if height_changed && self.since > 0 {
            None
        } else {
            arena.part_writes_since(self.since).ok().map(Iterator::collect::<Vec<Id>>)
        };
        let everything;
        let candidates: &[Id] = match &history {
            Some(logged) => logged,
            None => {
                everything = arena.family(Family::Parts);
                &everything
            }
        };
        let view = arena.nodes_view();
        // The loose parts among the candidates (unanchored in-world parts, with their slots),
        // and the nodes whose subtrees moved with them.
        let mut loose = Vec::new();
        let mut containers = Vec::new();
        for (k, &id) in candidates.iter().enumerate() {
            if let Some(&ahead) = candidates.get(k + HOT_AHEAD) {
                prefetch_hot(&view, ahead);
            }
            let Some((slot, node)) = view.locate(id) else { continue };
            if node.is_destroyed() {
                continue;
            }
            if node.moves_parts_below() {
                containers.push(id);
            }
            if is_loose_part(&node) {
                loose.push((slot, id));
            }
        }
        if !containers.is_empty() {
            for id in arena.descendants_of_all(&containers) {
                if let Some((slot, node)) = view.locate(id)
                    && !node.is_destroyed()
                    && is_loose_part(&node)
                {
                    loose.push((slot, id));
                }
            }
        }
        let mut fallen = Vec::new();
        for (k, &(slot, id)) in loose.iter().enumerate() {
            if let Some(&(ahead, _)) = loose.get(k + WORLD_AHEAD) {
                transforms.prefetch(ahead);
            }
            let Some(p) = transforms.position_at(slot, id) else { continue };
            if !p.is_finite() || (p.y as f64) < height {
                fallen.push(id);
            }
        }
        drop(view);
        fallen.sort_unstable();
        fallen.dedup();
        // The ancestor walk last, for the few that fell: a deep tree stays linear.
        fallen.retain(|&id| !Self::protected_character_part(arena, id));
        let mut destroyed = 0;
        for id in fallen {
            if let Ok(true) = arena.destroy(id) {
                destroyed += 1;
            }
        }
        self.since = arena.revisions().global;
        destroyed
    }

    /// Whether `id` belongs to a character whose death has not been announced.
    fn protected_character_part(arena: &Arena, id: Id) -> bool {
        let died = arena.names().find(DIED_ANNOUNCED);
        arena.ancestors(id).any(|a| {
            arena
                .get(a)
                .is_some_and(|n| n.class() == Class::Character && !died.is_some_and(|tag| n.has_tag(tag)))
        })
    }
}

/// Whether `node` (live) is an unanchored part in the world: one that can fall.
#[inline]
fn is_loose_part(node: &NodeRef<'_>) -> bool {
    node.class() == Class::Part && !node.anchored() && node.flags().contains(NodeFlags::IN_WORLD)
}

/// Asks for the line of `id`'s hot record in the usual case of slot `id - 1` (a hint: a
/// prefetch never faults and reads nothing).
#[inline]
fn prefetch_hot(view: &NodesView<'_>, id: Id) {
    let slot = id.0.wrapping_sub(1);
    if slot < u64::from(view.slots())
        && let Some((page, i)) = view.page_of(Slot(slot as u32))
    {
        prefetch_ptr(page.hot().as_ptr().wrapping_add(i));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::transform::PassMode;
    use arbor_core::{InstanceEvent, Vec3};

    fn part(arena: &mut Arena, parent: Id, y: f32, anchored: bool) -> Id {
        let p = arena.create(Class::Part, "P", Some(parent)).unwrap();
        arena.set_position(p, Vec3::new(0.0, y, 0.0)).unwrap();
        arena.set_flag(p, NodeFlags::ANCHORED, anchored).unwrap();
        p
    }

    fn pass(arena: &mut Arena, worlds: &mut WorldTransforms) {
        let dirty = arena.take_dirty_transforms();
        worlds.update(arena, &dirty, PassMode::default());
    }

    /// The roots of the `Destroyed` events queued since the last drain, in order.
    fn destroyed(arena: &mut Arena) -> Vec<Id> {
        let events = arena.drain_events();
        events
            .iter()
            .filter_map(|e| if let InstanceEvent::Destroyed { root, .. } = e { Some(*root) } else { None })
            .collect()
    }

    #[test]
    fn a_part_logged_many_times_is_destroyed_once_and_fallen_parts_go_in_id_order() {
        let mut arena = Arena::new();
        let ws = arena.workspace();
        let parts: Vec<Id> = (0..4).map(|_| part(&mut arena, ws, 5.0, false)).collect();
        let mut worlds = WorldTransforms::new();
        let mut fallen = FallenParts::default();
        pass(&mut arena, &mut worlds);
        assert_eq!(fallen.scan(&mut arena, &worlds), 0);
        arena.drain_events();
        // Written in reverse id order, the last one several times, all below the height.
        for (k, &p) in parts.iter().enumerate().rev() {
            for y in 0..=k {
                arena.set_position(p, Vec3::new(0.0, -600.0 - y as f32, 0.0)).unwrap();
            }
        }
        pass(&mut arena, &mut worlds);
        assert_eq!(fallen.scan(&mut arena, &worlds), 4);
        assert_eq!(destroyed(&mut arena), parts);
        assert_eq!(fallen.scan(&mut arena, &worlds), 0, "nothing written since");
    }

    #[test]
    fn a_moved_model_reaps_its_loose_parts_only_and_a_nan_part_falls() {
        let mut arena = Arena::new();
        let ws = arena.workspace();
        let model = arena.create(Class::Model, "M", Some(ws)).unwrap();
        let loose = part(&mut arena, model, 5.0, false);
        let fixed = part(&mut arena, model, 5.0, true);
        let character = arena.create(Class::Character, "C", Some(model)).unwrap();
        let limb = part(&mut arena, character, 5.0, false);
        let elsewhere = part(&mut arena, ws, 5.0, false);
        let mut worlds = WorldTransforms::new();
        let mut fallen = FallenParts::default();
        pass(&mut arena, &mut worlds);
        assert_eq!(fallen.scan(&mut arena, &worlds), 0);
        arena.set_position(model, Vec3::new(0.0, -1000.0, 0.0)).unwrap();
        arena.set_position(elsewhere, Vec3::new(f32::NAN, 0.0, 0.0)).unwrap();
        pass(&mut arena, &mut worlds);
        assert_eq!(fallen.scan(&mut arena, &worlds), 2);
        assert!(arena.get(loose).is_none() && arena.get(elsewhere).is_none());
        assert!(arena.get(fixed).is_some(), "anchored parts stay");
        assert!(arena.get(limb).is_some(), "a character's parts wait for its death to be announced");
    }
}
