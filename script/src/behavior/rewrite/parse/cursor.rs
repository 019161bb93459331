//! The rewrite parser's state and its token cursor: reading and advancing over tokens,
//! expecting punctuation, keywords and names, the failure message (`expected WHAT, got
//! TOKEN`), the nesting bound ([`MAX_DEPTH`]) and recording [`Edit`]s.
//!
//! Invariants: the cursor never moves past the final `Eof` token; every `enter` is matched
//! by a `leave` on success; edits are numbered in the order they are recorded.

use super::super::edit::{CHECKED_OPS, Class, Edit, MAX_DEPTH, RESERVED_PREFIX};
use super::super::lex::{Fail, Tk, Token};

/// The parser's state: the source, its tokens, the cursor and what it has recorded.
pub(super) struct Parser<'a> {
    pub(super) src: &'a str,
    pub(super) t: Vec<Token>,
    pub(super) i: usize,
    pub(super) edits: Vec<Edit>,
    pub(super) seq: u32,
    pub(super) depth: u32,
    pub(super) used: [bool; 7],
    pub(super) checks: usize,
}

/// What a parsing step gives: a value, or a failure at a byte of the source.
pub(super) type R<T = ()> = Result<T, Fail>;

impl<'a> Parser<'a> {
    pub(super) fn cur(&self) -> Token {
        self.t[self.i.min(self.t.len() - 1)]
    }

    pub(super) fn ahead(&self, n: usize) -> Token {
        self.t[(self.i + n).min(self.t.len() - 1)]
    }

    pub(super) fn text(&self, t: Token) -> &'a str {
        &self.src[t.start..t.end]
    }

    pub(super) fn prev_end(&self) -> usize {
        self.t[self.i.saturating_sub(1)].end
    }

    pub(super) fn bump(&mut self) {
        if self.i < self.t.len() - 1 {
            self.i += 1;
        }
    }

    pub(super) fn is_p(&self, s: &str) -> bool {
        let t = self.cur();
        t.kind == Tk::Punct && self.text(t) == s
    }

    pub(super) fn is_kw(&self, s: &str) -> bool {
        let t = self.cur();
        t.kind == Tk::Keyword && self.text(t) == s
    }

    pub(super) fn is_name(&self, s: &str) -> bool {
        let t = self.cur();
        t.kind == Tk::Name && self.text(t) == s
    }

    pub(super) fn fail<T>(&self, what: &str) -> R<T> {
        let t = self.cur();
        let got = if t.kind == Tk::Eof {
            "the end of the source".to_owned()
        } else {
            format!("'{}'", self.text(t))
        };
        Err((t.start, format!("expected {what}, got {got}")))
    }

    pub(super) fn expect_p(&mut self, s: &str) -> R {
        if self.is_p(s) {
            self.bump();
            Ok(())
        } else {
            self.fail(&format!("'{s}'"))
        }
    }

    pub(super) fn expect_kw(&mut self, s: &str) -> R {
        if self.is_kw(s) {
            self.bump();
            Ok(())
        } else {
            self.fail(&format!("'{s}'"))
        }
    }

    pub(super) fn expect_name(&mut self) -> R {
        if self.cur().kind == Tk::Name {
            self.bump();
            Ok(())
        } else {
            self.fail("a name")
        }
    }

    pub(super) fn enter(&mut self) -> R {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err((self.cur().start, format!("the code nests more than {MAX_DEPTH} levels deep")));
        }
        Ok(())
    }

    pub(super) fn leave(&mut self) {
        self.depth -= 1;
    }

    pub(super) fn edit(&mut self, start: usize, end: usize, text: String, class: Class) {
        self.seq += 1;
        self.edits.push(Edit { start, end, text, class, seq: self.seq });
    }

    /// Wraps the expression `start..end` in the check of operator `op`.
    pub(super) fn wrap(&mut self, start: usize, end: usize, op: usize) {
        self.used[op] = true;
        self.checks += 1;
        self.edit(start, start, format!("{RESERVED_PREFIX}_{}(", CHECKED_OPS[op].0), Class::Open);
        self.edit(end, end, ")".to_owned(), Class::Close);
    }
}
