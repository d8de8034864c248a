//! `sudoku-bench bench`: run strategies over datasets, write the run folder.

use super::options::*;
use anyhow::{bail, Context, Result};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};
use sudoku_bench::harness;
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
    /// scaling curve (see `scaling.md`).
    #[arg(long, value_delimiter = ',', value_parser = positive::<usize>)]
    pub(super) threads: Vec<usize>,
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
    /// Nodes the untimed reference search may spend on one puzzle; every row's verdict is
    /// checked against it, and a puzzle it cannot decide gives `unchecked` rows.
    #[arg(long, default_value_t = sudoku_bench::harness::verdicts::DEFAULT_BUDGET, value_parser = positive::<u64>)]
    reference_budget: u64,
    /// Puzzles solved untimed before each strategy's timed pass over a dataset.
    #[arg(long, default_value_t = 20)]
    warmup: usize,
    /// Timed passes over each round's share of a dataset; the summary takes each puzzle's
    /// median time over them.
    #[arg(long, default_value_t = 1, value_parser = positive::<u32>)]
    repeat: u32,
    /// Independent rounds, spread over the run: puzzle i of a dataset is measured in round
    /// i mod N, and the intervals are t-intervals over the rounds' results, so they carry the
    /// machine's drift as well as the puzzles' spread. Default 5 (fewer on a dataset of
    /// fewer than 10 puzzles); 1 gives intervals over the puzzles only.
    #[arg(long, value_parser = positive::<usize>)]
    rounds: Option<usize>,
    /// Keep making passes, for each strategy, until its timed passes over a dataset add up to
    /// this much wall time in all (like `2s`; each round takes its share); at least --repeat
    /// passes are made. `0` for a single pass.
    #[arg(long, value_parser = parse_duration, default_value = DEFAULT_MIN_TIME)]
    min_time: Duration,
    /// `interleaved`: each worker solves a stretch of puzzles with every strategy in turn
    /// (rotating who goes first), so machine drift hits all alike; `sequential`: one
    /// strategy after another.
    #[arg(long, default_value = "interleaved", value_parser = ["interleaved", "sequential"])]
    schedule: String,
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
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Apply a random symmetry (digit relabelling, row/column swaps within bands and stacks,
    /// band/stack swaps, transpose) to each puzzle, seeded, the same for every strategy.
    #[arg(long)]
    permute: bool,
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
    /// With --baseline: changes smaller than this count as noise, like `3%` or `0.03`.
    #[arg(long, default_value = "3%", value_parser = parse_fraction)]
    noise_threshold: f64,
    /// Makes a strategy slower on purpose, `NAME=20%` (repeatable): after each solve it spins
    /// until the solve has taken 20% longer. For checking that a `--baseline` gate catches
    /// a known slowdown.
    #[arg(long, value_name = "NAME=SHARE", hide = true)]
    handicap: Vec<String>,
    #[command(flatten)]
    report: ReportChoices,
    #[command(flatten)]
    input_args: InputArgs,
}

/// `--rounds` when not given.
pub(super) const DEFAULT_ROUNDS: usize = 5;
/// `--min-time` when not given.
const DEFAULT_MIN_TIME: &str = "250ms";
/// The least share of `--min-time` a round may get.
const MIN_ROUND_TIME: Duration = Duration::from_millis(1);

