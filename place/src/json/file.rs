//! Loading a JSON place from a file, or from text whose `sourceFile` scripts lie in a given
//! folder: the text parsed as `load_json` parses it, then built with each
//! `sourceFile` read by the rules of `source_file.rs` (inside the folder, bounded size).
//! Nothing is kept on any error, as for every load.

use super::parse::parse;
use crate::error::PlaceError;
use crate::model::PlaceFile;
use crate::source_file::ScriptFile;
use arbor_core::Arena;
use std::path::Path;

/// Loads the JSON place file at `path`, reading each `sourceFile` beside it.
///
/// ```no_run
/// let (arena, files) = arbor_place::load_json_file("places/arena.place.json".as_ref()).unwrap();
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
    let file: PlaceFile<'_> = parse(text)?;
    file.to_arena_in(Some(base))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

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
