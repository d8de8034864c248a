//! `sudoku-bench bench`: run strategies over datasets, write the run folder.

use super::options::*;
use super::progress::Terminal;
use anyhow::{bail, Result};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;
use sudoku_bench::bench::{Request, Session};
use sudoku_bench::harness::plan::{Handicap, Measure, RunOptions, DEFAULT_MIN_TIME, VERSION};
use sudoku_bench::harness::{Budget, Schedule};
use sudoku_bench::solver::SolverId;

#[derive(clap::Args, Clone)]
pub(super) struct BenchArgs {
    /// Strategies or variants, comma-separated or repeated; `all` for every variant
    /// (default: each strategy's default variant).
    #[arg(long, value_delimiter = ',')]
    solver: Vec<String>,
    #[command(flatten)]
    outside: OutsideArgs,
    /// Dataset names (embedded, or public lists downloaded on first use: see
    /// `sudoku-bench datasets`), puzzle files or folders, comma-separated or repeated
    /// (default: every embedded dataset).
    #[arg(long, value_delimiter = ',')]
    dataset: Vec<String>,
    /// Worker threads (default: all cores; 1 gives the cleanest per-puzzle times).
    /// Several counts, like `1,2,4,8`, run the comparison once per count and add a
    /// scaling curve (see `scaling.md`). At most 4 a core, and never fewer than 16 allowed.
    #[arg(long, value_delimiter = ',', value_parser = threads)]
    pub(super) threads: Vec<usize>,
    /// What each solve looks for; `unique` stops at the second solution, as tdoku does.
    #[arg(long, value_enum, default_value_t = ModeArg::of(RunOptions::default().mode))]
    mode: ModeArg,
    /// With `--mode count`: stop counting here.
    #[arg(long, default_value_t = sudoku_bench::solver::DEFAULT_COUNT_LIMIT, value_parser = positive::<u64>)]
    count_limit: u64,
    /// Per-puzzle node budget: a number, or `none`. Default: each slow strategy's own budget
    /// (naive and backtracking 2,000,000 nodes; dlx-first-column 5,000,000), none for the others.
    #[arg(long)]
    node_budget: Option<Budget>,
    /// Per-puzzle time limit, like `100ms` or `2s` (a run out counts as `budget`).
    #[arg(long, value_parser = time_limit)]
    time_limit: Option<Duration>,
    /// Per-puzzle CPU-time limit, like `100ms` or `2s`: a built-in's worker thread, an outside
    /// program's processes (every thread, read every 20 ms); a run out counts as `budget`
    #[arg(long, value_name = "DURATION", value_parser = cpu_limit)]
    cpu_limit: Option<Duration>,
    /// Nodes the untimed reference search may spend on one puzzle; every row's verdict is
    /// checked against it, and a puzzle it cannot decide gives `unchecked` rows.
    #[arg(long, default_value_t = sudoku_bench::harness::verdicts::DEFAULT_BUDGET, value_parser = positive::<u64>)]
    reference_budget: u64,
    /// Puzzles solved untimed before each strategy's timed pass over a dataset.
    #[arg(long, default_value_t = RunOptions::default().warmup)]
    warmup: usize,
    /// Timed passes over each round's share of a dataset; the summary takes each puzzle's
    /// median time over them.
    #[arg(long, default_value_t = RunOptions::default().repeat, value_parser = repeats)]
    repeat: u32,
    /// Independent rounds, spread over the run: puzzle i of a dataset is measured in round
    /// i mod N, and the intervals are t-intervals over the rounds' results, so they carry the
    /// machine's drift as well as the puzzles' spread. Default 5; a dataset too small for N (two
    /// puzzles a round at least) is measured in fewer, said in a note; 1 gives intervals over
    /// the puzzles only.
    #[arg(long, value_parser = positive::<usize>)]
    rounds: Option<usize>,
    /// Keep making passes, for each strategy, until its timed passes over a dataset add up to
    /// this much wall time in all (like `2s`; each round takes its share); at least --repeat
    /// passes are made. `0` for a single pass.
    #[arg(long, value_parser = human_duration, default_value_t = DEFAULT_MIN_TIME.into())]
    min_time: humantime::Duration,
    /// `interleaved`: each worker solves a stretch of puzzles with every strategy in turn
    /// (rotating who goes first), so machine drift hits all alike; `sequential`: one
    /// strategy after another.
    #[arg(long, default_value_t = RunOptions::default().schedule, value_parser = words::<Schedule>(&Schedule::WORDS))]
    schedule: Schedule,
    /// The variant the relative-speed columns compare with (default: each dataset's fastest).
    #[arg(long)]
    reference: Option<String>,
    /// Run only the first N puzzles of each dataset (after --sample).
    #[arg(long, value_parser = positive::<usize>)]
    limit: Option<usize>,
    /// Run a random sample of N puzzles of each dataset (file order kept; see --seed).
    #[arg(long, value_parser = positive::<usize>)]
    sample: Option<usize>,
    /// Seed for --sample and --permute.
    #[arg(long, default_value_t = RunOptions::default().seed)]
    seed: u64,
    /// Apply a random symmetry (digit relabelling, row/column swaps within bands and stacks,
    /// band/stack swaps, transpose) to each puzzle, seeded, the same for every strategy.
    #[arg(long)]
    permute: bool,
    /// Pin each worker to a processor of its own (the i-th this process may use), and each
    /// outside program's processes to their worker's: a program's extra threads then share
    /// that core, so its wall times compare (recorded in run.json)
    #[arg(long)]
    pin: bool,
    /// The most memory each process of an outside contender may hold, like 64M or 2G: a
    /// cgroup's limit where this machine allows one, else RLIMIT_DATA (run.json says which).
    /// A puzzle that goes over it is a `memory` row, and a fresh process takes the next
    #[arg(long, value_name = "SIZE", value_parser = sudoku_bench::usage::parse_memory_limit)]
    memory_limit: Option<u64>,
    /// Run folder (default: reports/run-<UTC time>). A folder that already holds a run
    /// is refused unless --force.
    #[arg(long)]
    pub(super) out: Option<PathBuf>,
    /// Also write every timed solve to `solves.csv` in the run folder (`results.csv` has one
    /// row per puzzle: its median and fastest solve), for studying the spread of repeats.
    #[arg(long)]
    keep_solves: bool,
    /// Replace the run already in --out: its results, summaries, run.json, report and charts.
    /// With --resume: resume even with another build, datasets or contenders.
    #[arg(long)]
    pub(super) force: bool,
    /// Finish a run that was killed or interrupted: measure only what its folder lacks,
    /// with the options its run.json records (give no others), then end as the whole run
    /// would have.
    #[arg(long, value_name = "RUN_DIR")]
    pub(super) resume: Option<PathBuf>,
    /// No progress bar and no summary table on the terminal.
    #[arg(long)]
    pub(super) quiet: bool,
    /// Do not draw charts and the report at the end.
    #[arg(long)]
    pub(super) no_report: bool,
    /// Save this run as baseline NAME in reports/baselines/ (replacing one of that name).
    #[arg(long, value_name = "NAME")]
    pub(super) save_baseline: Option<String>,
    /// Compare this run with baseline NAME (or a run folder) when it ends; exit 1 on a regression.
    #[arg(long, value_name = "NAME")]
    pub(super) baseline: Option<String>,
    /// Name what this run measured, like a commit of your solver (`--label abc123`):
    /// kept in run.json and baselines, shown in reports, the order of `history --order label`.
    #[arg(long, value_parser = label)]
    label: Option<String>,
    /// Also write the summary for a benchmark-history service, `FORMAT=FILE` (repeatable):
    /// `bmf` (bencher's Metric Format) or `github-action-benchmark` (customSmallerIsBetter).
    #[arg(long, value_name = "FORMAT=FILE")]
    export: Vec<sudoku_bench::harness::plan::ExportTo>,
    /// With --baseline: changes smaller than this count as noise, like `3%` or `0.03`
    /// (default: 3% for times, 1% for instructions).
    #[arg(long, value_parser = fraction)]
    noise_threshold: Option<f64>,
    /// Makes a strategy slower on purpose, `NAME=20%` (repeatable): after each solve it spins
    /// until the solve has taken 20% longer. For checking that a `--baseline` gate catches
    /// a known slowdown.
    #[arg(long, value_name = "NAME=SHARE", hide = true)]
    handicap: Vec<Handicap>,
    /// `time`; `instructions`: each call's instructions counted by valgrind's callgrind
    /// (the same on every run of a build, on any machine; the run is re-run under valgrind,
    /// 20-100x slower: keep it short with --limit or --sample); or the CPU's counters read
    /// around each call beside its time, like `cycles,instructions,branch-misses`
    /// (also `task-clock`), where perf_event_open offers them. Not for outside programs.
    #[arg(long, default_value_t = RunOptions::default().measure, value_parser = |s: &str| s.parse::<Measure>())]
    measure: Measure,
    #[command(flatten)]
    report: ReportChoices,
    #[command(flatten)]
    input_args: InputArgs,
}

