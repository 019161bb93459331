//! The predictor against a reference server: a second [`PredictionWorld`] stepping the
//! same commands one per tick, whose states reach the predictor a few steps late.

use super::*;
use crate::wire::{BodyState, CharacterState};
use arbor_core::{Arena, Class, Id, NodeFlags, Quat};
use glam::Vec3;

/// A floor, a step to walk into, and a character with its root part standing on the floor.
fn place() -> (Arena, Id, Id) {
    let mut arena = Arena::new();
    let ws = arena.workspace();
    let floor = arena.create(Class::Part, "Floor", Some(ws)).unwrap();
    arena.set_size(floor, Vec3::new(400.0, 2.0, 400.0)).unwrap();
    arena.set_position(floor, Vec3::new(0.0, -1.0, 0.0)).unwrap();
    arena.set_flag(floor, NodeFlags::ANCHORED, true).unwrap();
    let wall = arena.create(Class::Part, "Wall", Some(ws)).unwrap();
    arena.set_size(wall, Vec3::new(2.0, 10.0, 40.0)).unwrap();
    arena.set_position(wall, Vec3::new(30.0, 5.0, 0.0)).unwrap();
    arena.set_flag(wall, NodeFlags::ANCHORED, true).unwrap();
    let character = arena.create(Class::Character, "Player", Some(ws)).unwrap();
    let root = arena.create(Class::Part, "HumanoidRootPart", Some(character)).unwrap();
    arena.set_size(root, Vec3::new(2.0, 2.0, 1.0)).unwrap();
    arena.set_position(root, Vec3::new(0.0, 1.0, 0.0)).unwrap();
    arena.set_flag(root, NodeFlags::ANCHORED, false).unwrap();
    (arena, character, root)
}

fn pattern(step: u32) -> InputCommand {
    let movement = match step % 240 {
        0..80 => [127, 0],
        80..160 => [0, 127],
        160..200 => [-90, -90],
        _ => [0, 0],
    };
    InputCommand { movement, buttons: u8::from(step % 97 == 50) }
}

#[test]
fn the_prediction_matches_a_late_server_and_corrections_stay_under_the_bound() {
    let (arena, character, _) = place();
    let mut server = PredictionWorld::default();
    server.sync_geometry(&arena, Vec3::ZERO);
    server.place_body(Vec3::new(2.0, 2.0, 1.0), Quat::IDENTITY, Vec3::new(0.0, 1.0, 0.0), Vec3::ZERO);
    let mut p = Predictor::new();
    p.set_enabled(true);
    p.sync(&arena, Some(character), None);
    assert_eq!(p.geometry_len(), 2);
    let lag = 6;
    let mut states = std::collections::VecDeque::new();
    for step in 1..=600u32 {
        let seq = p.step(pattern(step));
        assert_eq!(seq, step);
        let (position, velocity) = server.step(command_drive(pattern(step), 16.0, 50.0)).unwrap();
        states.push_back(CharacterState {
            epoch: step,
            acked: step,
            irregular: 0,
            queued: 0,
            body: Some(BodyState { character, position, velocity }),
        });
        if states.len() > lag {
            let s = states.pop_front().unwrap();
            assert!(p.reconcile(&s));
            assert_eq!(p.stats().last_replayed, lag);
        }
        p.frame();
        // The replayed prediction is where the server will be.
        let predicted = p.predicted_position().unwrap();
        assert!(predicted.distance(position) < 0.05, "step {step}: {predicted} vs {position}");
    }
    let s = p.stats();
    assert!(s.compared > 500 && s.max_error < 0.05, "{s:?}");
    assert!(s.largest_correction_step <= MAX_CORRECTION_STEP);
    assert_eq!(s.snaps, 0);
    // A stale state and a bogus ack change nothing.
    let old = CharacterState { epoch: 3, acked: 3, irregular: 0, queued: 0, body: None };
    assert!(!p.reconcile(&old));
    let bogus = CharacterState { epoch: 9999, acked: 9999, irregular: 0, queued: 0, body: None };
    assert!(!p.reconcile(&bogus));
    assert_eq!((p.stats().stale_states, p.stats().bogus_acks), (1, 1));
}

