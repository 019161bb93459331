//! Checking the component store against the model: the registry, every row and field (by
//! index, by name, typed POD reads), row revisions, the reverse reference index, queries
//! (matching ids, `changed_since`, chunk views and their lanes), ancestry queries, snapshot
//! diffs of components, and the component part of a dump.

use crate::FOREIGN;
use crate::comp_schemas::{COMP_NAMES, HealthPod, MotionPod, RegenPod};
use crate::model::{Life, Model};
use arbor_core::{
    Arena, Id,
    components::{ComponentId, ComponentStore, FieldType, FieldValue, Lane, LaneKind, Query, Schema},
    raw::{AncestryQuery, ComponentDiff},
};
use std::collections::{BTreeMap, BTreeSet};

/// Queries kept across steps: (with, without).
pub(crate) const QUERY_SPECS: [(&[&str], &[&str]); 13] = [
    (&["Health"], &[]),
    (&["Motion"], &[]),
    (&["Label"], &[]),
    (&["Aim"], &[]),
    (&["Leash"], &[]),
    (&["LeashFx"], &[]),
    (&["Tether"], &[]),
    (&["Score"], &[]),
    (&["Regen"], &[]),
    (&["Health", "Motion"], &[]),
    (&["Health"], &["Label"]),
    (&["Aim"], &["Tether", "Health"]),
    (&["Leash", "Health"], &["LeashFx"]),
];

/// Components of the ancestry queries kept across steps.
pub(crate) const ANCESTRY_SPECS: [&[&str]; 2] = [&["Health"], &["Aim"]];

/// A query kept across steps, with the component ids it was built from.
pub(crate) struct MQuery {
    pub(crate) with: Vec<ComponentId>,
    pub(crate) without: Vec<ComponentId>,
    pub(crate) query: Query,
}

impl MQuery {
    /// The query for `spec`, once every component it names is registered.
    pub(crate) fn new(m: &Model, spec: &(&[&str], &[&str])) -> Option<Self> {
        let ids = |names: &[&str]| -> Option<Vec<ComponentId>> {
            names.iter().map(|n| m.cid(n).map(ComponentId)).collect()
        };
        let (with, without) = (ids(spec.0)?, ids(spec.1)?);
        let query = Query::new(&with).without(&without);
        Some(MQuery { with, without, query })
    }

    /// Whether every component of the query is registered in `m`.
    pub(crate) fn registered_in(&self, m: &Model) -> bool {
        self.with.iter().chain(&self.without).all(|c| c.index() < m.schemas.len())
    }
}

/// Sorts a list after checking it has no duplicates.
fn sorted_set<T: Ord + Clone + std::fmt::Debug>(v: Vec<T>, what: &str) -> Vec<T> {
    let set: BTreeSet<T> = v.iter().cloned().collect();
    assert_eq!(set.len(), v.len(), "{what}: duplicates in {v:?}");
    set.into_iter().collect()
}

/// The bits lane `j` of `v` holds (32-bit lanes zero-extended).
fn lane_bits(v: &FieldValue, j: usize) -> u64 {
    match v {
        FieldValue::Bool(b) => *b as u64,
        FieldValue::I32(x) => *x as u32 as u64,
        FieldValue::F32(x) => x.to_bits() as u64,
        FieldValue::I64(x) => *x as u64,
        FieldValue::F64(x) => x.to_bits(),
        FieldValue::Ref(r) => r.map_or(0, |t| t.0),
        FieldValue::Vector3(v) => v.to_array()[j].to_bits() as u64,
        FieldValue::Quaternion(q) => q.to_array()[j].to_bits() as u64,
        FieldValue::String(_) => panic!("a string has no word lane"),
    }
}

