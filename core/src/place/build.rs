//! The loading side shared by both forms: [`Builder`] builds a fresh arena from instances
//! given in pre-order, then applies their attributes, tags, handles, persistent ids,
//! references, component rows and sources, and hands the arena out only when everything
//! succeeded (on error the half-built arena is dropped with the builder).
//!
//! Instances are created in bulk: one revision for the whole load, nodes allocated and
//! linked directly (no per-node events, journal entries or ancestor chains, as for the
//! root and Workspace of [`Arena::new`]), world membership set in one pass. Everything that
//! has an index (tags, handles, persistent ids, reverse references, components) goes through
//! the arena's public setters, so the indexes stay exact.
//!
//! Paths: every instance remembers where it sits in the file (`file_parent`, `file_pos`),
//! so an error names it as `instances[3].children[0]` without any per-instance string.

use super::collect::NONE;
use super::error::PlaceError;
use super::model::{
    ComponentDoc, DEFAULT_FALLEN_PARTS_DESTROY_HEIGHT, FALLEN_PARTS_DESTROY_HEIGHT, file_class,
};
use crate::arena::Arena;
use crate::class::Class;
use crate::components::{ComponentId, FieldValue};
use crate::error::ArenaError;
use crate::id::Id;
use crate::names::NameId;
use crate::nodes::hot::LocalTransform;
use crate::value::{Appearance, AttributeValue, NodeFlags, PersistentId};
use glam::Vec3;
use rustc_hash::{FxHashMap, FxHashSet};

/// Built-in state of one instance to create.
pub(crate) struct NodeSpec<'s> {
    /// Class name as written in the file.
    pub class: &'s str,
    /// Interned name (see [`Builder::intern`]).
    pub name: NameId,
    /// `ANCHORED`, `CAN_COLLIDE` and `ARCHIVABLE`; other bits are ignored.
    pub flags: NodeFlags,
    /// Local transform.
    pub transform: LocalTransform,
    /// Size.
    pub size: Vec3,
    /// Appearance.
    pub appearance: Appearance,
}

/// Where one created instance is, in the arena and in the file.
#[derive(Clone, Copy)]
struct Placed {
    id: Id,
    class: Class,
    in_world: bool,
    /// Index of the instance whose `children` hold this one in the file ([`NONE`]: the
    /// top-level `instances` list).
    file_parent: u32,
    /// Position in that list.
    file_pos: u32,
    /// Children created under this instance so far (tree positions for the binary form).
    children: u32,
}

/// Builds a fresh arena from a place file.
pub(crate) struct Builder {
    arena: Arena,
    rev: u64,
    nodes: Vec<Placed>,
    top_count: u32,
    workspace_index: u32,
    /// Nodes under the Workspace (their world membership is set in one pass).
    world: Vec<Id>,
    /// Top-level instances other than the Workspace (marked transform-dirty at the end).
    top_level: Vec<Id>,
    ref_numbers: FxHashMap<u64, u32>,
    /// (instance, component) rows the file gave, to refuse a second one.
    given_rows: FxHashSet<(u32, u16)>,
    /// Component ids of the file's schemas, in file order.
    schemas: Vec<ComponentId>,
    setting_given: bool,
}

const USER_FILE_FLAGS: NodeFlags =
    NodeFlags(NodeFlags::ANCHORED.0 | NodeFlags::CAN_COLLIDE.0 | NodeFlags::ARCHIVABLE.0);

impl Builder {
    /// A builder over a fresh server arena, expecting about `capacity` instances.
    pub fn new(capacity: usize) -> Self {
        let mut arena = Arena::new();
        let rev = arena.revisions.bump();
        Builder {
            arena,
            rev,
            nodes: Vec::with_capacity(capacity.min(1 << 24)),
            top_count: 0,
            workspace_index: NONE,
            world: Vec::new(),
            top_level: Vec::new(),
            ref_numbers: FxHashMap::default(),
            given_rows: FxHashSet::default(),
            schemas: Vec::new(),
            setting_given: false,
        }
    }

    /// Interns a name.
    pub fn intern(&mut self, text: &str) -> NameId {
        self.arena.intern(text)
    }

