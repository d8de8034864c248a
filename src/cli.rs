//! Command-line interface: clap structs turned into the library's plain options.

use anyhow::{bail, Context, Result};
use clap::{Parser, Subcommand, ValueEnum};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};
use sudoku_bench::format::{self, AlphabetKind, Format, ReadOptions};
use sudoku_bench::harness;
use sudoku_bench::solver::{trace, Limits, Mode, Solver, SolverId, TraceLog};

#[derive(Parser)]
#[command(
    name = "sudoku-bench",
    version,
    about = "A workbench for comparing Sudoku-solving algorithms"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Solve puzzles and print one line per puzzle: status, a tab, the first solution.
    Solve(SolveArgs),
    /// List the strategies and their variants.
    Solvers,
    /// Generate puzzles with a unique solution, reproducibly from a seed.
    Generate(GenerateArgs),
    /// Run strategies over datasets in parallel, check every answer, write CSV and a summary.
    Bench(BenchArgs),
    /// Rate puzzles: mean guesses and nodes over symmetry permutations, singles, band (CSV out).
    Rate(RateArgs),
    /// Draw charts and write report.md and a self-contained report.html from a saved run folder.
    Report(ReportArgs),
}

#[derive(clap::Args, Clone)]
struct ReportChoices {
    /// The two strategy variants of the head-to-head chart, like `dlx,bitset-mrv`
    /// (default: on each dataset, the two fastest that ran on it).
    #[arg(long, value_delimiter = ',', num_args = 1)]
    compare: Vec<String>,
    /// The strategy variant of the hardness chart (default: the fastest of the run).
    #[arg(long)]
    hardness_solver: Option<String>,
    /// The hardness chart's x axis.
    #[arg(long, default_value = "guesses", value_parser = ["guesses", "nodes"])]
    hardness_metric: String,
}

impl ReportChoices {
    fn options(&self) -> Result<sudoku_bench::report::ReportOptions> {
        use sudoku_bench::report::{charts::Metric, ReportOptions};
        let compare = match self.compare.as_slice() {
            [] => None,
            [a, b] => Some((a.clone(), b.clone())),
            other => bail!("--compare takes two strategy variants, got {}", other.len()),
        };
        Ok(ReportOptions {
            compare,
            hardness_variant: self.hardness_solver.clone(),
            metric: if self.hardness_metric == "nodes" {
                Metric::Nodes
            } else {
                Metric::Guesses
            },
        })
    }
}

#[derive(clap::Args)]
struct ReportArgs {
    /// A run folder written by `bench` (holding results.csv, summary.csv, run.json).
    run_dir: PathBuf,
    #[command(flatten)]
    choices: ReportChoices,
}

#[derive(clap::Args)]
struct BenchArgs {
    /// Strategies or variants, comma-separated or repeated; `all` for every variant
    /// (default: each strategy's default variant).
    #[arg(long, value_delimiter = ',')]
    solver: Vec<String>,
    /// Embedded dataset names, puzzle files or folders, comma-separated or repeated
    /// (default: every embedded dataset).
    #[arg(long, value_delimiter = ',')]
    dataset: Vec<String>,
    /// Worker threads (default: all cores; 1 gives the cleanest per-puzzle times).
    #[arg(long, value_parser = positive::<usize>)]
    threads: Option<usize>,
    /// What each solve looks for; `unique` stops at the second solution, as tdoku does.
    #[arg(long, value_enum, default_value = "unique")]
    mode: ModeArg,
    /// With `--mode count`: stop counting here.
    #[arg(long, default_value_t = 1_000_000, value_parser = positive::<u64>)]
    count_limit: u64,
    /// Per-puzzle node budget: a number, or `none`. Default: each slow strategy's own budget
    /// (naive and backtracking 2,000,000 nodes; dlx-first-column 5,000,000), none for the others.
    #[arg(long)]
    node_budget: Option<String>,
    /// Per-puzzle time limit, like `100ms` or `2s` (a run out counts as `budget`).
    #[arg(long, value_parser = parse_duration)]
    time_limit: Option<Duration>,
    /// Puzzles solved untimed before each strategy's timed pass over a dataset.
    #[arg(long, default_value_t = 20)]
    warmup: usize,
    /// Timed passes over each dataset.
    #[arg(long, default_value_t = 1, value_parser = positive::<u32>)]
    repeat: u32,
    /// Run only the first N puzzles of each dataset (after --sample).
    #[arg(long, value_parser = positive::<usize>)]
    limit: Option<usize>,
    /// Run a random sample of N puzzles of each dataset (file order kept; see --seed).
    #[arg(long, value_parser = positive::<usize>)]
    sample: Option<usize>,
    /// Seed for --sample and --permute.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Apply a random symmetry (digit relabelling, row/column swaps within bands and stacks,
    /// band/stack swaps, transpose) to each puzzle, seeded, the same for every strategy.
    #[arg(long)]
    permute: bool,
    /// Run folder (default: reports/run-<UTC time>). A folder that already holds a run
    /// is refused unless --force.
    #[arg(long)]
    out: Option<PathBuf>,
    /// Replace the run already in --out: its results, summaries, run.json, report and charts.
    #[arg(long)]
    force: bool,
    /// No progress bar and no summary table on the terminal.
    #[arg(long)]
    quiet: bool,
    /// Do not draw charts and the report at the end.
    #[arg(long)]
    no_report: bool,
    #[command(flatten)]
    report: ReportChoices,
    #[command(flatten)]
    input_args: InputArgs,
}

