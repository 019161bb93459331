//! The transform pass through its public API: random places against a naive recursive
//! reference in all four modes, no work when nothing is dirty, detached subtrees skipped,
//! the deferred world after a reparent (the local Position is kept as the offset), and a
//! long scattered dirty list giving the same worlds in every mode.

use arbor_core::{Arena, Class, Id, LocalTransform, Quat, Vec3};
use arbor_sim::{
    transform::PassMode, transform::PassStats, transform::WorldTransform, transform::WorldTransforms,
};
use proptest::prelude::*;

const MODES: [PassMode; 4] = [
    PassMode { parallel: false, simd: false },
    PassMode { parallel: false, simd: true },
    PassMode { parallel: true, simd: false },
    PassMode { parallel: true, simd: true },
];

fn pool() -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new().num_threads(2).build().expect("a 2-thread pool")
}

/// World of `id` by the definition: compose the locals from the Workspace down.
fn reference_world(arena: &Arena, id: Id) -> WorldTransform {
    let mut path: Vec<Id> = std::iter::once(id).chain(arena.ancestors(id)).collect();
    path.truncate(path.iter().position(|&a| a == arena.workspace()).expect("in the world") + 1);
    let mut world = WorldTransform::IDENTITY;
    for a in path.into_iter().rev() {
        let local = arena.get(a).expect("live").transform();
        world = WorldTransform {
            position: world.position + world.rotation * local.position,
            rotation: world.rotation * local.rotation,
        };
    }
    world
}

fn in_world(arena: &Arena) -> Vec<Id> {
    arena.subtree(arena.workspace())
}

fn assert_close(arena: &Arena, worlds: &WorldTransforms, id: Id) {
    let want = reference_world(arena, id);
    let got = worlds.get(arena, id).expect("an in-world node has a world");
    let tol = 1e-4 * want.position.abs().max_element().max(1.0);
    assert!((got.position - want.position).abs().max_element() <= tol, "{id:?}: {got:?} vs {want:?}");
    assert!(got.rotation.abs_diff_eq(want.rotation, 1e-4), "{id:?}: {got:?} vs {want:?}");
}

fn local(p: [f32; 3], yaw: f32, pitch: f32) -> LocalTransform {
    LocalTransform {
        position: Vec3::from_array(p),
        rotation: Quat::from_euler(glam::EulerRot::YXZ, yaw, pitch, 0.0).normalize(),
    }
}

const CLASSES: [Class; 3] = [Class::Model, Class::Part, Class::Folder];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// Random places (one wide folder of `bulk` parts so the default split goes parallel),
    /// random writes, moves and detachments, random extra dirty ids: after each pass every
    /// in-world node matches the reference, and the four modes agree bit for bit.
    #[test]
    fn random_places_match_the_reference_in_every_mode(
        nodes in prop::collection::vec((any::<u32>(), 0usize..3, prop::array::uniform3(-10.0f32..10.0), -3.2f32..3.2), 1..300),
        bulk in 0usize..3_000,
        edits in prop::collection::vec((any::<u32>(), any::<u32>(), 0u8..4, prop::array::uniform3(-10.0f32..10.0)), 0..40),
        extra in prop::collection::vec(any::<u32>(), 0..20),
    ) {
        let pool = pool();
        let mut arena = Arena::new();
        let ws = arena.workspace();
        let folder = arena.create(Class::Folder, "Bulk", Some(ws)).unwrap();
        let mut ids = vec![ws, folder];
        for i in 0..bulk {
            let id = arena.create(Class::Part, "P", Some(folder)).unwrap();
            arena.set_transform(id, local([i as f32 * 0.01, 1.0, 0.0], i as f32 * 0.1, 0.2)).unwrap();
        }
        for (parent, class, p, yaw) in nodes {
            let parent = ids[parent as usize % ids.len()];
            let id = arena.create(CLASSES[class], "N", Some(parent)).unwrap();
            arena.set_transform(id, local(p, yaw, -yaw * 0.5)).unwrap();
            ids.push(id);
        }
        let mut worlds: Vec<WorldTransforms> = MODES.iter().map(|_| WorldTransforms::new()).collect();
        let first = arena.take_dirty_transforms();
        let mut second = Vec::new();
        for (node, other, op, p) in edits {
            let id = ids[1 + node as usize % (ids.len() - 1)];
            let target = ids[other as usize % ids.len()];
            match op {
                0 => { let _ = arena.set_parent(id, Some(target)); }
                1 => { let _ = arena.set_parent(id, None); }
                _ => { arena.set_position(id, Vec3::from_array(p)).unwrap(); }
            }
        }
        second.extend(arena.take_dirty_transforms());
        second.extend(extra.iter().map(|&e| ids[e as usize % ids.len()]));
        for dirty in [first, second] {
            let stats: Vec<PassStats> = MODES
                .iter()
                .zip(&mut worlds)
                .map(|(mode, w)| pool.install(|| w.update(&arena, &dirty, *mode)))
                .collect();
            prop_assert!(stats.windows(2).all(|s| s[0] == s[1]), "{:?}", stats);
            for id in in_world(&arena) {
                assert_close(&arena, &worlds[0], id);
                for w in &worlds[1..] {
                    prop_assert_eq!(w.get(&arena, id), worlds[0].get(&arena, id));
                }
            }
        }
    }
}

