//! Physics sync and write-back through the public API: sleeping bodies are not written back,
//! sync stays incremental (and rescans when the part-write log's history is gone), script
//! writes between ticks are seen, and moving a model, folder or character moves the bodies
//! below it, in agreement with the transform pass.

mod common;

use arbor_core::{Arena, ArenaConfig, Class, Id, LocalTransform, Quat, Shape, Vec3};
use arbor_sim::physics::SyncStats;
use common::{FLOOR_TOP, World, close};

#[test]
fn sleeping_bodies_are_not_written_back() {
    let mut w = World::new();
    w.floor();
    let ws = w.ws();
    let boxes: Vec<Id> = (0..10)
        .map(|i| w.part(ws, Vec3::new(i as f32 * 4.0 - 20.0, 5.0, 0.0), Vec3::splat(2.0), false))
        .collect();
    let ticks = w.settle(1200);
    assert!(ticks > 10);
    let revs: Vec<u64> = boxes.iter().map(|&b| w.arena.get(b).unwrap().revision()).collect();
    for _ in 0..120 {
        let (stats, written) = w.tick();
        assert_eq!(written, 0);
        assert_eq!(stats, SyncStats::default());
    }
    let after: Vec<u64> = boxes.iter().map(|&b| w.arena.get(b).unwrap().revision()).collect();
    assert_eq!(revs, after);
    for &b in &boxes {
        assert!(close(w.local(b).position.y, FLOOR_TOP + 1.0, 0.05));
    }
}

#[test]
fn removing_the_floor_wakes_what_slept_on_it() {
    let mut w = World::new();
    let floor = w.floor();
    let ws = w.ws();
    let b = w.part(ws, Vec3::new(0.0, 3.0, 0.0), Vec3::splat(2.0), false);
    w.settle(1200);
    w.arena.destroy(floor).unwrap();
    w.run(60);
    assert!(w.local(b).position.y < -20.0, "box stayed at {:?}", w.local(b).position);
}

#[test]
fn history_unavailable_triggers_a_rescan() {
    let config = ArenaConfig { part_write_log_capacity: 8, ..ArenaConfig::default() };
    let mut w = World::with_arena(Arena::with_config(config));
    w.floor();
    let ws = w.ws();
    let moved = w.part(ws, Vec3::new(0.0, 30.0, 0.0), Vec3::splat(2.0), true);
    let doomed = w.part(ws, Vec3::new(10.0, 30.0, 0.0), Vec3::splat(2.0), true);
    let (stats, _) = w.tick();
    assert!(stats.full_rescan, "the first sync inspects everything");
    let (stats, _) = w.tick();
    assert!(!stats.full_rescan);

    // Overflow the 8-entry log between two syncs.
    w.arena.destroy(doomed).unwrap();
    let extra: Vec<Id> =
        (0..6).map(|i| w.part(ws, Vec3::new(-10.0, 10.0 + i as f32 * 3.0, 0.0), Vec3::ONE, true)).collect();
    for i in 0..8 {
        w.arena.set_position(moved, Vec3::new(0.0, 30.0 + i as f32, 0.0)).unwrap();
    }
    assert!(w.arena.part_writes_since(w.arena.revisions().global - 30).is_err());
    let (stats, _) = w.tick();
    assert!(stats.full_rescan);
    assert_eq!(stats.added, 6);
    assert_eq!(stats.removed, 1);
    assert_eq!(w.physics.body_count(), 2 + extra.len());
    assert!(w.physics.body(doomed).is_none());
    assert_eq!(w.physics.part_pose(moved).unwrap().translation, Vec3::new(0.0, 37.0, 0.0));
    let (stats, _) = w.tick();
    assert!(!stats.full_rescan, "back to incremental");
}

