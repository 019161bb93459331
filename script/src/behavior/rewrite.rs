//! The source rewrite that makes behaviour arithmetic checked (`004`, "Determinism": NaN
//! and infinity are errors, and a division by zero is a runtime error *where it happens*).
//!
//! Luau does arithmetic on doubles in single instructions and calls no hook for them, so the
//! check is added to the source before it is compiled: every binary arithmetic expression
//! `a OP b` (`+ - * / // % ^`) becomes `__arbor_OP(a OP b)`, and every compound assignment
//! `x OP= e` becomes an assignment of the checked result (`x = __arbor_OP(x OP (e))`; for a
//! field or index target, its object and key are evaluated once, as Luau does). The
//! operation itself is still Luau's, so its semantics (metamethods, vectors, string
//! coercion, the error for `nil + 1` and its line) are unchanged; `__arbor_OP` is a C
//! function (`arith`) that returns its argument when it is finite and raises at the calling
//! line otherwise. A number literal that is infinite (`1e999`) is refused at load.
//!
//! Invariants:
//! - the rewrite inserts no line breaks and replaces only whole tokens, so every line of the
//!   rewritten text is the line of the source it came from (error lines, stacks and columns
//!   are the source's);
//! - the helpers are locals declared at the start of the chunk's first line, read from the
//!   environment's `__arbor_checks`; names starting with `__arbor` are refused, so no
//!   behaviour can shadow or reach them by name;
//! - the rewrite runs on sources Luau has already parsed, and refuses (with the line) what it
//!   cannot read rather than guess; nesting is bounded ([`MAX_DEPTH`]).

/// The arithmetic operators that are checked: (helper suffix, operator).
pub const CHECKED_OPS: [(&str, &str); 7] =
    [("add", "+"), ("sub", "-"), ("mul", "*"), ("div", "/"), ("idiv", "//"), ("mod", "%"), ("pow", "^")];

/// The prefix of every name the rewrite introduces (refused in behaviour sources).
pub const RESERVED_PREFIX: &str = "__arbor";

/// How deeply expressions, blocks and types may nest for the rewrite.
pub const MAX_DEPTH: u32 = 400;

/// Why a source could not be rewritten.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {message}")]
pub struct RewriteError {
    /// 1-based line of the problem.
    pub line: u32,
    /// What is wrong.
    pub message: String,
}

/// A rewritten source.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rewritten {
    /// The text to compile.
    pub text: String,
    /// How many arithmetic expressions and compound assignments were checked.
    pub checks: usize,
}

/// Rewrites `source` so its arithmetic is checked (see the module docs).
pub fn rewrite(source: &str) -> Result<Rewritten, RewriteError> {
    let fail = |at: usize, message: String| RewriteError { line: line_of(source, at), message };
    let tokens = lex(source).map_err(|(at, m)| fail(at, m))?;
    let mut p = Parser {
        src: source,
        t: tokens,
        i: 0,
        edits: Vec::new(),
        seq: 0,
        depth: 0,
        used: [false; 7],
        checks: 0,
    };
    p.block().map_err(|(at, m)| fail(at, m))?;
    if p.cur().kind != Tk::Eof {
        return Err(fail(p.cur().start, "expected the end of the chunk".to_owned()));
    }
    let checks = p.checks;
    let used: Vec<&str> = CHECKED_OPS.iter().zip(p.used).filter(|(_, u)| *u).map(|((n, _), _)| *n).collect();
    let mut edits = p.edits;
    if !used.is_empty() {
        let names: Vec<String> = used.iter().map(|n| format!("{RESERVED_PREFIX}_{n}")).collect();
        let values: Vec<String> = used.iter().map(|n| format!("{RESERVED_PREFIX}_checks.{n}")).collect();
        // After a `#!` line, which only the first line may hold.
        let at = if source.starts_with("#!") { source.find('\n').map_or(source.len(), |n| n + 1) } else { 0 };
        let text = format!("local {} = {}; ", names.join(", "), values.join(", "));
        edits.push(Edit { start: at, end: at, text, class: Class::Open, seq: u32::MAX });
    }
    Ok(Rewritten { text: apply(source, edits), checks })
}

