//! JCZSolve, as ported by the `sudoku` crate, as a shared library in the
//! workbench's own ABI (`abi = "sudoku-bench"`, `include/sudoku_bench.h`):
//! `library.toml` names it. Run in process by the workbench's library host,
//! each call is timed alone (no pipe) and can be counted with
//! `bench --measure instructions`, like tdoku's library. 9×9, givens only;
//! the crate has no search counters, so nodes and guesses are unknown.

use std::ffi::c_void;
use sudoku::Sudoku;

/// `sb_puzzle`.
#[repr(C)]
pub struct SbPuzzle {
    side: u32,
    mode: u32,
    count_limit: u64,
    cells: *const u8,
    allowed: *const u64,
}

/// `sb_answer`.
#[repr(C)]
pub struct SbAnswer {
    solutions: u64,
    solution: *mut u8,
    nodes: u64,
    guesses: u64,
}

/// `sb_solver`.
#[repr(C)]
pub struct SbSolver {
    abi_version: u32,
    pencilmarks: u32,
    sides: [u8; 8],
    create: Option<unsafe extern "C" fn() -> *mut c_void>,
    solve: Option<unsafe extern "C" fn(*mut c_void, *const SbPuzzle, *mut SbAnswer) -> i32>,
    destroy: Option<unsafe extern "C" fn(*mut c_void)>,
}

const SB_OK: i32 = 0;
const SB_ERROR: i32 = -1;
const SB_MODE_FIRST: u32 = 0;
const SB_MODE_UNIQUE: u32 = 1;

unsafe extern "C" fn solve(_state: *mut c_void, puzzle: *const SbPuzzle, answer: *mut SbAnswer) -> i32 {
    // SAFETY: the workbench passes valid pointers for the call's length.
    let (p, a) = unsafe { (&*puzzle, &mut *answer) };
    if p.side != 9 || !p.allowed.is_null() {
        return SB_ERROR;
    }
    let mut cells = [0u8; 81];
    // SAFETY: `cells` holds side * side = 81 bytes.
    cells.copy_from_slice(unsafe { std::slice::from_raw_parts(p.cells, 81) });
    let limit = match p.mode {
        SB_MODE_FIRST => 1,
        SB_MODE_UNIQUE => 2,
        _ => usize::try_from(p.count_limit).unwrap_or(usize::MAX).max(1),
    };
    // Conflicting givens: no solution.
    let Ok(sudoku) = Sudoku::from_bytes(cells) else {
        a.solutions = 0;
        return SB_OK;
    };
    let mut first = [[0u8; 81]];
    let found = sudoku.solutions_up_to_buffer(&mut first, limit);
    a.solutions = found as u64;
    if found > 0 {
        // SAFETY: the workbench gives room for side * side cells.
        unsafe { std::ptr::copy_nonoverlapping(first[0].as_ptr(), a.solution, 81) };
    }
    SB_OK
}

static SOLVER: SbSolver = SbSolver {
    abi_version: 1,
    pencilmarks: 0,
    sides: [9, 0, 0, 0, 0, 0, 0, 0],
    create: None,
    solve: Some(solve),
    destroy: None,
};

/// The table the workbench's library host asks for (`symbol = "jcz_solver"`).
#[no_mangle]
pub extern "C" fn jcz_solver() -> *const SbSolver {
    &SOLVER
}
