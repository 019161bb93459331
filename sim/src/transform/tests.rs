//! Unit tests of the transform pass: random trees and edits against a naive recursive
//! reference, in every mode and with splitting thresholds low enough that small trees take
//! the parallel path (whole subtrees and chunked child arrays, both write strategies).

use super::walk::{Split, Writes};
use super::*;
use arbor_core::{Class, LocalTransform};
use proptest::prelude::*;

/// Takes the arena's dirty list and runs a default pass over it.
fn update_taken(arena: &mut Arena, worlds: &mut WorldTransforms) -> PassStats {
    let dirty = arena.take_dirty_transforms();
    worlds.update(arena, &dirty, PassMode::default())
}

/// Worlds by the definition: recursive from the Workspace, glam arithmetic.
fn reference(arena: &Arena) -> Vec<(Id, WorldTransform)> {
    fn visit(arena: &Arena, id: Id, parent: WorldTransform, out: &mut Vec<(Id, WorldTransform)>) {
        let local = arena.get(id).unwrap().transform();
        let world = WorldTransform {
            position: parent.position + parent.rotation * local.position,
            rotation: parent.rotation * local.rotation,
        };
        out.push((id, world));
        for c in arena.children(id) {
            visit(arena, c, world, out);
        }
    }
    let mut out = Vec::new();
    visit(arena, arena.workspace(), WorldTransform::IDENTITY, &mut out);
    out
}

fn close(a: WorldTransform, b: WorldTransform) -> bool {
    let tol = 1e-4 * b.position.abs().max_element().max(1.0);
    (a.position - b.position).abs().max_element() <= tol && a.rotation.abs_diff_eq(b.rotation, 1e-4)
}

fn assert_matches_reference(arena: &Arena, worlds: &WorldTransforms) {
    for (id, want) in reference(arena) {
        let got = worlds.get(arena, id).unwrap_or_else(|| panic!("{id:?} has no world"));
        assert!(close(got, want), "{id:?}: got {got:?}, want {want:?}");
    }
}

const CLASSES: [Class; 3] = [Class::Model, Class::Part, Class::Folder];

fn local(p: (f32, f32, f32), r: (f32, f32, f32)) -> LocalTransform {
    LocalTransform {
        position: Vec3::new(p.0, p.1, p.2),
        rotation: Quat::from_euler(glam::EulerRot::YXZ, r.0, r.1, r.2).normalize(),
    }
}

type NodeSpec = (usize, bool, usize, (f32, f32, f32), (f32, f32, f32));

/// Creates one node per spec: parent picked among the Workspace and earlier nodes, or (to
/// grow wide child arrays) among the Workspace and the first two nodes.
fn build(arena: &mut Arena, specs: &[NodeSpec]) -> Vec<Id> {
    let mut ids = vec![arena.workspace()];
    for &(parent, wide, class, p, r) in specs {
        let parent = ids[parent % if wide { ids.len().min(3) } else { ids.len() }];
        let id = arena.create(CLASSES[class % 3], "N", Some(parent)).unwrap();
        arena.set_transform(id, local(p, r)).unwrap();
        ids.push(id);
    }
    ids.remove(0);
    ids
}

#[derive(Clone, Debug)]
enum Edit {
    Local(usize, (f32, f32, f32), (f32, f32, f32)),
    /// Reparent node to the Workspace (`0`), to another node, or detach (`usize::MAX`).
    Parent(usize, usize),
}

fn apply(arena: &mut Arena, ids: &[Id], edit: &Edit) {
    match *edit {
        Edit::Local(n, p, r) => {
            let id = ids[n % ids.len()];
            arena.set_transform(id, local(p, r)).unwrap();
        }
        Edit::Parent(n, p) => {
            let id = ids[n % ids.len()];
            let parent = match p {
                usize::MAX => None,
                0 => Some(arena.workspace()),
                p => Some(ids[p % ids.len()]),
            };
            let _ = arena.set_parent(id, parent); // cycles are refused, changing nothing
        }
    }
}

