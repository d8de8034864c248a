//! `sudoku-bench hunt`: search for the puzzles on which a contender costs most,
//! or most relative to another; write them with the search's progress.

use super::options::*;
use anyhow::Result;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;
use sudoku_bench::hunt::plan::{HuntPlan, HuntRequest};
use sudoku_bench::hunt::session::{self, score_text, Started};
use sudoku_bench::hunt::write::{print_best, ScoreName};
use sudoku_bench::hunt::{HuntObserver, Objective, ProgressRow, Stop};

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
    /// Threads the search's islands are spread over (default: every core).
    #[arg(long, value_parser = positive::<usize>)]
    threads: Option<usize>,
    /// Islands: annealing chains, each with its own seed and temperature; stale ones
    /// restart from new puzzles. Default: 8, or 4 a thread past
    /// 2 threads; name it for the same puzzles at any thread count.
    #[arg(long, value_parser = positive::<usize>)]
    islands: Option<usize>,
    /// Timed solves per puzzle with `--objective time` (their median is the cost).
    #[arg(long, default_value_t = 5, value_parser = positive::<u32>)]
    repeat: u32,
    #[command(flatten)]
    outside: OutsideArgs,
    /// Merge these hunts' folders instead of hunting: every kept puzzle checked again,
    /// scored on this machine for --solver (and --against), or for what the hunts recorded,
    /// kept once up to symmetry.
    #[arg(long, value_name = "DIR", num_args = 1.., conflicts_with_all = ["budget", "iterations", "from"])]
    merge: Vec<PathBuf>,
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
        })
    }
}

/// The display: a spinner or a bar with the best so far.
struct Display(Option<indicatif::ProgressBar>);

impl HuntObserver for Display {
    fn improved(&self, _: &ProgressRow) {}
    fn tick(&self, iterations: u64, best: f64) {
        if let Some(bar) = &self.0 {
            bar.set_position(iterations);
            let rate = iterations as f64 / bar.elapsed().as_secs_f64().max(1e-3);
            bar.set_message(format!("({:.0}k/s), best {}", rate / 1e3, score_text(best)));
        }
    }
    fn event(&self, line: &str) {
        if let Some(bar) = &self.0 {
            bar.println(format!("{:>7.1} s  {line}", bar.elapsed().as_secs_f64()));
        }
    }
}

pub(super) fn run(args: HuntArgs) -> Result<ExitCode> {
    let req = args.request()?;
    let plan = HuntPlan::new(&req, sudoku_bench::harness::cores(), &mut |m| {
        eprintln!("{m}")
    })?;
    let dir = out_dir(&args.out, "hunts", "run")?;
    if !args.merge.is_empty() {
        let cancel = super::interrupt::flag("interrupted (Ctrl-C again to quit now)");
        let specs = args.outside.specs()?;
        let (m, _) = session::merge(&plan, &req, &specs, &args.merge, &dir, &cancel)?;
        for why in &m.dropped {
            eprintln!("dropped {why}");
        }
        println!(
            "{} puzzles read from {} hunts, {} kept once up to symmetry: {}",
            m.read,
            args.merge.len(),
            m.kept.len(),
            dir.join(sudoku_bench::hunt::write::PUZZLES_TXT).display()
        );
        return Ok(ExitCode::SUCCESS);
    }
    let started = Started::new(plan, &req, &args.outside.specs()?, &dir)?;
    let opts = &started.plan().options;
    let bar = super::progress::shown(args.quiet).then(|| {
        let bar = match opts.stop {
            Stop::Iterations(n) => indicatif::ProgressBar::new(n),
            Stop::Time(_) => indicatif::ProgressBar::new_spinner(),
        };
        let template = "{spinner} {elapsed_precise} {human_pos} moves {msg}";
        bar.set_style(
            indicatif::ProgressStyle::with_template(template)
                .unwrap_or_else(|_| indicatif::ProgressStyle::default_spinner()),
        );
        bar.enable_steady_tick(Duration::from_millis(200));
        bar
    });
    if !args.quiet {
        let (t, s) = (opts.threads, if opts.threads == 1 { "" } else { "s" });
        eprintln!(
            "hunting {} with {} islands on {t} thread{s} from {}, seed {}; results in {}",
            started.score.short(),
            opts.islands,
            started.plan().start_words,
            opts.seed,
            dir.display()
        );
    }
    let cancel = super::interrupt::flag(
        "interrupted: stopping the hunt and writing the best found so far (Ctrl-C again to quit now)",
    );
    let display = Display(bar);
    let alphabet = started.plan().alphabet.clone();
    let hunted = started.hunt(&dir, &cancel, &display);
    if let Some(bar) = &display.0 {
        bar.finish_and_clear();
    }
    let hunted = hunted?;
    let mut out = std::io::stdout().lock();
    print_best(&mut out, &hunted.score, &hunted.result, &alphabet, 5)?;
    println!("{}", hunted.summary(&dir));
    if let Some(note) = hunted.failures() {
        eprintln!("note: {note}");
    }
    Ok(ExitCode::from(if hunted.result.interrupted {
        130
    } else {
        0
    }))
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
