//! Helpers shared by the integration tests.

pub mod server;
pub mod sidecar;
