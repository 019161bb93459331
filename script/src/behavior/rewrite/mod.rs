//! The source rewrite that makes behaviour arithmetic checked (`docs/behaviours.md`,
//! "Determinism rules": NaN and infinity are errors, and a division by zero is a runtime error
//! *where it happens*).
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
//!   cannot read rather than guess; nesting is bounded ([`MAX_DEPTH`](edit::MAX_DEPTH)).

mod edit;
mod lex;
mod parse;

pub use edit::{CHECKED_OPS, RESERVED_PREFIX};
use edit::{Class, Edit, apply};
use lex::lex;
use parse::{Parsed, parse};

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
    let Parsed { mut edits, used, checks } = parse(source, tokens).map_err(|(at, m)| fail(at, m))?;
    let used: Vec<&str> = CHECKED_OPS.iter().zip(used).filter(|(_, u)| *u).map(|((n, _), _)| *n).collect();
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