fn coord() -> impl Strategy<Value = (f32, f32, f32)> {
    (-10.0f32..10.0, -10.0f32..10.0, -10.0f32..10.0)
}

fn angles() -> impl Strategy<Value = (f32, f32, f32)> {
    (-3.2f32..3.2, -3.2f32..3.2, -3.2f32..3.2)
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        3 => (any::<usize>(), coord(), angles()).prop_map(|(n, p, r)| Edit::Local(n, p, r)),
        1 => (any::<usize>(), prop_oneof![Just(usize::MAX), Just(0), any::<usize>()])
            .prop_map(|(n, p)| Edit::Parent(n, p)),
    ]
}

/// Every mode, and both parallel write strategies, with thresholds that split tiny trees,
/// through the long-list route (roots found first, in parallel when the mode is) and the
/// short-list route (`sparse`);
/// then the same with every dirty list taken as the whole world (listed last: their stats
/// count the whole world, so only their worlds are compared).
fn configs() -> Vec<(PassMode, Writes, Split)> {
    let tiny = Split {
        chunk: 8,
        items_per_thread: 1,
        min_children: 1,
        min_roots: 4,
        roots_per_task: 2,
        find_chunk: 4,
        max_sparse: 0,
        sparse_walk: 3,
        min_whole: usize::MAX,
    };
    let mut out = Vec::new();
    for parallel in [false, true] {
        for simd in [false, true] {
            out.push((PassMode { parallel, simd }, Writes::Direct, tiny));
        }
        // The short-list route for every list.
        let sparse = Split { max_sparse: usize::MAX, ..tiny };
        out.push((PassMode { parallel, simd: !parallel }, Writes::Direct, sparse));
    }
    out.push((PassMode::default(), Writes::CollectScatter, Split { max_sparse: usize::MAX, ..tiny }));
    out.push((PassMode::default(), Writes::CollectScatter, tiny));
    out.push((PassMode::default(), Writes::Direct, Split::default()));
    let whole = Split { min_whole: 1, ..tiny };
    for parallel in [false, true] {
        for simd in [false, true] {
            out.push((PassMode { parallel, simd }, Writes::Direct, whole));
        }
    }
    out
}

fn pool() -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn every_mode_matches_the_reference(
        specs in prop::collection::vec((any::<usize>(), any::<bool>(), 0usize..3, coord(), angles()), 1..120),
        rounds in prop::collection::vec(
            (prop::collection::vec(edit(), 0..12), prop::collection::vec(any::<usize>(), 0..6)),
            1..4,
        ),
    ) {
        let pool = pool();
        let mut arena = Arena::new();
        let ids = build(&mut arena, &specs);
        let configs = configs();
        let mut worlds: Vec<WorldTransforms> = configs.iter().map(|_| WorldTransforms::new()).collect();
        let mut dirty = arena.take_dirty_transforms();
        for round in 0..=rounds.len() {
            let mut stats = Vec::new();
            for ((mode, writes, split), w) in configs.iter().zip(&mut worlds) {
                stats.push(pool.install(|| w.update_with(&arena, &dirty, *mode, *writes, *split)));
            }
            let exact: Vec<PassStats> =
                configs.iter().zip(&stats).filter(|(c, _)| c.2.min_whole > 1).map(|(_, s)| *s).collect();
            prop_assert!(exact.windows(2).all(|s| s[0] == s[1]), "{stats:?}");
            assert_matches_reference(&arena, &worlds[0]);
            for w in &worlds[1..] {
                for slot in 0..arena.slot_capacity() as u32 {
                    let (a, b) = (worlds[0].at(Slot(slot)), w.at(Slot(slot)));
                    let bits = |w: WorldTransform| {
                        (w.position.to_array().map(f32::to_bits), w.rotation.to_array().map(f32::to_bits))
                    };
                    prop_assert_eq!(bits(a), bits(b), "slot {} differs between modes", slot);
                }
            }
            let Some((edits, extra)) = rounds.get(round) else { break };
            for e in edits {
                apply(&mut arena, &ids, e);
            }
            // The arena's dirty set plus arbitrary extra ids (in or out of the world).
            dirty = arena.take_dirty_transforms();
            dirty.extend(extra.iter().map(|&n| ids[n % ids.len()]));
        }
    }
}

