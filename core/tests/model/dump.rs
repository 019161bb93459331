//! A dump of everything observable about an arena, to show that a refused or no-op call
//! changed nothing.

use crate::TAGS;
use crate::check::field_text;
use crate::comp_check::{CompDump, comp_dump};
use arbor_core::{
    Arena, Class, Family, Guid, Id, InstanceEvent, LocalTransform, NodeFlags, Vec3,
    raw::{NamePool, NodeExtras, NodeRef, Revisions, TopologyChange},
};

#[derive(Debug, PartialEq)]
pub(crate) struct NodeDump {
    pub(crate) id: Id,
    pub(crate) class: Class,
    pub(crate) name: String,
    pub(crate) parent: Option<Id>,
    pub(crate) children: Vec<Id>,
    pub(crate) flags: NodeFlags,
    pub(crate) revision: u64,
    pub(crate) guid: Guid,
    pub(crate) transform: LocalTransform,
    pub(crate) size: Vec3,
    pub(crate) appearance: arbor_core::Appearance,
    pub(crate) extras: NodeExtras,
}

pub(crate) fn dump_node(node: NodeRef<'_>, names: &NamePool) -> NodeDump {
    NodeDump {
        id: node.id(),
        class: node.class(),
        name: names.text(node.name()).to_owned(),
        parent: node.parent(),
        children: node.children().iter().collect(),
        flags: node.flags(),
        revision: node.revision(),
        guid: node.guid(),
        transform: node.transform(),
        size: node.size(),
        appearance: node.appearance(),
        extras: node.extras().clone(),
    }
}

/// Everything observable about an arena (names as text, so interning does not show).
#[derive(Debug, PartialEq)]
pub(crate) struct Dump {
    pub(crate) revisions: Revisions,
    pub(crate) len: usize,
    pub(crate) occupied: usize,
    pub(crate) nodes: Vec<NodeDump>,
    pub(crate) tombstones: Vec<NodeDump>,
    pub(crate) events: Vec<InstanceEvent>,
    pub(crate) topology: Vec<(u64, TopologyChange)>,
    pub(crate) part_writes: Vec<Id>,
    pub(crate) deletions: Vec<Id>,
    pub(crate) handles: Vec<(String, Id)>,
    pub(crate) tagged: Vec<Vec<Id>>,
    pub(crate) families: Vec<Vec<Id>>,
    pub(crate) referrers: Vec<Vec<(Id, String)>>,
    pub(crate) components: CompDump,
}

/// Compares two dumps field by field, so a failure names what differs.
pub(crate) fn assert_same(got: &Dump, expected: &Dump, what: &str) {
    macro_rules! same {
        ($($field:ident),*) => {$(
            assert_eq!(got.$field, expected.$field, "{what}: {} differs", stringify!($field));
        )*};
    }
    same!(
        revisions,
        len,
        occupied,
        events,
        topology,
        part_writes,
        deletions,
        handles,
        tagged,
        families,
        referrers,
        components
    );
    for (g, e) in got.nodes.iter().zip(&expected.nodes) {
        assert_eq!(g, e, "{what}: node differs");
    }
    same!(nodes, tombstones);
}

pub(crate) fn dump(arena: &Arena, ids: &[Id]) -> Dump {
    let names = arena.names();
    let mut handles: Vec<(String, Id)> = arena.handles().map(|(h, id)| (h.to_owned(), id)).collect();
    handles.sort();
    Dump {
        revisions: *arena.revisions(),
        len: arena.len(),
        occupied: arena.memory_report().occupied_slots,
        nodes: arena.iter().map(|n| dump_node(n, names)).collect(),
        tombstones: ids
            .iter()
            .filter(|&&id| arena.get(id).is_none())
            .filter_map(|&id| arena.lifecycle_view(id).get(id).map(|n| dump_node(n, names)))
            .collect(),
        events: arena.pending_events().to_vec(),
        topology: arena.topology_since(0).expect("history").collect(),
        part_writes: arena.part_writes_since(0).expect("history").collect(),
        deletions: arena.deletions_since(0).expect("history").collect(),
        handles,
        tagged: TAGS.iter().map(|t| arena.tagged(t).collect()).collect(),
        families: Family::ALL.iter().map(|&f| arena.family(f).to_vec()).collect(),
        referrers: ids
            .iter()
            .map(|&id| arena.referrers(id).map(|(h, f)| (h, field_text(names, f))).collect())
            .collect(),
        components: comp_dump(arena, ids),
    }
}
