//! Component schemas: typed fields declared at run time, the [`SchemaRegistry`] that names
//! them, and how each field maps onto storage lanes.
//!
//! A field of a scalar type takes one lane; `Vector3` takes three `f32` lanes (x, y, z) and
//! `Quaternion` four (x, y, z, w), so SIMD passes read each coordinate as its own contiguous
//! column. Lanes are 32-bit words, 64-bit words, or strings ([`LaneKind`]); [`encode`] and
//! [`decode`] turn a field value into its lane values and back.
//!
//! Invariants: a name maps to one schema for the registry's lifetime; registering it again
//! with the same layout returns the same id, with another layout is an error; `requires`
//! only names components registered earlier, so the requirement graph has no cycle.

use super::lane_layout::{LaneKind, LaneValue};
use crate::id::Id;
use glam::{Quat, Vec3};
use rustc_hash::FxHashMap;
use std::sync::Arc;
use thiserror::Error;

/// A registered component.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct ComponentId(pub u16);

impl ComponentId {
    /// Dense index.
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// The type of a component field.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum FieldType {
    /// `bool` (one 32-bit lane, 0 or 1).
    Bool,
    /// `i32`.
    I32,
    /// `i64`.
    I64,
    /// `f32`.
    F32,
    /// `f64`.
    F64,
    /// Three `f32` lanes.
    Vector3,
    /// Four `f32` lanes.
    Quaternion,
    /// A string.
    String,
    /// A reference to an instance (one 64-bit lane; 0 is none).
    InstanceRef,
}

impl FieldType {
    /// Lanes this type occupies, and their kind.
    pub fn lanes(self) -> (usize, LaneKind) {
        match self {
            FieldType::Bool | FieldType::I32 | FieldType::F32 => (1, LaneKind::W32),
            FieldType::I64 | FieldType::F64 | FieldType::InstanceRef => (1, LaneKind::W64),
            FieldType::Vector3 => (3, LaneKind::W32),
            FieldType::Quaternion => (4, LaneKind::W32),
            FieldType::String => (1, LaneKind::Str),
        }
    }

    /// Bytes this field takes in a plain-old-data component struct, if it can live in one.
    /// Strings cannot, and neither can instance references: raw writes would bypass the
    /// reverse index and the liveness check.
    pub fn pod_bytes(self) -> Option<usize> {
        if self == FieldType::InstanceRef {
            return None;
        }
        match self.lanes() {
            (n, LaneKind::W32) => Some(4 * n),
            (n, LaneKind::W64) => Some(8 * n),
            (_, LaneKind::Str) => None,
        }
    }
}

/// What happens to a component whose reference field targets an instance being destroyed.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub enum RefPolicy {
    /// Set the field to none.
    #[default]
    ClearField,
    /// Remove the referring component, and every component on the holder that requires it.
    RemoveComponent,
    /// Destroy the holder instance (and its subtree). A holder that cannot be destroyed (its
    /// subtree holds a platform-owned instance, or it is the place root or the Workspace) has
    /// the field cleared instead.
    DestroyHolder,
}

/// One declared field.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct FieldDef {
    /// Field name.
    pub name: Arc<str>,
    /// Field type.
    pub ty: FieldType,
    /// For `InstanceRef` fields: what destroying the target does.
    pub on_destroy: RefPolicy,
}

impl FieldDef {
    /// A field of `ty` named `name` (reference fields clear on target destruction).
    pub fn new(name: &str, ty: FieldType) -> Self {
        Self { name: Arc::from(name), ty, on_destroy: RefPolicy::ClearField }
    }

    /// A reference field with the given destruction policy.
    pub fn reference(name: &str, on_destroy: RefPolicy) -> Self {
        Self { name: Arc::from(name), ty: FieldType::InstanceRef, on_destroy }
    }
}

/// A component's declaration.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Schema {
    /// Component name.
    pub name: Arc<str>,
    /// Fields in order.
    pub fields: Vec<FieldDef>,
    /// Names of components this one requires (added with defaults when it is added).
    pub requires: Vec<Arc<str>>,
    /// Where the component's rows live.
    pub storage: Storage,
}

