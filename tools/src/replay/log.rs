//! The session log of `arbor serve --record` and `arbor replay`: JSON Lines, one header and
//! then one line per tick.
//!
//! - Header: `{"arborReplay":1,"placeHash":"…","dt":…,"networkEvery":2,"randomSeed":…,"resume":null}`:
//!   the hash of the world before the first tick (place and resumed behaviours), the tick's
//!   fixed step, the seed of Scripts' `math.random`, and the behaviours' state text when the
//!   session began from a save.
//! - Tick: `{"tick":N,"inputs":[…],"hash":"…","phases":[["Update","…"],…]}`: what reached
//!   the sessions from outside during that tick ([`SessionInput`]s, in call order), the
//!   world hash after the tick, and, when recorded with phases, the hash after every phase
//!   that ran.
//!
//! Invariants: ticks are written in order from 0 with none missing; hashes are 16 lower-case
//! hex digits; a log cut short (the server killed mid-line) reads up to its last whole line.

use arbor_script::budget::WallAbort;
use arbor_sim::{players::MoveInput, players::SessionInput};
use serde::{Deserialize, Serialize};
use std::io::{BufRead, Write};

/// The log format's version.
pub const LOG_VERSION: u32 = 1;

/// The first line of a log.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Header {
    /// [`LOG_VERSION`].
    pub arbor_replay: u32,
    /// The world hash before the first tick.
    pub place_hash: String,
    /// Seconds per tick.
    pub dt: f64,
    /// Ticks between network ticks.
    pub network_every: u64,
    /// The seed of Scripts' `math.random`.
    pub random_seed: i32,
    /// The behaviours' state the session resumed, if it began from a save.
    pub resume: Option<String>,
}

/// One recorded tick.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct TickLine {
    /// The tick number.
    pub tick: u64,
    /// What reached the sessions from outside, in call order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub inputs: Vec<Input>,
    /// The world hash after the tick.
    pub hash: String,
    /// The hash after every phase that ran, when recorded.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub phases: Vec<(String, String)>,
    /// Script entries the wall-clock backstop stopped this tick (not deterministic, so
    /// journaled like an input and replayed at the same point).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub wall_aborts: Vec<WallAbortLine>,
}

/// A [`WallAbort`] as the log spells it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct WallAbortLine {
    /// The entry's ordinal among the tick's top-level script entries.
    pub entry: u64,
    /// The units it had used when it stopped.
    pub units: i64,
}

impl From<WallAbort> for WallAbortLine {
    fn from(a: WallAbort) -> Self {
        WallAbortLine { entry: a.entry, units: a.units }
    }
}

impl From<WallAbortLine> for WallAbort {
    fn from(a: WallAbortLine) -> Self {
        WallAbort { entry: a.entry, units: a.units }
    }
}

/// A [`SessionInput`] as the log spells it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "camelCase", deny_unknown_fields)]
pub enum Input {
    /// A connection.
    #[serde(rename_all = "camelCase")]
    Connect { user_id: u64, display_name: Option<String> },
    /// A disconnection.
    #[serde(rename_all = "camelCase")]
    Disconnect { user_id: u64, reason: String },
    /// A changed move input.
    #[serde(rename_all = "camelCase")]
    Move { user_id: u64, direction: [f32; 2], jump: bool },
}

impl From<&SessionInput> for Input {
    fn from(input: &SessionInput) -> Self {
        match input {
            SessionInput::Connect { user_id, display_name } => {
                Input::Connect { user_id: *user_id, display_name: display_name.clone() }
            }
            SessionInput::Disconnect { user_id, reason } => {
                Input::Disconnect { user_id: *user_id, reason: reason.clone() }
            }
            SessionInput::Move { user_id, input } => {
                Input::Move { user_id: *user_id, direction: input.direction, jump: input.jump }
            }
        }
    }
}

impl From<&Input> for SessionInput {
    fn from(input: &Input) -> Self {
        match input {
            Input::Connect { user_id, display_name } => {
                SessionInput::Connect { user_id: *user_id, display_name: display_name.clone() }
            }
            Input::Disconnect { user_id, reason } => {
                SessionInput::Disconnect { user_id: *user_id, reason: reason.clone() }
            }
            Input::Move { user_id, direction, jump } => SessionInput::Move {
                user_id: *user_id,
                input: MoveInput { direction: *direction, jump: *jump },
            },
        }
    }
}

/// A hash as the log writes it.
pub fn hex(hash: u64) -> String {
    format!("{hash:016x}")
}

/// Writes a log, line by line.
pub struct LogWriter {
    out: std::io::BufWriter<std::fs::File>,
}

impl LogWriter {
    /// Creates (or truncates) the log at `path` and writes its header.
    pub fn create(path: &std::path::Path, header: &Header) -> Result<LogWriter, String> {
        let file = std::fs::File::create(path).map_err(|e| format!("creating {}: {e}", path.display()))?;
        let mut writer = LogWriter { out: std::io::BufWriter::new(file) };
        // Written through at once, so a file that takes no bytes fails at start.
        writer.line(header)?;
        writer.flush().map_err(|e| format!("{}: {e}", path.display()))?;
        Ok(writer)
    }

    /// Appends one tick.
    pub fn tick(&mut self, line: &TickLine) -> Result<(), String> {
        self.line(line)
    }

    fn line(&mut self, value: &impl Serialize) -> Result<(), String> {
        let text = serde_json::to_string(value).map_err(|e| format!("writing the session log: {e}"))?;
        writeln!(self.out, "{text}").map_err(|e| format!("writing the session log: {e}"))
    }

