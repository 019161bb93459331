//! [`BehaviorReport`]: what a behaviour error reports (`docs/behaviours.md`, "Transactions and
//! errors"): where (file, line, column), the call stack, the event or timer, the world's time,
//! the transaction's log lines, and for a failed field check the line that last wrote that
//! field.

use std::fmt;

/// One behaviour error.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BehaviorReport {
    /// The behaviour's name (the chunk, the "file").
    pub behavior: String,
    /// Path of the `Behavior` instance.
    pub binding: String,
    /// What ran: `start`, `event Open`, `timer Restock`, `migration`, `check`.
    pub entry: String,
    /// The error, without its location.
    pub message: String,
    /// Line of the error in the behaviour's source.
    pub line: Option<u32>,
    /// Column of the statement at that line (Luau's debug information has lines only, so
    /// this is where the statement starts on the line).
    pub column: Option<u32>,
    /// The call stack at the error, innermost first (`Door:12 in Open`).
    pub stack: Vec<String>,
    /// World minute.
    pub minute: u64,
    /// Tick.
    pub tick: u64,
    /// The transaction's log lines (cut as the log limit says).
    pub log: Vec<String>,
    /// For a failed field check: where that field was last written (`Door:14`).
    pub last_write: Option<String>,
}

impl BehaviorReport {
    /// `Door:14:5`, or the behaviour's name alone when the line is unknown.
    pub fn location(&self) -> String {
        match (self.line, self.column) {
            (Some(l), Some(c)) => format!("{}:{l}:{c}", self.behavior),
            (Some(l), None) => format!("{}:{l}", self.behavior),
            _ => self.behavior.clone(),
        }
    }
}

impl fmt::Display for BehaviorReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "behaviour error in {} during {} at world minute {} (tick {}):",
            self.binding, self.entry, self.minute, self.tick
        )?;
        write!(f, "  {}: {}", self.location(), self.message)?;
        if let Some(w) = &self.last_write {
            write!(f, "\n  the field was last written at {w}")?;
        }
        if !self.stack.is_empty() {
            write!(f, "\n  stack:")?;
            for s in &self.stack {
                write!(f, "\n    {s}")?;
            }
        }
        if !self.log.is_empty() {
            write!(f, "\n  log:")?;
            for l in &self.log {
                write!(f, "\n    {l}")?;
            }
        }
        Ok(())
    }
}

/// Splits `Door:12: message` into (12, `message`) when the prefix names `chunk`.
pub fn split_location<'m>(chunk: &str, text: &'m str) -> (Option<u32>, &'m str) {
    let Some(rest) = text.strip_prefix(chunk).and_then(|r| r.strip_prefix(':')) else {
        return (None, text);
    };
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    match (rest[..digits].parse::<u32>(), rest[digits..].strip_prefix(':')) {
        (Ok(line), Some(m)) => (Some(line), m.trim_start()),
        _ => (None, text),
    }
}

/// The 1-based column where the statement on `line` (1-based) of `source` starts.
pub fn statement_column(source: &str, line: u32) -> Option<u32> {
    let text = source.lines().nth(line.checked_sub(1)? as usize)?;
    let indent = text.chars().take_while(|c| c.is_whitespace()).count();
    Some(indent as u32 + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn locations_split_and_columns_count_from_one() {
        assert_eq!(split_location("Door", "Door:12: boom"), (Some(12), "boom"));
        assert_eq!(split_location("Door", "Other:12: boom"), (None, "Other:12: boom"));
        assert_eq!(statement_column("a\n    b = 1\n", 2), Some(5));
        assert_eq!(statement_column("a", 3), None);
    }
}