    /// The file path of instance `index`, e.g. `instances[3].children[0]`.
    pub fn path(&self, index: u32) -> String {
        let mut positions = Vec::new();
        let mut i = index;
        while let Some(p) = self.nodes.get(i as usize) {
            positions.push(p.file_pos);
            if p.file_parent == NONE {
                break;
            }
            i = p.file_parent;
        }
        let mut out = String::from("instances");
        for (k, pos) in positions.iter().rev().enumerate() {
            if k > 0 {
                out.push_str(".children");
            }
            out.push_str(&format!("[{pos}]"));
        }
        out
    }

    /// An error at `suffix` (e.g. `attributes.Speed`) of instance `index`.
    pub fn err(&self, index: u32, suffix: &str, message: impl Into<String>) -> PlaceError {
        let mut path = self.path(index);
        if !suffix.is_empty() {
            path.push('.');
            path.push_str(suffix);
        }
        PlaceError::invalid(path, message)
    }

    /// Registers schema `i` of the file.
    pub fn register_schema(&mut self, i: usize, doc: &ComponentDoc) -> Result<ComponentId, PlaceError> {
        if self.arena.components().component(&doc.name).is_some() {
            return Err(PlaceError::invalid(
                format!("components[{i}].name"),
                format!("component '{}' is declared twice", doc.name),
            ));
        }
        let c = self
            .arena
            .register_component(doc.to_schema())
            .map_err(|e| PlaceError::invalid(format!("components[{i}]"), e.to_string()))?;
        self.schemas.push(c);
        Ok(c)
    }

    /// The component of the file's schema `i`.
    pub fn schema(&self, i: usize) -> Option<ComponentId> {
        self.schemas.get(i).copied()
    }

    /// The component named `name`.
    pub fn component_named(&self, name: &str) -> Option<ComponentId> {
        self.arena.components().component(name)
    }

    /// The arena under construction (read-only).
    pub fn arena(&self) -> &Arena {
        &self.arena
    }

    /// Applies the destroy-height setting (before any attribute, so it comes first).
    pub fn set_destroy_height(&mut self, height: Option<f64>) {
        if let Some(h) = height {
            let ws = self.arena.workspace();
            // The Workspace is live and a number needs no target: this cannot fail.
            let _ =
                self.arena.set_attribute(ws, FALLEN_PARTS_DESTROY_HEIGHT, Some(AttributeValue::Number(h)));
            self.setting_given = true;
        }
    }

    /// How many children instance `parent` (or the top level) has received so far.
    pub fn child_count(&self, parent: Option<u32>) -> u32 {
        match parent {
            Some(p) => self.nodes[p as usize].children,
            None => self.top_count,
        }
    }

    /// Creates one instance under `tree_parent` (an earlier instance; `None`: the
    /// `DataModel`), placed in the file at `file_parent`/`file_pos`. A top-level `Workspace`
    /// becomes the arena's own Workspace. Returns its index.
    pub fn add_node(
        &mut self,
        tree_parent: Option<u32>,
        file_parent: Option<u32>,
        file_pos: u32,
        spec: &NodeSpec<'_>,
    ) -> Result<u32, PlaceError> {
        let index = u32::try_from(self.nodes.len())
            .ok()
            .filter(|&i| i != NONE)
            .ok_or_else(|| PlaceError::invalid("instances", "too many instances"))?;
        // Placed first, so errors below can name this instance.
        self.nodes.push(Placed {
            id: Id::NONE,
            class: Class::Folder,
            in_world: false,
            file_parent: file_parent.unwrap_or(NONE),
            file_pos,
            children: 0,
        });
        let class = file_class(spec.class).map_err(|m| self.err(index, "class", m))?;
        crate::names::check_name(self.arena.names.text(spec.name))
            .map_err(|e| self.err(index, "name", e.to_string()))?;
        let transparency = spec.appearance.transparency;
        if !(0.0..=1.0).contains(&transparency) {
            return Err(self.err(
                index,
                "transparency",
                format!("must be between 0 and 1, got {transparency}"),
            ));
        }
        let parent = tree_parent.map(|p| self.nodes[p as usize]);
        let parent_class = parent.map_or(Class::DataModel, |p| p.class);
        if class == Class::Workspace {
            if parent.is_some() {
                return Err(self.err(index, "class", "a Workspace can only be a top-level instance"));
            }
            if self.workspace_index != NONE {
                let first = self.path(self.workspace_index);
                return Err(self.err(index, "class", format!("a second Workspace (the first is {first})")));
            }
        } else if !class.may_be_child_of(parent_class) {
            return Err(self.err(index, "class", format!("a {class} cannot be a child of a {parent_class}")));
        }
        let flags = NodeFlags(spec.flags.0 & USER_FILE_FLAGS.0);
        let id = if class == Class::Workspace {
            self.workspace_index = index;
            self.arena.workspace()
        } else {
            self.arena
                .new_node(None, class, spec.name, flags, self.rev)
                .map_err(|e| self.err(index, "", e.to_string()))?
        };
        let slot = self.arena.slot_of(id);
        let (page, i) = self.arena.page_mut(slot);
        page.names[i] = spec.name;
        page.hot[i].local = spec.transform;
        page.sizes[i] = spec.size;
        page.appearances[i] = spec.appearance;
        page.hot[i].revision = self.rev;
        if class == Class::Workspace {
            page.hot[i].flags = NodeFlags((page.hot[i].flags.0 & !USER_FILE_FLAGS.0) | flags.0);
        } else {
            let parent_id = parent.map_or(self.arena.root(), |p| p.id);
            self.arena.link(id, parent_id);
        }
        let in_world =
            class != Class::Workspace && parent.is_some_and(|p| p.in_world || p.class == Class::Workspace);
        if in_world {
            self.world.push(id);
        } else if parent.is_none() && class != Class::Workspace {
            self.top_level.push(id);
        }
        match tree_parent {
            Some(p) => self.nodes[p as usize].children += 1,
            None => self.top_count += 1,
        }
        self.nodes[index as usize] = Placed { id, class, in_world, ..self.nodes[index as usize] };
        Ok(index)
    }

