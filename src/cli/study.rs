//! `sudoku-bench study clues|size|threads`: how each strategy's cost grows along
//! one axis, into a study folder (`study.csv`, `study.json`, charts, report);
//! `study resume` finishes one that was cut short, with its own options.

use super::bench::BenchArgs;
use super::options::{duration, positive, repeats, share, threads};
use anyhow::{bail, Context, Result};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;
use sudoku_bench::harness::plan::Measure;
use sudoku_bench::harness::Budget;
use sudoku_bench::solver::{Mode, SolverId};
use sudoku_bench::study::session::{Request, Session};
use sudoku_bench::study::{self, Axis, StudyInfo, StudyOptions};

#[derive(clap::Args)]
pub(super) struct StudyArgs {
    #[command(subcommand)]
    axis: StudyAxis,
}

#[derive(clap::Subcommand)]
enum StudyAxis {
    /// Cost against the clue count at one grid size, in modes first and unique:
    /// median time and nodes with intervals, the share of unique puzzles, each
    /// strategy's peak with its interval.
    Clues(CluesArgs),
    /// Cost against the grid size at one fraction of givens: a power law in
    /// cells and an exponential in the side fitted to each strategy, slopes
    /// with bootstrap intervals, the better fit named.
    Size(SizeArgs),
    /// Throughput against worker threads: the same as `bench --threads 1,2,4,...`
    /// (a run folder per count and a scaling curve).
    Threads(Box<BenchArgs>),
    /// Finish a study that was killed or interrupted: measure only the shares its
    /// folder lacks, with the options its study.json records, then write it whole.
    Resume(ResumeArgs),
}

#[derive(clap::Args)]
struct ResumeArgs {
    /// The study folder.
    #[arg(value_name = "STUDY_DIR")]
    dir: PathBuf,
    /// Resume even when this is another build than the one that began it.
    #[arg(long)]
    force: bool,
    /// No progress and no findings on the terminal.
    #[arg(long)]
    quiet: bool,
}

#[derive(clap::Args)]
struct CluesArgs {
    /// Grid side: 4, 9, 16, 25, 36, 49 or 64.
    #[arg(long, default_value_t = 9)]
    size: usize,
    /// Clue counts, `LO..HI` (both included).
    #[arg(long, default_value = "0..60", value_parser = study::clue_range)]
    clues: (usize, usize),
    /// Step between clue counts.
    #[arg(long, default_value_t = 1, value_parser = positive::<usize>)]
    step: usize,
    /// Modes measured at each point.
    #[arg(long, value_delimiter = ',', default_value = "first,unique", value_parser = parse_mode)]
    mode: Vec<Mode>,
    #[command(flatten)]
    common: CommonArgs,
}

#[derive(clap::Args)]
struct SizeArgs {
    /// Grid sides.
    #[arg(long, value_delimiter = ',', default_value = "4,9,16,25,36,49,64")]
    sizes: Vec<usize>,
    /// Fraction of the cells given, strictly between 0 and 1 (`0.45` or `45%`).
    #[arg(long, default_value = "0.45", value_parser = share)]
    givens: f64,
    /// Modes measured at each point.
    #[arg(long, value_delimiter = ',', default_value = "first", value_parser = parse_mode)]
    mode: Vec<Mode>,
    /// Go on running a strategy at larger sizes after its median was censored
    /// (by default it stops there: larger sizes would be censored too).
    #[arg(long)]
    no_stop: bool,
    #[command(flatten)]
    common: CommonArgs,
}

#[derive(clap::Args)]
struct CommonArgs {
    /// Strategies or variants, comma-separated or repeated; `all` for every
    /// variant (default: each strategy's default variant that a budget or time
    /// limit can stop, so not the reference crates).
    #[arg(long, value_delimiter = ',')]
    solver: Vec<String>,
    /// Puzzles per point.
    #[arg(long, default_value_t = 25, value_parser = positive::<usize>)]
    puzzles: usize,
    /// Seed of the puzzles.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Worker threads (1 gives the cleanest per-puzzle times; at most 4 a core,
    /// never fewer than 16 allowed).
    #[arg(long, default_value_t = 1, value_parser = threads)]
    threads: usize,
    /// Per-puzzle node budget: a number, or `none` (default: each slow strategy's own).
    #[arg(long)]
    node_budget: Option<Budget>,
    /// Per-puzzle time limit, like `500ms` (a solve stopped by it is censored); `0` for none.
    #[arg(long, default_value = "1s", value_parser = duration)]
    time_limit: Duration,
    /// Timed solves of each puzzle (its median time is kept).
    #[arg(long, default_value_t = 1, value_parser = repeats)]
    repeat: u32,
    /// Rounds: each visits every point and solves its share of the puzzles
    /// (puzzle i in round i mod N), so the machine's slow spells are spread over
    /// the points instead of landing on one.
    #[arg(long, default_value_t = 5, value_parser = positive::<usize>)]
    rounds: usize,
    /// Puzzles solved untimed before each strategy's pass over a point.
    #[arg(long, default_value_t = 3)]
    warmup: usize,
    /// Study folder (default: reports/studies/<axis>-<UTC time>); one that holds a study is refused unless --force.
    #[arg(long)]
    out: Option<PathBuf>,
    /// Replace the study already in --out.
    #[arg(long)]
    force: bool,
    /// No progress and no findings on the terminal.
    #[arg(long)]
    quiet: bool,
    /// `time`, or `instructions`: each solve counted by valgrind's callgrind, and the
    /// findings made from the counts (one thread, no time limit; 20-100x slower).
    #[arg(long, default_value = "time", value_parser = super::options::words::<Measure>(&["time", "instructions"]))]
    measure: Measure,
}