/// 1-based line of byte `at` of `source`.
fn line_of(source: &str, at: usize) -> u32 {
    let at = at.min(source.len());
    1 + source.as_bytes()[..at].iter().filter(|&&b| b == b'\n').count() as u32
}

// ---------------------------------------------------------------------------------------
// Tokens

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Tk {
    Name,
    Keyword,
    Number,
    Str,
    InterpSimple,
    InterpBegin,
    InterpMid,
    InterpEnd,
    Attr,
    AttrOpen,
    Punct,
    Eof,
}

#[derive(Clone, Copy, Debug)]
struct Token {
    kind: Tk,
    start: usize,
    end: usize,
}

const KEYWORDS: [&str; 21] = [
    "and", "break", "do", "else", "elseif", "end", "false", "for", "function", "if", "in", "local", "nil",
    "not", "or", "repeat", "return", "then", "true", "until", "while",
];

const PUNCT3: [&str; 3] = ["...", "..=", "//="];
const PUNCT2: [&str; 14] =
    ["..", "//", "::", "->", "==", "~=", "<=", ">=", "+=", "-=", "*=", "/=", "%=", "^="];
const PUNCT1: &[u8] = b"+-*/%^#=<>(){}[];:,.?&|~";

type Fail = (usize, String);

/// The level of a long bracket `[==[` opening at `i`, if one does.
fn long_open(b: &[u8], i: usize) -> Option<usize> {
    let mut j = i + 1;
    while b.get(j) == Some(&b'=') {
        j += 1;
    }
    (b.get(j) == Some(&b'[')).then_some(j - i - 1)
}

/// The end (one past) of the long bracket text of level `level` whose content starts at `i`.
fn long_close(b: &[u8], mut i: usize, level: usize, start: usize) -> Result<usize, Fail> {
    while i < b.len() {
        if b[i] == b']'
            && b[i + 1..].iter().take(level).all(|&c| c == b'=')
            && b.get(i + 1 + level) == Some(&b']')
        {
            return Ok(i + level + 2);
        }
        i += 1;
    }
    Err((start, "an unfinished long string or comment".to_owned()))
}

/// Scans an interpolated string section from `i` (just after `` ` `` or `}`) to its `` ` ``
/// (returns `false`) or its `{` (returns `true`); the index is one past it.
fn interp_section(b: &[u8], mut i: usize, start: usize) -> Result<(usize, bool), Fail> {
    while i < b.len() {
        match b[i] {
            b'`' => return Ok((i + 1, false)),
            b'{' => return Ok((i + 1, true)),
            b'\\' if b.get(i + 1) == Some(&b'u') && b.get(i + 2) == Some(&b'{') => i += 3,
            b'\\' => i += escape_len(b, i),
            b'\n' | b'\r' => break,
            _ => i += 1,
        }
    }
    Err((start, "an unfinished interpolated string".to_owned()))
}

