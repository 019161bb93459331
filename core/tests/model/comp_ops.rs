//! The component operations: their proptest strategies, the values they write (valid, of
//! the wrong type, of the wrong arity, or naming dead or unknown targets), and how one runs
//! on the arena and the model.

use crate::comp_schemas::{
    COMP_NAMES, HealthPod, LaneOp, LinkPod, MotionPod, PASSES, RegenPod, catalogue, text,
};
use crate::model::Model;
use crate::ops::{Pick, pick};
use crate::world::{clone_step, destroy_step};
use arbor_core::{
    Arena, ArenaError, Class, Id, Quat, Vec3,
    components::{ComponentId, FieldType, FieldValue, Lane, PodBundle, Query},
};
use proptest::prelude::*;
use std::collections::BTreeSet;
use std::sync::Mutex;

/// Which component an operation names: below 128, one the node already has (if any);
/// otherwise mostly a registered one, now and then one of [`COMP_NAMES`] (registered or
/// not) or one never registered.
#[derive(Clone, Copy, Debug)]
pub(crate) struct CompPick(pub(crate) u8);

/// How the values of a row are made: `k` seeds them; `corrupt` 1 gives one field a value
/// of another type, 2 drops the last value, 3 adds one; otherwise they are well typed.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Vals {
    pub(crate) k: u16,
    pub(crate) corrupt: u8,
}

#[derive(Clone, Debug)]
pub(crate) enum CompOp {
    Register {
        schema: u8,
    },
    RegisterPod {
        which: u8,
    },
    Add {
        node: Pick,
        comp: CompPick,
        values: Option<Vals>,
    },
    Remove {
        node: Pick,
        comp: CompPick,
    },
    /// `field` names a field by index, or one the schema lacks when a multiple of 8;
    /// `wrong` writes a value of another type.
    SetField {
        node: Pick,
        comp: CompPick,
        field: u8,
        k: u16,
        wrong: bool,
    },
    InsertPod {
        node: Pick,
        bundle: u8,
        k: u16,
    },
    SpawnBatch {
        bundle: u8,
        n: u8,
        parent: Option<Pick>,
        k: u16,
    },
    Pass {
        which: u8,
        par: bool,
    },
    /// Gives a node a component that has reference fields, with values (mostly pointing
    /// near it).
    Link {
        node: Pick,
        k: u16,
    },
    /// Points a reference field of a holder (one with a component that has one, if any) at
    /// a target near it, or at none.
    SetRef {
        node: Pick,
        k: u16,
    },
    /// Destroys the target of a component reference (or, now and then, its parent).
    DestroyTarget {
        k: u16,
    },
    /// Clones a holder of component rows, its parent or its grandparent, so that references
    /// point inside and outside the copy.
    CloneAround {
        k: u16,
    },
}

const TYPES: [FieldType; 9] = [
    FieldType::Bool,
    FieldType::I32,
    FieldType::I64,
    FieldType::F32,
    FieldType::F64,
    FieldType::Vector3,
    FieldType::Quaternion,
    FieldType::String,
    FieldType::InstanceRef,
];

fn comp_pick() -> impl Strategy<Value = CompPick> {
    any::<u8>().prop_map(CompPick)
}

/// A registration (used for the start of each world too).
pub(crate) fn register_op() -> impl Strategy<Value = CompOp> {
    prop_oneof![
        4 => (0u8..11).prop_map(|schema| CompOp::Register { schema }),
        1 => (0u8..4).prop_map(|which| CompOp::RegisterPod { which }),
    ]
}

/// The registrations a world starts with: a random part of the catalogue in a random order,
/// twice (a schema listed before its requirement registers the second time), then some POD
/// types.
pub(crate) fn register_prelude() -> impl Strategy<Value = Vec<CompOp>> {
    let order = Just((0u8..11).collect::<Vec<_>>()).prop_shuffle();
    (order, 5usize..=11, prop::collection::vec(0u8..4, 0..5)).prop_map(|(order, n, pods)| {
        let regs = order[..n].iter().map(|&schema| CompOp::Register { schema });
        let pods = pods.into_iter().map(|which| CompOp::RegisterPod { which });
        regs.clone().chain(regs).chain(pods).collect()
    })
}

