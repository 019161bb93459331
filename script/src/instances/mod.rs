//! The Instance service: Instance handles, their built-in properties and methods, component
//! handles and `game.Components`, and the small services beside them (`Physics`, the
//! random generator, ordered `pairs`).
//!
//! Layers, bottom up: the Luau boundary (`crate::luau`: call frames, the handles' userdata
//! blocks, metatables, conversions) below this module; `props`, an Instance's built-in
//! properties; then the handles and methods on top (`handle`, `component_handle`,
//! `trampoline`, `instance`, `components`).

pub mod component_handle;
pub mod components;
pub mod handle;
pub mod instance;
pub(crate) mod ordered_pairs;
pub(crate) mod physics;
pub mod props;
pub(crate) mod random;
pub mod trampoline;