/// The progress bar, advanced in steps of 256 rows so the writer thread stays cheap.
pub(super) struct Bar {
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
    fn rows_added(&self, rows: u64) {
        self.bar.inc_length(rows);
    }
    fn rows_done(&self, rows: u64) {
        let n = self.pending.get() + rows;
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

pub(super) fn resolve_solvers(names: &[String]) -> Result<Vec<SolverId>> {
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

/// Everything a bench run needs, checked before anything is written or
/// started: a typo, a bad combination or an unknown dataset fails here.
pub(super) struct Plan {
    solvers: Vec<SolverId>,
    outside: Vec<sudoku_bench::external::ContenderSpec>,
    baseline_dir: Option<PathBuf>,
    pub(super) datasets: Vec<harness::BenchDataset>,
    /// Said on stderr before the run: skipped entries, threads, rounds.
    pub(super) notes: Vec<String>,
    handicaps: std::collections::HashMap<String, f64>,
    opts: harness::BenchOptions,
    pub(super) options: harness::RunOptions,
    /// Seconds spent reading the datasets.
    load_s: f64,
}

/// Turns the arguments into a [`Plan`] on a machine of `cores` cores: reads
/// and checks the datasets and the contenders file, writes nothing.
pub(super) fn plan(args: &BenchArgs, cores: usize) -> Result<Plan> {
    use sudoku_bench::harness::{BenchOptions, Budget, RunOptions, Schedule, Selection};
    let outside = args.outside.specs()?;
    // Only outside programs when they are all that was asked for.
    let solvers = if args.solver.is_empty() && !outside.is_empty() {
        Vec::new()
    } else {
        resolve_solvers(&args.solver)?
    };
    let baselines = Path::new(sudoku_bench::compare::baseline::ROOT);
    let baseline_dir = match &args.baseline {
        Some(b) => Some(sudoku_bench::compare::baseline::resolve(b, baselines)?),
        None => None,
    };
    if let Some(name) = &args.save_baseline {
        sudoku_bench::compare::baseline::check_name(name)?;
    }
    let mut notes = Vec::new();
    // An outside program's worker waits awake for its answers: a worker and its
    // program each need a core, or one of them is timed while descheduled.
    let mut threads_note = String::new();
    let threads = match args.threads.first().copied() {
        Some(t) => {
            if !outside.is_empty() && sudoku_bench::external::crowded(t, cores) {
                threads_note = format!(
                    "{t} threads with outside programs on {cores} cores: each worker and its program need a core, so some answers may be timed while descheduled (default {})",
                    sudoku_bench::external::default_threads(cores)
                );
            }
            t
        }
        None if !outside.is_empty() => {
            let t = sudoku_bench::external::default_threads(cores);
            threads_note = format!(
                "{t} worker thread{} (half of {cores} cores): each outside program and the worker timing it need a core of their own",
                if t == 1 { "" } else { "s" }
            );
            t
        }
        None => cores,
    };
    let budget = Budget::parse(args.node_budget.as_deref()).map_err(anyhow::Error::msg)?;
    let mode = args.mode.mode(args.count_limit);
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
    let loading = Instant::now();
    let mut datasets = Vec::new();
    for spec in &specs {
        let found =
            sudoku_bench::harness::resolve(spec, &read_opts, &sel, &mut |m| eprintln!("{m}"))
                .with_context(|| format!("dataset {spec:?}"))?;
        datasets.extend(found);
    }
    let load_s = loading.elapsed().as_secs_f64();
    for d in &datasets {
        if d.is_empty() {
            bail!("dataset {} has no puzzles to run", d.name);
        }
        let n = d.info.skipped;
        if n > 0 {
            notes.push(format!(
                "{}: skipped {n} bad {} (--skip-invalid)",
                d.name,
                if n == 1 { "entry" } else { "entries" }
            ));
        }
    }
    let rounds = args.rounds.unwrap_or(DEFAULT_ROUNDS);
    let min_time = (!args.min_time.is_zero()).then_some(args.min_time);
    if let Some(t) = min_time {
        if t < MIN_ROUND_TIME * rounds as u32 {
            bail!(
                "--min-time {t:?} over {rounds} rounds gives each round {:?}, less than the {MIN_ROUND_TIME:?} a round needs: give --min-time {:?} or more, or fewer --rounds",
                t / rounds as u32,
                MIN_ROUND_TIME * rounds as u32
            );
        }
    }
    if !threads_note.is_empty() {
        notes.push(threads_note.clone());
    }
    for d in &datasets {
        let got = harness::rounds_for(d.len(), rounds);
        if got < rounds {
            let need = rounds * harness::MIN_PER_ROUND;
            if args.rounds.is_some() {
                bail!(
                    "dataset {} has {} puzzles, too few for {rounds} rounds ({need} needed, {} a round, so that each round pairs its contenders): give --rounds {got} or fewer",
                    d.name,
                    d.len(),
                    harness::MIN_PER_ROUND
                );
            }
            notes.push(format!(
                "{} is measured in {got} round{} ({} puzzles; {rounds} rounds need {need})",
                d.name,
                if got == 1 { "" } else { "s" },
                d.len()
            ));
        }
    }
    if let Some(r) = &args.reference {
        let names: Vec<&str> = solvers
            .iter()
            .map(|s| s.name())
            .chain(outside.iter().map(|c| c.name.as_str()))
            .collect();
        if !names.contains(&r.as_str()) {
            bail!(
                "--reference {r} is not a strategy of this run ({})",
                names.join(", ")
            );
        }
    }
    let mut handicaps = std::collections::HashMap::new();
    for h in &args.handicap {
        let (name, share) = h.split_once('=').ok_or_else(|| {
            anyhow::anyhow!("--handicap {h:?}: expected NAME=SHARE, like band=20%")
        })?;
        let share = parse_fraction(share).map_err(|e| anyhow::anyhow!("--handicap {h:?}: {e}"))?;
        if !solvers.iter().any(|s| s.name() == name) {
            bail!("--handicap {h:?}: {name} is not a strategy of this run");
        }
        handicaps.insert(name.to_string(), share);
    }
    let schedule = if args.schedule == "sequential" {
        Schedule::Sequential
    } else {
        Schedule::Interleaved
    };
    let options = RunOptions {
        solvers: solvers.iter().map(|s| s.name().to_string()).collect(),
        datasets: datasets.iter().map(|d| d.name.clone()).collect(),
        threads,
        mode: mode.to_string(),
        node_budget: budget.describe(),
        time_limit_ms: args.time_limit.map(|t| t.as_secs_f64() * 1e3),
        warmup: args.warmup,
        repeat: args.repeat,
        rounds,
        min_time_ms: min_time.map(|t| t.as_secs_f64() * 1e3),
        schedule: schedule.name().to_string(),
        limit: args.limit,
        sample: args.sample,
        seed: args.seed,
        permute: args.permute,
        contenders: outside
            .iter()
            .map(|c| match &c.library {
                Some(lib) => format!(
                    "{}: library {} {} ({})",
                    c.name,
                    lib.display(),
                    c.symbol.as_deref().unwrap_or_default(),
                    c.abi.as_deref().unwrap_or_default()
                ),
                None => format!("{}: {}", c.name, c.command.join(" ")),
            })
            .collect(),
        threads_note,
        handicaps: args.handicap.clone(),
    };
    let opts = BenchOptions {
        schedule,
        reference: args.reference.clone(),
        threads,
        mode,
        budget,
        time_limit: args.time_limit,
        warmup: args.warmup,
        repeat: args.repeat,
        rounds,
        min_time,
        block: None,
    };
    Ok(Plan {
        solvers,
        outside,
        baseline_dir,
        datasets,
        notes,
        handicaps,
        opts,
        options,
        load_s,
    })
}

/// One run at one thread count (several counts go to `scaling`, which calls
/// this once per count): plan, measure, present.
pub(super) fn run(args: BenchArgs) -> Result<ExitCode> {
    if let Some(dir) = &args.resume {
        return super::resume::run(dir, &args);
    }
    debug_assert!(args.threads.len() <= 1, "one count; several are scaling's");
    let started = Instant::now();
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let plan = plan(&args, cores)?;
    let out_dir = out_dir(&args.out, "reports")?;
    sudoku_bench::export::run_dir::replace_earlier_run(&out_dir, args.force)?;
    for n in &plan.notes {
        eprintln!("note: {n}");
    }
    let measured = measure(&args, plan, &out_dir, None)?;
    present(&args, measured, &out_dir, started)
}

/// What a run measured, written to its folder, for [`present`].
pub(super) struct Measured {
    report: sudoku_bench::export::RunReport,
    result: harness::RunResult,
    own: harness::OwnTime,
    baseline_dir: Option<PathBuf>,
}

/// Starts the contenders, runs the plan into `out_dir` (run.json first, so an
/// interrupted run still says what it was) and writes the results. With
/// `resumed` (the run.json of the run in `out_dir`), only the puzzles its
/// `results.csv` lacks are measured, their rows appended, and the summary is
/// made from every row.
pub(super) fn measure(
    args: &BenchArgs,
    plan: Plan,
    out_dir: &Path,
    resumed: Option<&harness::RunInfo>,
) -> Result<Measured> {
    use std::io::IsTerminal;
    use std::sync::Arc;
    use sudoku_bench::export::{self, csv::CsvSink, RunReport};
    use sudoku_bench::harness::{Contender, OwnTime, RunInfo};
    let Plan {
        solvers,
        outside,
        baseline_dir,
        mut datasets,
        handicaps,
        opts,
        options,
        load_s,
        ..
    } = plan;
    let mut contenders: Vec<Contender> = solvers
        .iter()
        .map(|&s| {
            let c = Contender::from_id(s);
            match handicaps.get(s.name()) {
                Some(&f) => c.handicapped(f),
                None => c,
            }
        })
        .collect();
    // Outside programs start now: one that cannot start is an error before anything is measured.
    let logs = out_dir.join("contenders");
    for spec in outside {
        let program = sudoku_bench::external::Program::new(spec, Some(&logs))
            .with_context(|| format!("cannot create {}", logs.display()))?;
        program.start(opts.threads, opts.mode)?;
        contenders.push(Arc::new(program).contender());
    }
    let mut own = OwnTime {
        load_s,
        ..OwnTime::default()
    };
    let mut info = RunInfo::new(
        options,
        std::env::args().collect(),
        datasets.iter().map(|d| d.info.clone()).collect(),
    );
    // Known now, so that a killed run's folder says what was never meant to run.
    info.skipped = harness::left_out(&contenders, &datasets);
    if let Some(old) = resumed {
        info.command.clone_from(&old.command);
        info.started.clone_from(&old.started);
        info.resumed = old.resumed + 1;
        datasets = super::resume::leave_out_measured(out_dir, old, &contenders, datasets)?;
    }
    // The pipe's floor, when a program answers over it: a note names those it dominates.
    if contenders
        .iter()
        .any(|c| c.timing == sudoku_bench::contender::Timing::Pipe)
    {
        info.pipe_floor_ns = std::env::current_exe()
            .ok()
            .and_then(|exe| sudoku_bench::external::floor::measure(&exe))
            .map(|d| d.as_nanos() as u64);
    }
    let cancel = super::interrupt::flag("interrupted: finishing the puzzles in flight and writing what was measured (Ctrl-C again to quit now)");
    // Reference verdicts, untimed, before anything is measured.
    let how = harness::verdicts::VerdictOptions {
        budget: args.reference_budget,
        cache: harness::verdicts::cache_dir(),
        threads: opts.threads,
    };
    let cost = harness::verdicts::attach(&mut datasets, opts.mode, &how, &cancel)
        .context("computing reference verdicts")?;
    if !args.quiet {
        eprintln!("{cost}");
    }
    info.verdicts = Some(cost);
    export::write_all(
        out_dir,
        &RunReport {
            info: info.clone(),
            summary: Vec::new(),
        },
    )?;

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
    let results_path = out_dir.join(harness::RESULTS_CSV);
    let solves_path = out_dir.join("solves.csv");
    let solves = args.keep_solves.then_some(&*solves_path);
    let mut sink = match resumed {
        Some(_) => CsvSink::append(&results_path, solves),
        None => CsvSink::create(&results_path, solves),
    }
    .with_context(|| format!("cannot write {}", results_path.display()))?;
    let show = !args.quiet && std::io::stderr().is_terminal();
    let observer: Box<dyn harness::Observer> = if show {
        Box::new(Bar {
            bar: bar.clone(),
            pending: Default::default(),
        })
    } else {
        Box::new(harness::Silent)
    };
    let running = Instant::now();
    let mut result = harness::run(
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
    if resumed.is_some() {
        // Every row, the earlier run's and these, makes the summary.
        let cover = harness::recover::Coverage::read(out_dir, &info)?;
        result.summary = harness::recover::summarize(out_dir, &cover, opts.reference.as_deref())?;
    }

    info.given_up = contenders
        .iter()
        .filter_map(|c| c.engine.given_up())
        .collect();
    for why in &info.given_up {
        eprintln!("warning: {why}");
    }
    info.finished = harness::info::now_rfc3339();
    info.interrupted = result.interrupted;
    info.wrong = result.wrong();
    info.errors = result.errors();
    info.skipped = result.skipped.clone();
    info.rounds_complete = Some(result.rounds_complete);
    own.run_s = (running.elapsed() - result.statistics).as_secs_f64();
    own.timed_solves_s = result.timed_solves.as_secs_f64();
    own.statistics_s = result.statistics.as_secs_f64();
    own.writer_s = result.writer.as_secs_f64();
    let writing = Instant::now();
    info.own_time = Some(own.clone());
    let report = RunReport {
        info,
        summary: result.summary.clone(),
    };
    export::write_all(out_dir, &report)?;
    own.write_s = writing.elapsed().as_secs_f64();
    Ok(Measured {
        report,
        result,
        own,
        baseline_dir,
    })
}

/// The answer on the terminal, the report, the baseline comparison and the
/// exit code.
pub(super) fn present(
    args: &BenchArgs,
    m: Measured,
    out_dir: &Path,
    started: Instant,
) -> Result<ExitCode> {
    use sudoku_bench::export;
    let Measured {
        mut report,
        result,
        mut own,
        baseline_dir,
    } = m;
    let (rounds, threads) = (report.info.options.rounds, report.info.options.threads);
    let results_path = out_dir.join("results.csv");
    if !args.quiet {
        // The answer first, in 100 columns: speeds, sentences, what the intervals cover.
        use export::terminal::{compact_summary, speed_matrix, wrap, WIDTH};
        let matrix = speed_matrix(&report.summary, WIDTH);
        if matrix.is_empty() {
            print!("{}", compact_summary(&report.summary));
        } else {
            println!("Speed against each dataset's reference (ref; above 1× is faster):\n");
            print!("{matrix}");
            println!();
            for line in export::markdown::sentences(&report.summary) {
                println!("{}", wrap(&line.replace('`', ""), WIDTH));
            }

            let note = export::markdown::interval_note(
                &report.summary,
                report.info.rounds_complete,
                rounds,
            );
            println!("{}", wrap(&note, WIDTH));
        }
        for line in export::markdown::run_notes(&report.summary, report.info.pipe_floor_ns) {
            println!(
                "{}",
                export::terminal::wrap(&line.replace('`', ""), export::terminal::WIDTH)
            );
        }
        println!("Full tables: {}", out_dir.join("summary.md").display());
        println!();
    }
    for k in &result.skipped {
        eprintln!("note: {k}");
    }
    if !args.no_report {
        let drawing = Instant::now();
        let r = sudoku_bench::report::write(out_dir, &args.report.options()?)
            .with_context(|| format!("drawing the report in {}", out_dir.display()))?;
        own.report_s = drawing.elapsed().as_secs_f64();
        if !args.quiet {
            super::report::print_report_result(out_dir, &r);
        }
    } else if !args.quiet {
        println!("results in {}", out_dir.display());
    }
    // run.json again, now that the whole process's time is known.
    own.close(started, threads);
    report.info.own_time = Some(own);
    {
        use export::Exporter;
        let json = export::json::RunJson;
        std::fs::write(out_dir.join(json.file_name()), json.render(&report)?)
            .with_context(|| format!("writing {}", out_dir.join("run.json").display()))?;
    }
    let mut regressed = false;
    if let (Some(dir), Some(label)) = (&baseline_dir, &args.baseline) {
        use sudoku_bench::compare;
        let c = compare::compare(
            compare::load_side(dir, label)?,
            compare::load_side(out_dir, &out_dir.display().to_string())?,
            args.noise_threshold,
        )?;
        if !args.quiet {
            println!();
        }
        regressed =
            super::compare::finish(&c, &out_dir.join("compare"), args.quiet)? != ExitCode::SUCCESS;
    }
    if let Some(name) = &args.save_baseline {
        if result.interrupted {
            eprintln!("note: baseline {name} not saved: the run was interrupted");
        } else {
            let dir = sudoku_bench::compare::baseline::save(
                out_dir,
                Path::new(sudoku_bench::compare::baseline::ROOT),
                name,
            )?;
            if !args.quiet {
                println!("baseline {name} saved in {}", dir.display());
            }
        }
    }
    if report.info.wrong > 0 || report.info.errors > 0 {
        eprintln!(
            "FAILED: {} puzzles answered wrong and {} with strategy errors (rows with status wrong/error in {})",
            report.info.wrong,
            report.info.errors,
            results_path.display()
        );
        return Ok(ExitCode::from(1));
    }
    if result.interrupted {
        eprintln!(
            "interrupted: {} keeps every puzzle measured so far",
            results_path.display()
        );
        return Ok(ExitCode::from(130));
    }
    if regressed {
        eprintln!(
            "REGRESSED against baseline {}: see the comparison above",
            args.baseline.as_deref().unwrap_or("")
        );
        return Ok(ExitCode::from(1));
    }
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    /// `sudoku-bench bench WORDS...` as parsed arguments.
    fn args(words: &[&str]) -> BenchArgs {
        let line = ["sudoku-bench", "bench"]
            .into_iter()
            .chain(words.iter().copied());
        match super::super::Cli::try_parse_from(line)
            .expect("the words parse")
            .command
        {
            super::super::Command::Bench(b) => *b,
            _ => unreachable!("a bench command"),
        }
    }

    fn refused(words: &[&str]) -> String {
        match plan(&args(words), 4) {
            Ok(_) => panic!("{words:?} was accepted"),
            Err(e) => format!("{e:#}"),
        }
    }

    #[test]
    fn the_default_plan_takes_every_embedded_set_on_every_core() {
        let p = plan(&args(&[]), 4).unwrap();
        assert_eq!(p.datasets.len(), sudoku_bench::datasets::EMBEDDED.len());
        assert_eq!((p.opts.threads, p.opts.rounds), (4, DEFAULT_ROUNDS));
        assert!(p.solvers.iter().all(|s| s.is_default_variant()));
        assert!(p.outside.is_empty() && p.handicaps.is_empty());
        // seeds-9x9 has 3 puzzles: fewer rounds, said before the run.
        assert!(
            p.notes
                .iter()
                .any(|n| n.starts_with("seeds-9x9 is measured in 1 round")),
            "{:?}",
            p.notes
        );
        assert_eq!(p.options.datasets.len(), p.datasets.len());
    }

    #[test]
    fn outside_programs_halve_the_default_threads_and_say_why() {
        let p = plan(
            &args(&["--contender", "x=prog --flag", "--dataset", "easy-9x9"]),
            8,
        )
        .unwrap();
        assert!(p.solvers.is_empty(), "only the program was asked for");
        assert_eq!(p.opts.threads, sudoku_bench::external::default_threads(8));
        assert!(
            p.notes.iter().any(|n| n.contains("half of 8 cores")),
            "{:?}",
            p.notes
        );
        assert_eq!(p.options.contenders, ["x: prog --flag"]);
    }

    #[test]
    fn bad_arguments_are_refused_before_anything_runs() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("never");
        let out = out.to_str().unwrap();
        let cases: &[(&[&str], &str)] = &[
            (&["--solver", "nope"], "nope"),
            (&["--dataset", "no-such-set"], "no-such-set"),
            (
                &["--dataset", "seeds-9x9", "--rounds", "5"],
                "too few for 5 rounds",
            ),
            (&["--min-time", "3ms"], "--min-time 3ms"),
            (
                &["--solver", "dlx", "--reference", "band"],
                "--reference band",
            ),
            (
                &["--solver", "dlx", "--handicap", "dlx"],
                "expected NAME=SHARE",
            ),
            (
                &["--solver", "dlx", "--handicap", "band=20%"],
                "not a strategy of this run",
            ),
        ];
        for (words, says) in cases {
            let words: Vec<&str> = words.iter().copied().chain(["--out", out]).collect();
            let e = refused(&words);
            assert!(e.contains(says), "{words:?}: {e}");
        }
        assert!(!dir.path().join("never").exists(), "a plan writes nothing");
    }

    #[test]
    fn a_plan_carries_the_options_it_was_given() {
        let p = plan(
            &args(&[
                "--solver",
                "band,dlx",
                "--dataset",
                "hard-9x9",
                "--threads",
                "1",
                "--rounds",
                "3",
                "--limit",
                "30",
                "--mode",
                "first",
                "--handicap",
                "band=20%",
                "--reference",
                "dlx",
            ]),
            4,
        )
        .unwrap();
        assert_eq!(p.solvers, [SolverId::Band, SolverId::Dlx]);
        assert_eq!(p.datasets[0].len(), 30);
        assert_eq!(
            (p.opts.threads, p.opts.rounds, p.opts.mode),
            (1, 3, sudoku_bench::solver::Mode::First)
        );
        assert_eq!(p.opts.reference.as_deref(), Some("dlx"));
        assert_eq!(p.handicaps.get("band"), Some(&0.2));
        assert!(p.notes.is_empty(), "{:?}", p.notes);
    }
}
