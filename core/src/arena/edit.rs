//! Property edits: typed setters (compare first, so a no-op write changes no revision),
//! generic mutable access ([`NodeMut`], which conservatively marks the node written before
//! returning it), attributes, references, tags, handles and persistent ids.
//!
//! Invariants: every write stamps the node with one new global revision and feeds the
//! revision domains its class and field touch; transform writes queue the node as
//! transform-dirty; index entries (tags, handles, persistent ids, reverse references) change
//! together with the node state they mirror; in an undo scope every write journals the state
//! it replaces (see `undo`) after its validation, before its first write.

use super::Arena;
use super::undo::UndoEntry;
use crate::class::Class;
use crate::error::ArenaError;
use crate::id::{Id, Slot};
use crate::nodes::hot::LocalTransform;
use crate::nodes::page::NodePage;
use crate::value::{Appearance, AttributeValue, NodeFlags, PersistentId, RefField};
use glam::{Quat, Vec3};

/// Most attributes one instance holds: attributes are a short list searched in order, so a
/// bound keeps every attribute operation cheap (300,000 of them on one instance once took
/// 38 s to set).
pub const MAX_ATTRIBUTES: usize = 4_096;

/// Which revision domains a field write feeds beyond the node's own revision.
#[derive(Clone, Copy)]
struct Effects {
    transform: bool,
    collision: bool,
}

const PLAIN: Effects = Effects { transform: false, collision: false };
const TRANSFORM: Effects = Effects { transform: true, collision: false };
const COLLISION: Effects = Effects { transform: false, collision: true };

/// Generic mutable access to one node's built-in state. The node was already marked written
/// (revision, part-write log, collision and transform-dirty) when this was handed out.
pub struct NodeMut<'a> {
    page: &'a mut NodePage,
    i: usize,
}

impl NodeMut<'_> {
    /// The node's id.
    pub fn id(&self) -> Id {
        self.page.hot[self.i].id
    }
    /// Local transform.
    pub fn transform(&mut self) -> &mut LocalTransform {
        &mut self.page.hot[self.i].local
    }
    /// Size.
    pub fn size(&mut self) -> &mut Vec3 {
        &mut self.page.sizes[self.i]
    }
    /// Colour, material, shape, transparency.
    pub fn appearance(&mut self) -> &mut Appearance {
        &mut self.page.appearances[self.i]
    }
    /// Sets or clears a user flag (anchored, can-collide, archivable, transient); structural
    /// flags are ignored.
    pub fn set_flag(&mut self, flag: NodeFlags, on: bool) {
        if NodeFlags::USER.contains(flag) {
            self.page.hot[self.i].flags.set(flag, on);
        }
    }
}

