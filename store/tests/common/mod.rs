//! Helpers shared by the store's integration tests.

use std::path::PathBuf;

/// A fresh directory, removed when dropped.
pub struct TempDir(pub PathBuf);

impl TempDir {
    /// A new directory under the system's temporary folder, named after `tag`, this process
    /// and the time (so runs and tests never share one).
    pub fn new(tag: &str) -> Self {
        let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_nanos();
        let dir = std::env::temp_dir().join(format!("arbor-store-{tag}-{}-{nanos}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        Self(dir)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}
