//! What the component part of the model test registers and runs: the schema catalogue
//! (typed fields including `Vector3`, `Quaternion`, `String`, references under each
//! [`RefPolicy`], requirements, a conflicting layout and a malformed schema), the POD types
//! tied to some of them, and the chunk passes.
//!
//! The schemas are chosen so that the outcome of destroying a target never depends on the
//! order in which the arena visits its holders (which it does not promise): no component
//! with a `DestroyHolder` field has, or requires a component with, a `RemoveComponent` field.

use arbor_core::{
    Quat, Vec3,
    components::{FieldDef, FieldType, FieldValue, PodComponent, RefPolicy, Schema, Storage},
};
use std::sync::Arc;

/// The component names operations pick from (a pick past the end is never registered).
pub(crate) const COMP_NAMES: [&str; 9] =
    ["Health", "Motion", "Label", "Aim", "Leash", "LeashFx", "Tether", "Score", "Regen"];

/// The schemas `Register` operations choose from: two layouts of `Score` (the second
/// conflicts with the first), requirements (`Leash` → `Health`, `LeashFx` → `Leash`,
/// `Tether` → `Label`, `Regen` → `Health`), reference fields under each policy, and one
/// schema declaring a field twice. `Leash`, `Tether`, the first `Score` and `Regen` live in
/// sparse sets (so requirements cross storage kinds both ways), which the model does not
/// know about: every outcome must be the same as for table components.
pub(crate) fn catalogue(i: usize) -> Schema {
    let f = FieldDef::new;
    let r = FieldDef::reference;
    match i % 11 {
        0 => Schema::new("Health", vec![f("hp", FieldType::I32), f("regen", FieldType::F32)]),
        1 => Schema::new("Motion", vec![f("vel", FieldType::Vector3), f("spin", FieldType::Quaternion)]),
        2 => Schema::new(
            "Label",
            vec![f("text", FieldType::String), f("big", FieldType::Bool), f("score", FieldType::I64)],
        ),
        3 => Schema::new(
            "Aim",
            vec![
                r("at", RefPolicy::ClearField),
                f("weight", FieldType::F64),
                r("alt", RefPolicy::ClearField),
            ],
        ),
        4 => Schema::new("Leash", vec![r("to", RefPolicy::RemoveComponent), f("len", FieldType::F32)])
            .requiring("Health")
            .stored_in(Storage::SparseSet),
        5 => Schema::new("LeashFx", vec![f("glow", FieldType::Bool)]).requiring("Leash"),
        6 => Schema::new("Tether", vec![r("to", RefPolicy::DestroyHolder), f("note", FieldType::String)])
            .requiring("Label")
            .stored_in(Storage::SparseSet),
        7 => Schema::new("Score", vec![f("v", FieldType::I32)]).stored_in(Storage::SparseSet),
        8 => Schema::new("Score", vec![f("v", FieldType::F64)]),
        9 => Schema::new("Regen", vec![f("rate", FieldType::F32)])
            .requiring("Health")
            .stored_in(Storage::SparseSet),
        _ => Schema::new("Bad", vec![f("x", FieldType::I32), f("x", FieldType::I64)]),
    }
}

/// `Health` as plain old data.
#[derive(Clone, Copy, Debug, PartialEq, bytemuck::Pod, bytemuck::Zeroable)]
#[repr(C)]
pub(crate) struct HealthPod {
    pub(crate) hp: i32,
    pub(crate) regen: f32,
}

/// `Motion` as plain old data (velocity, then the spin quaternion as x, y, z, w).
#[derive(Clone, Copy, Debug, PartialEq, bytemuck::Pod, bytemuck::Zeroable)]
#[repr(C)]
pub(crate) struct MotionPod {
    pub(crate) vel: [f32; 3],
    pub(crate) spin: [f32; 4],
}

/// `Regen` as plain old data; it requires `Health`.
#[derive(Clone, Copy, Debug, PartialEq, bytemuck::Pod, bytemuck::Zeroable)]
#[repr(C)]
pub(crate) struct RegenPod {
    pub(crate) rate: f32,
}