#[test]
fn nothing_dirty_does_no_work() {
    let mut arena = Arena::new();
    let a = arena.create(Class::Model, "A", Some(arena.workspace())).unwrap();
    let mut worlds = WorldTransforms::new();
    update_taken(&mut arena, &mut worlds);
    let before = worlds.get(&arena, a).unwrap();
    arena.set_position(a, Vec3::X).unwrap();
    let _ = arena.take_dirty_transforms(); // dropped on purpose: the pass is told nothing
    for parallel in [false, true] {
        for simd in [false, true] {
            let stats = worlds.update(&arena, &[], PassMode { parallel, simd });
            assert_eq!(stats, PassStats::default());
        }
    }
    assert_eq!(worlds.get(&arena, a), Some(before));
}

#[test]
fn dirty_roots_cover_their_dirty_descendants_and_repeats() {
    let mut arena = Arena::new();
    let ws = arena.workspace();
    let a = arena.create(Class::Model, "A", Some(ws)).unwrap();
    let b = arena.create(Class::Model, "B", Some(a)).unwrap();
    let c = arena.create(Class::Part, "C", Some(b)).unwrap();
    let d = arena.create(Class::Part, "D", Some(ws)).unwrap();
    let mut worlds = WorldTransforms::new();
    let first = update_taken(&mut arena, &mut worlds);
    assert_eq!(first, PassStats { dirty_roots: 1, recomputed: 5 }, "the fresh Workspace covers all");
    let stats = worlds.update(&arena, &[c, b, c, b, d, d], PassMode::default());
    assert_eq!(stats, PassStats { dirty_roots: 2, recomputed: 3 });
}

#[test]
fn a_deep_chain_finds_one_root_in_linear_time() {
    let mut arena = Arena::new();
    let mut chain = vec![arena.workspace()];
    for _ in 0..2_500 {
        let id = arena.create(Class::Model, "L", Some(*chain.last().unwrap())).unwrap();
        arena.set_position(id, Vec3::new(0.0, 0.01, 0.0)).unwrap();
        arena.set_rotation(id, Quat::from_rotation_y(0.001)).unwrap();
        chain.push(id);
    }
    let mut worlds = WorldTransforms::new();
    update_taken(&mut arena, &mut worlds);
    // Every node dirty, deepest first: each walk up stops at the first memoised node (the
    // whole-world sweep, which such a list would get, is turned off here).
    let dirty: Vec<Id> = chain[1..].iter().rev().copied().collect();
    let split = Split { min_whole: usize::MAX, ..Split::default() };
    let stats =
        pool().install(|| worlds.update_with(&arena, &dirty, PassMode::default(), Writes::Direct, split));
    assert_eq!(stats, PassStats { dirty_roots: 1, recomputed: 2_500 });
    assert_matches_reference(&arena, &worlds);
}

#[test]
fn a_dirty_list_naming_most_nodes_recomputes_the_whole_world() {
    let mut arena = Arena::new();
    let specs: Vec<NodeSpec> = (0..5_000)
        .map(|i| (i * 7 + 3, i % 5 == 0, i, (i as f32 * 0.01, 1.0, -2.0), (0.1, i as f32 * 0.001, 0.3)))
        .collect();
    let ids = build(&mut arena, &specs);
    let detached = arena.create(Class::Part, "Loose", None).unwrap();
    let mut worlds = WorldTransforms::new();
    update_taken(&mut arena, &mut worlds);
    for &id in ids.iter().step_by(3) {
        arena.set_position(id, Vec3::new(1.0, 2.0, 3.0)).unwrap();
    }
    let _ = arena.take_dirty_transforms();
    let mut dirty = ids.clone();
    dirty.push(detached);
    for parallel in [false, true] {
        let stats = pool().install(|| worlds.update(&arena, &dirty, PassMode { parallel, simd: true }));
        assert_eq!(stats, PassStats { dirty_roots: 1, recomputed: 5_001 }, "the Workspace and every node");
        assert_matches_reference(&arena, &worlds);
        assert_eq!(worlds.get(&arena, detached), None, "detached nodes are skipped");
    }
}

