//! The server's end of client scripts: [`ScriptShipping`] tracks the place's Scripts whose
//! `RunContext` runs on clients (`Client` or `Both`), compiles each with the compiler the
//! host installed ([`NetServer::set_script_compiler`]) and sends every client the code of the
//! scripts its view holds, on the reliable, ordered code channel.
//!
//! The scripts are found incrementally, as the script host finds its own: Scripts under nodes
//! created or moved since the last look (the topology journal), Scripts whose own state was
//! written (a new source, a changed `RunContext`), or every Script again when the journals'
//! history is gone. One source compiles once, however many Scripts share it.
//!
//! Scripts in the world and in the templates under the top-level `Prefabs` folder are shipped
//! (a client's `game.Prefabs.Spawn` copy runs the code its template was sent).
//!
//! Invariants: a server-only Script is never compiled for shipping, let alone sent; a client
//! receives a script's code only while its view holds the Script (the instance and its code
//! travel on different channels, so either may arrive first: the client starts the script
//! when it has both); each version of a script's code is sent to a client at most once per
//! connection; code that does not fit the client's code channel now waits for a later
//! network tick, so the channel never overflows.

use super::NetServer;
use crate::replication::ClientView;
use crate::transport::CODE;
use crate::wire::{MAX_SCRIPT_CODE_BYTES, ScriptCode};
use arbor_core::raw::TopologyChange;
use arbor_core::{Arena, Class, Id, NodeFlags, RunContext};
use renet::{Bytes, RenetServer};
use rustc_hash::FxHashMap;
use std::sync::Arc;
use std::time::Instant;

/// Compiles a Luau source to bytecode, or says why it cannot (`arbor_script::compile_bytecode`
/// in a server that runs scripts).
pub type ScriptCompiler = Box<dyn Fn(&str) -> Result<Vec<u8>, String>>;

/// What the code channel carried, summed over clients.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ShippingStats {
    /// Client scripts in the world with code to ship.
    pub scripts: usize,
    /// Code messages sent.
    pub sent: u64,
    /// Their bytes.
    pub bytes: u64,
}

/// One client script's code, encoded once and shared by every client's send.
struct Shipped {
    hash: u64,
    message: Bytes,
}

/// The server's client-script tracker and sender.
#[derive(Default)]
pub(crate) struct ScriptShipping {
    compiler: Option<ScriptCompiler>,
    /// Client scripts in the world whose code compiled, by Script id.
    scripts: FxHashMap<Id, Shipped>,
    /// Compiled code (or the compile error) by source.
    compiled: FxHashMap<Arc<str>, Result<Arc<[u8]>, String>>,
    /// The arena's global revision when the scripts were last looked at.
    seen: Option<u64>,
    /// Per client: when its connection began, and the hash of each script's code it was sent
    /// on that connection.
    sent: FxHashMap<u64, (Instant, FxHashMap<Id, u64>)>,
    /// Lines for the server's log: client scripts that could not be shipped.
    problems: Vec<String>,
    stats: ShippingStats,
}

impl ScriptShipping {
    /// Brings the tracked client scripts up to date with `arena`.
    pub(crate) fn refresh(&mut self, arena: &Arena) {
        let now = arena.revisions().global;
        if self.compiler.is_none() || self.seen == Some(now) {
            return;
        }
        let candidates = self.seen.and_then(|since| changed_scripts(arena, since));
        let candidates = candidates
            .unwrap_or_else(|| arena.iter().filter(|n| n.class() == Class::Script).map(|n| n.id()).collect());
        self.seen = Some(now);
        self.scripts.retain(|&id, _| in_world(arena, id));
        for id in candidates {
            self.track(arena, id);
        }
        self.stats.scripts = self.scripts.len();
    }

