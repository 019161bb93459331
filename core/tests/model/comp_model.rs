//! The component part of the model: its registry, rows with the revision of their last
//! write, and what each component call does to them (register, add, remove, set a field,
//! insert POD bundles, chunk passes, reference policies when a target is destroyed, schema
//! adoption by grafts).

use crate::comp_schemas::{LaneOp, PassSpec};
use crate::model::Model;
use arbor_core::{
    ArenaError, Id,
    components::{ComponentId, FieldType, FieldValue, RefPolicy, Schema, SchemaError},
};
use std::collections::BTreeSet;

/// One component row: its field values and the revision of its last write (single-row or
/// through a chunk pass).
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct MRow {
    pub(crate) values: Vec<FieldValue>,
    pub(crate) rev: u64,
}

/// The field holding lane `lane` of `schema`, and the lane's index within the field.
fn field_of_lane(schema: &Schema, lane: u16) -> Option<(usize, usize)> {
    let mut at = 0;
    for (f, def) in schema.fields.iter().enumerate() {
        let n = def.ty.lanes().0;
        if (lane as usize) < at + n {
            return Some((f, lane as usize - at));
        }
        at += n;
    }
    None
}

/// The 32-bit word lane `j` of `v` holds.
pub(crate) fn lane_word(v: &FieldValue, j: usize) -> u32 {
    match v {
        FieldValue::Bool(b) => *b as u32,
        FieldValue::I32(x) => *x as u32,
        FieldValue::F32(x) => x.to_bits(),
        FieldValue::Vector3(v) => v.to_array()[j].to_bits(),
        FieldValue::Quaternion(q) => q.to_array()[j].to_bits(),
        other => panic!("{other:?} has no 32-bit lane"),
    }
}

fn apply_lane_op(v: &mut FieldValue, j: usize, op: LaneOp) {
    match (v, op) {
        (FieldValue::I32(x), LaneOp::AddI32) => *x = x.wrapping_add(1),
        (FieldValue::F32(x), LaneOp::AddF32) => *x += 1.0,
        (FieldValue::F64(x), LaneOp::AddF64) => *x += 0.5,
        (FieldValue::Vector3(v), LaneOp::AddF32) => v[j] += 1.0,
        (v, op) => panic!("pass spec applies {op:?} to {v:?}"),
    }
}

fn schema_error(e: SchemaError) -> ArenaError {
    ArenaError::Component(e)
}

impl Model {
    /// The id of component `name`, if registered.
    pub(crate) fn cid(&self, name: &str) -> Option<u16> {
        self.schemas.iter().position(|s| &*s.name == name).map(|i| i as u16)
    }

    /// The arena's id for `name`, or an id no schema has.
    pub(crate) fn comp_id(&self, name: &str) -> ComponentId {
        ComponentId(self.cid(name).unwrap_or(self.schemas.len() as u16 + 7))
    }

    pub(crate) fn schema(&self, c: u16) -> &Schema {
        &self.schemas[c as usize]
    }

    /// The components `c` requires, transitively, sorted.
    pub(crate) fn requires_of(&self, c: u16) -> Vec<u16> {
        let mut out = BTreeSet::new();
        for r in &self.schema(c).requires {
            let r = self.cid(r).expect("requirements are registered first");
            out.insert(r);
            out.extend(self.requires_of(r));
        }
        out.into_iter().collect()
    }

    /// The components that require `c`, transitively.
    pub(crate) fn dependents_of(&self, c: u16) -> Vec<u16> {
        (0..self.schemas.len() as u16).filter(|&d| self.requires_of(d).contains(&c)).collect()
    }

    pub(crate) fn has(&self, id: Id, c: u16) -> bool {
        self.nodes.get(&id).is_some_and(|n| n.comps.contains_key(&c))
    }