#[test]
fn a_script_write_after_write_back_is_seen() {
    let mut w = World::new();
    w.floor();
    let ws = w.ws();
    let b = w.part(ws, Vec3::new(0.0, 10.0, 0.0), Vec3::splat(2.0), false);
    w.run(10);
    // A script teleports the box between ticks.
    w.arena.set_position(b, Vec3::new(40.0, 60.0, 0.0)).unwrap();
    let (stats, _) = w.tick();
    assert_eq!(stats.updated, 1);
    let p = w.local(b).position;
    assert!(close(p.x, 40.0, 1e-3) && p.y > 55.0 && p.y < 60.0, "teleport lost: {p:?}");
}

#[test]
fn write_back_stores_local_transforms_under_a_moved_model() {
    let mut w = World::new();
    w.floor();
    let ws = w.ws();
    let model = w.arena.create(Class::Model, "M", Some(ws)).unwrap();
    let frame = LocalTransform { position: Vec3::new(10.0, 4.0, -5.0), rotation: Quat::from_rotation_y(1.0) };
    w.arena.set_transform(model, frame).unwrap();
    let b = w.part(model, Vec3::new(0.0, 10.0, 0.0), Vec3::splat(2.0), false);
    w.run(150);
    // World y on the floor; local y relative to the model's frame.
    assert!(close(w.world_pos(b).y, FLOOR_TOP + 1.0, 0.05), "{:?}", w.world_pos(b));
    assert!(close(w.local(b).position.y, FLOOR_TOP + 1.0 - 4.0, 0.05), "{:?}", w.local(b));
    assert!(close(w.world_pos(b).x, 10.0, 0.05) && close(w.world_pos(b).z, -5.0, 0.05));
}

#[test]
fn moving_a_model_or_folder_moves_the_bodies_below_it() {
    let mut w = World::new();
    let ws = w.ws();
    let model = w.arena.create(Class::Model, "M", Some(ws)).unwrap();
    let a = w.part(model, Vec3::new(1.0, 2.0, 3.0), Vec3::ONE, true);
    let folder = w.arena.create(Class::Folder, "F", Some(ws)).unwrap();
    let f = w.part(folder, Vec3::new(0.0, 5.0, 0.0), Vec3::ONE, true);
    let shelf = w.arena.create(Class::Folder, "Shelf", Some(ws)).unwrap();
    w.arena.set_position(shelf, Vec3::new(0.0, 100.0, 0.0)).unwrap();
    w.tick();
    w.arena.set_position(model, Vec3::new(100.0, 0.0, 0.0)).unwrap();
    w.arena.set_parent(folder, Some(shelf)).unwrap();
    let (stats, _) = w.tick();
    assert_eq!(stats.updated, 2);
    assert_eq!(w.physics.part_pose(a).unwrap().translation, Vec3::new(101.0, 2.0, 3.0));
    assert_eq!(w.physics.part_pose(f).unwrap().translation, Vec3::new(0.0, 105.0, 0.0));
}

#[test]
fn many_ticks_keep_sync_incremental() {
    let mut w = World::new();
    w.floor();
    let ws = w.ws();
    for i in 0..200 {
        let (x, z) = ((i % 20) as f32 * 3.0 - 30.0, (i / 20) as f32 * 3.0 - 15.0);
        w.part(ws, Vec3::new(x, 5.0 + (i % 7) as f32, z), Vec3::splat(2.0), false);
    }
    w.tick();
    for _ in 0..100 {
        let (stats, written) = w.tick();
        assert_eq!(stats, SyncStats::default());
        assert!(written <= 200);
    }
    assert_eq!(w.physics.body_count(), 201);
}

