//! The scrape-time half of `/metrics`: a prometheus-client [`Collector`] that writes the
//! latest [`ServerSample`] (players, clients, scripts, stores, physics, rates) and the
//! process's memory and CPU, read when Prometheus asks.
//!
//! Invariant: every name here is unique in the registry and documented in
//! `docs/operations.md` ("Metrics"); counters only grow within one process.

use crate::process;
use crate::rates::RATE_WINDOWS;
use crate::sample::ServerSample;
use prometheus_client::collector::Collector;
use prometheus_client::encoding::{
    DescriptorEncoder, EncodeCounterValue, EncodeGaugeValue, EncodeLabelSet, NoLabelSet,
};
use prometheus_client::metrics::MetricType;
use std::sync::{Arc, Mutex};

/// The latest sample, shared with the endpoint.
#[derive(Debug, Default)]
pub(crate) struct SampleCollector {
    pub(crate) sample: Arc<Mutex<ServerSample>>,
}

/// Writes one metric with a value per label set.
fn family<L: EncodeLabelSet, V: EncodeCounterValue + EncodeGaugeValue>(
    encoder: &mut DescriptorEncoder,
    name: &str,
    help: &str,
    kind: MetricType,
    rows: impl IntoIterator<Item = (L, V)>,
) -> Result<(), std::fmt::Error> {
    let mut metric = encoder.encode_descriptor(name, help, None, kind)?;
    for (labels, value) in rows {
        let mut row = metric.encode_family(&labels)?;
        match kind {
            MetricType::Counter => row.encode_counter::<NoLabelSet, _, u64>(&value, None)?,
            _ => row.encode_gauge(&value)?,
        }
    }
    Ok(())
}

/// Writes one metric without labels.
fn single<V: EncodeCounterValue + EncodeGaugeValue>(
    encoder: &mut DescriptorEncoder,
    name: &str,
    help: &str,
    kind: MetricType,
    value: V,
) -> std::fmt::Result {
    let mut metric = encoder.encode_descriptor(name, help, None, kind)?;
    match kind {
        MetricType::Counter => metric.encode_counter::<NoLabelSet, _, u64>(&value, None),
        _ => metric.encode_gauge(&value),
    }
}

