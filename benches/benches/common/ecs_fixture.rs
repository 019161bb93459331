//! The component fixtures shared by `benches/ecs_suite.rs`, `examples/insert_probe.rs` and
//! `examples/store_probe.rs`: the POD components of the ecs_bench_suite workloads (usable by
//! all three stores: bytemuck for ours, `Component` for bevy, plain `Send + Sync` for hecs),
//! their rows, and the fragmented worlds of `frag_iter`.
#![allow(dead_code, reason = "each includer uses part of the fixture")]

use arbor_core::{
    Arena, Class,
    components::{ComponentId, FieldDef, FieldType, PodComponent, Schema, Storage},
};
use bevy_ecs::prelude::{Component, World};
use glam::{Mat4, Vec3};

/// A 4×4 matrix: sixteen `f32` lanes, column-major (`m0`..`m15`).
#[derive(Clone, Copy, Debug, PartialEq, bytemuck::Pod, bytemuck::Zeroable, Component)]
#[repr(C)]
pub struct Transform(pub Mat4);

#[derive(Clone, Copy, Debug, PartialEq, bytemuck::Pod, bytemuck::Zeroable, Component)]
#[repr(C)]
pub struct Position(pub Vec3);

#[derive(Clone, Copy, Debug, PartialEq, bytemuck::Pod, bytemuck::Zeroable, Component)]
#[repr(C)]
pub struct Rotation(pub Vec3);

#[derive(Clone, Copy, Debug, PartialEq, bytemuck::Pod, bytemuck::Zeroable, Component)]
#[repr(C)]
pub struct Velocity(pub Vec3);

#[derive(Clone, Copy, Debug, PartialEq, bytemuck::Pod, bytemuck::Zeroable, Component)]
#[repr(C)]
pub struct Data(pub f32);

pub fn vector3_schema(name: &str) -> Schema {
    Schema::new(name, vec![FieldDef::new("Value", FieldType::Vector3)])
}

pub fn f32_schema(name: &str) -> Schema {
    Schema::new(name, vec![FieldDef::new("Value", FieldType::F32)])
}

impl PodComponent for Transform {
    fn schema() -> Schema {
        Schema::new("Transform", (0..16).map(|k| FieldDef::new(&format!("m{k}"), FieldType::F32)).collect())
    }
}

impl PodComponent for Position {
    fn schema() -> Schema {
        vector3_schema("Position")
    }
}

impl PodComponent for Rotation {
    fn schema() -> Schema {
        vector3_schema("Rotation")
    }
}

impl PodComponent for Velocity {
    fn schema() -> Schema {
        vector3_schema("Velocity")
    }
}

impl PodComponent for Data {
    fn schema() -> Schema {
        f32_schema("Data")
    }
}

/// `B` stored in a sparse set (bevy: `StorageType::SparseSet`), for `add_remove`'s sparse
/// variants.
#[derive(Clone, Copy, Debug, PartialEq, bytemuck::Pod, bytemuck::Zeroable, Component)]
#[component(storage = "SparseSet")]
#[repr(C)]
pub struct SparseB(pub f32);

impl PodComponent for SparseB {
    fn schema() -> Schema {
        f32_schema("SparseB").stored_in(Storage::SparseSet)
    }
}

/// The 26 one-field components of `frag_iter` (`A` and `B` also serve `add_remove`), and
/// the builders of the fragmented worlds: one archetype (letter, `Data`) per letter.
macro_rules! letters {
    ($($name:ident),+) => {
        $(
            #[allow(dead_code, reason = "the field is only stored, never read")]
            #[derive(Clone, Copy, Debug, PartialEq, bytemuck::Pod, bytemuck::Zeroable, Component)]
            #[repr(C)]
            pub struct $name(pub f32);

            impl PodComponent for $name {
                fn schema() -> Schema {
                    f32_schema(stringify!($name))
                }
            }
        )+

        /// An arena with `per` instances of each archetype (letter, `Data`).
        pub fn arbor_fragmented(per: usize) -> (Arena, ComponentId) {
            let mut arena = Arena::new();
            let data = arena.register_pod::<Data>().expect("register Data");
            $(
                arena.register_pod::<$name>().expect("register a letter");
                arena
                    .spawn_batch(Class::Folder, "E", None, (0..per).map(|_| ($name(0.0), Data(1.0))))
                    .expect("spawn a fragment");
            )+
            (arena, data)
        }

        pub fn hecs_fragmented(per: usize) -> hecs::World {
            let mut world = hecs::World::new();
            $(world.spawn_batch((0..per).map(|_| ($name(0.0), Data(1.0)))).for_each(drop);)+
            world
        }

        pub fn bevy_fragmented(per: usize) -> World {
            let mut world = World::new();
            $(world.spawn_batch((0..per).map(|_| ($name(0.0), Data(1.0)))).for_each(drop);)+
            world
        }
    };
}

letters!(A, B, C, D, E, F, G, H, I, J, K, L, M, N, O, P, Q, R, S, T, U, V, W, X, Y, Z);

pub type Four = (Transform, Position, Rotation, Velocity);

/// The row of `simple_insert` / `simple_iter`.
pub fn four() -> Four {
    (Transform(Mat4::IDENTITY), Position(Vec3::X), Rotation(Vec3::X), Velocity(Vec3::X))
}

/// The row of `heavy_compute`.
pub fn heavy_four() -> Four {
    (Transform(Mat4::from_axis_angle(Vec3::X, 1.2)), Position(Vec3::X), Rotation(Vec3::X), Velocity(Vec3::X))
}

/// A fresh arena with the four POD types registered: (Transform, Position, Rotation, Velocity).
pub fn arbor_four() -> (Arena, [ComponentId; 4]) {
    let mut arena = Arena::new();
    let ids = [
        arena.register_pod::<Transform>().expect("register Transform"),
        arena.register_pod::<Position>().expect("register Position"),
        arena.register_pod::<Rotation>().expect("register Rotation"),
        arena.register_pod::<Velocity>().expect("register Velocity"),
    ];
    (arena, ids)
}
