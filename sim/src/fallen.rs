//! Fallen parts: on every network tick, unanchored parts below the place's
//! `FallenPartsDestroyHeight` (a Number attribute on the Workspace, default -500) or with a
//! NaN or infinite world position are destroyed.
//!
//! The scan is incremental: it checks the parts written (or entering the world) since the
//! last scan, and the parts under every logged node with children (a written model, a moved
//! folder or character), through the part-write log; it falls
//! back to every in-world part when the log's history is unavailable, and when the destroy
//! height changed since the last scan (parts resting below a raised height fall now,
//! although nothing wrote them). Parts of a `Character`
//! are skipped until the character carries the `DiedAnnounced` tag (the players issue sets
//! it when the death is announced).

use crate::transform::WorldTransforms;
use arbor_core::{Arena, AttributeValue, Class, Family, Id, NodeFlags};

/// Attribute on the Workspace holding the destroy height.
pub const FALLEN_PARTS_DESTROY_HEIGHT: &str = "FallenPartsDestroyHeight";
/// Default destroy height.
pub const DEFAULT_DESTROY_HEIGHT: f64 = -500.0;
/// Tag a character gets once its death was announced.
pub const DIED_ANNOUNCED: &str = "DiedAnnounced";

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
        match arena.attribute(arena.workspace(), FALLEN_PARTS_DESTROY_HEIGHT) {
            Some(AttributeValue::Number(h)) if !h.is_nan() => *h,
            _ => DEFAULT_DESTROY_HEIGHT,
        }
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
        let mut candidates: Vec<Id> = history.unwrap_or_else(|| arena.family(Family::Parts).to_vec());
        self.since = arena.revisions().global;
        let roots: Vec<Id> = candidates
            .iter()
            .copied()
            .filter(|&id| arena.get(id).is_some_and(|n| n.moves_parts_below()))
            .collect();
        candidates.extend(arena.descendants_of_all(&roots));
        candidates.sort_unstable();
        candidates.dedup();
        let fallen: Vec<Id> = candidates
            .into_iter()
            .filter(|&id| {
                let Some(node) = arena.get(id) else { return false };
                if node.class() != Class::Part
                    || node.anchored()
                    || !node.flags().contains(NodeFlags::IN_WORLD)
                {
                    return false;
                }
                let Some(world) = transforms.get(arena, id) else { return false };
                let p = world.position;
                // The ancestor walk last, for the few that fell: a deep tree stays linear.
                (!p.is_finite() || (p.y as f64) < height) && !Self::protected_character_part(arena, id)
            })
            .collect();
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