impl BenchArgs {
    /// The run these arguments ask for, as typed options (threads 0: the
    /// machine's default); [`Plan::new`] checks them.
    pub(super) fn options(&self) -> Result<RunOptions> {
        let contenders = self.outside.specs()?;
        // Only outside programs when they are all that was asked for.
        let solvers = if self.solver.is_empty() && !contenders.is_empty() {
            Vec::new()
        } else {
            SolverId::resolve(&self.solver)?
                .iter()
                .map(|s| s.name().to_string())
                .collect()
        };
        let defaults = RunOptions::default();
        Ok(RunOptions {
            version: VERSION,
            solvers,
            datasets: Vec::new(),
            inputs: self.dataset.clone(),
            input: self.input_args.read_options()?,
            threads: self.threads.first().copied().unwrap_or(0),
            mode: self.mode.mode(self.count_limit),
            node_budget: self.node_budget.unwrap_or(defaults.node_budget),
            time_limit: self.time_limit,
            cpu_limit: self.cpu_limit,
            warmup: self.warmup,
            repeat: self.repeat,
            rounds: self.rounds.unwrap_or(defaults.rounds),
            min_time: (!self.min_time.is_zero()).then_some(*self.min_time),
            schedule: self.schedule,
            limit: self.limit,
            sample: self.sample,
            seed: self.seed,
            permute: self.permute,
            pin: self.pin,
            memory_limit: self.memory_limit.map(|bytes| {
                sudoku_bench::harness::plan::MemorySetting {
                    bytes,
                    by: String::new(),
                }
            }),
            reference: self.reference.clone(),
            reference_budget: self.reference_budget,
            keep_solves: self.keep_solves,
            contenders,
            handicaps: self.handicap.clone(),
            threads_note: String::new(),
            scaling: Vec::new(),
            measure: self.measure,
            label: self.label.clone(),
            after: sudoku_bench::harness::plan::AfterRun {
                report: !self.no_report,
                charts: self.report.options()?,
                baseline: self.baseline.clone(),
                save_baseline: self.save_baseline.clone(),
                noise_threshold: self
                    .noise_threshold
                    .unwrap_or(sudoku_bench::compare::default_threshold(self.measure)),
                exports: self.export.clone(),
            },
        })
    }
}

