//! [`ArenaBuilder`]: building a fresh arena's tree in bulk, as the place loader (`arbor-place`) does.
//!
//! A bulk build creates nodes with all their built-in fields at once and links each under an
//! earlier one, stamped with one revision for the whole run. It queues no per-node events,
//! topology entries or undo entries and keeps no ancestor chains (as for the root and
//! Workspace of [`Arena::new`]); world membership is set in one pass when the build
//! finishes. That is sound only while nobody has seen the arena's tree yet, so a builder
//! takes a fresh arena: one that never held a node but its root and Workspace.
//!
//! Invariants: every node created so far is linked under the root, the Workspace or an
//! earlier node; `world` holds exactly the created nodes under the Workspace; and the arena
//! handed out by [`ArenaBuilder::finish`] keeps every invariant of [`Arena`] (world flags and
//! family indexes set, the topology revision bumped, the top of the tree transform-dirty).
//! Handles, references, attributes, tags and component rows are set afterwards through the
//! arena's public setters, so their indexes stay exact.

use super::Arena;
use crate::class::Class;
use crate::components::{ComponentId, Schema, SchemaError};
use crate::error::ArenaError;
use crate::id::Id;
use crate::names::NameId;
use crate::nodes::hot::LocalTransform;
use crate::nodes::page::DEFAULT_SIZE;
use crate::value::{Appearance, NodeFlags};
use glam::Vec3;
use thiserror::Error;

/// Flags a bulk build takes from [`NodeFields::flags`]; the rest are the arena's.
const BUILT_FLAGS: NodeFlags =
    NodeFlags(NodeFlags::ANCHORED.0 | NodeFlags::CAN_COLLIDE.0 | NodeFlags::ARCHIVABLE.0);

/// The built-in fields a bulk build gives one node.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct NodeFields {
    /// Interned name (see [`ArenaBuilder::intern`]).
    pub name: NameId,
    /// `ANCHORED`, `CAN_COLLIDE` and `ARCHIVABLE`; other bits are ignored.
    pub flags: NodeFlags,
    /// Transform relative to the parent.
    pub transform: LocalTransform,
    /// Size.
    pub size: Vec3,
    /// Colour, transparency (clamped to 0..=1, NaN read as 0), material and shape.
    pub appearance: Appearance,
}

impl NodeFields {
    /// The fields [`Arena::create`] gives a node named `name`: not anchored, colliding,
    /// archivable, at the origin, of the default size and appearance.
    pub fn named(name: NameId) -> Self {
        NodeFields {
            name,
            flags: NodeFlags::NEW,
            transform: LocalTransform::default(),
            size: DEFAULT_SIZE,
            appearance: Appearance::default(),
        }
    }
}

/// [`ArenaBuilder::new`] refused an arena that already held nodes other than its root and
/// Workspace; the arena is handed back unchanged.
#[derive(Error)]
#[error("a bulk build needs a fresh arena: this one holds nodes other than its root and Workspace")]
pub struct NotFresh(pub Box<Arena>);

impl std::fmt::Debug for NotFresh {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("NotFresh(..)")
    }
}

/// Builds a fresh arena's tree in bulk (see the module docs).
///
/// ```
/// use arbor_core::{Arena, ArenaBuilder, Class, NodeFields, NodeFlags, Vec3};
/// let mut b = ArenaBuilder::new(Arena::new()).unwrap();
/// let ws = b.arena().workspace();
/// let name = b.intern("Car");
/// let car = b.create(Some(ws), Class::Model, &NodeFields::named(name)).unwrap();
/// let wheel = NodeFields { size: Vec3::splat(2.0), ..NodeFields::named(b.intern("Wheel")) };
/// let wheel = b.create(Some(car), Class::Part, &wheel).unwrap();
/// let arena = b.finish();
/// assert_eq!(arena.find_first_child(car, "Wheel"), Some(wheel));
/// assert!(arena.get(wheel).unwrap().flags().contains(NodeFlags::IN_WORLD));
/// ```
pub struct ArenaBuilder {
    arena: Arena,
    /// The one revision every created node is stamped with.
    rev: u64,
    /// Created nodes under the Workspace (their world membership is set by `finish`).
    world: Vec<Id>,
    /// Whether the node in each slot is under the Workspace (indexed by slot).
    in_world: Vec<bool>,
    /// Created nodes directly under the root (marked transform-dirty by `finish`).
    top_level: Vec<Id>,
}

