//! `sudoku-bench hunt`: search for the puzzles on which a contender costs most,
//! or most relative to another; write them with the search's progress.

use super::options::*;
use anyhow::{Context, Result};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;
use sudoku_bench::hunt::plan::{contender, HuntPlan, HuntRequest};
use sudoku_bench::hunt::write::{print_best, write_results, Header, ProgressFile, ScoreName};
use sudoku_bench::hunt::{HuntObserver, Objective, ProgressRow, Stop};

#[derive(clap::Args)]
pub(super) struct HuntArgs {
    /// The contender hunted: a strategy, or the name of a `--contender`, `--library` or `--contenders` entry.
    #[arg(long, value_name = "NAME")]
    solver: String,
    /// Hunt for the puzzles on which SOLVER costs most relative to this contender.
    #[arg(long, value_name = "NAME")]
    against: Option<String>,
    /// What a contender's cost is: `guesses` and `nodes` are exact and the same on
    /// every machine; `time` is the median of `--repeat` timed solves on this one.
    #[arg(long, default_value = "guesses", value_parser = words::<Objective>(&Objective::WORDS))]
    objective: Objective,
    /// Start from this dataset's puzzles (an embedded name, a public list or a file;
    /// up to 2,000 sampled), the best first; default: generated minimal puzzles.
    #[arg(long, value_name = "DATASET")]
    from: Option<String>,
    /// Grid side of the generated starting puzzles (4, 9, 16 or 25).
    #[arg(long, default_value_t = 9)]
    size: usize,
    /// Stop after this much time (such as 90s, 2m).
    #[arg(long, value_parser = parse_duration, conflicts_with = "iterations")]
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
    /// Search chains, one per thread (default: every core).
    #[arg(long, value_parser = positive::<usize>)]
    threads: Option<usize>,
    /// Timed solves per puzzle with `--objective time` (their median is the cost).
    #[arg(long, default_value_t = 5, value_parser = positive::<u32>)]
    repeat: u32,
    #[command(flatten)]
    outside: OutsideArgs,
    /// The hunt's folder (default: a new one under `hunts/`).
    #[arg(long)]
    out: Option<PathBuf>,
    /// No progress display.
    #[arg(long)]
    quiet: bool,
    #[command(flatten)]
    input_args: InputArgs,
}

impl HuntArgs {
    /// The hunt these arguments ask for.
    fn request(&self) -> Result<HuntRequest> {
        Ok(HuntRequest {
            hunted: self.solver.clone(),
            against: self.against.clone(),
            objective: self.objective,
            from: self.from.clone(),
            input: self.input_args.read_options()?,
            size: self.size,
            budget: self.budget,
            iterations: self.iterations,
            keep: self.keep,
            seed: self.seed,
            threads: self.threads,
            repeat: self.repeat,
        })
    }
}

/// The hunt's plan on `cores` cores.
fn plan(args: &HuntArgs, cores: usize) -> Result<HuntPlan> {
    Ok(HuntPlan::new(&args.request()?, cores, &mut |m| {
        eprintln!("{m}")
    })?)
}

/// The display: a spinner with the best so far; the progress file gets every row.
struct Watch {
    file: ProgressFile,
    bar: Option<indicatif::ProgressBar>,
    error: std::sync::Mutex<Option<std::io::Error>>,
}

impl HuntObserver for Watch {
    fn improved(&self, row: &ProgressRow) {
        if let Err(e) = self.file.row(row) {
            sudoku_bench::sync::lock(&self.error).get_or_insert(e);
        }
    }
    fn tick(&self, iterations: u64, best: f64) {
        if let Some(bar) = &self.bar {
            bar.set_position(iterations);
            let rate = iterations as f64 / bar.elapsed().as_secs_f64().max(1e-3);
            bar.set_message(format!("({:.0}k/s), best {}", rate / 1e3, trim(best)));
        }
    }
}

fn trim(v: f64) -> String {
    if v.fract() == 0.0 {
        format!("{v:.0}")
    } else {
        format!("{v:.3}")
    }
}

