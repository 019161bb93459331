//! The bevy_ecs twins of the place-tree groups' trees: one entity per node (a name, a local
//! transform and, under a parent, `ChildOf`), a root entity standing for the Workspace.

use bevy_ecs::prelude::{ChildOf, Children, Component, Entity, Name, World};

/// A bevy component comparable to our built-in local transform.
#[derive(Component, Clone, Copy, Debug)]
pub(super) struct LocalTransform {
    pub(super) position: [f32; 3],
    pub(super) rotation: [f32; 4],
}

impl Default for LocalTransform {
    fn default() -> Self {
        Self { position: [0.0; 3], rotation: [0.0, 0.0, 0.0, 1.0] }
    }
}

/// One bevy entity per node: a name, a local transform and (under a parent) `ChildOf`.
pub(super) fn bevy_node(name: &'static str, parent: Entity) -> (Name, LocalTransform, ChildOf) {
    (Name::new(name), LocalTransform::default(), ChildOf(parent))
}

/// A bevy world holding a root entity standing for the Workspace.
pub(super) fn bevy_world() -> (World, Entity) {
    let mut world = World::new();
    let ws = world.spawn((Name::new("Workspace"), LocalTransform::default())).id();
    (world, ws)
}

/// The bevy twin of [`grow_place`](arbor_benches::grow_place): `models` entities under `ws`, each with `parts` children.
pub(super) fn bevy_grow_place(world: &mut World, ws: Entity, models: usize, parts: usize) {
    for _ in 0..models {
        let model = world.spawn(bevy_node("Model", ws)).id();
        for _ in 0..parts {
            world.spawn(bevy_node("Part", model));
        }
    }
}

/// The bevy twin of [`build_folder`](arbor_benches::build_folder): a `Bullets` entity under the Workspace with
/// `children` children, returned in creation order.
pub(super) fn bevy_folder(children: usize) -> (World, Entity, Vec<Entity>) {
    let (mut world, ws) = bevy_world();
    let folder = world.spawn(bevy_node("Bullets", ws)).id();
    let kids = (0..children).map(|_| world.spawn(bevy_node("Bullet", folder)).id()).collect();
    (world, folder, kids)
}

/// How many children `parent` has.
pub(super) fn child_count(world: &World, parent: Entity) -> usize {
    world.get::<Children>(parent).map_or(0, |c| c.len())
}
