//! The Agones SDK's JSON, as its REST gateway writes it: the `GameServer` message (what the
//! server needs of it: name, state, address and ports, lists) and the lines of the
//! `/watch/gameserver` stream.
//!
//! Rules of the gateway that the parsing follows: field names are the proto's snake_case
//! (camelCase is accepted too), 64-bit integers arrive as JSON strings (`"capacity":"10"`),
//! unset messages may be `null`, and fields this server does not use are ignored. A number
//! that is neither a JSON integer nor a string holding one is an error, never a silent 0.

use serde::{Deserialize, Deserializer};
use std::collections::BTreeMap;
use std::net::{IpAddr, SocketAddr};

/// The GameServer states the server acts on or reports (Agones has more: `Scheduled`,
/// `RequestReady`, `Reserved`, `Error`, `Unhealthy`, ...).
pub const ALLOCATED: &str = "Allocated";

/// The port Agones names `default` when a Fleet declares one port without a name.
const DEFAULT_PORT: &str = "default";

/// A GameServer as the SDK reports it (only the parts this server reads).
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(default)]
pub struct GameServer {
    /// Name and identity.
    #[serde(alias = "objectMeta", deserialize_with = "or_default")]
    pub object_meta: ObjectMeta,
    /// What the cluster knows of it now.
    #[serde(deserialize_with = "or_default")]
    pub status: Status,
}

/// The Kubernetes object metadata of a GameServer.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(default)]
pub struct ObjectMeta {
    /// The GameServer's name.
    #[serde(deserialize_with = "or_default")]
    pub name: String,
}

/// The status part of a GameServer.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(default)]
pub struct Status {
    /// The lifecycle state: `Scheduled`, `Ready`, `Allocated`, `Shutdown`, ...
    #[serde(deserialize_with = "or_default")]
    pub state: String,
    /// The node's address clients reach it at (an IP, or a host name on some clusters).
    #[serde(deserialize_with = "or_default")]
    pub address: String,
    /// The host ports Agones allocated, by name.
    #[serde(deserialize_with = "or_default")]
    pub ports: Vec<Port>,
    /// The Counters & Lists lists declared in the GameServer spec, by name.
    #[serde(deserialize_with = "or_default")]
    pub lists: BTreeMap<String, List>,
}

/// A named host port.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(default)]
pub struct Port {
    /// The port's name in the Fleet spec.
    #[serde(deserialize_with = "or_default")]
    pub name: String,
    /// The port number on the node.
    #[serde(deserialize_with = "int64")]
    pub port: i64,
}

/// A Counters & Lists list.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(default)]
pub struct List {
    /// Most values it may hold.
    #[serde(deserialize_with = "int64")]
    pub capacity: i64,
    /// The values, in insertion order.
    #[serde(deserialize_with = "or_default")]
    pub values: Vec<String>,
}

impl GameServer {
    /// The `players` list's size and capacity, if the GameServer declares it.
    pub fn players(&self) -> Option<(usize, i64)> {
        self.status.lists.get(super::worker::PLAYERS_LIST).map(|l| (l.values.len(), l.capacity))
    }

    /// Parses the answer of `GET /gameserver`.
    pub fn parse(text: &str) -> Result<GameServer, String> {
        serde_json::from_str(text).map_err(|e| format!("an unreadable GameServer: {e}"))
    }

    /// The address clients reach this server at: `status.address` with the port named
    /// `default` (or the only port); `None` while either is unknown or the address is not an
    /// IP address.
    pub fn public_address(&self) -> Option<SocketAddr> {
        let ip: IpAddr = self.status.address.parse().ok()?;
        let ports = &self.status.ports;
        let port = ports.iter().find(|p| p.name == DEFAULT_PORT).or(match ports.as_slice() {
            [only] => Some(only),
            _ => None,
        })?;
        let port = u16::try_from(port.port).ok().filter(|&p| p != 0)?;
        Some(SocketAddr::new(ip, port))
    }
}

/// One line of the `/watch/gameserver` stream.
#[derive(Clone, Debug, PartialEq)]
pub enum WatchLine {
    /// The GameServer changed (the first line is its state when the watch began).
    Update(Box<GameServer>),
    /// The gateway reported an error on the stream (a gRPC status message).
    Error(String),
}

impl WatchLine {
    /// Parses one line: `{"result":{GameServer}}` or `{"error":{"code":N,"message":"..."}}`.
    /// A blank line (a keep-alive) is `Ok(None)`.
    pub fn parse(line: &str) -> Result<Option<WatchLine>, String> {
        if line.trim().is_empty() {
            return Ok(None);
        }
        #[derive(Deserialize)]
        struct Raw {
            #[serde(default)]
            result: Option<GameServer>,
            #[serde(default)]
            error: Option<serde_json::Value>,
        }
        let raw: Raw = serde_json::from_str(line).map_err(|e| format!("an unreadable watch line: {e}"))?;
        match (raw.result, raw.error) {
            (_, Some(error)) => {
                let message = error.get("message").and_then(|m| m.as_str()).map(str::to_owned);
                Ok(Some(WatchLine::Error(message.unwrap_or_else(|| error.to_string()))))
            }
            (Some(gs), None) => Ok(Some(WatchLine::Update(Box::new(gs)))),
            (None, None) => Err("a watch line with neither result nor error".to_owned()),
        }
    }
}

/// A field that may be `null` (an unset message): its default then.
fn or_default<'de, D: Deserializer<'de>, T: Deserialize<'de> + Default>(d: D) -> Result<T, D::Error> {
    Ok(Option::<T>::deserialize(d)?.unwrap_or_default())
}

