//! [`ScriptLog`]: the server log lines scripts and the script host produce, kept for tests
//! and tools and optionally echoed to stdout/stderr as they happen.
//!
//! Line formats: `<script>: <text>` (print), `<script>: warning: <text>` (warn),
//! `<script>: error: <message>` (runtime errors), `load error in <script>: <message>`,
//! `init error in <script>: <message>`, `<script>: '<name>' disabled after 5 consecutive errors`
//! (`<name>` is the script's `Name`, as `003` quotes it).

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

/// The collected log.
#[derive(Clone, Debug, Default)]
pub struct ScriptLog {
    lines: Vec<LogLine>,
    echo: bool,
    /// Error lines ever pushed (taking the lines does not reset it).
    errors: u64,
}

impl ScriptLog {
    /// A log that also prints each line (stdout for info, stderr otherwise) when `echo`.
    pub fn new(echo: bool) -> Self {
        Self { lines: Vec::new(), echo, errors: 0 }
    }

    /// Appends a line.
    pub fn push(&mut self, level: Level, text: String) {
        if self.echo {
            match level {
                Level::Info => println!("{text}"),
                _ => eprintln!("{text}"),
            }
        }
        self.errors += u64::from(level == Level::Error);
        self.lines.push(LogLine { level, text });
    }

    /// How many error lines (load, init and runtime errors, handler errors) were ever
    /// pushed, including lines already taken.
    pub fn error_count(&self) -> u64 {
        self.errors
    }

    /// Every line so far.
    pub fn lines(&self) -> &[LogLine] {
        &self.lines
    }

    /// Takes the lines collected so far.
    pub fn take(&mut self) -> Vec<LogLine> {
        std::mem::take(&mut self.lines)
    }

    /// Whether any line contains `needle`.
    pub fn contains(&self, needle: &str) -> bool {
        self.lines.iter().any(|l| l.text.contains(needle))
    }
}
