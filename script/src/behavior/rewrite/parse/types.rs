//! The rewrite parser's types, skipped (they are not runtime code): unions, intersections,
//! optionals, function and return types, and balanced brackets and angle brackets.
//!
//! Invariant: nothing here records an edit.

use super::super::lex::{Tk, Token};
use super::cursor::{Parser, R};

impl Parser<'_> {
    pub(super) fn ty(&mut self) -> R {
        self.enter()?;
        if !(self.is_p("|") || self.is_p("&")) {
            self.simple_type()?;
        }
        self.type_suffix()?;
        self.leave();
        Ok(())
    }

    pub(super) fn type_suffix(&mut self) -> R {
        loop {
            if self.is_p("|") || self.is_p("&") {
                self.bump();
                self.simple_type()?;
            } else if self.is_p("?") {
                self.bump();
            } else {
                return Ok(());
            }
        }
    }

    pub(super) fn simple_type(&mut self) -> R {
        let t = self.cur();
        match t.kind {
            Tk::Attr | Tk::AttrOpen => {
                self.attributes()?;
                self.function_type()
            }
            Tk::Keyword if matches!(self.text(t), "nil" | "true" | "false") => {
                self.bump();
                Ok(())
            }
            Tk::Str => {
                self.bump();
                Ok(())
            }
            Tk::Name => {
                let typeof_ = self.text(t) == "typeof";
                self.bump();
                if self.is_p(".") {
                    self.bump();
                    self.expect_name()?;
                } else if self.is_p("...") {
                    self.bump();
                } else if typeof_ && self.is_p("(") {
                    return self.skip_balanced();
                }
                if self.is_p("<") {
                    self.skip_angles()?;
                }
                Ok(())
            }
            Tk::Punct if self.is_p("{") => self.skip_balanced(),
            Tk::Punct if self.is_p("(") || self.is_p("<") => self.function_type(),
            _ => self.fail("a type"),
        }
    }

    pub(super) fn function_type(&mut self) -> R {
        if self.is_p("<") {
            self.skip_angles()?;
        }
        if !self.is_p("(") {
            return self.fail("'('");
        }
        self.skip_balanced()?;
        if self.is_p("->") {
            self.bump();
            self.return_type()?;
        }
        Ok(())
    }

    pub(super) fn return_type(&mut self) -> R {
        self.enter()?;
        if self.is_p("(") {
            self.skip_balanced()?;
            if self.is_p("->") {
                self.bump();
                self.return_type()?;
            }
            self.type_suffix()?;
        } else if self.is_p("...") {
            self.bump();
            self.ty()?;
        } else if self.cur().kind == Tk::Name && self.text(self.ahead(1)) == "..." {
            self.bump();
            self.bump();
        } else {
            self.ty()?;
        }
        self.leave();
        Ok(())
    }

    /// Skips from an opening `(`, `[` or `{` to past its match.
    pub(super) fn skip_balanced(&mut self) -> R {
        let mut stack: Vec<&str> = Vec::new();
        loop {
            let t = self.cur();
            let s = self.text(t);
            match (t.kind, s) {
                (Tk::Eof, _) => return self.fail("a closing bracket"),
                (Tk::Punct, "(") => stack.push(")"),
                (Tk::Punct, "[") => stack.push("]"),
                (Tk::Punct, "{") => stack.push("}"),
                // (The guard pops the bracket this one closes.)
                (Tk::Punct, ")" | "]" | "}") if stack.pop() != Some(s) => {
                    return self.fail("a matching bracket");
                }
                _ => {}
            }
            self.bump();
            if stack.is_empty() {
                return Ok(());
            }
        }
    }

    /// Skips from a `<` to past its matching `>` (a `>=` closes and leaves its `=`).
    pub(super) fn skip_angles(&mut self) -> R {
        let mut depth = 0u32;
        loop {
            let t = self.cur();
            match (t.kind, self.text(t)) {
                (Tk::Eof, _) => return self.fail("'>'"),
                (Tk::Punct, "<") => depth += 1,
                (Tk::Punct, ">") => depth = depth.saturating_sub(1),
                (Tk::Punct, ">=") => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        // `Array<number>= x`: the `>` closes; the `=` stays for the caller.
                        self.t[self.i] = Token { kind: Tk::Punct, start: t.start + 1, end: t.end };
                        return Ok(());
                    }
                }
                (Tk::Punct, "(" | "[" | "{") => {
                    self.skip_balanced()?;
                    continue;
                }
                _ => {}
            }
            self.bump();
            if depth == 0 {
                return Ok(());
            }
        }
    }
}
