//! `sudoku-bench study clues|size|threads`: how each strategy's cost grows along
//! one axis, into a study folder (`study.csv`, `study.json`, charts, report).

use super::bench::{resolve_solvers, BenchArgs};
use super::options::{parse_duration, positive, share};
use anyhow::{bail, Context, Result};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;
use sudoku_bench::grid::Geometry;
use sudoku_bench::harness::Budget;
use sudoku_bench::solver::Mode;
use sudoku_bench::study::session::{self, Resumed, Studied};
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
    Resume(super::study_resume::ResumeArgs),
}

#[derive(clap::Args)]
struct CluesArgs {
    /// Grid side: 4, 9, 16, 25, 36, 49 or 64.
    #[arg(long, default_value_t = 9)]
    size: usize,
    /// Clue counts, `LO..HI` (both included).
    #[arg(long, default_value = "0..60", value_parser = parse_range)]
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
    #[arg(long, default_value = "0.45", value_parser = parse_open_fraction)]
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
pub(super) struct CommonArgs {
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
    /// Worker threads (1 gives the cleanest per-puzzle times).
    #[arg(long, default_value_t = 1, value_parser = positive::<usize>)]
    threads: usize,
    /// Per-puzzle node budget: a number, or `none` (default: each slow strategy's own).
    #[arg(long)]
    node_budget: Option<Budget>,
    /// Per-puzzle time limit, like `500ms` (a solve stopped by it is censored); `0` for none.
    #[arg(long, default_value = "1s", value_parser = parse_duration)]
    time_limit: Duration,
    /// Timed solves of each puzzle (its median time is kept).
    #[arg(long, default_value_t = 1, value_parser = positive::<u32>)]
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
    pub(super) quiet: bool,
}

fn parse_range(s: &str) -> Result<(usize, usize), String> {
    let bad = || format!("{s:?}: expected a range of clue counts such as 17..60");
    let num = |t: &str| t.trim().parse::<usize>().map_err(|_| bad());
    let (a, b) = if let Some((a, b)) = s.split_once("..=") {
        (num(a)?, num(b)?)
    } else if let Some((a, b)) = s.split_once("..") {
        (num(a)?, num(b)?)
    } else if let Some((a, b)) = s.split_once('-') {
        (num(a)?, num(b)?)
    } else {
        let n = num(s)?;
        (n, n)
    };
    Ok((a, b))
}

fn parse_mode(s: &str) -> Result<Mode, String> {
    match s.parse() {
        Ok(m @ (Mode::First | Mode::Unique)) => Ok(m),
        _ => Err(format!("{s:?}: a study's modes are first and unique")),
    }
}

fn parse_open_fraction(s: &str) -> Result<f64, String> {
    let v = share(s)?;
    if !(v > 0.0 && v < 1.0) {
        return Err(format!(
            "{s:?}: the fraction of givens must lie strictly between 0 and 1 (0% and 100%)"
        ));
    }
    Ok(v)
}

/// What `study` was asked for, checked: a scaling run (`study threads`, which
/// is `bench --threads`), or a study of points.
pub(super) enum Planned {
    /// `study threads`: the bench arguments of the scaling run.
    Scaling(Box<BenchArgs>),
    /// A study of clue counts or sizes.
    Study(Box<StudyPlan>),
    /// `study resume DIR`.
    Resume(super::study_resume::ResumeArgs),
}

/// A study, checked before any folder is made or puzzle made.
pub(super) struct StudyPlan {
    pub(super) opts: StudyOptions,
    /// The fraction of givens (`study size`).
    fraction: Option<f64>,
    pub(super) common: CommonArgs,
    /// Said on stderr before the study.
    notes: Vec<String>,
}

/// Turns the arguments into a plan: points, modes, strategies and limits.
pub(super) fn plan(args: StudyArgs) -> Result<Planned> {
    let (axis, points, modes, common, fraction, stop) = match args.axis {
        StudyAxis::Resume(r) => return Ok(Planned::Resume(r)),
        StudyAxis::Threads(b) => {
            if b.threads.len() < 2 {
                bail!("study threads needs two or more counts, like --threads 1,2");
            }
            return Ok(Planned::Scaling(b));
        }
        StudyAxis::Clues(a) => {
            let g = Geometry::from_side(a.size).ok_or_else(|| {
                anyhow::anyhow!(
                    "--size {}: not a grid side this workbench handles ({})",
                    a.size,
                    sides()
                )
            })?;
            let points = study::clue_points(g, a.clues.0, a.clues.1, a.step)?;
            (Axis::Clues, points, a.mode, a.common, None, false)
        }
        StudyAxis::Size(a) => {
            let points = study::size_points(&a.sizes, a.givens)?;
            (
                Axis::Size,
                points,
                a.mode,
                a.common,
                Some(a.givens),
                !a.no_stop,
            )
        }
    };
    let mut modes = modes;
    modes.dedup();
    // A study's hard points need limits that stop a solve.
    let (solvers, mut notes) =
        study::strategies(resolve_solvers(&common.solver)?, !common.solver.is_empty());
    if common.quiet {
        notes.clear();
    }
    let budget = common.node_budget.unwrap_or(Budget::StrategyDefault);
    let time_limit = (!common.time_limit.is_zero()).then_some(common.time_limit);
    let opts = StudyOptions {
        axis,
        points,
        solvers,
        modes,
        puzzles: common.puzzles,
        seed: common.seed,
        threads: common.threads,
        budget,
        time_limit,
        repeat: common.repeat,
        warmup: common.warmup,
        stop_after_censored: stop,
        rounds: common.rounds,
    };
    Ok(Planned::Study(Box::new(StudyPlan {
        opts,
        fraction,
        common,
        notes,
    })))
}

/// Plans, runs the study into its folder, and presents what it found.
pub(super) fn run(args: StudyArgs) -> Result<ExitCode> {
    let p = match plan(args)? {
        Planned::Scaling(b) => return super::bench::run(*b),
        Planned::Resume(r) => return super::study_resume::run(&r),
        Planned::Study(p) => *p,
    };
    for n in &p.notes {
        eprintln!("note: {n}");
    }
    // A strategy set that handles no requested size is refused before any folder is made.
    if let Err(e) = study::check_handled(&p.opts) {
        eprintln!("error: {e}");
        return Ok(ExitCode::from(2));
    }
    let dir = out_dir(&p.common.out, p.opts.axis, p.common.force)?;
    let info = StudyInfo {
        options: p.opts,
        fraction: p.fraction,
    };
    measure(info, p.common.quiet, &dir, None)
}

/// Runs the plan into `dir` and presents what it found; with `resumed`,
/// the shares it measured are taken as they are.
pub(super) fn measure(
    info: StudyInfo,
    quiet: bool,
    dir: &Path,
    resumed: Option<Resumed>,
) -> Result<ExitCode> {
    let opts = &info.options;
    let cancel = super::interrupt::flag(
        "interrupted: the points that finished are kept (Ctrl-C again to quit now)",
    );
    let rounds = opts.rounds.clamp(1, opts.puzzles);
    let bar = super::progress::bar(
        (opts.points.len() * opts.modes.len() * rounds) as u64,
        "{msg:28} [{bar:30}] {pos}/{len} shares (eta {eta})",
        quiet,
    );
    bar.inc(resumed.as_ref().map_or(0, |r| r.earlier.len() as u64));
    let command = std::env::args().collect();
    let studied = session::measure(info, dir, resumed, command, &cancel, &mut |dataset| {
        if !dataset.is_empty() {
            bar.set_message(dataset.to_string());
        }
        bar.inc(1);
    })
    .with_context(|| format!("writing the study into {}", dir.display()))?;
    bar.finish_and_clear();
    Ok(present(quiet, dir, &studied, &dir.join(study::CSV)))
}

/// What the study found, on the terminal, and the exit code.
fn present(quiet: bool, dir: &Path, studied: &Studied, csv_path: &Path) -> ExitCode {
    let (data, file, findings) = (&studied.data, &studied.file, &studied.findings);
    if !quiet {
        for u in &data.unhandled {
            eprintln!("note: not run where the size is not handled: {u}");
        }
        for l in findings {
            print!("{}", sudoku_bench::export::terminal::list_item(l, 100));
        }
        println!(
            "Study: {} ({} rows in {}, {:.1} s)",
            dir.join("report.md").display(),
            data.rows.len(),
            study::CSV,
            file.elapsed_s
        );
    }
    if file.run.wrong > 0 || file.run.errors > 0 {
        eprintln!(
            "FAILED: {} wrong answers and {} strategy errors (see {})",
            file.run.wrong,
            file.run.errors,
            csv_path.display()
        );
        return ExitCode::from(1);
    }
    if data.interrupted {
        return ExitCode::from(130);
    }
    ExitCode::SUCCESS
}

fn sides() -> String {
    Geometry::all()
        .map(|g| g.side().to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

/// The study folder: `--out` (refused when it holds a study, unless `force`), or a new one.
fn out_dir(out: &Option<PathBuf>, axis: Axis, force: bool) -> Result<PathBuf> {
    if let Some(dir) = out {
        sudoku_bench::export::run_dir::replace_earlier(dir, "study", study::FILES.to_vec(), force)?;
    }
    super::options::out_dir(out, "reports/studies", axis.name())
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    fn planned(words: &[&str]) -> Result<Planned> {
        let line = ["sudoku-bench", "study"]
            .into_iter()
            .chain(words.iter().copied());
        match super::super::Cli::try_parse_from(line)
            .expect("the words parse")
            .command
        {
            super::super::Command::Study(a) => plan(a),
            _ => unreachable!("a study command"),
        }
    }

    fn study(words: &[&str]) -> StudyPlan {
        match planned(words).unwrap() {
            Planned::Study(p) => *p,
            _ => panic!("{words:?}: a study, not a scaling run or a resume"),
        }
    }

    #[test]
    fn a_clue_study_plans_its_points_with_strategies_that_can_be_stopped() {
        let p = study(&[
            "clues",
            "--clues",
            "20..30",
            "--step",
            "5",
            "--mode",
            "first,first",
        ]);
        assert_eq!(p.opts.axis, Axis::Clues);
        assert_eq!(p.opts.points.len(), 3, "20, 25 and 30 clues");
        assert_eq!(p.opts.modes, [Mode::First], "repeated modes once");
        assert!(!p.opts.solvers.is_empty());
        assert!(p.opts.solvers.iter().all(|s| s.honours_limits()));
        assert_eq!(p.fraction, None);
        assert!(p.notes.is_empty(), "{:?}", p.notes);
    }

    #[test]
    fn a_size_study_keeps_its_fraction_and_warns_of_unstoppable_strategies() {
        let p = study(&[
            "size",
            "--sizes",
            "4,9",
            "--givens",
            "50%",
            "--solver",
            "dlx,sat-varisat",
        ]);
        assert_eq!(p.opts.axis, Axis::Size);
        assert_eq!(p.fraction, Some(0.5));
        assert!(p.opts.stop_after_censored);
        assert_eq!(p.notes.len(), 1, "{:?}", p.notes);
        assert!(p.notes[0].starts_with("sat-varisat cannot be stopped"));
    }

    #[test]
    fn threads_go_to_a_scaling_run_and_bad_points_are_refused() {
        assert!(matches!(
            planned(&["threads", "--threads", "1,2"]).unwrap(),
            Planned::Scaling(_)
        ));
        let err = |words: &[&str]| match planned(words) {
            Ok(_) => panic!("{words:?} was accepted"),
            Err(e) => format!("{e:#}"),
        };
        assert!(err(&["threads", "--threads", "2"]).contains("two or more counts"));
        assert!(err(&["clues", "--size", "10"]).contains("not a grid side"));
    }
}