impl ArenaBuilder {
    /// A builder over `arena`, which must be fresh: it never held a node but its root and
    /// Workspace, and has no open undo scope. Schemas, behaviours and attributes it already
    /// holds are kept.
    pub fn new(mut arena: Arena) -> Result<Self, NotFresh> {
        if arena.created > 2 || arena.undo.is_some() {
            return Err(NotFresh(Box::new(arena)));
        }
        let rev = arena.revisions.bump();
        Ok(ArenaBuilder { arena, rev, world: Vec::new(), in_world: Vec::new(), top_level: Vec::new() })
    }

    /// The arena under construction (read-only: its world membership is set at `finish`).
    pub fn arena(&self) -> &Arena {
        &self.arena
    }

    /// Interns a name for [`NodeFields::name`].
    pub fn intern(&mut self, text: &str) -> NameId {
        self.arena.intern(text)
    }

    /// Registers a component schema, as [`Arena::register_component`] does.
    pub fn register_component(&mut self, schema: Schema) -> Result<ComponentId, SchemaError> {
        self.arena.register_component(schema)
    }

    /// Creates a node of `class` with `fields` under `parent` (`None`: the root), after the
    /// parent's other children. Refuses, changing nothing, what [`Arena::create`] refuses:
    /// a class that cannot be created, a missing or destroyed parent, containment, a bad name,
    /// a full arena or exhausted ids.
    pub fn create(
        &mut self,
        parent: Option<Id>,
        class: Class,
        fields: &NodeFields,
    ) -> Result<Id, ArenaError> {
        if !class.is_creatable() {
            return Err(ArenaError::NotCreatable(class));
        }
        let parent = parent.unwrap_or(self.arena.root);
        self.arena.validate_destination(class, parent, None)?;
        crate::names::check_name(self.arena.names.text(fields.name))?;
        let flags = NodeFlags((NodeFlags::NEW.0 & !BUILT_FLAGS.0) | (fields.flags.0 & BUILT_FLAGS.0));
        let id = self.arena.new_node(None, class, fields.name, flags, self.rev)?;
        self.write_fields(id, fields);
        self.arena.link(id, parent);
        let parent_slot = self.arena.slot_of(parent).index();
        let in_world =
            parent == self.arena.workspace || self.in_world.get(parent_slot).copied().unwrap_or(false);
        let slot = self.arena.slot_of(id).index();
        if self.in_world.len() <= slot {
            self.in_world.resize(slot + 1, false);
        }
        self.in_world[slot] = in_world;
        if in_world {
            self.world.push(id);
        } else if parent == self.arena.root {
            self.top_level.push(id);
        }
        Ok(id)
    }

    /// Gives the Workspace `fields` (its name, transform, size, appearance and the user flags of
    /// [`NodeFields::flags`]; it stays locked).
    pub fn set_workspace_fields(&mut self, fields: &NodeFields) {
        let ws = self.arena.workspace;
        self.write_fields(ws, fields);
        let (page, i) = self.arena.page_mut(self.arena.slot_of(ws));
        page.hot[i].flags =
            NodeFlags((page.hot[i].flags.0 & !BUILT_FLAGS.0) | (fields.flags.0 & BUILT_FLAGS.0));
    }

    fn write_fields(&mut self, id: Id, fields: &NodeFields) {
        let (page, i) = self.arena.page_mut(self.arena.slot_of(id));
        page.names[i] = fields.name;
        page.hot[i].local = fields.transform;
        page.hot[i].revision = self.rev;
        page.sizes[i] = fields.size;
        page.appearances[i] = fields.appearance.stored();
    }

