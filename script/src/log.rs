//! [`ScriptLog`]: the server log lines scripts and the script host produce, kept for tests
//! and tools and optionally echoed to stdout/stderr as they happen.
//!
//! Line formats: `<script>: <text>` (print), `<script>: warning: <text>` (warn),
//! `<script>: error: <message>` (runtime errors), `load error in <script>: <message>`,
//! `init error in <script>: <message>`, `<script>: '<name>' disabled after 5 consecutive errors`
//! (`<name>` is the script's `Name`; `docs/scripting.md`, "Hooks, budgets and the error counter").
//!
//! Invariant: the log is a bounded ring. It keeps the newest [`LOG_CAPACITY`] lines, each
//! cut to [`MAX_LINE_BYTES`]; older lines are dropped (and counted) but were echoed whole as
//! they came, so a script printing in a loop cannot grow the server's memory.

/// How severe a log line is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    /// `print`.
    Info,
    /// `warn` and engine warnings.
    Warn,
    /// Errors.
    Error,
}

/// One log line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LogLine {
    /// Severity.
    pub level: Level,
    /// The formatted line.
    pub text: String,
}

/// Lines the log keeps.
pub const LOG_CAPACITY: usize = 10_000;

/// Bytes of one kept line; longer lines are cut at a character boundary and marked `…`.
pub const MAX_LINE_BYTES: usize = 4096;

/// The collected log.
#[derive(Clone, Debug, Default)]
pub struct ScriptLog {
    lines: std::collections::VecDeque<LogLine>,
    echo: bool,
    /// Error lines ever pushed (taking the lines does not reset it).
    errors: u64,
    /// Lines dropped from the front of the ring.
    dropped: u64,
}

impl ScriptLog {
    /// A log that also prints each line (stdout for info, stderr otherwise) when `echo`.
    pub fn new(echo: bool) -> Self {
        Self { echo, ..Self::default() }
    }

    /// Appends a line (dropping the oldest if the ring is full).
    pub fn push(&mut self, level: Level, mut text: String) {
        if self.echo {
            match level {
                Level::Info => println!("{text}"),
                _ => eprintln!("{text}"),
            }
        }
        self.errors += u64::from(level == Level::Error);
        if text.len() > MAX_LINE_BYTES {
            let mut cut = MAX_LINE_BYTES;
            while !text.is_char_boundary(cut) {
                cut -= 1;
            }
            text.truncate(cut);
            text.push('…');
            // A cut line owns only what it keeps (truncation keeps the capacity).
            text.shrink_to_fit();
        }
        if self.lines.len() == LOG_CAPACITY {
            self.lines.pop_front();
            self.dropped += 1;
        }
        self.lines.push_back(LogLine { level, text });
    }

    /// Lines dropped from the ring so far.
    pub fn dropped(&self) -> u64 {
        self.dropped
    }

    /// How many error lines (load, init and runtime errors, handler errors) were ever
    /// pushed, including lines already taken.
    pub fn error_count(&self) -> u64 {
        self.errors
    }

    /// The kept lines, oldest first.
    pub fn lines(&self) -> impl Iterator<Item = &LogLine> {
        self.lines.iter()
    }

    /// Takes the lines kept so far.
    pub fn take(&mut self) -> Vec<LogLine> {
        std::mem::take(&mut self.lines).into()
    }

    /// Whether any line contains `needle`.
    pub fn contains(&self, needle: &str) -> bool {
        self.lines.iter().any(|l| l.text.contains(needle))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_log_keeps_the_newest_lines_cut_to_size() {
        let mut log = ScriptLog::new(false);
        for i in 0..LOG_CAPACITY + 5 {
            log.push(Level::Info, format!("line {i}"));
        }
        log.push(Level::Error, "é".repeat(MAX_LINE_BYTES));
        let lines: Vec<&LogLine> = log.lines().collect();
        assert_eq!(lines.len(), LOG_CAPACITY);
        assert_eq!(lines[0].text, "line 6");
        assert_eq!(log.dropped(), 6);
        let last = &lines[LOG_CAPACITY - 1].text;
        assert!(last.len() <= MAX_LINE_BYTES + '…'.len_utf8() && last.ends_with('…'));
        assert_eq!(log.error_count(), 1);
    }

    #[test]
    fn a_cut_line_owns_only_what_it_keeps() {
        let mut log = ScriptLog::new(false);
        log.push(Level::Info, "x".repeat(8 << 20));
        let kept = &log.lines().last().unwrap().text;
        assert!(kept.capacity() <= MAX_LINE_BYTES + '…'.len_utf8(), "{} bytes held", kept.capacity());
    }
}