/// A component store (an arena's or a snapshot's) against the model.
pub(crate) fn check_store(store: &ComponentStore, m: &Model) {
    let reg = store.registry();
    assert_eq!(reg.len(), m.schemas.len(), "registered components");
    for (c, info) in reg.iter() {
        assert_eq!(info.schema, *m.schema(c.0), "schema {c:?}");
        assert_eq!(info.requires, m.requires_of(c.0).into_iter().map(ComponentId).collect::<Vec<_>>());
        let mut deps = reg.dependents(c).to_vec();
        deps.sort();
        assert_eq!(deps, m.dependents_of(c.0).into_iter().map(ComponentId).collect::<Vec<_>>());
        assert_eq!(store.component(&info.schema.name), Some(c));
    }
    for name in COMP_NAMES {
        assert_eq!(store.component(name), m.cid(name).map(ComponentId), "component({name})");
    }
    assert_eq!(store.membership_revision(), m.membership, "membership revision");
    let with_rows = m.nodes.values().filter(|n| n.life == Life::Live && !n.comps.is_empty()).count();
    assert_eq!(store.row_count(), with_rows, "instances with rows");
    let unknown = ComponentId(m.schemas.len() as u16 + 1);
    for (&id, n) in &m.nodes {
        let keys: Vec<ComponentId> = n.comps.keys().map(|&c| ComponentId(c)).collect();
        assert_eq!(store.components_of(id), keys.as_slice(), "components of {id:?}");
        assert!(n.life == Life::Live || n.comps.is_empty(), "model: dead {id:?} has rows");
        // Without rows, `components_of` being empty says it all; one probe for the rest.
        let probe = if n.comps.is_empty() { m.schemas.len().min(1) } else { m.schemas.len() };
        for c in 0..probe as u16 {
            let cid = ComponentId(c);
            let row = n.comps.get(&c);
            assert_eq!(store.has(id, cid), row.is_some(), "has({id:?}, {cid:?})");
            assert_eq!(store.row(id, cid), row.map(|r| r.values.clone()), "row({id:?}, {cid:?})");
            assert_eq!(store.row_revision(id, cid), row.map(|r| r.rev), "row_revision({id:?}, {cid:?})");
            let schema = m.schema(c);
            for (f, def) in schema.fields.iter().enumerate() {
                let v = row.map(|r| r.values[f].clone());
                assert_eq!(store.field(id, cid, f), v, "field {id:?}.{}.{}", schema.name, def.name);
                assert_eq!(store.field_by_name(id, cid, &def.name), v);
            }
            assert_eq!(store.field(id, cid, schema.fields.len()), None, "a field past the schema");
            assert_eq!(store.field_by_name(id, cid, "nope"), None);
        }
        assert!(!store.has(id, unknown));
        assert_eq!(store.row(id, unknown), None, "row of an unknown component");
        assert_eq!(store.row_revision(id, unknown), None);
        assert_eq!(store.field_by_name(id, unknown, "hp"), None, "field of an unknown component");
        let pod = |name: &str| {
            let c = m.cid(name)?;
            m.pods.contains(name).then_some(())?;
            n.comps.get(&c).map(|r| r.values.clone())
        };
        assert_eq!(store.get_pod::<HealthPod>(id).map(|p| p.values()), pod("Health"), "HealthPod of {id:?}");
        assert_eq!(store.get_pod::<MotionPod>(id).map(|p| p.values()), pod("Motion"), "MotionPod of {id:?}");
        assert_eq!(store.get_pod::<RegenPod>(id).map(|p| p.values()), pod("Regen"), "RegenPod of {id:?}");
    }
    for id in [Id::NONE, Id(m.next_id), FOREIGN] {
        assert!(store.components_of(id).is_empty());
    }
}

