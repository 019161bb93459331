//! The random operations and their proptest strategies.

use crate::comp_ops::{CompOp, comp_op};
use arbor_core::{Class, GraftPolicy, NodeFlags};
use proptest::prelude::*;

/// A node chosen by index when the operation runs (see [`Model::pick`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Pick(pub(crate) u16);

#[derive(Clone, Debug)]
pub(crate) enum AttrChoice {
    Remove,
    Number(u8),
    Bool(bool),
    Text(u8),
    RefNone,
    Ref(Pick),
}

#[derive(Clone, Debug)]
pub(crate) enum Op {
    Create {
        class: Class,
        name: u8,
        parent: Option<Pick>,
    },
    Rename {
        node: Pick,
        name: u8,
    },
    Position {
        node: Pick,
        v: u8,
    },
    Size {
        node: Pick,
        v: u8,
    },
    Flag {
        node: Pick,
        flag: NodeFlags,
        on: bool,
    },
    Platform {
        node: Pick,
        on: bool,
    },
    Touch {
        node: Pick,
    },
    Attr {
        node: Pick,
        key: u8,
        value: AttrChoice,
    },
    Reference {
        node: Pick,
        index: u8,
        target: Option<Pick>,
    },
    Tag {
        node: Pick,
        tag: u8,
        add: bool,
    },
    Handle {
        node: Pick,
        name: Option<u8>,
    },
    SetPid {
        node: Pick,
        k: u8,
    },
    AssignPid {
        node: Pick,
    },
    Reparent {
        node: Pick,
        parent: Option<Pick>,
    },
    /// Reparent under a node of its own subtree (itself included): always a cycle.
    ReparentInside {
        node: Pick,
        k: u16,
    },
    Destroy {
        node: Pick,
    },
    Clone {
        node: Pick,
    },
    Graft {
        root: Pick,
        parent: Option<Pick>,
        policy: GraftPolicy,
    },
    Snapshot,
    Drain,
    /// A component operation.
    Comp(CompOp),
}

pub(crate) const CLASSES: [Class; 24] = [
    Class::Folder,
    Class::Folder,
    Class::Folder,
    Class::Model,
    Class::Model,
    Class::Part,
    Class::Part,
    Class::Part,
    Class::Script,
    Class::ScreenGui,
    Class::ScreenGui,
    Class::Frame,
    Class::Frame,
    Class::TextLabel,
    Class::ObjectValue,
    Class::ObjectValue,
    Class::Weld,
    Class::Weld,
    Class::Sound,
    Class::PointLight,
    Class::Camera,
    Class::Animation,
    Class::Character,
    Class::DataModel,
];

pub(crate) const FLAGS: [NodeFlags; 8] = [
    NodeFlags::ANCHORED,
    NodeFlags::ARCHIVABLE,
    NodeFlags::ARCHIVABLE,
    NodeFlags::CAN_COLLIDE,
    NodeFlags::TRANSIENT,
    NodeFlags::LOCKED,
    NodeFlags::IN_WORLD,
    NodeFlags(NodeFlags::ANCHORED.0 | NodeFlags::TRANSIENT.0),
];

pub(crate) fn pick() -> impl Strategy<Value = Pick> {
    any::<u16>().prop_map(Pick)
}

pub(crate) fn attr_choice() -> impl Strategy<Value = AttrChoice> {
    prop_oneof![
        1 => Just(AttrChoice::Remove),
        1 => (0u8..3).prop_map(AttrChoice::Number),
        1 => any::<bool>().prop_map(AttrChoice::Bool),
        1 => (0u8..2).prop_map(AttrChoice::Text),
        1 => Just(AttrChoice::RefNone),
        3 => pick().prop_map(AttrChoice::Ref),
    ]
}

pub(crate) fn op() -> impl Strategy<Value = Op> {
    let policy = prop_oneof![
        Just(GraftPolicy::Clear),
        Just(GraftPolicy::ResolveByPersistentId),
        Just(GraftPolicy::Refuse)
    ];
    prop_oneof![
        10 => (prop::sample::select(&CLASSES[..]), any::<u8>(), prop::option::weighted(0.8, pick()))
            .prop_map(|(class, name, parent)| Op::Create { class, name, parent }),
        2 => (pick(), any::<u8>()).prop_map(|(node, name)| Op::Rename { node, name }),
        1 => (pick(), 0u8..3).prop_map(|(node, v)| Op::Position { node, v }),
        1 => (pick(), 0u8..3).prop_map(|(node, v)| Op::Size { node, v }),
        3 => (pick(), prop::sample::select(&FLAGS[..]), any::<bool>())
            .prop_map(|(node, flag, on)| Op::Flag { node, flag, on }),
        2 => (pick(), prop::bool::weighted(0.4)).prop_map(|(node, on)| Op::Platform { node, on }),
        1 => pick().prop_map(|node| Op::Touch { node }),
        4 => (pick(), 0u8..3, attr_choice()).prop_map(|(node, key, value)| Op::Attr { node, key, value }),
        4 => (pick(), 0u8..3, prop::option::weighted(0.8, pick()))
            .prop_map(|(node, index, target)| Op::Reference { node, index, target }),
        2 => (pick(), 0u8..3, prop::bool::weighted(0.7)).prop_map(|(node, tag, add)| Op::Tag { node, tag, add }),
        2 => (pick(), prop::option::weighted(0.7, 0u8..3)).prop_map(|(node, name)| Op::Handle { node, name }),
        2 => (pick(), 0u8..6).prop_map(|(node, k)| Op::SetPid { node, k }),
        1 => pick().prop_map(|node| Op::AssignPid { node }),
        8 => (pick(), prop::option::weighted(0.85, pick())).prop_map(|(node, parent)| Op::Reparent { node, parent }),
        1 => (pick(), any::<u16>()).prop_map(|(node, k)| Op::ReparentInside { node, k }),
        4 => pick().prop_map(|node| Op::Destroy { node }),
        3 => pick().prop_map(|node| Op::Clone { node }),
        3 => (pick(), prop::option::weighted(0.6, pick()), policy)
            .prop_map(|(root, parent, policy)| Op::Graft { root, parent, policy }),
        1 => Just(Op::Snapshot),
        2 => Just(Op::Drain),
        45 => comp_op().prop_map(Op::Comp),
    ]
}
