//! World-wide physics bounds (issue 33 §3): the scenarios that aborted or held the server,
//! at a scale a debug test build runs in seconds. Bounds are on counted memory (this binary's
//! allocator counts bytes) and on pair counts, never on time.
//!
//! The allocator is global to the binary, so every test takes `SERIAL` for its whole body:
//! no other test allocates while one measures.

use arbor_core::{Arena, Class, Id, NodeFlags, Vec3};
use arbor_sim::{
    SimCaps, SimConfig, Simulation, physics::CROWDED_AT, physics::DEFAULT_GRAVITY,
    physics::MAX_ANCHORED_OVERLAPS, physics::MAX_BODIES_PER_CELL, physics::MAX_CROWDED_PAIRS,
    physics::Physics, physics::PhysicsConfig,
};
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, MutexGuard};

const DT: f32 = 1.0 / 60.0;
const BRICK: Vec3 = Vec3::new(4.0, 1.0, 2.0);

/// Counts live and peak heap bytes (requested sizes) of the whole test binary.
struct Counting;
static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

fn noted(size: usize) {
    let now = LIVE.fetch_add(size, Ordering::Relaxed) + size;
    PEAK.fetch_max(now, Ordering::Relaxed);
}

// SAFETY: every method forwards to `System` with the caller's arguments, so `System`'s
// guarantees carry over; the counters are atomics touched after the real call.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller upholds `alloc`'s contract, which `System.alloc` shares.
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            noted(layout.size());
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: as `alloc`.
        let p = unsafe { System.alloc_zeroed(layout) };
        if !p.is_null() {
            noted(layout.size());
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` was allocated by this allocator, i.e. by `System`, with `layout`.
        unsafe { System.dealloc(ptr, layout) };
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: as `dealloc` for `ptr` and `layout`; the caller guarantees `new_size`.
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
            noted(new_size);
        }
        p
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

static SERIAL: Mutex<()> = Mutex::new(());

fn serial() -> MutexGuard<'static, ()> {
    SERIAL.lock().unwrap_or_else(|e| e.into_inner())
}

/// What `f` allocated: (result, peak bytes above the start, bytes still live at the end).
fn measure<R>(f: impl FnOnce() -> R) -> (R, usize, isize) {
    let base = LIVE.load(Ordering::Relaxed);
    PEAK.store(base, Ordering::Relaxed);
    let r = f();
    let live = LIVE.load(Ordering::Relaxed) as isize - base as isize;
    (r, PEAK.load(Ordering::Relaxed) - base, live)
}

const MB: usize = 1 << 20;

fn part(arena: &mut Arena, position: Vec3, size: Vec3, anchored: bool) -> Id {
    let ws = arena.workspace();
    let id = arena.create(Class::Part, "P", Some(ws)).unwrap();
    arena.set_position(id, position).unwrap();
    arena.set_size(id, size).unwrap();
    arena.set_flag(id, NodeFlags::ANCHORED, anchored).unwrap();
    id
}

/// Contact pairs rapier holds (every pair with a dynamic side the broad phase reported).
fn contact_pairs(physics: &Physics) -> usize {
    physics.world().narrow_phase.contact_pairs().count()
}

/// The first sync and step of `arena`: (physics, peak bytes of the step).
fn first_step(arena: &Arena, config: PhysicsConfig) -> (Physics, usize) {
    let mut physics = Physics::with_config(config);
    physics.sync(arena);
    let (_, peak, _) = measure(|| physics.step(DT));
    (physics, peak)
}

#[test]
fn anchored_parts_at_one_spot_allocate_bounded_memory() {
    // Before: the first step listed all 4.5 million anchored pairs of 3,000 parts: 68 MB,
    // kept (30,000 parts: out of memory in 3.9 s).
    let _serial = serial();
    let mut arena = Arena::new();
    for _ in 0..3_000 {
        part(&mut arena, Vec3::new(0.0, 5.0, 0.0), BRICK, true);
    }
    let (mut physics, peak) = first_step(&arena, PhysicsConfig::default());
    eprintln!("3,000 anchored at one spot: first step peak {peak} B");
    let stats = physics.crowding_stats();
    assert_eq!(stats.suspended_anchored, 3_000 - (MAX_ANCHORED_OVERLAPS + 1));
    assert_eq!(physics.suspended_bodies(), stats.suspended_anchored);
    assert!(peak < 4 * MB, "first step allocated {peak} B");
    assert_eq!(contact_pairs(&physics), 0);
    // The pile still stops a ray.
    let hit = physics.raycast(Vec3::new(0.0, 50.0, 0.0), Vec3::NEG_Y, 100.0).unwrap();
    assert!(!physics.is_suspended(hit.id));
    let (_, peak, _) = measure(|| physics.step(DT));
    assert!(peak < MB, "a quiet step allocated {peak} B");
}

#[test]
fn ten_thousand_anchored_parts_from_a_file_start_in_bounded_memory() {
    // Before: 954 MB and a 2.1 s first tick.
    let _serial = serial();
    let mut text = String::from(
        r#"{"format": "arbor-place", "version": 1, "instances": [{"class": "Workspace", "name": "Workspace", "ref": 1}"#,
    );
    for k in 2..10_002 {
        text.push_str(&format!(
            r#",{{"class": "Part", "name": "P", "ref": {k}, "parent": 1, "position": [0, 5, 0], "anchored": true}}"#
        ));
    }
    text.push_str("]}");
    let arena = arbor_place::load_json(&text).unwrap();
    let (mut sim, peak, _) = measure(|| Simulation::new(arena, SimConfig::default()).unwrap());
    let (_, tick_peak, _) = measure(|| sim.step());
    eprintln!("10,000 anchored from a file: setup peak {peak} B, first tick peak {tick_peak} B");
    assert_eq!(sim.profiler().last().suspended_bodies, 10_000 - (MAX_ANCHORED_OVERLAPS + 1));
    assert!(tick_peak < 8 * MB, "first tick allocated {tick_peak} B");
}

#[test]
fn big_dynamic_parts_close_together_keep_pairs_bounded() {
    // Before: every 2,048-stud part overlapped every other: 200 of them made 19,900 contact
    // pairs (52 MB) at the first step; 1,000 took 31 s a tick.
    let _serial = serial();
    let mut arena = Arena::new();
    for i in 0..1_000 {
        part(&mut arena, Vec3::new(2.0 * i as f32, 100.0, 0.0), Vec3::new(2048.0, 4.0, 2048.0), false);
    }
    let (physics, peak) = first_step(&arena, PhysicsConfig::default());
    let pairs = contact_pairs(&physics);
    eprintln!("1,000 big dynamic parts: first step peak {peak} B, {pairs} contact pairs");
    assert_eq!(physics.crowding_stats().suspended_dynamic, 1_000 - MAX_BODIES_PER_CELL);
    assert!(pairs <= MAX_BODIES_PER_CELL * (MAX_BODIES_PER_CELL - 1) / 2, "{pairs}");
    assert!(peak < 32 * MB, "first step allocated {peak} B");
}

/// `cells` piles of 64 dynamic bricks, 40 studs apart.
fn crowded_cells(cells: usize) -> Arena {
    let mut arena = Arena::new();
    for c in 0..cells {
        let at = Vec3::new(40.0 * (c % 20) as f32, 50.0, 40.0 * (c / 20) as f32);
        for _ in 0..MAX_BODIES_PER_CELL {
            part(&mut arena, at, BRICK, false);
        }
    }
    arena
}

#[test]
fn many_crowded_cells_suspend_bodies_world_wide_and_bound_pairs() {
    // Before: each pile was within its cell's cap, so 200 piles of 64 made 403,200 contact
    // pairs (out of memory at 3.4 GB; 40 piles: 80,640 pairs, 236 MB at the first step).
    let _serial = serial();
    const CELLS: usize = 200;
    let arena = crowded_cells(CELLS);
    let (physics, peak) = first_step(&arena, PhysicsConfig::default());
    let stats = physics.crowding_stats();
    let pairs = contact_pairs(&physics);
    eprintln!("{CELLS} piles of 64: first step peak {peak} B, {pairs} contact pairs, {stats:?}");
    assert!(stats.suspended_dynamic > 0);
    assert!(stats.crowded_pairs <= MAX_CROWDED_PAIRS);
    // Uncrowded bodies bring fewer than CROWDED_AT pairs each; crowded ones share the budget.
    let per_pile_uncrowded = CROWDED_AT * (CROWDED_AT - 1) / 2;
    assert!(pairs <= CELLS * per_pile_uncrowded + MAX_CROWDED_PAIRS, "{pairs}");
    assert!(stats.dynamic_pairs <= CELLS * per_pile_uncrowded + MAX_CROWDED_PAIRS);
    assert!(peak < 256 * MB, "first step allocated {peak} B");
}

#[test]
fn the_same_bodies_are_suspended_on_every_run() {
    let _serial = serial();
    let suspended = |physics: &Physics, arena: &Arena| -> Vec<Id> {
        let parts = arena.family(arbor_core::Family::Parts);
        parts.iter().copied().filter(|&id| physics.is_suspended(id)).collect()
    };
    let arena = crowded_cells(60);
    let mut runs = Vec::new();
    for _ in 0..2 {
        let mut physics = Physics::new(DEFAULT_GRAVITY);
        physics.sync(&arena);
        physics.step(DT);
        runs.push(suspended(&physics, &arena));
    }
    assert!(!runs[0].is_empty());
    assert_eq!(runs[0], runs[1]);
}

#[test]
fn the_body_cap_leaves_parts_past_it_waiting_and_admits_them_in_id_order() {
    let _serial = serial();
    let mut arena = Arena::new();
    let ids: Vec<Id> =
        (0..1_500).map(|i| part(&mut arena, Vec3::new(8.0 * i as f32, 5.0, 0.0), BRICK, true)).collect();
    let config = PhysicsConfig { max_bodies: 1_000, ..PhysicsConfig::default() };
    let mut physics = Physics::with_config(config);
    let stats = physics.sync(&arena);
    assert_eq!((stats.added, stats.over_cap), (1_000, 500));
    assert_eq!(physics.body_count(), 1_000);
    assert_eq!(physics.parts_over_body_cap(), 500);
    physics.step(DT);
    assert_eq!(physics.suspended_bodies(), 500);
    let waiting: Vec<Id> = ids.iter().copied().filter(|&id| physics.part_pose(id).is_none()).collect();
    assert_eq!(waiting.len(), 500);
    // Free 300 bodies: the 300 lowest waiting ids get them.
    let simulated: Vec<Id> = ids.iter().copied().filter(|&id| physics.part_pose(id).is_some()).collect();
    for &id in &simulated[..300] {
        arena.destroy(id).unwrap();
    }
    let stats = physics.sync(&arena);
    assert_eq!((stats.removed, stats.added), (300, 300));
    assert_eq!(physics.body_count(), 1_000);
    assert!(waiting[..300].iter().all(|&id| physics.part_pose(id).is_some()));
    assert!(waiting[300..].iter().all(|&id| physics.part_pose(id).is_none()));
    // A waiting part that is destroyed is forgotten.
    arena.destroy(waiting[499]).unwrap();
    physics.sync(&arena);
    assert_eq!(physics.parts_over_body_cap(), 199);
}

#[test]
fn the_simulation_reports_parts_past_the_body_cap() {
    let _serial = serial();
    let mut arena = Arena::new();
    for i in 0..1_200 {
        part(&mut arena, Vec3::new(8.0 * i as f32, 5.0, 0.0), BRICK, true);
    }
    let caps = SimCaps { physics_bodies: 1_000, ..SimCaps::default() };
    let mut sim = Simulation::with_caps(arena, SimConfig::default(), caps).unwrap();
    sim.step();
    assert_eq!(sim.physics.body_count(), 1_000);
    assert_eq!(sim.profiler().last().suspended_bodies, 200);
}

#[test]
fn bytes_per_dormant_anchored_part() {
    // What the body cap multiplies: physics' own bytes per anchored part, spread out (no
    // pairs), after the sync and two steps.
    let _serial = serial();
    const N: usize = 10_000;
    let (arena, _, arena_bytes) = measure(|| {
        let mut arena = Arena::new();
        for i in 0..N {
            let at = Vec3::new(8.0 * (i % 100) as f32, 5.0, 8.0 * (i / 100) as f32);
            part(&mut arena, at, BRICK, true);
        }
        arena
    });
    let (physics, _, physics_bytes) = measure(|| {
        let mut physics = Physics::new(DEFAULT_GRAVITY);
        physics.sync(&arena);
        physics.step(DT);
        physics.step(DT);
        physics
    });
    let per_part = physics_bytes as usize / N;
    eprintln!(
        "{N} spread anchored parts: physics {per_part} B/part (crowding trees {} B/part), arena {} B/part",
        physics.crowding_heap_bytes() / N,
        arena_bytes as usize / N
    );
    assert_eq!(physics.suspended_bodies(), 0);
    // No dynamic body near: every one is dormant, without a rapier body (was ~1,970 B).
    assert_eq!(physics.dormant_parts(), N);
    assert!(per_part < 600, "{per_part} B per part");
}