fn lex(src: &str) -> Result<Vec<Token>, Fail> {
    let b = src.as_bytes();
    let mut out = Vec::new();
    // Open braces: `true` for an interpolated string's `{`.
    let mut braces: Vec<bool> = Vec::new();
    let mut i = 0;
    if b.starts_with(b"#!") {
        while i < b.len() && b[i] != b'\n' {
            i += 1;
        }
    }
    let push = |out: &mut Vec<Token>, kind, start, end| out.push(Token { kind, start, end });
    while i < b.len() {
        let c = b[i];
        let start = i;
        match c {
            b' ' | b'\t' | b'\r' | b'\n' | 0x0b | 0x0c => i += 1,
            b'-' if b.get(i + 1) == Some(&b'-') => {
                i += 2;
                match (b.get(i) == Some(&b'[')).then(|| long_open(b, i)).flatten() {
                    Some(level) => i = long_close(b, i + level + 2, level, start)?,
                    None => {
                        while i < b.len() && b[i] != b'\n' {
                            i += 1;
                        }
                    }
                }
            }
            b'[' if long_open(b, i).is_some() => {
                let level = long_open(b, i).unwrap_or(0);
                i = long_close(b, i + level + 2, level, start)?;
                push(&mut out, Tk::Str, start, i);
            }
            b'"' | b'\'' => {
                i += 1;
                loop {
                    match b.get(i) {
                        None | Some(b'\n') | Some(b'\r') => {
                            return Err((start, "an unfinished string".to_owned()));
                        }
                        Some(&q) if q == c => break,
                        Some(b'\\') => i += escape_len(b, i),
                        Some(_) => i += 1,
                    }
                }
                i += 1;
                push(&mut out, Tk::Str, start, i);
            }
            b'`' => {
                let (end, open) = interp_section(b, i + 1, start)?;
                i = end;
                if open {
                    braces.push(true);
                    push(&mut out, Tk::InterpBegin, start, i);
                } else {
                    push(&mut out, Tk::InterpSimple, start, i);
                }
            }
            b'{' => {
                braces.push(false);
                i += 1;
                push(&mut out, Tk::Punct, start, i);
            }
            b'}' => {
                if braces.pop() == Some(true) {
                    let (end, open) = interp_section(b, i + 1, start)?;
                    i = end;
                    if open {
                        braces.push(true);
                        push(&mut out, Tk::InterpMid, start, i);
                    } else {
                        push(&mut out, Tk::InterpEnd, start, i);
                    }
                } else {
                    i += 1;
                    push(&mut out, Tk::Punct, start, i);
                }
            }
            b'0'..=b'9' => {
                i = number_end(b, i);
                push(&mut out, Tk::Number, start, i);
            }
            b'.' if b.get(i + 1).is_some_and(u8::is_ascii_digit) => {
                i = number_end(b, i);
                push(&mut out, Tk::Number, start, i);
            }
            b'a'..=b'z' | b'A'..=b'Z' | b'_' => {
                while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                    i += 1;
                }
                let word = &src[start..i];
                if word.starts_with(RESERVED_PREFIX) {
                    return Err((
                        start,
                        format!(
                            "'{word}': names starting with '{RESERVED_PREFIX}' are reserved for the engine"
                        ),
                    ));
                }
                let kind = if KEYWORDS.contains(&word) { Tk::Keyword } else { Tk::Name };
                push(&mut out, kind, start, i);
            }
            b'@' => {
                if b.get(i + 1) == Some(&b'[') {
                    i += 2;
                    push(&mut out, Tk::AttrOpen, start, i);
                } else {
                    i += 1;
                    while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                        i += 1;
                    }
                    push(&mut out, Tk::Attr, start, i);
                }
            }
            _ => {
                let rest = &src[i..];
                let len = if PUNCT3.iter().any(|p| rest.starts_with(p)) {
                    3
                } else if PUNCT2.iter().any(|p| rest.starts_with(p)) {
                    2
                } else if PUNCT1.contains(&c) {
                    1
                } else {
                    let ch = rest.chars().next().unwrap_or('?');
                    return Err((start, format!("unexpected character '{ch}'")));
                };
                i += len;
                push(&mut out, Tk::Punct, start, i);
            }
        }
    }
    push(&mut out, Tk::Eof, b.len(), b.len());
    Ok(out)
}

/// Bytes of the escape starting with the backslash at `i` (a backslash and CR LF is one).
fn escape_len(b: &[u8], i: usize) -> usize {
    if b.get(i + 1) == Some(&b'\r') && b.get(i + 2) == Some(&b'\n') { 3 } else { 2 }
}

