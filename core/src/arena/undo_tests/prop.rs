//! The property test of undo scopes: random operation sequences (create, batch, clone,
//! graft, reparent, destroy, attributes, tags, names, transforms, `node_mut`, handles,
//! references, components and fields, script sources, persistent ids, platform and transient
//! flags) run inside a scope, then rolled back (world hash, persistent ids, events and every
//! consistency invariant as before, ids never rewound, and the world then behaving as a twin
//! that never opened the scope) or committed (hash, revisions and ids of a twin that ran the
//! same operations without a scope).

use super::{Comps, check, world};
use crate::components::FieldValue;
use crate::value::{AttributeValue, NodeFlags};
use crate::{Arena, Class, GraftPolicy, Id};
use glam::Vec3;
use proptest::prelude::*;

#[derive(Clone, Debug)]
pub(super) enum Op {
    Create(u8, u16),
    Batch(u16, u8),
    Clone(u16, u16),
    Graft(u16, u16),
    Reparent(u16, u16),
    Destroy(u16),
    Attr(u16, u8, u8, u16),
    Tag(u16, u8, bool),
    Name(u16, u8),
    Position(u16, i8),
    NodeMut(u16, i8),
    Handle(u16, u8),
    Reference(u16, u8, u16),
    AddComponent(u16, u8, bool, u16),
    RemoveComponent(u16, u8),
    SetField(u16, u8, i8, u16),
    Misc(u16, u8),
}

pub(super) fn op() -> impl Strategy<Value = Op> {
    let n = any::<u16>;
    prop_oneof![
        8 => (any::<u8>(), n()).prop_map(|(c, p)| Op::Create(c, p)),
        2 => (n(), 1..4u8).prop_map(|(p, k)| Op::Batch(p, k)),
        2 => (n(), n()).prop_map(|(a, p)| Op::Clone(a, p)),
        1 => (n(), n()).prop_map(|(a, p)| Op::Graft(a, p)),
        3 => (n(), n()).prop_map(|(a, p)| Op::Reparent(a, p)),
        2 => n().prop_map(Op::Destroy),
        4 => (n(), 0..3u8, any::<u8>(), n()).prop_map(|(a, k, v, t)| Op::Attr(a, k, v, t)),
        2 => (n(), 0..3u8, any::<bool>()).prop_map(|(a, t, add)| Op::Tag(a, t, add)),
        1 => (n(), 0..3u8).prop_map(|(a, k)| Op::Name(a, k)),
        1 => (n(), any::<i8>()).prop_map(|(a, x)| Op::Position(a, x)),
        1 => (n(), any::<i8>()).prop_map(|(a, x)| Op::NodeMut(a, x)),
        1 => (n(), 0..3u8).prop_map(|(a, k)| Op::Handle(a, k)),
        2 => (n(), 0..2u8, n()).prop_map(|(a, i, t)| Op::Reference(a, i, t)),
        4 => (n(), 0..4u8, any::<u8>(), n()).prop_map(|(a, c, v, t)| Op::AddComponent(a, c, v % 4 != 0, t)),
        1 => (n(), 0..4u8).prop_map(|(a, c)| Op::RemoveComponent(a, c)),
        2 => (n(), 0..4u8, any::<i8>(), n()).prop_map(|(a, c, v, t)| Op::SetField(a, c, v, t)),
        2 => (n(), any::<u8>()).prop_map(|(a, k)| Op::Misc(a, k)),
    ]
}

const CLASSES: [Class; 8] = [
    Class::Folder,
    Class::Model,
    Class::Part,
    Class::Part,
    Class::ObjectValue,
    Class::Weld,
    Class::PointLight,
    Class::Script,
];