    /// `Arena::register_component`.
    pub(crate) fn register(&mut self, schema: Schema) -> Result<ComponentId, SchemaError> {
        if let Some(c) = self.cid(&schema.name) {
            return if *self.schema(c) == schema {
                Ok(ComponentId(c))
            } else {
                Err(SchemaError::LayoutConflict(schema.name.to_string()))
            };
        }
        for (k, f) in schema.fields.iter().enumerate() {
            if schema.fields[..k].iter().any(|g| g.name == f.name) {
                return Err(SchemaError::DuplicateField {
                    component: schema.name.to_string(),
                    field: f.name.to_string(),
                });
            }
        }
        if let Some(r) = schema.requires.iter().find(|r| self.cid(r).is_none()) {
            return Err(SchemaError::UnknownRequirement {
                component: schema.name.to_string(),
                required: r.to_string(),
            });
        }
        self.schemas.push(schema);
        Ok(ComponentId(self.schemas.len() as u16 - 1))
    }

    /// `Arena::register_pod`: the schema must register, and every field must be a plain
    /// word (no strings, no references).
    pub(crate) fn register_pod(&mut self, schema: Schema) -> Result<ComponentId, SchemaError> {
        self.clone().register(schema.clone())?;
        let plain = schema.fields.iter().all(|f| !matches!(f.ty, FieldType::String | FieldType::InstanceRef));
        if !plain {
            return Err(SchemaError::PodLayout(schema.name.to_string()));
        }
        let name = schema.name.to_string();
        let id = self.register(schema)?;
        self.pods.insert(name);
        Ok(id)
    }

    /// Checks a full row for `c`: arity, types, then live reference targets.
    fn check_values(&self, c: u16, values: &[FieldValue]) -> Result<(), ArenaError> {
        let schema = self.schema(c);
        if values.len() != schema.fields.len() {
            return Err(schema_error(SchemaError::Arity {
                component: schema.name.to_string(),
                expected: schema.fields.len(),
                got: values.len(),
            }));
        }
        for (f, v) in schema.fields.iter().zip(values) {
            if f.ty != v.ty() {
                return Err(schema_error(SchemaError::TypeMismatch {
                    component: schema.name.to_string(),
                    field: f.name.to_string(),
                    expected: f.ty,
                    got: v.ty(),
                }));
            }
        }
        for v in values {
            if let FieldValue::Ref(Some(t)) = v {
                self.live_err(*t)?;
            }
        }
        Ok(())
    }

    /// Gives `id` component `c` with default values if it lacks it.
    fn add_default_row(&mut self, id: Id, c: u16, rev: u64) {
        if self.has(id, c) {
            return;
        }
        let values = self.schema(c).fields.iter().map(|f| FieldValue::default_of(f.ty)).collect();
        self.nm(id).comps.insert(c, MRow { values, rev });
        self.membership = rev;
    }

    /// Gives `id` component `c` and its requirements (defaults where missing), at `rev`.
    fn add_with_requirements(&mut self, id: Id, c: u16, rev: u64) {
        for r in self.requires_of(c).into_iter().chain([c]) {
            self.add_default_row(id, r, rev);
        }
    }

    /// `Arena::add_component`.
    pub(crate) fn add_component(
        &mut self,
        id: Id,
        c: ComponentId,
        values: Option<&[FieldValue]>,
    ) -> Result<bool, ArenaError> {
        self.live_err(id)?;
        if c.index() >= self.schemas.len() {
            return Err(schema_error(SchemaError::UnknownComponent(format!("#{}", c.0))));
        }
        let c = c.0;
        if let Some(v) = values {
            self.check_values(c, v)?;
        }
        let had = self.has(id, c);
        if had && values.is_none() {
            return Ok(false);
        }
        let rev = self.bump();
        self.add_with_requirements(id, c, rev);
        if let Some(v) = values {
            self.nm(id).comps.insert(c, MRow { values: v.to_vec(), rev });
        }
        self.stamp(id, rev);
        Ok(!had)
    }

    /// Removes `c` and every component of `id` that requires it.
    pub(crate) fn remove_rows(&mut self, id: Id, c: u16, rev: u64) {
        for d in self.dependents_of(c).into_iter().chain([c]) {
            if self.nm(id).comps.remove(&d).is_some() {
                self.membership = rev;
            }
        }
    }