#[test]
fn nothing_dirty_means_no_work() {
    let mut arena = Arena::new();
    let ws = arena.workspace();
    let model = arena.create(Class::Model, "M", Some(ws)).unwrap();
    for _ in 0..100 {
        arena.create(Class::Part, "P", Some(model)).unwrap();
    }
    let mut worlds = WorldTransforms::new();
    let dirty = arena.take_dirty_transforms();
    let stats = worlds.update(&arena, &dirty, PassMode::default());
    assert_eq!(stats, PassStats { dirty_roots: 1, recomputed: 102 });
    for mode in MODES {
        assert_eq!(pool().install(|| worlds.update(&arena, &[], mode)), PassStats::default());
    }
    let dirty = arena.take_dirty_transforms();
    assert!(dirty.is_empty());
    assert_eq!(worlds.update(&arena, &dirty, PassMode::default()), PassStats::default());
}

#[test]
fn detached_subtrees_are_skipped_and_stay_stale() {
    let mut arena = Arena::new();
    let ws = arena.workspace();
    let model = arena.create(Class::Model, "M", Some(ws)).unwrap();
    let part = arena.create(Class::Part, "P", Some(model)).unwrap();
    arena.set_position(model, Vec3::new(1.0, 2.0, 3.0)).unwrap();
    arena.set_position(part, Vec3::new(0.0, 1.0, 0.0)).unwrap();
    let mut worlds = WorldTransforms::new();
    let dirty = arena.take_dirty_transforms();
    worlds.update(&arena, &dirty, PassMode::default());
    let before = worlds.get(&arena, part).unwrap();
    assert_eq!(before.position, Vec3::new(1.0, 3.0, 3.0));

    arena.set_parent(model, None).unwrap();
    arena.set_position(model, Vec3::new(100.0, 0.0, 0.0)).unwrap();
    arena.set_position(part, Vec3::new(0.0, 50.0, 0.0)).unwrap();
    let dirty = arena.take_dirty_transforms();
    assert!(dirty.contains(&model) && dirty.contains(&part));
    for mode in MODES {
        let stats = pool().install(|| worlds.update(&arena, &dirty, mode));
        assert_eq!(stats, PassStats::default(), "nothing in the world was dirty");
    }
    assert_eq!(worlds.get(&arena, part), Some(before), "stale while detached");

    arena.set_parent(model, Some(ws)).unwrap();
    let dirty = arena.take_dirty_transforms();
    assert_eq!(dirty, vec![model], "re-attaching reports the moved root");
    let stats = worlds.update(&arena, &dirty, PassMode::default());
    assert_eq!(stats, PassStats { dirty_roots: 1, recomputed: 2 });
    assert_eq!(worlds.get(&arena, part).unwrap().position, Vec3::new(100.0, 50.0, 0.0));
}

#[test]
fn reparent_keeps_the_local_offset_and_defers_the_world() {
    let mut arena = Arena::new();
    let ws = arena.workspace();
    let a = arena.create(Class::Model, "A", Some(ws)).unwrap();
    let debris = arena.create(Class::Folder, "Debris", Some(ws)).unwrap();
    let part = arena.create(Class::Part, "Part", Some(a)).unwrap();
    arena.set_transform(a, local([10.0, 0.0, 0.0], std::f32::consts::FRAC_PI_2, 0.0)).unwrap();
    arena.set_position(debris, Vec3::new(0.0, -5.0, 0.0)).unwrap();
    arena.set_position(part, Vec3::new(1.0, 2.0, 3.0)).unwrap();
    let mut worlds = WorldTransforms::new();
    let dirty = arena.take_dirty_transforms();
    worlds.update(&arena, &dirty, PassMode::default());
    let old_world = worlds.get(&arena, part).unwrap();
    assert_close(&arena, &worlds, part);

    // `self.Parent = handles.DebrisFolder; print(self.Position)`
    arena.set_parent(part, Some(debris)).unwrap();
    assert_eq!(arena.get(part).unwrap().position(), Vec3::new(1.0, 2.0, 3.0), "the local offset is kept");
    assert_eq!(worlds.get(&arena, part), Some(old_world), "the world is stale until the pass");

    let dirty = arena.take_dirty_transforms();
    assert_eq!(dirty, vec![part]);
    worlds.update(&arena, &dirty, PassMode::default());
    assert_eq!(worlds.get(&arena, part).unwrap().position, Vec3::new(1.0, -3.0, 3.0));
    assert_close(&arena, &worlds, part);
    let m = worlds.matrix(&arena, part).unwrap();
    assert!(m.transform_point3(Vec3::ZERO).abs_diff_eq(Vec3::new(1.0, -3.0, 3.0), 1e-6));
}

