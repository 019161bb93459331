//! Interrupt weights: for every interrupt point of a Luau function, how many VM instructions
//! it pays for.
//!
//! Luau interrupts at `CALL`, `CALLFB`, `RETURN`, `FORNLOOP`, `FORGLOOP`, `JUMPBACK`,
//! `JUMPX` and `FASTPCALL`. Every other jump of the compiler's output goes forward (a loop
//! always closes with an interruptible instruction), so after an interrupt a frame runs
//! forward through the code until its next one. An interrupt is therefore charged, ahead,
//! for itself and the longest interrupt-free run from where the frame goes on after it (the
//! jump target of a back-edge, the instruction after a call): a loop iteration costs its
//! body, a call the code up to the caller's next interrupt. A `for` loop's exit run (from
//! the loop's end to the next interrupt) runs once per entry into the loop, so the run
//! entering the loop pays for it and the loop's back-edge pays for the body alone; a
//! `while` or `repeat` loop's back-edge pays for the longer of its body and its exit run. The one run no interrupt is
//! ahead of is a frame's first, from the function's entry; every `RETURN` also pays the
//! longest such entry run. So every instruction a frame runs is paid for once it returns
//! (before, except its entry run), and no interrupt pays more than two runs of its function.
//!
//! Invariant: a weight is at least 1. If the code holds a backward jump that does not
//! interrupt (no compiler of this Luau version emits one) or does not decode, every
//! interrupt of that function is charged the function's length, which still bounds it.
//!
//! The opcode numbers and encodings are Luau 0.740's (`Common/include/Luau/Bytecode.h`);
//! `budget::layout` checks the version at install.

/// Luau opcodes this analysis names (their numbers in `LuauOpcode`).
mod op {
    pub const LOADB: u8 = 3;
    pub const CALL: u8 = 21;
    pub const RETURN: u8 = 22;
    pub const JUMP: u8 = 23;
    pub const JUMPBACK: u8 = 24;
    pub const JUMPIFNOTLT: u8 = 32;
    pub const FORNPREP: u8 = 56;
    pub const FORNLOOP: u8 = 57;
    pub const FORGLOOP: u8 = 58;
    pub const FORGPREP_INEXT: u8 = 59;
    pub const FASTCALL3: u8 = 60;
    pub const FORGPREP_NEXT: u8 = 61;
    pub const JUMPX: u8 = 67;
    pub const FASTCALL: u8 = 68;
    pub const FASTCALL1: u8 = 73;
    pub const FASTCALL2: u8 = 74;
    pub const FASTCALL2K: u8 = 75;
    pub const FORGPREP: u8 = 76;
    pub const JUMPXEQKNIL: u8 = 77;
    pub const JUMPXEQKS: u8 = 80;
    pub const CALLFB: u8 = 87;
    pub const CMPPROTO: u8 = 88;
    pub const FASTPCALL: u8 = 89;
    /// One past the last opcode.
    pub const COUNT: u8 = 91;
}

/// Opcodes followed by an auxiliary word (Luau's `getOpLength` == 2).
const TWO_WORD: [u8; 30] = [
    7, 8, 12, 15, 16, 20, 27, 28, 29, 30, 31, 32, 53, 55, 58, 60, 66, 74, 75, 77, 78, 79, 80, 83, 84, 85, 86,
    87, 88, 90,
];

fn length(opcode: u8) -> usize {
    if TWO_WORD.binary_search(&opcode).is_ok() { 2 } else { 1 }
}

/// Whether the VM calls its interrupt before running `opcode`.
pub fn interrupts(opcode: u8) -> bool {
    matches!(
        opcode,
        op::CALL
            | op::CALLFB
            | op::RETURN
            | op::FORNLOOP
            | op::FORGLOOP
            | op::JUMPBACK
            | op::JUMPX
            | op::FASTPCALL
    )
}

