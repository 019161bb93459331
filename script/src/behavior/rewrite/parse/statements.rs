//! The rewrite parser's statements: blocks, every statement Luau has, compound assignments
//! (rewritten so their target is evaluated once and their result checked), type aliases and
//! type functions (whose bodies get no checks), attributes and function bodies.

use super::super::edit::{CHECKED_OPS, Class, RESERVED_PREFIX};
use super::super::lex::Tk;
use super::cursor::{Parser, R};
use super::expressions::Last;

impl Parser<'_> {
    pub(super) fn block_follow(&self) -> bool {
        let t = self.cur();
        t.kind == Tk::Eof
            || (t.kind == Tk::Keyword && matches!(self.text(t), "else" | "elseif" | "end" | "until"))
    }

    pub(super) fn block(&mut self) -> R {
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

    pub(super) fn statement(&mut self) -> R {
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

    pub(super) fn function_stat(&mut self) -> R {
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
    pub(super) fn local_rest(&mut self) -> R {
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

    pub(super) fn binding(&mut self) -> R {
        self.expect_name()?;
        if self.is_p(":") {
            self.bump();
            self.ty()?;
        }
        Ok(())
    }

    pub(super) fn for_stat(&mut self) -> R {
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

    pub(super) fn expr_stat(&mut self) -> R {
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
    pub(super) fn compound(&mut self, start_tok: usize, start: usize, last: Last, op: Option<usize>) -> R {
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
    pub(super) fn type_alias(&mut self) -> R {
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

    pub(super) fn attributes(&mut self) -> R {
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

    pub(super) fn func_body(&mut self) -> R {
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
}
