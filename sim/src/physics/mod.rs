//! Physics: a rapier3d world mirroring the arena's parts.
//!
//! [`Physics`] owns every piece of rapier state (a [`PhysicsWorld`]: body and collider sets,
//! pipeline, islands, broad and narrow phase, CCD solver, joints) and a two-way map between
//! arena ids and rapier handles. Each tick the engine calls, in order:
//!
//! 1. [`Physics::sync`] — apply the arena's changes since the last sync to rapier. It reads
//!    the part-write log (which also names moved containers of any class, whose parts it
//!    re-poses) and the parts whose descendants physics itself moved, so its cost follows the
//!    number of *changed* parts, not the number of parts. When the log answers
//!    `HistoryUnavailable` it rescans the in-world parts once and reports
//!    [`SyncStats::full_rescan`].
//! 2. [`Physics::step`] — one rapier step, after the crowding pass suspended the bodies past
//!    the world-wide bounds on overlaps and pairs (`crowding`: a pile-up of anchored or
//!    dynamic parts, small or 2,048 studs wide, degrades physics, not the server) and woke
//!    the dormant anchored parts a dynamic body may reach (`dormancy`: rapier holds only the
//!    dynamic bodies and the anchored parts near them, so a place of a million anchored
//!    parts steps like the few it moves among, and moving a far anchored part costs no
//!    rapier work).
//! 3. [`Physics::write_back`] — the world poses of the *awake* dynamic bodies go back into the
//!    arena as local transforms (`local = parent_world⁻¹ ∘ world`). Sleeping bodies cost nothing.
//!
//! Which parts get a body: every live `Part` with `IN_WORLD` set (under the Workspace), up to
//! [`PhysicsConfig::max_bodies`] bodies ([`DEFAULT_MAX_BODIES`]); the parts past it wait
//! without one (reported by [`Physics::suspended_bodies`] and
//! [`Physics::parts_over_body_cap`]) and get one, lowest id first, as bodies are freed. A
//! [`Simulation`](crate::Simulation) takes the host's cap (`SimCaps::physics_bodies`). This,
//! with the pairs `crowding` bounds, bounds physics memory (bytes per part and per pair:
//! `docs/perf/physics.md`). Shape
//! and size make the collider (`Block`: cuboid with half-extents `size / 2`; `Ball`: ball of
//! radius `size.x / 2`; `Cylinder`: along the part's X axis, length `size.x`, radius
//! `size.y / 2` — rapier's cylinder runs along Y, so the collider is turned onto X). Unanchored
//! parts are dynamic, anchored parts fixed; `CanCollide = false` parts keep their mass but sit
//! in a collision group that touches nothing (they fall through everything, and raycasts skip
//! them).
//!
//! Units and gravity: lengths are studs and gravity defaults to [`DEFAULT_GRAVITY`],
//! `(0, -196.2, 0)` studs/s² (Roblox's `Workspace.Gravity`, i.e. 9.81 m/s² at 20 studs per
//! metre). rapier's tolerances are scaled to match with `length_unit =`
//! [`DEFAULT_LENGTH_UNIT`] (20 studs per metre).
//!
//! Threads: rapier runs single-threaded unless `arbor-sim` is built with its `parallel` feature
//! (rapier's rayon pipeline). It stays opt-in: it showed no reliable speed-up and costs build
//! time (`docs/perf/physics.md`); a world is bit-identical on
//! 1 and 2 threads with it on, so turning it on does not break determinism.
//!
//! Poses: rapier holds each part's world pose. The transform pass runs after physics, so
//! [`WorldTransforms`](crate::transform::WorldTransforms) is a tick behind for anything a script wrote
//! earlier in the tick; physics therefore composes the poses it needs from the arena's local
//! transforms, with the pass's own arithmetic ([`WorldTransform::compose`]), so a body's pose
//! is the world the next pass computes for its part, never a stale one.
//!
//! Invariants, kept between public calls:
//! - every live in-world part that was synced has exactly one entry, or is in `over_cap`
//!   while `max_bodies` entries exist; an entry has exactly one rapier body and collider
//!   unless it is an anchored part that is dormant or suspended (then none), and nothing
//!   else has one; body and collider `user_data` pack the part's id and entry index;
//! - `over_cap` holds only ids without a body;
//! - `entry.synced_rev` is the part's arena revision the body state was taken from or
//!   written to; a part whose revision differs was written by someone else since;
//! - `since` is an arena revision such that every change after it is either still to be read
//!   from the logs or was made by `write_back` itself.