impl Arena {
    /// Mutable access to `id`'s built-in state, marking it written first (even if the caller
    /// then changes nothing). In an undo scope the built-in state is journaled first.
    pub fn node_mut(&mut self, id: Id) -> Result<NodeMut<'_>, ArenaError> {
        let slot = self.live_slot(id)?;
        if self.undo.is_some() {
            self.journal_builtin(slot);
        }
        let rev = self.revisions.bump();
        self.after_write(slot, rev, Effects { transform: true, collision: true });
        let (page, i) = self.page_mut(slot);
        Ok(NodeMut { page, i })
    }

    /// Marks the node in `slot`, whose built-in state an undo restored, written at `rev`.
    pub(super) fn restored_builtin(&mut self, slot: Slot, rev: u64) {
        self.after_write(slot, rev, Effects { transform: true, collision: true });
    }

    fn after_write(&mut self, slot: Slot, rev: u64, effects: Effects) {
        self.stamp(slot, rev);
        let node = self.read(slot);
        let (id, class, flags) = (node.id(), node.class(), node.flags());
        if effects.transform {
            self.dirty_transforms.push(id);
            self.log_container_move(slot, rev);
        }
        if effects.collision && class == Class::Part && flags.contains(NodeFlags::IN_WORLD) {
            self.revisions.collision = rev;
        }
    }

    /// Writes one field if it differs: `read` gets the current value, `write` stores it.
    fn write_field<T: PartialEq + Copy>(
        &mut self,
        id: Id,
        value: T,
        read: impl Fn(&NodePage, usize) -> T,
        write: impl Fn(&mut NodePage, usize, T),
        effects: Effects,
    ) -> Result<bool, ArenaError> {
        let slot = self.live_slot(id)?;
        let (page, i) = self.store.table.page(slot.0).expect("live slot");
        if read(page, i) == value {
            return Ok(false);
        }
        if self.undo.is_some() {
            self.journal_builtin(slot);
        }
        let rev = self.revisions.bump();
        let (page, i) = self.page_mut(slot);
        write(page, i, value);
        self.after_write(slot, rev, effects);
        Ok(true)
    }

    /// Renames `id`, interning the name. Returns whether it changed.
    pub fn set_name(&mut self, id: Id, name: &str) -> Result<bool, ArenaError> {
        self.live_slot(id)?;
        crate::names::check_name(name)?;
        let name = self.intern_admitted(name)?;
        self.write_field(id, name, |p, i| p.names[i], |p, i, v| p.names[i] = v, PLAIN)
    }

    /// Sets the local position. Returns whether it changed.
    pub fn set_position(&mut self, id: Id, position: Vec3) -> Result<bool, ArenaError> {
        self.write_field(
            id,
            position,
            |p, i| p.hot[i].local.position,
            |p, i, v| p.hot[i].local.position = v,
            TRANSFORM,
        )
    }

    /// Sets the local rotation. Returns whether it changed.
    pub fn set_rotation(&mut self, id: Id, rotation: Quat) -> Result<bool, ArenaError> {
        self.write_field(
            id,
            rotation,
            |p, i| p.hot[i].local.rotation,
            |p, i, v| p.hot[i].local.rotation = v,
            TRANSFORM,
        )
    }

    /// Sets the whole local transform. Returns whether it changed.
    pub fn set_transform(&mut self, id: Id, transform: LocalTransform) -> Result<bool, ArenaError> {
        self.write_field(id, transform, |p, i| p.hot[i].local, |p, i, v| p.hot[i].local = v, TRANSFORM)
    }

    /// Sets the size. Returns whether it changed.
    pub fn set_size(&mut self, id: Id, size: Vec3) -> Result<bool, ArenaError> {
        self.write_field(id, size, |p, i| p.sizes[i], |p, i, v| p.sizes[i] = v, COLLISION)
    }

    /// Sets colour, material, shape and transparency (clamped to 0..=1, NaN read as 0).
    /// Returns whether anything changed.
    pub fn set_appearance(&mut self, id: Id, appearance: Appearance) -> Result<bool, ArenaError> {
        let appearance = appearance.stored();
        let shape_changed = self.node(id)?.appearance().shape != appearance.shape;
        let effects = if shape_changed { COLLISION } else { PLAIN };
        self.write_field(id, appearance, |p, i| p.appearances[i], |p, i, v| p.appearances[i] = v, effects)
    }

    /// Sets or clears a user flag: `ANCHORED`, `CAN_COLLIDE`, `ARCHIVABLE` or `TRANSIENT`.
    /// Other flags are structural; asking for one changes nothing and returns `false`.
    pub fn set_flag(&mut self, id: Id, flag: NodeFlags, on: bool) -> Result<bool, ArenaError> {
        if !NodeFlags::USER.contains(flag) || flag.0.count_ones() != 1 {
            self.live_slot(id)?;
            return Ok(false);
        }
        let collision = flag == NodeFlags::ANCHORED || flag == NodeFlags::CAN_COLLIDE;
        self.write_field(
            id,
            on,
            |p, i| p.hot[i].flags.contains(flag),
            |p, i, v| p.hot[i].flags.set(flag, v),
            if collision { COLLISION } else { PLAIN },
        )
    }

    /// Sets whether `id` belongs to the platform (engine use: scripts may then neither move
    /// nor destroy it, nor parent anything into it).
    pub fn set_platform_owned(&mut self, id: Id, owned: bool) -> Result<bool, ArenaError> {
        self.write_field(
            id,
            owned,
            |p, i| p.hot[i].flags.contains(NodeFlags::PLATFORM_OWNED),
            |p, i, v| p.hot[i].flags.set(NodeFlags::PLATFORM_OWNED, v),
            PLAIN,
        )
    }

    /// Sets attribute `name` (`None` removes it). A reference must name a live instance.
    /// Returns whether anything changed.
    pub fn set_attribute(
        &mut self,
        id: Id,
        name: &str,
        value: Option<AttributeValue>,
    ) -> Result<bool, ArenaError> {
        let slot = self.live_slot(id)?;
        if let Some(target) = value.as_ref().and_then(AttributeValue::referenced) {
            self.node(target)?;
        }
        if value.is_some() {
            let node = self.read(slot);
            let held = node.extras().attributes.len();
            if held >= MAX_ATTRIBUTES && self.names.find(name).is_none_or(|k| node.attribute(k).is_none()) {
                return Err(ArenaError::TooManyAttributes { id, max: MAX_ATTRIBUTES });
            }
        }
        let key = match (self.names.find(name), &value) {
            (Some(k), _) => k,
            (None, None) => return Ok(false),
            (None, Some(_)) => self.intern_admitted(name)?,
        };
        let current = self.read(slot).attribute(key).cloned();
        if current == value {
            return Ok(false);
        }
        if let Some(AttributeValue::String(s)) = &value {
            self.admit_text(s.len())?;
        }
        if self.undo.is_some() {
            let pos = self.read(slot).extras().attributes.iter().position(|(n, _)| *n == key);
            let old = pos.zip(current.clone()).map(|(p, v)| (p as u32, v));
            self.push_undo(UndoEntry::Attribute { id, key, old });
        }
        if let Some(old) = current.as_ref().and_then(AttributeValue::referenced) {
            self.indexes.ref_remove(old, id, RefField::Attribute(key));
        }
        if let Some(new) = value.as_ref().and_then(AttributeValue::referenced) {
            self.indexes.ref_insert(new, id, RefField::Attribute(key));
        }
        let rev = self.revisions.bump();
        let (page, i) = self.page_mut(slot);
        let extras = page.extras_mut(i);
        let pos = extras.attributes.iter().position(|(n, _)| *n == key);
        match (pos, value) {
            (Some(p), Some(v)) => extras.attributes[p].1 = v,
            (Some(p), None) => {
                extras.attributes.remove(p);
            }
            (None, Some(v)) => extras.attributes.push((key, v)),
            (None, None) => {}
        }
        page.trim_extras(i);
        self.after_write(slot, rev, PLAIN);
        Ok(true)
    }

    /// The value of attribute `name` on live node `id`.
    pub fn attribute(&self, id: Id, name: &str) -> Option<&AttributeValue> {
        let key = self.names.find(name)?;
        self.get(id)?.attribute(key)
    }

    /// Sets class reference property `index` of `id` (`ObjectValue.Value` is 0,
    /// `Weld.Part0`/`Part1` are 0 and 1). A target must be live. Returns whether it changed.
    pub fn set_reference(&mut self, id: Id, index: usize, target: Option<Id>) -> Result<bool, ArenaError> {
        let slot = self.live_slot(id)?;
        let node = self.read(slot);
        let class = node.class();
        if index >= class.reference_properties().len() {
            return Err(ArenaError::NoSuchReference { class, index });
        }
        if let Some(t) = target {
            self.node(t)?;
        }
        let current = node.reference(index);
        if current == target {
            return Ok(false);
        }
        let field = RefField::Builtin(index as u8);
        self.journal(|_| UndoEntry::Reference { id, index: index as u8, old: current });
        if let Some(old) = current {
            self.indexes.ref_remove(old, id, field);
        }
        if let Some(new) = target {
            self.indexes.ref_insert(new, id, field);
        }
        let rev = self.revisions.bump();
        let (page, i) = self.page_mut(slot);
        page.extras_mut(i).refs[index] = target;
        page.trim_extras(i);
        self.after_write(slot, rev, if class == Class::Weld { COLLISION } else { PLAIN });
        Ok(true)
    }

    /// Live nodes referring to `target` through a reference property or attribute.
    pub fn referrers(&self, target: Id) -> impl Iterator<Item = (Id, RefField)> + '_ {
        self.indexes.refs.get(&target).into_iter().flatten().copied()
    }

    /// Adds tag `tag` to `id`. Returns whether it was new.
    pub fn add_tag(&mut self, id: Id, tag: &str) -> Result<bool, ArenaError> {
        self.edit_tag(id, tag, true)
    }

    /// Removes tag `tag` from `id`. Returns whether it was present.
    pub fn remove_tag(&mut self, id: Id, tag: &str) -> Result<bool, ArenaError> {
        self.edit_tag(id, tag, false)
    }

    fn edit_tag(&mut self, id: Id, tag: &str, add: bool) -> Result<bool, ArenaError> {
        let slot = self.live_slot(id)?;
        let key = match self.names.find(tag) {
            Some(k) => k,
            None if add => self.intern(tag),
            None => return Ok(false),
        };
        if self.read(slot).has_tag(key) == add {
            return Ok(false);
        }
        self.journal(|_| UndoEntry::Tag { id, key, added: add });
        let rev = self.revisions.bump();
        let (page, i) = self.page_mut(slot);
        let tags = &mut page.extras_mut(i).tags;
        match tags.binary_search(&key) {
            Err(pos) if add => tags.insert(pos, key),
            Ok(pos) if !add => {
                tags.remove(pos);
            }
            _ => {}
        }
        page.trim_extras(i);
        if add {
            self.indexes.tag_insert(key, id);
        } else {
            self.indexes.tag_remove(key, id);
        }
        self.revisions.tags = rev;
        self.after_write(slot, rev, PLAIN);
        Ok(true)
    }

    /// Live nodes carrying `tag`, in id order.
    pub fn tagged(&self, tag: &str) -> impl Iterator<Item = Id> + '_ {
        self.names.find(tag).and_then(|k| self.indexes.tags.get(&k)).into_iter().flatten().copied()
    }

    /// Registers `id` under handle name `handle` (`None` removes its handle). A handle keeps
    /// resolving wherever the node moves; it is dropped when the node is destroyed.
    pub fn set_handle(&mut self, id: Id, handle: Option<&str>) -> Result<bool, ArenaError> {
        let slot = self.live_slot(id)?;
        let key = handle.map(|h| self.intern(h));
        if let Some(k) = key
            && let Some(&holder) = self.indexes.handles.get(&k)
            && holder != id
        {
            return Err(ArenaError::HandleTaken { name: self.names.text(k).to_owned(), holder });
        }
        let current = self.read(slot).extras().handle;
        if current == key {
            return Ok(false);
        }
        self.journal(|_| UndoEntry::Handle { id, old: current });
        if let Some(old) = current {
            self.indexes.handles.remove(&old);
        }
        if let Some(k) = key {
            self.indexes.handles.insert(k, id);
        }
        let rev = self.revisions.bump();
        let (page, i) = self.page_mut(slot);
        page.extras_mut(i).handle = key;
        page.trim_extras(i);
        self.after_write(slot, rev, PLAIN);
        Ok(true)
    }

    /// The live node registered under handle `name`: one hash and one probe sequence,
    /// whatever the node's depth.
    pub fn handle(&self, name: &str) -> Option<Id> {
        self.indexes.handles.get(&self.names.find(name)?).copied()
    }

    /// Every registered handle name and its node.
    pub fn handles(&self) -> impl Iterator<Item = (&str, Id)> + '_ {
        self.indexes.handles.iter().map(|(k, v)| (self.names.text(*k), *v))
    }

    /// `id`'s persistent id, assigning a fresh unique one on first request.
    pub fn persistent_id(&mut self, id: Id) -> Result<PersistentId, ArenaError> {
        let slot = self.live_slot(id)?;
        if let Some(p) = self.read(slot).persistent_id() {
            return Ok(p);
        }
        let pid = loop {
            let candidate = PersistentId(self.rng.next_u128());
            if !self.indexes.persistent.contains_key(&candidate) {
                break candidate;
            }
        };
        self.assign_persistent_id(slot, id, pid);
        Ok(pid)
    }

    /// Gives `id` a known persistent id (place loading). Fails if a live node holds it.
    pub fn set_persistent_id(&mut self, id: Id, pid: PersistentId) -> Result<bool, ArenaError> {
        let slot = self.live_slot(id)?;
        match self.indexes.persistent.get(&pid) {
            Some(&holder) if holder == id => return Ok(false),
            Some(&holder) => return Err(ArenaError::IdInUse(holder)),
            None => {}
        }
        if let Some(old) = self.read(slot).persistent_id() {
            self.indexes.persistent.remove(&old);
        }
        self.assign_persistent_id(slot, id, pid);
        Ok(true)
    }

    fn assign_persistent_id(&mut self, slot: Slot, id: Id, pid: PersistentId) {
        // `set_persistent_id` dropped the old id from the index, not from the node.
        self.journal(|a| UndoEntry::Persistent { id, old: a.read(slot).persistent_id() });
        self.indexes.persistent.insert(pid, id);
        let rev = self.revisions.bump();
        let (page, i) = self.page_mut(slot);
        page.extras_mut(i).persistent_id = Some(pid);
        self.after_write(slot, rev, PLAIN);
    }

    /// Sets the Luau source of a `Script` (other classes hold no source).
    pub fn set_script_source(&mut self, id: Id, source: &str) -> Result<bool, ArenaError> {
        let slot = self.live_slot(id)?;
        let node = self.read(slot);
        if node.class() != Class::Script {
            return Err(ArenaError::NotAScript(id));
        }
        if node.extras().source.as_deref() == Some(source) {
            return Ok(false);
        }
        self.journal(|a| UndoEntry::Source { id, old: a.read(slot).extras().source.clone() });
        let rev = self.revisions.bump();
        let (page, i) = self.page_mut(slot);
        page.extras_mut(i).source = Some(source.into());
        self.after_write(slot, rev, PLAIN);
        Ok(true)
    }

    /// The Luau source of script `id` (empty if never set).
    pub fn script_source(&self, id: Id) -> Option<&str> {
        let node = self.get(id)?;
        (node.class() == Class::Script).then(|| node.extras().source.as_deref().unwrap_or(""))
    }

    /// The live node carrying persistent id `pid`.
    pub fn find_persistent(&self, pid: PersistentId) -> Option<Id> {
        self.indexes.persistent.get(&pid).copied()
    }
}