/// Where a component's rows live (bevy's `StorageType`).
///
/// - [`Table`](Storage::Table): in the archetype table of the instance's whole component
///   set, so chunk passes over several components read them side by side; adding or removing
///   the component moves the instance's row to another table.
/// - [`SparseSet`](Storage::SparseSet): in a set of its own, indexed by instance; adding or
///   removing it appends or swap-removes one row of that set and leaves the instance's table
///   row where it is. For components that come and go often (a stun, a hit marker, a
///   short-lived target). A chunk pass reaches its lanes through a query naming it alone.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub enum Storage {
    /// In the archetype tables (the default).
    #[default]
    Table,
    /// In a sparse set of its own.
    SparseSet,
}

impl Schema {
    /// A schema named `name` with `fields` and no requirements.
    pub fn new(name: &str, fields: Vec<FieldDef>) -> Self {
        Self { name: Arc::from(name), fields, requires: Vec::new(), storage: Storage::Table }
    }

    /// The same schema with its rows stored as `storage` says.
    pub fn stored_in(mut self, storage: Storage) -> Self {
        self.storage = storage;
        self
    }

    /// Adds a required component.
    pub fn requiring(mut self, name: &str) -> Self {
        self.requires.push(Arc::from(name));
        self
    }
}

/// A field value, for dynamic access (scripts, place files).
#[derive(Clone, Debug, PartialEq)]
pub enum FieldValue {
    /// `bool`.
    Bool(bool),
    /// `i32`.
    I32(i32),
    /// `i64`.
    I64(i64),
    /// `f32`.
    F32(f32),
    /// `f64`.
    F64(f64),
    /// `Vector3`.
    Vector3(Vec3),
    /// `Quaternion`.
    Quaternion(Quat),
    /// `String`.
    String(Arc<str>),
    /// Instance reference.
    Ref(Option<Id>),
}

impl FieldValue {
    /// The type of this value.
    pub fn ty(&self) -> FieldType {
        match self {
            FieldValue::Bool(_) => FieldType::Bool,
            FieldValue::I32(_) => FieldType::I32,
            FieldValue::I64(_) => FieldType::I64,
            FieldValue::F32(_) => FieldType::F32,
            FieldValue::F64(_) => FieldType::F64,
            FieldValue::Vector3(_) => FieldType::Vector3,
            FieldValue::Quaternion(_) => FieldType::Quaternion,
            FieldValue::String(_) => FieldType::String,
            FieldValue::Ref(_) => FieldType::InstanceRef,
        }
    }

    /// The default value of `ty`.
    pub fn default_of(ty: FieldType) -> FieldValue {
        match ty {
            FieldType::Bool => FieldValue::Bool(false),
            FieldType::I32 => FieldValue::I32(0),
            FieldType::I64 => FieldValue::I64(0),
            FieldType::F32 => FieldValue::F32(0.0),
            FieldType::F64 => FieldValue::F64(0.0),
            FieldType::Vector3 => FieldValue::Vector3(Vec3::ZERO),
            FieldType::Quaternion => FieldValue::Quaternion(Quat::IDENTITY),
            FieldType::String => FieldValue::String(Arc::from("")),
            FieldType::InstanceRef => FieldValue::Ref(None),
        }
    }
}