mod controller;
pub use controller::{CharacterDrive, Footing};
mod crowding;
mod crowding_state;
mod dormancy;
pub use crowding::{
    CROWDED_AT, FULL_PASS_EVERY, MAX_ANCHORED_OVERLAPS, MAX_BODIES_PER_CELL, MAX_CROWDED_PAIRS,
    MAX_DYNAMIC_PAIRS, RECHECK_AFTER_CHANGES, RESUME_EVERY,
};
pub use crowding_state::CrowdingStats;
pub use dormancy::{ANCHORED_SLACK, DORMANCY_SWEEP_EVERY, REGION_SLACK};
mod overlap;
pub use overlap::CROWDING_CELL_SIZE;
mod pose;
mod shapes;
mod sync;
#[cfg(test)]
mod tests;
mod write_back;

use crate::transform::WorldTransform;
use arbor_core::{Id, LocalTransform, Shape, Vec3};
use rapier3d::prelude::{
    ColliderHandle, Group, InteractionGroups, InteractionTestMode, PhysicsWorld, QueryFilter, Ray, RigidBody,
    RigidBodyHandle,
};
use rustc_hash::{FxHashMap, FxHashSet};
use std::collections::BTreeSet;

/// Default gravity in studs/s²: Roblox's `Workspace.Gravity` (196.2), pointing down −Y.
pub const DEFAULT_GRAVITY: Vec3 = Vec3::new(0.0, -196.2, 0.0);

/// Studs per metre given to rapier as `IntegrationParameters::length_unit`, so its contact
/// tolerances, sleep thresholds and velocity caps fit a world whose gravity is 196.2.
pub const DEFAULT_LENGTH_UNIT: f32 = 20.0;

/// Smallest extent a collider gets (studs); smaller, negative or non-finite sizes clamp to it.
pub const MIN_EXTENT: f32 = 0.001;

/// Largest extent a collider gets (studs; Roblox's largest part size): larger sizes clamp to
/// it for physics (the arena keeps the size written).
pub const MAX_EXTENT: f32 = 2048.0;

/// How far from the origin, on any axis, a part is simulated (studs). A part whose world
/// pose lies outside, or is not finite, has no body until it comes back (rapier loses all
/// precision out there, and its solvers can panic); fallen-parts cleanup handles non-finite
/// and fallen positions.
pub const WORLD_EXTENT: f32 = 1.0e6;

/// The default cap on bodies of a [`PhysicsConfig`]: 1,000,000, about 2 GB of physics at
/// ~2.0 KB per anchored part with its body and collider (measured: `docs/perf/physics.md`).
pub const DEFAULT_MAX_BODIES: usize = 1_000_000;

/// How a [`Physics`] world is set up.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PhysicsConfig {
    /// Gravity, studs/s².
    pub gravity: Vec3,
    /// Studs per metre for rapier's tolerances (see [`DEFAULT_LENGTH_UNIT`]).
    pub length_unit: f32,
    /// Whether dynamic bodies may fall asleep (on by default; benchmarks turn it off to
    /// measure a fully awake world). Applies to bodies created after the change.
    pub can_sleep: bool,
    /// Most bodies the world holds ([`DEFAULT_MAX_BODIES`]); parts past it wait without one.
    pub max_bodies: usize,
}