/// The arena's component state against the model: the store, field reads through the
/// arena (none for destroyed instances) and the reverse reference index.
pub(crate) fn check_components(arena: &Arena, m: &Model) {
    check_store(arena.components(), m);
    let mut expected: BTreeMap<Id, BTreeSet<(Id, ComponentId, u16)>> = BTreeMap::new();
    for (&id, n) in &m.nodes {
        for (&c, row) in &n.comps {
            for (f, def) in m.schema(c).fields.iter().enumerate() {
                let v = (n.life == Life::Live).then(|| row.values[f].clone());
                assert_eq!(arena.field(id, ComponentId(c), &def.name), v, "arena.field {id:?}.{}", def.name);
            }
        }
        if n.life == Life::Live {
            for (c, f, t) in m.comp_refs(id) {
                assert!(m.is_live(t), "live {id:?} holds a component reference to dead {t:?}");
                expected.entry(t).or_default().insert((id, ComponentId(c), f));
            }
        }
        assert_eq!(arena.field(id, ComponentId(m.schemas.len() as u16), "hp"), None, "unknown component");
    }
    for id in m.nodes.keys().copied().chain([Id::NONE, FOREIGN]) {
        let got = sorted_set(arena.component_referrers(id).collect(), "component_referrers");
        let want: Vec<_> = expected.remove(&id).unwrap_or_default().into_iter().collect();
        assert_eq!(got, want, "component_referrers({id:?})");
    }
    assert!(expected.is_empty(), "references to ids the model never made: {expected:?}");
}

/// Live instances matching `q` in `m`.
fn matching(m: &Model, q: &MQuery) -> Vec<Id> {
    m.live_ids().into_iter().filter(|&id| m.matches(id, &q.with, &q.without)).collect()
}

/// Kept queries on `store` against `m`: the matching ids; for each component of the query
/// and each revision in `sinces`, `changed_since` is exactly the rows written after it (as
/// documented), and a chunk view holding such a row says it may have changed; every word
/// lane of a chunk view reads the model's values, and lanes past a component or string lanes
/// are not lent (for queries chunk-wise walks take).
pub(crate) fn check_queries<'q>(
    store: &ComponentStore,
    m: &Model,
    queries: impl Iterator<Item = &'q mut MQuery>,
    sinces: &[u64],
) {
    for q in queries {
        let expected = matching(m, q);
        let what = format!("query {:?} without {:?}", q.with, q.without);
        assert_eq!(sorted_set(store.ids(&mut q.query), &what), expected, "{what}: ids");
        for &c in &q.with {
            for &since in sinces {
                let written: Vec<Id> =
                    expected.iter().copied().filter(|&id| m.n(id).comps[&c.0].rev > since).collect();
                let got = sorted_set(store.changed_since(&mut q.query, c, since), &what);
                assert_eq!(got, written, "{what}: changed_since({c:?}, {since})");
            }
        }
        if !store.walks_chunks(&mut q.query) {
            // Rows are checked one by one (a sparse-set component beside others): no chunk
            // view can lend them.
            continue;
        }
        let mut visited = Vec::new();
        store.for_each_chunk(&mut q.query, |view| {
            assert!(!view.is_empty() && view.len() == view.ids().len());
            visited.extend_from_slice(view.ids());
            for &c in &q.with {
                for &since in sinces {
                    if view.ids().iter().any(|id| m.n(*id).comps[&c.0].rev > since) {
                        assert!(
                            view.changed_since(c, since),
                            "{what}: chunk written after {since} says unchanged"
                        );
                    }
                }
                let schema = m.schema(c.0);
                let mut lane = 0u16;
                for (f, def) in schema.fields.iter().enumerate() {
                    let (n, kind) = def.ty.lanes();
                    for j in 0..n {
                        let l = Lane { component: c, lane: lane + j as u16 };
                        let want: Option<Vec<u64>> = (def.ty != FieldType::String).then(|| {
                            view.ids()
                                .iter()
                                .map(|id| lane_bits(&m.n(*id).comps[&c.0].values[f], j))
                                .collect()
                        });
                        let got: Option<Vec<u64>> = match kind {
                            LaneKind::W32 => {
                                view.lane::<u32>(l).map(|s| s.iter().map(|&x| x as u64).collect())
                            }
                            LaneKind::W64 => view.lane::<u64>(l).map(|s| s.to_vec()),
                            LaneKind::Str => {
                                view.lane::<u32>(l).map(|s| s.iter().map(|&x| x as u64).collect())
                            }
                        };
                        assert_eq!(got, want, "{what}: lane {l:?} ({}.{})", schema.name, def.name);
                    }
                    lane += n as u16;
                }
                let past = Lane { component: c, lane };
                assert!(view.lane::<u32>(past).is_none(), "{what}: a lane past {} is lent", schema.name);
            }
        });
        assert_eq!(sorted_set(visited, &what), expected, "{what}: chunk ids");
    }
}

