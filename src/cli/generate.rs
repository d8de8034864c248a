//! `sudoku-bench generate`: puzzles with a unique solution, from a seed.

use super::options::*;
use anyhow::{bail, Result};
use std::process::ExitCode;

#[derive(clap::Args)]
pub(super) struct GenerateArgs {
    /// Grid side: 4, 9, 16, 25, 36, 49 or 64.
    #[arg(long, default_value_t = 9)]
    size: usize,
    /// How many puzzles.
    #[arg(long, default_value_t = 10)]
    count: u64,
    /// Fewest clues: clue removal stops at a random count between this and --max-clues
    /// (without either, puzzles are minimal).
    #[arg(long)]
    min_clues: Option<usize>,
    /// Most clues (a puzzle left with more is drawn again).
    #[arg(long)]
    max_clues: Option<usize>,
    /// Remove clues until none can go (a minimal puzzle: unique, and no clue can go). The
    /// default when no clue option (--min-clues, --max-clues, --holes) is given.
    #[arg(long)]
    minimal: bool,
    /// The holes form: a clue count drawn from --min-clues..=--max-clues, that many
    /// random cells of a complete grid kept, with no uniqueness check (solvable, not
    /// always uniquely; line output then leaves the answer out). The way to sparse
    /// puzzles above 25x25, where the uniqueness checks stop finishing.
    #[arg(long)]
    holes: bool,
    /// Pencilmark (Sukaku) puzzles, written n³ characters a line (tdoku's form):
    /// a complete grid's other candidates, all excluded at first, admitted again
    /// in random order unless one makes a second solution, so up to 9x9 every
    /// exclusion left is needed (above, a check past its node budget keeps its
    /// exclusion). Sides 4 to 25; line output; a difficulty filter up to 9x9.
    #[arg(long)]
    pencilmark: bool,
    /// Keep the clues symmetric under 180-degree rotation.
    #[arg(long)]
    symmetric: bool,
    /// Random seed: the same seed and options give the same output at any thread count.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Worker threads (default: all cores; at most 4 a core, never fewer than 16 allowed).
    #[arg(long, value_parser = threads)]
    threads: Option<usize>,
    /// Output: `line` (puzzle, a space, its answer) or `block`.
    #[arg(long, default_value = "line", value_parser = ["line", "block"])]
    output: String,
    /// Leave the answer out of line output.
    #[arg(long)]
    no_answer: bool,
    /// Keep only puzzles of a difficulty level, as `rate` gives it (by mean guesses
    /// of bitset-mrv over 8 symmetry permutations): easy = 0 (singles solve it);
    /// medium ≤ 1.5 or solved without a guess by `bitset-mrv-locked` or `band`;
    /// hard ≤ 6; extreme > 6. (`--band` is its older name.)
    #[arg(long, alias = "band", value_parser = ["easy", "medium", "hard", "extreme"])]
    level: Option<String>,
    /// Keep only puzzles with at least this many mean guesses.
    #[arg(long, value_parser = mean_guesses)]
    min_guesses: Option<f64>,
    /// Keep only puzzles with at most this many mean guesses.
    #[arg(long, value_parser = mean_guesses)]
    max_guesses: Option<f64>,
    /// Puzzles drawn per output puzzle before giving up.
    #[arg(long, default_value_t = 2000, value_parser = positive::<u32>)]
    max_attempts: u32,
}

pub(super) fn run(args: GenerateArgs) -> Result<ExitCode> {
    use sudoku_bench::generate::write::{write_puzzles, Layout};
    use sudoku_bench::generate::GenerateOptions;
    let Some(geometry) = sudoku_bench::Geometry::from_side(args.size) else {
        bail!(
            "--size {} is not a grid side, expected {}",
            args.size,
            sudoku_bench::grid::SIDES_TEXT
        );
    };
    let opts = GenerateOptions {
        geometry,
        minimal: args.minimal,
        symmetric: args.symmetric,
        min_clues: args.min_clues,
        max_clues: args.max_clues,
        max_attempts: args.max_attempts,
        level: args
            .level
            .as_deref()
            .and_then(sudoku_bench::rate::Level::from_name),
        min_guesses: args.min_guesses,
        max_guesses: args.max_guesses,
        holes: args.holes,
        pencilmark: args.pencilmark,
    }
    .settled()?;
    let layout = Layout::of(args.output == "block", args.no_answer, &opts)?;
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let pool = build_pool(args.threads)?;
    write_puzzles(&opts, args.seed, args.count, layout, &pool, &mut out)?;
    Ok(ExitCode::SUCCESS)
}