/// Why a schema or component operation was refused.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum SchemaError {
    /// The name is registered with another layout.
    #[error("component '{0}' is already registered with a different layout")]
    LayoutConflict(String),
    /// A required component is not registered.
    #[error("component '{component}' requires unknown component '{required}'")]
    UnknownRequirement {
        /// The declaring component.
        component: String,
        /// The missing requirement.
        required: String,
    },
    /// Two fields share a name.
    #[error("component '{component}' declares field '{field}' twice")]
    DuplicateField {
        /// The component.
        component: String,
        /// The repeated field.
        field: String,
    },
    /// A field that is not an `InstanceRef` was given a destroy policy other than
    /// `ClearField` (only a reference has a target to be destroyed).
    #[error("field '{component}.{field}' is not an InstanceRef and cannot have an onDestroy policy")]
    PolicyOnValueField {
        /// The component.
        component: String,
        /// The field.
        field: String,
    },
    /// Too many components.
    #[error("too many components registered")]
    TooMany,
    /// A plain-old-data type does not match its schema's byte layout.
    #[error("type for component '{0}' does not match its schema's byte layout")]
    PodLayout(String),
    /// No such component.
    #[error("no component named '{0}'")]
    UnknownComponent(String),
    /// No such field.
    #[error("component '{component}' has no field '{field}'")]
    UnknownField {
        /// The component.
        component: String,
        /// The field asked for.
        field: String,
    },
    /// A value of the wrong type.
    #[error("field '{component}.{field}' is {expected:?}, not {got:?}")]
    TypeMismatch {
        /// The component.
        component: String,
        /// The field.
        field: String,
        /// Declared type.
        expected: FieldType,
        /// Type given.
        got: FieldType,
    },
    /// Wrong number of values for a row.
    #[error("component '{component}' has {expected} fields, {got} values given")]
    Arity {
        /// The component.
        component: String,
        /// Declared field count.
        expected: usize,
        /// Values given.
        got: usize,
    },
}

/// Storage layout of one registered component.
#[derive(Clone, Debug)]
pub struct ComponentInfo {
    /// The declaration.
    pub schema: Schema,
    /// Required components (resolved), transitively closed, in registration order.
    pub requires: Vec<ComponentId>,
    /// First lane of each field within the component's lanes.
    pub field_lanes: Vec<usize>,
    /// Kind of each lane.
    pub lane_kinds: Vec<LaneKind>,
    /// Bytes of a plain-old-data struct for this schema, if every field can live in one
    /// (see [`FieldType::pod_bytes`]).
    pub pod_bytes: Option<usize>,
    /// Whether every field's default is stored as zero lanes (the empty string as no
    /// string), as a freshly added component's lanes already are.
    pub zero_defaults: bool,
    /// Whether any field is an instance reference (kept in the arena's reverse index).
    pub has_refs: bool,
    /// For a [`Storage::SparseSet`] component: the index of its set among the registry's
    /// sparse sets (in registration order); `None` for table components.
    pub sparse_set: Option<u32>,
}

impl ComponentInfo {
    /// Index of field `name`.
    pub fn field(&self, name: &str) -> Option<usize> {
        self.schema.fields.iter().position(|f| &*f.name == name)
    }
}

/// Every registered component, by id and by name.
#[derive(Clone, Default, Debug)]
pub struct SchemaRegistry {
    infos: Vec<ComponentInfo>,
    by_name: FxHashMap<Arc<str>, ComponentId>,
    /// Components that require each component (direct and transitive).
    dependents: Vec<Vec<ComponentId>>,
    /// The sparse-set components, by set index.
    sparse_sets: Vec<ComponentId>,
}

