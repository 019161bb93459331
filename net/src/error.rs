//! [`NetError`]: what can go wrong setting up or running a connection.

use crate::wire::DecodeError;
use thiserror::Error;

/// A networking error.
#[derive(Debug, Error)]
pub enum NetError {
    /// A socket or file operation failed.
    #[error("{0}")]
    Io(#[from] std::io::Error),
    /// The netcode layer refused (an expired or forged token, a timeout, a full server...).
    #[error("netcode: {0}")]
    Netcode(String),
    /// The connection ended; the reason says why.
    #[error("disconnected: {0}")]
    Disconnected(String),
    /// The server kicked this client (`game.Session.Kick`, a refused join, bad input, a
    /// shutdown) and said why.
    #[error("kicked: {reason}")]
    Kicked {
        /// The server's reason.
        reason: String,
    },
    /// A connect token or key could not be read.
    #[error("bad {what}: {why}")]
    BadCredential {
        /// A token or a key.
        what: &'static str,
        /// Why.
        why: String,
    },
    /// A message from the other side did not decode.
    #[error("malformed message: {0}")]
    Malformed(#[from] DecodeError),
}

impl From<renet_netcode::NetcodeTransportError> for NetError {
    fn from(e: renet_netcode::NetcodeTransportError) -> Self {
        match e {
            renet_netcode::NetcodeTransportError::IO(io) => NetError::Io(io),
            other => NetError::Netcode(other.to_string()),
        }
    }
}

impl From<renet_netcode::NetcodeError> for NetError {
    fn from(e: renet_netcode::NetcodeError) -> Self {
        NetError::Netcode(e.to_string())
    }
}