/// Applies `op` to `a`, picking nodes from `pick(a)` (results ignored: a refusal changes
/// nothing, which `check` and the hashes see).
pub(super) fn apply(a: &mut Arena, c: Comps, op: &Op, pick: fn(&Arena) -> Vec<Id>) {
    let list = pick(a);
    // Half the picks fall on the first few nodes (the root and the Workspace, which stay,
    // among them), so operations meet on the same nodes.
    let node = |k: u16| {
        let few = [usize::MAX, usize::MAX, 12, 4][usize::from(k >> 14)];
        list[usize::from(k) % few % list.len()]
    };
    let parent = |k: u16| (!k.is_multiple_of(5)).then(|| node(k));
    let comp = |k: u8| [c.health, c.link, c.leash, c.doom][k as usize % 4];
    let text = |k: u8| ["Alpha", "Beta", "Gamma"][k as usize % 3];
    match *op {
        Op::Create(class, p) => {
            drop(a.create(CLASSES[class as usize % CLASSES.len()], text(class), parent(p)))
        }
        Op::Batch(p, k) => drop(a.create_batch(Class::Part, "Batch", parent(p), k as usize)),
        Op::Clone(n, p) => {
            if let Ok(Some(copy)) = a.clone_subtree(node(n)) {
                let _ = a.set_parent(copy, parent(p));
            }
        }
        Op::Graft(n, p) => {
            let snap = a.snapshot();
            let policy = [GraftPolicy::Clear, GraftPolicy::ResolveByPersistentId][p as usize % 2];
            let _ = a.graft(&snap, node(n), parent(p), policy);
        }
        Op::Reparent(n, p) => drop(a.set_parent(node(n), parent(p))),
        Op::Destroy(n) => drop(a.destroy(node(n))),
        Op::Attr(n, k, v, t) => {
            let value = match v % 6 {
                0 | 1 => None,
                2 => Some(AttributeValue::Number(f64::from(v))),
                3 => Some(AttributeValue::String(text(v).into())),
                4 => Some(AttributeValue::Ref(Some(node(t)))),
                _ => Some(AttributeValue::Vector3(Vec3::splat(f32::from(v)))),
            };
            let _ = a.set_attribute(node(n), text(k), value);
        }
        Op::Tag(n, t, add) => {
            drop(if add { a.add_tag(node(n), text(t)) } else { a.remove_tag(node(n), text(t)) })
        }
        Op::Name(n, k) => drop(a.set_name(node(n), text(k))),
        Op::Position(n, x) => drop(a.set_position(node(n), Vec3::new(f32::from(x), 0.0, -0.0))),
        Op::NodeMut(n, x) => {
            if let Ok(mut m) = a.node_mut(node(n)) {
                m.size().y = f32::from(x);
                m.set_flag(NodeFlags::ANCHORED, x % 2 == 0);
            }
        }
        Op::Handle(n, k) => drop(a.set_handle(node(n), (k > 0).then(|| text(k)))),
        Op::Reference(n, i, t) => drop(a.set_reference(node(n), i as usize, parent(t))),
        Op::AddComponent(n, k, with_values, t) => {
            let values = match k % 4 {
                0 => vec![FieldValue::F32(f32::from(t as u8)), FieldValue::String(text(k).into())],
                1 => vec![FieldValue::Ref(parent(t)), FieldValue::I32(i32::from(t))],
                _ => vec![FieldValue::Ref(parent(t))],
            };
            let _ = a.add_component(node(n), comp(k), with_values.then_some(&values[..]));
        }
        Op::RemoveComponent(n, k) => drop(a.remove_component(node(n), comp(k))),
        Op::SetField(n, k, v, t) => {
            let (field, value) = match k % 4 {
                0 if v % 2 == 0 => ("Value", FieldValue::F32(f32::from(v))),
                0 => ("Label", FieldValue::String(text(v as u8).into())),
                1 => ("Target", FieldValue::Ref(parent(t))),
                2 => ("Holder", FieldValue::Ref(parent(t))),
                _ => ("On", FieldValue::Ref(parent(t))),
            };
            let _ = a.set_field(node(n), comp(k), field, value);
        }
        Op::Misc(n, k) => drop(match k % 5 {
            0 => a.set_script_source(node(n), text(k)),
            1 => a.persistent_id(node(n)).map(|_| true),
            2 => a.set_platform_owned(node(n), k % 2 == 0),
            3 => a.set_flag(node(n), NodeFlags::TRANSIENT, k % 2 == 0),
            _ => a.set_rotation(node(n), glam::Quat::from_rotation_y(f32::from(k))),
        }),
    }
}

/// Every live node in slot order (identical in arenas that ran the same operations).
pub(super) fn by_slot(a: &Arena) -> Vec<Id> {
    a.iter().map(|n| n.id()).collect()
}

/// The tree under the root in pre-order (the same in arenas holding the same world).
pub(super) fn by_tree(a: &Arena) -> Vec<Id> {
    a.subtree(a.root())
}

fn replay(ops: &[Op], drains: bool) -> (Arena, Comps) {
    let (mut a, c) = world();
    for (k, op) in ops.iter().enumerate() {
        apply(&mut a, c, op, by_slot);
        if drains && k % 7 == 6 {
            a.drain_events();
        }
    }
    (a, c)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn a_scope_rolls_back_to_the_same_world_or_commits_the_unscoped_one(
        setup in prop::collection::vec(op(), 0..50),
        scoped in prop::collection::vec(op(), 1..50),
        after in prop::collection::vec(op(), 0..15),
        commit in any::<bool>(),
    ) {
        let (mut a, c) = replay(&setup, true);
        let (hash, events, peek) = (a.world_hash(), a.pending_events().len(), a.ids_peek());
        // Persistent ids are not world content (the hash leaves them out) but come back too.
        let pids = |a: &Arena| a.iter().filter_map(|n| n.persistent_id()).map(|p| p.0).collect::<std::collections::BTreeSet<_>>();
        let pids_before = pids(&a);
        a.begin_undo().unwrap();
        for op in &scoped {
            apply(&mut a, c, op, by_slot);
        }
        check(&a);
        let minted = a.ids_peek();
        if commit {
            a.commit_undo();
            let all: Vec<Op> = setup.iter().chain(&scoped).cloned().collect();
            let (mut twin, _) = world();
            for (k, op) in all.iter().enumerate() {
                apply(&mut twin, c, op, by_slot);
                if k < setup.len() && k % 7 == 6 {
                    twin.drain_events();
                }
            }
            prop_assert_eq!(a.world_hash(), twin.world_hash());
            prop_assert_eq!(a.revisions(), twin.revisions());
            prop_assert_eq!(by_slot(&a), by_slot(&twin));
            prop_assert_eq!(a.pending_events().len(), twin.pending_events().len());
        } else {
            a.rollback_undo();
            check(&a);
            prop_assert_eq!(a.world_hash(), hash);
            prop_assert_eq!(pids(&a), pids_before);
            prop_assert_eq!(a.pending_events().len(), events);
            prop_assert!(a.ids_peek() == minted && minted >= peek, "ids are never rewound");
            // The restored world behaves as one that never opened the scope.
            let (mut twin, _) = replay(&setup, true);
            for op in &after {
                apply(&mut a, c, op, by_tree);
                apply(&mut twin, c, op, by_tree);
                prop_assert_eq!(a.world_hash(), twin.world_hash(), "after {:?}", op);
            }
            a.drain_events();
            a.drain_events();
            check(&a);
        }
    }
}