/// A [`CompOp::Link`].
pub(crate) fn link_op() -> impl Strategy<Value = CompOp> {
    (pick(), any::<u16>()).prop_map(|(node, k)| CompOp::Link { node, k })
}

/// A component operation, weighted for the mix in [`op`](crate::ops::op).
pub(crate) fn comp_op() -> impl Strategy<Value = CompOp> {
    let vals = (any::<u16>(), prop::sample::select(&[0u8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3][..]))
        .prop_map(|(k, corrupt)| Vals { k, corrupt });
    prop_oneof![
        1 => register_op(),
        10 => (pick(), comp_pick(), prop::option::weighted(0.6, vals))
            .prop_map(|(node, comp, values)| CompOp::Add { node, comp, values }),
        3 => (pick(), comp_pick()).prop_map(|(node, comp)| CompOp::Remove { node, comp }),
        10 => (pick(), comp_pick(), any::<u8>(), any::<u16>(), prop::bool::weighted(0.15))
            .prop_map(|(node, comp, field, k, wrong)| CompOp::SetField { node, comp, field, k, wrong }),
        2 => (pick(), 0u8..5, any::<u16>()).prop_map(|(node, bundle, k)| CompOp::InsertPod { node, bundle, k }),
        2 => (0u8..5, 1u8..4, prop::option::weighted(0.7, pick()), any::<u16>())
            .prop_map(|(bundle, n, parent, k)| CompOp::SpawnBatch { bundle, n, parent, k }),
        3 => (0u8..PASSES.len() as u8, any::<bool>()).prop_map(|(which, par)| CompOp::Pass { which, par }),
        4 => link_op(),
        6 => (pick(), any::<u16>()).prop_map(|(node, k)| CompOp::SetRef { node, k }),
        4 => any::<u16>().prop_map(|k| CompOp::DestroyTarget { k }),
        3 => any::<u16>().prop_map(|k| CompOp::CloneAround { k }),
    ]
}

impl Model {
    /// Mostly a live node that has components.
    fn pick_comp_holder(&self, p: Pick) -> Id {
        let holders: Vec<Id> =
            self.live_ids().into_iter().filter(|&id| !self.n(id).comps.is_empty()).collect();
        match holders.len() {
            0 => self.pick(p),
            n if !p.0.is_multiple_of(3) => holders[(p.0 as usize / 3) % n],
            _ => self.pick(Pick(p.0 / 3)),
        }
    }

    /// A reference target for `holder`: two times in three a node of the subtree of its
    /// grandparent (or parent, or itself, below the Workspace), so copies of the holder's
    /// surroundings hold references inside and outside; otherwise any pick, sometimes dead or
    /// never created.
    fn pick_comp_target(&self, holder: Id, k: u16) -> Id {
        if !k.is_multiple_of(3) && self.is_live(holder) {
            let up = self.ancestors(holder);
            let top = up.iter().take(2).rev().find(|&&a| a != self.root && a != self.workspace);
            let near = self.subtree(top.copied().unwrap_or(holder));
            return near[(k as usize / 3) % near.len()];
        }
        self.pick(Pick(k / 3))
    }

    /// A graft root in a source: every other time a holder of component rows (half of those
    /// times one with references), its parent or its grandparent; otherwise any pick.
    pub(crate) fn pick_graft_root(&self, p: Pick) -> Id {
        let with_refs: Vec<Id> =
            self.live_ids().into_iter().filter(|&h| !self.comp_refs(h).is_empty()).collect();
        let holders: Vec<Id> = self.live_ids().into_iter().filter(|&h| !self.n(h).comps.is_empty()).collect();
        let holders = if p.0.is_multiple_of(4) && !with_refs.is_empty() { with_refs } else { holders };
        if p.0.is_multiple_of(2) && !holders.is_empty() {
            let h = holders[(p.0 as usize / 2) % holders.len()];
            return [h].into_iter().chain(self.ancestors(h)).nth(p.0 as usize / 7 % 3).unwrap_or(h);
        }
        self.pick(Pick(p.0 / 2))
    }

