//! Component edits through the arena: registering schemas, adding and removing components
//! (with their requirements and dependents), writing POD bundles (single fields:
//! `component_fields`; batch spawning: `spawn`),
//! and the reverse index of reference fields (chunk passes and ancestry-filtered queries:
//! `component_queries`).
//!
//! Invariants: only live instances have rows; `component_refs[target]` lists exactly the
//! (holder, component, field) whose reference field points at `target`; every write stamps
//! the holder's row tick (or the chunk's bulk revision) with a new global revision; a refused
//! call changes nothing; in an undo scope every change journals the rows or field it
//! replaces (see `undo`) before its first write.

use super::Arena;
use crate::components::{
    ComponentId, ComponentStore, FieldType, FieldValue, LaneValue, PodBundle, PodComponent, RefPolicy,
    RowLoc, Schema, SchemaError, encode,
};
use crate::error::ArenaError;
use crate::id::Id;
use smallvec::SmallVec;
use std::sync::Arc;

/// Holders of reference fields pointing at one target.
pub(crate) type RefHolders = SmallVec<[(Id, ComponentId, u16); 2]>;

impl Arena {
    /// The component store (tables, schemas, queries).
    pub fn components(&self) -> &ComponentStore {
        &self.components
    }

    /// Registers a component schema (the same layout again returns the same id). Schemas are
    /// not world state: a registration inside an undo scope survives its rollback.
    pub fn register_component(&mut self, schema: Schema) -> Result<ComponentId, SchemaError> {
        if let Some(id) = self.components.registry.id(&schema.name)
            && self.components.registry.info(id).schema == schema
        {
            return Ok(id);
        }
        Arc::make_mut(&mut self.components.registry).register(schema)
    }

    /// Registers `T`'s schema and ties the type to it for typed access.
    pub fn register_pod<T: PodComponent>(&mut self) -> Result<ComponentId, SchemaError> {
        let schema = T::schema();
        let name = schema.name.to_string();
        let probe = {
            let mut reg = (*self.components.registry).clone();
            let id = reg.register(schema.clone())?;
            reg.info(id).pod_bytes
        };
        if probe != Some(std::mem::size_of::<T>()) {
            return Err(SchemaError::PodLayout(name));
        }
        let id = self.register_component(schema)?;
        self.components.pod_types.insert(std::any::TypeId::of::<T>(), id);
        Ok(id)
    }

    fn check_values(&self, c: ComponentId, values: &[FieldValue]) -> Result<(), ArenaError> {
        self.components.registry.check_row(c, values)?;
        for v in values {
            if let FieldValue::Ref(Some(t)) = v {
                self.node(*t)?;
            }
        }
        Ok(())
    }

    /// Adds component `c` to `id` with `values` (all fields, in order) or defaults, adding
    /// the components it requires with defaults first. If `id` already has `c`, `values`
    /// (when given) overwrite it; without values the call changes nothing. Returns whether
    /// the component was new.
    pub fn add_component(
        &mut self,
        id: Id,
        c: ComponentId,
        values: Option<&[FieldValue]>,
    ) -> Result<bool, ArenaError> {
        let slot = self.live_slot(id)?;
        let Some(info) = self.components.registry.try_info(c) else {
            return Err(SchemaError::UnknownComponent(format!("#{}", c.0)).into());
        };
        let sparse_set = info.sparse_set;
        if let Some(v) = values {
            self.check_values(c, v)?;
        }
        if let Some(set) = sparse_set {
            return Ok(self.add_sparse_component(id, slot, c, set, values));
        }
        let mut loc = self.components.loc(id);
        // A cached transition (the common case) also tells that the row lacks `c`.
        let mut to = loc.and_then(|l| self.components.cached_neighbour(l.table, c, true));
        let had = to.is_none() && self.components.row_has(loc, c);
        if had && values.is_none() {
            return Ok(false);
        }
        let rev = self.begin_row_edit(id, slot);
        if !self.components.registry.info(c).requires.is_empty() {
            self.add_requirements(id, c, rev);
            loc = self.components.loc(id);
            to = None;
        }
        if !had {
            let to = match to {
                Some(to) => to,
                None => {
                    self.components.neighbour(loc.map(|l| l.table), c, true).expect("adding gives a table")
                }
            };
            let new_loc = self.components.move_row(id, loc, to, rev).expect("row placed");
            if values.is_none() {
                self.write_row_defaults(new_loc, c, rev);
            }
        }
        if let Some(v) = values {
            self.write_row(id, c, v, rev);
        }
        Ok(!had)
    }