/// An int64 field: a JSON string holding an integer (how the gateway writes int64), or a
/// JSON integer (int32 fields, and writers that do not quote); `null` is 0.
fn int64<'de, D: Deserializer<'de>>(d: D) -> Result<i64, D::Error> {
    use serde::de::Error;
    match serde_json::Value::deserialize(d)? {
        serde_json::Value::Null => Ok(0),
        serde_json::Value::String(s) => {
            s.parse().map_err(|_| D::Error::custom(format!("{s:?} is not a 64-bit integer")))
        }
        serde_json::Value::Number(n) => {
            n.as_i64().ok_or_else(|| D::Error::custom(format!("{n} is not a 64-bit integer")))
        }
        other => Err(D::Error::custom(format!("{other} is not a 64-bit integer"))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A GameServer as the gateway writes it: snake_case, int64 as strings, unset messages
    /// as null, and fields this server does not read.
    const GAME_SERVER: &str = r#"{
        "object_meta": {"name": "arbor-x7k2p", "namespace": "default", "uid": "a-b-c",
            "resource_version": "1234", "generation": "3", "creation_timestamp": "1700000000",
            "deletion_timestamp": "0", "annotations": {}, "labels": {"agones.dev/fleet": "arbor"}},
        "spec": {"health": {"disabled": false, "period_seconds": 5, "failure_threshold": 3,
            "initial_delay_seconds": 5}},
        "status": {"state": "Ready", "address": "10.0.0.7",
            "addresses": [{"type": "InternalIP", "address": "10.0.0.7"}],
            "ports": [{"name": "metrics", "port": 9100}, {"name": "default", "port": 7043}],
            "players": null, "counters": {},
            "lists": {"players": {"capacity": "256", "values": ["1000000", "42"]}}}
    }"#;

    #[test]
    fn reads_a_game_server_with_string_int64s_and_unknown_fields() {
        let gs = GameServer::parse(GAME_SERVER).unwrap();
        assert_eq!(gs.object_meta.name, "arbor-x7k2p");
        assert_eq!(gs.status.state, "Ready");
        let players = &gs.status.lists["players"];
        assert_eq!(players.capacity, 256);
        assert_eq!(players.values, ["1000000", "42"]);
        assert_eq!(gs.players(), Some((2, 256)));
        assert_eq!(gs.public_address(), Some("10.0.0.7:7043".parse().unwrap()));
    }

    #[test]
    fn accepts_camel_case_nulls_and_plain_numbers() {
        let gs = GameServer::parse(
            r#"{"objectMeta": {"name": "g", "generation": "2"}, "status": {"state": "Scheduled",
                "address": null, "ports": null, "lists": {"players": {"capacity": 8}}}}"#,
        )
        .unwrap();
        assert_eq!(gs.object_meta.name, "g");
        assert_eq!(gs.status.state, "Scheduled");
        assert_eq!(gs.status.lists["players"].capacity, 8);
        assert!(gs.status.lists["players"].values.is_empty());
        assert_eq!(gs.public_address(), None, "no address yet");
        assert_eq!(GameServer::parse("{}").unwrap(), GameServer::default());
    }

    #[test]
    fn refuses_a_count_that_is_not_an_integer() {
        let e = GameServer::parse(r#"{"status": {"lists": {"p": {"capacity": "ten"}}}}"#).unwrap_err();
        assert!(e.contains("\"ten\" is not a 64-bit integer"), "{e}");
        assert!(GameServer::parse(r#"{"status": {"ports": [{"name": "default", "port": 1.5}]}}"#).is_err());
    }

    #[test]
    fn public_address_needs_an_ip_and_a_usable_port() {
        let with = |address: &str, ports: &str| {
            GameServer::parse(&format!(r#"{{"status": {{"address": "{address}", "ports": {ports}}}}}"#))
                .unwrap()
                .public_address()
        };
        let only = r#"[{"name": "game", "port": 7001}]"#;
        assert_eq!(with("10.1.2.3", only), Some("10.1.2.3:7001".parse().unwrap()));
        assert_eq!(with("node-1.example", only), None, "a host name is not an IP");
        assert_eq!(with("10.1.2.3", r#"[{"name": "a", "port": 1}, {"name": "b", "port": 2}]"#), None);
        assert_eq!(with("10.1.2.3", r#"[{"name": "default", "port": 70000}]"#), None);
        assert_eq!(with("10.1.2.3", r#"[{"name": "default", "port": 0}]"#), None);
        assert_eq!(
            with("::1", r#"[{"name": "default", "port": "7777"}]"#),
            Some("[::1]:7777".parse().unwrap())
        );
    }

    #[test]
    fn reads_watch_lines() {
        let line = format!(r#"{{"result": {GAME_SERVER}}}"#).replace('\n', " ");
        match WatchLine::parse(&line).unwrap() {
            Some(WatchLine::Update(gs)) => assert_eq!(gs.status.state, "Ready"),
            other => panic!("{other:?}"),
        }
        let allocated = r#"{"result": {"status": {"state": "Allocated"}, "spec": {}}}"#;
        match WatchLine::parse(allocated).unwrap() {
            Some(WatchLine::Update(gs)) => assert_eq!(gs.status.state, ALLOCATED),
            other => panic!("{other:?}"),
        }
        let error = r#"{"error": {"code": 14, "message": "connection closed", "details": []}}"#;
        assert_eq!(WatchLine::parse(error).unwrap(), Some(WatchLine::Error("connection closed".to_owned())));
        assert_eq!(
            WatchLine::parse(r#"{"error": {"code": 2}}"#).unwrap(),
            Some(WatchLine::Error(r#"{"code":2}"#.to_owned()))
        );
        assert_eq!(WatchLine::parse("  ").unwrap(), None);
        assert!(WatchLine::parse("{}").is_err());
        assert!(WatchLine::parse("not json").is_err());
    }
}
