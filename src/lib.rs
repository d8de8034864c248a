//! sudoku-bench: a workbench for comparing Sudoku-solving algorithms.
//!
//! - [`grid`]: grids of box size 2..=8 (4×4 to 64×64); [`format`]: reading and
//!   writing puzzles; [`validate`]: conflict and solution checks.
//! - [`solver`]: the [`solver::Solver`] contract and the closed registry [`solver::SolverId`].
//! - [`contender`]: what the harness times, built in or outside ([`external`]);
//!   [`harness`]: contenders over datasets, in parallel, every answer checked.
//! - [`export`], [`report`], [`compare`]: files, charts and the regression gate
//!   from finished runs; [`history`]: many runs over time; [`study`]: how cost
//!   grows with clues, size or threads.
//! - [`bench`](mod@bench): a run from its typed options ([`harness::RunOptions`]) to its
//!   folder; [`batch`]: a puzzle file solved in parallel, answers in order.
//!
//! The grid, formats, checks, generation and every strategy are the
//! [`sudoku_solvers`] crate's, re-exported here under the same names.
//! ARCHITECTURE.md in the repository draws the layers of both crates.
//!
//! Solving one puzzle with a registered strategy:
//!
//! ```
//! use sudoku_bench::format::{read_str, ReadOptions};
//! use sudoku_bench::{Limits, Mode, Solver, SolverId, Status};
//!
//! let text = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
//! let puzzle = &read_str("example", text, &ReadOptions::default())?.puzzles[0].grid;
//! let outcome = SolverId::Band.solve(puzzle, &Limits::new(Mode::Unique));
//! assert_eq!(outcome.status, Status::Unique);
//! let solution = outcome.first().expect("a unique puzzle has its solution");
//! assert!(sudoku_bench::validate::check_solution(puzzle, solution).is_ok());
//! # Ok::<(), sudoku_bench::LoadError>(())
//! ```
#![warn(missing_docs)]

pub mod batch;
pub mod bench;
pub mod callgrind;
pub mod check;
pub mod columns;
pub mod compare;
pub mod contender;
pub mod datasets;
pub mod export;
pub mod external;
pub mod files;
pub mod harness;
pub mod history;
pub mod hunt;
pub mod hygiene;
pub mod lock;
pub mod perf;
pub mod rate;
pub mod report;
pub mod spool;
pub mod stats;
pub mod study;
pub mod sync;
pub mod usage;
pub mod valgrind;
pub mod words;

// The solvers' crate, below every layer of this one: its modules keep the
// paths they had here (`sudoku_bench::solver::...`, `crate::grid::...`).
pub use sudoku_solvers::{
    error, format, generate, grid, seeded, solver, transform, validate, verdicts, words_of,
};

pub use error::{LoadError, ParseError, ParseErrorKind};
pub use format::{Dataset, Puzzle, ReadOptions};
pub use grid::{Geometry, Grid};
pub use solver::{Limits, Mode, Outcome, Solver, SolverId, Status};
