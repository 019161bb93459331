//! The rewrite's parser: Luau's grammar, read only as far as the rewrite needs (the spans
//! of expressions and assignment targets), emitting the [`Edit`]s that wrap checked
//! arithmetic. Nesting is bounded by [`MAX_DEPTH`].

use super::lex::{Fail, Tk, Token, infinite_literal};
use super::{CHECKED_OPS, Class, Edit, MAX_DEPTH, RESERVED_PREFIX};

/// How a suffixed expression ends (for assignments).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Last {
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

struct Parser<'a> {
    src: &'a str,
    t: Vec<Token>,
    i: usize,
    edits: Vec<Edit>,
    seq: u32,
    depth: u32,
    used: [bool; 7],
    checks: usize,
}

type R<T = ()> = Result<T, Fail>;

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

impl<'a> Parser<'a> {
    fn cur(&self) -> Token {
        self.t[self.i.min(self.t.len() - 1)]
    }

    fn ahead(&self, n: usize) -> Token {
        self.t[(self.i + n).min(self.t.len() - 1)]
    }

    fn text(&self, t: Token) -> &'a str {
        &self.src[t.start..t.end]
    }

    fn prev_end(&self) -> usize {
        self.t[self.i.saturating_sub(1)].end
    }

    fn bump(&mut self) {
        if self.i < self.t.len() - 1 {
            self.i += 1;
        }
    }

    fn is_p(&self, s: &str) -> bool {
        let t = self.cur();
        t.kind == Tk::Punct && self.text(t) == s
    }

    fn is_kw(&self, s: &str) -> bool {
        let t = self.cur();
        t.kind == Tk::Keyword && self.text(t) == s
    }

    fn is_name(&self, s: &str) -> bool {
        let t = self.cur();
        t.kind == Tk::Name && self.text(t) == s
    }

    fn fail<T>(&self, what: &str) -> R<T> {
        let t = self.cur();
        let got = if t.kind == Tk::Eof {
            "the end of the source".to_owned()
        } else {
            format!("'{}'", self.text(t))
        };
        Err((t.start, format!("expected {what}, got {got}")))
    }

    fn expect_p(&mut self, s: &str) -> R {
        if self.is_p(s) {
            self.bump();
            Ok(())
        } else {
            self.fail(&format!("'{s}'"))
        }
    }

    fn expect_kw(&mut self, s: &str) -> R {
        if self.is_kw(s) {
            self.bump();
            Ok(())
        } else {
            self.fail(&format!("'{s}'"))
        }
    }

    fn expect_name(&mut self) -> R {
        if self.cur().kind == Tk::Name {
            self.bump();
            Ok(())
        } else {
            self.fail("a name")
        }
    }

    fn enter(&mut self) -> R {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err((self.cur().start, format!("the code nests more than {MAX_DEPTH} levels deep")));
        }
        Ok(())
    }

    fn leave(&mut self) {
        self.depth -= 1;
    }

    fn edit(&mut self, start: usize, end: usize, text: String, class: Class) {
        self.seq += 1;
        self.edits.push(Edit { start, end, text, class, seq: self.seq });
    }

    /// Wraps the expression `start..end` in the check of operator `op`.
    fn wrap(&mut self, start: usize, end: usize, op: usize) {
        self.used[op] = true;
        self.checks += 1;
        self.edit(start, start, format!("{RESERVED_PREFIX}_{}(", CHECKED_OPS[op].0), Class::Open);
        self.edit(end, end, ")".to_owned(), Class::Close);
    }

    // -- statements ---------------------------------------------------------------------

    fn block_follow(&self) -> bool {
        let t = self.cur();
        t.kind == Tk::Eof
            || (t.kind == Tk::Keyword && matches!(self.text(t), "else" | "elseif" | "end" | "until"))
    }

    fn block(&mut self) -> R {
        self.enter()?;
        loop {
            if self.is_p(";") {
                self.bump();
                continue;
            }
            if self.block_follow() {
                break;
            }
            self.statement()?;
        }
        self.leave();
        Ok(())
    }

    fn statement(&mut self) -> R {
        let t = self.cur();
        if t.kind == Tk::Attr || t.kind == Tk::AttrOpen {
            self.attributes()?;
            if self.is_kw("function") {
                self.bump();
                return self.function_stat();
            }
            if self.is_kw("local") || self.is_name("const") {
                self.bump();
                return self.local_rest();
            }
            return self.fail("'function' after an attribute");
        }
        if t.kind != Tk::Keyword {
            return self.expr_stat();
        }
        match self.text(t) {
            "if" => {
                self.bump();
                self.expr(0)?;
                self.expect_kw("then")?;
                self.block()?;
                while self.is_kw("elseif") {
                    self.bump();
                    self.expr(0)?;
                    self.expect_kw("then")?;
                    self.block()?;
                }
                if self.is_kw("else") {
                    self.bump();
                    self.block()?;
                }
                self.expect_kw("end")
            }
            "while" => {
                self.bump();
                self.expr(0)?;
                self.expect_kw("do")?;
                self.block()?;
                self.expect_kw("end")
            }
            "do" => {
                self.bump();
                self.block()?;
                self.expect_kw("end")
            }
            "for" => self.for_stat(),
            "repeat" => {
                self.bump();
                self.block()?;
                self.expect_kw("until")?;
                self.expr(0).map(drop)
            }
            "function" => {
                self.bump();
                self.function_stat()
            }
            "local" => {
                self.bump();
                self.local_rest()
            }
            "return" => {
                self.bump();
                if !self.block_follow() && !self.is_p(";") {
                    self.expr_list()?;
                }
                Ok(())
            }
            "break" => {
                self.bump();
                Ok(())
            }
            _ => self.fail("a statement"),
        }
    }

    fn function_stat(&mut self) -> R {
        self.expect_name()?;
        while self.is_p(".") {
            self.bump();
            self.expect_name()?;
        }
        if self.is_p(":") {
            self.bump();
            self.expect_name()?;
        }
        self.func_body()
    }

    /// After `local` or `const`: a function, or bindings with optional values.
    fn local_rest(&mut self) -> R {
        if self.is_kw("function") {
            self.bump();
            self.expect_name()?;
            return self.func_body();
        }
        loop {
            self.binding()?;
            if !self.is_p(",") {
                break;
            }
            self.bump();
        }
        if self.is_p("=") {
            self.bump();
            self.expr_list()?;
        }
        Ok(())
    }

    fn binding(&mut self) -> R {
        self.expect_name()?;
        if self.is_p(":") {
            self.bump();
            self.ty()?;
        }
        Ok(())
    }

    fn for_stat(&mut self) -> R {
        self.bump();
        self.binding()?;
        if self.is_p("=") {
            self.bump();
            self.expr(0)?;
            self.expect_p(",")?;
            self.expr(0)?;
            if self.is_p(",") {
                self.bump();
                self.expr(0)?;
            }
        } else {
            while self.is_p(",") {
                self.bump();
                self.binding()?;
            }
            self.expect_kw("in")?;
            self.expr_list()?;
        }
        self.expect_kw("do")?;
        self.block()?;
        self.expect_kw("end")
    }

    fn expr_stat(&mut self) -> R {
        let start_tok = self.i;
        let (start, last) = self.suffixed()?;
        if last == Last::Call {
            return Ok(());
        }
        if self.is_p(",") || self.is_p("=") {
            while self.is_p(",") {
                self.bump();
                self.suffixed()?;
            }
            self.expect_p("=")?;
            return self.expr_list();
        }
        let t = self.cur();
        if t.kind == Tk::Punct && self.text(t).len() >= 2 && self.text(t).ends_with('=') {
            let op = CHECKED_OPS.iter().position(|(_, s)| self.text(t) == format!("{s}="));
            if op.is_some() || self.text(t) == "..=" {
                return self.compound(start_tok, start, last, op);
            }
        }
        if last == Last::Name {
            let word = self.text(self.t[start_tok]);
            match word {
                "type" => return self.type_alias(),
                "export" if self.is_name("type") => {
                    self.bump();
                    return self.type_alias();
                }
                "continue" => return Ok(()),
                "const" => return self.local_rest(),
                _ => {}
            }
        }
        self.fail("an assignment or a call")
    }

    /// `target OP= value`: the check wraps the result; the target is evaluated once.
    fn compound(&mut self, start_tok: usize, start: usize, last: Last, op: Option<usize>) -> R {
        let op_tok = self.cur();
        self.bump();
        self.expr(0)?;
        let end = self.prev_end();
        let Some(op) = op else { return Ok(()) };
        self.used[op] = true;
        self.checks += 1;
        let (name, symbol) = CHECKED_OPS[op];
        let helper = format!("{RESERVED_PREFIX}_{name}");
        let (obj, key) = (format!("{RESERVED_PREFIX}_o"), format!("{RESERVED_PREFIX}_k"));
        match last {
            Last::Name => {
                let target = self.text(self.t[start_tok]).to_owned();
                self.edit(
                    op_tok.start,
                    op_tok.end,
                    format!("= {helper}({target} {symbol} ("),
                    Class::Replace,
                );
                self.edit(end, end, "))".to_owned(), Class::Close);
            }
            Last::Dot(dot, field) => {
                let (dot, name) = (self.t[dot], self.t[field]);
                let field = self.text(name).to_owned();
                self.edit(start, start, format!("do local {obj}, {key} = "), Class::Open);
                self.edit(dot.start, dot.end, ", ".to_owned(), Class::Replace);
                self.edit(name.start, name.end, format!("\"{field}\""), Class::Replace);
                let text = format!("; {obj}[{key}] = {helper}({obj}[{key}] {symbol} (");
                self.edit(op_tok.start, op_tok.end, text, Class::Replace);
                self.edit(end, end, ")) end".to_owned(), Class::Close);
            }
            Last::Index(open, close) => {
                let (open, close) = (self.t[open], self.t[close]);
                self.edit(start, start, format!("do local {obj}, {key} = "), Class::Open);
                self.edit(open.start, open.end, ", (".to_owned(), Class::Replace);
                self.edit(close.start, close.end, ")".to_owned(), Class::Replace);
                let text = format!("; {obj}[{key}] = {helper}({obj}[{key}] {symbol} (");
                self.edit(op_tok.start, op_tok.end, text, Class::Replace);
                self.edit(end, end, ")) end".to_owned(), Class::Close);
            }
            Last::Group | Last::Call => {
                return Err((op_tok.start, "a compound assignment needs a variable".to_owned()));
            }
        }
        Ok(())
    }

    /// After `type`: an alias or a type function (whose body is not runtime code).
    fn type_alias(&mut self) -> R {
        if self.is_kw("function") {
            self.bump();
            self.expect_name()?;
            let (edits, used, checks) = (self.edits.len(), self.used, self.checks);
            self.func_body()?;
            // Type functions run in the type checker only: no checks there.
            self.edits.truncate(edits);
            (self.used, self.checks) = (used, checks);
            return Ok(());
        }
        self.expect_name()?;
        if self.is_p("<") {
            self.skip_angles()?;
        }
        self.expect_p("=")?;
        self.ty()
    }

    fn attributes(&mut self) -> R {
        loop {
            match self.cur().kind {
                Tk::Attr => self.bump(),
                Tk::AttrOpen => {
                    self.bump();
                    let mut depth = 1;
                    while depth > 0 {
                        match (self.cur().kind, self.text(self.cur())) {
                            (Tk::Eof, _) => return self.fail("']'"),
                            (Tk::Punct, "[") => depth += 1,
                            (Tk::Punct, "]") => depth -= 1,
                            _ => {}
                        }
                        self.bump();
                    }
                }
                _ => return Ok(()),
            }
        }
    }

    fn func_body(&mut self) -> R {
        if self.is_p("<") {
            self.skip_angles()?;
        }
        self.expect_p("(")?;
        while !self.is_p(")") {
            if self.is_p("...") {
                self.bump();
                if self.is_p(":") {
                    self.bump();
                    if self.cur().kind == Tk::Name && self.text(self.ahead(1)) == "..." {
                        self.bump();
                        self.bump();
                    } else {
                        self.ty()?;
                    }
                }
                break;
            }
            self.binding()?;
            if !self.is_p(",") {
                break;
            }
            self.bump();
        }
        self.expect_p(")")?;
        if self.is_p(":") || self.is_p("->") {
            self.bump();
            self.return_type()?;
        }
        self.block()?;
        self.expect_kw("end")
    }

    // -- expressions ----------------------------------------------------------------------

    fn expr_list(&mut self) -> R {
        self.expr(0)?;
        while self.is_p(",") {
            self.bump();
            self.expr(0)?;
        }
        Ok(())
    }

    /// An expression whose binary operators bind tighter than `limit`; returns its start.
    fn expr(&mut self, limit: u32) -> R<usize> {
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

    fn simple(&mut self) -> R {
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

    fn if_expr(&mut self) -> R {
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

    fn table(&mut self) -> R {
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
    fn suffixed(&mut self) -> R<(usize, Last)> {
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

    fn call_args(&mut self) -> R {
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

    // -- types (skipped: they are not runtime code) ------------------------------------------

    fn ty(&mut self) -> R {
        self.enter()?;
        if !(self.is_p("|") || self.is_p("&")) {
            self.simple_type()?;
        }
        self.type_suffix()?;
        self.leave();
        Ok(())
    }

    fn type_suffix(&mut self) -> R {
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

    fn simple_type(&mut self) -> R {
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

    fn function_type(&mut self) -> R {
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

    fn return_type(&mut self) -> R {
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
    fn skip_balanced(&mut self) -> R {
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
    fn skip_angles(&mut self) -> R {
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
