//! The Agones SDK sidecar's REST calls, over ureq: one blocking call per method, each bounded
//! by [`CALL_TIMEOUT`], and the watch stream, which has no read timeout (updates come when the
//! cluster changes the GameServer, minutes apart).
//!
//! Rules: the sidecar listens on loopback only (`http://127.0.0.1:PORT`); every request body
//! is JSON; an answer's HTTP status decides success (2xx), a definite refusal (4xx, the
//! gateway's mapping of gRPC codes: 404 NOT_FOUND, 409 ALREADY_EXISTS, 400 OUT_OF_RANGE) or
//! a failure worth retrying (no answer, or 5xx). These functions never retry by themselves.

use super::game_server::GameServer;
use std::fmt;
use std::io::BufRead;
use std::time::Duration;

/// The longest any call but the watch may take, connecting included.
pub const CALL_TIMEOUT: Duration = Duration::from_secs(2);

/// Longest a refusal's text is kept, in bytes (the gateway's gRPC status JSON).
const MAX_ERROR_TEXT: usize = 300;

/// Why a call did not succeed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Failure {
    /// No answer: the sidecar is not listening yet, is gone, or took longer than the timeout.
    Unreachable(String),
    /// An HTTP error status, with the answer's text.
    Status(u16, String),
}

impl Failure {
    /// Whether asking again later may succeed: no answer, or a server-side (5xx) error.
    pub fn is_transient(&self) -> bool {
        match self {
            Failure::Unreachable(_) => true,
            Failure::Status(code, _) => *code >= 500,
        }
    }
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Failure::Unreachable(e) => write!(f, "no answer from the sidecar: {e}"),
            Failure::Status(code, text) if text.is_empty() => write!(f, "HTTP {code}"),
            Failure::Status(code, text) => write!(f, "HTTP {code}: {text}"),
        }
    }
}

/// A client of the SDK sidecar on one port.
#[derive(Clone)]
pub struct Sdk {
    agent: ureq::Agent,
    base: String,
}

impl Sdk {
    /// A client of the sidecar at `http://127.0.0.1:{port}`.
    pub fn new(port: u16) -> Sdk {
        let agent = ureq::Agent::config_builder()
            .timeout_global(Some(CALL_TIMEOUT))
            .http_status_as_error(false)
            .build()
            .into();
        Sdk { agent, base: format!("http://127.0.0.1:{port}") }
    }

    /// The sidecar's base URL.
    pub fn base(&self) -> &str {
        &self.base
    }

    /// `POST path` with a JSON body; `Ok` on a 2xx answer (whose body is read and dropped).
    pub fn post(&self, path: &str, body: &serde_json::Value) -> Result<(), Failure> {
        let response = self
            .agent
            .post(format!("{}{path}", self.base))
            .send_json(body)
            .map_err(|e| Failure::Unreachable(e.to_string()))?;
        answer(response).map(drop)
    }

    /// `GET /gameserver`: this server's GameServer.
    pub fn game_server(&self) -> Result<GameServer, Failure> {
        let response = self
            .agent
            .get(format!("{}/gameserver", self.base))
            .call()
            .map_err(|e| Failure::Unreachable(e.to_string()))?;
        GameServer::parse(&answer(response)?).map_err(Failure::Unreachable)
    }

    /// `GET /watch/gameserver`: the open stream, one JSON object a line. Connecting is bounded
    /// by [`CALL_TIMEOUT`]; reading is not.
    pub fn watch(&self) -> Result<Box<dyn BufRead + Send>, Failure> {
        let agent: ureq::Agent = ureq::Agent::config_builder()
            .timeout_connect(Some(CALL_TIMEOUT))
            .http_status_as_error(false)
            .build()
            .into();
        let response = agent
            .get(format!("{}/watch/gameserver", self.base))
            .call()
            .map_err(|e| Failure::Unreachable(e.to_string()))?;
        let status = response.status().as_u16();
        if !(200..300).contains(&status) {
            return Err(Failure::Status(status, error_text(response)));
        }
        Ok(Box::new(std::io::BufReader::new(response.into_body().into_reader())))
    }
}

/// The body of a 2xx answer, else the failure.
fn answer(response: ureq::http::Response<ureq::Body>) -> Result<String, Failure> {
    let status = response.status().as_u16();
    if !(200..300).contains(&status) {
        return Err(Failure::Status(status, error_text(response)));
    }
    response
        .into_body()
        .read_to_string()
        .map_err(|e| Failure::Unreachable(format!("reading the answer: {e}")))
}

/// A refusal's message: the gRPC status's `message` when the body is one, else the text,
/// cut short.
fn error_text(response: ureq::http::Response<ureq::Body>) -> String {
    let text = response.into_body().read_to_string().unwrap_or_default();
    let message = serde_json::from_str::<serde_json::Value>(&text)
        .ok()
        .and_then(|v| v.get("message").and_then(|m| m.as_str()).map(str::to_owned))
        .unwrap_or(text);
    let mut message = message.trim().to_owned();
    if message.len() > MAX_ERROR_TEXT {
        let mut cut = MAX_ERROR_TEXT;
        while !message.is_char_boundary(cut) {
            cut -= 1;
        }
        message.truncate(cut);
        message.push_str("...");
    }
    message
}