#[derive(clap::Args)]
struct GenerateArgs {
    /// Grid side: 4, 9, 16 or 25.
    #[arg(long, default_value_t = 9)]
    size: usize,
    /// How many puzzles.
    #[arg(long, default_value_t = 10)]
    count: u64,
    /// Fewest clues (clue removal stops here).
    #[arg(long)]
    min_clues: Option<usize>,
    /// Most clues (a puzzle left with more is drawn again).
    #[arg(long)]
    max_clues: Option<usize>,
    /// Remove clues until none can go.
    #[arg(long)]
    minimal: bool,
    /// Keep the clues symmetric under 180-degree rotation.
    #[arg(long)]
    symmetric: bool,
    /// Random seed: the same seed and options give the same output at any thread count.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Worker threads (default: all cores).
    #[arg(long, value_parser = positive::<usize>)]
    threads: Option<usize>,
    /// Output: `line` (puzzle, a space, its answer) or `block`.
    #[arg(long, default_value = "line", value_parser = ["line", "block"])]
    output: String,
    /// Leave the answer out of line output.
    #[arg(long)]
    no_answer: bool,
    /// Keep only puzzles of a difficulty band (by mean guesses of bitset-mrv over 8
    /// symmetry permutations): easy = 0 (singles solve it); medium ≤ 1.5 or solved without
    /// a guess by `bitset-mrv-locked` or `band`; hard ≤ 6; extreme > 6.
    #[arg(long, value_parser = ["easy", "medium", "hard", "extreme"])]
    band: Option<String>,
    /// Keep only puzzles with at least this many mean guesses.
    #[arg(long)]
    min_guesses: Option<f64>,
    /// Keep only puzzles with at most this many mean guesses.
    #[arg(long)]
    max_guesses: Option<f64>,
    /// Puzzles drawn per output puzzle before giving up.
    #[arg(long, default_value_t = 2000)]
    max_attempts: u32,
}

#[derive(clap::Args)]
struct RateArgs {
    /// Puzzle file or folder; `-` or nothing reads standard input.
    input: Option<PathBuf>,
    /// Symmetry permutations per puzzle (the first is the puzzle as given).
    #[arg(long, default_value_t = sudoku_bench::rate::DEFAULT_PERMUTATIONS)]
    permutations: u32,
    /// Worker threads (default: all cores).
    #[arg(long, value_parser = positive::<usize>)]
    threads: Option<usize>,
    #[command(flatten)]
    input_args: InputArgs,
}

/// Options shared by every command that reads puzzles.
#[derive(clap::Args, Clone)]
struct InputArgs {
    /// Input format (`auto` detects it from the content).
    #[arg(long, default_value = "auto", value_parser = clap::builder::PossibleValuesParser::new(Format::NAMES))]
    format: String,
    /// Symbol alphabet for 16x16 and 25x25 grids: `digits` (1-9A-G, 1-9A-P), `letters` (A-P, A-Y), `hex` (0-9A-F).
    #[arg(long, default_value = "auto", value_parser = clap::builder::PossibleValuesParser::new(AlphabetKind::NAMES))]
    alphabet: String,
    /// Skip bad entries (and say how many) instead of failing.
    #[arg(long)]
    skip_invalid: bool,
}

