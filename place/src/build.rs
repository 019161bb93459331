//! The loading side shared by both forms, in two stages that hand one to the other:
//! [`TreeLoader`] creates the file's instances (given in pre-order) through the public bulk
//! build of [`ArenaBuilder`], and [`ExtrasLoader`] then applies their attributes, tags,
//! handles, persistent ids, references, component rows and sources through the arena's
//! public setters. The arena is handed out only when everything succeeded; on error the
//! half-built arena is dropped with the loader.
//!
//! Errors name instances by where they sit in the file: every instance remembers its
//! `file_parent` and `file_pos` in the [`FileIndex`], so an error reads
//! `instances[3].children[0]` without any per-instance string. The loaders check each
//! instance with the file's own messages before the arena checks it again.

use super::collect::NONE;
use super::error::PlaceError;
use super::model::{ComponentDoc, file_class};
use arbor_core::ArenaError;
use arbor_core::Class;
use arbor_core::Id;
use arbor_core::components::{ComponentId, FieldValue};
use arbor_core::raw::NameId;
use arbor_core::settings::FALLEN_PARTS_DESTROY_HEIGHT;
use arbor_core::{Arena, ArenaBuilder, NodeFields};
use arbor_core::{AttributeValue, PersistentId};
use arbor_core::{RUN_CONTEXT_ATTRIBUTE, RunContext};
use rustc_hash::{FxHashMap, FxHashSet};

/// One instance to create: its class as written in the file, and its built-in fields.
pub(crate) struct NodeSpec<'s> {
    /// Class name as written in the file.
    pub class: &'s str,
    /// Name (see [`TreeLoader::intern`]), flags, transform, size and appearance.
    pub fields: NodeFields,
}

/// Where one created instance is, in the arena and in the file.
#[derive(Clone, Copy)]
struct Placed {
    id: Id,
    class: Class,
    /// Index of the instance whose `children` hold this one in the file ([`NONE`]: the
    /// top-level `instances` list).
    file_parent: u32,
    /// Position in that list.
    file_pos: u32,
    /// Children created under this instance so far (tree positions for the binary form).
    children: u32,
}

/// The file's instances by index, with what the loaders look them up by.
struct FileIndex {
    nodes: Vec<Placed>,
    /// Index of the file's `Workspace` entry ([`NONE`]: none yet).
    workspace_index: u32,
    /// Instance index by JSON `ref` number.
    ref_numbers: FxHashMap<u64, u32>,
    /// Component ids of the file's schemas, in file order.
    schemas: Vec<ComponentId>,
    /// `settings.FallenPartsDestroyHeight`, when the file gives it.
    destroy_height: Option<f64>,
}

impl FileIndex {
    /// The file path of instance `index`, e.g. `instances[3].children[0]`.
    fn path(&self, index: u32) -> String {
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

    fn err(&self, index: u32, suffix: &str, message: impl Into<String>) -> PlaceError {
        let mut path = self.path(index);
        if !suffix.is_empty() {
            path.push('.');
            path.push_str(suffix);
        }
        PlaceError::invalid(path, message)
    }

    fn path_of_id(&self, id: Id) -> String {
        match self.nodes.iter().position(|p| p.id == id) {
            Some(i) => self.path(i as u32),
            None => format!("instance {id}"),
        }
    }
}

/// The first stage: registers the file's schemas and creates its instances.
pub(crate) struct TreeLoader {
    build: ArenaBuilder,
    file: FileIndex,
    top_count: u32,
}

impl TreeLoader {
    /// A loader over a fresh server arena, expecting about `capacity` instances.
    pub fn new(capacity: usize) -> Self {
        let build = ArenaBuilder::new(Arena::new()).unwrap_or_else(|_| unreachable!("a new arena is fresh"));
        let file = FileIndex {
            nodes: Vec::with_capacity(capacity.min(1 << 24)),
            workspace_index: NONE,
            ref_numbers: FxHashMap::default(),
            schemas: Vec::new(),
            destroy_height: None,
        };
        TreeLoader { build, file, top_count: 0 }
    }

    /// Interns a name.
    pub fn intern(&mut self, text: &str) -> NameId {
        self.build.intern(text)
    }