impl Default for PhysicsConfig {
    fn default() -> Self {
        Self {
            gravity: DEFAULT_GRAVITY,
            length_unit: DEFAULT_LENGTH_UNIT,
            can_sleep: true,
            max_bodies: DEFAULT_MAX_BODIES,
        }
    }
}

/// What one [`Physics::sync`] did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SyncStats {
    /// Bodies created.
    pub added: usize,
    /// Bodies removed (part destroyed, detached from the world, or given a non-finite pose
    /// or one outside [`WORLD_EXTENT`]).
    pub removed: usize,
    /// Existing bodies whose pose, shape, size, body type or collision changed.
    pub updated: usize,
    /// Whether the history was unavailable (or this was the first sync) and every in-world
    /// part was inspected.
    pub full_rescan: bool,
    /// Parts refused a body because the world held [`PhysicsConfig::max_bodies`] bodies.
    pub over_cap: usize,
}

/// The first part a ray hits.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RayHit {
    /// The part hit.
    pub id: Id,
    /// Distance from the ray origin along the (normalised) direction.
    pub distance: f32,
    /// World-space hit point.
    pub point: Vec3,
    /// Surface normal at the hit point (zero when the ray starts inside the part).
    pub normal: Vec3,
}

/// The collider groups: colliding parts are in group 1 and meet everything; non-colliding
/// parts are in group 2 and meet nothing.
const SOLID: InteractionGroups = InteractionGroups::new(Group::GROUP_1, Group::ALL, InteractionTestMode::And);
const GHOST: InteractionGroups =
    InteractionGroups::new(Group::GROUP_2, Group::NONE, InteractionTestMode::And);
/// Scene queries see colliding parts only.
const QUERY: InteractionGroups = InteractionGroups::new(Group::ALL, Group::GROUP_1, InteractionTestMode::And);

fn groups(can_collide: bool) -> InteractionGroups {
    if can_collide { SOLID } else { GHOST }
}

/// One simulated part.
#[derive(Clone, Debug)]
struct Entry {
    id: Id,
    body: RigidBodyHandle,
    collider: ColliderHandle,
    shape: Shape,
    /// Sanitised size the collider was built from.
    size: Vec3,
    anchored: bool,
    can_collide: bool,
    /// The local transform the body's pose was last taken from or written as.
    local: LocalTransform,
    /// The parent's world that went with `local`.
    parent: WorldTransform,
    /// Arena revision of the part the body state corresponds to.
    synced_rev: u64,
    /// Rescan generation that last saw the part.
    epoch: u32,
    /// Where the part stands with the crowding pass.
    standing: crowding_state::Standing,
    /// Anchored, and kept out of rapier (body disabled) because no dynamic body reaches it
    /// (see `dormancy`).
    dormant: bool,
}

/// Packs an id and an entry index into rapier's `user_data`.
#[inline]
fn pack(id: Id, index: u32) -> u128 {
    (id.0 as u128) | ((index as u128) << 64)
}

/// The id and entry index packed by [`pack`].
#[inline]
fn unpack(data: u128) -> (Id, u32) {
    (Id(data as u64), (data >> 64) as u32)
}