fn parse_mode(s: &str) -> Result<Mode, String> {
    match s.parse() {
        Ok(m @ (Mode::First | Mode::Unique)) => Ok(m),
        _ => Err(format!("{s:?}: a study's modes are first and unique")),
    }
}

/// The study of clue counts or sizes the arguments ask for: points,
/// modes, strategies and limits, as given (the session settles them); and
/// whether it is quiet.
fn request(axis: StudyAxis) -> Result<(Request, bool)> {
    let (axis, points, modes, common, fraction, stop) = match axis {
        StudyAxis::Clues(a) => {
            let g = study::side_geometry(a.size).context("--size")?;
            let points = study::clue_points(g, a.clues.0, a.clues.1, a.step)?;
            (Axis::Clues, points, a.mode, a.common, None, false)
        }
        StudyAxis::Size(a) => {
            let points = study::size_points(&a.sizes, a.givens)?;
            let (givens, stop) = (Some(a.givens), !a.no_stop);
            (Axis::Size, points, a.mode, a.common, givens, stop)
        }
        StudyAxis::Resume(r) => {
            let (dir, force) = (r.dir, r.force);
            return Ok((Request::Resume { dir, force }, r.quiet));
        }
        StudyAxis::Threads(_) => bail!("not a study of points"),
    };
    let options = StudyOptions {
        axis,
        points,
        solvers: SolverId::resolve(&common.solver)?,
        modes,
        puzzles: common.puzzles,
        seed: common.seed,
        threads: common.threads,
        budget: common.node_budget.unwrap_or(Budget::StrategyDefault),
        time_limit: (!common.time_limit.is_zero()).then_some(common.time_limit),
        repeat: common.repeat,
        warmup: common.warmup,
        stop_after_censored: stop,
        rounds: common.rounds,
        measure: common.measure,
    };
    let request = Request::New {
        info: StudyInfo { options, fraction },
        chosen: !common.solver.is_empty(),
        out: common.out,
        force: common.force,
    };
    Ok((request, common.quiet))
}

/// Runs the study asked for (`study threads` is `bench`'s).
pub(super) fn run(args: StudyArgs, given: &clap::ArgMatches) -> Result<ExitCode> {
    let (request, quiet) = match args.axis {
        StudyAxis::Threads(b) if b.threads.len() < 2 => {
            bail!("study threads needs two or more counts, like --threads 1,2")
        }
        StudyAxis::Threads(b) => return super::bench::run(*b, super::subcommand(given)),
        axis => request(axis)?,
    };
    let mut session = Session {
        quiet,
        command: std::env::args_os().collect(),
        console: &mut super::progress::Terminal,
    };
    Ok(ExitCode::from(session.run(request)?))
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    /// The study `study WORDS...` asks for, settled, and its notes.
    fn planned(words: &[&str]) -> Result<(StudyInfo, Vec<String>)> {
        let line = ["sudoku-bench", "study"].iter().chain(words);
        let super::super::Command::Study(a) = super::super::Cli::try_parse_from(line)?.command
        else {
            unreachable!("a study command")
        };
        match request(a.axis)?.0 {
            Request::New {
                mut info, chosen, ..
            } => {
                let notes = sudoku_bench::study::session::settle(&mut info.options, chosen);
                Ok((info, notes))
            }
            Request::Resume { .. } => unreachable!("a new study"),
        }
    }

    #[test]
    fn a_clue_study_plans_its_points_with_strategies_that_can_be_stopped() {
        let p = planned(&[
            "clues",
            "--clues",
            "20..30",
            "--step",
            "5",
            "--mode",
            "first,first",
        ]);
        let (info, notes) = p.unwrap();
        assert_eq!(info.options.axis, Axis::Clues);
        assert_eq!(info.options.points.len(), 3, "20, 25 and 30 clues");
        assert_eq!(info.options.modes, [Mode::First], "repeated modes once");
        assert!(info.options.solvers.iter().all(|s| s.honours_limits()));
        assert_eq!((info.fraction, notes.len()), (None, 0));
    }

    #[test]
    fn a_size_study_keeps_its_fraction_and_warns_of_unstoppable_strategies() {
        let words = [
            "size",
            "--sizes",
            "4,9",
            "--givens",
            "50%",
            "--solver",
            "dlx,sat-varisat",
        ];
        let (info, notes) = planned(&words).unwrap();
        assert_eq!(info.options.axis, Axis::Size);
        assert_eq!(info.fraction, Some(0.5));
        assert!(info.options.stop_after_censored);
        assert_eq!(notes.len(), 1, "{notes:?}");
        assert!(notes[0].starts_with("sat-varisat cannot be stopped"));
    }

    #[test]
    fn bad_points_are_refused() {
        let err = |words: &[&str]| format!("{:#}", planned(words).expect_err("refused"));
        assert!(err(&["clues", "--size", "10"]).contains("not a grid side"));
        assert!(err(&["clues", "--clues", "9..x"]).contains("a range of clue counts"));
        assert!(err(&["size", "--givens", "100%"]).contains("strictly between 0 and 1"));
    }
}
