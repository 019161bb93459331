//! Script sources kept in `.luau` files beside a place file: `{"class": "Script",
//! "sourceFile": "scripts/turret.luau"}` instead of an inline `source`.
//!
//! [`load_json_file`] reads the place and every named file. A `sourceFile` is a relative
//! path inside the place file's folder (no `..`, no absolute path, at most
//! [`MAX_SOURCE_FILE_BYTES`]); the file's text becomes the script's source unchanged, so
//! line numbers in load and runtime errors count lines of that file. The loaded arena holds
//! the text, not the path: the returned [`ScriptFile`]s say which script came from which
//! file (for hot reload), and saving a place writes sources inline.

use super::error::PlaceError;
use super::model::PlaceFile;
use crate::arena::Arena;
use crate::id::Id;
use std::path::{Component, Path, PathBuf};

/// Largest script source file read (4 MiB).
pub const MAX_SOURCE_FILE_BYTES: u64 = 4 << 20;

/// A script whose source was read from a file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScriptFile {
    /// The `Script` instance.
    pub script: Id,
    /// The file, as the place's folder joined with the `sourceFile` path.
    pub path: PathBuf,
}

/// Loads the JSON place file at `path`, reading each `sourceFile` beside it.
///
/// ```no_run
/// let (arena, files) = arbor_core::place::load_json_file("places/arena.place.json".as_ref()).unwrap();
/// for f in &files {
///     println!("{} from {}", arena.full_name(f.script), f.path.display());
/// }
/// ```
pub fn load_json_file(path: &Path) -> Result<(Arena, Vec<ScriptFile>), PlaceError> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| PlaceError::Unreadable(format!("reading {}: {e}", path.display())))?;
    load_json_in(&text, path.parent().unwrap_or(Path::new("")))
}

/// Loads JSON place `text` whose `sourceFile`s lie in folder `base` (the place file's).
pub fn load_json_in(text: &str, base: &Path) -> Result<(Arena, Vec<ScriptFile>), PlaceError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let file: PlaceFile<'_> = super::json::parse(text)?;
    file.to_arena_in(Some(base))
}

/// Reads source file `rel` inside folder `base`; the error is the message to report.
pub(crate) fn read_source_file(base: Option<&Path>, rel: &str) -> Result<(PathBuf, String), String> {
    let Some(base) = base else {
        return Err(format!("'{rel}' can only be read from a place loaded from a file"));
    };
    let inside = !rel.is_empty() && Path::new(rel).components().all(|c| matches!(c, Component::Normal(_)));
    if !inside {
        return Err(format!("'{rel}' must be a relative path inside the place's folder"));
    }
    let path = base.join(rel);
    let meta = std::fs::metadata(&path).map_err(|e| format!("reading {}: {e}", path.display()))?;
    if meta.len() > MAX_SOURCE_FILE_BYTES {
        return Err(format!("{} is larger than {MAX_SOURCE_FILE_BYTES} bytes", path.display()));
    }
    let text = std::fs::read_to_string(&path).map_err(|e| format!("reading {}: {e}", path.display()))?;
    Ok((path, text))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn place(dir: &Path, script: &str) -> PathBuf {
        let text = format!(
            r#"{{"format": "arbor-place", "version": 1, "instances": [
                {{"class": "Script", "name": "S", {script}}}]}}"#
        );
        let path = dir.join("p.place.json");
        std::fs::write(&path, text).unwrap();
        path
    }

    #[test]
    fn a_source_file_is_read_and_bad_ones_are_refused() {
        let dir = std::env::temp_dir().join(format!("arbor-source-file-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("scripts")).unwrap();
        std::fs::write(dir.join("scripts/s.luau"), "print('hi')\n").unwrap();
        let (arena, files) = load_json_file(&place(&dir, r#""sourceFile": "scripts/s.luau""#)).unwrap();
        assert_eq!(files.len(), 1);
        assert_eq!(arena.script_source(files[0].script), Some("print('hi')\n"));
        assert_eq!(files[0].path, dir.join("scripts/s.luau"));
        for (bad, says) in [
            (r#""sourceFile": "../s.luau""#, "must be a relative path inside the place's folder"),
            (r#""sourceFile": "/etc/hostname""#, "must be a relative path inside the place's folder"),
            (r#""sourceFile": "scripts/missing.luau""#, "reading"),
            (r#""sourceFile": "scripts/s.luau", "source": "x""#, "either source or sourceFile"),
        ] {
            let Err(e) = load_json_file(&place(&dir, bad)) else { panic!("{bad} was accepted") };
            let e = e.to_string();
            assert!(e.contains(says) && e.contains("sourceFile"), "{bad}: {e}");
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
