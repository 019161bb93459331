//! The rewrite's parser: Luau's grammar, read only as far as the rewrite needs (the spans
//! of expressions and assignment targets), emitting the [`Edit`]s that wrap checked
//! arithmetic. Nesting is bounded by [`MAX_DEPTH`](super::MAX_DEPTH).
//!
//! One [`Parser`](cursor::Parser) walks the tokens; its methods are split by what they read:
//! - `cursor`: the parser's state, the token cursor, failures, the nesting bound and the
//!   edits it records;
//! - `statements`: blocks and statements, compound assignments, functions and attributes;
//! - `expressions`: expressions with Luau's operator priorities, wrapping checked
//!   arithmetic, tables, calls and suffixed expressions;
//! - `types`: type annotations, skipped (they are not runtime code).

mod cursor;
mod expressions;
mod statements;
mod types;

use super::edit::Edit;
use super::lex::{Fail, Tk, Token};
use cursor::Parser;

/// What parsing a chunk gave: the edits, which checked operators it uses, how many checks.
pub(super) struct Parsed {
    pub(super) edits: Vec<Edit>,
    pub(super) used: [bool; 7],
    pub(super) checks: usize,
}

/// Parses the chunk `tokens` of `src` (ending at `Eof`) into the rewrite's edits.
pub(super) fn parse(src: &str, tokens: Vec<Token>) -> Result<Parsed, Fail> {
    let mut p =
        Parser { src, t: tokens, i: 0, edits: Vec::new(), seq: 0, depth: 0, used: [false; 7], checks: 0 };
    p.block()?;
    if p.cur().kind != Tk::Eof {
        return Err((p.cur().start, "expected the end of the chunk".to_owned()));
    }
    Ok(Parsed { edits: p.edits, used: p.used, checks: p.checks })
}