impl InputArgs {
    fn read_options(&self) -> Result<ReadOptions> {
        Ok(ReadOptions {
            format: Format::from_name(&self.format).map_err(anyhow::Error::msg)?,
            alphabet: AlphabetKind::from_name(&self.alphabet).expect("clap checked the name"),
            skip_invalid: self.skip_invalid,
            ..ReadOptions::default()
        })
    }
}

#[derive(Clone, Copy, ValueEnum)]
enum ModeArg {
    /// Stop at the first solution.
    First,
    /// Stop at the second solution (tells unique from multiple).
    Unique,
    /// Count solutions up to --count-limit.
    Count,
}

#[derive(clap::Args)]
struct SolveArgs {
    /// Puzzle file or folder; `-` or nothing reads standard input.
    input: Option<PathBuf>,
    /// Strategy or variant (see `sudoku-bench solvers`); default: the fastest for each size.
    #[arg(long, value_parser = solver_name)]
    solver: Option<SolverId>,
    /// What to look for.
    #[arg(long, value_enum, default_value = "unique")]
    mode: ModeArg,
    /// With `--mode count`: stop counting here.
    #[arg(long, default_value_t = 1_000_000, value_parser = positive::<u64>)]
    count_limit: u64,
    /// Worker threads (default: all cores).
    #[arg(long, value_parser = positive::<usize>)]
    threads: Option<usize>,
    /// Per-puzzle node budget.
    #[arg(long)]
    node_budget: Option<u64>,
    /// Per-puzzle time limit, like `500ms`, `2s` or `1m`.
    #[arg(long, value_parser = parse_duration)]
    time_limit: Option<Duration>,
    /// Print the decisions of the search for the first puzzle (to stderr after the result line).
    #[arg(long)]
    trace: bool,
    /// Print solutions as blocks instead of lines.
    #[arg(long)]
    pretty: bool,
    #[command(flatten)]
    input_args: InputArgs,
}

fn solver_name(s: &str) -> Result<SolverId, String> {
    SolverId::from_name(s).ok_or_else(|| {
        let names: Vec<_> = SolverId::ALL.iter().map(|s| s.name()).collect();
        format!("unknown solver {s:?}, expected one of {}", names.join(", "))
    })
}

/// Parses a whole number of at least 1.
fn positive<T: std::str::FromStr + Default + PartialEq>(s: &str) -> Result<T, String> {
    match s.parse::<T>() {
        Ok(n) if n != T::default() => Ok(n),
        _ => Err("expected a whole number of 1 or more".to_string()),
    }
}

/// Parses `250ms`, `2s`, `1.5s`, `3m` or a bare number of seconds.
pub fn parse_duration(s: &str) -> Result<Duration, String> {
    let s = s.trim();
    let (num, unit) = match s.find(|c: char| c.is_ascii_alphabetic()) {
        Some(i) => (&s[..i], &s[i..]),
        None => (s, "s"),
    };
    let value: f64 = num.parse().map_err(|_| {
        format!("invalid duration {s:?}, expected a number and a unit such as 500ms, 2s or 1m")
    })?;
    let secs = match unit {
        "ns" => value / 1e9,
        "us" | "µs" => value / 1e6,
        "ms" => value / 1e3,
        "s" => value,
        "m" | "min" => value * 60.0,
        "h" => value * 3600.0,
        _ => {
            return Err(format!(
                "unknown unit {unit:?} in {s:?}, expected ns, us, ms, s, m or h"
            ))
        }
    };
    if !(secs.is_finite() && secs >= 0.0) {
        return Err(format!("invalid duration {s:?}"));
    }
    Ok(Duration::from_secs_f64(secs))
}

