//! A solver library in the three shapes `bench --library` takes, built by
//! cargo as a shared library (`target/release/examples/libexample_library.so`),
//! no C compiler needed:
//!
//! - `example_tdoku`: tdoku's `SolverFn` (`abi = "tdoku"`), 9×9, 81 or 729 characters;
//! - `example_jsolve`: JSolve's shape (`abi = "jsolve"`), 9×9;
//! - `example_solver`: the workbench's own table (`abi = "sudoku-bench"`,
//!   `include/sudoku_bench.h`): every size, pencilmarks, every mode, counters.
//!
//! Each solves with the workbench's `bitset-mrv` strategy, so it is an example
//! of the shapes, not of a fast solver.
//!
//! ```sh
//! cargo build --release --example example-library
//! sudoku-bench bench --solver band --dataset hard-9x9 \
//!   --library mine=target/release/examples/libexample_library.so:example_solver:sudoku-bench
//! ```

use std::ffi::{c_char, c_int, c_void};
use sudoku_bench::grid::{Geometry, Grid};
use sudoku_bench::solver::{Limits, Mode, Outcome, Solver, SolverId};

/// Solves a 9×9 puzzle given in tdoku's text (81 cells, or 729 pencilmark characters).
fn solve_text(input: &[u8], limit: u64) -> Option<Outcome> {
    let g = Geometry::from_side(9)?;
    let digit = |b: u8| {
        if (b'1'..=b'9').contains(&b) {
            b - b'0'
        } else {
            0
        }
    };
    let grid = if input.len() >= 729
        && input[81..729]
            .iter()
            .all(|&b| b == b'.' || b.is_ascii_digit())
    {
        // Pencilmarks: per cell, each digit where it may stand.
        let mut marks = vec![0u64; 81];
        let mut cells = vec![0u8; 81];
        for (c, m) in marks.iter_mut().enumerate() {
            for d in 0..9 {
                if input[c * 9 + d] != b'.' {
                    *m |= 1 << d;
                }
            }
            if m.count_ones() == 1 {
                cells[c] = m.trailing_zeros() as u8 + 1;
            }
        }
        Grid::from_cells(g, &cells)?.with_marks(marks)?
    } else {
        let cells: Vec<u8> = input.iter().take(81).map(|&b| digit(b)).collect();
        Grid::from_cells(g, &cells)?
    };
    Some(SolverId::BitsetMrv.solve(&grid, &Limits::new(mode_for(limit))))
}

fn mode_for(limit: u64) -> Mode {
    match limit {
        0 | 1 => Mode::First,
        2 => Mode::Unique,
        k => Mode::Count(k),
    }
}

/// Writes a 9×9 solution as 81 digits and a NUL.
///
/// # Safety
/// `out` holds 82 bytes.
unsafe fn write_solution(out: *mut c_char, o: &Outcome) {
    // SAFETY: the caller keeps this function's safety contract (its doc).
    unsafe {
        if let Some(s) = o.solutions.first() {
            for (i, &d) in s.cells().iter().enumerate() {
                *out.add(i) = (b'0' + d) as c_char;
            }
            *out.add(81) = 0;
        }
    }
}

/// tdoku's `SolverFn`: solutions found up to `limit`, the first written to `solution`.
///
/// # Safety
/// `input` is NUL-terminated; `solution` holds 82 bytes; `guesses` is writable.
#[no_mangle]
pub unsafe extern "C" fn example_tdoku(
    input: *const c_char,
    limit: usize,
    _configuration: u32,
    solution: *mut c_char,
    guesses: *mut usize,
) -> usize {
    // SAFETY: the caller keeps this function's safety contract (its doc).
    unsafe {
        let text = std::ffi::CStr::from_ptr(input).to_bytes();
        let Some(o) = solve_text(text, limit as u64) else {
            return 0;
        };
        write_solution(solution, &o);
        if !guesses.is_null() {
            *guesses = o.counters.guesses as usize;
        }
        o.solution_count as usize
    }
}

/// JSolve's shape: solutions found up to `limit`, the first written to `solution`.
///
/// # Safety
/// `puzzle` holds 81 characters; `solution` holds 82 bytes.
#[no_mangle]
pub unsafe extern "C" fn example_jsolve(
    puzzle: *const c_char,
    solution: *mut c_char,
    limit: c_int,
) -> c_int {
    // SAFETY: the caller keeps this function's safety contract (its doc).
    unsafe {
        let text = std::slice::from_raw_parts(puzzle as *const u8, 81);
        let Some(o) = solve_text(text, limit.max(1) as u64) else {
            return 0;
        };
        write_solution(solution, &o);
        o.solution_count as c_int
    }
}

use sudoku_bench::external::library::{SbAnswer, SbPuzzle, SbSolver, SB_ABI_VERSION};

/// Per-worker state: how many puzzles this worker's copy solved (a stand-in
/// for a solver's scratch memory).
struct State {
    solved: u64,
}

/// A worker's fresh state.
extern "C" fn create() -> *mut c_void {
    Box::into_raw(Box::new(State { solved: 0 })) as *mut c_void
}

/// # Safety
/// Called by the workbench only, with the pointers `include/sudoku_bench.h` describes.
unsafe extern "C" fn destroy(state: *mut c_void) {
    // SAFETY: the caller keeps this function's safety contract (its doc).
    unsafe {
        if !state.is_null() {
            drop(Box::from_raw(state as *mut State));
        }
    }
}

/// # Safety
/// Called by the workbench only, with the pointers `include/sudoku_bench.h` describes.
unsafe extern "C" fn solve(state: *mut c_void, p: *const SbPuzzle, a: *mut SbAnswer) -> i32 {
    // SAFETY: the caller keeps this function's safety contract (its doc).
    unsafe {
        let (p, a) = (&*p, &mut *a);
        let Some(g) = Geometry::from_side(p.side as usize) else {
            return -1;
        };
        let cells = std::slice::from_raw_parts(p.cells, g.cells());
        let Some(mut grid) = Grid::from_cells(g, cells) else {
            return -1;
        };
        if !p.allowed.is_null() {
            let marks = std::slice::from_raw_parts(p.allowed, g.cells()).to_vec();
            match grid.with_marks(marks) {
                Some(m) => grid = m,
                None => return -1,
            }
        }
        let mode = match p.mode {
            0 => Mode::First,
            1 => Mode::Unique,
            _ => Mode::Count(p.count_limit.max(1)),
        };
        let o = SolverId::BitsetMrv.solve(&grid, &Limits::new(mode));
        a.solutions = o.solution_count;
        if let Some(s) = o.solutions.first() {
            std::ptr::copy_nonoverlapping(s.cells().as_ptr(), a.solution, g.cells());
        }
        a.nodes = o.counters.nodes;
        a.guesses = o.counters.guesses;
        if let Some(st) = (state as *mut State).as_mut() {
            st.solved += 1;
        }
        0
    }
}

static SOLVER: SbSolver = SbSolver {
    abi_version: SB_ABI_VERSION,
    pencilmarks: 1,
    sides: [4, 9, 16, 25, 36, 49, 64, 0],
    create: Some(create),
    solve: Some(solve),
    destroy: Some(destroy),
};

/// The workbench's own ABI: the solver's table.
#[no_mangle]
pub extern "C" fn example_solver() -> *const SbSolver {
    &SOLVER
}