/// One past the number starting at `i` (Luau's number pattern).
fn number_end(b: &[u8], mut i: usize) -> usize {
    i += 1;
    while i < b.len() && (b[i].is_ascii_digit() || b[i] == b'.' || b[i] == b'_') {
        i += 1;
    }
    if i < b.len() && (b[i] == b'e' || b[i] == b'E') {
        i += 1;
        if i < b.len() && (b[i] == b'+' || b[i] == b'-') {
            i += 1;
        }
    }
    while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
        i += 1;
    }
    i
}

/// Whether the number literal `text` is infinite (hexadecimal and binary ones never are).
fn infinite_literal(text: &str) -> bool {
    let t = text.replace('_', "");
    let lower = t.to_ascii_lowercase();
    if lower.starts_with("0x") || lower.starts_with("0b") {
        return false;
    }
    t.parse::<f64>().is_ok_and(f64::is_infinite)
}

// ---------------------------------------------------------------------------------------
// Edits

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Class {
    /// A `)` (or other text) ending an expression: at one position, inner ones first.
    Close,
    /// A token replaced by other text.
    Replace,
    /// Text starting an expression: at one position, outer ones first.
    Open,
}

#[derive(Clone, Debug)]
struct Edit {
    start: usize,
    end: usize,
    text: String,
    class: Class,
    seq: u32,
}

fn apply(src: &str, mut edits: Vec<Edit>) -> String {
    edits.sort_by(|a, b| {
        let key = |e: &Edit| match e.class {
            Class::Open => i64::from(u32::MAX) - i64::from(e.seq),
            _ => i64::from(e.seq),
        };
        (a.start, a.class, key(a)).cmp(&(b.start, b.class, key(b)))
    });
    let extra: usize = edits.iter().map(|e| e.text.len()).sum();
    let mut out = String::with_capacity(src.len() + extra);
    let mut pos = 0;
    for e in edits {
        if e.start > pos {
            out.push_str(&src[pos..e.start]);
            pos = e.start;
        }
        out.push_str(&e.text);
        pos = pos.max(e.end);
    }
    out.push_str(&src[pos..]);
    out
}

// ---------------------------------------------------------------------------------------
// Parser: Luau's grammar, read only as far as the rewrite needs (spans of expressions).

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

#[cfg(test)]
mod tests {
    use super::*;

    fn body(src: &str) -> String {
        let out = rewrite(src).unwrap().text;
        match out.find("; ") {
            Some(i) if out.starts_with("local __arbor") => out[i + 2..].to_owned(),
            _ => out,
        }
    }

    #[test]
    fn binary_arithmetic_is_wrapped_with_luau_precedence() {
        assert_eq!(body("return a + b * c"), "return __arbor_add(a + __arbor_mul(b * c))");
        assert_eq!(body("return a * b / c"), "return __arbor_div(__arbor_mul(a * b) / c)");
        assert_eq!(body("return -a ^ b ^ c"), "return -__arbor_pow(a ^ __arbor_pow(b ^ c))");
        assert_eq!(body("return a .. b + 1 < c"), "return a .. __arbor_add(b + 1) < c");
        assert_eq!(body("return a // b % c"), "return __arbor_mod(__arbor_idiv(a // b) % c)");
        assert_eq!(body("return #t - 1"), "return __arbor_sub(#t - 1)");
        assert_eq!(body("return f(x)[i] / 2"), "return __arbor_div(f(x)[i] / 2)");
        assert_eq!(
            body("return if a then b / c else d + 1"),
            "return if a then __arbor_div(b / c) else __arbor_add(d + 1)"
        );
        assert_eq!(body("return `{a / b} and {c}`"), "return `{__arbor_div(a / b)} and {c}`");
        assert_eq!(body("return (x :: number) / 2"), "return __arbor_div((x :: number) / 2)");
    }

