//! The serde model of a place file: [`PlaceFile`] and the documents inside it. The JSON form
//! is exactly this model; the binary form carries the same information in a flat layout
//! (see `binary/mod.rs`). Field names, defaults and meanings are specified in
//! `docs/place-format.md`.

use super::serde_util::{f64s, floats, hex_id, opt_f32, opt_f64, opt_floats, ordered, ordered2};
use arbor_core::Class;
use arbor_core::components::{FieldDef, FieldType, RefPolicy, Schema, Storage};
use arbor_core::{Material, Shape};
use serde::{Deserialize, Serialize};
use std::borrow::Cow;

/// The `format` value every place file carries.
pub const PLACE_FORMAT: &str = "arbor-place";
/// The newest format version this build reads. Version 2 added behaviours (the `behaviors`
/// section and `settings.behaviors`), version 3 sparse-set components (a schema's
/// `storage`); a place without them is still written with the older number, so older
/// readers keep reading it.
pub const PLACE_FORMAT_VERSION: u32 = 3;

/// The version a place is written with: 3 if a component is stored in a sparse set, else 2
/// if it has behaviours or behaviour settings, else 1.
pub fn version_for(arena: &arbor_core::Arena) -> u32 {
    let library = arena.behaviors();
    if !arena.components().registry().sparse_sets().is_empty() {
        3
    } else if library.is_empty() && library.settings.is_default() {
        1
    } else {
        2
    }
}

/// A whole place file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlaceFile<'a> {
    /// Always [`PLACE_FORMAT`] (`"arbor-place"`).
    #[serde(borrow)]
    pub format: Cow<'a, str>,
    /// Format version; readers refuse versions newer than theirs.
    pub version: u32,
    /// Place settings.
    #[serde(default)]
    pub settings: PlaceSettings,
    /// Component schemas, in registration order (a schema's `requires` name earlier ones).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub components: Vec<ComponentDoc>,
    /// Behaviour definitions (`docs/behaviours.md`, "Storing and binding behaviours"), stored
    /// once and bound to hosts by `Behavior` instances; in name order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub behaviors: Vec<BehaviorDoc>,
    /// The children of the place's `DataModel`, in order: at most one `Workspace` (whose
    /// children are the world) and any other top-level instances.
    #[serde(default, borrow)]
    pub instances: Vec<InstanceDoc<'a>>,
}

/// One behaviour definition: its name (what a `Behavior` instance's `Behavior` attribute
/// names) and its Luau source, whose chunk returns the definition table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BehaviorDoc {
    /// Behaviour name (unique in the file).
    pub name: String,
    /// Luau source.
    pub source: String,
}

/// Place-wide settings.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlaceSettings {
    /// Unanchored parts below this height are destroyed. Stored on the loaded place as the
    /// Number attribute `FallenPartsDestroyHeight` of the Workspace; absent means -500
    /// (unless the Workspace's own attributes set it).
    #[serde(
        rename = "FallenPartsDestroyHeight",
        default,
        skip_serializing_if = "Option::is_none",
        with = "opt_f64"
    )]
    pub fallen_parts_destroy_height: Option<f64>,
    /// The game's behaviour limits and world clock (the defaults of `docs/behaviours.md`,
    /// "Storing and binding behaviours", when absent).
    #[serde(default, skip_serializing_if = "arbor_core::BehaviorSettings::is_default")]
    pub behaviors: arbor_core::BehaviorSettings,
}

/// A component schema.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ComponentDoc {
    /// Component name (unique in the file).
    pub name: String,
    /// Fields, in order.
    pub fields: Vec<FieldDoc>,
    /// Components this one requires (declared earlier in the file).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub requires: Vec<String>,
    /// Where its rows live: `"Table"` (the default) or `"SparseSet"` (format version 3).
    #[serde(default, skip_serializing_if = "StorageDoc::is_default")]
    pub storage: StorageDoc,
}

/// One field of a component schema.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct FieldDoc {
    /// Field name (unique in its component).
    pub name: String,
    /// Field type.
    #[serde(rename = "type")]
    pub ty: FieldTypeDoc,
    /// For `InstanceRef` fields: what destroying the target does (default `ClearField`).
    #[serde(default, skip_serializing_if = "RefPolicyDoc::is_default")]
    pub on_destroy: RefPolicyDoc,
}

