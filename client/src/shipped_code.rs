//! [`ShippedCode`]: the client-script code the server shipped, kept per Script and installed
//! into the client's script host whenever the replica holds that Script without it.
//!
//! The instance and its code travel on different channels, so either may come first; a Script
//! that leaves the client's range and comes back is a new instance in the replica, whose code
//! must be installed again. So the newest code of every Script stays here for the whole
//! connection (a few kilobytes a script), and after each change to the replica's tree or each
//! arrival of code every kept Script the replica holds is offered to the host, which ignores
//! code it already runs.
//!
//! Invariants: only the newest code of a Script is kept (code arrives in order on one reliable
//! channel); code whose reload failed is offered once, not again until newer code arrives;
//! nothing here compiles a source.

use arbor_core::{Arena, Id};
use arbor_net::wire::ScriptCode;
use arbor_script::{ReloadError, ScriptHost};
use rustc_hash::{FxHashMap, FxHashSet};

/// The shipped code of the client's scripts.
#[derive(Default)]
pub(crate) struct ShippedCode {
    /// The newest code of each Script.
    code: FxHashMap<Id, ScriptCode>,
    /// The replica's topology revision when the code was last offered.
    offered_at: Option<u64>,
    /// Whether code arrived since it was last offered.
    arrived: bool,
    /// Code whose reload failed (the Script keeps running its older code): not offered again.
    refused: FxHashSet<(Id, u64)>,
}

impl ShippedCode {
    /// Keeps code that arrived (newer code of a Script replaces older).
    pub(crate) fn receive(&mut self, arrived: Vec<ScriptCode>) {
        if arrived.is_empty() {
            return;
        }
        self.arrived = true;
        for code in arrived {
            self.code.insert(code.script, code);
        }
    }

    /// Offers the kept code of every Script the replica holds to `host`, if the tree changed
    /// or code arrived since the last offer. Returns the failures (a reload's trial that
    /// failed keeps the old code running), as log lines.
    pub(crate) fn install(&mut self, host: &mut ScriptHost, arena: &mut Arena) -> Vec<String> {
        let topology = arena.revisions().topology;
        if !self.arrived && self.offered_at == Some(topology) {
            return Vec::new();
        }
        self.arrived = false;
        let mut problems = Vec::new();
        let mut failed = Vec::new();
        let refused = &self.refused;
        let mut held: Vec<&ScriptCode> = self
            .code
            .values()
            .filter(|c| arena.contains(c.script) && !refused.contains(&(c.script, c.hash)))
            .collect();
        held.sort_unstable_by_key(|c| c.script);
        for code in held {
            match host.install_client_code(arena, code.script, code.hash, code.bytecode.clone()) {
                Ok(_) | Err(ReloadError::NotAScript(_)) => {}
                Err(e) => {
                    problems.push(e.to_string());
                    failed.push((code.script, code.hash));
                }
            }
        }
        self.refused.extend(failed);
        self.offered_at = Some(arena.revisions().topology);
        problems
    }

    /// Bytes of code kept.
    pub(crate) fn bytes(&self) -> usize {
        self.code.values().map(|c| c.bytecode.len()).sum()
    }
}
