//! Size charges for the standard library functions that do work in proportion to their
//! arguments without allocating it (what they allocate the allocation hook charges): each is
//! replaced by a wrapper that charges the bytes it will scan or write, or 16 bytes per table
//! element it will visit, then calls the original.
//!
//! | function | charged |
//! |---|---|
//! | `string.find`, `match`, `gmatch`, `gsub` | the subject's bytes |
//! | `utf8.len`, `utf8.offset` | the subject's bytes |
//! | `buffer.fill`, `copy`, `writestring` | the bytes written |
//! | `table.concat`, `find`, `insert`/`remove` at a position, `maxn`, `clear` | the elements |
//! | `table.move` | the elements moved |
//! | `table.sort` | elements × log₂ elements |
//!
//! Invariant: a wrapper passes its arguments and results through unchanged.

use super::charge;
use mlua::{Function, Lua, MultiValue, Result, Table, Value};

/// Bytes one table element stands for.
const ELEMENT_BYTES: usize = 16;

/// How a function's arguments say what it will touch, in bytes.
type Cost = fn(&MultiValue) -> usize;

/// The length of argument `i` (bytes of a string or buffer, border of a table).
fn len_of(args: &MultiValue, i: usize) -> usize {
    match args.get(i) {
        Some(Value::String(s)) => s.as_bytes().len(),
        Some(Value::Buffer(b)) => b.len(),
        Some(Value::Table(t)) => t.raw_len(),
        _ => 0,
    }
}

/// Argument `i` as a count, if it is a finite non-negative number.
fn count_of(args: &MultiValue, i: usize) -> Option<usize> {
    match args.get(i)? {
        Value::Integer(n) => usize::try_from(*n).ok(),
        Value::Number(n) if n.is_finite() && *n >= 0.0 => Some(*n as usize),
        _ => None,
    }
}

fn subject_bytes(args: &MultiValue) -> usize {
    len_of(args, 0)
}

fn table_elements(args: &MultiValue) -> usize {
    len_of(args, 0).saturating_mul(ELEMENT_BYTES)
}

fn sort_work(args: &MultiValue) -> usize {
    let n = len_of(args, 0);
    let log = usize::BITS - n.leading_zeros();
    n.saturating_mul(log as usize).saturating_mul(ELEMENT_BYTES)
}

/// `table.insert(t, pos, v)` shifts the elements after `pos` (`table.insert(t, v)` appends).
fn positional_insert(args: &MultiValue) -> usize {
    if args.len() >= 3 { table_elements(args) } else { 0 }
}

/// `table.remove(t, pos)` shifts the elements after `pos` (`table.remove(t)` pops).
fn positional_remove(args: &MultiValue) -> usize {
    if args.len() >= 2 { table_elements(args) } else { 0 }
}

/// `table.move(a1, f, e, t, a2)`: `e - f + 1` elements.
fn moved_elements(args: &MultiValue) -> usize {
    match (count_of(args, 1), count_of(args, 2)) {
        (Some(f), Some(e)) if e >= f => (e - f + 1).saturating_mul(ELEMENT_BYTES),
        _ => 0,
    }
}

/// `buffer.fill(b, offset, value, count?)`: `count`, or the rest of the buffer.
fn filled_bytes(args: &MultiValue) -> usize {
    count_of(args, 3).unwrap_or_else(|| len_of(args, 0).saturating_sub(count_of(args, 1).unwrap_or(0)))
}

/// `buffer.copy(target, offset, source, sourceOffset?, count?)`.
fn copied_bytes(args: &MultiValue) -> usize {
    count_of(args, 4).unwrap_or_else(|| len_of(args, 2).saturating_sub(count_of(args, 3).unwrap_or(0)))
}

/// `buffer.writestring(b, offset, s, count?)`.
fn written_bytes(args: &MultiValue) -> usize {
    count_of(args, 3).unwrap_or_else(|| len_of(args, 2))
}

/// The metered functions, by library.
const METERED: &[(&str, &str, Cost)] = &[
    ("string", "find", subject_bytes),
    ("string", "match", subject_bytes),
    ("string", "gmatch", subject_bytes),
    ("string", "gsub", subject_bytes),
    ("utf8", "len", subject_bytes),
    ("utf8", "offset", subject_bytes),
    ("buffer", "fill", filled_bytes),
    ("buffer", "copy", copied_bytes),
    ("buffer", "writestring", written_bytes),
    ("table", "concat", table_elements),
    ("table", "find", table_elements),
    ("table", "insert", positional_insert),
    ("table", "remove", positional_remove),
    ("table", "maxn", table_elements),
    ("table", "clear", table_elements),
    ("table", "move", moved_elements),
    ("table", "sort", sort_work),
];

/// Replaces the metered library functions of `lua`'s globals with charging wrappers. Call
/// before the VM is sandboxed (the libraries are read-only after).
pub fn meter_library(lua: &Lua) -> Result<()> {
    let globals = lua.globals();
    for &(library, name, cost) in METERED {
        let table: Table = globals.raw_get(library)?;
        let original: Function = table.raw_get(name)?;
        let wrapper = lua.create_function(move |_, args: MultiValue| {
            charge(cost(&args), 0)?;
            original.call::<MultiValue>(args)
        })?;
        table.raw_set(name, wrapper)?;
    }
    Ok(())
}