    /// Resolves a [`CompPick`] for `id`.
    fn pick_comp(&self, id: Id, p: CompPick) -> ComponentId {
        let own: Vec<u16> =
            self.nodes.get(&id).map(|n| n.comps.keys().copied().collect()).unwrap_or_default();
        if p.0 < 128 && !own.is_empty() {
            return ComponentId(own[p.0 as usize % own.len()]);
        }
        if !p.0.is_multiple_of(4) && !self.schemas.is_empty() {
            return ComponentId((p.0 / 4) as u16 % self.schemas.len() as u16);
        }
        match COMP_NAMES.get(p.0 as usize % (COMP_NAMES.len() + 1)) {
            Some(name) => self.comp_id(name),
            None => ComponentId(self.schemas.len() as u16 + 3),
        }
    }

    /// A value of type `ty` for a field of `holder`, seeded by `k`: references are none now
    /// and then, else a target near the holder (sometimes dead or never created).
    fn value(&self, ty: FieldType, k: u16, holder: Id) -> FieldValue {
        let i = k as usize;
        match ty {
            FieldType::Bool => FieldValue::Bool(k % 2 == 1),
            FieldType::I32 => FieldValue::I32([0, 1, -7, i32::MAX][i % 4]),
            FieldType::I64 => FieldValue::I64([0, 5, -1 << 40][i % 3]),
            FieldType::F32 => FieldValue::F32([0.0, 1.5, -2.25, -0.0][i % 4]),
            FieldType::F64 => FieldValue::F64([0.0, 0.1, -3e10][i % 3]),
            FieldType::Vector3 => FieldValue::Vector3([Vec3::ZERO, Vec3::new(1.0, 2.0, 3.0)][i % 2]),
            FieldType::Quaternion => {
                FieldValue::Quaternion([Quat::IDENTITY, Quat::from_xyzw(0.5, 0.5, 0.5, 0.5)][i % 2])
            }
            FieldType::String => text(k),
            FieldType::InstanceRef if k.is_multiple_of(5) => FieldValue::Ref(None),
            FieldType::InstanceRef => FieldValue::Ref(Some(self.pick_comp_target(holder, k / 5))),
        }
    }

    /// A row of values for component `c` on `holder` (see [`Vals`]).
    fn row_values(&self, c: ComponentId, v: Vals, holder: Id) -> Vec<FieldValue> {
        let Some(schema) = self.schemas.get(c.index()) else {
            return vec![FieldValue::I32(1)];
        };
        let n = schema.fields.len();
        let seed = |f: usize| v.k.wrapping_mul(31).wrapping_add(f as u16 * 7);
        let mut values: Vec<FieldValue> =
            schema.fields.iter().enumerate().map(|(f, d)| self.value(d.ty, seed(f), holder)).collect();
        match v.corrupt {
            1 if n > 0 => {
                let f = v.k as usize % n;
                values[f] = self.value(other_type(schema.fields[f].ty, v.k), v.k, holder);
            }
            2 if n > 0 => {
                values.pop();
            }
            3 => values.push(FieldValue::Bool(true)),
            _ => {}
        }
        values
    }
}

fn other_type(ty: FieldType, k: u16) -> FieldType {
    let at = TYPES.iter().position(|&t| t == ty).expect("every type listed");
    TYPES[(at + 1 + k as usize % (TYPES.len() - 1)) % TYPES.len()]
}

