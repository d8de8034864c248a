//! sudoku-bench: a workbench for comparing Sudoku-solving algorithms.
//!
//! - [`grid`]: grids of box size 2..=5; [`format`]: reading and writing puzzles;
//!   [`validate`]: conflict and solution checks.
//! - [`solver`]: the [`solver::Solver`] contract and the closed registry [`solver::SolverId`].
//! - [`contender`]: what the harness times, built in or an outside program
//!   ([`external`]); [`harness`]: contenders over datasets, in parallel, every answer checked.
//! - [`study`]: how cost grows with clues and grid size, with peaks and fitted growth.
#![warn(missing_docs)]

pub mod check;
pub mod compare;
pub mod contender;
pub mod datasets;
pub mod error;
pub mod export;
pub mod external;
pub mod format;
pub mod generate;
pub mod grid;
pub mod harness;
pub mod rate;
pub mod report;
pub mod seeded;
pub mod solver;
pub mod stats;
pub mod study;
pub mod transform;
pub mod validate;

pub use error::{LoadError, ParseError, ParseErrorKind};
pub use format::{Dataset, Puzzle, ReadOptions};
pub use grid::{Geometry, Grid};
pub use solver::{Limits, Mode, Outcome, Solver, SolverId, Status};
