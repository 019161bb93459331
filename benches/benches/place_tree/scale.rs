//! The size of the million-node groups and the sampling of groups whose one iteration takes
//! tens of milliseconds or more (10 samples, flat sampling).

use criterion::{BenchmarkGroup, SamplingMode};

/// Nodes in the million-node groups (`snapshot_1m`, `diff_1m`, `create_1m`).
pub(super) const MILLION: usize = 1_000_000;

/// Settings for groups whose one iteration takes tens of milliseconds or more.
pub(super) fn large<M: criterion::measurement::Measurement>(group: &mut BenchmarkGroup<'_, M>) {
    group.sample_size(10);
    group.sampling_mode(SamplingMode::Flat);
}
