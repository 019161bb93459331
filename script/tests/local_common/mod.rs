//! Shared helpers of the `game.Store` suites (`local_store.rs`, `local_store_kill.rs`): a
//! temporary data directory, a host configured with it, a place with one script, and the
//! stores' counters.

#![allow(dead_code)]

use crate::common::{Place, Running};
use arbor_script::{HostConfig, LOCAL_STORE_FILE, StoreConfig, StoreStats};
use std::path::{Path, PathBuf};

/// A directory removed when dropped.
pub struct TempDir(pub PathBuf);

impl TempDir {
    pub fn new(tag: &str) -> Self {
        let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_nanos();
        let dir =
            std::env::temp_dir().join(format!("arbor-local-store-{tag}-{}-{nanos}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        Self(dir)
    }

    pub fn file(&self) -> PathBuf {
        self.0.join(LOCAL_STORE_FILE)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

pub fn config(dir: Option<&Path>) -> HostConfig {
    HostConfig {
        stores: StoreConfig { data_dir: dir.map(Path::to_path_buf), cloud_url: None },
        ..Default::default()
    }
}

/// Starts a place with one script `Main` under the Workspace.
pub fn start(config: HostConfig, source: &str) -> Running {
    let mut place = Place::new();
    let ws = place.workspace();
    place.script("Main", ws, source);
    place.start_with(config)
}

pub fn stats(running: &Running) -> StoreStats {
    running.host.borrow().store_stats()
}