    /// Opens an edit of live `id`'s component rows (in `slot`): journals its rows in an undo
    /// scope, then takes a new revision and stamps the node with it. Stamped first (nothing
    /// after reads the node's stamps, and the caller cannot fail from here): the node page
    /// lookups overlap the row move instead of trailing it.
    #[inline(always)]
    fn begin_row_edit(&mut self, id: Id, slot: crate::id::Slot) -> u64 {
        if self.undo.is_some() {
            self.journal_rows(id);
        }
        let rev = self.revisions.bump();
        self.stamp(slot, rev);
        rev
    }

    /// [`add_component`](Self::add_component) for a component in sparse set `set` (checked:
    /// `id` is live in `slot`, `values` fit): its row is appended to the component's set, the
    /// archetype row stays where it is.
    fn add_sparse_component(
        &mut self,
        id: Id,
        slot: crate::id::Slot,
        c: ComponentId,
        set: u32,
        values: Option<&[FieldValue]>,
    ) -> bool {
        let had = self.components.sparse_loc(set, id).is_some();
        if had && values.is_none() {
            return false;
        }
        let rev = self.begin_row_edit(id, slot);
        if !self.components.registry.info(c).requires.is_empty() {
            self.add_requirements(id, c, rev);
        }
        if !had {
            let loc = self.components.sparse_insert_in(set, id, rev);
            if values.is_none() {
                self.write_row_defaults(loc, c, rev);
            }
        }
        if let Some(v) = values {
            self.write_row(id, c, v, rev);
        }
        !had
    }

    /// Gives `id`, which lacks `c`, component `c` with zeroed lanes (its archetype row moved,
    /// or a row in its sparse set); returns where the component's row is.
    fn attach(&mut self, id: Id, c: ComponentId, rev: u64) -> RowLoc {
        if self.components.is_sparse(c) {
            return self.components.sparse_insert(id, c, rev);
        }
        let loc = self.components.loc(id);
        let to = self.components.neighbour(loc.map(|l| l.table), c, true).expect("adding gives a table");
        self.components.move_row(id, loc, to, rev).expect("row placed")
    }

    /// Writes the defaults into component `c` of the row at `loc`, just added (its lanes
    /// zero, its tick `rev`, logged): nothing to write when every default is zero.
    #[inline(always)]
    fn write_row_defaults(&mut self, loc: RowLoc, c: ComponentId, rev: u64) {
        if !self.components.registry.info(c).zero_defaults {
            self.write_nonzero_defaults(loc, c, rev);
        }
    }

    /// [`write_row_defaults`](Self::write_row_defaults) for a component with a nonzero default.
    fn write_nonzero_defaults(&mut self, loc: RowLoc, c: ComponentId, rev: u64) {
        let info = self.components.registry.info(c);
        let lanes: SmallVec<[LaneValue; 8]> =
            info.schema.fields.iter().flat_map(|f| encode(&FieldValue::default_of(f.ty))).collect();
        let table = self.components.tables.make_mut(loc.table as usize);
        let s = table.slot(c).expect("component present");
        table.write_lanes(loc.table_row(), s, lanes, rev);
    }

    /// Writes a full, checked row and keeps the reverse reference index in step.
    fn write_row(&mut self, id: Id, c: ComponentId, values: &[FieldValue], rev: u64) {
        for (f, v) in values.iter().enumerate() {
            self.write_field_unchecked(id, c, f, v, rev);
        }
    }

    /// Writes `value` into field `field` of `id`'s component `c` (which it has, checked by the
    /// caller), keeping the reverse reference index in step; also undo's restore of a field.
    pub(super) fn write_field_unchecked(
        &mut self,
        id: Id,
        c: ComponentId,
        field: usize,
        value: &FieldValue,
        rev: u64,
    ) {
        let info = self.components.registry.info(c);
        let first = info.field_lanes[field];
        if info.schema.fields[field].ty == FieldType::InstanceRef {
            if let Some(FieldValue::Ref(Some(old))) = self.components.field(id, c, field) {
                remove_holder(&mut self.component_refs, old, (id, c, field as u16));
            }
            if let FieldValue::Ref(Some(new)) = value {
                self.component_refs.entry(*new).or_default().push((id, c, field as u16));
            }
        }
        let loc = self.components.loc_of(id, c).expect("row exists");
        let table = self.components.tables.make_mut(loc.table as usize);
        let s = table.slot(c).expect("component present");
        for (k, lane) in encode(value).into_iter().enumerate() {
            table.write_lane(loc.table_row(), s, first + k, lane, rev);
        }
    }

