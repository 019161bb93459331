//! The server process as the kernel sees it: resident memory and CPU time, read from Linux's
//! `/proc/self`. Elsewhere (or if the files are unreadable) each reads as `None`.

use std::time::Duration;

/// Resident set size of this process in bytes (`VmRSS` of `/proc/self/status`).
pub fn resident_bytes() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

/// CPU time this process has used so far, user and system, over all its threads: fields 14
/// and 15 of `/proc/self/stat`, in clock ticks of 1/100 s (the kernel's `USER_HZ`).
pub fn cpu_time() -> Option<Duration> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // The command name (field 2) is in parentheses and may hold spaces: count from after it.
    let mut fields = stat.get(stat.rfind(')')? + 1..)?.split_whitespace().skip(11);
    let user: u64 = fields.next()?.parse().ok()?;
    let system: u64 = fields.next()?.parse().ok()?;
    Some(Duration::from_millis((user + system) * 10))
}

#[cfg(test)]
mod tests {
    #[test]
    fn this_process_has_memory_and_cpu_time() {
        let rss = super::resident_bytes().expect("Linux has /proc/self/status");
        assert!(rss > 1 << 20, "a test binary holds more than 1 MiB: {rss}");
        let spin = std::time::Instant::now();
        while spin.elapsed().as_millis() < 30 {}
        assert!(super::cpu_time().expect("Linux has /proc/self/stat") > std::time::Duration::ZERO);
    }
}