    /// `Arena::remove_component`.
    pub(crate) fn remove_component(&mut self, id: Id, c: ComponentId) -> Result<bool, ArenaError> {
        self.live_err(id)?;
        if !self.has(id, c.0) {
            return Ok(false);
        }
        let rev = self.bump();
        self.remove_rows(id, c.0, rev);
        self.stamp(id, rev);
        Ok(true)
    }

    /// `Arena::set_field`.
    pub(crate) fn set_field(
        &mut self,
        id: Id,
        c: ComponentId,
        field: &str,
        value: FieldValue,
    ) -> Result<bool, ArenaError> {
        self.live_err(id)?;
        if c.index() >= self.schemas.len() {
            return Err(schema_error(SchemaError::UnknownComponent(format!("#{}", c.0))));
        }
        let schema = self.schema(c.0);
        let name = schema.name.to_string();
        let Some(f) = schema.fields.iter().position(|d| &*d.name == field) else {
            return Err(schema_error(SchemaError::UnknownField { component: name, field: field.to_owned() }));
        };
        let expected = schema.fields[f].ty;
        if value.ty() != expected {
            return Err(schema_error(SchemaError::TypeMismatch {
                component: name,
                field: field.to_owned(),
                expected,
                got: value.ty(),
            }));
        }
        let Some(row) = self.n(id).comps.get(&c.0) else {
            return Err(schema_error(SchemaError::UnknownComponent(name)));
        };
        if let FieldValue::Ref(Some(t)) = value {
            self.live_err(t)?;
        }
        if row.values[f] == value {
            return Ok(false);
        }
        let rev = self.bump();
        let row = self.nm(id).comps.get_mut(&c.0).expect("row");
        row.values[f] = value;
        row.rev = rev;
        self.stamp(id, rev);
        Ok(true)
    }

    /// The ids of a POD bundle's components, or the error for the first one not registered
    /// through `register_pod`.
    pub(crate) fn pod_ids(&self, bundle: &[(&str, Vec<FieldValue>)]) -> Result<Vec<u16>, ArenaError> {
        bundle
            .iter()
            .map(|(name, _)| match self.pods.contains(*name) {
                true => Ok(self.cid(name).expect("pod schema registered")),
                false => Err(schema_error(SchemaError::UnknownComponent(name.to_string()))),
            })
            .collect()
    }

    /// Writes a POD bundle's rows on `id` at `rev` (requirements added with defaults; a
    /// component given twice keeps the last value).
    pub(crate) fn write_bundle(&mut self, id: Id, bundle: &[(&str, Vec<FieldValue>)], rev: u64) {
        let ids = self.pod_ids(bundle).expect("checked");
        for (&c, (_, values)) in ids.iter().zip(bundle) {
            self.add_with_requirements(id, c, rev);
            self.nm(id).comps.insert(c, MRow { values: values.clone(), rev });
        }
    }

    /// `Arena::insert_pod`.
    pub(crate) fn insert_pod(
        &mut self,
        id: Id,
        bundle: &[(&str, Vec<FieldValue>)],
    ) -> Result<(), ArenaError> {
        self.live_err(id)?;
        self.pod_ids(bundle)?;
        let rev = self.bump();
        self.write_bundle(id, bundle, rev);
        self.stamp(id, rev);
        Ok(())
    }

    /// Whether the live instance `id` matches a query.
    pub(crate) fn matches(&self, id: Id, with: &[ComponentId], without: &[ComponentId]) -> bool {
        self.is_live(id)
            && with.iter().all(|c| self.has(id, c.0))
            && !without.iter().any(|c| self.has(id, c.0))
    }