    /// Removes component `c` from `id`, together with every component on `id` that requires
    /// it. Returns whether `id` had `c`.
    pub fn remove_component(&mut self, id: Id, c: ComponentId) -> Result<bool, ArenaError> {
        let slot = self.live_slot(id)?;
        if let Some(set) = self.components.registry.try_info(c).and_then(|i| i.sparse_set) {
            let Some(loc) = self.components.sparse_loc(set, id) else { return Ok(false) };
            let rev = self.begin_row_edit(id, slot);
            if self.components.registry.dependents(c).is_empty() {
                self.drop_refs_of(id, c);
                self.components.sparse_remove_at(set, id, loc, rev);
            } else {
                self.remove_component_at(id, c, rev);
            }
            return Ok(true);
        }
        let Some(loc) = self.components.loc(id) else { return Ok(false) };
        // A cached transition (the common case) also tells that the row has `c`.
        let to = self.components.cached_neighbour(loc.table, c, false);
        if to.is_none() && !self.components.row_has(Some(loc), c) {
            return Ok(false);
        }
        let rev = self.begin_row_edit(id, slot);
        if self.components.registry.dependents(c).is_empty() {
            self.remove_component_from(id, loc, c, to, rev);
        } else {
            self.remove_component_at(id, c, rev);
        }
        Ok(true)
    }

    fn remove_component_at(&mut self, id: Id, c: ComponentId, rev: u64) {
        let mut doomed: SmallVec<[ComponentId; 4]> = self.components.registry.dependents(c).into();
        doomed.push(c);
        for d in doomed {
            if self.components.has(id, d) {
                self.detach(id, d, rev);
            }
        }
    }

    /// Removes component `c`, which `id` has, from `id` (and its reference-index entries).
    fn detach(&mut self, id: Id, c: ComponentId, rev: u64) {
        if self.components.is_sparse(c) {
            self.drop_refs_of(id, c);
            self.components.sparse_remove(id, c, rev);
        } else {
            let loc = self.components.loc(id).expect("a table component has a row");
            self.remove_component_from(id, loc, c, None, rev);
        }
    }

    /// Removes component `c` from `id`'s row at `loc`, which has it, moving the row to table
    /// `to` when the caller already found the cached transition.
    fn remove_component_from(&mut self, id: Id, loc: RowLoc, c: ComponentId, to: Option<u32>, rev: u64) {
        self.drop_refs_of(id, c);
        let to = match to {
            Some(to) => to,
            None => self.components.neighbour(Some(loc.table), c, false).expect("had a table"),
        };
        self.components.move_row(id, Some(loc), to, rev);
    }

    /// Removes `holder`'s component `c` reference fields from the reverse index.
    #[inline]
    fn drop_refs_of(&mut self, holder: Id, c: ComponentId) {
        if self.components.registry.info(c).has_refs {
            self.drop_ref_fields_of(holder, c);
        }
    }

    /// [`drop_refs_of`](Self::drop_refs_of) for a component with reference fields.
    fn drop_ref_fields_of(&mut self, holder: Id, c: ComponentId) {
        let info = self.components.registry.info(c);
        for (f, def) in info.schema.fields.iter().enumerate() {
            if def.ty == FieldType::InstanceRef
                && let Some(FieldValue::Ref(Some(t))) = self.components.field(holder, c, f)
            {
                remove_holder(&mut self.component_refs, t, (holder, c, f as u16));
            }
        }
    }

