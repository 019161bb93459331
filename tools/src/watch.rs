//! `arbor serve --watch`: hot reload of scripts whose source lives in `sourceFile`s. Saving
//! the file reloads the script in place (`docs/scripting.md`,
//! "Hot reload"), through [`ScriptHost::reload`]: the new code is tried beside the
//! running instances and swapped in only if every trial loads, initialises and migrates.
//!
//! The files are polled (modification time and length) every [`POLL_TICKS`] ticks, between
//! ticks, so a reload never lands in the middle of a script; no extra thread or dependency.
//! A file that changed but holds the source already running is left alone.

use arbor_core::Arena;
use arbor_place::{MAX_SOURCE_FILE_BYTES, ScriptFile};
use arbor_script::ScriptHost;
use std::path::PathBuf;
use std::time::SystemTime;

/// Ticks between two looks at the files (a quarter of a second at 60 Hz).
pub const POLL_TICKS: u64 = 15;

/// One watched file.
struct Watched {
    file: ScriptFile,
    /// Modification time and length at the last look (`None`: unreadable then).
    seen: Option<(SystemTime, u64)>,
}

/// The source files of a place's scripts, watched for saves.
pub struct ScriptWatcher {
    files: Vec<Watched>,
}

fn stamp(path: &PathBuf) -> Option<(SystemTime, u64)> {
    let meta = std::fs::metadata(path).ok()?;
    Some((meta.modified().ok()?, meta.len()))
}

impl ScriptWatcher {
    /// Watches `files` from their state now.
    pub fn new(files: Vec<ScriptFile>) -> Self {
        let files = files.into_iter().map(|file| Watched { seen: stamp(&file.path), file }).collect();
        Self { files }
    }

    /// How many files are watched.
    pub fn len(&self) -> usize {
        self.files.len()
    }

    /// Reloads the scripts whose files changed since the last look; returns one line per
    /// reload (done or rolled back) to print.
    pub fn poll(&mut self, arena: &mut Arena, host: &mut ScriptHost) -> Vec<String> {
        let mut said = Vec::new();
        for w in &mut self.files {
            let now = stamp(&w.file.path);
            if now == w.seen {
                continue;
            }
            w.seen = now;
            let path = w.file.path.display();
            let script = w.file.script;
            let Some(name) = arena.get(script).map(|_| arena.full_name(script)) else { continue };
            if now.is_some_and(|(_, len)| len > MAX_SOURCE_FILE_BYTES) {
                said.push(format!(
                    "reload of {name} skipped: {path} is larger than {MAX_SOURCE_FILE_BYTES} bytes"
                ));
                continue;
            }
            let text = match std::fs::read_to_string(&w.file.path) {
                Ok(text) => text,
                Err(e) => {
                    said.push(format!("reload of {name} skipped: reading {path}: {e}"));
                    continue;
                }
            };
            if arena.script_source(script) == Some(text.as_str()) {
                continue;
            }
            said.push(match host.reload(arena, script, &text) {
                Ok(0) => format!("reloaded {name} from {path}; it starts at the next tick"),
                Ok(n) => {
                    format!("reloaded {name} from {path} ({n} instance{})", if n == 1 { "" } else { "s" })
                }
                Err(e) => format!("{e}; the old code keeps running"),
            });
        }
        said
    }
}
