//! What recording and replay cost, each with its baseline in the same criterion group:
//!
//! - `replay/world_hash_101k`: [`Arena::world_hash`] (what `--record` pays every tick, and
//!   every phase with `--record-phases`) over 101,000 instances (1,000 Models of 100 Parts),
//!   vs a plain loop hashing the same fields from a `Vec` of structs with the same mixer (the
//!   floor: no tree walk, no lookups, names of at most eight bytes);
//! - `replay/world_hash_incremental`: what `--record` pays now, a [`WorldHasher`] updated
//!   after a tick-like batch of edits (1% of the Parts moved, untimed), vs the full
//!   [`Arena::world_hash`], at 101,000 and 1,010,000 instances (1,000 and 10,000 Models of
//!   100 Parts); and the edit batch itself, for scale;
//! - `replay/pairs_1k`: one `pairs` loop over a table of 1,000 keys inside a Script's
//!   `Update`: Instance keys (visited in id order), string keys (Luau's `next` after a scan
//!   for Instance keys), string keys with generalized iteration (`for k, v in t`, no `pairs`)
//!   and with Luau's `next` (`for k, v in next, t`: what `pairs` returned before it looked
//!   for Instance keys), vs the same `pairs` loops on a bare mlua VM (Luau's own `pairs`).

use arbor_core::{Arena, Class, Id, LocalTransform, WorldHasher};
use arbor_script::{HostConfig, ScriptHost};
use arbor_sim::{SimConfig, Simulation, TickHooks};
use criterion::{Criterion, criterion_group, criterion_main};
use glam::{Quat, Vec3};
use mlua::{Function, Lua, UserData};
use std::hint::black_box;
use std::time::{Duration, Instant};

/// 1,000 Models of 100 Parts under the Workspace, each Part with its own transform.
fn models_place() -> Arena {
    models_place_of(1_000)
}

/// `models` Models of 100 Parts under the Workspace, each Part with its own transform.
fn models_place_of(models: usize) -> Arena {
    let mut arena = Arena::new();
    let ws = arena.workspace();
    for m in 0..models {
        let model = arena.create(Class::Model, &format!("Model{m}"), Some(ws)).unwrap();
        for p in 0..100 {
            let part = arena.create(Class::Part, "Part", Some(model)).unwrap();
            let position = Vec3::new(m as f32, p as f32, 0.5);
            arena.set_transform(part, LocalTransform { position, rotation: Quat::IDENTITY }).unwrap();
        }
    }
    arena.drain_events();
    arena.drain_events();
    arena
}

/// A node's hashed fields, as a plain struct.
struct PlainNode {
    depth: u32,
    class: u8,
    flags: u8,
    name: String,
    position: [f32; 3],
    rotation: [f32; 4],
    size: [f32; 3],
    color: [u8; 4],
}

fn fold(a: u64, b: u64) -> u64 {
    let r = u128::from(a) * u128::from(b);
    (r as u64) ^ ((r >> 64) as u64)
}

/// The baseline: the same mixer (a multiply per pair of words) over the same words, from a
/// flat `Vec`.
fn plain_hash(nodes: &[PlainNode]) -> u64 {
    let mut h = 0x8ebc_6af0_9c88_c6e3u64;
    let mut absorb = |a: u64, b: u64| h = fold(h ^ a ^ 0xa076_1d64_78bd_642f, b ^ 0xe703_7ed1_a0b4_28db);
    let pair = |a: f32, b: f32| u64::from(a.to_bits()) << 32 | u64::from(b.to_bits());
    for n in nodes {
        absorb(u64::from(n.depth), u64::from(n.class) << 8 | u64::from(n.flags));
        let mut w = [0u8; 8];
        let len = n.name.len().min(8);
        w[..len].copy_from_slice(&n.name.as_bytes()[..len]);
        absorb(n.name.len() as u64, u64::from_le_bytes(w));
        let (p, r, s) = (n.position, n.rotation, n.size);
        absorb(pair(p[0], p[1]), pair(p[2], r[0]));
        absorb(pair(r[1], r[2]), pair(r[3], s[0]));
        absorb(pair(s[1], s[2]), u64::from(u32::from_le_bytes(n.color)));
    }
    h
}

fn world_hash(c: &mut Criterion) {
    let mut group = c.benchmark_group("replay/world_hash_101k");
    group.sample_size(10);
    let arena = models_place();
    let nodes: Vec<PlainNode> = (0..arena.len())
        .map(|i| PlainNode {
            depth: (i % 3) as u32,
            class: 1,
            flags: 3,
            name: if i % 101 == 0 { format!("Model{i}") } else { "Part".to_owned() },
            position: [i as f32, 1.0, 0.5],
            rotation: [0.0, 0.0, 0.0, 1.0],
            size: [4.0, 1.0, 2.0],
            color: [163, 162, 165, 255],
        })
        .collect();
    group.bench_function("arbor_world_hash", |b| b.iter(|| black_box(arena.world_hash())));
    group.bench_function("plain_loop_same_fields", |b| b.iter(|| black_box(plain_hash(&nodes))));
    group.finish();
}

