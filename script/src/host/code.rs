//! Compiled code: [`compile_bytecode`], the one compiler setting every host and the server's
//! client-script shipping use, and a client host's installed code.
//!
//! A client never compiles a source: the server ships each client script's bytecode and the
//! client's runtime installs it ([`ScriptHost::install_client_code`]). The replica's Script
//! then holds a *code key* as its source (`--arbor:bytecode <script> <hash>`, unique per
//! Script so a reload swaps that Script alone), which names the bytecode in the host's code
//! cache. A client host starts a Script only once its code key names installed code; new code
//! for a running Script goes through [`ScriptHost::reload`], so `Migrate` works on clients too.

use super::{Prepared, ReloadError, ScriptHost};
use crate::luau::convert::error_text;
use crate::state::with_state;
use arbor_core::{Arena, Id};
use std::sync::Arc;

/// The start of a code key (a Luau comment, so no key is a runnable source by accident).
const CODE_KEY_PREFIX: &str = "--arbor:bytecode ";

/// Compiles a Luau source to bytecode as every host loads it (optimisation level 2, line
/// information for error messages), or returns the compiler's message (`line: message`).
///
/// ```
/// let code = arbor_script::compile_bytecode("function Update(dt) end").unwrap();
/// assert!(!code.is_empty());
/// assert!(arbor_script::compile_bytecode("function (").is_err());
/// ```
pub fn compile_bytecode(source: &str) -> Result<Vec<u8>, String> {
    mlua::chunk::Compiler::new()
        .set_optimization_level(2)
        .set_debug_level(1)
        .compile(source)
        .map_err(|e| error_text(&e))
}

/// The code key of `script`'s code with hash `hash`.
fn code_key(script: Id, hash: u64) -> String {
    format!("{CODE_KEY_PREFIX}{script} {hash:016x}")
}

impl ScriptHost {
    /// On a client host: installs `bytecode` (hash `hash`, as the server shipped it) as the
    /// code of replicated Script `script`. A Script not yet running starts at the next tick;
    /// a running one is reloaded (its `Migrate` runs; a failed trial keeps the old code and
    /// is returned). Returns how many instances were swapped.
    pub fn install_client_code(
        &mut self,
        arena: &mut Arena,
        script: Id,
        hash: u64,
        bytecode: Arc<[u8]>,
    ) -> Result<usize, ReloadError> {
        if !self.is_client() {
            return Err(ReloadError::ServerHost);
        }
        let key = code_key(script, hash);
        let old: Arc<str> = match arena.script_source(script) {
            None => return Err(ReloadError::NotAScript(script)),
            Some(current) if current == key => return Ok(0),
            Some(current) => current.into(),
        };
        self.bytecode.insert(key.as_str().into(), Prepared::Ok(bytecode));
        let swapped = match self.reload(arena, script, &key) {
            Ok(swapped) => swapped,
            Err(e) => {
                self.bytecode.remove(key.as_str());
                return Err(e);
            }
        };
        if old.starts_with(CODE_KEY_PREFIX) {
            // The replaced code's key names this Script alone: nothing loads it again.
            self.bytecode.remove(&old);
        }
        if swapped == 0 {
            self.requeued.push(script);
        }
        Ok(swapped)
    }

    /// Whether this host runs client scripts.
    pub(crate) fn is_client(&self) -> bool {
        with_state(&self.lua, |s| s.client).unwrap_or(false)
    }

    /// On a client host: whether `source` is a code key naming installed code (otherwise the
    /// Script waits for its code and does not start).
    pub(crate) fn has_installed_code(&self, source: &str) -> bool {
        source.starts_with(CODE_KEY_PREFIX) && matches!(self.bytecode.get(source), Some(Prepared::Ok(_)))
    }
}