/// An ancestry query kept across steps against the model.
pub(crate) fn check_ancestry_query(
    arena: &Arena,
    m: &Model,
    ancestor: Id,
    spec: &[&str],
    q: &mut AncestryQuery,
) {
    let with: Vec<ComponentId> = spec.iter().map(|n| m.comp_id(n)).collect();
    let expected: Vec<Id> = m
        .live_ids()
        .into_iter()
        .filter(|&id| m.matches(id, &with, &[]))
        .filter(|&id| match ancestor == m.workspace {
            true => m.in_world(id) && id != ancestor,
            false => m.ancestors(id).contains(&ancestor),
        })
        .collect();
    let got = sorted_set(arena.query_under(q).to_vec(), "query_under");
    let mut expected = expected;
    expected.sort();
    assert_eq!(got, expected, "query_under({ancestor:?}, {spec:?})");
}

/// The component part of a snapshot diff from `old` to `new`.
pub(crate) fn check_component_diff(diff: &ComponentDiff, old: &Model, new: &Model) {
    let rows = |m: &Model| -> BTreeSet<(Id, ComponentId)> {
        let live = m.nodes.iter().filter(|(_, n)| n.life == Life::Live);
        live.flat_map(|(&id, n)| n.comps.keys().map(move |&c| (id, ComponentId(c)))).collect()
    };
    let written: Vec<(Id, ComponentId)> =
        rows(new).into_iter().filter(|&(id, c)| new.n(id).comps[&c.0].rev > old.global).collect();
    let removed: Vec<(Id, ComponentId)> = rows(old).difference(&rows(new)).copied().collect();
    assert_eq!(
        sorted_set(diff.written.clone(), "diff.components.written"),
        written,
        "diff: components written"
    );
    assert_eq!(
        sorted_set(diff.removed.clone(), "diff.components.removed"),
        removed,
        "diff: components removed"
    );
}

/// One row: instance, component, values, revision.
type RowDump = (Id, ComponentId, Option<Vec<FieldValue>>, Option<u64>);

/// Everything observable about an arena's components, for "nothing changed" checks.
#[derive(Debug, PartialEq)]
pub(crate) struct CompDump {
    schemas: Vec<Schema>,
    tables: usize,
    rows: usize,
    membership: u64,
    row_data: Vec<RowDump>,
    referrers: Vec<Vec<(Id, ComponentId, u16)>>,
}

pub(crate) fn comp_dump(arena: &Arena, ids: &[Id]) -> CompDump {
    let store = arena.components();
    let row_data = ids
        .iter()
        .flat_map(|&id| store.components_of(id).into_owned().into_iter().map(move |c| (id, c)))
        .map(|(id, c)| (id, c, store.row(id, c), store.row_revision(id, c)))
        .collect();
    let referrers = ids
        .iter()
        .map(|&id| {
            let mut r: Vec<_> = arena.component_referrers(id).collect();
            r.sort();
            r
        })
        .collect();
    CompDump {
        schemas: store.registry().iter().map(|(_, info)| info.schema.clone()).collect(),
        tables: store.table_count(),
        rows: store.row_count(),
        membership: store.membership_revision(),
        row_data,
        referrers,
    }
}
