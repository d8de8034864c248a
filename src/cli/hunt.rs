//! `sudoku-bench hunt`: search for the puzzles on which a contender costs most,
//! or most relative to another; write them with the search's progress.

use super::options::*;
use super::progress::Terminal;
use anyhow::Result;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;
use sudoku_bench::hunt::plan::HuntRequest;
use sudoku_bench::hunt::session::{self, Request};
use sudoku_bench::hunt::write::ScoreName;
use sudoku_bench::hunt::Objective;

#[derive(clap::Args)]
pub(super) struct HuntArgs {
    /// The contender hunted: a strategy, or the name of a `--contender`, `--library` or `--contenders` entry.
    /// With --merge, left out: the one the merged hunts recorded (in their hunt.json), with their
    /// --against and --objective.
    #[arg(long, value_name = "NAME", required_unless_present = "merge")]
    solver: Option<String>,
    /// Hunt for the puzzles on which SOLVER costs most relative to this contender.
    #[arg(long, value_name = "NAME", requires = "solver")]
    against: Option<String>,
    /// What a contender's cost is: `guesses` and `nodes` are exact and the same on
    /// every machine; `time` is the median of `--repeat` timed solves on this one.
    #[arg(long, default_value = "guesses", value_parser = words::<Objective>(&Objective::WORDS), requires = "solver")]
    objective: Objective,
    /// Start from this dataset's puzzles (an embedded name, a public list or a file;
    /// up to 2,000 sampled), the best first; default: generated minimal puzzles.
    #[arg(long, value_name = "DATASET")]
    from: Option<String>,
    /// Grid side of the generated starting puzzles (4, 9, 16 or 25).
    #[arg(long, default_value_t = 9)]
    size: usize,
    /// Stop after this much time (such as 90s, 2m).
    #[arg(long, value_parser = duration, conflicts_with = "iterations")]
    budget: Option<Duration>,
    /// Stop after this many moves in all: the same seed then gives the same
    /// puzzles at the same thread count (with guesses or nodes).
    #[arg(long)]
    iterations: Option<u64>,
    /// Puzzles kept: the best found, one per solution grid (a puzzle with a given more is the same find).
    #[arg(long, default_value_t = 20, value_parser = positive::<usize>)]
    keep: usize,
    /// Seed of every random choice.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Threads the search's islands are spread over (default: every core; at most 4 a
    /// core, never fewer than 16 allowed).
    #[arg(long, value_parser = threads)]
    threads: Option<usize>,
    /// Islands: annealing chains, each with its own seed and temperature; stale ones
    /// restart from new puzzles. Default: 8, or 4 a thread past
    /// 2 threads; name it for the same puzzles at any thread count.
    #[arg(long, value_parser = positive::<usize>)]
    islands: Option<usize>,
    /// Timed solves per puzzle with `--objective time` (their median is the cost).
    #[arg(long, default_value_t = 5, value_parser = repeats)]
    repeat: u32,
    /// Per-puzzle time limit, like `100ms` or `2s`, as `bench` has it: a solve past it is
    /// stopped (an outside program's process killed and started again), and its cost is a
    /// lower bound (marked censored), or with guesses or nodes a failed answer. Without it,
    /// a contender that never answers holds the hunt until Ctrl-C.
    #[arg(long, value_parser = time_limit)]
    time_limit: Option<Duration>,
    #[command(flatten)]
    outside: OutsideArgs,
    /// Merge these hunts' folders instead of hunting: every kept puzzle checked again,
    /// scored on this machine for --solver (and --against), or for what the hunts recorded,
    /// kept once up to symmetry.
    #[arg(long, value_name = "DIR", num_args = 1.., conflicts_with_all = ["budget", "iterations", "from"])]
    merge: Vec<PathBuf>,
    /// The hunt's folder (default: a new one under `hunts/`); one that holds a hunt is refused unless --force.
    #[arg(long)]
    out: Option<PathBuf>,
    /// Replace the hunt already in --out.
    #[arg(long)]
    force: bool,
    /// No progress display.
    #[arg(long)]
    quiet: bool,
    #[command(flatten)]
    input_args: InputArgs,
}

impl HuntArgs {
    /// The hunt these arguments ask for (a merge without --solver: for the
    /// score its hunts recorded).
    fn request(&self) -> Result<HuntRequest> {
        let score = match &self.solver {
            Some(solver) => ScoreName {
                hunted: solver.clone(),
                against: self.against.clone(),
                objective: self.objective,
            },
            // Only with --merge, and neither --against nor --objective (clap).
            None => sudoku_bench::hunt::merge::recorded_score(&self.merge)?,
        };
        Ok(HuntRequest {
            hunted: score.hunted,
            against: score.against,
            objective: score.objective,
            from: self.from.clone(),
            input: self.input_args.read_options()?,
            size: self.size,
            budget: self.budget,
            iterations: self.iterations,
            keep: self.keep,
            seed: self.seed,
            threads: self.threads,
            islands: self.islands,
            repeat: self.repeat,
            time_limit: self.time_limit,
        })
    }
}

pub(super) fn run(args: HuntArgs) -> Result<ExitCode> {
    let request = Request {
        hunt: args.request()?,
        specs: args.outside.specs()?,
        merge: args.merge,
        out: args.out,
        force: args.force,
        quiet: args.quiet,
    };
    Ok(ExitCode::from(session::run(request, &mut Terminal)?))
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    fn args(words: &[&str]) -> Result<HuntArgs, clap::Error> {
        let line = ["sudoku-bench", "hunt"].iter().chain(words);
        match super::super::Cli::try_parse_from(line)?.command {
            super::super::Command::Hunt(h) => Ok(h),
            _ => unreachable!("a hunt command"),
        }
    }

    #[test]
    fn the_arguments_map_onto_the_request_and_bad_words_are_refused() {
        let words = [
            "--solver",
            "band",
            "--against",
            "dlx",
            "--iterations",
            "500",
        ];
        let r = args(&words).unwrap().request().unwrap();
        assert_eq!(
            (r.hunted.as_str(), r.against.as_deref()),
            ("band", Some("dlx"))
        );
        assert_eq!((r.iterations, r.budget, r.threads), (Some(500), None, None));
        let text = args(&["--solver", "band", "--objective", "speed"])
            .err()
            .expect("refused")
            .to_string();
        assert!(
            text.contains("invalid value 'speed'") && text.contains("guesses, nodes, time"),
            "{text}"
        );
    }
}
