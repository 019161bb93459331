//! The hostile catalogue, work inside one VM instruction or one library call: each of these
//! once held a tick for seconds or minutes while the meter saw one call. Each test asserts
//! that the entry is aborted by the budget after a bounded number of operations (counted,
//! not timed) and that a bystander keeps running.

mod common;

/// Runs `setup` once, then `op` in an endless loop in the same entry (see
/// [`common::completed_before_abort`]).
fn completed_before_abort(setup: &str, op: &str) -> u64 {
    common::completed_before_abort(common::nothing, setup, op)
}

/// Two 3 MiB strings that differ only in their last byte.
const TWO_LONG: &str = "local A = string.rep('x', 3145728) local B = string.sub(A, 2) .. 'y'";

#[test]
fn comparing_long_strings_pays_for_the_bytes_compared() {
    let n = completed_before_abort(TWO_LONG, "local _ = A < B");
    assert!(n <= 4, "{n} comparisons of 3 MiB");
}

#[test]
fn re_interning_a_long_string_pays_for_hashing_it() {
    let n = completed_before_abort(TWO_LONG, "local _ = A:sub(1)");
    assert!(n <= 4, "{n} copies of 3 MiB");
    let n = completed_before_abort(
        &(TWO_LONG.to_owned() + " local b = buffer.fromstring(A)"),
        "local _ = buffer.readstring(b, 0, 3145728)",
    );
    assert!(n <= 4, "{n} reads of 3 MiB");
}

#[test]
fn splitting_pays_for_the_bytes_it_compares() {
    let n = completed_before_abort(TWO_LONG, "local _ = A:split('\\0')");
    assert!(n <= 4, "{n} splits of 3 MiB");
    let n = completed_before_abort(
        "local A = string.rep('x', 262144) local sep = string.rep('x', 4096) .. 'y'",
        "local _ = A:split(sep)",
    );
    assert!(n <= 1, "{n} splits by a 4 KiB separator");
}

#[test]
fn traversal_pays_for_the_empty_slots_it_skips() {
    let setup = "local T = table.create(500000) T[500000] = 1";
    let n = completed_before_abort(setup, "local _ = next(T)");
    assert!(n <= 8, "{n} calls of next over 500,000 slots");
    let n = completed_before_abort(setup, "for _ in next, T do break end");
    assert!(n <= 8, "{n} loops over 500,000 slots");
}

#[test]
fn sorting_long_strings_pays_for_their_comparisons() {
    let setup = "local prefix = string.rep('p', 65536) local T = {}
                 for i = 1, 40 do T[i] = prefix .. string.format('%02d', 41 - i) end";
    let n = completed_before_abort(setup, "table.sort(T) table.sort(T, function(a, b) return a > b end)");
    assert!(n <= 2, "{n} sorts of 40 strings of 64 KiB");
}

#[test]
fn a_plain_search_pays_for_every_compare() {
    let setup = "local S = string.rep('x', 1048576) local needle = string.rep('x', 524288) .. 'y'";
    let n = completed_before_abort(setup, "local _ = string.find(S, needle, 1, true)");
    assert!(n == 0, "{n} searches for 512 KiB in 1 MiB");
}

#[test]
fn a_backtracking_pattern_is_stopped_inside_one_call() {
    // Exponential backtracking: every `x-` may take any number of the subject's `x`s.
    let setup = "local S = string.rep('x', 262144) local P = string.rep('x-', 64) .. 'y'";
    let n = completed_before_abort(setup, "local _ = string.find(S, P)");
    assert!(n == 0, "{n} searches with a backtracking pattern");
    let setup = "local S = string.rep('a', 262144) local P = '[' .. string.rep('b', 131072) .. ']'";
    let n = completed_before_abort(setup, "local _ = string.match(S, P)");
    assert!(n == 0, "{n} matches of a 128 KiB class");
}

#[test]
fn calls_that_push_many_values_pay_for_them() {
    let n = completed_before_abort(
        "local A = string.rep('x', 8000)",
        "local _ = select('#', string.byte(A, 1, 7900))",
    );
    assert!(n <= 127, "{n} calls pushing 7,900 bytes");
    let n = completed_before_abort("local T = table.create(7900, 1)", "local _ = select('#', unpack(T))");
    assert!(n <= 64, "{n} unpacks of 7,900");
}

#[test]
fn table_move_pays_for_what_it_moves_and_nothing_for_what_luau_refuses() {
    let n = completed_before_abort("local T = {}", "table.move(T, -1000000000, 1000000000, 0)");
    assert!(n == 0, "{n} moves of 2·10^9 elements from a negative start");
    // A range Luau refuses up front costs the call, not the range.
    let n = completed_before_abort("local T = {}", "pcall(table.move, T, 1, 2147483647, 2)");
    assert!(n > 1000, "{n} refused moves");
}

#[test]
fn errors_raised_and_caught_in_a_loop_pay_for_unwinding() {
    let n = completed_before_abort("", "pcall(error, 'x')");
    assert!(n <= 4_000, "{n} errors caught");
    let n = completed_before_abort("", "pcall(string.rep)");
    assert!(n <= 4_000, "{n} argument errors caught");
}

#[test]
fn refused_allocations_in_a_loop_pay_for_unwinding() {
    let n = completed_before_abort("", "pcall(buffer.create, 240 * 1048576)");
    assert!(n <= 4_000, "{n} refused allocations of 240 MiB");
}

#[test]
fn a_long_signal_name_is_refused_before_its_bytes_are_read() {
    let n = completed_before_abort(
        "local S = string.rep('s', 1048576)",
        "pcall(function() return workspace:GetSignal(S) end)",
    );
    assert!(n <= 4_000, "{n} refused signal names");
}