/// A bundle's model rows: (component name, values) in bundle order.
type ModelBundle = Vec<(&'static str, Vec<FieldValue>)>;

/// Runs `f` with bundle `which` (seeded by `k`) as a typed value and as model rows.
fn with_bundle<R>(which: u8, k: u16, f: impl FnOnce(&dyn BundleCall, ModelBundle) -> R) -> R {
    let (h, m, r, h2) = (
        HealthPod::from_k(k),
        MotionPod::from_k(k),
        RegenPod::from_k(k),
        HealthPod::from_k(k.wrapping_add(1)),
    );
    match which % 5 {
        0 => f(&(h,), vec![("Health", h.values())]),
        1 => f(&(m,), vec![("Motion", m.values())]),
        2 => f(&(h, m), vec![("Health", h.values()), ("Motion", m.values())]),
        3 => f(&(r,), vec![("Regen", r.values())]),
        _ => f(&(h, h2), vec![("Health", h.values()), ("Health", h2.values())]),
    }
}

/// The arena calls that take a POD bundle, made object-safe.
trait BundleCall {
    fn insert(&self, arena: &mut Arena, id: Id) -> Result<(), ArenaError>;
    fn spawn(&self, arena: &mut Arena, n: usize, parent: Option<Id>) -> Result<Vec<Id>, ArenaError>;
}

impl<B: PodBundle + Copy> BundleCall for B {
    fn insert(&self, arena: &mut Arena, id: Id) -> Result<(), ArenaError> {
        arena.insert_pod(id, self)
    }

    fn spawn(&self, arena: &mut Arena, n: usize, parent: Option<Id>) -> Result<Vec<Id>, ArenaError> {
        arena.spawn_batch(Class::Part, "Spawned", parent, std::iter::repeat_n(*self, n))
    }
}

/// Runs a component operation on the arena and the model, asserting they agree. Returns
/// whether anything may have changed (otherwise the caller checks that nothing did).
pub(crate) fn comp_step(arena: &mut Arena, m: &mut Model, op: &CompOp) -> bool {
    match op {
        CompOp::Register { schema } => {
            let schema = catalogue(*schema as usize);
            let new = m.cid(&schema.name).is_none();
            let expected = m.register(schema.clone());
            let got = arena.register_component(schema.clone());
            assert_eq!(got, expected, "register {}", schema.name);
            new && got.is_ok()
        }
        CompOp::RegisterPod { which } => {
            let (schema, got) = match which % 4 {
                0 => (catalogue(0), arena.register_pod::<HealthPod>()),
                1 => (catalogue(1), arena.register_pod::<MotionPod>()),
                2 => (catalogue(9), arena.register_pod::<RegenPod>()),
                _ => (
                    <LinkPod as arbor_core::components::PodComponent>::schema(),
                    arena.register_pod::<LinkPod>(),
                ),
            };
            let expected = m.register_pod(schema.clone());
            assert_eq!(got, expected, "register_pod {}", schema.name);
            got.is_ok()
        }
        CompOp::Add { node, comp, values } => {
            let id = m.pick(*node);
            let c = m.pick_comp(id, *comp);
            let values = values.map(|v| m.row_values(c, v, id));
            let expected = m.add_component(id, c, values.as_deref());
            let got = arena.add_component(id, c, values.as_deref());
            assert_eq!(got, expected, "add_component {c:?} {values:?} to {id:?}");
            got == Ok(true) || (got.is_ok() && values.is_some())
        }
        CompOp::Remove { node, comp } => {
            let id = m.pick_comp_holder(*node);
            let c = m.pick_comp(id, *comp);
            let expected = m.remove_component(id, c);
            let got = arena.remove_component(id, c);
            assert_eq!(got, expected, "remove_component {c:?} from {id:?}");
            got == Ok(true)
        }
        CompOp::SetField { node, comp, field, k, wrong } => {
            let id = m.pick_comp_holder(*node);
            let c = m.pick_comp(id, *comp);
            let (name, value) = match m.schemas.get(c.index()) {
                Some(s) if *field % 8 != 0 => {
                    let def = &s.fields[*field as usize % s.fields.len()];
                    let ty = if *wrong { other_type(def.ty, *k) } else { def.ty };
                    (def.name.to_string(), m.value(ty, *k, id))
                }
                _ => ("nope".to_owned(), FieldValue::I32(*k as i32)),
            };
            let expected = m.set_field(id, c, &name, value.clone());
            let got = arena.set_field(id, c, &name, value.clone());
            assert_eq!(got, expected, "set_field {c:?}.{name} = {value:?} on {id:?}");
            if got == Ok(true) {
                assert_eq!(arena.field(id, c, &name), Some(value));
            }
            got == Ok(true)
        }
        CompOp::InsertPod { node, bundle, k } => {
            let id = m.pick(*node);
            with_bundle(*bundle, *k, |b, rows| {
                let expected = m.insert_pod(id, &rows);
                let got = b.insert(arena, id);
                assert_eq!(got, expected, "insert_pod {rows:?} on {id:?}");
                got.is_ok()
            })
        }
        CompOp::SpawnBatch { bundle, n, parent, k } => {
            let parent = parent.map(|p| m.pick_parent(p));
            with_bundle(*bundle, *k, |b, rows| {
                let got = b.spawn(arena, *n as usize, parent);
                let expected = spawn_batch(m, &rows, *n as usize, parent);
                assert_eq!(got, expected, "spawn_batch {n} × {rows:?} under {parent:?}");
                for id in got.iter().flatten() {
                    m.nm(*id).guid = Some(arena.get(*id).expect("spawned").guid());
                }
                !matches!(got, Err(ArenaError::Component(_)))
            })
        }
        CompOp::Link { node, k } => {
            let id = m.pick(*node);
            let with_refs: Vec<u16> = (0..m.schemas.len() as u16)
                .filter(|&c| m.schema(c).fields.iter().any(|f| f.ty == FieldType::InstanceRef))
                .collect();
            let Some(&c) = with_refs.get(*k as usize % with_refs.len().max(1)) else { return false };
            let c = ComponentId(c);
            let values = m.row_values(c, Vals { k: *k, corrupt: 0 }, id);
            let expected = m.add_component(id, c, Some(&values));
            let got = arena.add_component(id, c, Some(&values));
            assert_eq!(got, expected, "add_component {c:?} {values:?} to {id:?}");
            got.is_ok()
        }
        CompOp::SetRef { node, k } => {
            let has_ref_field = |m: &Model, id: Id| {
                m.n(id)
                    .comps
                    .keys()
                    .any(|&c| m.schema(c).fields.iter().any(|f| f.ty == FieldType::InstanceRef))
            };
            let holders: Vec<Id> = m.live_ids().into_iter().filter(|&h| has_ref_field(m, h)).collect();
            let id = holders.get(node.0 as usize % holders.len().max(1)).copied().unwrap_or(m.pick(*node));
            let fields: Vec<(ComponentId, String)> = m
                .nodes
                .get(&id)
                .into_iter()
                .flat_map(|n| n.comps.keys())
                .flat_map(|&c| m.schema(c).fields.iter().map(move |f| (c, f)))
                .filter(|(_, f)| f.ty == FieldType::InstanceRef)
                .map(|(c, f)| (ComponentId(c), f.name.to_string()))
                .collect();
            let Some((c, name)) = fields.get(*k as usize % fields.len().max(1)).cloned() else {
                return false;
            };
            let value = m.value(FieldType::InstanceRef, k / 7, id);
            let expected = m.set_field(id, c, &name, value.clone());
            let got = arena.set_field(id, c, &name, value.clone());
            assert_eq!(got, expected, "set_field {c:?}.{name} = {value:?} on {id:?}");
            got == Ok(true)
        }
        CompOp::DestroyTarget { k } => {
            let targets: BTreeSet<Id> =
                m.live_ids().into_iter().flat_map(|h| m.comp_refs(h)).map(|(.., t)| t).collect();
            let id = match targets.iter().nth(*k as usize % targets.len().max(1)) {
                Some(&t) if k % 3 == 0 => m.n(t).parent.unwrap_or(t),
                Some(&t) => t,
                None => m.pick(Pick(*k)),
            };
            destroy_step(arena, m, id)
        }
        CompOp::CloneAround { k } => {
            let holders: Vec<Id> = m.live_ids().into_iter().filter(|&h| !m.n(h).comps.is_empty()).collect();
            let id = match holders.get(*k as usize % holders.len().max(1)) {
                Some(&h) => {
                    let up = m.ancestors(h);
                    [h].into_iter().chain(up).nth(*k as usize % 3).unwrap_or(h)
                }
                None => m.pick(Pick(*k)),
            };
            clone_step(arena, m, id)
        }
        CompOp::Pass { which, par } => {
            let spec = &PASSES[*which as usize % PASSES.len()];
            let id = |n: &str| m.comp_id(n);
            let mut query = Query::new(&spec.with.iter().map(|n| id(n)).collect::<Vec<_>>())
                .without(&spec.without.iter().map(|n| id(n)).collect::<Vec<_>>());
            let lane = |(n, l): (&str, u16)| Lane { component: id(n), lane: l };
            let reads: Vec<Lane> = spec.reads.iter().map(|r| lane(*r)).collect();
            let writes: Vec<Lane> = spec.writes.iter().map(|(n, l, _)| lane((n, *l))).collect();
            let seen = Mutex::new(Vec::new());
            let body = |mut chunk: arbor_core::components::ChunkLanes<'_>| {
                let n = chunk.len();
                for (i, &(.., op)) in spec.writes.iter().enumerate() {
                    match op {
                        LaneOp::AddI32 => {
                            chunk.write::<i32>(i).iter_mut().for_each(|x| *x = x.wrapping_add(1))
                        }
                        LaneOp::AddF32 => chunk.write::<f32>(i).iter_mut().for_each(|x| *x += 1.0),
                        LaneOp::AddF64 => chunk.write::<f64>(i).iter_mut().for_each(|x| *x += 0.5),
                        LaneOp::AddU64 => chunk.write::<u64>(i).iter_mut().for_each(|x| *x += 1),
                    }
                }
                let mut seen = seen.lock().expect("no panic while held");
                for row in 0..n {
                    let words = (0..spec.reads.len()).map(|i| chunk.read::<u32>(i)[row]).collect();
                    seen.push((chunk.ids()[row], words));
                }
            };
            if *par {
                arena.par_for_each_chunk_mut(&mut query, &reads, &writes, body);
            } else {
                arena.for_each_chunk_mut(&mut query, &reads, &writes, body);
            }
            let mut expected = m.pass(spec);
            let mut seen = seen.into_inner().expect("not poisoned");
            seen.sort();
            expected.sort();
            assert_eq!(seen, expected, "pass {which}: rows visited and lanes read");
            true
        }
    }
}

/// `Arena::spawn_batch` of `n` copies of `rows` (Parts named "Spawned"): creates them one by
/// one (destroying those made if one fails), then writes every row at one revision.
fn spawn_batch(
    m: &mut Model,
    rows: &[(&str, Vec<FieldValue>)],
    n: usize,
    parent: Option<Id>,
) -> Result<Vec<Id>, ArenaError> {
    m.pod_ids(rows)?;
    // A batch that cannot be created whole changes nothing.
    let before = m.clone();
    let mut ids = Vec::new();
    for _ in 0..n {
        match m.create(Class::Part, "Spawned", parent) {
            Ok(id) => ids.push(id),
            Err(e) => {
                *m = before;
                return Err(e);
            }
        }
    }
    let rev = m.bump();
    for &id in &ids {
        m.write_bundle(id, rows, rev);
    }
    Ok(ids)
}