impl SchemaRegistry {
    /// Registers `schema`, or returns the id it already has if the layout is identical.
    pub fn register(&mut self, schema: Schema) -> Result<ComponentId, SchemaError> {
        if let Some(&id) = self.by_name.get(&schema.name) {
            return if self.infos[id.index()].schema == schema {
                Ok(id)
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
            if f.ty != FieldType::InstanceRef && f.on_destroy != RefPolicy::ClearField {
                return Err(SchemaError::PolicyOnValueField {
                    component: schema.name.to_string(),
                    field: f.name.to_string(),
                });
            }
        }
        let mut requires = Vec::new();
        for r in &schema.requires {
            let rid = *self.by_name.get(r).ok_or_else(|| SchemaError::UnknownRequirement {
                component: schema.name.to_string(),
                required: r.to_string(),
            })?;
            for &t in self.infos[rid.index()].requires.iter().chain([&rid]) {
                if !requires.contains(&t) {
                    requires.push(t);
                }
            }
        }
        requires.sort();
        let id = ComponentId(u16::try_from(self.infos.len()).map_err(|_| SchemaError::TooMany)?);
        let mut field_lanes = Vec::new();
        let mut lane_kinds = Vec::new();
        let mut pod = Some(0usize);
        for f in &schema.fields {
            field_lanes.push(lane_kinds.len());
            let (n, kind) = f.ty.lanes();
            lane_kinds.extend(std::iter::repeat_n(kind, n));
            pod = pod.zip(f.ty.pod_bytes()).map(|(a, b)| a + b);
        }
        for &r in &requires {
            self.dependents[r.index()].push(id);
        }
        self.dependents.push(Vec::new());
        self.by_name.insert(schema.name.clone(), id);
        let zero_defaults = schema.fields.iter().all(|f| {
            encode(&FieldValue::default_of(f.ty)).iter().all(|l| {
                matches!(l, super::lane_layout::LaneValue::Word(0) | super::lane_layout::LaneValue::Str(None))
            })
        });
        let has_refs = schema.fields.iter().any(|f| f.ty == FieldType::InstanceRef);
        let sparse_set = (schema.storage == Storage::SparseSet).then(|| {
            self.sparse_sets.push(id);
            self.sparse_sets.len() as u32 - 1
        });
        self.infos.push(ComponentInfo {
            sparse_set,
            has_refs,
            schema,
            requires,
            field_lanes,
            lane_kinds,
            pod_bytes: pod,
            zero_defaults,
        });
        Ok(id)
    }

    /// The id of component `name`.
    pub fn id(&self, name: &str) -> Option<ComponentId> {
        self.by_name.get(name).copied()
    }

    /// The layout of `id`.
    ///
    /// # Panics
    /// If `id` is not from this registry.
    pub fn info(&self, id: ComponentId) -> &ComponentInfo {
        &self.infos[id.index()]
    }

    /// The layout of `id`, or `None` if it is not from this registry.
    #[inline]
    pub fn try_info(&self, id: ComponentId) -> Option<&ComponentInfo> {
        self.infos.get(id.index())
    }

    /// Components that (transitively) require `id`.
    pub fn dependents(&self, id: ComponentId) -> &[ComponentId] {
        &self.dependents[id.index()]
    }

    /// The sparse-set components, by set index (see [`ComponentInfo::sparse_set`]).
    pub fn sparse_sets(&self) -> &[ComponentId] {
        &self.sparse_sets
    }

    /// Number of registered components.
    pub fn len(&self) -> usize {
        self.infos.len()
    }

    /// Whether nothing is registered.
    pub fn is_empty(&self) -> bool {
        self.infos.is_empty()
    }

    /// Every registered component in registration order.
    pub fn iter(&self) -> impl Iterator<Item = (ComponentId, &ComponentInfo)> + '_ {
        self.infos.iter().enumerate().map(|(i, c)| (ComponentId(i as u16), c))
    }

    /// Checks `values` against `id`'s fields.
    pub fn check_row(&self, id: ComponentId, values: &[FieldValue]) -> Result<(), SchemaError> {
        let info = self.info(id);
        if values.len() != info.schema.fields.len() {
            return Err(SchemaError::Arity {
                component: info.schema.name.to_string(),
                expected: info.schema.fields.len(),
                got: values.len(),
            });
        }
        for (f, v) in info.schema.fields.iter().zip(values) {
            if f.ty != v.ty() {
                return Err(SchemaError::TypeMismatch {
                    component: info.schema.name.to_string(),
                    field: f.name.to_string(),
                    expected: f.ty,
                    got: v.ty(),
                });
            }
        }
        Ok(())
    }
}

/// Encodes a field value into lane values.
pub(crate) fn encode(value: &FieldValue) -> smallvec::SmallVec<[LaneValue; 4]> {
    use smallvec::smallvec;
    let w32 = |x: u32| LaneValue::Word(x as u64);
    match value {
        FieldValue::Bool(b) => smallvec![w32(*b as u32)],
        FieldValue::I32(x) => smallvec![w32(*x as u32)],
        FieldValue::F32(x) => smallvec![w32(x.to_bits())],
        FieldValue::I64(x) => smallvec![LaneValue::Word(*x as u64)],
        FieldValue::F64(x) => smallvec![LaneValue::Word(x.to_bits())],
        FieldValue::Ref(r) => smallvec![LaneValue::Word(r.map_or(0, |i| i.0))],
        FieldValue::Vector3(v) => v.to_array().iter().map(|c| w32(c.to_bits())).collect(),
        FieldValue::Quaternion(q) => q.to_array().iter().map(|c| w32(c.to_bits())).collect(),
        FieldValue::String(s) => smallvec![LaneValue::Str(if s.is_empty() { None } else { Some(s.clone()) })],
    }
}

