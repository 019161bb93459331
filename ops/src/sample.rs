//! The server's state as a plain value, [`ServerSample`], gathered on the tick thread about
//! once a second ([`SampleGatherer`]) and read by the metrics endpoint at scrape time.
//!
//! Invariants: a sample is a copy (the endpoint's thread never touches the simulation);
//! the summed bytes and messages sent only grow, because clients that left keep counting
//! (the gatherer keeps each connected client's last counters to add only what is new).

use crate::rates::{RATE_WINDOWS, TickRates};
use arbor_net::NetServer;
use arbor_script::{CloudQueue, ScriptHost, ScriptUsage, StoreStats};
use arbor_sim::Simulation;
use std::collections::BTreeMap;
use std::time::Instant;

/// Scripts reported one by one: the most work units first.
pub const TOP_SCRIPTS: usize = 20;

/// One connected client.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ClientSample {
    /// The client's user id.
    pub user_id: u64,
    /// Replication bytes built for it since it connected.
    pub sent_bytes: u64,
    /// Replication messages built for it since it connected.
    pub sent_messages: u64,
    /// The transport's measured send rate, bytes a second.
    pub bytes_per_second: f64,
    /// Round-trip time, seconds.
    pub rtt_seconds: f64,
}

/// What the metrics endpoint reports besides the per-tick histograms.
#[derive(Clone, Debug, Default)]
pub struct ServerSample {
    /// The tick count.
    pub tick: u64,
    /// Ticks per second over each of [`RATE_WINDOWS`].
    pub ticks_per_second: [f64; RATE_WINDOWS.len()],
    /// Players in session.
    pub players: usize,
    /// Instances in the place.
    pub instances: usize,
    /// Awake physics bodies at the last tick.
    pub awake_bodies: usize,
    /// Suspended physics bodies at the last tick.
    pub suspended_bodies: usize,
    /// Connected clients.
    pub clients: Vec<ClientSample>,
    /// Replication bytes sent to every client that ever connected.
    pub sent_bytes: u64,
    /// Replication messages sent to every client that ever connected.
    pub sent_messages: u64,
    /// Seconds spent in the Snapshot phase (capture, views, encoding, sending).
    pub replication_seconds: f64,
    /// Network ticks run.
    pub network_ticks: u64,
    /// Clients disconnected for bad input.
    pub malformed_disconnects: u64,
    /// The [`TOP_SCRIPTS`] scripts that used the most work units.
    pub scripts: Vec<ScriptUsage>,
    /// Scripts that are running.
    pub script_count: usize,
    /// Script errors logged.
    pub script_errors: u64,
    /// The local stores' counters.
    pub store: StoreStats,
    /// The cloud store's queue, once a script opened one.
    pub cloud: Option<CloudQueue>,
    /// Whether the server is draining (admitting no one).
    pub draining: bool,
}

/// Builds [`ServerSample`]s, keeping what it needs between them.
#[derive(Debug, Default)]
pub struct SampleGatherer {
    rates: TickRates,
    /// Each connected client's bytes and messages at the last sample.
    last_sent: BTreeMap<u64, (u64, u64)>,
    sent_bytes: u64,
    sent_messages: u64,
}

impl SampleGatherer {
    /// Reads the server's state now.
    pub fn gather(&mut self, sim: &Simulation, net: Option<&NetServer>, host: &ScriptHost) -> ServerSample {
        self.rates.sample(Instant::now(), sim.ticks());
        let counters = sim.profiler().last();
        let mut sample = ServerSample {
            tick: sim.ticks(),
            ticks_per_second: self.rates.rates(),
            players: sim.players.len(),
            instances: sim.arena.len(),
            awake_bodies: counters.awake_bodies,
            suspended_bodies: counters.suspended_bodies,
            script_errors: host.error_count(),
            store: host.store_stats(),
            cloud: host.cloud_queue(),
            ..ServerSample::default()
        };
        let mut scripts = host.script_usage();
        sample.script_count = scripts.len();
        scripts.truncate(TOP_SCRIPTS);
        sample.scripts = scripts;
        if let Some(net) = net {
            let stats = net.stats();
            sample.replication_seconds = stats.replication.as_secs_f64();
            sample.network_ticks = stats.network_ticks;
            sample.malformed_disconnects = stats.malformed_disconnects;
            sample.draining = net.draining();
            sample.clients = net
                .client_reports()
                .into_iter()
                .map(|r| ClientSample {
                    user_id: r.user_id,
                    sent_bytes: r.view.bytes,
                    sent_messages: r.view.messages,
                    bytes_per_second: r.bytes_per_second,
                    rtt_seconds: r.rtt,
                })
                .collect();
        }
        self.add_sent(&sample.clients);
        sample.sent_bytes = self.sent_bytes;
        sample.sent_messages = self.sent_messages;
        sample
    }

    /// Adds what each client was sent since the last sample to the sums.
    fn add_sent(&mut self, clients: &[ClientSample]) {
        let mut now = BTreeMap::new();
        for c in clients {
            let (bytes, messages) = self.last_sent.get(&c.user_id).copied().unwrap_or((0, 0));
            // A client that reconnected under the same id starts from zero again.
            let (bytes, messages) = if c.sent_bytes < bytes { (0, 0) } else { (bytes, messages) };
            self.sent_bytes += c.sent_bytes - bytes;
            self.sent_messages += c.sent_messages.saturating_sub(messages);
            now.insert(c.user_id, (c.sent_bytes, c.sent_messages));
        }
        self.last_sent = now;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn client(user_id: u64, sent_bytes: u64) -> ClientSample {
        ClientSample { user_id, sent_bytes, sent_messages: sent_bytes / 100, ..ClientSample::default() }
    }

    #[test]
    fn sums_keep_what_departed_clients_were_sent() {
        let mut g = SampleGatherer::default();
        g.add_sent(&[client(1, 1000), client(2, 500)]);
        assert_eq!((g.sent_bytes, g.sent_messages), (1500, 15));
        g.add_sent(&[client(1, 1800)]);
        assert_eq!(g.sent_bytes, 2300, "client 2 left; what it was sent stays counted");
        g.add_sent(&[client(1, 1800), client(2, 200)]);
        assert_eq!(g.sent_bytes, 2500, "client 2 came back and starts from zero");
        g.add_sent(&[client(1, 100)]);
        assert_eq!(g.sent_bytes, 2600, "client 1 reconnected: its counters restarted");
    }

    proptest::proptest! {
        /// Against a model that adds each client's growth (or its whole count after a
        /// restart), the sums equal the model's and never shrink, whoever comes and goes.
        #[test]
        fn sums_match_a_model_and_never_shrink(
            steps in proptest::collection::vec(proptest::collection::btree_map(0u64..6, 0u64..5_000, 0..6), 1..40)
        ) {
            let mut g = SampleGatherer::default();
            let mut last: BTreeMap<u64, u64> = BTreeMap::new();
            let mut model = 0u64;
            for clients in steps {
                let samples: Vec<ClientSample> = clients.iter().map(|(&u, &b)| client(u, b)).collect();
                for (&user, &bytes) in &clients {
                    let before = last.get(&user).copied().filter(|&b| b <= bytes).unwrap_or(0);
                    model += bytes - before;
                }
                last = clients;
                let previous = g.sent_bytes;
                g.add_sent(&samples);
                proptest::prop_assert_eq!(g.sent_bytes, model);
                proptest::prop_assert!(g.sent_bytes >= previous);
            }
        }
    }
}
