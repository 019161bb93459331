//! [`PredictionWorld`]: the little physics world a predicting client steps its own character
//! in. It is an `arbor_sim` [`Physics`] (rapier, the server's own code and settings) over a
//! private arena holding copies of the static geometry near the character (anchored,
//! colliding parts of the replica within [`GEOMETRY_RADIUS`]) and one dynamic part standing
//! for the character's root part. Each step drives that part with
//! [`Physics::drive_character`], exactly as the server's tick does (drive, one 1/60 s step,
//! write back), so on the same geometry the two step alike.
//!
//! Other characters' colliding parts are copied too, as anchored obstacles where the replica
//! last had them, once the world knows which character is its own
//! ([`set_own_character`](PredictionWorld::set_own_character)): the predicted character
//! stands on a pile of others and stops at a crowd as the server's does, though it cannot
//! push them (the server's answer corrects that). Other unanchored parts (loose crates,
//! projectiles) are not copied: the predicted character walks through them, and the server's
//! answer corrects it.
//!
//! The copies follow the replica incrementally through its arena's part-write log (a written
//! node with children brings the parts below it along, whose world poses moved with it); a
//! jump of the character past [`RESCAN_DISTANCE`] since the last scan or lost history rescans
//! the replica's parts.
//!
//! Rotations: the snapshots carry rotations quantised to 10 bits a component. The wire keeps
//! 0 and ±√½ exact, but a component of ±½ (right-angle rotations about two axes) comes back
//! off by up to half a quantum, and a floor tilted by that makes a walking character climb
//! or sink a few hundredths of a stud a second, which the server's floor does not; so every
//! rotation is snapped ([`snap_rotation`]): a component within a quantum of 0, ±½, ±√½ or ±1
//! takes that value. Right-angle rotations (most static geometry) come out exact; others
//! stay within the quantum.
//!
//! Invariants: only this world's arena is written (the replica is read); each copied part
//! maps to exactly one local part and back; no part of the own character is ever copied; the
//! body part exists iff a body was placed.

use arbor_core::raw::NodeRef;
use arbor_core::{Arena, Class, Family, Id, LocalTransform, NodeFlags, Quat};
use arbor_sim::physics::{CharacterDrive, DEFAULT_GRAVITY, Physics};
use arbor_sim::transform::WorldTransform;
use glam::Vec3;
use rustc_hash::FxHashMap;

/// Static parts within this many studs of the character (by their bounding sphere) are copied.
pub const GEOMETRY_RADIUS: f32 = 256.0;

/// A character this far from where the replica's parts were last scanned rescans them.
pub const RESCAN_DISTANCE: f32 = 32.0;

/// Seconds of one physics step (the server's tick).
pub const STEP_SECONDS: f32 = 1.0 / 60.0;

/// Half the rotation quantum of the wire (10 bits over ±√½), with a margin.
const ROTATION_SNAP: f32 = 1.5e-3;

/// `q` with each component within half a wire rotation quantum (with a margin) of 0, ±½, ±√½
/// or ±1 set to it, normalised:
/// the exact right-angle rotation a quantised one stands for (see the module docs).
pub fn snap_rotation(q: Quat) -> Quat {
    if !q.is_finite() || q.length_squared() < 1.0e-12 {
        return Quat::IDENTITY;
    }
    let snapped = q.to_array().map(|c| {
        let target = [0.0, 0.5, std::f32::consts::FRAC_1_SQRT_2, 1.0]
            .into_iter()
            .find(|t| (c.abs() - t).abs() < ROTATION_SNAP);
        target.map_or(c, |t| t.copysign(c))
    });
    Quat::from_array(snapped).normalize()
}

/// The world pose of replica node `id`, composed from the root (the transform pass's
/// arithmetic); `None` past 256 levels or for a missing node.
pub fn world_pose(arena: &Arena, id: Id) -> Option<WorldTransform> {
    let mut chain = Vec::new();
    let mut at = Some(id);
    while let Some(node) = at.and_then(|a| arena.get(a)) {
        if chain.len() == 256 {
            return None;
        }
        chain.push(node.transform());
        at = node.parent();
    }
    if chain.is_empty() {
        return None;
    }
    Some(chain.iter().rev().fold(WorldTransform::IDENTITY, |w, local| w.compose(local)))
}

