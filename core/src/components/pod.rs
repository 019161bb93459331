//! Typed, zero-copy access for engine code: [`PodComponent`] ties a plain-old-data Rust
//! struct to a schema, and [`PodBundle`] (tuples of them) spawns or inserts several at once.
//!
//! A POD struct's bytes are its schema's lanes in order: each 32-bit lane is 4 bytes, each
//! 64-bit lane 8, with no padding (registration checks the size). Writing one copies words
//! lane by lane with no per-row dynamic dispatch; bulk passes read and write the lanes as
//! slices through [`ChunkLanes`](super::ChunkLanes).

use super::schema::Schema;
use smallvec::SmallVec;
use std::any::TypeId;

/// A component whose Rust type is plain old data laid out like its schema's lanes.
///
/// ```
/// use arbor_core::{components::{FieldDef, FieldType, PodComponent, Schema}};
/// #[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
/// #[repr(C)]
/// struct Velocity { x: f32, y: f32, z: f32 }
/// impl PodComponent for Velocity {
///     fn schema() -> Schema {
///         Schema::new("Velocity", vec![FieldDef::new("Value", FieldType::Vector3)])
///     }
/// }
/// ```
pub trait PodComponent: bytemuck::Pod + Send + Sync + 'static {
    /// The schema this type stores; its lanes must match the type's bytes.
    fn schema() -> Schema;
}

/// One or more POD components inserted together.
pub trait PodBundle: Send + Sync + 'static {
    /// The 32-bit words of all the components together (their total size / 4), or 0 if not
    /// known at compile time: batch spawns then index bundles with a constant stride.
    const WORDS: usize = 0;

    /// The component types, in order.
    fn type_ids() -> SmallVec<[TypeId; 4]>;
    /// Their schemas, in the same order.
    fn schemas() -> SmallVec<[Schema; 4]>;
    /// Each component's bytes, in the same order.
    fn bytes(&self) -> SmallVec<[&[u8]; 4]>;

    /// Copies every component's bytes, in order, into `out` as 32-bit words (POD lanes are 4
    /// or 8 bytes, so each component is a whole number of words); `out` holds exactly their
    /// total size. Tuples copy each component with its size known at compile time.
    fn copy_words(&self, out: &mut [u32]) {
        let out: &mut [u8] = bytemuck::cast_slice_mut(out);
        let mut at = 0;
        for bytes in self.bytes() {
            out[at..at + bytes.len()].copy_from_slice(bytes);
            at += bytes.len();
        }
    }
}

macro_rules! bundle {
    ($($t:ident $i:tt),+) => {
        impl<$($t: PodComponent),+> PodBundle for ($($t,)+) {
            const WORDS: usize = 0 $(+ std::mem::size_of::<$t>() / 4)+;
            fn type_ids() -> SmallVec<[TypeId; 4]> {
                smallvec::smallvec![$(TypeId::of::<$t>()),+]
            }
            fn schemas() -> SmallVec<[Schema; 4]> {
                smallvec::smallvec![$($t::schema()),+]
            }
            fn bytes(&self) -> SmallVec<[&[u8]; 4]> {
                smallvec::smallvec![$(bytemuck::bytes_of(&self.$i)),+]
            }
            fn copy_words(&self, out: &mut [u32]) {
                let out: &mut [u8] = bytemuck::cast_slice_mut(out);
                let mut at = 0;
                $(
                    let n = std::mem::size_of::<$t>();
                    out[at..at + n].copy_from_slice(bytemuck::bytes_of(&self.$i));
                    at += n;
                )+
                debug_assert_eq!(at, out.len());
            }
        }
    };
}

bundle!(A 0);
bundle!(A 0, B 1);
bundle!(A 0, B 1, C 2);
bundle!(A 0, B 1, C 2, D 3);
bundle!(A 0, B 1, C 2, D 3, E 4);