#[test]
fn ids_above_two_to_the_32_keep_their_high_bits() {
    let mut arena = Arena::new();
    let ws = arena.workspace();
    let small = arena.create(Class::Part, "Small", Some(ws)).unwrap();
    arena.set_position(small, Vec3::X).unwrap();
    let mut worlds = WorldTransforms::new();
    update_taken(&mut arena, &mut worlds);
    // Same low 32 bits as `small`, different high bits: never taken for each other.
    let twin = Id(small.0 + (1 << 32));
    assert_eq!(worlds.get(&arena, twin), None, "not in the arena");
    let big = arena.insert_with_id(twin, Class::Part, "Big", Some(small)).unwrap();
    assert_eq!(worlds.get(&arena, big), None, "no pass has seen it yet");
    arena.set_position(big, Vec3::Y).unwrap();
    update_taken(&mut arena, &mut worlds);
    assert_eq!(worlds.get(&arena, big).unwrap().position, Vec3::new(1.0, 1.0, 0.0));
    assert_eq!(worlds.get(&arena, small).unwrap().position, Vec3::X);
    // After a big id, small ids written later still read back (every write now stores
    // its high bits), both through the walk and through the whole-world sweep.
    let more: Vec<Id> = (0..5_000).map(|_| arena.create(Class::Part, "N", Some(ws)).unwrap()).collect();
    let stats = update_taken(&mut arena, &mut worlds);
    assert_eq!(stats.dirty_roots, 1, "most of the arena: the whole world");
    assert_matches_reference(&arena, &worlds);
    arena.set_position(more[7], Vec3::Z).unwrap();
    update_taken(&mut arena, &mut worlds);
    assert_matches_reference(&arena, &worlds);
    // A walk's run of siblings with the columns wide: high bits written once per run.
    let model = arena.create(Class::Model, "M", Some(ws)).unwrap();
    let kids: Vec<Id> = (0..6).map(|_| arena.create(Class::Part, "K", Some(model)).unwrap()).collect();
    update_taken(&mut arena, &mut worlds);
    arena.set_position(model, Vec3::Y).unwrap();
    let stats = update_taken(&mut arena, &mut worlds);
    assert_eq!(stats.recomputed, 1 + kids.len(), "the model and its run of children");
    assert_matches_reference(&arena, &worlds);
}

/// The sweep stores high bits a page at a time, after the page's cells: an id at or above
/// 2^32 met by the first pass of fresh columns (nothing wide yet) keeps its high bits, its
/// twin below 2^32 is not taken for it, and later passes store every id's high bits.
#[test]
fn the_sweep_keeps_high_bits_from_its_first_pass() {
    let mut arena = Arena::new();
    let ws = arena.workspace();
    let small = arena.create(Class::Part, "Small", Some(ws)).unwrap();
    let big = arena.insert_with_id(Id(small.0 + (1 << 32)), Class::Part, "Big", Some(small)).unwrap();
    arena.set_position(big, Vec3::Y).unwrap();
    let more: Vec<Id> = (0..3_000)
        .map(|i| arena.create(Class::Part, "N", Some(if i % 2 == 0 { ws } else { big })).unwrap())
        .collect();
    for simd in [false, true] {
        for parallel in [false, true] {
            let mut worlds = WorldTransforms::new();
            let mut dirty = arena.take_dirty_transforms();
            dirty.extend([ws, small, big]);
            dirty.extend(&more);
            let mode = PassMode { parallel, simd };
            let stats = pool().install(|| worlds.update(&arena, &dirty, mode));
            assert_eq!(stats.dirty_roots, 1, "most of the arena: the whole world");
            assert_matches_reference(&arena, &worlds);
            assert!(worlds.get(&arena, big).is_some(), "the big id reads back");
            assert!(worlds.get(&arena, Id(big.0 + (1 << 32))).is_none(), "not in the arena");
            let stats = pool().install(|| worlds.update(&arena, &dirty, mode));
            assert_eq!(stats.dirty_roots, 1);
            assert_matches_reference(&arena, &worlds);
        }
    }
}