    /// Gives instance `index` the file-local reference number `n` (JSON `ref`).
    pub fn set_ref_number(&mut self, index: u32, n: u64) -> Result<(), PlaceError> {
        if let Some(&first) = self.ref_numbers.get(&n) {
            let first = self.path(first);
            return Err(self.err(index, "ref", format!("ref {n} is used twice (first by {first})")));
        }
        self.ref_numbers.insert(n, index);
        Ok(())
    }

    /// The index of the instance with reference number `n`.
    pub fn by_ref_number(&self, n: u64) -> Option<u32> {
        self.ref_numbers.get(&n).copied()
    }

    /// Resolves a JSON reference (`null` or a `ref` number) held at `suffix` of `index`.
    pub fn resolve_ref(
        &self,
        index: u32,
        suffix: impl Fn() -> String,
        n: Option<u64>,
    ) -> Result<Option<Id>, PlaceError> {
        match n {
            None => Ok(None),
            Some(n) => match self.by_ref_number(n) {
                Some(i) => Ok(Some(self.nodes[i as usize].id)),
                None => Err(self.err(index, &suffix(), format!("no instance in the file has ref {n}"))),
            },
        }
    }

    /// Resolves a binary reference (0: none, `k + 1`: instance `k`) held at `suffix`.
    pub fn resolve_index(
        &self,
        index: u32,
        suffix: impl Fn() -> String,
        k: u32,
    ) -> Result<Option<Id>, PlaceError> {
        if k == 0 {
            return Ok(None);
        }
        match self.nodes.get(k as usize - 1) {
            Some(p) => Ok(Some(p.id)),
            None => Err(self.err(
                index,
                &suffix(),
                format!("refers to instance #{} but the file holds {}", k - 1, self.nodes.len()),
            )),
        }
    }

    /// The runtime id of instance `index`.
    pub fn id(&self, index: u32) -> Id {
        self.nodes[index as usize].id
    }

    /// The class of instance `index`.
    pub fn class(&self, index: u32) -> Class {
        self.nodes[index as usize].class
    }

    /// Ends the creation phase: sets world membership for everything under the Workspace.
    pub fn nodes_done(&mut self) {
        let world = std::mem::take(&mut self.world);
        self.arena.set_world_membership(&world, true, self.rev);
        self.arena.revisions.topology = self.rev;
    }

    fn arena_err(&self, index: u32, suffix: &str, e: ArenaError) -> PlaceError {
        self.err(index, suffix, e.to_string())
    }