/// The client's physics world for its own character.
pub struct PredictionWorld {
    arena: Arena,
    physics: Physics,
    body: Option<Id>,
    half_height: f32,
    /// Replica part → its copy here.
    copies: FxHashMap<Id, Id>,
    /// The replica's character this world's body stands for (`None`: unknown, and then no
    /// character's parts are copied).
    own: Option<Id>,
    /// The replica arena revision read up to (`None`: never scanned).
    since: Option<u64>,
    scanned_at: Vec3,
}

impl Default for PredictionWorld {
    fn default() -> Self {
        Self::new(DEFAULT_GRAVITY)
    }
}

impl PredictionWorld {
    /// An empty world with `gravity` (the server's: `SimConfig::gravity`).
    pub fn new(gravity: Vec3) -> Self {
        Self {
            arena: Arena::new(),
            physics: Physics::new(gravity),
            body: None,
            half_height: 1.0,
            copies: FxHashMap::default(),
            own: None,
            since: None,
            scanned_at: Vec3::ZERO,
        }
    }

    /// Parts copied (static geometry and other characters' parts).
    pub fn geometry_len(&self) -> usize {
        self.copies.len()
    }

    /// Names the replica's character this world's body stands for; every other character's
    /// colliding parts become obstacles from the next [`sync_geometry`](Self::sync_geometry),
    /// which rescans when this changes.
    pub fn set_own_character(&mut self, own: Option<Id>) {
        if own != self.own {
            self.own = own;
            self.since = None;
        }
    }

    /// Brings the copies of the static parts and other characters' parts near `around` in
    /// step with `replica` (the replica's arena); returns how many nodes were read.
    pub fn sync_geometry(&mut self, replica: &Arena, around: Vec3) -> usize {
        let around = if around.is_finite() { around } else { self.scanned_at };
        let mut rescan = self.since.is_none() || around.distance(self.scanned_at) > RESCAN_DISTANCE;
        let mut read = 0;
        if !rescan && let Some(since) = self.since {
            match replica.part_writes_since(since) {
                Ok(ids) => {
                    let written: Vec<Id> = ids.collect();
                    // A written node with children moved the world poses of the parts below it.
                    let containers: Vec<Id> = written
                        .iter()
                        .copied()
                        .filter(|&id| replica.get(id).is_some_and(|n| n.moves_parts_below()))
                        .collect();
                    let below = replica.descendants_of_all(&containers);
                    read += written.len() + below.len();
                    for id in written.into_iter().chain(below) {
                        self.copy(replica, id, around);
                    }
                }
                Err(_) => rescan = true,
            }
        }
        if rescan {
            let parts = replica.family(Family::Parts);
            let keep: rustc_hash::FxHashSet<Id> =
                parts.iter().copied().filter(|&id| self.copy(replica, id, around)).collect();
            read += parts.len();
            let gone: Vec<Id> = self.copies.keys().copied().filter(|id| !keep.contains(id)).collect();
            for id in gone {
                self.forget(id);
            }
            self.scanned_at = around;
        }
        self.since = Some(replica.revisions().global);
        read
    }

    /// The character replica node `id` belongs to (itself or its nearest `Character`
    /// ancestor, up to 256 levels).
    fn enclosing_character(replica: &Arena, id: Id) -> Option<Id> {
        let mut at = Some(id);
        for _ in 0..256 {
            let node = replica.get(at?)?;
            if node.class() == Class::Character {
                return at;
            }
            at = node.parent();
        }
        None
    }

