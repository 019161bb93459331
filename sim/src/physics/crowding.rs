//! The bound on pair work, world-wide: a crowd degrades physics, never the server.
//!
//! rapier keeps work and memory for every pair of overlapping leaves, so a pile or a huge
//! part at one spot would cost without bound (figures: `docs/perf/physics.md`, "What rapier
//! costs a crowd"). So before each step the crowding pass decides which bodies rapier sees,
//! counting overlaps of *reaches* (collider AABBs with rapier's margins, see `overlap`), so
//! extents count, not centres:
//!
//! - **Anchored parts** are admitted one by one against the anchored parts already admitted
//!   of the same or a larger size level (`overlap::level`): one overlapping more than
//!   [`MAX_ANCHORED_OVERLAPS`] of them is suspended (its fixed body disabled: no collider in
//!   the broad phase, no raycast hits). Bigger anchored parts never count the smaller ones
//!   they cover, so a baseplate under a city is admitted whatever the order; a pile at one
//!   spot keeps [`MAX_ANCHORED_OVERLAPS`]` + 1` parts. Admission is incremental: written or
//!   new anchored parts are checked at the next step, and parts suspended near a vacated
//!   spot are retried.
//! - **Dynamic parts** are admitted in order — larger size level first, then id — against
//!   the simulated bodies: one whose reach overlaps [`MAX_BODIES_PER_CELL`] simulated
//!   dynamic bodies, or more than [`MAX_ANCHORED_OVERLAPS`] anchored ones, is suspended
//!   (disabled: no contacts, no motion, resuming where it was). A body overlapping
//!   [`CROWDED_AT`] or more is *crowded*; the crowded bodies of the whole world share
//!   [`MAX_CROWDED_PAIRS`] pairs, all simulated dynamic bodies share [`MAX_DYNAMIC_PAIRS`],
//!   and a body past either budget is suspended too. New and written dynamic bodies are
//!   checked at the next step against the others; every body is re-checked (a *full pass*,
//!   which also resumes suspended bodies whose spot has room) after enough changes, every
//!   [`RESUME_EVERY`] steps while bodies are suspended (backing off to every
//!   [`FULL_PASS_EVERY`] steps while passes resume none), and every [`FULL_PASS_EVERY`]
//!   steps while bodies are awake (piles formed by motion). A full pass's cost:
//!   `docs/perf/physics.md`.
//!
//! So the pairs rapier holds are bounded world-wide: at most [`MAX_DYNAMIC_PAIRS`] with a
//! dynamic side, of which at most [`MAX_CROWDED_PAIRS`] among crowded bodies (the rest at
//! most `CROWDED_AT - 1` per body), and at most [`MAX_ANCHORED_OVERLAPS`] anchored ones listed
//! per anchored part inserted. With the body cap (`PhysicsConfig::max_bodies`) that bounds
//! physics memory. (Between full passes bodies move: the counts are those of the last check,
//! which runs at least every [`FULL_PASS_EVERY`] steps.) The choices depend only on the
//! arena and the step count, so every run makes the same ones. [`Physics::suspended_bodies`]
//! reports them for the profiler.
//!
//! Invariants: an entry is `Unchecked` exactly when it is listed in `dirty` (new or changed
//! since the last step; so after [`Physics::limit_crowding`] none is); a body is disabled
//! exactly when its standing is a suspended one (only this pass disables bodies); an
//! `Anchored(l)` entry is a leaf of the
//! level-`l` anchored tree, an `AnchoredSuspended` one of the waiting tree, a `Dynamic` one
//! of the dynamic tree (until the next full pass rebuilds it), and nothing else is a leaf.

use super::Physics;
use super::crowding_state::{CrowdingStats, Standing};
use super::dormancy::ANCHORED_SLACK;
use super::overlap;
use rapier3d::prelude::{Aabb, BoundingVolume};
use std::cmp::Reverse;

/// Dynamic bodies that simulate at one spot: a dynamic body whose reach overlaps this many
/// simulated dynamic bodies is suspended.
pub const MAX_BODIES_PER_CELL: usize = 64;

/// Anchored parts a part may overlap: an anchored part overlapping more admitted anchored
/// parts of its size level or larger, or a dynamic body overlapping more anchored parts, is
/// suspended.
pub const MAX_ANCHORED_OVERLAPS: usize = 128;

