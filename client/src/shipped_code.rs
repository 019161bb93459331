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

#[cfg(test)]
mod tests {
    use super::*;
    use arbor_core::{ArenaConfig, AttributeValue, Class, IdRange, RUN_CONTEXT_ATTRIBUTE};
    use arbor_script::{HostConfig, compile_bytecode};
    use proptest::prelude::*;
    use std::sync::Arc;

    #[derive(Clone, Debug)]
    enum Op {
        /// Code version `v` of script `k` arrives.
        Arrive(u64, u8),
        /// Script `k` streams in (a new replica instance, with no source).
        StreamIn(u64),
        /// Script `k` streams out.
        StreamOut(u64),
    }

    fn op() -> impl Strategy<Value = Op> {
        prop_oneof![
            (0..4u64, 0..3u8).prop_map(|(k, v)| Op::Arrive(k, v)),
            (0..4u64).prop_map(Op::StreamIn),
            (0..4u64).prop_map(Op::StreamOut),
        ]
    }

    fn id(k: u64) -> Id {
        Id(100 + k)
    }

    proptest! {
        /// Whatever order scripts stream in and out and their code arrives in, every Script
        /// the replica holds ends up keyed to the newest code that arrived for it, and a
        /// Script with no code yet has none.
        #[test]
        fn every_held_script_gets_its_newest_code(ops in proptest::collection::vec(op(), 1..40)) {
            let mut arena = Arena::with_config(ArenaConfig { id_range: IdRange::ClientLocal, ..Default::default() });
            let mut host = ScriptHost::new(&arena, HostConfig { client: true, ..Default::default() }).unwrap();
            let mut shipped = ShippedCode::default();
            let mut newest: FxHashMap<Id, u64> = FxHashMap::default();
            let ws = arena.workspace();
            for op in ops {
                match op {
                    Op::Arrive(k, v) => {
                        let code = compile_bytecode(&format!("-- version {v}\nfunction Update(dt) end")).unwrap();
                        let code = ScriptCode::new(id(k), Arc::from(code));
                        newest.insert(id(k), code.hash);
                        shipped.receive(vec![code]);
                    }
                    Op::StreamIn(k) if !arena.contains(id(k)) => {
                        arena.insert_with_id(id(k), Class::Script, "S", Some(ws)).unwrap();
                        let context = Some(AttributeValue::String("Client".into()));
                        arena.set_attribute(id(k), RUN_CONTEXT_ATTRIBUTE, context).unwrap();
                    }
                    Op::StreamOut(k) if arena.contains(id(k)) => {
                        arena.destroy(id(k)).unwrap();
                        arena.drain_events();
                        arena.drain_events();
                    }
                    _ => {}
                }
                prop_assert!(shipped.install(&mut host, &mut arena).is_empty());
                for k in 0..4 {
                    let Some(source) = arena.script_source(id(k)) else { continue };
                    match newest.get(&id(k)) {
                        Some(hash) => prop_assert!(source.ends_with(&format!(" {hash:016x}")), "{source}"),
                        None => prop_assert_eq!(source, ""),
                    }
                }
            }
        }
    }
}