#[test]
fn a_server_correction_is_smoothed_and_a_teleport_snaps() {
    let (arena, character, _) = place();
    let mut p = Predictor::new();
    p.set_enabled(true);
    p.sync(&arena, Some(character), None);
    for step in 1..=10 {
        p.step(InputCommand::default());
        let _ = step;
    }
    let at = p.predicted_position().unwrap();
    // The server says the character stands a stud further along X.
    let body = BodyState { character, position: at + Vec3::X, velocity: Vec3::ZERO };
    assert!(p.reconcile(&CharacterState { epoch: 1, acked: 10, irregular: 0, queued: 0, body: Some(body) }));
    let shown = p.shown_position().unwrap();
    assert!(shown.distance(at) < 1e-3, "no jump: {shown} vs {at}");
    let mut last = shown;
    for _ in 0..60 {
        p.frame();
        let now = p.shown_position().unwrap();
        assert!(now.distance(last) <= MAX_CORRECTION_STEP + 1e-4);
        last = now;
    }
    assert!(p.correction().length() < 0.01);
    let far = BodyState { character, position: at + Vec3::new(50.0, 0.0, 0.0), velocity: Vec3::ZERO };
    p.reconcile(&CharacterState { epoch: 2, acked: 10, irregular: 0, queued: 0, body: Some(far) });
    assert_eq!(p.stats().snaps, 1);
    assert_eq!(p.correction(), Vec3::ZERO);
    // Another character's state is not this one's.
    let other = BodyState { character: Id(999), position: Vec3::ZERO, velocity: Vec3::ZERO };
    assert!(!p.reconcile(&CharacterState {
        epoch: 3,
        acked: 10,
        irregular: 0,
        queued: 0,
        body: Some(other)
    }));
}

#[test]
fn quantised_right_angle_rotations_snap_back_and_others_stay_close() {
    use crate::wire::{dequantize_rotation, quantize_rotation};
    use std::f32::consts::{FRAC_PI_2, PI};
    let turns = [
        Quat::IDENTITY,
        Quat::from_rotation_y(FRAC_PI_2),
        Quat::from_rotation_x(PI),
        Quat::from_rotation_z(-FRAC_PI_2) * Quat::from_rotation_y(FRAC_PI_2),
    ];
    for q in turns {
        let wired = dequantize_rotation(quantize_rotation(q));
        let snapped = snap_rotation(wired);
        assert!((snapped.dot(q).abs() - 1.0).abs() < 1e-6, "{q} -> {wired} -> {snapped}");
    }
    // The identity survives the wire exactly; a component of ±½ does not (the reason for
    // snapping).
    assert_eq!(dequantize_rotation(quantize_rotation(Quat::IDENTITY)), Quat::IDENTITY);
    let two_axes = Quat::from_rotation_z(-FRAC_PI_2) * Quat::from_rotation_y(FRAC_PI_2);
    assert!(dequantize_rotation(quantize_rotation(two_axes)) != two_axes);
    let odd = Quat::from_rotation_y(0.3);
    assert!(snap_rotation(odd).angle_between(odd) < 1e-6);
    assert_eq!(snap_rotation(Quat::from_array([f32::NAN, 0.0, 0.0, 1.0])), Quat::IDENTITY);
}