/// The rapier world of one arena: bodies for in-world parts, kept in step by [`sync`](Self::sync)
/// and [`write_back`](Self::write_back). See the module docs for the per-tick protocol.
pub struct Physics {
    world: PhysicsWorld,
    config: PhysicsConfig,
    /// Entry slab, indexed by the index packed in `user_data`.
    entries: Vec<Option<Entry>>,
    free: Vec<u32>,
    index: FxHashMap<Id, u32>,
    /// Logs are read after this arena revision.
    since: u64,
    /// The next sync must rescan (first sync, or after history loss).
    needs_rescan: bool,
    epoch: u32,
    /// Parts written back while having children: their descendants' world poses moved.
    repose: Vec<Id>,
    /// Bodies awake at the last write-back (to write the final pose of those that slept).
    was_awake: Vec<RigidBodyHandle>,
    /// Scratch: bodies awake now.
    awake: Vec<RigidBodyHandle>,
    /// Rapier panics caught by `step`.
    faults: u64,
    /// Bodies suspended in crowds (see `crowding`).
    crowding: crowding_state::Crowding,
    /// Dynamic bodies' regions and the anchored parts they wake (see `dormancy`).
    dormancy: dormancy::Dormancy,
    /// In-world parts without a body because `max_bodies` bodies exist.
    over_cap: BTreeSet<Id>,
    /// Indices of the entries that are dynamic (what a full crowding pass re-checks).
    dynamic_entries: FxHashSet<u32>,
}

impl Default for Physics {
    fn default() -> Self {
        Self::with_config(PhysicsConfig::default())
    }
}

impl Physics {
    /// An empty world with `gravity` (studs/s²; the engine default is [`DEFAULT_GRAVITY`])
    /// and the other settings of [`PhysicsConfig::default`].
    pub fn new(gravity: Vec3) -> Self {
        Self::with_config(PhysicsConfig { gravity, ..PhysicsConfig::default() })
    }

    /// An empty world set up by `config`.
    pub fn with_config(config: PhysicsConfig) -> Self {
        let mut world = PhysicsWorld::new();
        world.gravity = config.gravity;
        world.integration_parameters.length_unit = config.length_unit;
        Self {
            world,
            config,
            entries: Vec::new(),
            free: Vec::new(),
            index: FxHashMap::default(),
            since: 0,
            needs_rescan: true,
            epoch: 0,
            repose: Vec::new(),
            was_awake: Vec::new(),
            awake: Vec::new(),
            faults: 0,
            crowding: crowding_state::Crowding::default(),
            dormancy: dormancy::Dormancy::default(),
            over_cap: BTreeSet::new(),
            dynamic_entries: FxHashSet::default(),
        }
    }

    /// The settings in use.
    pub fn config(&self) -> &PhysicsConfig {
        &self.config
    }

    /// Sets gravity for the following steps and wakes every body so sleeping ones feel it.
    pub fn set_gravity(&mut self, gravity: Vec3) {
        self.config.gravity = gravity;
        self.world.gravity = gravity;
        self.world.wake_up_all(true);
    }