#[test]
fn bodies_and_the_transform_pass_agree() {
    let mut w = World::new();
    w.floor();
    let ws = w.ws();
    let model = w.arena.create(Class::Model, "M", Some(ws)).unwrap();
    let frame = LocalTransform { position: Vec3::new(-7.0, 2.0, 3.0), rotation: Quat::from_rotation_x(0.3) };
    w.arena.set_transform(model, frame).unwrap();
    let mut parts = vec![];
    for i in 0..12 {
        let parent = if i % 2 == 0 { model } else { ws };
        parts.push(w.part(
            parent,
            Vec3::new(i as f32 * 3.0 - 18.0, 8.0 + i as f32, 0.0),
            Vec3::splat(2.0),
            false,
        ));
    }
    for t in 0..90 {
        w.tick();
        if t % 10 != 0 {
            continue;
        }
        for &id in &parts {
            let body = w.physics.body(id).unwrap();
            let world = w.transforms.get(&w.arena, id).unwrap();
            assert!((world.position - body.translation()).length() < 1e-3, "tick {t}: {id:?}");
            assert!(world.rotation.dot(*body.rotation()).abs() > 1.0 - 1e-5, "tick {t}: {id:?}");
        }
    }
}

#[test]
fn writing_a_folders_position_moves_the_bodies_below_it() {
    let mut w = World::new();
    let ws = w.ws();
    let folder = w.arena.create(Class::Folder, "F", Some(ws)).unwrap();
    let inner = w.arena.create(Class::Folder, "Inner", Some(folder)).unwrap();
    let a = w.part(folder, Vec3::new(0.0, 5.0, 0.0), Vec3::ONE, true);
    let b = w.part(inner, Vec3::new(1.0, 0.0, 0.0), Vec3::ONE, true);
    w.tick();
    w.arena.set_position(folder, Vec3::new(50.0, 0.0, 0.0)).unwrap();
    let (stats, _) = w.tick();
    assert_eq!(stats.updated, 2);
    assert_eq!(w.physics.part_pose(a).unwrap().translation, Vec3::new(50.0, 5.0, 0.0));
    assert_eq!(w.physics.part_pose(b).unwrap().translation, Vec3::new(51.0, 0.0, 0.0));
    // The inner folder alone, by rotation: only its part moves.
    w.arena.set_rotation(inner, Quat::from_rotation_y(std::f32::consts::FRAC_PI_2)).unwrap();
    let (stats, _) = w.tick();
    assert_eq!(stats.updated, 1);
    assert!((w.physics.part_pose(b).unwrap().translation - Vec3::new(50.0, 0.0, -1.0)).length() < 1e-5);
}

#[test]
fn a_character_moved_by_its_position_takes_its_parts_along() {
    let mut w = World::new();
    let ws = w.ws();
    let character = w.arena.create(Class::Character, "Cadet", Some(ws)).unwrap();
    let torso = w.part(character, Vec3::new(0.0, 3.0, 0.0), Vec3::new(2.0, 2.0, 1.0), false);
    w.tick();
    w.arena.set_position(character, Vec3::new(0.0, 40.0, 30.0)).unwrap();
    w.tick();
    let at = w.physics.part_pose(torso).unwrap().translation;
    assert!((at - Vec3::new(0.0, 43.0, 30.0)).length() < 0.5, "{at:?}");
    assert!(close(w.world_pos(torso).z, 30.0, 1e-3), "{:?}", w.world_pos(torso));
}

#[test]
fn a_ball_lands_on_a_platform_whose_folder_moved() {
    let mut w = World::new();
    let ws = w.ws();
    let folder = w.arena.create(Class::Folder, "Stage", Some(ws)).unwrap();
    w.part(folder, Vec3::ZERO, Vec3::new(20.0, 2.0, 20.0), true);
    w.tick();
    w.arena.set_position(folder, Vec3::new(100.0, 0.0, 0.0)).unwrap();
    let ball = w.part(ws, Vec3::new(100.0, 10.0, 0.0), Vec3::splat(2.0), false);
    w.set_shape(ball, Shape::Ball);
    w.run(120);
    let y = w.world_pos(ball).y;
    assert!(close(y, FLOOR_TOP + 1.0, 0.1), "the ball fell through the moved platform: y = {y}");
}