#[test]
fn the_world_copies_only_near_static_parts_and_follows_their_changes() {
    let (mut arena, _, root) = place();
    let ws = arena.workspace();
    let far = arena.create(Class::Part, "Far", Some(ws)).unwrap();
    arena.set_position(far, Vec3::new(2000.0, 0.0, 0.0)).unwrap();
    arena.set_flag(far, NodeFlags::ANCHORED, true).unwrap();
    let ghost = arena.create(Class::Part, "Ghost", Some(ws)).unwrap();
    arena.set_flag(ghost, NodeFlags::ANCHORED, true).unwrap();
    arena.set_flag(ghost, NodeFlags::CAN_COLLIDE, false).unwrap();
    let mut w = PredictionWorld::default();
    // Floor and wall; not the far part, the non-colliding one or the character's own part.
    w.sync_geometry(&arena, Vec3::ZERO);
    assert_eq!(w.geometry_len(), 2);
    // Changes reach the copies through the part-write log.
    let wall = arena.find_first_child(ws, "Wall").unwrap();
    arena.set_flag(wall, NodeFlags::ANCHORED, false).unwrap();
    arena.set_flag(ghost, NodeFlags::CAN_COLLIDE, true).unwrap();
    w.sync_geometry(&arena, Vec3::ZERO);
    assert_eq!(w.geometry_len(), 2); // floor and ghost
    arena.destroy(ghost).unwrap();
    w.sync_geometry(&arena, Vec3::ZERO);
    assert_eq!(w.geometry_len(), 1);
    // Walking far away rescans: the far part comes in, the floor goes out; and back.
    w.sync_geometry(&arena, Vec3::new(1900.0, 0.0, 0.0));
    assert_eq!(w.geometry_len(), 1);
    w.place_body(Vec3::new(2.0, 2.0, 1.0), Quat::IDENTITY, Vec3::new(1900.0, 1.0, 0.0), Vec3::ZERO);
    let (at, _) = w.step(command_drive(InputCommand::default(), 16.0, 50.0)).unwrap();
    assert!(at.y < 1.0, "no floor there: the body falls ({at})");
    w.sync_geometry(&arena, Vec3::ZERO);
    assert_eq!(w.geometry_len(), 1);
    assert!(arena.contains(root));
}

/// Another character standing in the way: with the own character named, its root part is an
/// obstacle the predicted body stops at (and follows it when it moves); unnamed, or for a
/// loose part that is no character's, the body walks through. The own part is never copied.
#[test]
fn other_characters_are_obstacles_once_the_own_character_is_known() {
    let (mut arena, own, _) = place();
    let ws = arena.workspace();
    let other = arena.create(Class::Character, "Other", Some(ws)).unwrap();
    let other_root = arena.create(Class::Part, "HumanoidRootPart", Some(other)).unwrap();
    arena.set_size(other_root, Vec3::new(2.0, 2.0, 1.0)).unwrap();
    arena.set_position(other_root, Vec3::new(10.0, 1.0, 0.0)).unwrap();
    arena.set_flag(other_root, NodeFlags::ANCHORED, false).unwrap();
    let crate_part = arena.create(Class::Part, "Crate", Some(ws)).unwrap();
    arena.set_size(crate_part, Vec3::new(2.0, 2.0, 2.0)).unwrap();
    arena.set_position(crate_part, Vec3::new(10.0, 1.0, 20.0)).unwrap();
    arena.set_flag(crate_part, NodeFlags::ANCHORED, false).unwrap();
    let walk = InputCommand { movement: [127, 0], buttons: 0 };
    let walk_from = |w: &mut PredictionWorld, z: f32| {
        w.place_body(Vec3::new(2.0, 2.0, 1.0), Quat::IDENTITY, Vec3::new(0.0, 1.0, z), Vec3::ZERO);
        (0..90).fold(Vec3::ZERO, |_, _| w.step(command_drive(walk, 16.0, 50.0)).unwrap().0)
    };

    let mut unnamed = PredictionWorld::default();
    unnamed.sync_geometry(&arena, Vec3::ZERO);
    assert_eq!(unnamed.geometry_len(), 2, "floor and wall only");
    assert!(walk_from(&mut unnamed, 0.0).x > 20.0, "no obstacle without the own character");

    let mut w = PredictionWorld::default();
    w.set_own_character(Some(own));
    w.sync_geometry(&arena, Vec3::ZERO);
    assert_eq!(w.geometry_len(), 3, "floor, wall and the other's root part; not the own part or the crate");
    let stopped = walk_from(&mut w, 0.0);
    assert!(stopped.x < 9.0, "the other character blocks the way: {stopped}");
    assert!(walk_from(&mut w, 20.0).x > 20.0, "the loose crate is walked through");
    // The other steps aside: its copy follows through the part-write log.
    arena.set_position(other_root, Vec3::new(10.0, 1.0, 8.0)).unwrap();
    w.sync_geometry(&arena, Vec3::ZERO);
    assert!(walk_from(&mut w, 0.0).x > 20.0, "the way is free once the other moved");
    assert!(walk_from(&mut w, 8.0).x < 9.0, "and it blocks where it went");
}