/// Defines a serde mirror of a core enum (names in JSON, variant indices in the binary form)
/// with conversions both ways.
macro_rules! mirror_enum {
    ($(#[$m:meta])* $doc:ident <=> $core:ident { $($(#[$vm:meta])* $v:ident),* $(,)? }) => {
        $(#[$m])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
        pub enum $doc { $($(#[$vm])* $v),* }

        impl From<$core> for $doc {
            fn from(v: $core) -> Self {
                match v { $($core::$v => $doc::$v),* }
            }
        }

        impl From<$doc> for $core {
            fn from(v: $doc) -> Self {
                match v { $($doc::$v => $core::$v),* }
            }
        }
    };
}

mirror_enum! {
    /// A component field type (binary index in declaration order).
    FieldTypeDoc <=> FieldType {
        /// `bool`.
        Bool,
        /// `i32`.
        I32,
        /// `i64`.
        I64,
        /// `f32`.
        F32,
        /// `f64`.
        F64,
        /// Three `f32`.
        Vector3,
        /// Four `f32` (x, y, z, w).
        Quaternion,
        /// A string.
        String,
        /// An instance reference.
        InstanceRef,
    }
}

mirror_enum! {
    /// What destroying a referenced instance does to a component field pointing at it.
    #[derive(Default)]
    RefPolicyDoc <=> RefPolicy {
        /// Set the field to none (the default).
        #[default]
        ClearField,
        /// Remove the component (and the holder's components requiring it).
        RemoveComponent,
        /// Destroy the holder.
        DestroyHolder,
    }
}

mirror_enum! {
    /// Where a component's rows live (binary index: Table 0, SparseSet 1).
    #[derive(Default)]
    StorageDoc <=> Storage {
        /// In the archetype tables (the default).
        #[default]
        Table,
        /// In a sparse set of its own, for components added and removed often.
        SparseSet,
    }
}

impl StorageDoc {
    fn is_default(&self) -> bool {
        *self == StorageDoc::Table
    }
}

impl RefPolicyDoc {
    fn is_default(&self) -> bool {
        *self == RefPolicyDoc::ClearField
    }
}

mirror_enum! {
    /// A part's shape (binary index: Block 0, Ball 1, Cylinder 2).
    ShapeDoc <=> Shape {
        /// A box of `size`.
        Block,
        /// A ball of diameter `size.x`.
        Ball,
        /// A cylinder along X.
        Cylinder,
    }
}

mirror_enum! {
    /// A part's material (binary index in declaration order, Plastic 0 to Neon 6).
    MaterialDoc <=> Material {
        /// Smooth plastic.
        Plastic,
        /// Wood.
        Wood,
        /// Metal.
        Metal,
        /// Concrete.
        Concrete,
        /// Ice.
        Ice,
        /// Glass.
        Glass,
        /// Neon.
        Neon,
    }
}

/// A typed attribute value: `{"Number": 16}`, `{"Ref": 3}` ...
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum AttributeDoc {
    /// `true` / `false`.
    Bool(bool),
    /// A number (non-finite values as `"NaN"`, `"inf"`, `"-inf"`).
    Number(#[serde(with = "f64s")] f64),
    /// A string.
    String(String),
    /// A vector `[x, y, z]`.
    Vector3(#[serde(with = "floats")] [f32; 3]),
    /// A reference: the `ref` number of an instance in this file, or `null`.
    Ref(Option<u64>),
}

/// A component row: field name → value, typed by the component's schema (numbers for
/// integers and floats, `[x, y, z]` / `[x, y, z, w]` for vectors and quaternions, strings,
/// booleans, and `ref` numbers or `null` for instance references). Missing fields take their
/// type's default.
pub type ComponentRowDoc = Vec<(String, serde_json::Value)>;

/// One instance and its subtree. Absent properties take the defaults of a new instance.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct InstanceDoc<'a> {
    /// Class name (`Part`, `Folder`, ...).
    #[serde(borrow)]
    pub class: Cow<'a, str>,
    /// Name.
    #[serde(borrow)]
    pub name: Cow<'a, str>,
    /// File-local reference number, unique in the file; only needed when something refers
    /// to this instance.
    #[serde(rename = "ref", default, skip_serializing_if = "Option::is_none")]
    pub ref_id: Option<u64>,
    /// Top-level entries only: the `ref` of an earlier instance this subtree belongs under
    /// (writers use it to keep JSON nesting shallow); absent means the `DataModel`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parent: Option<u64>,
    /// Local position `[x, y, z]` (default `[0, 0, 0]`).
    #[serde(default, skip_serializing_if = "Option::is_none", with = "opt_floats")]
    pub position: Option<[f32; 3]>,
    /// Local rotation quaternion `[x, y, z, w]` (default `[0, 0, 0, 1]`).
    #[serde(default, skip_serializing_if = "Option::is_none", with = "opt_floats")]
    pub rotation: Option<[f32; 4]>,
    /// Size `[x, y, z]` (default `[4, 1, 2]`).
    #[serde(default, skip_serializing_if = "Option::is_none", with = "opt_floats")]
    pub size: Option<[f32; 3]>,
    /// Anchored (default `false`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub anchored: Option<bool>,
    /// Collides with other parts (default `true`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub can_collide: Option<bool>,
    /// Saved and cloned (default `true`; a non-archivable instance is left out of later saves).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub archivable: Option<bool>,
    /// Shape (default `Block`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shape: Option<ShapeDoc>,
    /// Colour `[r, g, b, a]`, 0 to 255 (default `[163, 162, 165, 255]`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub color: Option<[u8; 4]>,
    /// Material (default `Plastic`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub material: Option<MaterialDoc>,
    /// Transparency, 0 (opaque) to 1 (default 0).
    #[serde(default, skip_serializing_if = "Option::is_none", with = "opt_f32")]
    pub transparency: Option<f32>,
    /// Handle name, registered in the place's handle map (unique in the file).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub handle: Option<String>,
    /// Persistent id, 32 hex digits (unique in the file).
    #[serde(default, skip_serializing_if = "Option::is_none", with = "hex_id")]
    pub persistent_id: Option<u128>,
    /// Tags.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tags: Vec<String>,
    /// Attributes in order: name → typed value.
    #[serde(default, skip_serializing_if = "Vec::is_empty", with = "ordered")]
    pub attributes: Vec<(String, AttributeDoc)>,
    /// Reference properties of the class (`Value` of an `ObjectValue`, `Part0` / `Part1` of
    /// a `Weld`): property → `ref` number or `null`.
    #[serde(default, skip_serializing_if = "Vec::is_empty", with = "ordered")]
    pub references: Vec<(String, Option<u64>)>,
    /// Component rows: component name → row.
    #[serde(default, skip_serializing_if = "Vec::is_empty", with = "ordered2")]
    pub components: Vec<(String, ComponentRowDoc)>,
    /// Luau source (`Script` only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    /// A `.luau` file holding the source (`Script` only; instead of `source`), relative to
    /// the place file's folder and inside it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source_file: Option<String>,
    /// Children, in order.
    #[serde(default, borrow, skip_serializing_if = "Vec::is_empty")]
    pub children: Vec<InstanceDoc<'a>>,
}

impl ComponentDoc {
    /// The schema this document declares.
    pub fn to_schema(&self) -> Schema {
        let fields = self
            .fields
            .iter()
            .map(|f| FieldDef {
                name: f.name.as_str().into(),
                ty: f.ty.into(),
                on_destroy: f.on_destroy.into(),
            })
            .collect();
        Schema {
            name: self.name.as_str().into(),
            fields,
            requires: self.requires.iter().map(|r| r.as_str().into()).collect(),
            storage: self.storage.into(),
        }
    }

    /// The document declaring `schema`.
    pub fn from_schema(schema: &Schema) -> Self {
        ComponentDoc {
            name: schema.name.to_string(),
            fields: schema
                .fields
                .iter()
                .map(|f| FieldDoc {
                    name: f.name.to_string(),
                    ty: f.ty.into(),
                    on_destroy: f.on_destroy.into(),
                })
                .collect(),
            requires: schema.requires.iter().map(|r| r.to_string()).collect(),
            storage: schema.storage.into(),
        }
    }
}

/// The class named `name`, or why it cannot appear in a place file.
pub(crate) fn file_class(name: &str) -> Result<Class, String> {
    match Class::from_name(name) {
        Some(Class::DataModel) => {
            Err("a DataModel cannot appear in a place file (the file's instances are its children)".into())
        }
        Some(c) => Ok(c),
        None => Err(format!("unknown class '{name}'")),
    }
}