    #[test]
    fn the_prefix_declares_only_the_helpers_used_on_the_first_line() {
        let out = rewrite("local x = 1 / 2\nreturn x").unwrap();
        assert_eq!(
            out.text,
            "local __arbor_div = __arbor_checks.div; local x = __arbor_div(1 / 2)\nreturn x"
        );
        assert_eq!(out.checks, 1);
        assert_eq!(rewrite("return 1").unwrap().text, "return 1");
        let shebang = rewrite("#!/usr/bin/env luau\nreturn 1 - 2").unwrap().text;
        assert!(shebang.starts_with("#!/usr/bin/env luau\nlocal __arbor_sub"), "{shebang}");
    }

    #[test]
    fn compound_assignments_evaluate_their_target_once() {
        assert_eq!(body("x += 1"), "x = __arbor_add(x + ( 1))");
        assert_eq!(body("x /= a + b"), "x = __arbor_div(x / ( __arbor_add(a + b)))");
        assert_eq!(
            body("self.memory.n *= 2"),
            "do local __arbor_o, __arbor_k = self.memory, \"n\" ; __arbor_o[__arbor_k] = __arbor_mul(__arbor_o[__arbor_k] * ( 2)) end"
        );
        assert_eq!(
            body("t[f()] -= 1"),
            "do local __arbor_o, __arbor_k = t, (f()) ; __arbor_o[__arbor_k] = __arbor_sub(__arbor_o[__arbor_k] - ( 1)) end"
        );
        assert_eq!(body("s ..= 'x'"), "s ..= 'x'");
    }

    #[test]
    fn types_strings_and_comments_are_left_alone() {
        let src = "type T<A> = { x: number, f: (number) -> number? }\n\
                   local function f<T>(a: T, ...: number): (number, string) return a end\n\
                   local s = '1/0' -- 2/0\n--[[ 3/0 ]] local l = [[4/0]]\n\
                   local v: Array<number>= {}\n\
                   type function tf(t) return t / 2 end";
        let out = rewrite(src).unwrap();
        assert_eq!(out.text, src);
        assert_eq!(out.checks, 0);
    }

    #[test]
    fn lines_are_kept() {
        let src = "local a = 1 /\n  2\nlocal t = {\n  x = a % 3,\n}\nt.x //= 2\nreturn a";
        let out = rewrite(src).unwrap().text;
        assert_eq!(out.lines().count(), src.lines().count());
        assert!(out.lines().nth(5).unwrap().contains("__arbor_idiv"), "{out}");
    }

    #[test]
    fn reserved_names_infinite_literals_and_deep_nesting_are_refused() {
        let e = rewrite("local x = 1\nlocal __arbor_add = 2").unwrap_err();
        assert_eq!(e.line, 2);
        assert!(e.message.contains("reserved"), "{e}");
        let e = rewrite("return 1e999").unwrap_err();
        assert!(e.message.contains("infinity"), "{e}");
        let deep = format!("return {}1{}", "(".repeat(500), ")".repeat(500));
        assert!(rewrite(&deep).unwrap_err().message.contains("nests"));
    }

    #[test]
    fn statements_of_every_kind_parse() {
        let src = r#"
@native local function f(a, b) return a / b end
local g = @checked function(x) return x * 2 end
const k = 3
for i = 1, 10, 2 do continue end
for k, v in pairs({}) do end
while false do break end
repeat local z = 1 until z - 1 == 0
if a then elseif b then else end
do local o: { [string]: number } = {} end
export type E = typeof(f(1, 2))
local m = setmetatable({}, {}) :: any
m:go<<number>>(1)
print"x" print{1} obj.f{2}
local _ = { [1 + 1] = 2; y = 3 - 1, 4 }
return function(...) return ... end
"#;
        let out = rewrite(src).unwrap();
        assert_eq!(out.text.lines().count(), src.lines().count());
        assert_eq!(out.checks, 5, "{}", out.text);
    }
}