#[test]
fn a_wide_folder_goes_parallel_and_agrees_with_one_thread() {
    let mut arena = Arena::new();
    let ws = arena.workspace();
    let folder = arena.create(Class::Folder, "Bullets", Some(ws)).unwrap();
    arena.set_transform(folder, local([1.0, 2.0, 3.0], 0.3, 0.1)).unwrap();
    let parts: Vec<Id> = (0..20_000)
        .map(|i| {
            let id = arena.create(Class::Part, "B", Some(folder)).unwrap();
            arena.set_transform(id, local([i as f32 * 0.001, 0.5, -1.0], i as f32 * 0.01, 0.0)).unwrap();
            id
        })
        .collect();
    let dirty = arena.take_dirty_transforms();
    let mut one = WorldTransforms::new();
    let mut two = WorldTransforms::new();
    let single = rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
    let a = single.install(|| one.update(&arena, &dirty, PassMode::default()));
    let b = pool().install(|| two.update(&arena, &dirty, PassMode::default()));
    assert_eq!(a, b);
    assert_eq!(a.recomputed, 20_002);
    for &p in parts.iter().step_by(97) {
        assert_eq!(one.get(&arena, p), two.get(&arena, p));
        assert_close(&arena, &two, p);
    }
}

#[test]
fn a_long_scattered_list_of_models_and_parts_agrees_in_every_mode() {
    // About 17,600 scattered dirty ids (repeats included) among 33,000 nodes, models of 10
    // parts: a list longer than 8,192 ids and shorter than 65,536, which the default split
    // sends down the short-list route.
    let mut arena = Arena::new();
    let ws = arena.workspace();
    let mut ids = Vec::new();
    for m in 0..3_000 {
        let model = arena.create(Class::Model, "M", Some(ws)).unwrap();
        arena.set_transform(model, local([m as f32, 0.0, 1.0], m as f32 * 0.002, 0.1)).unwrap();
        ids.push(model);
        for p in 0..10 {
            let part = arena.create(Class::Part, "P", Some(model)).unwrap();
            arena.set_transform(part, local([p as f32, 1.0, 0.0], p as f32 * 0.1, 0.0)).unwrap();
            ids.push(part);
        }
    }
    let first = arena.take_dirty_transforms();
    let mut worlds: Vec<WorldTransforms> = MODES.iter().map(|_| WorldTransforms::new()).collect();
    let pool = pool();
    for (w, &mode) in worlds.iter_mut().zip(&MODES) {
        pool.install(|| w.update(&arena, &first, mode));
    }
    // Every third node written (models among them, so some leaves are covered), twice.
    for (k, &id) in ids.iter().enumerate().filter(|(k, _)| k % 3 == 0 || k % 5 == 0) {
        arena.set_transform(id, local([k as f32 * 0.01, 2.0, 0.0], 0.2, k as f32 * 0.001)).unwrap();
    }
    let dirty: Vec<Id> = arena.take_dirty_transforms();
    let dirty: Vec<Id> = dirty.iter().chain(dirty.iter().step_by(7)).copied().collect();
    assert!((8_192..65_536).contains(&dirty.len()), "{} dirty ids", dirty.len());
    let stats: Vec<PassStats> = worlds
        .iter_mut()
        .zip(&MODES)
        .map(|(w, &mode)| pool.install(|| w.update(&arena, &dirty, mode)))
        .collect();
    assert!(stats.iter().all(|s| *s == stats[0]), "{stats:?}");
    for &id in &ids {
        let first = worlds[0].get(&arena, id);
        assert!(worlds.iter().all(|w| w.get(&arena, id) == first), "{id:?}");
    }
    for &id in ids.iter().step_by(13) {
        assert_close(&arena, &worlds[3], id);
    }
}