/// Overlaps from which a dynamic body counts as crowded.
pub const CROWDED_AT: usize = 16;

/// Pairs the crowded dynamic bodies of the whole world may have, together.
pub const MAX_CROWDED_PAIRS: usize = 32_768;

/// Pairs the simulated dynamic bodies of the whole world may have, together (~1.7 KB each
/// for resting neighbours, ~2.9 KB for deep overlaps: under 1.5 GB).
pub const MAX_DYNAMIC_PAIRS: usize = 1 << 19;

/// Changed bodies (at least; one eighth of the bodies in a larger world) after which the
/// next step re-checks every dynamic body rather than the changed ones only.
pub const RECHECK_AFTER_CHANGES: usize = 64;

/// While bodies are suspended, a full pass runs every this many steps (to resume them).
pub const RESUME_EVERY: u32 = 4;

/// While bodies are awake, a full pass runs at least every this many steps.
pub const FULL_PASS_EVERY: u32 = 60;

/// One part to check.
struct Candidate {
    index: u32,
    id: u64,
    level: u8,
    reach: Aabb,
}

impl Physics {
    /// The crowding pass (see the module docs); runs before every step.
    pub(super) fn limit_crowding(&mut self) {
        let c = &self.crowding;
        let resume_every = c.resume_every.max(RESUME_EVERY);
        let full = c.pending >= RECHECK_AFTER_CHANGES.max(self.index.len() / 8)
            || (c.stats.suspended_dynamic > 0 && c.since_full + 1 >= resume_every)
            || (c.since_full + 1 >= FULL_PASS_EVERY && self.world.islands.num_active_bodies() > 0);
        self.crowding.resumed = 0;
        let checked = self.check_all(full);
        self.update_regions(&checked, self.world.integration_parameters.dt);
        let c = &mut self.crowding;
        if full {
            c.since_full = 0;
            c.resume_every = if c.resumed == 0 && c.stats.suspended_dynamic > 0 {
                (resume_every * 2).min(FULL_PASS_EVERY)
            } else {
                RESUME_EVERY
            };
        } else {
            c.since_full += 1;
        }
    }

    /// Checks the listed entries (anchored ones first), or every dynamic body when `full`;
    /// returns the dynamic entries checked.
    fn check_all(&mut self, full: bool) -> Vec<u32> {
        let mut dirty = std::mem::take(&mut self.crowding.dirty);
        dirty.sort_unstable();
        dirty.dedup();
        self.check_anchored(&dirty);
        dirty.retain(|&i| self.entries[i as usize].as_ref().is_some_and(|e| !e.anchored));
        self.check_dynamic(dirty, full)
    }

    /// Runs the crowding pass now, re-checking every dynamic body (a full pass). The step
    /// runs the pass on its own schedule; this is for tools and benchmarks.
    pub fn recheck_crowding(&mut self) {
        let checked = self.check_all(true);
        self.update_regions(&checked, self.world.integration_parameters.dt);
        self.crowding.since_full = 0;
    }

    /// Notes that entry `index` is new or was changed (pose, size, shape, type): it leaves
    /// the crowding structures and is checked before the next step — unless it is an
    /// admitted anchored part whose new reach still lies within its leaf at the same size
    /// level, whose standing (and dormancy) the change cannot alter.
    pub(super) fn note_changed(&mut self, index: u32) {
        let Some(e) = self.entries[index as usize].as_ref() else { return };
        if e.standing == Standing::Unchecked {
            return; // Listed already (new, or changed earlier since the last step).
        }
        if let Standing::Anchored(level) = e.standing
            && e.anchored
            && let Some(leaf) = self.crowding.anchored_leaf(level, index)
            && let Some(reach) = self.reach_of(e)
            && overlap::level(&reach) == level as usize
            && leaf.contains(&reach)
        {
            return;
        }
        self.detach(index);
        self.crowding.list(index);
    }

