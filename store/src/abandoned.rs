//! [`Abandoned`]: what a store shutdown given a deadline (`LocalStores::shutdown_by`,
//! `Cloud::shutdown_by`) had not finished when the deadline came, for the server to print.
//!
//! An empty report means everything landed: every accepted local put is durable, every cloud
//! write landed and every session lock this server held is released. Counts are exact; each
//! kind names its stores once each, sorted.

use std::collections::BTreeSet;

/// Work of one kind left undone, and the stores it belongs to.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Pending {
    /// How many (puts, writes or locks).
    pub count: u64,
    /// The stores they belong to, sorted, each once.
    pub stores: Vec<String>,
}

impl Pending {
    /// `count` items of the stores named by `stores` (in any order, repeats allowed).
    pub fn new<'a>(count: u64, stores: impl IntoIterator<Item = &'a str>) -> Self {
        let stores: BTreeSet<&str> = stores.into_iter().collect();
        Self { count, stores: stores.into_iter().map(str::to_owned).collect() }
    }

    /// Whether nothing is left.
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    fn add(&mut self, other: Pending) {
        self.count += other.count;
        let stores: BTreeSet<String> = self.stores.drain(..).chain(other.stores).collect();
        self.stores = stores.into_iter().collect();
    }

    /// `3 local store puts not durable (stores Coins, Scores)`.
    fn line(&self, one: &str, many: &str, what: &str) -> String {
        let noun = if self.count == 1 { one } else { many };
        let stores = if self.stores.len() == 1 { "store" } else { "stores" };
        format!("{} {noun} {what} ({stores} {})", self.count, self.stores.join(", "))
    }
}

/// What a store shutdown with a deadline gave up on.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Abandoned {
    /// Local puts accepted but not durable: lost if the process ends now.
    pub local_puts: Pending,
    /// Cloud writes (puts and updates) that had not landed: lost if the process ends now.
    pub cloud_writes: Pending,
    /// Session locks not released: no other server can take those records until the lease
    /// runs out (`LEASE` after the last renewal).
    pub locks: Pending,
}

impl Abandoned {
    /// Whether everything landed.
    pub fn is_empty(&self) -> bool {
        self.local_puts.is_empty() && self.cloud_writes.is_empty() && self.locks.is_empty()
    }

    /// Adds `other` to this report (the host merges its local and cloud stores' reports).
    pub fn merge(&mut self, other: Abandoned) {
        self.local_puts.add(other.local_puts);
        self.cloud_writes.add(other.cloud_writes);
        self.locks.add(other.locks);
    }

    /// One line per kind of work abandoned (none if everything landed).
    pub fn lines(&self) -> Vec<String> {
        let mut lines = Vec::new();
        if !self.local_puts.is_empty() {
            lines.push(self.local_puts.line("local store put", "local store puts", "not durable"));
        }
        if !self.cloud_writes.is_empty() {
            lines.push(self.cloud_writes.line("cloud store write", "cloud store writes", "not landed"));
        }
        if !self.locks.is_empty() {
            lines.push(self.locks.line(
                "session lock",
                "session locks",
                "not released, held until the lease runs out",
            ));
        }
        lines
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_name_each_kind_left_with_its_stores_once() {
        assert!(Abandoned::default().lines().is_empty());
        let mut report =
            Abandoned { local_puts: Pending::new(3, ["Scores", "Coins", "Scores"]), ..Default::default() };
        report.merge(Abandoned { locks: Pending::new(1, ["Players"]), ..Default::default() });
        assert!(!report.is_empty());
        assert_eq!(
            report.lines(),
            [
                "3 local store puts not durable (stores Coins, Scores)",
                "1 session lock not released, held until the lease runs out (store Players)",
            ]
        );
    }
}