/// Runs the command line; the error's chain is printed by `main`.
pub fn run() -> Result<ExitCode> {
    let cli = Cli::parse();
    match cli.command {
        Command::Solve(args) => solve(args),
        Command::Generate(args) => generate(args),
        Command::Bench(args) => bench(args),
        Command::Rate(args) => rate(args),
        Command::Report(args) => {
            let r = sudoku_bench::report::write(&args.run_dir, &args.choices.options()?)?;
            print_report_result(&args.run_dir, &r);
            Ok(ExitCode::SUCCESS)
        }
        Command::Solvers => {
            let mut out = std::io::stdout().lock();
            for s in SolverId::ALL {
                let e = s.entry();
                let sizes = if e.sizes == sudoku_bench::solver::ALL_SIZES {
                    "all sizes".to_string()
                } else {
                    e.sizes
                        .iter()
                        .map(|n| format!("{n}x{n}"))
                        .collect::<Vec<_>>()
                        .join(",")
                };
                let mark = if s.is_default_variant() {
                    String::new()
                } else {
                    format!("  (variant of {})", e.family)
                };
                writeln!(out, "{:<24} {:<10} {}{mark}", e.name, sizes, e.description)?;
            }
            Ok(ExitCode::SUCCESS)
        }
    }
}

fn build_pool(threads: Option<usize>) -> Result<rayon::ThreadPool> {
    let mut b = rayon::ThreadPoolBuilder::new();
    if let Some(t) = threads {
        b = b.num_threads(t);
    }
    b.build().context("cannot start the worker threads")
}