/// A reference field as a raw word: registering it must be refused, since a raw write would
/// bypass the reverse index and the liveness check.
#[derive(Clone, Copy, Debug, PartialEq, bytemuck::Pod, bytemuck::Zeroable)]
#[repr(C)]
pub(crate) struct LinkPod {
    pub(crate) to: u64,
}

impl PodComponent for HealthPod {
    fn schema() -> Schema {
        catalogue(0)
    }
}

impl PodComponent for MotionPod {
    fn schema() -> Schema {
        catalogue(1)
    }
}

impl PodComponent for RegenPod {
    fn schema() -> Schema {
        catalogue(9)
    }
}

impl PodComponent for LinkPod {
    fn schema() -> Schema {
        Schema::new("Link", vec![FieldDef::reference("to", RefPolicy::ClearField)])
    }
}

impl HealthPod {
    pub(crate) fn from_k(k: u16) -> Self {
        HealthPod { hp: [3, -1, 100, 0][k as usize % 4], regen: [0.5, 0.0, -2.0][k as usize % 3] }
    }

    pub(crate) fn values(&self) -> Vec<FieldValue> {
        vec![FieldValue::I32(self.hp), FieldValue::F32(self.regen)]
    }
}

impl MotionPod {
    pub(crate) fn from_k(k: u16) -> Self {
        let s = (k % 3) as f32;
        MotionPod { vel: [s, 1.0, -s], spin: [0.0, 0.0, s / 4.0, 1.0] }
    }

    pub(crate) fn values(&self) -> Vec<FieldValue> {
        vec![
            FieldValue::Vector3(Vec3::from_array(self.vel)),
            FieldValue::Quaternion(Quat::from_array(self.spin)),
        ]
    }
}

impl RegenPod {
    pub(crate) fn from_k(k: u16) -> Self {
        RegenPod { rate: [1.0, 0.25, -4.0][k as usize % 3] }
    }

    pub(crate) fn values(&self) -> Vec<FieldValue> {
        vec![FieldValue::F32(self.rate)]
    }
}

/// What a chunk pass does to one written lane.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum LaneOp {
    AddI32,
    AddF32,
    AddF64,
    AddU64,
}

/// A chunk pass: the query (with / without), the lanes it reads (32-bit, checked against the
/// model) and the lanes it writes.
pub(crate) struct PassSpec {
    pub(crate) with: &'static [&'static str],
    pub(crate) without: &'static [&'static str],
    pub(crate) reads: &'static [(&'static str, u16)],
    pub(crate) writes: &'static [(&'static str, u16, LaneOp)],
}

/// The passes: a lane of the queried component; the same, excluding a component; three lanes
/// at once; a string lane (no table can lend it: nothing is written); a lane of a component
/// the query does not name (only tables holding it are written); a lane past the component's
/// lanes (nothing is written); a reference lane (never lent for writing: a raw write would
/// bypass the reverse index).
pub(crate) const PASSES: [PassSpec; 7] = [
    PassSpec {
        with: &["Health"],
        without: &[],
        reads: &[("Health", 1)],
        writes: &[("Health", 0, LaneOp::AddI32)],
    },
    PassSpec {
        with: &["Health"],
        without: &["Label"],
        reads: &[("Health", 1)],
        writes: &[("Health", 0, LaneOp::AddI32)],
    },
    PassSpec {
        with: &["Motion"],
        without: &[],
        reads: &[("Motion", 3)],
        writes: &[
            ("Motion", 0, LaneOp::AddF32),
            ("Motion", 1, LaneOp::AddF32),
            ("Motion", 2, LaneOp::AddF32),
        ],
    },
    PassSpec { with: &["Label"], without: &[], reads: &[], writes: &[("Label", 0, LaneOp::AddI32)] },
    PassSpec {
        with: &["Health"],
        without: &[],
        reads: &[("Health", 0)],
        writes: &[("Aim", 1, LaneOp::AddF64)],
    },
    PassSpec { with: &["Health"], without: &[], reads: &[], writes: &[("Health", 2, LaneOp::AddI32)] },
    PassSpec { with: &["Aim"], without: &[], reads: &[], writes: &[("Aim", 0, LaneOp::AddU64)] },
];

/// A string value for a text field.
pub(crate) fn text(k: u16) -> FieldValue {
    FieldValue::String(Arc::from(["", "a", "hello"][k as usize % 3]))
}
