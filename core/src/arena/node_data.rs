//! [`NodeData`]: an owned copy of one node's state, the unit clone, graft and place loading
//! create nodes from. Names in it are ids of the pool of the arena the data came from.

use crate::class::Class;
use crate::names::NameId;
use crate::nodes::hot::LocalTransform;
use crate::nodes::page::NodeRef;
use crate::value::{Appearance, Guid, NodeExtras, NodeFlags};
use glam::Vec3;

/// An owned copy of one node's state, used to create nodes in bulk (clone, graft, place
/// loading). Names are ids of the pool of the arena the data came from.
#[derive(Clone, Debug, PartialEq)]
pub struct NodeData {
    /// Class.
    pub class: Class,
    /// Name.
    pub name: NameId,
    /// User flags (see [`NodeFlags::USER`]); structural flags are ignored.
    pub flags: NodeFlags,
    /// GUID (a fresh one is drawn where the operation asks for it).
    pub guid: Guid,
    /// Local transform.
    pub transform: LocalTransform,
    /// Size.
    pub size: Vec3,
    /// Appearance.
    pub appearance: Appearance,
    /// Attributes, tags, references, persistent id, handle.
    pub extras: Option<Box<NodeExtras>>,
}

impl NodeRef<'_> {
    /// An owned copy of this node's state.
    pub fn to_data(&self) -> NodeData {
        NodeData {
            class: self.class(),
            name: self.name(),
            flags: NodeFlags(self.flags().0 & NodeFlags::USER.0),
            guid: self.guid(),
            transform: self.transform(),
            size: self.size(),
            appearance: self.appearance(),
            extras: self.page.extras[self.i].clone(),
        }
    }
}