    /// The file path of instance `index`, e.g. `instances[3].children[0]`.
    #[cfg(test)]
    pub fn path(&self, index: u32) -> String {
        self.file.path(index)
    }

    /// An error at `suffix` (e.g. `attributes.Speed`) of instance `index`.
    pub fn err(&self, index: u32, suffix: &str, message: impl Into<String>) -> PlaceError {
        self.file.err(index, suffix, message)
    }

    /// Registers schema `i` of the file.
    pub fn register_schema(&mut self, i: usize, doc: &ComponentDoc) -> Result<ComponentId, PlaceError> {
        if self.build.arena().components().component(&doc.name).is_some() {
            return Err(PlaceError::invalid(
                format!("components[{i}].name"),
                format!("component '{}' is declared twice", doc.name),
            ));
        }
        let c = self
            .build
            .register_component(doc.to_schema())
            .map_err(|e| PlaceError::invalid(format!("components[{i}]"), e.to_string()))?;
        self.file.schemas.push(c);
        Ok(c)
    }

    /// Remembers the destroy-height setting (applied before any attribute).
    pub fn set_destroy_height(&mut self, height: Option<f64>) {
        self.file.destroy_height = height;
    }

    /// How many children instance `parent` (or the top level) has received so far.
    pub fn child_count(&self, parent: Option<u32>) -> u32 {
        match parent {
            Some(p) => self.file.nodes[p as usize].children,
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
        let index = u32::try_from(self.file.nodes.len())
            .ok()
            .filter(|&i| i != NONE)
            .ok_or_else(|| PlaceError::invalid("instances", "too many instances"))?;
        // Placed first, so errors below can name this instance.
        self.file.nodes.push(Placed {
            id: Id::NONE,
            class: Class::Folder,
            file_parent: file_parent.unwrap_or(NONE),
            file_pos,
            children: 0,
        });
        let class = file_class(spec.class).map_err(|m| self.err(index, "class", m))?;
        arbor_core::raw::check_name(self.build.arena().names().text(spec.fields.name))
            .map_err(|e| self.err(index, "name", e.to_string()))?;
        let transparency = spec.fields.appearance.transparency;
        if !(0.0..=1.0).contains(&transparency) {
            return Err(self.err(
                index,
                "transparency",
                format!("must be between 0 and 1, got {transparency}"),
            ));
        }
        let parent = tree_parent.map(|p| self.file.nodes[p as usize]);
        let parent_class = parent.map_or(Class::DataModel, |p| p.class);
        let id = if class == Class::Workspace {
            if parent.is_some() {
                return Err(self.err(index, "class", "a Workspace can only be a top-level instance"));
            }
            if self.file.workspace_index != NONE {
                let first = self.file.path(self.file.workspace_index);
                return Err(self.err(index, "class", format!("a second Workspace (the first is {first})")));
            }
            self.file.workspace_index = index;
            self.build.set_workspace_fields(&spec.fields);
            self.build.arena().workspace()
        } else {
            if !class.may_be_child_of(parent_class) {
                return Err(self.err(
                    index,
                    "class",
                    format!("a {class} cannot be a child of a {parent_class}"),
                ));
            }
            self.build
                .create(parent.map(|p| p.id), class, &spec.fields)
                .map_err(|e| self.err(index, "", e.to_string()))?
        };
        match tree_parent {
            Some(p) => self.file.nodes[p as usize].children += 1,
            None => self.top_count += 1,
        }
        self.file.nodes[index as usize] = Placed { id, class, ..self.file.nodes[index as usize] };
        Ok(index)
    }

    /// Gives instance `index` the file-local reference number `n` (JSON `ref`).
    pub fn set_ref_number(&mut self, index: u32, n: u64) -> Result<(), PlaceError> {
        if let Some(&first) = self.file.ref_numbers.get(&n) {
            let first = self.file.path(first);
            return Err(self.err(index, "ref", format!("ref {n} is used twice (first by {first})")));
        }
        self.file.ref_numbers.insert(n, index);
        Ok(())
    }

    /// The index of the instance with reference number `n`.
    pub fn by_ref_number(&self, n: u64) -> Option<u32> {
        self.file.ref_numbers.get(&n).copied()
    }

    /// Ends the creation stage: finishes the bulk build (world membership for everything
    /// under the Workspace) and applies the destroy-height setting, before any attribute.
    pub fn tree_done(self) -> ExtrasLoader {
        let mut arena = self.build.finish();
        let setting_given = self.file.destroy_height.is_some();
        if let Some(h) = self.file.destroy_height {
            let ws = arena.workspace();
            // The Workspace is live and a number needs no target: this cannot fail.
            let _ =
                arena.set_attribute(ws, FALLEN_PARTS_DESTROY_HEIGHT.name, Some(AttributeValue::Number(h)));
        }
        ExtrasLoader { arena, file: self.file, setting_given, given_rows: FxHashSet::default() }
    }
}

/// The second stage: applies each instance's extras to the built tree.
pub(crate) struct ExtrasLoader {
    arena: Arena,
    file: FileIndex,
    setting_given: bool,
    /// (instance, component) rows the file gave, to refuse a second one.
    given_rows: FxHashSet<(u32, u16)>,
}

impl ExtrasLoader {
    /// An error at `suffix` (e.g. `attributes.Speed`) of instance `index`.
    pub fn err(&self, index: u32, suffix: &str, message: impl Into<String>) -> PlaceError {
        self.file.err(index, suffix, message)
    }