    /// Flushes what was written to the file.
    pub fn flush(&mut self) -> Result<(), String> {
        self.out.flush().map_err(|e| format!("writing the session log: {e}"))
    }
}

/// A log read whole.
#[derive(Debug)]
pub struct Log {
    /// The header.
    pub header: Header,
    /// The ticks, from 0.
    pub ticks: Vec<TickLine>,
}

/// Reads the log at `path`: a bad header or a tick out of order is an error naming the line;
/// a last line cut short is dropped (the recording server was killed while writing it).
pub fn read(path: &std::path::Path) -> Result<Log, String> {
    let file = std::fs::File::open(path).map_err(|e| format!("reading {}: {e}", path.display()))?;
    let mut lines = std::io::BufReader::new(file).lines().enumerate().peekable();
    let at = |n: usize| format!("{}:{}", path.display(), n + 1);
    let Some((n, first)) = lines.next() else {
        return Err(format!("{}: the session log is empty", path.display()));
    };
    let first = first.map_err(|e| format!("{}: {e}", at(n)))?;
    let header: Header = serde_json::from_str(&first)
        .map_err(|e| format!("{}: not an arbor session log header: {e}", at(n)))?;
    if header.arbor_replay != LOG_VERSION {
        return Err(format!(
            "{}: session log version {} (this build reads version {LOG_VERSION})",
            at(n),
            header.arbor_replay
        ));
    }
    let mut ticks = Vec::new();
    while let Some((n, text)) = lines.next() {
        let text = text.map_err(|e| format!("{}: {e}", at(n)))?;
        let line: TickLine = match serde_json::from_str(&text) {
            Ok(line) => line,
            Err(_) if lines.peek().is_none() => break,
            Err(e) => return Err(format!("{}: {e}", at(n))),
        };
        if line.tick != ticks.len() as u64 {
            return Err(format!("{}: tick {} where tick {} was expected", at(n), line.tick, ticks.len()));
        }
        ticks.push(line);
    }
    Ok(Log { header, ticks })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn header() -> Header {
        Header {
            arbor_replay: LOG_VERSION,
            place_hash: hex(7),
            dt: 1.0 / 60.0,
            network_every: 2,
            random_seed: -5,
            resume: Some("{\"state\":1}".to_owned()),
        }
    }

    fn tick(n: u64, inputs: Vec<SessionInput>) -> TickLine {
        TickLine {
            tick: n,
            inputs: inputs.iter().map(Input::from).collect(),
            hash: hex(n * 31),
            phases: if n.is_multiple_of(2) { vec![("Update".to_owned(), hex(n))] } else { Vec::new() },
            wall_aborts: if n == 1 { vec![WallAbortLine { entry: 3, units: 41_000 }] } else { Vec::new() },
        }
    }

    fn path(name: &str) -> std::path::PathBuf {
        std::env::temp_dir().join(format!("arbor-log-{}-{name}.jsonl", std::process::id()))
    }

    #[test]
    fn a_written_log_reads_back_whole_and_its_inputs_convert_back() {
        let inputs = vec![
            SessionInput::Connect { user_id: 9, display_name: Some("Ada".to_owned()) },
            SessionInput::Move { user_id: 9, input: MoveInput { direction: [0.1, -1.0 / 3.0], jump: true } },
            SessionInput::Disconnect { user_id: 9, reason: "bye".to_owned() },
        ];
        let p = path("whole");
        let mut w = LogWriter::create(&p, &header()).unwrap();
        let ticks = vec![tick(0, Vec::new()), tick(1, inputs.clone()), tick(2, Vec::new())];
        for t in &ticks {
            w.tick(t).unwrap();
        }
        w.flush().unwrap();
        let log = read(&p).unwrap();
        assert_eq!(log.header, header());
        assert_eq!(log.ticks, ticks);
        let back: Vec<SessionInput> = log.ticks[1].inputs.iter().map(SessionInput::from).collect();
        assert_eq!(back, inputs, "f32 directions survive the text exactly");
        // A last line cut short is dropped; a bad line before the end is an error naming it.
        let text = std::fs::read_to_string(&p).unwrap();
        std::fs::write(&p, &text[..text.len() - 10]).unwrap();
        assert_eq!(read(&p).unwrap().ticks.len(), 2);
        let mut lines: Vec<&str> = text.lines().collect();
        lines.insert(2, "{\"tick\":");
        std::fs::write(&p, lines.join("\n")).unwrap();
        assert!(read(&p).unwrap_err().starts_with(&format!("{}:3: ", p.display())));
        let _ = std::fs::remove_file(&p);
    }

    #[test]
    fn a_log_out_of_order_or_of_another_version_is_refused() {
        let p = path("order");
        let mut w = LogWriter::create(&p, &header()).unwrap();
        w.tick(&tick(0, Vec::new())).unwrap();
        w.tick(&tick(2, Vec::new())).unwrap();
        w.flush().unwrap();
        assert!(read(&p).unwrap_err().ends_with(":3: tick 2 where tick 1 was expected"));
        let mut other = header();
        other.arbor_replay = 2;
        LogWriter::create(&p, &other).unwrap().flush().unwrap();
        assert!(read(&p).unwrap_err().ends_with("session log version 2 (this build reads version 1)"));
        std::fs::write(&p, "").unwrap();
        assert!(read(&p).unwrap_err().ends_with("the session log is empty"));
        let _ = std::fs::remove_file(&p);
    }
}
