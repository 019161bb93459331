//! The client's per-frame cost of prediction (`docs/perf/networking.md`, "Prediction"),
//! against the server's own cost of stepping the same character once, in the same run.
//!
//! | group | ours | baseline |
//! |---|---|---|
//! | `client_frame/predict_step` | one predicted step: `Predictor::step` (a command numbered, the character driven and stepped 1/60 s in the prediction world) and `Predictor::frame` | — |
//! | `client_frame/predict_and_reconcile_6` | a frame with a server state: `Predictor::reconcile` (rewind, 6 unacknowledged commands replayed), then `step` and `frame` | `server_drive_step`: the server's physics step of the same character on the same place (`Physics::sync`, `drive_character`, `step`, `write_back`) |
//! | `client_frame/crowd_100/characters` | a frame among 100 other characters that all moved (their root parts written, as a snapshot does): `Predictor::sync` (their copies follow, as obstacles), `step`, `frame` | `crowd_100/loose_parts`: the same frame with 100 moved loose parts instead (not copied) |
//!
//! Run: `cargo bench -p arbor-benches --bench client_frame -- --warm-up-time 1 --measurement-time 3`.

use arbor_core::{Arena, Class, Id, NodeFlags};
use arbor_net::prediction::{InputCommand, Predictor, command_drive};
use arbor_net::wire::{BodyState, CharacterState};
use arbor_sim::physics::{DEFAULT_GRAVITY, Physics};
use criterion::{Criterion, criterion_group, criterion_main};
use glam::Vec3;
use std::hint::black_box;

/// A floor, 16 posts around the start, a character with its root part on the floor.
fn place() -> (Arena, Id, Id) {
    let mut arena = Arena::new();
    let ws = arena.workspace();
    let floor = arena.create(Class::Part, "Floor", Some(ws)).unwrap();
    arena.set_size(floor, Vec3::new(1024.0, 2.0, 1024.0)).unwrap();
    arena.set_position(floor, Vec3::new(0.0, -1.0, 0.0)).unwrap();
    arena.set_flag(floor, NodeFlags::ANCHORED, true).unwrap();
    for i in 0..16 {
        let post = arena.create(Class::Part, "Post", Some(ws)).unwrap();
        let a = i as f32 * std::f32::consts::TAU / 16.0;
        arena.set_size(post, Vec3::new(1.0, 6.0, 1.0)).unwrap();
        arena.set_position(post, Vec3::new(a.cos() * 60.0, 3.0, a.sin() * 60.0)).unwrap();
        arena.set_flag(post, NodeFlags::ANCHORED, true).unwrap();
    }
    let character = arena.create(Class::Character, "Player", Some(ws)).unwrap();
    let root = arena.create(Class::Part, "HumanoidRootPart", Some(character)).unwrap();
    arena.set_size(root, Vec3::new(2.0, 2.0, 1.0)).unwrap();
    arena.set_position(root, Vec3::new(0.0, 1.0, 0.0)).unwrap();
    (arena, character, root)
}

/// Walks in a slow circle (so the character stays among the posts).
fn command(step: u32) -> InputCommand {
    let a = step as f32 * 0.01;
    InputCommand { movement: [(a.cos() * 127.0) as i8, (a.sin() * 127.0) as i8], buttons: 0 }
}

/// A predictor of `character` on `arena`, 60 steps into its walk.
fn walking_predictor(arena: &Arena, character: Id) -> Predictor {
    let mut predictor = Predictor::new();
    predictor.set_enabled(true);
    predictor.sync(arena, Some(character), None);
    for _ in 0..60 {
        let s = predictor.history().newest() + 1;
        predictor.step(command(s));
    }
    predictor
}

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("client_frame");

    // The server: its physics world over the place, stepping the character once per tick.
    let (mut arena, _, root) = place();
    let mut physics = Physics::new(DEFAULT_GRAVITY);
    physics.sync(&arena);
    let mut tick = 0u32;
    g.bench_function("server_drive_step", |b| {
        b.iter(|| {
            tick = tick.wrapping_add(1);
            physics.sync(&arena);
            physics.drive_character(root, 1.0, command_drive(command(tick), 16.0, 50.0));
            physics.step(1.0 / 60.0);
            black_box(physics.write_back(&mut arena));
        })
    });

    let (arena, character, _) = place();
    let mut predictor = walking_predictor(&arena, character);
    g.bench_function("predict_step", |b| {
        b.iter(|| {
            let s = predictor.history().newest() + 1;
            black_box(predictor.step(command(s)));
            black_box(predictor.frame());
        })
    });

    // A fresh predictor, 6 commands ahead of each state it reconciles.
    let mut predictor = walking_predictor(&arena, character);
    let mut epoch = 0;
    g.bench_function("predict_and_reconcile_6", |b| {
        b.iter(|| {
            epoch += 1;
            let newest = predictor.history().newest();
            let acked = newest - 6;
            let position = predictor.predicted_at(acked).unwrap_or(Vec3::new(0.0, 1.0, 0.0));
            let velocity = predictor.predicted_velocity().unwrap_or(Vec3::ZERO);
            let body = BodyState { character, position, velocity };
            let state = CharacterState { epoch, acked, irregular: 0, queued: 0, body: Some(body) };
            black_box(predictor.reconcile(&state));
            black_box(predictor.step(command(newest + 1)));
            black_box(predictor.frame());
        })
    });
    let stats = predictor.stats();
    assert!(stats.reconciles > 0 && stats.last_replayed == 6, "{stats:?}");

    // A crowd: 100 other characters (or, for the baseline, 100 loose parts) around the
    // character, every one moved each frame.
    for (name, characters) in [("crowd_100/characters", true), ("crowd_100/loose_parts", false)] {
        let (mut arena, character, _) = place();
        let ws = arena.workspace();
        let movers: Vec<Id> = (0..100)
            .map(|_| {
                let parent =
                    if characters { arena.create(Class::Character, "Other", Some(ws)).unwrap() } else { ws };
                let part = arena.create(Class::Part, "HumanoidRootPart", Some(parent)).unwrap();
                arena.set_size(part, Vec3::new(2.0, 2.0, 1.0)).unwrap();
                part
            })
            .collect();
        let mut predictor = Predictor::new();
        predictor.set_enabled(true);
        let mut frame = 0u32;
        let move_all = |arena: &mut Arena, frame: u32| {
            for (i, &part) in movers.iter().enumerate() {
                let a = i as f32 * 0.37 + frame as f32 * 0.01;
                arena.set_position(part, Vec3::new(a.cos() * 40.0, 1.0, a.sin() * 40.0)).unwrap();
            }
        };
        move_all(&mut arena, 0);
        predictor.sync(&arena, Some(character), None);
        assert_eq!(predictor.geometry_len(), 17 + if characters { 100 } else { 0 });
        g.bench_function(name, |b| {
            b.iter(|| {
                frame += 1;
                move_all(&mut arena, frame);
                predictor.sync(&arena, Some(character), None);
                let s = predictor.history().newest() + 1;
                black_box(predictor.step(command(s)));
                black_box(predictor.frame());
            })
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