    /// Takes entry `index` out of the crowding structures (its standing becomes
    /// `Unchecked`; its body keeps its enabled state until it is settled or removed).
    pub(super) fn detach(&mut self, index: u32) {
        let Some(e) = self.entries[index as usize].as_mut() else { return };
        let c = &mut self.crowding;
        match std::mem::take(&mut e.standing) {
            Standing::Unchecked => {}
            Standing::Anchored(level) => {
                if let Some(reach) = c.anchored[level as usize].remove(index) {
                    c.vacated.push(reach);
                }
            }
            Standing::AnchoredSuspended => {
                c.waiting.remove(index);
                c.stats.suspended_anchored -= 1;
            }
            Standing::Dynamic => {
                c.dynamic.remove(index);
            }
            Standing::DynamicSuspended => c.stats.suspended_dynamic -= 1,
        }
    }

    /// Gives detached entry `index` its standing and enables or disables its body to match.
    fn settle(&mut self, index: u32, standing: Standing) {
        let Some(e) = self.entries[index as usize].as_mut() else { return };
        debug_assert_eq!(e.standing, Standing::Unchecked);
        e.standing = standing;
        match standing {
            Standing::AnchoredSuspended => self.crowding.stats.suspended_anchored += 1,
            Standing::DynamicSuspended => self.crowding.stats.suspended_dynamic += 1,
            _ => {}
        }
        let leaf = match standing {
            Standing::Anchored(level) => self.crowding.anchored_leaf(level, index),
            _ => None,
        };
        let dormant = self.settle_dormancy(index, standing, leaf.as_ref());
        let Some(e) = self.entries[index as usize].as_ref() else { return };
        let has_body = self.world.bodies.contains(e.body);
        // An anchored part rapier would not see (dormant, or suspended in a pile) has no
        // rapier body at all; a suspended dynamic body keeps its (disabled) body and state.
        if dormant || standing == Standing::AnchoredSuspended {
            if has_body {
                self.remove_rapier(index);
            }
            return;
        }
        if !has_body {
            self.insert_rapier(index);
        }
        let Some(e) = self.entries[index as usize].as_ref() else { return };
        let enable = !standing.suspended();
        // Read first: `get_mut` marks the body modified for rapier.
        if self.world.bodies.get(e.body).is_some_and(|b| b.is_enabled() != enable)
            && let Some(body) = self.world.bodies.get_mut(e.body)
        {
            body.set_enabled(enable);
            if enable && body.is_dynamic() {
                body.wake_up(true);
                self.crowding.resumed += 1;
            }
        }
    }

    /// Detaches entry `index` and describes it for a check, or `None` (settling it as
    /// suspended) if it has no finite reach. `None` too if there is no such entry.
    fn candidate(&mut self, index: u32) -> Option<Candidate> {
        self.detach(index);
        let e = self.entries[index as usize].as_ref()?;
        if e.anchored {
            self.dormancy.forget_region(index);
        }
        let reach = self.reach_of(e);
        let Some(reach) = reach else {
            let standing = if e.anchored { Standing::AnchoredSuspended } else { Standing::DynamicSuspended };
            self.settle(index, standing);
            return None;
        };
        Some(Candidate { index, id: e.id.0, level: overlap::level(&reach) as u8, reach })
    }

    /// Checks the new and written anchored parts, and the suspended ones near a vacated
    /// spot, in order (larger level first, then id).
    fn check_anchored(&mut self, dirty: &[u32]) {
        let mut todo = Vec::new();
        for &i in dirty {
            if self.entries[i as usize].as_ref().is_some_and(|e| e.anchored) {
                todo.extend(self.candidate(i));
            }
        }
        if todo.is_empty() && self.crowding.vacated.is_empty() {
            return;
        }
        let vacated = std::mem::take(&mut self.crowding.vacated);
        let mut retry = Vec::new();
        for reach in &vacated {
            self.crowding.waiting.overlapping(reach, &mut retry);
        }
        retry.sort_unstable();
        retry.dedup();
        for i in retry {
            if self.entries[i as usize].as_ref().is_some_and(|e| e.standing == Standing::AnchoredSuspended) {
                todo.extend(self.candidate(i));
            }
        }
        todo.sort_unstable_by_key(|c| (Reverse(c.level), c.id));
        for c in todo {
            let mut overlaps = 0;
            for tree in &self.crowding.anchored[c.level as usize..] {
                overlaps += tree.count(&c.reach, MAX_ANCHORED_OVERLAPS + 1 - overlaps);
                if overlaps > MAX_ANCHORED_OVERLAPS {
                    break;
                }
            }
            if overlaps > MAX_ANCHORED_OVERLAPS {
                self.crowding.waiting.insert(c.index, c.reach);
                self.settle(c.index, Standing::AnchoredSuspended);
            } else {
                self.crowding.anchored[c.level as usize].insert(c.index, c.reach.loosened(ANCHORED_SLACK));
                self.settle(c.index, Standing::Anchored(c.level));
            }
        }
    }

