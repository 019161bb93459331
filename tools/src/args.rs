//! Checked command-line values: every number a user types is refused up front, with the
//! reason, when it is out of range (`--summary-every inf` once panicked, `--count 1e10` ran
//! the machine out of memory), and a trace file is checked writable before a run starts.

use std::path::{Path, PathBuf};

/// Most instances `arbor stress` builds (about 3 GiB of arena and physics at this size).
pub const MAX_STRESS_COUNT: usize = 20_000_000;

/// A finite number of seconds, at least 0.1 and at most a day.
pub fn seconds(text: &str) -> Result<f64, String> {
    let v: f64 = text.parse().map_err(|_| format!("'{text}' is not a number"))?;
    if v.is_finite() && (0.1..=86_400.0).contains(&v) {
        Ok(v)
    } else {
        Err(format!("'{text}' must be between 0.1 and 86400 seconds"))
    }
}

/// A finite number of milliseconds, more than 0 and at most a minute.
pub fn milliseconds(text: &str) -> Result<f64, String> {
    let v: f64 = text.parse().map_err(|_| format!("'{text}' is not a number"))?;
    if v.is_finite() && v > 0.0 && v <= 60_000.0 {
        Ok(v)
    } else {
        Err(format!("'{text}' must be more than 0 and at most 60000 milliseconds"))
    }
}

/// A fraction from 0 to 1.
pub fn fraction(text: &str) -> Result<f64, String> {
    let v: f64 = text.parse().map_err(|_| format!("'{text}' is not a number"))?;
    if (0.0..=1.0).contains(&v) { Ok(v) } else { Err(format!("'{text}' must be a fraction from 0 to 1")) }
}

/// An instance count from 1 to [`MAX_STRESS_COUNT`].
pub fn instance_count(text: &str) -> Result<usize, String> {
    let v: usize = text.parse().map_err(|_| format!("'{text}' is not a whole number"))?;
    if (1..=MAX_STRESS_COUNT).contains(&v) {
        Ok(v)
    } else {
        Err(format!("'{text}' must be from 1 to {MAX_STRESS_COUNT}"))
    }
}

/// Checks that a trace can be written to `path` before the run (creating the file).
pub fn check_trace_path(path: Option<&Path>) -> Result<(), String> {
    let Some(path) = path else { return Ok(()) };
    std::fs::File::create(path).map(drop).map_err(|e| format!("cannot write trace {}: {e}", path.display()))
}

/// A trace path option's value as a path.
pub fn trace_path(text: &str) -> Result<PathBuf, String> {
    if text.is_empty() { Err("the trace path is empty".to_owned()) } else { Ok(PathBuf::from(text)) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn out_of_range_values_are_refused() {
        for bad in ["inf", "NaN", "-1", "0", "1e300", "x"] {
            assert!(seconds(bad).is_err(), "{bad}");
        }
        assert_eq!(seconds("5"), Ok(5.0));
        for bad in ["NaN", "inf", "-0.5", "1.5"] {
            assert!(fraction(bad).is_err(), "{bad}");
        }
        assert_eq!(fraction("0.01"), Ok(0.01));
        for bad in ["0", "1e10", "10000000000", "-3"] {
            assert!(instance_count(bad).is_err(), "{bad}");
        }
        assert_eq!(instance_count("1000"), Ok(1000));
    }
}