#[test]
fn reused_slots_belong_to_their_new_node() {
    let mut arena = Arena::new();
    let ws = arena.workspace();
    let a = arena.create(Class::Part, "A", Some(ws)).unwrap();
    arena.set_position(a, Vec3::splat(5.0)).unwrap();
    let mut worlds = WorldTransforms::new();
    update_taken(&mut arena, &mut worlds);
    let slot = arena.slot(a).unwrap();
    arena.destroy(a).unwrap();
    arena.drain_events();
    arena.drain_events();
    let b = arena.create(Class::Part, "B", None).unwrap();
    assert_eq!(arena.slot(b), Some(slot), "the freed slot is reused");
    assert_eq!(worlds.get(&arena, a), None, "destroyed");
    assert_eq!(worlds.get(&arena, b), None, "never in the world");
    arena.set_parent(b, Some(ws)).unwrap();
    update_taken(&mut arena, &mut worlds);
    assert_eq!(worlds.get(&arena, b), Some(WorldTransform::IDENTITY));
}

#[test]
fn the_short_list_route_agrees_with_the_long_one_on_scattered_edits() {
    // A root, 30 children, 10 each, 9 each: the large tree's shape, scaled down.
    let mut arena = Arena::new();
    let ws = arena.workspace();
    let top = arena.create(Class::Model, "Top", Some(ws)).unwrap();
    let mut nodes = vec![top];
    let mut level = vec![top];
    for fan in [30, 10, 9] {
        let mut next = Vec::new();
        for &p in &level {
            for k in 0..fan {
                let id = arena.create(Class::Part, "N", Some(p)).unwrap();
                let t = nodes.len() as f32;
                arena.set_transform(id, local((t * 0.1, 1.0, -(k as f32)), (0.01 * t, 0.2, -0.3))).unwrap();
                next.push(id);
                nodes.push(id);
            }
        }
        level = next;
    }
    let loose = arena.create(Class::Part, "Loose", None).unwrap();
    let first = arena.take_dirty_transforms();
    let short = Split { max_sparse: usize::MAX, sparse_walk: 50, min_roots: 8, ..Split::default() };
    let long = Split { max_sparse: 0, min_roots: 8, roots_per_task: 4, find_chunk: 16, ..Split::default() };
    let configs = [(false, short), (true, short), (false, long), (true, long)];
    let mut worlds: Vec<WorldTransforms> = configs.iter().map(|_| WorldTransforms::new()).collect();
    let pool = pool();
    for round in 0..3u32 {
        let dirty = if round == 0 {
            first.clone()
        } else {
            // About 1% scattered, plus a dirty node under a dirty node, repeats and a
            // detached node.
            for (k, &id) in nodes.iter().enumerate().skip(round as usize).step_by(97) {
                arena.set_position(id, Vec3::new(k as f32, round as f32, 0.5)).unwrap();
            }
            arena.set_rotation(nodes[1], Quat::from_rotation_x(0.1 * round as f32)).unwrap();
            arena.set_position(nodes[40], Vec3::splat(round as f32)).unwrap();
            let mut dirty = arena.take_dirty_transforms();
            dirty.extend([nodes[40], nodes[1], loose]);
            dirty
        };
        let stats: Vec<PassStats> = configs
            .iter()
            .zip(&mut worlds)
            .map(|((parallel, split), w)| {
                let mode = PassMode { parallel: *parallel, simd: true };
                pool.install(|| w.update_with(&arena, &dirty, mode, Writes::Direct, *split))
            })
            .collect();
        assert!(stats.windows(2).all(|s| s[0] == s[1]), "round {round}: {stats:?}");
        assert_matches_reference(&arena, &worlds[0]);
        assert_eq!(worlds[0].get(&arena, loose), None, "detached nodes are never visited");
        for w in &worlds[1..] {
            for slot in 0..arena.slot_capacity() as u32 {
                assert_eq!(worlds[0].at(Slot(slot)), w.at(Slot(slot)), "slot {slot}, round {round}");
            }
        }
    }
}