    fn arena_err(&self, index: u32, suffix: &str, e: ArenaError) -> PlaceError {
        self.err(index, suffix, e.to_string())
    }

    /// The arena under construction (read-only).
    pub fn arena(&self) -> &Arena {
        &self.arena
    }

    /// The component of the file's schema `i`.
    pub fn schema(&self, i: usize) -> Option<ComponentId> {
        self.file.schemas.get(i).copied()
    }

    /// The component named `name`.
    pub fn component_named(&self, name: &str) -> Option<ComponentId> {
        self.arena.components().component(name)
    }

    /// The runtime id of instance `index`.
    pub fn id(&self, index: u32) -> Id {
        self.file.nodes[index as usize].id
    }

    /// The class of instance `index`.
    pub fn class(&self, index: u32) -> Class {
        self.file.nodes[index as usize].class
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
            Some(n) => match self.file.ref_numbers.get(&n) {
                Some(&i) => Ok(Some(self.id(i))),
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
        match self.file.nodes.get(k as usize - 1) {
            Some(p) => Ok(Some(p.id)),
            None => Err(self.err(
                index,
                &suffix(),
                format!("refers to instance #{} but the file holds {}", k - 1, self.file.nodes.len()),
            )),
        }
    }

    /// Sets attribute `key` of instance `index`.
    pub fn set_attribute(&mut self, index: u32, key: &str, value: AttributeValue) -> Result<(), PlaceError> {
        if index == self.file.workspace_index && self.setting_given && key == FALLEN_PARTS_DESTROY_HEIGHT.name
        {
            return Err(self.err(
                index,
                &format!("attributes.{key}"),
                "also given as settings.FallenPartsDestroyHeight; give it once",
            ));
        }
        if key == RUN_CONTEXT_ATTRIBUTE {
            let suffix = format!("attributes.{key}");
            if self.class(index) != Class::Script {
                let class = self.class(index);
                return Err(self.err(
                    index,
                    &suffix,
                    format!("only a Script has a RunContext, not a {class}"),
                ));
            }
            RunContext::from_attribute(Some(&value)).map_err(|e| self.err(index, &suffix, e.to_string()))?;
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
                let other = self.file.path_of_id(holder);
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
                let other = self.file.path_of_id(holder);
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

    /// The finished arena, with the default destroy height where none was given.
    pub fn finish(mut self) -> Arena {
        let ws = self.arena.workspace();
        if !self.setting_given && self.arena.attribute(ws, FALLEN_PARTS_DESTROY_HEIGHT.name).is_none() {
            let value = AttributeValue::Number(FALLEN_PARTS_DESTROY_HEIGHT.default);
            let _ = self.arena.set_attribute(ws, FALLEN_PARTS_DESTROY_HEIGHT.name, Some(value));
        }
        self.arena
    }
}