    /// Advances the simulation by `dt` seconds (one rapier step). A non-finite or non-positive
    /// `dt` does nothing.
    ///
    /// A panic inside rapier (input the clamps above did not foresee) does not take the
    /// server down: the rapier world is dropped and rebuilt from the arena at the next
    /// [`sync`](Self::sync) (a full rescan; velocities restart from zero), and
    /// [`faults`](Self::faults) counts it. The arena, which holds the place, is untouched.
    pub fn step(&mut self, dt: f32) {
        if !(dt.is_finite() && dt > 0.0) {
            return;
        }
        self.world.integration_parameters.dt = dt;
        self.limit_crowding();
        let world = &mut self.world;
        if std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| world.step())).is_err() {
            self.faults += 1;
            self.reset_world();
        }
    }

    /// Rapier panics caught by [`step`](Self::step) so far.
    pub fn faults(&self) -> u64 {
        self.faults
    }

    /// Drops every body and starts an empty rapier world with the same settings; the next
    /// sync rescans the arena.
    fn reset_world(&mut self) {
        let fresh = Self::with_config(self.config);
        let faults = self.faults;
        *self = fresh;
        self.faults = faults;
    }

    /// The first colliding part hit by the ray from `origin` along `direction` (any length,
    /// normalised here) within `max_distance`, or `None`. Parts with `CanCollide = false` are
    /// not hit. Reflects the poses of the last [`step`](Self::step) (bodies created by a sync
    /// become visible to queries after the next step).
    pub fn raycast(&self, origin: Vec3, direction: Vec3, max_distance: f32) -> Option<RayHit> {
        let len = direction.length();
        if !(len.is_finite() && len > 0.0 && origin.is_finite())
            || max_distance.is_nan()
            || max_distance < 0.0
        {
            return None;
        }
        self.cast_ray(origin, direction / len, max_distance, QueryFilter::default().groups(QUERY))
    }

    /// The first collider `filter` accepts on the ray from `origin` along the unit vector
    /// `dir`, within `max_distance`.
    fn cast_ray(
        &self,
        origin: Vec3,
        dir: Vec3,
        max_distance: f32,
        filter: QueryFilter<'_>,
    ) -> Option<RayHit> {
        let w = &self.world;
        let ray = Ray::new(origin, dir);
        let query = w.broad_phase.as_query_pipeline(
            w.narrow_phase.query_dispatcher(),
            &w.bodies,
            &w.colliders,
            filter,
        );
        let awake = query
            .cast_ray_and_get_normal(&ray, max_distance, true)
            .and_then(|(handle, hit)| Some((unpack(w.colliders.get(handle)?.user_data).0, hit)));
        let limit = awake.map_or(max_distance, |(_, hit)| hit.time_of_impact);
        let dormant = self
            .cast_ray_dormant(&ray, limit)
            .and_then(|(i, hit)| Some((self.entries[i as usize].as_ref()?.id, hit)));
        let (id, hit) = match (awake, dormant) {
            (Some(a), Some(d)) if d.1.time_of_impact < a.1.time_of_impact => d,
            (Some(a), _) => a,
            (None, d) => d?,
        };
        let distance = hit.time_of_impact;
        Some(RayHit { id, distance, point: origin + dir * distance, normal: hit.normal })
    }

    /// Parts with a body.
    pub fn body_count(&self) -> usize {
        self.index.len()
    }

    /// In-world parts without a body because the world holds
    /// [`PhysicsConfig::max_bodies`] bodies.
    pub fn parts_over_body_cap(&self) -> usize {
        self.over_cap.len()
    }

    /// Heap bytes held by the crowding pass's trees (for the memory figures).
    pub fn crowding_heap_bytes(&self) -> usize {
        self.crowding.heap_bytes()
    }

    /// Awake (simulated this step) bodies.
    pub fn awake_bodies(&self) -> usize {
        self.world.islands.num_active_bodies()
    }

    /// The body simulating part `id`, if it has one. A dormant anchored part has none until a
    /// dynamic body comes near (see [`dormant_parts`](Self::dormant_parts)); its pose is
    /// [`part_pose`](Self::part_pose).
    pub fn body(&self, id: Id) -> Option<&RigidBody> {
        let e = self.entry(id)?;
        self.world.bodies.get(e.body)
    }

    /// The world pose physics holds for part `id` (its body's, or for a dormant part the one
    /// its body takes on waking), if it has a body.
    pub fn part_pose(&self, id: Id) -> Option<rapier3d::prelude::Pose> {
        self.pose_of(self.entry(id)?)
    }

    /// Sets the linear velocity (studs/s) of part `id`'s dynamic body, waking it. Returns
    /// whether the part has a dynamic body.
    pub fn set_linear_velocity(&mut self, id: Id, velocity: Vec3) -> bool {
        let Some(handle) = self.entry(id).map(|e| e.body) else { return false };
        match self.world.bodies.get_mut(handle) {
            Some(body) if body.is_dynamic() && velocity.is_finite() => {
                body.set_linvel(velocity, true);
                true
            }
            _ => false,
        }
    }

    /// The rapier world, read-only (for engine code and diagnostics: contacts, islands,
    /// queries with other filters).
    pub fn world(&self) -> &PhysicsWorld {
        &self.world
    }

    fn entry(&self, id: Id) -> Option<&Entry> {
        let i = *self.index.get(&id)?;
        self.entries[i as usize].as_ref()
    }
}