/// Decodes lane values (read by `lane(i)`) into a field value of `ty`.
pub(crate) fn decode(ty: FieldType, lane: impl Fn(usize) -> LaneValue) -> FieldValue {
    let word = |i: usize| match lane(i) {
        LaneValue::Word(w) => w,
        LaneValue::Str(_) => 0,
    };
    let f = |i: usize| f32::from_bits(word(i) as u32);
    match ty {
        FieldType::Bool => FieldValue::Bool(word(0) != 0),
        FieldType::I32 => FieldValue::I32(word(0) as u32 as i32),
        FieldType::F32 => FieldValue::F32(f(0)),
        FieldType::I64 => FieldValue::I64(word(0) as i64),
        FieldType::F64 => FieldValue::F64(f64::from_bits(word(0))),
        FieldType::InstanceRef => FieldValue::Ref(match word(0) {
            0 => None,
            w => Some(Id(w)),
        }),
        FieldType::Vector3 => FieldValue::Vector3(Vec3::new(f(0), f(1), f(2))),
        FieldType::Quaternion => FieldValue::Quaternion(Quat::from_xyzw(f(0), f(1), f(2), f(3))),
        FieldType::String => FieldValue::String(match lane(0) {
            LaneValue::Str(Some(s)) => s,
            _ => Arc::from(""),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn health() -> Schema {
        Schema::new(
            "Health",
            vec![FieldDef::new("Value", FieldType::F32), FieldDef::new("Max", FieldType::F32)],
        )
    }

    #[test]
    fn same_layout_registers_once_and_another_layout_is_refused() {
        let mut reg = SchemaRegistry::default();
        let a = reg.register(health()).unwrap();
        assert_eq!(reg.register(health()).unwrap(), a);
        let other = Schema::new("Health", vec![FieldDef::new("Value", FieldType::I32)]);
        assert_eq!(reg.register(other), Err(SchemaError::LayoutConflict("Health".into())));
    }

    #[test]
    fn lanes_and_requirements_resolve() {
        let mut reg = SchemaRegistry::default();
        let h = reg.register(health()).unwrap();
        let regen = reg
            .register(
                Schema::new(
                    "Regen",
                    vec![FieldDef::new("Rate", FieldType::F64), FieldDef::new("Dir", FieldType::Vector3)],
                )
                .requiring("Health"),
            )
            .unwrap();
        let info = reg.info(regen);
        assert_eq!(info.requires, vec![h]);
        assert_eq!(info.field_lanes, vec![0, 1]);
        assert_eq!(info.lane_kinds, vec![LaneKind::W64, LaneKind::W32, LaneKind::W32, LaneKind::W32]);
        assert_eq!(info.pod_bytes, Some(20));
        assert_eq!(reg.dependents(h), &[regen]);
        let bad = Schema::new("X", vec![]).requiring("Nope");
        assert!(matches!(reg.register(bad), Err(SchemaError::UnknownRequirement { .. })));
        let dup =
            Schema::new("Y", vec![FieldDef::new("a", FieldType::I32), FieldDef::new("a", FieldType::I64)]);
        assert!(matches!(reg.register(dup), Err(SchemaError::DuplicateField { .. })));
    }

    #[test]
    fn rows_are_type_checked() {
        let mut reg = SchemaRegistry::default();
        let h = reg.register(health()).unwrap();
        assert!(reg.check_row(h, &[FieldValue::F32(1.0), FieldValue::F32(2.0)]).is_ok());
        assert!(matches!(reg.check_row(h, &[FieldValue::F32(1.0)]), Err(SchemaError::Arity { .. })));
        assert!(matches!(
            reg.check_row(h, &[FieldValue::F32(1.0), FieldValue::I32(2)]),
            Err(SchemaError::TypeMismatch { .. })
        ));
    }
}
