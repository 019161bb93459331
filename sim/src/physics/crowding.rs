//! The bound on contact work: a pile-up of dynamic parts degrades physics, not the server.
//!
//! Rapier keeps a contact graph whose pair insertion searches a body's edges, so `n`
//! dynamic parts overlapping at one spot cost it about `n³` per step (300 took 400 ms a
//! tick, 1,000 took 48 s and 2.4 GB, 10,000 aborted). Before a step, [`Crowding`] buckets
//! the dynamic bodies into cells of [`CELL_SIZE`] studs; in a cell holding more than
//! [`MAX_BODIES_PER_CELL`], the bodies past that many (in id order, so the choice is
//! deterministic) are *suspended*: disabled in rapier (no contacts, no motion) until their
//! cell has room again, when they resume where they were. [`Physics::suspended_bodies`]
//! reports how many are suspended, for the profiler.
//!
//! The pass is linear in the dynamic bodies, so it runs only when it can matter: after a
//! sync that added or re-posed at least [`RECHECK_AFTER_CHANGES`] bodies (how piles appear:
//! a clone loop, a file, a teleport), and on every step while bodies are suspended.
//!
//! Invariant: a suspended body is dynamic and disabled, and only this pass disables bodies.

use super::Physics;
use glam::Vec3;
use rapier3d::prelude::RigidBodyHandle;
use rustc_hash::FxHashMap;

/// Side of a crowding cell, studs.
pub const CELL_SIZE: f32 = 4.0;

/// Dynamic bodies one cell simulates at most.
pub const MAX_BODIES_PER_CELL: usize = 64;

/// Bodies a sync must add or re-pose before the crowding pass runs again.
pub const RECHECK_AFTER_CHANGES: usize = 64;

/// The crowding state of one physics world.
#[derive(Debug, Default)]
pub(super) struct Crowding {
    /// Bodies suspended by the last pass.
    suspended: Vec<RigidBodyHandle>,
    /// Whether the next step must run the pass.
    due: bool,
}

impl Crowding {
    /// Notes a sync that added or re-posed `changed` bodies.
    pub fn note_changes(&mut self, changed: usize) {
        if changed >= RECHECK_AFTER_CHANGES {
            self.due = true;
        }
    }

    /// Bodies suspended now.
    pub fn suspended(&self) -> usize {
        self.suspended.len()
    }
}

/// The cell holding `p`.
fn cell_of(p: Vec3) -> (i32, i32, i32) {
    let c = (p / CELL_SIZE).floor();
    (c.x as i32, c.y as i32, c.z as i32)
}

impl Physics {
    /// The crowding pass (see the module docs), when due.
    pub(super) fn limit_crowding(&mut self) {
        if !self.crowding.due && self.crowding.suspended.is_empty() {
            return;
        }
        self.crowding.due = false;
        let mut cells: FxHashMap<(i32, i32, i32), Vec<(u64, RigidBodyHandle)>> = FxHashMap::default();
        for entry in self.entries.iter().flatten() {
            if entry.anchored {
                continue;
            }
            let Some(body) = self.world.bodies.get(entry.body) else { continue };
            if !body.is_dynamic() {
                continue;
            }
            cells.entry(cell_of(body.translation())).or_default().push((entry.id.0, entry.body));
        }
        let mut suspend = Vec::new();
        for bodies in cells.values_mut() {
            if bodies.len() > MAX_BODIES_PER_CELL {
                bodies.sort_unstable_by_key(|&(id, _)| id);
                suspend.extend(bodies[MAX_BODIES_PER_CELL..].iter().map(|&(_, h)| h));
            }
        }
        let still: rustc_hash::FxHashSet<RigidBodyHandle> = suspend.iter().copied().collect();
        for &h in &self.crowding.suspended {
            if !still.contains(&h)
                && let Some(body) = self.world.bodies.get_mut(h)
            {
                body.set_enabled(true);
                body.wake_up(true);
            }
        }
        for &h in &suspend {
            if let Some(body) = self.world.bodies.get_mut(h)
                && body.is_enabled()
            {
                body.set_enabled(false);
            }
        }
        self.crowding.suspended = suspend;
    }

    /// Dynamic bodies suspended because their cell was crowded (see `crowding`).
    pub fn suspended_bodies(&self) -> usize {
        self.crowding.suspended()
    }
}
