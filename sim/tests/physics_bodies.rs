//! Physics bodies through the public API (sync, step, write-back, transform pass, as the tick
//! runs them): parts coming to rest by shape, anchored parts, bodies added and removed with
//! the world's parts, size, shape and anchoring changes, non-colliding parts and raycasts.

mod common;

use arbor_core::{Class, NodeFlags, Shape, Vec3};
use common::{FLOOR_TOP, World, close};
use rapier3d::prelude::RigidBodyType;

#[test]
fn a_dropped_box_comes_to_rest_on_an_anchored_floor() {
    let mut w = World::new();
    w.floor();
    let ws = w.ws();
    let b = w.part(ws, Vec3::new(3.0, 20.0, -4.0), Vec3::new(2.0, 2.0, 2.0), false);
    w.run(150); // 2.5 s
    let p = w.local(b).position;
    assert!(close(p.y, FLOOR_TOP + 1.0, 0.05), "box at {p:?}");
    assert!(close(p.x, 3.0, 0.25) && close(p.z, -4.0, 0.25), "box slid to {p:?}");
    assert!(w.physics.body(b).unwrap().linvel().length() < 0.5);
}

#[test]
fn balls_and_cylinders_rest_at_their_radius() {
    let mut w = World::new();
    w.floor();
    let ws = w.ws();
    let ball = w.part(ws, Vec3::new(-10.0, 15.0, 0.0), Vec3::splat(3.0), false);
    w.set_shape(ball, Shape::Ball);
    // A cylinder along X (length 6, diameter 2): lying on the floor its axis stays at y = top + 1.
    let cyl = w.part(ws, Vec3::new(10.0, 15.0, 0.0), Vec3::new(6.0, 2.0, 2.0), false);
    w.set_shape(cyl, Shape::Cylinder);
    w.run(240);
    assert!(close(w.local(ball).position.y, FLOOR_TOP + 1.5, 0.05), "ball {:?}", w.local(ball));
    assert!(close(w.local(cyl).position.y, FLOOR_TOP + 1.0, 0.05), "cylinder {:?}", w.local(cyl));
}

#[test]
fn anchored_parts_do_not_move() {
    let mut w = World::new();
    let floor = w.floor();
    let ws = w.ws();
    let hanging = w.part(ws, Vec3::new(0.0, 30.0, 0.0), Vec3::splat(2.0), true);
    let falling = w.part(ws, Vec3::new(0.0, 40.0, 0.0), Vec3::splat(2.0), false);
    let (rf, rh) = (w.arena.get(floor).unwrap().revision(), w.arena.get(hanging).unwrap().revision());
    w.run(120);
    assert_eq!(w.local(hanging).position, Vec3::new(0.0, 30.0, 0.0));
    assert_eq!(w.local(floor).position, Vec3::ZERO);
    assert_eq!(w.arena.get(floor).unwrap().revision(), rf, "an anchored part was written");
    assert_eq!(w.arena.get(hanging).unwrap().revision(), rh);
    // The dynamic box landed on the anchored one instead of passing it.
    assert!(close(w.local(falling).position.y, 30.0 + 2.0, 0.05), "{:?}", w.local(falling));
    assert_eq!(w.body_type(hanging), RigidBodyType::Fixed);
    // The floor, which no dynamic body reaches, is dormant: no rapier body, its pose kept.
    assert!(w.physics.body(floor).is_none());
    assert_eq!(w.physics.part_pose(floor).unwrap().translation, Vec3::ZERO);
}

#[test]
fn destroying_a_part_or_detaching_its_model_removes_the_body() {
    let mut w = World::new();
    w.floor();
    let ws = w.ws();
    let lone = w.part(ws, Vec3::new(0.0, 5.0, 0.0), Vec3::splat(2.0), false);
    let model = w.arena.create(Class::Model, "Car", Some(ws)).unwrap();
    let a = w.part(model, Vec3::new(5.0, 5.0, 0.0), Vec3::splat(2.0), false);
    let b = w.part(model, Vec3::new(9.0, 5.0, 0.0), Vec3::splat(2.0), false);
    w.tick();
    assert_eq!(w.physics.body_count(), 4);

    w.arena.destroy(lone).unwrap();
    let (stats, _) = w.tick();
    assert_eq!(stats.removed, 1);
    assert!(w.physics.body(lone).is_none());

    w.arena.set_parent(model, None).unwrap();
    let (stats, _) = w.tick();
    assert_eq!(stats.removed, 2);
    assert!(w.physics.body(a).is_none() && w.physics.body(b).is_none());
    assert_eq!(w.physics.body_count(), 1);
    assert_eq!(w.physics.awake_bodies(), 0);

    // Back in the world: bodies again.
    w.arena.set_parent(model, Some(ws)).unwrap();
    let (stats, _) = w.tick();
    assert_eq!(stats.added, 2);
    w.arena.destroy(model).unwrap();
    let (stats, _) = w.tick();
    assert_eq!(stats.removed, 2);
    assert_eq!(w.physics.body_count(), 1);
}

#[test]
fn parts_created_outside_the_world_have_no_body() {
    let mut w = World::new();
    let folder = w.arena.create(Class::Folder, "Storage", Some(w.arena.root())).unwrap();
    w.part(folder, Vec3::ZERO, Vec3::ONE, false);
    w.arena.create(Class::Part, "Detached", None).unwrap();
    w.tick();
    assert_eq!(w.physics.body_count(), 0);
}