    /// The finished arena: world membership (flags, family indexes, the part-write log) set for
    /// everything under the Workspace, the topology revision bumped, and the Workspace and the
    /// other top-level nodes marked transform-dirty so the first transform pass computes every
    /// world transform.
    pub fn finish(mut self) -> Arena {
        let world = std::mem::take(&mut self.world);
        self.arena.set_world_membership(&world, true, self.rev);
        self.arena.revisions.topology = self.rev;
        let ws = self.arena.workspace;
        for id in std::iter::once(ws).chain(self.top_level.iter().copied()) {
            // Live nodes of this arena: marking them written cannot fail.
            let _ = self.arena.node_mut(id);
        }
        self.arena
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::class::Family;
    use crate::value::{Color, Material};
    use glam::Quat;
    use proptest::prelude::*;

    #[test]
    fn an_arena_that_held_other_nodes_is_handed_back() {
        let mut arena = Arena::new();
        let ws = arena.workspace();
        let part = arena.create(Class::Part, "P", Some(ws)).unwrap();
        let NotFresh(back) = ArenaBuilder::new(arena).err().expect("not fresh");
        assert!(back.get(part).is_some(), "the refused arena comes back whole");
    }

    #[test]
    fn refusals_change_nothing() {
        let mut b = ArenaBuilder::new(Arena::new()).unwrap();
        let ws = b.arena().workspace();
        let name = b.intern("x");
        let script = b.create(Some(ws), Class::Script, &NodeFields::named(name)).unwrap();
        let before = b.arena().len();
        let fields = NodeFields::named(name);
        let leaf = b.create(Some(script), Class::Part, &fields).unwrap_err();
        assert!(matches!(leaf, ArenaError::Containment { .. }), "{leaf}");
        assert_eq!(
            b.create(Some(ws), Class::Workspace, &fields),
            Err(ArenaError::NotCreatable(Class::Workspace))
        );
        let missing = Id(1 << 40);
        assert_eq!(b.create(Some(missing), Class::Part, &fields), Err(ArenaError::ParentMissing(missing)));
        let bad = NodeFields::named(b.intern(&"n".repeat(crate::names::MAX_NAME_BYTES + 1)));
        assert!(b.create(Some(ws), Class::Part, &bad).is_err());
        assert_eq!(b.arena().len(), before);
        let arena = b.finish();
        assert_eq!(arena.family(Family::Parts).len(), 0);
        assert_eq!(arena.children(script).count(), 0);
    }

    /// One node of a random tree: its parent (an index into the nodes before it, or the root
    /// or Workspace), class and fields.
    #[derive(Clone, Debug)]
    struct Planned {
        parent: usize,
        class: Class,
        position: [f32; 3],
        size: f32,
        transparency: f32,
        anchored: bool,
    }

    fn planned() -> impl Strategy<Value = Planned> {
        let class = prop::sample::select(vec![Class::Folder, Class::Model, Class::Part, Class::Script]);
        (0usize..64, class, prop::array::uniform3(-50.0f32..50.0), 0.1f32..9.0, -0.5f32..1.5, any::<bool>())
            .prop_map(|(parent, class, position, size, transparency, anchored)| Planned {
                parent,
                class,
                position,
                size,
                transparency,
                anchored,
            })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        /// A bulk build makes the same world as node-by-node creation with setters, refusing
        /// the same nodes with the same errors.
        #[test]
        fn bulk_build_matches_create_and_setters(plan in prop::collection::vec(planned(), 0..40)) {
            let mut one = Arena::new();
            let mut b = ArenaBuilder::new(Arena::new()).unwrap();
            let (root, ws) = (one.root(), one.workspace());
            let mut made: Vec<Id> = vec![root, ws];
            for (k, p) in plan.iter().enumerate() {
                let parent = made[p.parent % made.len()];
                let name = format!("n{k}");
                let appearance = Appearance {
                    color: Color([k as u8, 2, 3, 255]),
                    transparency: p.transparency,
                    material: Material::ALL[k % Material::ALL.len()],
                    ..Appearance::default()
                };
                let transform = LocalTransform {
                    position: Vec3::from_array(p.position),
                    rotation: Quat::from_rotation_y(k as f32),
                };
                let fields = NodeFields {
                    flags: NodeFlags::NEW.with(NodeFlags::ANCHORED, p.anchored),
                    transform,
                    size: Vec3::splat(p.size),
                    appearance,
                    ..NodeFields::named(b.intern(&name))
                };
                let bulk = b.create(Some(parent), p.class, &fields);
                let plain = one.create(p.class, &name, Some(parent));
                prop_assert_eq!(&bulk, &plain);
                if let Ok(id) = plain {
                    one.set_transform(id, transform).unwrap();
                    one.set_size(id, fields.size).unwrap();
                    one.set_appearance(id, appearance).unwrap();
                    one.set_flag(id, NodeFlags::ANCHORED, p.anchored).unwrap();
                    made.push(id);
                }
            }
            let built = b.finish();
            prop_assert_eq!(built.world_hash(), one.world_hash());
            prop_assert_eq!(built.len(), one.len());
            let (mut x, mut y) = (built.family(Family::Parts).to_vec(), one.family(Family::Parts).to_vec());
            x.sort();
            y.sort();
            prop_assert_eq!(x, y);
            for &id in &made {
                let (m, n) = (built.get(id).unwrap(), one.get(id).unwrap());
                prop_assert_eq!(m.flags(), n.flags());
                prop_assert_eq!(m.parent(), n.parent());
            }
        }
    }
}
