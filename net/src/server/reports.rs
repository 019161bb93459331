//! What the server reports about its clients: one [`ClientReport`] per client, and the heap
//! its replication state holds. Read-only views of the server's state, for reports and
//! metrics; nothing here changes what is sent.

use super::NetServer;
use crate::replication::ViewStats;

/// One client's figures, for reports.
#[derive(Clone, Copy, Debug)]
pub struct ClientReport {
    /// The user id.
    pub user_id: u64,
    /// Replication counters.
    pub view: ViewStats,
    /// Instances the client holds.
    pub held: usize,
    /// renet's round-trip time, seconds.
    pub rtt: f64,
    /// renet's measured send rate, bytes a second.
    pub bytes_per_second: f64,
    /// Whether the view is settled.
    pub settled: bool,
    /// Seconds connected.
    pub connected_for: f64,
}

impl NetServer {
    /// Per-client figures.
    pub fn client_reports(&self) -> Vec<ClientReport> {
        self.clients
            .iter()
            .map(|(&user_id, s)| {
                let info = self.renet.network_info(user_id).ok();
                ClientReport {
                    user_id,
                    view: s.view.stats(),
                    held: s.view.len(),
                    rtt: info.as_ref().map_or(0.0, |i| i.rtt),
                    bytes_per_second: info.as_ref().map_or(0.0, |i| i.bytes_sent_per_second),
                    settled: s.view.is_settled(),
                    connected_for: s.connected_at.elapsed().as_secs_f64(),
                }
            })
            .collect()
    }

    /// Bytes held by the mirror and the views.
    pub fn heap_bytes(&self) -> (usize, usize) {
        (self.mirror.heap_bytes(), self.clients.values().map(|s| s.view.heap_bytes()).sum())
    }
}