#[test]
fn size_shape_and_anchored_changes_reach_the_body() {
    let mut w = World::new();
    w.floor();
    let ws = w.ws();
    let b = w.part(ws, Vec3::new(0.0, 10.0, 0.0), Vec3::splat(2.0), true);
    // A dynamic box resting on it keeps it awake (a dormant part has no rapier body).
    w.part(ws, Vec3::new(0.0, 11.6, 0.0), Vec3::ONE, false);
    w.tick();
    let volume = |w: &World| {
        let body = w.physics.body(b).unwrap();
        let c = w.physics.world().colliders.get(body.colliders()[0]).unwrap();
        c.volume()
    };
    assert!(close(volume(&w), 8.0, 1e-3));

    w.arena.set_size(b, Vec3::new(4.0, 2.0, 2.0)).unwrap();
    let (stats, _) = w.tick();
    assert_eq!(stats.updated, 1);
    assert!(close(volume(&w), 16.0, 1e-3));

    w.set_shape(b, Shape::Ball);
    w.tick();
    let r = 2.0f32;
    assert!(close(volume(&w), 4.0 / 3.0 * std::f32::consts::PI * r * r * r, 1e-2));

    w.set_shape(b, Shape::Cylinder);
    w.tick();
    // Length 4 along X, radius 1.
    assert!(close(volume(&w), std::f32::consts::PI * 4.0, 1e-2));
    let body = w.physics.body(b).unwrap();
    let aabb = w.physics.world().colliders.get(body.colliders()[0]).unwrap().compute_aabb();
    assert!(close(aabb.maxs.x - aabb.mins.x, 4.0, 1e-3), "{aabb:?}");

    assert_eq!(w.body_type(b), RigidBodyType::Fixed);
    w.arena.set_flag(b, NodeFlags::ANCHORED, false).unwrap();
    w.tick();
    assert_eq!(w.body_type(b), RigidBodyType::Dynamic);
    w.run(60);
    assert!(w.local(b).position.y < 10.0, "unanchored part fell");
    w.arena.set_flag(b, NodeFlags::ANCHORED, true).unwrap();
    w.tick();
    assert_eq!(w.body_type(b), RigidBodyType::Fixed);
    let y = w.local(b).position.y;
    w.run(30);
    assert_eq!(w.local(b).position.y, y);
}

#[test]
fn non_colliding_parts_fall_through() {
    let mut w = World::new();
    w.floor();
    let ws = w.ws();
    let ghost = w.part(ws, Vec3::new(0.0, 10.0, 0.0), Vec3::splat(2.0), false);
    w.arena.set_flag(ghost, NodeFlags::CAN_COLLIDE, false).unwrap();
    let solid = w.part(ws, Vec3::new(5.0, 10.0, 0.0), Vec3::splat(2.0), false);
    w.run(120);
    assert!(w.local(ghost).position.y < -50.0, "ghost at {:?}", w.local(ghost).position);
    assert!(close(w.local(solid).position.y, FLOOR_TOP + 1.0, 0.05));
    // Turning collisions back on makes it solid again.
    w.arena.set_flag(solid, NodeFlags::CAN_COLLIDE, false).unwrap();
    w.run(60);
    assert!(w.local(solid).position.y < -10.0);
}

#[test]
fn raycasts_hit_the_floor_and_name_it() {
    let mut w = World::new();
    let floor = w.floor();
    let ws = w.ws();
    let ghost = w.part(ws, Vec3::new(0.0, 20.0, 0.0), Vec3::splat(4.0), true);
    w.arena.set_flag(ghost, NodeFlags::CAN_COLLIDE, false).unwrap();
    w.tick();
    let hit = w.physics.raycast(Vec3::new(0.0, 50.0, 0.0), Vec3::new(0.0, -3.0, 0.0), 1000.0).unwrap();
    assert_eq!(hit.id, floor, "non-colliding parts are not hit");
    assert!(close(hit.distance, 50.0 - FLOOR_TOP, 1e-3));
    assert!((hit.point - Vec3::new(0.0, FLOOR_TOP, 0.0)).length() < 1e-3);
    assert!((hit.normal - Vec3::Y).length() < 1e-3);
    assert!(w.physics.raycast(Vec3::new(0.0, 50.0, 0.0), Vec3::NEG_Y, 10.0).is_none(), "out of range");
    assert!(w.physics.raycast(Vec3::new(0.0, 50.0, 0.0), Vec3::Y, 1000.0).is_none(), "pointing away");
    assert!(w.physics.raycast(Vec3::new(0.0, 50.0, 0.0), Vec3::ZERO, 1000.0).is_none());
}

#[test]
fn raycasts_follow_moving_bodies() {
    let mut w = World::new();
    w.floor();
    let ws = w.ws();
    let b = w.part(ws, Vec3::new(20.0, 30.0, 0.0), Vec3::splat(2.0), false);
    w.run(120);
    let hit = w.physics.raycast(Vec3::new(20.0, 50.0, 0.0), Vec3::NEG_Y, 100.0).unwrap();
    assert_eq!(hit.id, b);
    assert!(close(hit.point.y, FLOOR_TOP + 2.0, 0.05), "{hit:?}");
}