    /// Holders of component reference fields pointing at `target`.
    pub fn component_referrers(&self, target: Id) -> impl Iterator<Item = (Id, ComponentId, u16)> + '_ {
        self.component_refs.get(&target).into_iter().flatten().copied()
    }

    /// Inserts (or overwrites) the POD components of `bundle` on `id`, adding the components
    /// they require with defaults first. Their types must be registered with
    /// [`register_pod`](Self::register_pod).
    pub fn insert_pod<B: PodBundle>(&mut self, id: Id, bundle: &B) -> Result<(), ArenaError> {
        let slot = self.live_slot(id)?;
        let ids = self.pod_ids::<B>()?;
        let rev = self.begin_row_edit(id, slot);
        self.write_bundle(id, &ids, bundle, rev);
        Ok(())
    }

    /// Writes `bundle` (whose component ids are `ids`) on live `id` at revision `rev`, adding
    /// what it lacks (and the requirements, with defaults).
    pub(super) fn write_bundle<B: PodBundle>(&mut self, id: Id, ids: &[ComponentId], bundle: &B, rev: u64) {
        let mut loc = self.components.loc(id);
        for (&c, bytes) in ids.iter().zip(bundle.bytes()) {
            if !self.components.registry.info(c).requires.is_empty() {
                self.add_requirements(id, c, rev);
                loc = self.components.loc(id);
            }
            if self.components.is_sparse(c) {
                let (at, added) = match self.components.loc_of(id, c) {
                    Some(at) => (at, false),
                    None => (self.components.sparse_insert(id, c, rev), true),
                };
                self.write_pod_bytes(at, c, bytes, rev, !added);
                continue;
            }
            // A component just added has its tick `rev` and its row logged at `rev` already.
            let added = !self.components.row_has(loc, c);
            if added {
                let to =
                    self.components.neighbour(loc.map(|l| l.table), c, true).expect("adding gives a table");
                loc = self.components.move_row(id, loc, to, rev);
            }
            self.write_pod_bytes(loc.expect("row placed"), c, bytes, rev, !added);
        }
    }

    /// Gives `id` the components `c` requires that it lacks, with defaults.
    pub(super) fn add_requirements(&mut self, id: Id, c: ComponentId, rev: u64) {
        for i in 0..self.components.registry.info(c).requires.len() {
            let r = self.components.registry.info(c).requires[i];
            if !self.components.has(id, r) {
                let at = self.attach(id, r, rev);
                self.write_row_defaults(at, r, rev);
            }
        }
    }

    /// The component ids of `B`'s types. The schemas (built afresh by each call of
    /// `B::schemas`) are only built to name a type that was never registered.
    pub(super) fn pod_ids<B: PodBundle>(&self) -> Result<SmallVec<[ComponentId; 4]>, ArenaError> {
        B::type_ids()
            .iter()
            .enumerate()
            .map(|(i, t)| self.components.pod_types.get(t).copied().ok_or_else(|| unregistered_pod::<B>(i)))
            .collect()
    }

    /// Writes `bytes` into component `c` of the row at `loc`, stamping its tick and logging
    /// the row if `stamp` (a component added at `rev` by this call needs neither).
    fn write_pod_bytes(&mut self, loc: RowLoc, c: ComponentId, bytes: &[u8], rev: u64, stamp: bool) {
        let kinds = &self.components.registry.info(c).lane_kinds;
        let table = self.components.tables.make_mut(loc.table as usize);
        let s = table.slot(c).expect("component present");
        let mut at = 0;
        let lanes = kinds.iter().map(|k| {
            let n = if *k == crate::components::LaneKind::W64 { 8 } else { 4 };
            let mut w = [0u8; 8];
            w[..n].copy_from_slice(&bytes[at..at + n]);
            at += n;
            LaneValue::Word(u64::from_le_bytes(w))
        });
        if stamp {
            table.write_lanes(loc.table_row(), s, lanes, rev);
        } else {
            table.write_lanes_unstamped(loc.table_row(), s, lanes, rev);
        }
    }

    // ---- hooks used by destroy, clone and graft ----

    /// Removes every row of `id` (destruction), dropping its reference-index entries.
    pub(crate) fn remove_all_components(&mut self, id: Id, rev: u64) {
        if !self.components.sparse.is_empty() {
            for c in self.components.sparse_components_of(id) {
                self.drop_refs_of(id, c);
                self.components.sparse_remove(id, c, rev);
            }
        }
        let Some(loc) = self.components.loc(id) else { return };
        let comps: SmallVec<[ComponentId; 8]> =
            self.components.tables[loc.table as usize].components.iter().copied().collect();
        for c in comps {
            self.drop_refs_of(id, c);
        }
        self.components.move_row(id, Some(loc), u32::MAX, rev);
    }

    /// Applies the reference policies for destroyed `target`: live holders get the field
    /// cleared, the component removed, or are returned to be destroyed (a holder that cannot
    /// be destroyed gets the field cleared).
    pub(crate) fn apply_component_ref_policies(&mut self, target: Id, rev: u64, destroy: &mut Vec<Id>) {
        let Some(holders) = self.component_refs.remove(&target) else { return };
        for (holder, c, f) in holders {
            if self.get(holder).is_none() || !self.components.has(holder, c) {
                continue;
            }
            let policy = self.components.registry.info(c).schema.fields[f as usize].on_destroy;
            let cascade = policy == RefPolicy::DestroyHolder && self.can_destroy(holder);
            if !cascade && self.undo.is_some() {
                self.journal_rows(holder);
            }
            match policy {
                // A holder that cannot be destroyed has the field cleared instead of keeping
                // a reference to a destroyed instance outside the reverse index.
                RefPolicy::DestroyHolder if cascade => destroy.push(holder),
                RefPolicy::ClearField | RefPolicy::DestroyHolder => {
                    let loc = self.components.loc_of(holder, c).expect("row");
                    let table = self.components.tables.make_mut(loc.table as usize);
                    let s = table.slot(c).expect("component");
                    let first = self.components.registry.info(c).field_lanes[f as usize];
                    table.write_lane(loc.table_row(), s, first, LaneValue::Word(0), rev);
                }
                RefPolicy::RemoveComponent => self.remove_component_at(holder, c, rev),
            }
            let slot = self.slot_of(holder);
            self.stamp(slot, rev);
        }
    }

    /// Gives live `id` exactly the component rows `rows` (sorted by component, as
    /// [`rows_of`](Self::rows_of) lists them), keeping the reverse reference index in step:
    /// in place when the component set is the same, else by moving the row (undo).
    pub(super) fn restore_rows(&mut self, id: Id, rows: &[(ComponentId, Vec<FieldValue>)], rev: u64) {
        let same = self.components.components_of(id).iter().copied().eq(rows.iter().map(|(c, _)| *c));
        if same {
            for (c, values) in rows {
                self.write_row(id, *c, values, rev);
            }
        } else {
            self.remove_all_components(id, rev);
            self.insert_copied_rows(id, rows, rev);
        }
    }

    /// The components of `source` in `store` as (component, values) rows, for copying.
    pub(crate) fn rows_of(store: &ComponentStore, source: Id) -> Vec<(ComponentId, Vec<FieldValue>)> {
        store.components_of(source).iter().filter_map(|&c| Some((c, store.row(source, c)?))).collect()
    }

    /// Inserts copied rows on a freshly created `id` (no validation: the source was valid and
    /// references were already remapped).
    pub(crate) fn insert_copied_rows(&mut self, id: Id, rows: &[(ComponentId, Vec<FieldValue>)], rev: u64) {
        if rows.is_empty() {
            return;
        }
        let mut set: SmallVec<[ComponentId; 8]> = rows.iter().map(|(c, _)| *c).collect();
        set.sort();
        set.retain(|c| {
            let sparse = self.components.is_sparse(*c);
            if sparse {
                self.components.sparse_insert(id, *c, rev);
            }
            !sparse
        });
        if !set.is_empty() {
            let table = self.components.table_for(&set);
            self.components.move_row(id, None, table, rev);
        }
        for (c, values) in rows {
            self.write_row(id, *c, values, rev);
        }
    }
}

/// The error for `B`'s `i`-th type never having been registered (out of line: it builds the
/// bundle's schemas to name the type).
#[cold]
#[inline(never)]
fn unregistered_pod<B: PodBundle>(i: usize) -> ArenaError {
    SchemaError::UnknownComponent(B::schemas()[i].name.to_string()).into()
}

fn remove_holder(
    refs: &mut rustc_hash::FxHashMap<Id, RefHolders>,
    target: Id,
    entry: (Id, ComponentId, u16),
) {
    if let Some(list) = refs.get_mut(&target) {
        if let Some(p) = list.iter().position(|e| *e == entry) {
            list.swap_remove(p);
        }
        if list.is_empty() {
            refs.remove(&target);
        }
    }
}

#[cfg(test)]
#[path = "component_tests.rs"]
pub(super) mod tests;