    /// A chunk pass: every matching row whose table lends every requested lane gets its
    /// written lanes changed and its written components stamped. Returns the read lanes of
    /// each row it visits, to compare with what the pass saw.
    pub(crate) fn pass(&mut self, spec: &PassSpec) -> Vec<(Id, Vec<u32>)> {
        let rev = self.bump();
        let with: Vec<ComponentId> = spec.with.iter().map(|n| self.comp_id(n)).collect();
        let without: Vec<ComponentId> = spec.without.iter().map(|n| self.comp_id(n)).collect();
        // A lane resolves to (component, field, lane within the field) on a holder with a
        // word lane there.
        let resolve = |m: &Model, id: Id, name: &str, lane: u16| -> Option<(u16, usize, usize)> {
            let c = m.cid(name).filter(|&c| m.has(id, c))?;
            let (f, j) = field_of_lane(m.schema(c), lane)?;
            (m.schema(c).fields[f].ty != FieldType::String).then_some((c, f, j))
        };
        // Reference lanes are never lent for writing.
        let writable = |m: &Model, id: Id, name: &str, lane: u16| {
            resolve(m, id, name, lane).filter(|&(c, f, _)| m.schema(c).fields[f].ty != FieldType::InstanceRef)
        };
        let mut seen = Vec::new();
        for id in self.live_ids() {
            if !self.matches(id, &with, &without) {
                continue;
            }
            let reads: Option<Vec<(u16, usize, usize)>> =
                spec.reads.iter().map(|(n, l)| resolve(self, id, n, *l)).collect();
            let writes: Option<Vec<(u16, usize, usize)>> =
                spec.writes.iter().map(|(n, l, _)| writable(self, id, n, *l)).collect();
            let (Some(reads), Some(writes)) = (reads, writes) else { continue };
            let node = self.n(id);
            let words = reads.iter().map(|&(c, f, j)| lane_word(&node.comps[&c].values[f], j)).collect();
            seen.push((id, words));
            for (&(c, f, j), &(_, _, op)) in writes.iter().zip(spec.writes) {
                let row = self.nm(id).comps.get_mut(&c).expect("row");
                apply_lane_op(&mut row.values[f], j, op);
            }
            for &(c, ..) in &writes {
                self.nm(id).comps.get_mut(&c).expect("row").rev = rev;
            }
        }
        seen
    }

    /// Whether `Arena::destroy(id)` would destroy `id`.
    pub(crate) fn destroyable(&self, id: Id) -> bool {
        self.is_live(id)
            && !matches!(self.n(id).class, arbor_core::Class::DataModel | arbor_core::Class::Workspace)
            && !self
                .subtree(id)
                .iter()
                .any(|&d| self.n(d).flags.contains(arbor_core::NodeFlags::PLATFORM_OWNED))
    }

    /// Reference fields of component rows: (component, field, target).
    pub(crate) fn comp_refs(&self, id: Id) -> Vec<(u16, u16, Id)> {
        let mut out = Vec::new();
        for (&c, row) in &self.n(id).comps {
            for (f, v) in row.values.iter().enumerate() {
                if let FieldValue::Ref(Some(t)) = v {
                    out.push((c, f as u16, *t));
                }
            }
        }
        out
    }

    /// Runs the reference policies of live holders whose fields point into `dead`, at `rev`:
    /// clear the field, remove the component and its dependents, or destroy the holder (when
    /// it can be destroyed; otherwise the field is cleared). Returns the holders to destroy.
    pub(crate) fn apply_ref_policies(&mut self, dead: &BTreeSet<Id>, rev: u64) -> BTreeSet<Id> {
        let mut doomed = BTreeSet::new();
        for holder in self.live_ids() {
            for (c, f, t) in self.comp_refs(holder) {
                if !dead.contains(&t) || !self.has(holder, c) {
                    continue;
                }
                let policy = self.schema(c).fields[f as usize].on_destroy;
                match policy {
                    RefPolicy::RemoveComponent => self.remove_rows(holder, c, rev),
                    RefPolicy::DestroyHolder if self.destroyable(holder) => {
                        doomed.insert(holder);
                    }
                    RefPolicy::ClearField | RefPolicy::DestroyHolder => {
                        let row = self.nm(holder).comps.get_mut(&c).expect("row");
                        row.values[f as usize] = FieldValue::Ref(None);
                        row.rev = rev;
                    }
                }
                self.stamp(holder, rev);
            }
        }
        doomed
    }

    /// Registers `source`'s component `c` here (its requirements first), as a graft does.
    pub(crate) fn adopt(&mut self, source: &Model, c: u16) -> u16 {
        let schema = source.schema(c).clone();
        for r in &schema.requires {
            self.adopt(source, source.cid(r).expect("source requirement"));
        }
        self.register(schema).expect("conflicts were checked").0
    }
}