impl Collector for SampleCollector {
    fn encode(&self, mut e: DescriptorEncoder) -> Result<(), std::fmt::Error> {
        let s = self.sample.lock().unwrap_or_else(|p| p.into_inner()).clone();
        use MetricType::{Counter, Gauge};
        let rates = RATE_WINDOWS.iter().zip(s.ticks_per_second).map(|((w, _), r)| ([("window", *w)], r));
        family(&mut e, "arbor_ticks_per_second", "Ticks run per second over the window", Gauge, rates)?;
        single(&mut e, "arbor_players", "Players in session", Gauge, s.players as u64)?;
        single(&mut e, "arbor_instances", "Instances in the place", Gauge, s.instances as u64)?;
        single(
            &mut e,
            "arbor_draining",
            "1 while the server drains (admits no one)",
            Gauge,
            u64::from(s.draining),
        )?;
        let bodies = [
            ([("state", "awake")], s.awake_bodies as u64),
            ([("state", "suspended")], s.suspended_bodies as u64),
        ];
        family(&mut e, "arbor_physics_bodies", "Dynamic physics bodies by state", Gauge, bodies)?;
        single(&mut e, "arbor_clients", "Clients connected", Gauge, s.clients.len() as u64)?;
        let ids: Vec<String> = s.clients.iter().map(|c| c.user_id.to_string()).collect();
        let per_client = |f: fn(&crate::sample::ClientSample) -> f64| {
            ids.iter().zip(&s.clients).map(move |(id, c)| ([("user_id", id.as_str())], f(c)))
        };
        let per_client_count = |f: fn(&crate::sample::ClientSample) -> u64| {
            ids.iter().zip(&s.clients).map(move |(id, c)| ([("user_id", id.as_str())], f(c)))
        };
        family(
            &mut e,
            "arbor_client_sent_bytes",
            "Replication bytes sent to the client since it connected",
            Counter,
            per_client_count(|c| c.sent_bytes),
        )?;
        family(
            &mut e,
            "arbor_client_sent_messages",
            "Replication messages sent to the client since it connected",
            Counter,
            per_client_count(|c| c.sent_messages),
        )?;
        family(
            &mut e,
            "arbor_client_send_rate_bytes",
            "The transport's measured send rate to the client, bytes a second",
            Gauge,
            per_client(|c| c.bytes_per_second),
        )?;
        family(
            &mut e,
            "arbor_client_rtt_seconds",
            "Round-trip time to the client",
            Gauge,
            per_client(|c| c.rtt_seconds),
        )?;
        single(&mut e, "arbor_sent_bytes", "Replication bytes sent to all clients", Counter, s.sent_bytes)?;
        single(
            &mut e,
            "arbor_sent_messages",
            "Replication messages sent to all clients",
            Counter,
            s.sent_messages,
        )?;
        single(
            &mut e,
            "arbor_replication_seconds",
            "Time in the Snapshot phase (capture, views, encoding, sending)",
            Counter,
            s.replication_seconds,
        )?;
        single(&mut e, "arbor_network_ticks", "Network ticks run", Counter, s.network_ticks)?;
        single(
            &mut e,
            "arbor_malformed_disconnects",
            "Clients disconnected for bad input",
            Counter,
            s.malformed_disconnects,
        )?;
        single(&mut e, "arbor_scripts", "Scripts running", Gauge, s.script_count as u64)?;
        single(&mut e, "arbor_script_errors_logged", "Script errors logged", Counter, s.script_errors)?;
        let per_script = |f: fn(&arbor_script::ScriptUsage) -> u64| {
            s.scripts.iter().map(move |u| ([("script", u.name.as_str())], f(u)))
        };
        family(
            &mut e,
            "arbor_script_entries",
            "Entries run by the script (top scripts by units)",
            Counter,
            per_script(|u| u.entries),
        )?;
        family(
            &mut e,
            "arbor_script_units",
            "Work units the script used (top scripts by units)",
            Counter,
            per_script(|u| u.units),
        )?;
        family(
            &mut e,
            "arbor_script_errors",
            "Entries of the script that ended in an error (top scripts by units)",
            Counter,
            per_script(|u| u.errors),
        )?;
        family(
            &mut e,
            "arbor_script_memory_bytes",
            "Luau memory the script's category holds (top scripts by units)",
            Gauge,
            per_script(|u| u.memory_bytes as u64),
        )?;
        single(
            &mut e,
            "arbor_store_pending_puts",
            "Local store puts accepted and not yet durable (the writer's queue)",
            Gauge,
            s.store.pending_puts(),
        )?;
        single(
            &mut e,
            "arbor_store_commits",
            "Local store transactions that landed",
            Counter,
            s.store.commits,
        )?;
        single(
            &mut e,
            "arbor_store_failed_commits",
            "Local store transactions that failed (retried)",
            Counter,
            s.store.failed_commits,
        )?;
        single(
            &mut e,
            "arbor_store_commit_seconds",
            "Time the landed local store transactions took",
            Counter,
            s.store.commit_micros as f64 / 1e6,
        )?;
        let cloud = s.cloud.unwrap_or_default();
        single(
            &mut e,
            "arbor_cloud_store_queued",
            "Cloud store requests waiting for budget or a slot",
            Gauge,
            cloud.queued as u64,
        )?;
        single(
            &mut e,
            "arbor_cloud_store_in_flight",
            "Cloud store requests sent and not answered",
            Gauge,
            cloud.in_flight as u64,
        )?;
        single(
            &mut e,
            "arbor_cloud_store_locks_held",
            "Session locks this server holds",
            Gauge,
            cloud.locks_held as u64,
        )?;
        if let Some(rss) = process::resident_bytes() {
            single(&mut e, "process_resident_memory_bytes", "Resident memory size in bytes", Gauge, rss)?;
        }
        if let Some(cpu) = process::cpu_time() {
            single(
                &mut e,
                "process_cpu_seconds",
                "User and system CPU time spent",
                Counter,
                cpu.as_secs_f64(),
            )?;
        }
        Ok(())
    }
}
