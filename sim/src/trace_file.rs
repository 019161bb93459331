//! Chrome trace-event JSON (the format Perfetto and `chrome://tracing` open) for phase
//! spans: one complete event (`"ph":"X"`, microseconds) per phase per tick, and, for a
//! window of ticks, a named process and thread and one event spanning each whole tick.

use crate::span_ring::Span;
use std::io::Write as _;
use std::path::Path;
use std::time::Duration;

/// Writes `spans` to `path`; with `whole_ticks`, also the metadata events and one `tick N`
/// event per tick (from its first phase's start to its last phase's end). Returns the phase
/// spans written.
pub(crate) fn write(path: &Path, spans: &[Span], whole_ticks: bool) -> std::io::Result<usize> {
    let mut events: Vec<String> = Vec::with_capacity(spans.len() + 8);
    if whole_ticks {
        events.push(r#"{"name":"process_name","ph":"M","pid":1,"args":{"name":"arbor serve"}}"#.to_owned());
        events.push(r#"{"name":"thread_name","ph":"M","pid":1,"tid":1,"args":{"name":"tick"}}"#.to_owned());
        for (tick, start, end) in tick_extents(spans) {
            events.push(complete(&format!("tick {tick}"), "tick", start, end - start, tick));
        }
    }
    for s in spans {
        events.push(complete(s.phase.name(), "phase", s.start, s.duration, s.tick));
    }
    let mut file = std::io::BufWriter::new(std::fs::File::create(path)?);
    file.write_all(b"{\"traceEvents\":[\n")?;
    file.write_all(events.join(",\n").as_bytes())?;
    file.write_all(b"\n],\"displayTimeUnit\":\"ms\"}\n")?;
    file.flush()?;
    Ok(spans.len())
}

/// One complete event.
fn complete(name: &str, cat: &str, start: Duration, duration: Duration, tick: u64) -> String {
    format!(
        "{{\"name\":\"{name}\",\"cat\":\"{cat}\",\"ph\":\"X\",\"ts\":{:.3},\"dur\":{:.3},\"pid\":1,\"tid\":1,\"args\":{{\"tick\":{tick}}}}}",
        start.as_secs_f64() * 1e6,
        duration.as_secs_f64() * 1e6,
    )
}

/// Each tick's first start and last end, in the order the ticks appear.
fn tick_extents(spans: &[Span]) -> Vec<(u64, Duration, Duration)> {
    let mut out: Vec<(u64, Duration, Duration)> = Vec::new();
    for s in spans {
        let end = s.start + s.duration;
        match out.last_mut() {
            Some((tick, first, last)) if *tick == s.tick => {
                *first = (*first).min(s.start);
                *last = (*last).max(end);
            }
            _ => out.push((s.tick, s.start, end)),
        }
    }
    out
}