fn solve(args: SolveArgs) -> Result<ExitCode> {
    use rayon::prelude::*;
    let opts = args.input_args.read_options()?;
    let path = args.input.clone().unwrap_or_else(|| PathBuf::from("-"));
    let datasets = format::read_path_or_folder(&path, &opts)?;
    let mode = match args.mode {
        ModeArg::First => Mode::First,
        ModeArg::Unique => Mode::Unique,
        ModeArg::Count => Mode::Count(args.count_limit),
    };
    let pool = build_pool(args.threads)?;
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    for ds in &datasets {
        if ds.skipped > 0 {
            eprintln!("{}: skipped {} bad entries", ds.source, ds.skipped);
        }
        let solver = args
            .solver
            .unwrap_or_else(|| SolverId::fastest_for(ds.geometry));
        if !solver.supports(ds.geometry) {
            eprintln!(
                "note: {solver} handles {} only: skipped the {} puzzles of {} ({})",
                solver
                    .sizes()
                    .iter()
                    .map(|n| format!("{n}x{n}"))
                    .collect::<Vec<_>>()
                    .join(", "),
                ds.puzzles.len(),
                ds.source,
                ds.geometry
            );
            continue;
        }
        let limits_for = || {
            Limits::new(mode)
                .with_node_budget(args.node_budget)
                .with_deadline(args.time_limit.map(|t| Instant::now() + t))
        };
        if args.trace {
            let puzzle = &ds.puzzles[0];
            let mut log = TraceLog::default();
            let outcome = solver.solve_traced(&puzzle.grid, &limits_for(), &mut log);
            write_result(&mut out, &outcome, ds, args.pretty, mode)?;
            out.flush()?;
            let mut err = std::io::stderr().lock();
            for e in &log.events {
                let d = trace::Display {
                    event: e,
                    side: ds.geometry.side(),
                    alphabet: &ds.alphabet,
                };
                writeln!(err, "{d}")?;
            }
            if log.dropped > 0 {
                writeln!(err, "... {} more events not shown", log.dropped)?;
            }
            writeln!(
                err,
                "nodes {} guesses {}",
                outcome.counters.nodes, outcome.counters.guesses
            )?;
            continue;
        }
        // In chunks: output streams in input order and memory stays bounded.
        for chunk in ds.puzzles.chunks(4096) {
            let outcomes: Vec<_> = pool.install(|| {
                chunk
                    .par_iter()
                    .map(|p| solver.solve_checked(&p.grid, &limits_for()))
                    .collect()
            });
            for outcome in &outcomes {
                write_result(&mut out, outcome, ds, args.pretty, mode)?;
            }
        }
    }
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

fn write_result(
    out: &mut impl Write,
    outcome: &sudoku_bench::Outcome,
    ds: &sudoku_bench::Dataset,
    pretty: bool,
    mode: Mode,
) -> Result<()> {
    let word = outcome.status.word();
    let count = match mode {
        Mode::Count(_) => format!("\t{}", outcome.solution_count),
        _ => String::new(),
    };
    match (outcome.first(), pretty) {
        (Some(s), false) => writeln!(
            out,
            "{word}{count}\t{}",
            format::write_line(s, &ds.alphabet)
        )?,
        (Some(s), true) => writeln!(
            out,
            "{word}{count}\n{}",
            format::write_block(s, &ds.alphabet)
        )?,
        (None, _) => writeln!(out, "{word}{count}\t-")?,
    }
    Ok(())
}

fn generate(args: GenerateArgs) -> Result<ExitCode> {
    use rayon::prelude::*;
    use sudoku_bench::generate::{generate_indexed, GenerateOptions};
    let Some(geometry) = sudoku_bench::Geometry::from_side(args.size) else {
        bail!(
            "--size {} is not a grid side, expected 4, 9, 16 or 25",
            args.size
        );
    };
    let opts = GenerateOptions {
        geometry,
        minimal: args.minimal,
        symmetric: args.symmetric,
        min_clues: args.min_clues,
        max_clues: args.max_clues,
        max_attempts: args.max_attempts,
        band: args
            .band
            .as_deref()
            .and_then(sudoku_bench::rate::Band::from_name),
        min_guesses: args.min_guesses,
        max_guesses: args.max_guesses,
    };
    opts.validate()?;
    let pool = build_pool(args.threads)?;
    let alphabet = format::Alphabet::default_for(geometry);
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    // Chunks keep memory bounded and output streaming, in index order.
    let chunk = 256u64;
    let mut start = 0;
    while start < args.count {
        let end = (start + chunk).min(args.count);
        let batch: Vec<_> = pool.install(|| {
            (start..end)
                .into_par_iter()
                .map(|i| generate_indexed(&opts, args.seed, i))
                .collect()
        });
        for item in batch {
            let (puzzle, solution) = item?;
            if args.output == "block" {
                writeln!(out, "{}", format::write_block(&puzzle, &alphabet))?;
            } else if args.no_answer {
                writeln!(out, "{}", format::write_line(&puzzle, &alphabet))?;
            } else {
                writeln!(
                    out,
                    "{} {}",
                    format::write_line(&puzzle, &alphabet),
                    format::write_line(&solution, &alphabet)
                )?;
            }
        }
        start = end;
    }
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

/// The progress bar, advanced in steps of 256 rows so the writer thread stays cheap.
struct Bar {
    bar: indicatif::ProgressBar,
    pending: std::cell::Cell<u64>,
}

impl harness::Observer for Bar {
    fn phase_started(&self, variant: &str, dataset: &str, rows: u64) {
        self.pending.set(0);
        self.bar.set_position(0);
        self.bar.set_length(rows);
        self.bar.set_message(format!("{variant} on {dataset}"));
    }
    fn row_done(&self, _: &harness::PuzzleRecord) {
        let n = self.pending.get() + 1;
        if n >= 256 {
            self.bar.inc(n);
            self.pending.set(0);
        } else {
            self.pending.set(n);
        }
    }
    fn phase_done(&self, _: &harness::SummaryRow) {
        self.bar.inc(self.pending.replace(0));
    }
}

fn resolve_solvers(names: &[String]) -> Result<Vec<SolverId>> {
    if names.is_empty() {
        return Ok(SolverId::ALL
            .iter()
            .copied()
            .filter(|s| s.is_default_variant())
            .collect());
    }
    let mut out = Vec::new();
    for n in names {
        if n == "all" {
            out.extend(SolverId::ALL.iter().copied());
        } else {
            out.push(solver_name(n).map_err(anyhow::Error::msg)?);
        }
    }
    let mut seen = std::collections::HashSet::new();
    out.retain(|s| seen.insert(*s));
    Ok(out)
}

fn run_id() -> String {
    let t = harness::info::now_rfc3339();
    format!(
        "run-{}",
        t.trim_end_matches('Z')
            .replace([':', '-'], "")
            .replace('T', "-")
    )
}

/// Claims a new folder `parent/run-<UTC time>` (`-2`, `-3`, ... when runs start in
/// the same second); creating it is the claim, so two runs never share one.
fn new_run_dir(parent: &Path) -> Result<PathBuf> {
    std::fs::create_dir_all(parent)
        .with_context(|| format!("cannot create {}", parent.display()))?;
    let id = run_id();
    let mut dir = parent.join(&id);
    let mut k = 1;
    loop {
        match std::fs::create_dir(&dir) {
            Ok(()) => return Ok(dir),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                k += 1;
                dir = parent.join(format!("{id}-{k}"));
            }
            Err(e) => return Err(e).with_context(|| format!("cannot create {}", dir.display())),
        }
    }
}

/// Refuses a folder that holds an earlier run, or with `force` removes that run's
/// files and charts (nothing else in the folder).
fn replace_earlier_run(dir: &Path, force: bool) -> Result<()> {
    let earlier: Vec<_> = sudoku_bench::export::run_files()
        .into_iter()
        .filter(|f| dir.join(f).exists())
        .collect();
    if earlier.is_empty() {
        return Ok(());
    }
    if !force {
        bail!(
            "{} already holds a run ({}); choose another --out, or pass --force to replace it",
            dir.display(),
            earlier.join(", ")
        );
    }
    for f in earlier {
        let path = dir.join(f);
        std::fs::remove_file(&path).with_context(|| format!("cannot remove {}", path.display()))?;
    }
    let charts = dir.join("charts");
    if charts.is_dir() {
        sudoku_bench::report::clear_charts(&charts)
            .with_context(|| format!("cannot clear {}", charts.display()))?;
    }
    Ok(())
}

fn bench(args: BenchArgs) -> Result<ExitCode> {
    use std::io::IsTerminal;
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::Arc;
    use sudoku_bench::export::{self, csv::CsvSink, RunReport};
    use sudoku_bench::harness::{BenchOptions, Budget, Contender, RunInfo, RunOptions, Selection};

    let solvers = resolve_solvers(&args.solver)?;
    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let budget = match args.node_budget.as_deref() {
        None => Budget::StrategyDefault,
        Some("none") => Budget::Unlimited,
        Some(n) => Budget::Nodes(n.parse().map_err(|_| {
            anyhow::anyhow!("--node-budget {n:?}: expected a number of nodes or `none`")
        })?),
    };
    let mode = match args.mode {
        ModeArg::First => Mode::First,
        ModeArg::Unique => Mode::Unique,
        ModeArg::Count => Mode::Count(args.count_limit),
    };
    let sel = Selection {
        sample: args.sample,
        limit: args.limit,
        permute: args.permute,
        seed: args.seed,
    };
    let read_opts = args.input_args.read_options()?;
    let specs: Vec<String> = if args.dataset.is_empty() {
        sudoku_bench::datasets::EMBEDDED
            .iter()
            .map(|e| e.name.to_string())
            .collect()
    } else {
        args.dataset.clone()
    };
    let mut datasets = Vec::new();
    for spec in &specs {
        let found = sudoku_bench::datasets::resolve(spec, &read_opts, &sel)
            .with_context(|| format!("dataset {spec:?}"))?;
        datasets.extend(found);
    }
    let out_dir = match &args.out {
        Some(dir) => {
            std::fs::create_dir_all(dir)
                .with_context(|| format!("cannot create {}", dir.display()))?;
            dir.clone()
        }
        None => new_run_dir(Path::new("reports"))?,
    };
    replace_earlier_run(&out_dir, args.force)?;

    let options = RunOptions {
        solvers: solvers.iter().map(|s| s.name().to_string()).collect(),
        datasets: datasets.iter().map(|d| d.name.clone()).collect(),
        threads,
        mode: mode.to_string(),
        node_budget: match budget {
            Budget::StrategyDefault => "strategy-default".into(),
            Budget::Unlimited => "none".into(),
            Budget::Nodes(n) => n.to_string(),
        },
        time_limit_ms: args.time_limit.map(|t| t.as_secs_f64() * 1e3),
        warmup: args.warmup,
        repeat: args.repeat,
        limit: args.limit,
        sample: args.sample,
        seed: args.seed,
        permute: args.permute,
    };
    let mut info = RunInfo::new(
        options,
        std::env::args().collect(),
        datasets.iter().map(|d| d.info.clone()).collect(),
    );
    // run.json first, so an interrupted run still says what it was.
    export::write_all(
        &out_dir,
        &RunReport {
            info: info.clone(),
            summary: Vec::new(),
        },
    )?;

    let cancel = Arc::new(AtomicBool::new(false));
    {
        let cancel = cancel.clone();
        let _ = ctrlc::set_handler(move || {
            if cancel.swap(true, Ordering::SeqCst) {
                std::process::exit(130); // a second Ctrl-C: leave now
            }
            eprintln!("\ninterrupted: finishing the puzzles in flight and writing what was measured (Ctrl-C again to quit now)");
        });
    }
    let bar = indicatif::ProgressBar::new(0);
    if args.quiet || !std::io::stderr().is_terminal() {
        bar.set_draw_target(indicatif::ProgressDrawTarget::hidden());
    } else {
        bar.set_style(
            indicatif::ProgressStyle::with_template(
                "{msg:32} [{bar:30}] {pos}/{len} ({per_sec}, eta {eta})",
            )
            .expect("valid template")
            .progress_chars("=> "),
        );
    }
    let contenders: Vec<Contender> = solvers.iter().map(|&s| Contender::from_id(s)).collect();
    let opts = BenchOptions {
        threads,
        mode,
        budget,
        time_limit: args.time_limit,
        warmup: args.warmup,
        repeat: args.repeat,
    };
    let results_path = out_dir.join("results.csv");
    let mut sink = CsvSink::create(&results_path)
        .with_context(|| format!("cannot create {}", results_path.display()))?;
    let show = !args.quiet && std::io::stderr().is_terminal();
    let observer: Box<dyn harness::Observer> = if show {
        Box::new(Bar {
            bar: bar.clone(),
            pending: Default::default(),
        })
    } else {
        Box::new(harness::Silent)
    };
    let result = harness::run(
        &contenders,
        &datasets,
        &opts,
        &cancel,
        &mut sink,
        observer.as_ref(),
    )
    .with_context(|| format!("writing {}", results_path.display()))?;
    bar.finish_and_clear();
    drop(sink);

    info.finished = harness::info::now_rfc3339();
    info.interrupted = result.interrupted;
    info.wrong = result.wrong();
    info.errors = result.errors();
    info.skipped = result.skipped.clone();
    let report = RunReport {
        info,
        summary: result.summary.clone(),
    };
    export::write_all(&out_dir, &report)?;
    if !args.quiet {
        println!("{}", export::markdown::summary_table(&report.summary));
    }
    for k in &result.skipped {
        eprintln!("note: {k}");
    }
    if !args.no_report {
        let r = sudoku_bench::report::write(&out_dir, &args.report.options()?)
            .with_context(|| format!("drawing the report in {}", out_dir.display()))?;
        if !args.quiet {
            print_report_result(&out_dir, &r);
        }
    } else if !args.quiet {
        println!("results in {}", out_dir.display());
    }
    if report.info.wrong > 0 || report.info.errors > 0 {
        eprintln!(
            "FAILED: {} wrong answers and {} strategy errors (rows with status wrong/error in {})",
            report.info.wrong,
            report.info.errors,
            results_path.display()
        );
        return Ok(ExitCode::from(1));
    }
    if result.interrupted {
        eprintln!(
            "interrupted: {} keeps every row measured so far",
            results_path.display()
        );
        return Ok(ExitCode::from(130));
    }
    Ok(ExitCode::SUCCESS)
}

fn rate(args: RateArgs) -> Result<ExitCode> {
    use rayon::prelude::*;
    use sudoku_bench::rate::{rate, Band};
    let opts = args.input_args.read_options()?;
    let path = args.input.clone().unwrap_or_else(|| PathBuf::from("-"));
    let datasets = format::read_path_or_folder(&path, &opts)?;
    let pool = build_pool(args.threads)?;
    let mut out = csv::Writer::from_writer(std::io::stdout().lock());
    out.write_record(["puzzle", "solution", "guesses", "nodes", "singles", "band"])?;
    for ds in &datasets {
        let ratings: Vec<_> = pool.install(|| {
            ds.puzzles
                .par_iter()
                .map(|p| rate(&p.grid, args.permutations))
                .collect()
        });
        for (p, r) in ds.puzzles.iter().zip(ratings) {
            out.write_record([
                format::write_line(&p.grid, &ds.alphabet),
                p.expected
                    .as_ref()
                    .map(|e| format::write_line(e, &ds.alphabet))
                    .unwrap_or_default(),
                format!("{:.3}", r.guesses),
                format!("{:.1}", r.nodes),
                r.singles.to_string(),
                Band::of(&r).to_string(),
            ])?;
        }
    }
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

fn print_report_result(dir: &std::path::Path, r: &sudoku_bench::report::Report) {
    for note in &r.skipped {
        eprintln!("note: {note}");
    }
    println!(
        "{} charts; report in {} and {}",
        r.charts.len(),
        dir.join("report.md").display(),
        dir.join("report.html").display()
    );
}