pub(super) fn run(args: HuntArgs) -> Result<ExitCode> {
    let cores = std::thread::available_parallelism().map_or(1, |c| c.get());
    let HuntPlan {
        options: opts,
        alphabet,
        start_words,
    } = plan(&args, cores)?;
    let specs = args.outside.specs()?;
    let dir = out_dir(&args.out, "hunts", "run")?;
    let hunted = contender(&args.solver, &specs, opts.threads, &dir)?;
    let against = match &args.against {
        Some(b) => Some(contender(b, &specs, opts.threads, &dir)?),
        None => None,
    };
    let name = ScoreName {
        hunted: hunted.variant.clone(),
        against: against.as_ref().map(|b| b.variant.clone()),
        objective: opts.objective,
    };
    let bar = super::progress::shown(args.quiet).then(|| {
        let bar = match opts.stop {
            Stop::Iterations(n) => indicatif::ProgressBar::new(n),
            Stop::Time(_) => indicatif::ProgressBar::new_spinner(),
        };
        bar.set_style(
            indicatif::ProgressStyle::with_template(
                "{spinner} {elapsed_precise} {human_pos} moves {msg}",
            )
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_spinner()),
        );
        bar.enable_steady_tick(Duration::from_millis(200));
        bar
    });
    if !args.quiet {
        eprintln!(
            "hunting {} over {} chain{} from {start_words}, seed {}; results in {}",
            name.short(),
            opts.threads,
            if opts.threads == 1 { "" } else { "s" },
            opts.seed,
            dir.display()
        );
    }
    let watch = Watch {
        file: ProgressFile::create(&dir, alphabet.clone())
            .with_context(|| format!("cannot write {}", dir.join("progress.csv").display()))?,
        bar,
        error: std::sync::Mutex::new(None),
    };
    let cancel = super::interrupt::flag(
        "interrupted: stopping the hunt and writing the best found so far (Ctrl-C again to quit now)",
    );
    let result = sudoku_bench::hunt::hunt(&hunted, against.as_ref(), &opts, &cancel, &watch);
    if let Some(bar) = &watch.bar {
        bar.finish_and_clear();
    }
    for c in std::iter::once(&hunted).chain(against.as_ref()) {
        c.engine.finish();
    }
    let result = result?;
    if let Some(e) = sudoku_bench::sync::lock(&watch.error).take() {
        return Err(e).context(format!(
            "cannot write {}",
            dir.join("progress.csv").display()
        ));
    }
    let header = Header {
        score: name.clone(),
        seed: opts.seed,
        threads: opts.threads,
        start: start_words,
        repeat: opts.repeat,
    };
    write_results(&dir, &header, &result, &alphabet, &watch.file.steps())
        .with_context(|| format!("cannot write the hunt's files in {}", dir.display()))?;
    let mut out = std::io::stdout().lock();
    print_best(&mut out, &name, &result, &alphabet, 5)?;
    println!(
        "{} moves, {} puzzles scored in {:.2} s{}; best {} (the best start: {}); {} puzzles in {}",
        result.iterations,
        result.evaluations,
        result.elapsed.as_secs_f64(),
        if result.interrupted {
            " (interrupted)"
        } else {
            ""
        },
        result
            .found
            .first()
            .map_or("none".into(), |f| trim(f.score)),
        trim(result.start_best),
        result.found.len(),
        dir.join("puzzles.txt").display()
    );
    let (shown, failures) = &result.failures;
    if *failures > 0 {
        eprintln!(
            "note: {failures} answers failed their check and were left out; the first: {}",
            shown.join("; ")
        );
    }
    Ok(if result.interrupted {
        ExitCode::from(130)
    } else {
        ExitCode::SUCCESS
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    fn args(words: &[&str]) -> HuntArgs {
        let line = ["sudoku-bench", "hunt"]
            .into_iter()
            .chain(words.iter().copied());
        match super::super::Cli::try_parse_from(line)
            .expect("the words parse")
            .command
        {
            super::super::Command::Hunt(h) => h,
            _ => unreachable!("a hunt command"),
        }
    }

    #[test]
    fn bad_requests_are_refused_before_anything_runs() {
        let refused = |w: &[&str]| format!("{:#}", plan(&args(w), 2).expect_err("refused"));
        assert!(refused(&["--solver", "band", "--against", "band"]).contains("two different"));
        assert!(refused(&["--solver", "band", "--iterations", "0"]).contains("above zero"));
        assert!(refused(&["--solver", "band", "--budget", "0s"]).contains("above zero"));
        assert!(refused(&["--solver", "band", "--size", "36"]).contains("sides 4, 9, 16 or 25"));
        let bad = super::super::Cli::try_parse_from([
            "sudoku-bench",
            "hunt",
            "--solver",
            "band",
            "--objective",
            "speed",
        ]);
        let text = bad.err().expect("refused").to_string();
        assert!(
            text.contains("invalid value 'speed'") && text.contains("guesses, nodes, time"),
            "{text}"
        );
    }

    #[test]
    fn the_plan_takes_the_budget_and_threads_asked() {
        let p = plan(
            &args(&["--solver", "band", "--iterations", "500", "--threads", "3"]),
            2,
        )
        .unwrap()
        .options;
        assert_eq!(p.stop, Stop::Iterations(500));
        assert_eq!(p.threads, 3);
        let p = plan(&args(&["--solver", "band", "--budget", "90s"]), 2)
            .unwrap()
            .options;
        assert_eq!(p.stop, Stop::Time(Duration::from_secs(90)));
        assert_eq!(p.threads, 2);
    }
}