/// Leaf roots, composed four at once on the SIMD path, under parents in their home slots
/// (`id - 1`) and under parents in reused slots (found through the id map): scalar and
/// SIMD, one thread and two, give the same bits, and the reference's worlds.
#[test]
fn leaf_roots_under_reused_slots_agree_bit_for_bit() {
    let mut arena = Arena::new();
    let ws = arena.workspace();
    let doomed: Vec<Id> = (0..24).map(|_| arena.create(Class::Model, "D", Some(ws)).unwrap()).collect();
    let mut leaves = Vec::new();
    for p in 0..12u32 {
        if p == 6 {
            // The next six parents and their leaves take the freed slots: their ids are not
            // their slots plus one.
            for &id in &doomed {
                arena.destroy(id).unwrap();
            }
            arena.drain_events();
            arena.drain_events();
        }
        let parent = arena.create(Class::Model, "P", Some(ws)).unwrap();
        arena.set_transform(parent, local((p as f32, 1.0, -2.0), (0.1 * p as f32, 0.3, -0.2))).unwrap();
        let home = u64::from(arena.slot(parent).unwrap().0) + 1 == parent.0;
        assert_eq!(home, p < 6, "parent {p}");
        for k in 0..3 {
            let leaf = arena.create(Class::Part, "L", Some(parent)).unwrap();
            arena.set_transform(leaf, local((1.0, k as f32, 0.5), (0.2, -0.1 * k as f32, 0.7))).unwrap();
            leaves.push(leaf);
        }
    }
    let first = arena.take_dirty_transforms();
    let split = Split { max_sparse: usize::MAX, min_roots: 4, ..Split::default() };
    let modes = [(false, false), (false, true), (true, false), (true, true)];
    let mut worlds: Vec<WorldTransforms> = modes.iter().map(|_| WorldTransforms::new()).collect();
    let pool = pool();
    for round in 0..3 {
        let dirty = if round == 0 {
            first.clone()
        } else {
            for &leaf in leaves.iter().skip(round).step_by(2) {
                arena.set_position(leaf, Vec3::new(round as f32, -1.5, 0.25)).unwrap();
            }
            arena.take_dirty_transforms()
        };
        let stats: Vec<PassStats> = modes
            .iter()
            .zip(&mut worlds)
            .map(|(&(parallel, simd), w)| {
                let mode = PassMode { parallel, simd };
                pool.install(|| w.update_with(&arena, &dirty, mode, Writes::Direct, split))
            })
            .collect();
        assert!(stats.windows(2).all(|s| s[0] == s[1]), "round {round}: {stats:?}");
        assert_matches_reference(&arena, &worlds[0]);
        for w in &worlds[1..] {
            for slot in 0..arena.slot_capacity() as u32 {
                let (a, b) = (worlds[0].at(Slot(slot)), w.at(Slot(slot)));
                let bits = |t: WorldTransform| {
                    let (p, q) = (t.position, t.rotation);
                    [p.x, p.y, p.z, q.x, q.y, q.z, q.w].map(f32::to_bits)
                };
                assert_eq!(bits(a), bits(b), "slot {slot}, round {round}");
            }
        }
    }
}