    /// Sets attribute `key` of instance `index`.
    pub fn set_attribute(&mut self, index: u32, key: &str, value: AttributeValue) -> Result<(), PlaceError> {
        if index == self.workspace_index && self.setting_given && key == FALLEN_PARTS_DESTROY_HEIGHT {
            return Err(self.err(
                index,
                &format!("attributes.{key}"),
                "also given as settings.FallenPartsDestroyHeight; give it once",
            ));
        }
        let id = self.id(index);
        self.arena
            .set_attribute(id, key, Some(value))
            .map_err(|e| self.arena_err(index, &format!("attributes.{key}"), e))?;
        Ok(())
    }

    /// Adds tag `tag` to instance `index`.
    pub fn add_tag(&mut self, index: u32, tag: &str) -> Result<(), PlaceError> {
        let id = self.id(index);
        self.arena.add_tag(id, tag).map_err(|e| self.arena_err(index, "tags", e))?;
        Ok(())
    }

    /// Registers handle `name` for instance `index`.
    pub fn set_handle(&mut self, index: u32, name: &str) -> Result<(), PlaceError> {
        let id = self.id(index);
        match self.arena.set_handle(id, Some(name)) {
            Ok(_) => Ok(()),
            Err(ArenaError::HandleTaken { holder, .. }) => {
                let other = self.path_of_id(holder);
                Err(self.err(index, "handle", format!("handle name '{name}' is already used by {other}")))
            }
            Err(e) => Err(self.arena_err(index, "handle", e)),
        }
    }

    /// Gives instance `index` persistent id `pid`.
    pub fn set_persistent_id(&mut self, index: u32, pid: PersistentId) -> Result<(), PlaceError> {
        let id = self.id(index);
        match self.arena.set_persistent_id(id, pid) {
            Ok(_) => Ok(()),
            Err(ArenaError::IdInUse(holder)) => {
                let other = self.path_of_id(holder);
                Err(self.err(
                    index,
                    "persistentId",
                    format!("persistent id {:032x} is already used by {other}", pid.0),
                ))
            }
            Err(e) => Err(self.arena_err(index, "persistentId", e)),
        }
    }

    /// Sets reference property `prop` (an index into the class's reference properties).
    pub fn set_reference(
        &mut self,
        index: u32,
        prop: usize,
        target: Option<Id>,
        suffix: &str,
    ) -> Result<(), PlaceError> {
        let id = self.id(index);
        self.arena.set_reference(id, prop, target).map_err(|e| self.arena_err(index, suffix, e))?;
        Ok(())
    }

    /// Sets the Luau source of instance `index` (a `Script`).
    pub fn set_source(&mut self, index: u32, source: &str) -> Result<(), PlaceError> {
        let class = self.class(index);
        if class != Class::Script {
            return Err(self.err(index, "source", format!("only a Script has source, not a {class}")));
        }
        let id = self.id(index);
        self.arena.set_script_source(id, source).map_err(|e| self.arena_err(index, "source", e))?;
        Ok(())
    }

    /// Adds component `c` with `values` (every field, in order) to instance `index`.
    pub fn add_row(
        &mut self,
        index: u32,
        c: ComponentId,
        values: &[FieldValue],
        suffix: &str,
    ) -> Result<(), PlaceError> {
        if !self.given_rows.insert((index, c.0)) {
            let name = self.arena.components().registry().info(c).schema.name.clone();
            return Err(self.err(index, suffix, format!("component '{name}' is given twice")));
        }
        let id = self.id(index);
        self.arena.add_component(id, c, Some(values)).map_err(|e| self.arena_err(index, suffix, e))?;
        Ok(())
    }

    fn path_of_id(&self, id: Id) -> String {
        match self.nodes.iter().position(|p| p.id == id) {
            Some(i) => self.path(i as u32),
            None => format!("instance {id}"),
        }
    }

    /// The finished arena: the default destroy height where none was given, and the
    /// Workspace and other top-level instances marked transform-dirty so the first transform
    /// pass computes every world transform.
    pub fn finish(mut self) -> Arena {
        let ws = self.arena.workspace();
        if !self.setting_given && self.arena.attribute(ws, FALLEN_PARTS_DESTROY_HEIGHT).is_none() {
            let value = AttributeValue::Number(DEFAULT_FALLEN_PARTS_DESTROY_HEIGHT);
            let _ = self.arena.set_attribute(ws, FALLEN_PARTS_DESTROY_HEIGHT, Some(value));
        }
        for id in std::iter::once(ws).chain(self.top_level.iter().copied()) {
            // Live nodes of this arena: marking them written cannot fail.
            let _ = self.arena.node_mut(id);
        }
        self.arena
    }
}
