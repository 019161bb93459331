//! Helpers shared by the physics tests (`physics_*.rs`): a [`World`] that runs one tick's
//! physics and transform phases as the tick does (sync, step, write-back, transform pass),
//! with an anchored floor, parts, and their local and world poses.

// Each test binary uses a different subset of these helpers.
#![allow(dead_code)]

use arbor_core::{Appearance, Arena, Class, Id, LocalTransform, NodeFlags, Shape, Vec3};
use arbor_sim::{
    physics::DEFAULT_GRAVITY, physics::Physics, physics::SyncStats, transform::PassMode,
    transform::WorldTransforms,
};
use rapier3d::prelude::RigidBodyType;

/// One tick of the 60 Hz simulation, in seconds.
pub const DT: f32 = 1.0 / 60.0;
/// The height of the top of [`World::floor`].
pub const FLOOR_TOP: f32 = 1.0;

/// An arena with the physics and the world transforms the tick keeps for it.
pub struct World {
    /// The place.
    pub arena: Arena,
    /// Its physics world.
    pub physics: Physics,
    /// Its world transforms.
    pub transforms: WorldTransforms,
}

impl World {
    /// A world for a fresh arena.
    pub fn new() -> Self {
        Self::with_arena(Arena::new())
    }

    /// A world for `arena`, its transforms brought up to date.
    pub fn with_arena(mut arena: Arena) -> Self {
        let mut transforms = WorldTransforms::new();
        let dirty = arena.take_dirty_transforms();
        transforms.update(&arena, &dirty, PassMode::default());
        Self { arena, physics: Physics::new(DEFAULT_GRAVITY), transforms }
    }

    /// The Workspace.
    pub fn ws(&self) -> Id {
        self.arena.workspace()
    }

    /// A Part under `parent` at `position`, of `size`, anchored or not.
    pub fn part(&mut self, parent: Id, position: Vec3, size: Vec3, anchored: bool) -> Id {
        let id = self.arena.create(Class::Part, "Part", Some(parent)).unwrap();
        self.arena.set_position(id, position).unwrap();
        self.arena.set_size(id, size).unwrap();
        self.arena.set_flag(id, NodeFlags::ANCHORED, anchored).unwrap();
        id
    }

    /// An anchored 200 x 2 x 200 floor whose top is at y = 1.
    pub fn floor(&mut self) -> Id {
        let ws = self.ws();
        self.part(ws, Vec3::ZERO, Vec3::new(200.0, 2.0, 200.0), true)
    }

    /// Gives part `id` the shape `shape`.
    pub fn set_shape(&mut self, id: Id, shape: Shape) {
        let look = Appearance { shape, ..self.arena.get(id).unwrap().appearance() };
        self.arena.set_appearance(id, look).unwrap();
    }

    /// One tick's physics and transform phases; returns the sync stats and parts written.
    pub fn tick(&mut self) -> (SyncStats, usize) {
        let stats = self.physics.sync(&self.arena);
        self.physics.step(DT);
        let written = self.physics.write_back(&mut self.arena);
        let dirty = self.arena.take_dirty_transforms();
        self.transforms.update(&self.arena, &dirty, PassMode::default());
        (stats, written)
    }

    /// Runs `ticks` ticks.
    pub fn run(&mut self, ticks: usize) {
        for _ in 0..ticks {
            self.tick();
        }
    }

    /// Ticks until every body sleeps (at most `max` ticks); returns the ticks taken.
    pub fn settle(&mut self, max: usize) -> usize {
        for t in 0..max {
            self.tick();
            if self.physics.awake_bodies() == 0 {
                return t + 1;
            }
        }
        panic!("still {} awake bodies after {max} ticks", self.physics.awake_bodies());
    }

    /// Part `id`'s local transform.
    pub fn local(&self, id: Id) -> LocalTransform {
        self.arena.get(id).unwrap().transform()
    }

    /// Part `id`'s world position (the transform pass's).
    pub fn world_pos(&self, id: Id) -> Vec3 {
        self.transforms.get(&self.arena, id).unwrap().position
    }

    /// The type of part `id`'s rapier body.
    pub fn body_type(&self, id: Id) -> RigidBodyType {
        self.physics.body(id).unwrap().body_type()
    }
}

/// Whether `a` is within `tol` of `b`.
pub fn close(a: f32, b: f32, tol: f32) -> bool {
    (a - b).abs() <= tol
}
