//! Loading places from files (JSON or binary, told apart by content) and the `place`
//! subcommands.

use arbor_core::Arena;
use arbor_place::ScriptFile;
use clap::Subcommand;
use std::path::{Path, PathBuf};

/// The example place shipped in the repository, embedded as the default.
pub const EXAMPLE_PLACE: &str = include_str!("../../places/example.place.json");

/// Place file subcommands.
#[derive(Subcommand, Debug)]
pub enum PlaceCommand {
    /// Convert a place between JSON (`.json`) and binary (any other extension).
    Convert {
        /// Input place (JSON or binary).
        input: PathBuf,
        /// Output place; JSON if it ends in `.json`, binary otherwise.
        output: PathBuf,
    },
    /// Load a place and print its instance count, or the error that refuses it.
    Check {
        /// The place file.
        place: PathBuf,
    },
}

/// A loaded place.
pub struct Loaded {
    /// The place.
    pub arena: Arena,
    /// The name to report it by (its path, or the embedded example place).
    pub name: String,
    /// The scripts whose source came from `sourceFile`s (JSON places loaded from a file).
    pub script_files: Vec<ScriptFile>,
}

/// Loads a place file: binary if it starts with the binary magic, JSON otherwise (with its
/// `sourceFile`s read beside it).
pub fn load(path: &Path) -> Result<Loaded, String> {
    let bytes = read_bounded(path)?;
    let at = |e: arbor_place::PlaceError| format!("{}: {e}", path.display());
    let (arena, script_files) = if bytes.starts_with(arbor_place::PLACE_BINARY_MAGIC) {
        (arbor_place::load_binary(&bytes).map_err(at)?, Vec::new())
    } else {
        let text =
            std::str::from_utf8(&bytes).map_err(|e| format!("{}: not UTF-8 JSON: {e}", path.display()))?;
        arbor_place::load_json_in(text, path.parent().unwrap_or(Path::new(""))).map_err(at)?
    };
    Ok(Loaded { arena, name: path.display().to_string(), script_files })
}

/// Largest place file read (1 GiB): a larger file, or an endless one (a pipe, a device), is
/// refused instead of filling memory.
pub const MAX_PLACE_BYTES: u64 = 1 << 30;

/// The bytes of `path`, at most [`MAX_PLACE_BYTES`].
fn read_bounded(path: &Path) -> Result<Vec<u8>, String> {
    use std::io::Read;
    let file = std::fs::File::open(path).map_err(|e| format!("reading {}: {e}", path.display()))?;
    let mut bytes = Vec::new();
    file.take(MAX_PLACE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("reading {}: {e}", path.display()))?;
    if bytes.len() as u64 > MAX_PLACE_BYTES {
        return Err(format!("{}: larger than {MAX_PLACE_BYTES} bytes; not a place file", path.display()));
    }
    Ok(bytes)
}

/// Loads the place at `path`, or the embedded example place without one.
pub fn load_or_example(path: Option<&Path>) -> Result<Loaded, String> {
    match path {
        Some(path) => load(path),
        None => Ok(Loaded {
            arena: load_bytes(EXAMPLE_PLACE.as_bytes())?,
            name: "embedded example place".to_owned(),
            script_files: Vec::new(),
        }),
    }
}

/// Loads a place from bytes (binary or JSON).
pub fn load_bytes(bytes: &[u8]) -> Result<Arena, String> {
    if bytes.starts_with(arbor_place::PLACE_BINARY_MAGIC) {
        arbor_place::load_binary(bytes).map_err(|e| e.to_string())
    } else {
        let text = std::str::from_utf8(bytes).map_err(|e| format!("not UTF-8 JSON: {e}"))?;
        arbor_place::load_json(text).map_err(|e| e.to_string())
    }
}

/// Runs a `place` subcommand.
pub fn run(cmd: PlaceCommand) -> Result<(), String> {
    match cmd {
        PlaceCommand::Convert { input, output } => {
            let arena = load(&input)?.arena;
            let bytes = if output.extension().is_some_and(|e| e == "json") {
                arbor_place::save_json(&arena).into_bytes()
            } else {
                arbor_place::save_binary(&arena)
            };
            std::fs::write(&output, &bytes).map_err(|e| format!("writing {}: {e}", output.display()))?;
            println!("{} instances, {} bytes written to {}", arena.len(), bytes.len(), output.display());
            Ok(())
        }
        PlaceCommand::Check { place } => {
            let arena = load(&place)?.arena;
            println!("{}: {} instances", place.display(), arena.len());
            Ok(())
        }
    }
}
