//! Where a Script runs: its `RunContext` attribute, `"Server"` (the default, when the
//! attribute is absent), `"Client"` or `"Both"`. An attribute rather than a column, so it
//! travels with the Script through both place formats, clones, undo and replication like
//! every other attribute.
//!
//! Invariant: [`RunContext::of`] is the one reading of the attribute; a value that is not one
//! of the three names is an error there (the place loader refuses it, a host logs it and
//! does not start the script), never a silent default.

use crate::value::AttributeValue;
use crate::{Arena, Id};

/// The attribute of a `Script` that says where it runs.
pub const RUN_CONTEXT_ATTRIBUTE: &str = "RunContext";

/// Where a Script runs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum RunContext {
    /// On the server only (the default).
    #[default]
    Server,
    /// On each client whose replica holds it, never on the server.
    Client,
    /// On the server and on the clients.
    Both,
}

/// A `RunContext` attribute that names no run context.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("RunContext must be \"Server\", \"Client\" or \"Both\", not {0}")]
pub struct RunContextError(pub String);

impl RunContext {
    /// The run context named `name` (`"Server"`, `"Client"` or `"Both"`).
    pub fn parse(name: &str) -> Option<Self> {
        match name {
            "Server" => Some(Self::Server),
            "Client" => Some(Self::Client),
            "Both" => Some(Self::Both),
            _ => None,
        }
    }

    /// The name scripts and place files write.
    pub fn name(self) -> &'static str {
        match self {
            Self::Server => "Server",
            Self::Client => "Client",
            Self::Both => "Both",
        }
    }

    /// Whether a host of this side runs it (`client`: a client's host, else the server's).
    pub fn runs_on(self, client: bool) -> bool {
        match self {
            Self::Server => !client,
            Self::Client => client,
            Self::Both => true,
        }
    }

    /// The run context an attribute value gives (`None`: the attribute is absent).
    pub fn from_attribute(value: Option<&AttributeValue>) -> Result<Self, RunContextError> {
        match value {
            None => Ok(Self::Server),
            Some(AttributeValue::String(s)) => {
                Self::parse(s).ok_or_else(|| RunContextError(format!("{s:?}")))
            }
            Some(other) => Err(RunContextError(format!("a {}", other.type_name()))),
        }
    }

    /// Where Script `id` of `arena` runs.
    ///
    /// ```
    /// use arbor_core::{Arena, AttributeValue, Class, RunContext, RUN_CONTEXT_ATTRIBUTE};
    /// let mut arena = Arena::new();
    /// let ws = arena.workspace();
    /// let script = arena.create(Class::Script, "Hud", Some(ws)).unwrap();
    /// assert_eq!(RunContext::of(&arena, script), Ok(RunContext::Server));
    /// arena.set_attribute(script, RUN_CONTEXT_ATTRIBUTE, Some(AttributeValue::String("Client".into()))).unwrap();
    /// assert_eq!(RunContext::of(&arena, script), Ok(RunContext::Client));
    /// ```
    pub fn of(arena: &Arena, id: Id) -> Result<Self, RunContextError> {
        Self::from_attribute(arena.attribute(id, RUN_CONTEXT_ATTRIBUTE))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_sides_are_right() {
        for rc in [RunContext::Server, RunContext::Client, RunContext::Both] {
            assert_eq!(RunContext::parse(rc.name()), Some(rc));
        }
        assert_eq!(RunContext::parse("server"), None, "names are exact");
        let sides = |rc: RunContext| (rc.runs_on(false), rc.runs_on(true));
        assert_eq!(sides(RunContext::Server), (true, false));
        assert_eq!(sides(RunContext::Client), (false, true));
        assert_eq!(sides(RunContext::Both), (true, true));
    }

    #[test]
    fn a_bad_value_is_an_error_not_a_default() {
        let text = |v: AttributeValue| RunContext::from_attribute(Some(&v)).unwrap_err().to_string();
        assert_eq!(
            text(AttributeValue::String("Everywhere".into())),
            r#"RunContext must be "Server", "Client" or "Both", not "Everywhere""#
        );
        assert_eq!(
            text(AttributeValue::Number(1.0)),
            r#"RunContext must be "Server", "Client" or "Both", not a Number"#
        );
        assert_eq!(RunContext::from_attribute(None), Ok(RunContext::Server));
    }
}
