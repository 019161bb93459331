//! Shared helpers for the Arbor benchmarks.