/// `bench`: one run, a run per thread count (`--threads 1,2,4`), or a run
/// resumed (`--resume`); `given` are its matches, to tell what was typed.
pub(super) fn run(args: BenchArgs, given: &clap::ArgMatches) -> Result<ExitCode> {
    let request = match &args.resume {
        Some(dir) => {
            refuse_beside_resume(given)?;
            Request::Resume {
                dir: dir.clone(),
                force: args.force,
                no_report: args.no_report,
            }
        }
        None => {
            let mut options = args.options()?;
            if args.threads.len() > 1 {
                options.scaling = args.threads.clone();
            }
            Request::New {
                options: Box::new(options),
                out: args.out.clone(),
                force: args.force,
            }
        }
    };
    let mut session = Session {
        quiet: args.quiet,
        command: std::env::args_os().collect(),
        console: &mut Terminal,
    };
    Ok(ExitCode::from(session.run(request)?))
}

/// Options `bench --resume` takes beside its folder: the others are the run's own.
const BESIDE_RESUME: &[&str] = &["resume", "force", "quiet", "no_report"];

/// Refuses an option typed beside `--resume` that the run's run.json decides.
fn refuse_beside_resume(given: &clap::ArgMatches) -> Result<()> {
    use clap::parser::ValueSource;
    for id in given.ids().map(|id| id.as_str()) {
        let typed = given.value_source(id) == Some(ValueSource::CommandLine);
        if typed && !BESIDE_RESUME.contains(&id) {
            let only: Vec<String> = BESIDE_RESUME.iter().map(|a| flag(a)).collect();
            bail!(
                "{}: bench --resume takes the run's options from its {}; give no others (only {})",
                flag(id),
                sudoku_bench::harness::files::RUN_JSON,
                only.join(", ")
            );
        }
    }
    Ok(())
}