/// Where the instruction `insn` at `pc` may jump, if anywhere (Luau's `getJumpTarget`).
fn jump_target(insn: u32, pc: usize) -> Option<isize> {
    let opcode = (insn & 0xff) as u8;
    let d = (insn as i32 >> 16) as isize;
    let c = ((insn >> 24) & 0xff) as isize;
    let pc = pc as isize;
    let jump_d = matches!(
        opcode,
        op::JUMP..=op::JUMPIFNOTLT
            | op::FORNPREP
            | op::FORNLOOP
            | op::FORGLOOP
            | op::FORGPREP_INEXT
            | op::FORGPREP_NEXT
            | op::FORGPREP
            | op::JUMPXEQKNIL..=op::JUMPXEQKS
            | op::CMPPROTO
    );
    let fast_call = matches!(
        opcode,
        op::FASTCALL | op::FASTCALL1 | op::FASTCALL2 | op::FASTCALL2K | op::FASTCALL3 | op::FASTPCALL
    );
    if jump_d {
        Some(pc + d + 1)
    } else if fast_call {
        Some(pc + c + 2)
    } else if opcode == op::LOADB && c != 0 {
        Some(pc + c + 1)
    } else if opcode == op::JUMPX {
        Some(pc + (insn as i32 >> 8) as isize + 1)
    } else {
        None
    }
}

/// Whether control never falls through to the next instruction.
fn ends_straight_line(opcode: u8) -> bool {
    matches!(opcode, op::JUMP | op::JUMPBACK | op::JUMPX | op::RETURN)
}

/// The weight of every instruction slot of `code` (one function's instructions, auxiliary
/// words included): at an interrupting instruction, the instructions it pays for (see the
/// module docs); elsewhere 1. Never 0.
pub fn interrupt_weights(code: &[u32]) -> Vec<u32> {
    match charged_runs(code) {
        Some(weights) => weights,
        None => vec![u32::try_from(code.len()).unwrap_or(u32::MAX).max(1); code.len()],
    }
}

/// One decoded instruction: where it is and what follows it.
struct Decoded {
    pc: usize,
    opcode: u8,
    next: usize,
    target: Option<usize>,
}

/// Decodes `code`, or `None` if it does not decode, jumps out of the function or jumps
/// backwards without an interrupt.
fn decode(code: &[u32]) -> Option<Vec<Decoded>> {
    let n = code.len();
    let mut out = Vec::new();
    let mut pc = 0;
    while pc < n {
        let insn = code[pc];
        let opcode = (insn & 0xff) as u8;
        if opcode >= op::COUNT {
            return None;
        }
        let next = pc + length(opcode);
        if next > n {
            return None;
        }
        let target = match jump_target(insn, pc) {
            Some(t) => Some(usize::try_from(t).ok().filter(|&t| t < n)?),
            None => None,
        };
        if target.is_some_and(|t| t <= pc) && !interrupts(opcode) {
            return None;
        }
        out.push(Decoded { pc, opcode, next, target });
        pc = next;
    }
    Some(out)
}