    /// Checks the changed dynamic bodies in `dirty`, or every dynamic body when `full`, in
    /// order (larger level first, then id).
    fn check_dynamic(&mut self, dirty: Vec<u32>, full: bool) -> Vec<u32> {
        let indices: Vec<u32> = if full {
            let c = &mut self.crowding;
            c.dynamic.clear();
            c.pending = 0;
            c.stats.dynamic_pairs = 0;
            c.stats.crowded_pairs = 0;
            c.stats.full_passes += 1;
            // The tree was emptied: no `Dynamic` entry is a leaf any more. The dynamic entries
            // are listed, so a pass costs the dynamic bodies, not every anchored part.
            let mut dynamic: Vec<u32> = self.dynamic_entries.iter().copied().collect();
            dynamic.sort_unstable();
            for &i in &dynamic {
                if let Some(e) = self.entries[i as usize].as_mut()
                    && e.standing == Standing::Dynamic
                {
                    e.standing = Standing::Unchecked;
                }
            }
            dynamic
        } else {
            dirty
        };
        let mut todo = Vec::with_capacity(indices.len());
        for &i in &indices {
            if self.entries[i as usize].as_ref().is_some_and(|e| !e.anchored) {
                todo.extend(self.candidate(i));
            }
        }
        todo.sort_unstable_by_key(|c| (Reverse(c.level), c.id));
        for c in todo {
            let standing =
                if self.admit_dynamic(&c) { Standing::Dynamic } else { Standing::DynamicSuspended };
            self.settle(c.index, standing);
        }
        indices
    }

    /// Whether dynamic candidate `c` simulates; if so it joins the dynamic tree and its
    /// pairs are counted.
    fn admit_dynamic(&mut self, c: &Candidate) -> bool {
        let cr = &mut self.crowding;
        let dynamic = cr.dynamic.count(&c.reach, MAX_BODIES_PER_CELL);
        if dynamic >= MAX_BODIES_PER_CELL {
            return false;
        }
        let mut anchored = 0;
        for tree in &cr.anchored {
            anchored += tree.count(&c.reach, MAX_ANCHORED_OVERLAPS + 1 - anchored);
            if anchored > MAX_ANCHORED_OVERLAPS {
                return false;
            }
        }
        let pairs = dynamic + anchored;
        if cr.stats.dynamic_pairs + pairs > MAX_DYNAMIC_PAIRS {
            return false;
        }
        if pairs >= CROWDED_AT {
            if cr.stats.crowded_pairs + pairs > MAX_CROWDED_PAIRS {
                return false;
            }
            cr.stats.crowded_pairs += pairs;
        }
        cr.stats.dynamic_pairs += pairs;
        cr.dynamic.insert(c.index, c.reach);
        true
    }

    /// Parts whose physics is degraded: bodies suspended by the crowding pass (dynamic and
    /// anchored) plus parts without a body because the world holds
    /// [`PhysicsConfig::max_bodies`](super::PhysicsConfig::max_bodies) bodies. The profiler's
    /// `suspended_bodies` counter.
    pub fn suspended_bodies(&self) -> usize {
        let s = &self.crowding.stats;
        s.suspended_dynamic + s.suspended_anchored + self.over_cap.len()
    }

    /// What the crowding pass holds now (see `crowding`).
    pub fn crowding_stats(&self) -> CrowdingStats {
        self.crowding.stats
    }

    /// Whether part `id`'s body is suspended by the crowding pass.
    pub fn is_suspended(&self, id: arbor_core::Id) -> bool {
        self.entry(id).is_some_and(|e| e.standing.suspended())
    }
}