    /// Tracks `id` if it is an in-world client Script whose code compiles, else forgets it.
    fn track(&mut self, arena: &Arena, id: Id) {
        let source = match RunContext::of(arena, id) {
            Ok(context) if context.runs_on(true) && in_world(arena, id) => arena.script_source(id),
            _ => None,
        };
        let Some(source) = source else {
            self.scripts.remove(&id);
            return;
        };
        let code = match self.compiled.get(source) {
            Some(code) => code.clone(),
            None => {
                let compiler = self.compiler.as_ref().expect("refresh checked the compiler");
                let code = compiler(source).map(Arc::from).and_then(|code: Arc<[u8]>| {
                    if code.len() > MAX_SCRIPT_CODE_BYTES {
                        Err(format!("its bytecode is {} bytes, over {MAX_SCRIPT_CODE_BYTES}", code.len()))
                    } else {
                        Ok(code)
                    }
                });
                self.compiled.insert(source.into(), code.clone());
                code
            }
        };
        match code {
            Ok(bytecode) => {
                let code = ScriptCode::new(id, bytecode);
                if self.scripts.get(&id).is_none_or(|s| s.hash != code.hash) {
                    self.scripts.insert(id, Shipped { hash: code.hash, message: Bytes::from(code.encode()) });
                }
            }
            Err(why) => {
                self.scripts.remove(&id);
                let path = arena.full_name(id);
                self.problems.push(format!("client script {path} is not sent to clients: {why}"));
            }
        }
    }

    /// Sends each client the code of the scripts its view holds that it was not sent yet.
    pub(crate) fn ship<'a>(
        &mut self,
        renet: &mut RenetServer,
        clients: impl Iterator<Item = (u64, Instant, &'a ClientView)>,
    ) {
        let mut connected = Vec::new();
        for (client, connected_at, view) in clients {
            connected.push(client);
            let (since, sent) =
                self.sent.entry(client).or_insert_with(|| (connected_at, FxHashMap::default()));
            if *since != connected_at {
                // A new connection of the same user: it holds no code yet.
                *since = connected_at;
                sent.clear();
            }
            for (&id, shipped) in &self.scripts {
                if sent.get(&id) == Some(&shipped.hash) || !view.holds(id) {
                    continue;
                }
                if !renet.can_send_message(client, CODE, shipped.message.len()) {
                    break; // the rest waits for a later network tick
                }
                renet.send_message(client, CODE, shipped.message.clone());
                sent.insert(id, shipped.hash);
                self.stats.sent += 1;
                self.stats.bytes += shipped.message.len() as u64;
            }
        }
        if self.sent.len() > connected.len() {
            self.sent.retain(|client, _| connected.contains(client));
        }
    }
}

/// Scripts that may have changed since revision `since`: those under nodes created or moved,
/// and those written; `None` when the journals no longer reach back that far.
fn changed_scripts(arena: &Arena, since: u64) -> Option<Vec<Id>> {
    let mut out: Vec<Id> = Vec::new();
    for (_, change) in arena.topology_since(since).ok()? {
        if let TopologyChange::Created { id, .. } | TopologyChange::Moved { id, .. } = change {
            out.extend(arena.subtree(id).into_iter().filter(|&s| is_script(arena, s)));
        }
    }
    out.extend(arena.node_writes_since(since).ok()?.filter(|&s| is_script(arena, s)));
    out.sort_unstable();
    out.dedup();
    Some(out)
}

fn is_script(arena: &Arena, id: Id) -> bool {
    arena.get(id).is_some_and(|n| n.class() == Class::Script)
}

/// Whether `id` is where client scripts are shipped from: in the world, or in a template
/// under `Prefabs` (a client's spawned copy runs the code its template was sent).
fn in_world(arena: &Arena, id: Id) -> bool {
    arena.get(id).is_some_and(|n| n.flags().contains(NodeFlags::IN_WORLD))
        || crate::replication::under_templates(arena, id)
}

impl NetServer {
    /// Installs the compiler for client scripts: from then on the server ships the bytecode
    /// of every in-world Script whose `RunContext` is `Client` or `Both` to the clients whose
    /// range holds it, and ships it again after its source changes (a hot reload). Without a
    /// compiler no code is shipped.
    pub fn set_script_compiler(&mut self, compiler: ScriptCompiler) {
        self.scripts.compiler = Some(compiler);
        self.scripts.seen = None;
    }

    /// Takes the log lines about client scripts that could not be shipped (a compile error,
    /// code over [`MAX_SCRIPT_CODE_BYTES`]).
    pub fn take_script_problems(&mut self) -> Vec<String> {
        std::mem::take(&mut self.scripts.problems)
    }

    /// What the code channel carried.
    pub fn shipping_stats(&self) -> ShippingStats {
        self.scripts.stats
    }

    /// Tracks the client scripts and ships their code (the end of a network tick).
    pub(super) fn ship_scripts(&mut self, arena: &Arena) {
        self.scripts.refresh(arena);
        let clients = self.clients.iter().filter(|(_, s)| s.view.is_joined());
        self.scripts.ship(&mut self.renet, clients.map(|(&id, s)| (id, s.connected_at, &s.view)));
    }
}