/// The analysis of [`interrupt_weights`].
fn charged_runs(code: &[u32]) -> Option<Vec<u32>> {
    let decoded = decode(code)?;
    let n = code.len();
    // ahead[pc]: the longest run of instructions from `pc` up to (not including) the next
    // interrupting one. Only forward edges leave a non-interrupting instruction, so one pass
    // from the end settles it.
    let mut ahead = vec![0u32; n + 1];
    for d in decoded.iter().rev() {
        if interrupts(d.opcode) {
            continue;
        }
        let mut longest = 0;
        if !ends_straight_line(d.opcode) {
            longest = ahead[d.next];
        }
        if let Some(t) = d.target {
            longest = longest.max(ahead[t]);
        }
        // Entering a `for` loop commits to its exit run once; the loop's back-edge then
        // pays for the body alone (see the module docs).
        match (d.opcode, d.target) {
            (op::FORNPREP, Some(exit)) => longest = ahead[d.next].saturating_add(ahead[exit]),
            (op::FORGPREP | op::FORGPREP_INEXT | op::FORGPREP_NEXT, Some(at_loop)) => {
                longest = ahead[(at_loop + 2).min(n)];
            }
            _ => {}
        }
        ahead[d.pc] = longest.saturating_add(1);
    }
    let entry_run = ahead[0];
    let mut weights = vec![1u32; n];
    for d in decoded.iter().filter(|d| interrupts(d.opcode)) {
        let mut onward = 0;
        let back_edge_of_for = matches!(d.opcode, op::FORNLOOP | op::FORGLOOP);
        if !ends_straight_line(d.opcode) && !back_edge_of_for {
            onward = ahead[d.next];
        }
        if let Some(t) = d.target {
            onward = onward.max(ahead[t]);
        }
        let entry = if d.opcode == op::RETURN { entry_run } else { 0 };
        weights[d.pc] = onward.saturating_add(entry).saturating_add(1);
    }
    Some(weights)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Encodes an `AD` instruction.
    fn ad(opcode: u8, a: u8, d: i16) -> u32 {
        u32::from(opcode) | (u32::from(a) << 8) | ((d as u16 as u32) << 16)
    }

    const ADD: u8 = 33;
    const JUMPIF: u8 = 25;
    const LOADN: u8 = 4;

    #[test]
    fn a_loop_back_edge_pays_for_its_next_iteration() {
        // 0 LOADN; 1 FORNPREP -> 5; 2 ADD; 3 ADD; 4 FORNLOOP -> 2; 5 RETURN
        let code = [
            ad(LOADN, 0, 1),
            ad(op::FORNPREP, 0, 3),
            ad(ADD, 0, 0),
            ad(ADD, 0, 0),
            ad(op::FORNLOOP, 0, -3),
            ad(op::RETURN, 0, 0),
        ];
        let w = interrupt_weights(&code);
        // Itself and the body (ADD, ADD).
        assert_eq!(w[4], 3);
        // Itself and the entry run: LOADN, FORNPREP, ADD, ADD (the exit run is empty).
        assert_eq!(w[5], 5);
        assert_eq!(w[2], 1);
    }

    #[test]
    fn a_forward_branch_takes_the_longer_side() {
        // 0 CALL; 1 JUMPIF -> 4; 2 ADD; 3 ADD; 4 CALL; 5 RETURN
        let code = [
            ad(op::CALL, 0, 0),
            ad(JUMPIF, 0, 2),
            ad(ADD, 0, 0),
            ad(ADD, 0, 0),
            ad(op::CALL, 0, 0),
            ad(op::RETURN, 0, 0),
        ];
        let w = interrupt_weights(&code);
        assert_eq!(w[0], 4, "itself, JUMPIF, ADD, ADD");
        assert_eq!(w[4], 1, "nothing runs between the call and the return");
        assert_eq!(w[5], 1, "the entry run is empty: the first instruction interrupts");
    }

    #[test]
    fn a_for_loops_exit_run_is_paid_on_entry_not_per_iteration() {
        // 0 CALL; 1 FORNPREP -> 4; 2 ADD; 3 FORNLOOP -> 2; 4 ADD; 5 ADD; 6 RETURN
        let code = [
            ad(op::CALL, 0, 0),
            ad(op::FORNPREP, 0, 2),
            ad(ADD, 0, 0),
            ad(op::FORNLOOP, 0, -2),
            ad(ADD, 0, 0),
            ad(ADD, 0, 0),
            ad(op::RETURN, 0, 0),
        ];
        let w = interrupt_weights(&code);
        assert_eq!(w[3], 2, "itself and one ADD");
        assert_eq!(w[0], 5, "itself, FORNPREP, the body's ADD and the two ADDs after the loop");
    }

    #[test]
    fn a_backward_jump_without_interrupt_charges_the_whole_function() {
        let code = [ad(ADD, 0, 0), ad(JUMPIF, 0, -2), ad(op::RETURN, 0, 0)];
        assert_eq!(interrupt_weights(&code), vec![3, 3, 3]);
    }

    #[test]
    fn code_that_does_not_decode_is_charged_its_length() {
        assert_eq!(interrupt_weights(&[0xff, ad(op::RETURN, 0, 0)]), vec![2, 2]);
        // A two-word instruction cut short.
        assert_eq!(interrupt_weights(&[ad(op::RETURN, 0, 0), 7]), vec![2, 2]);
    }

    #[test]
    fn two_word_instructions_are_stepped_over() {
        // 0-1 GETGLOBAL + aux (the aux word decodes as garbage); 2 RETURN
        let code = [ad(7, 0, 0), 0xffff_ffff, ad(op::RETURN, 0, 0)];
        assert_eq!(interrupt_weights(&code)[2], 2, "the return and the GETGLOBAL before it");
    }
}
