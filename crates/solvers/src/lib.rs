//! sudoku-solvers: Sudoku grids from 4×4 to 64×64, their formats, checks,
//! symmetries and generation, and every solving strategy of the
//! sudoku-bench workbench behind one trait, usable without the workbench.
//!
//! - [`grid`]: grids of box size 2..=8 (4×4 to 64×64), pencilmarks;
//!   [`format`](mod@format): reading and writing puzzles; [`validate`]: conflict and
//!   solution checks; [`transform`]: validity-preserving symmetries.
//! - [`solver`]: the [`Solver`] contract, [`Limits`] and the closed registry
//!   [`SolverId`], one module per strategy.
//! - [`generate`]: puzzles with a unique solution from a seed; [`rating`]:
//!   a puzzle's difficulty in guesses over its symmetries.
//! - [`words`], [`seeded`], [`clock`], [`error`]: what those share: values
//!   read from words, a seeded random stream per puzzle, the thread's CPU
//!   clock, and the errors of an input.
//!
//! The modules read bottom-up, as the workbench's do (its ARCHITECTURE.md
//! draws both crates): `grid`, `seeded`, `error`, `words` and `clock` import
//! nothing of this crate; `format`, `validate` and `transform` import only
//! those; then `solver`, then `rating`, then `generate`. Nothing here names
//! the workbench.
//!
//! Solving one puzzle with a registered strategy:
//!
//! ```
//! use sudoku_solvers::format::{read_str, ReadOptions};
//! use sudoku_solvers::{Limits, Mode, Solver, SolverId, Status};
//!
//! let text = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
//! let puzzle = &read_str("example", text, &ReadOptions::default())?.puzzles[0].grid;
//! let outcome = SolverId::Band.solve(puzzle, &Limits::new(Mode::Unique));
//! assert_eq!(outcome.status, Status::Unique);
//! let solution = outcome.first().expect("a unique puzzle has its solution");
//! assert!(sudoku_solvers::validate::check_solution(puzzle, solution).is_ok());
//! # Ok::<(), sudoku_solvers::LoadError>(())
//! ```
#![warn(missing_docs)]

pub mod clock;
pub mod error;
pub mod format;
pub mod generate;
pub mod grid;
pub mod rating;
pub mod seeded;
pub mod solver;
pub mod transform;
pub mod validate;
pub mod words;

pub use error::{LoadError, ParseError, ParseErrorKind};
pub use format::{Dataset, Puzzle, ReadOptions};
pub use grid::{Geometry, Grid};
pub use solver::{Limits, Mode, Outcome, Solver, SolverId, Status};
