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
//! ARCHITECTURE.md in the repository draws the layers.
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
pub mod error;
pub mod export;
pub mod external;
pub mod files;
pub mod format;
pub mod generate;
pub mod grid;
pub mod harness;
pub mod history;
pub mod hunt;
pub mod hygiene;
pub mod lock;
pub mod perf;
pub mod rate;
pub mod report;
pub mod seeded;
pub mod solver;
pub mod spool;
pub mod stats;
pub mod study;
pub mod sync;
pub mod transform;
pub mod usage;
pub mod valgrind;
pub mod validate;
pub mod words;

pub use error::{LoadError, ParseError, ParseErrorKind};
pub use format::{Dataset, Puzzle, ReadOptions};
pub use grid::{Geometry, Grid};
pub use solver::{Limits, Mode, Outcome, Solver, SolverId, Status};