/// Moves every 100th Part of `parts` (1%), to positions that differ from round to round.
fn move_one_percent(arena: &mut Arena, parts: &[Id], round: u64) {
    let offset = (round % 100) as usize;
    for (k, &p) in parts.iter().skip(offset).step_by(100).enumerate() {
        let position = Vec3::new(k as f32, round as f32 * 0.25, 1.0);
        arena.set_position(p, position).unwrap();
    }
}

fn world_hash_incremental(c: &mut Criterion) {
    let mut group = c.benchmark_group("replay/world_hash_incremental");
    group.sample_size(10);
    for (label, models) in [("101k", 1_000), ("1m", 10_000)] {
        let mut arena = models_place_of(models);
        let parts: Vec<Id> = arena.iter().filter(|n| n.class() == Class::Part).map(|n| n.id()).collect();
        let mut hasher = WorldHasher::new();
        hasher.update(&arena);
        let mut round = 0u64;
        group.bench_function(format!("incremental_1pct_moved_{label}"), |b| {
            b.iter_custom(|iters| {
                let mut spent = Duration::ZERO;
                for _ in 0..iters {
                    round += 1;
                    move_one_percent(&mut arena, &parts, round);
                    let start = Instant::now();
                    black_box(hasher.update(&arena));
                    spent += start.elapsed();
                }
                spent
            })
        });
        // One more round outside criterion (which may have filtered the bench out).
        round += 1;
        move_one_percent(&mut arena, &parts, round);
        hasher.update(&arena);
        assert!(!hasher.stats().rebuilt, "followed the logs");
        assert_eq!(hasher.value(), arena.world_hash(), "incremental = full");
        group.bench_function(format!("edits_1pct_moved_{label}"), |b| {
            b.iter(|| {
                round += 1;
                move_one_percent(&mut arena, &parts, round);
            })
        });
        group
            .bench_function(format!("full_world_hash_{label}"), |b| b.iter(|| black_box(arena.world_hash())));
    }
    group.finish();
}

/// A started host whose one Script (under the Workspace) runs `source`, with 1,000 Parts in
/// `workspace.Folder`.
fn started(source: &str) -> (Simulation, ScriptHost) {
    let mut arena = Arena::new();
    let ws = arena.workspace();
    let folder = arena.create(Class::Folder, "Folder", Some(ws)).unwrap();
    for i in 0..1_000 {
        arena.create(Class::Part, &format!("Part{i}"), Some(folder)).unwrap();
    }
    let s = arena.create(Class::Script, "S", Some(ws)).unwrap();
    arena.set_script_source(s, source).unwrap();
    let config = HostConfig { tick_units: i64::MAX, ..Default::default() };
    let mut host = ScriptHost::new(&arena, config).unwrap();
    let mut sim = Simulation::new(arena, SimConfig::default()).unwrap();
    sim.with_context(|ctx| host.start_scripts(ctx));
    (sim, host)
}

const INSTANCE_KEYS: &str = "local t = {} for _, p in workspace.Folder:GetChildren() do t[p] = 1 end";
const STRING_KEYS: &str = "local t = {} for i = 1, 1000 do t['k' .. i] = 1 end";
const PAIRS_LOOP: &str = "function Update() local n = 0 for k, v in pairs(t) do n += v end end";
const GENERALIZED_LOOP: &str = "function Update() local n = 0 for k, v in t do n += v end end";
const NEXT_LOOP: &str = "function Update() local n = 0 for k, v in next, t do n += v end end";

struct Key;
impl UserData for Key {}

fn pairs(c: &mut Criterion) {
    let mut group = c.benchmark_group("replay/pairs_1k");
    group.sample_size(20);
    for (name, keys, body) in [
        ("arbor_instance_keys", INSTANCE_KEYS, PAIRS_LOOP),
        ("arbor_string_keys", STRING_KEYS, PAIRS_LOOP),
        ("arbor_string_keys_generalized", STRING_KEYS, GENERALIZED_LOOP),
        ("arbor_string_keys_next", STRING_KEYS, NEXT_LOOP),
    ] {
        let (mut sim, mut host) = started(&format!("{keys}\n{body}"));
        group.bench_function(name, |b| b.iter(|| sim.with_context(|ctx| host.update(ctx, 1.0 / 60.0))));
        assert!(host.log().is_empty(), "{name}: {:?}", host.log());
    }
    let lua = Lua::new();
    let strings: Function = lua
        .load("local t = {} for i = 1, 1000 do t['k' .. i] = 1 end return function() local n = 0 for k, v in pairs(t) do n += v end end")
        .eval()
        .unwrap();
    let t = lua.create_table().unwrap();
    for _ in 0..1_000 {
        t.raw_set(lua.create_userdata(Key).unwrap(), 1).unwrap();
    }
    let userdata: Function = lua
        .load("local t = ... return function() local n = 0 for k, v in pairs(t) do n += v end end")
        .call(t)
        .unwrap();
    group.bench_function("bare_mlua_string_keys", |b| b.iter(|| strings.call::<()>(()).unwrap()));
    group.bench_function("bare_mlua_userdata_keys", |b| b.iter(|| userdata.call::<()>(()).unwrap()));
    group.finish();
}

criterion_group!(benches, world_hash, world_hash_incremental, pairs);
criterion_main!(benches);
