//! The transform fixtures shared by `benches/transform.rs` and
//! `examples/transform_probe.rs`: the large tree's parent map, each node's local transform,
//! the fixed ~1% dirty set, the tree built in an arena, the same tree in bevy with
//! bevy_transform's propagation schedule, and the plain scalar SoA pass baseline.

use arbor_core::{Arena, Class, Id, LocalTransform};
use bevy_ecs::change_detection::DetectChangesMut;
use bevy_ecs::prelude::{ChildOf, Entity, IntoScheduleConfigs, Schedule, World};
use bevy_tasks::{ComputeTaskPool, TaskPoolBuilder};
use bevy_transform::components::Transform;
use bevy_transform::systems::{
    StaticTransformOptimizations, mark_dirty_trees, propagate_parent_transforms, sync_simple_transforms,
};
use glam::{Quat, Vec3};
use std::time::{Duration, Instant};

/// The large tree: a root, 1,000 children, 10 each, 9 each.
pub fn large_tree() -> Vec<usize> {
    let mut map = vec![0; 1_000];
    map.extend((1..=1_000).flat_map(|p| std::iter::repeat_n(p, 10)));
    map.extend((1_001..=11_000).flat_map(|p| std::iter::repeat_n(p, 9)));
    map
}

/// The stress place's shape at a million (`arbor stress --count 1000000`, models of 10
/// parts): a root, 90,909 models, 10 parts each; 1,000,000 nodes.
pub fn stress_tree() -> Vec<usize> {
    const MODELS: usize = 90_909;
    let mut map = vec![0; MODELS];
    map.extend((1..=MODELS).flat_map(|p| std::iter::repeat_n(p, 10)));
    map
}

/// Local transform of node `i`: bevy's circle placement plus a small rotation.
pub fn local_of(i: usize) -> (Vec3, Quat) {
    let a = (i % 97) as f32 / 97.0;
    (Vec3::new(a.cos() * 32.0, a.sin() * 32.0, 0.5), Quat::from_rotation_z(a * 0.3).normalize())
}

/// Every node (`all`) or a fixed pseudo-random ~1% of them, never the root (a dirty root
/// would make the whole tree dirty).
pub fn pick(n: usize, all: bool) -> Vec<usize> {
    let mix = |i: usize| {
        let mut z = (i as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z ^ (z >> 31)
    };
    (0..n).filter(|&i| all || (i > 0 && mix(i) % 100 == 0)).collect()
}

/// The shape in an arena: the root is a Model under the Workspace, inner nodes Models,
/// leaves Parts. Returns the arena (dirty list drained) and the ids in map order.
pub fn build_arena(map: &[usize]) -> (Arena, Vec<Id>) {
    let n = map.len() + 1;
    let mut inner = vec![false; n];
    for &p in map {
        inner[p] = true;
    }
    let mut arena = Arena::new();
    let mut ids = Vec::with_capacity(n);
    for i in 0..n {
        let parent = if i == 0 { arena.workspace() } else { ids[map[i - 1]] };
        let class = if inner[i] { Class::Model } else { Class::Part };
        let id = arena.create(class, "N", Some(parent)).expect("create");
        let (position, rotation) = local_of(i);
        arena.set_transform(id, LocalTransform { position, rotation }).expect("set");
        ids.push(id);
    }
    arena.drain_events();
    arena.drain_events();
    (arena, ids)
}

pub struct Bevy {
    world: World,
    schedule: Schedule,
    entities: Vec<Entity>,
}

impl Bevy {
    pub fn new(map: &[usize]) -> Self {
        ComputeTaskPool::get_or_init(|| TaskPoolBuilder::new().num_threads(2).build());
        let mut world = World::new();
        let mut entities: Vec<Entity> = Vec::with_capacity(map.len() + 1);
        for i in 0..=map.len() {
            let (translation, rotation) = local_of(i);
            let t = Transform { translation, rotation, scale: Vec3::ONE };
            let e = if i == 0 {
                world.spawn(t).id()
            } else {
                world.spawn((t, ChildOf(entities[map[i - 1]]))).id()
            };
            entities.push(e);
        }
        world.insert_resource(StaticTransformOptimizations::default());
        let mut schedule = Schedule::default();
        schedule.add_systems((mark_dirty_trees, propagate_parent_transforms, sync_simple_transforms).chain());
        schedule.run(&mut world);
        schedule.run(&mut world);
        Self { world, schedule, entities }
    }

    /// Times `iters` runs, marking `changed` before each (untimed).
    pub fn timed(&mut self, iters: u64, changed: &[usize]) -> Duration {
        let mut total = Duration::ZERO;
        for _ in 0..iters {
            for &i in changed {
                self.world.get_mut::<Transform>(self.entities[i]).expect("transform").set_changed();
            }
            let start = Instant::now();
            self.schedule.run(&mut self.world);
            total += start.elapsed();
        }
        total
    }
}

// ---- plain scalar SoA baseline ----

/// Nodes in depth order, parent indices, local and world columns.
pub struct Plain {
    parent: Vec<u32>,
    local: [Vec<f32>; 7],
    world: [Vec<f32>; 7],
}

impl Plain {
    pub fn new(map: &[usize]) -> Self {
        let n = map.len() + 1;
        let mut depth = vec![0u32; n];
        for i in 1..n {
            depth[i] = depth[map[i - 1]] + 1;
        }
        let mut order: Vec<usize> = (0..n).collect();
        order.sort_by_key(|&i| depth[i]);
        let mut rank = vec![0u32; n];
        for (r, &i) in order.iter().enumerate() {
            rank[i] = r as u32;
        }
        let parent = order.iter().map(|&i| if i == 0 { 0 } else { rank[map[i - 1]] }).collect();
        let mut local: [Vec<f32>; 7] = Default::default();
        for &i in &order {
            let (p, q) = local_of(i);
            for (col, v) in local.iter_mut().zip([p.x, p.y, p.z, q.x, q.y, q.z, q.w]) {
                col.push(v);
            }
        }
        Self { parent, world: local.clone(), local }
    }

    pub fn run(&mut self) {
        let [px, py, pz, qx, qy, qz, qw] = &mut self.world;
        let [lx, ly, lz, ax, ay, az, aw] = &self.local;
        // Node 0, the root, keeps world = local.
        for i in 1..self.parent.len() {
            let p = self.parent[i] as usize;
            let (bx, by, bz, bw) = (qx[p], qy[p], qz[p], qw[p]);
            let (vx, vy, vz) = (lx[i], ly[i], lz[i]);
            // v + w t + b × t, with t = 2 b × v
            let (tx, ty, tz) =
                (2.0 * (by * vz - bz * vy), 2.0 * (bz * vx - bx * vz), 2.0 * (bx * vy - by * vx));
            px[i] = px[p] + vx + bw * tx + (by * tz - bz * ty);
            py[i] = py[p] + vy + bw * ty + (bz * tx - bx * tz);
            pz[i] = pz[p] + vz + bw * tz + (bx * ty - by * tx);
            let (cx, cy, cz, cw) = (ax[i], ay[i], az[i], aw[i]);
            qx[i] = bw * cx + bx * cw + by * cz - bz * cy;
            qy[i] = bw * cy - bx * cz + by * cw + bz * cx;
            qz[i] = bw * cz + bx * cy - by * cx + bz * cw;
            qw[i] = bw * cw - bx * cx - by * cy - bz * cz;
        }
    }
}