    /// Whether replica node `node` (`id`) is copied: a colliding part in the world, anchored
    /// or, with the own character known, a part of another character.
    fn wanted(&self, replica: &Arena, id: Id, node: &NodeRef<'_>) -> bool {
        if node.class() != Class::Part || !node.flags().contains(NodeFlags::IN_WORLD) || !node.can_collide() {
            return false;
        }
        let character = Self::enclosing_character(replica, id);
        if character.is_some() && character == self.own {
            return false;
        }
        node.anchored() || (self.own.is_some() && character.is_some())
    }

    /// Copies (or updates, or drops) replica part `id`; whether a copy is held now.
    fn copy(&mut self, replica: &Arena, id: Id, around: Vec3) -> bool {
        let wanted = replica.get(id).filter(|n| self.wanted(replica, id, n));
        let Some(node) = wanted else {
            self.forget(id);
            return false;
        };
        let Some(world) = world_pose(replica, id) else {
            self.forget(id);
            return false;
        };
        let reach = node.size().length() * 0.5;
        let near = world.position.distance(around) - reach <= GEOMETRY_RADIUS;
        if !near {
            self.forget(id);
            return false;
        }
        let ws = self.arena.workspace();
        let local = match self.copies.get(&id) {
            Some(&l) => l,
            None => match self.arena.create(Class::Part, "Static", Some(ws)) {
                Ok(l) => {
                    self.copies.insert(id, l);
                    l
                }
                Err(_) => return false,
            },
        };
        let t = LocalTransform { position: world.position, rotation: snap_rotation(world.rotation) };
        // Writes to a live part of this arena: they fail only past its limits (then the part
        // keeps its last state, which prediction tolerates).
        let _ = self.arena.set_transform(local, t);
        let _ = self.arena.set_size(local, node.size());
        let _ = self.arena.set_appearance(local, node.appearance());
        let _ = self.arena.set_flag(local, NodeFlags::ANCHORED, true);
        let _ = self.arena.set_flag(local, NodeFlags::CAN_COLLIDE, true);
        true
    }

    fn forget(&mut self, id: Id) {
        if let Some(local) = self.copies.remove(&id) {
            let _ = self.arena.destroy(local);
        }
    }

    /// Puts the character's body at `position` with `velocity` (creating it, `size` studs,
    /// turned by `rotation`, on the first call): the rewind of reconciliation.
    pub fn place_body(&mut self, size: Vec3, rotation: Quat, position: Vec3, velocity: Vec3) {
        let body = match self.body {
            Some(b) if self.arena.contains(b) => b,
            _ => {
                let ws = self.arena.workspace();
                let Ok(b) = self.arena.create(Class::Part, "HumanoidRootPart", Some(ws)) else { return };
                let _ = self.arena.set_flag(b, NodeFlags::ANCHORED, false);
                self.body = Some(b);
                b
            }
        };
        let size = if size.is_finite() && size.min_element() > 0.0 { size } else { Vec3::new(2.0, 2.0, 1.0) };
        self.half_height = size.y * 0.5;
        let _ = self.arena.set_size(body, size);
        let _ = self.arena.set_transform(body, LocalTransform { position, rotation });
        self.physics.sync(&self.arena);
        self.physics.set_linear_velocity(body, velocity);
    }

    /// Removes the body (the character is gone).
    pub fn clear_body(&mut self) {
        if let Some(b) = self.body.take() {
            let _ = self.arena.destroy(b);
            self.physics.sync(&self.arena);
        }
    }

    /// One server step of the body: sync, drive, step 1/60 s, write back. Returns the body's
    /// position and velocity after it, or `None` without a body.
    pub fn step(&mut self, drive: CharacterDrive) -> Option<(Vec3, Vec3)> {
        let body = self.body?;
        self.physics.sync(&self.arena);
        self.physics.drive_character(body, self.half_height, drive);
        self.physics.step(STEP_SECONDS);
        self.physics.write_back(&mut self.arena);
        self.body_state()
    }

    /// The body's position and velocity now.
    pub fn body_state(&self) -> Option<(Vec3, Vec3)> {
        let b = self.physics.body(self.body?)?;
        Some((b.translation(), b.linvel()))
    }
}