/// An argument's id as it is typed: `no_report` is `--no-report`.
fn flag(id: &str) -> String {
    format!("--{}", id.replace('_', "-"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    /// `sudoku-bench bench WORDS...` as parsed arguments.
    fn args(words: &[&str]) -> Result<BenchArgs, clap::Error> {
        let line = ["sudoku-bench", "bench"]
            .into_iter()
            .chain(words.iter().copied());
        match super::super::Cli::try_parse_from(line)?.command {
            super::super::Command::Bench(b) => Ok(*b),
            _ => unreachable!("a bench command"),
        }
    }

    #[test]
    fn the_arguments_map_onto_typed_options() {
        let line = "--solver band,dlx --dataset hard-9x9 --threads 1 --rounds 3 --limit 30 \
                    --mode count --count-limit 7 --node-budget none --schedule sequential \
                    --handicap band=20% --reference dlx --no-report --hardness-metric nodes";
        let words: Vec<&str> = line.split_whitespace().collect();
        let o = args(&words).unwrap().options().unwrap();
        assert_eq!(o.solvers, ["band", "dlx"]);
        assert_eq!(o.inputs, ["hard-9x9"]);
        assert_eq!((o.threads, o.rounds), (1, 3));
        assert_eq!(o.mode, sudoku_bench::solver::Mode::Count(7));
        assert_eq!(o.node_budget, Budget::Unlimited);
        assert_eq!(o.schedule, Schedule::Sequential);
        assert_eq!(
            (o.handicaps[0].variant.as_str(), o.handicaps[0].share),
            ("band", 0.2)
        );
        assert_eq!(o.reference.as_deref(), Some("dlx"));
        assert!(!o.after.report);
        assert_eq!(
            o.after.charts.metric,
            sudoku_bench::harness::plan::Metric::Nodes
        );
        // Nothing given: the library's defaults, threads left to the machine.
        let d = args(&[]).unwrap().options().unwrap();
        assert_eq!(d, RunOptions::default());
    }

    #[test]
    fn bad_words_are_refused_by_the_parser() {
        for (words, says) in [
            (&["--solver", "nope"][..], "nope"),
            (&["--schedule", "fast"][..], "fast"),
            (&["--handicap", "dlx"][..], "expected NAME=SHARE"),
            (
                &["--node-budget", "lots"][..],
                "a number of nodes or `none`",
            ),
        ] {
            let e = match args(words).map(|a| a.options()) {
                Ok(Ok(_)) => panic!("{words:?} was accepted"),
                Ok(Err(e)) => format!("{e:#}"),
                Err(e) => e.to_string(),
            };
            assert!(e.contains(says), "{words:?}: {e}");
        }
    }
}
