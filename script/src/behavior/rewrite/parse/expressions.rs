//! The rewrite parser's expressions: binary operators with Luau's priorities (each checked
//! arithmetic operator wraps its expression), unary operators, simple expressions (refusing
//! infinite number literals), `if` expressions, tables, calls and suffixed expressions.

use super::super::lex::{Tk, infinite_literal};
use super::cursor::{Parser, R};

/// How a suffixed expression ends (for assignments).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Last {
    /// A name alone.
    Name,
    /// A parenthesized expression alone.
    Group,
    /// `.name`: the `.` and name tokens.
    Dot(usize, usize),
    /// `[key]`: the `[` and `]` tokens.
    Index(usize, usize),
    /// A call.
    Call,
}

/// Binary operators: (left priority, right priority, checked operator index), as Luau's
/// parser has them.
fn binary(p: &Parser<'_>) -> Option<(u32, u32, Option<usize>)> {
    let t = p.cur();
    let s = p.text(t);
    match t.kind {
        Tk::Punct => Some(match s {
            "+" => (6, 6, Some(0)),
            "-" => (6, 6, Some(1)),
            "*" => (7, 7, Some(2)),
            "/" => (7, 7, Some(3)),
            "//" => (7, 7, Some(4)),
            "%" => (7, 7, Some(5)),
            "^" => (10, 9, Some(6)),
            ".." => (5, 4, None),
            "==" | "~=" | "<" | "<=" | ">" | ">=" => (3, 3, None),
            _ => return None,
        }),
        Tk::Keyword if s == "and" => Some((2, 2, None)),
        Tk::Keyword if s == "or" => Some((1, 1, None)),
        _ => None,
    }
}

const UNARY_PRIORITY: u32 = 8;

impl Parser<'_> {
    pub(super) fn expr_list(&mut self) -> R {
        self.expr(0)?;
        while self.is_p(",") {
            self.bump();
            self.expr(0)?;
        }
        Ok(())
    }

    /// An expression whose binary operators bind tighter than `limit`; returns its start.
    pub(super) fn expr(&mut self, limit: u32) -> R<usize> {
        self.enter()?;
        let start = self.cur().start;
        if self.is_kw("not") || self.is_p("-") || self.is_p("#") {
            self.bump();
            self.expr(UNARY_PRIORITY)?;
        } else {
            self.simple()?;
            if self.is_p("::") {
                self.bump();
                self.ty()?;
            }
        }
        while let Some((left, right, op)) = binary(self) {
            if left <= limit {
                break;
            }
            self.bump();
            self.expr(right)?;
            if let Some(op) = op {
                let end = self.prev_end();
                self.wrap(start, end, op);
            }
        }
        self.leave();
        Ok(start)
    }

    pub(super) fn simple(&mut self) -> R {
        let t = self.cur();
        match t.kind {
            Tk::Attr | Tk::AttrOpen => {
                self.attributes()?;
                self.expect_kw("function")?;
                self.func_body()
            }
            Tk::Number => {
                let text = self.text(t);
                if infinite_literal(text) {
                    return Err((
                        t.start,
                        format!("the number {text} is infinity (NaN and infinity are errors in behaviours)"),
                    ));
                }
                self.bump();
                Ok(())
            }
            Tk::Str | Tk::InterpSimple => {
                self.bump();
                Ok(())
            }
            Tk::InterpBegin => {
                self.bump();
                loop {
                    self.expr(0)?;
                    match self.cur().kind {
                        Tk::InterpMid => self.bump(),
                        Tk::InterpEnd => {
                            self.bump();
                            return Ok(());
                        }
                        _ => return self.fail("the rest of the interpolated string"),
                    }
                }
            }
            Tk::Keyword => match self.text(t) {
                "nil" | "true" | "false" => {
                    self.bump();
                    Ok(())
                }
                "function" => {
                    self.bump();
                    self.func_body()
                }
                "if" => self.if_expr(),
                _ => self.fail("an expression"),
            },
            Tk::Punct if self.is_p("...") => {
                self.bump();
                Ok(())
            }
            Tk::Punct if self.is_p("{") => self.table(),
            _ => self.suffixed().map(drop),
        }
    }

    pub(super) fn if_expr(&mut self) -> R {
        self.bump();
        self.expr(0)?;
        self.expect_kw("then")?;
        self.expr(0)?;
        while self.is_kw("elseif") {
            self.bump();
            self.expr(0)?;
            self.expect_kw("then")?;
            self.expr(0)?;
        }
        self.expect_kw("else")?;
        self.expr(0).map(drop)
    }

    pub(super) fn table(&mut self) -> R {
        self.expect_p("{")?;
        while !self.is_p("}") {
            if self.is_p("[") {
                self.bump();
                self.expr(0)?;
                self.expect_p("]")?;
                self.expect_p("=")?;
                self.expr(0)?;
            } else if self.cur().kind == Tk::Name
                && self.ahead(1).kind == Tk::Punct
                && self.text(self.ahead(1)) == "="
            {
                self.bump();
                self.bump();
                self.expr(0)?;
            } else {
                self.expr(0)?;
            }
            if self.is_p(",") || self.is_p(";") {
                self.bump();
            } else {
                break;
            }
        }
        self.expect_p("}")
    }

    /// A prefix expression and its suffixes; returns its start and how it ends.
    pub(super) fn suffixed(&mut self) -> R<(usize, Last)> {
        let start = self.cur().start;
        let mut last = if self.cur().kind == Tk::Name {
            self.bump();
            Last::Name
        } else if self.is_p("(") {
            self.bump();
            self.expr(0)?;
            self.expect_p(")")?;
            Last::Group
        } else {
            return self.fail("an expression");
        };
        loop {
            let t = self.cur();
            match (t.kind, self.text(t)) {
                (Tk::Punct, ".") => {
                    let dot = self.i;
                    self.bump();
                    if !matches!(self.cur().kind, Tk::Name | Tk::Keyword) {
                        return self.fail("a field name");
                    }
                    self.bump();
                    last = Last::Dot(dot, dot + 1);
                }
                (Tk::Punct, "[") => {
                    let open = self.i;
                    self.bump();
                    self.expr(0)?;
                    let close = self.i;
                    self.expect_p("]")?;
                    last = Last::Index(open, close);
                }
                (Tk::Punct, ":") => {
                    self.bump();
                    self.expect_name()?;
                    if self.is_p("<") && self.text(self.ahead(1)) == "<" {
                        self.skip_angles()?;
                    }
                    self.call_args()?;
                    last = Last::Call;
                }
                (Tk::Punct, "(") | (Tk::Punct, "{") | (Tk::Str, _) => {
                    self.call_args()?;
                    last = Last::Call;
                }
                (Tk::Punct, "<") if self.text(self.ahead(1)) == "<" => self.skip_angles()?,
                _ => return Ok((start, last)),
            }
        }
    }

    pub(super) fn call_args(&mut self) -> R {
        let t = self.cur();
        if t.kind == Tk::Str {
            self.bump();
            return Ok(());
        }
        if self.is_p("{") {
            return self.table();
        }
        self.expect_p("(")?;
        if !self.is_p(")") {
            self.expr_list()?;
        }
        self.expect_p(")")
    }
}
