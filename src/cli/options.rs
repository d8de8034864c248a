//! Option groups and value parsers shared by several commands.

use anyhow::{bail, Context, Result};
use clap::ValueEnum;
use std::path::PathBuf;
use sudoku_bench::external::library::Abi;
use sudoku_bench::format::{AlphabetKind, Format, ReadOptions};
use sudoku_bench::harness::plan::{ChartChoices, Figures, Metric};
use sudoku_bench::solver::Mode;
/// Value parsers (their errors say what was expected).
pub(super) use sudoku_bench::words::{
    cpu_limit, duration, fraction, label, mean_guesses, positive, share, time_limit,
};

/// Reads `--threads`: a whole number of at least 1, and at most what this
/// machine takes (`usage::most_threads` of its cores).
pub(super) fn threads(text: &str) -> Result<usize, String> {
    let n = positive::<usize>(text)?;
    sudoku_bench::usage::check_threads(n, sudoku_bench::usage::cores()).map_err(|e| e.to_string())
}

/// Reads `--repeat`: a whole number from 1 to `MOST_REPEATS`.
pub(super) fn repeats(text: &str) -> Result<u32, String> {
    use sudoku_bench::harness::plan::MOST_REPEATS;
    let n = positive::<u32>(text)?;
    if n > MOST_REPEATS {
        return Err(format!(
            "at most {MOST_REPEATS} passes: each puzzle's times are kept for its median, and more passes than that only wait longer"
        ));
    }
    Ok(n)
}

#[derive(clap::Args, Clone)]
pub(super) struct ReportChoices {
    /// The two strategy variants of the head-to-head chart, like `dlx,bitset-mrv`
    /// (default: on each dataset, the two fastest that ran on it).
    #[arg(long, value_delimiter = ',', num_args = 1)]
    compare: Vec<String>,
    /// The strategy variant of the hardness chart (default: the fastest of the run).
    #[arg(long)]
    hardness_solver: Option<String>,
    /// The hardness chart's x axis.
    #[arg(long, default_value_t = Metric::default(), value_parser = words::<Metric>(&Metric::WORDS))]
    hardness_metric: Metric,
    /// `paper` also draws each chart as a single-column figure (3.5 in wide,
    /// `NAME-3.5in.svg|png`) beside the double-column one (7 in, `NAME.svg|png`);
    /// no text is under 8 pt at either width, and each PNG is 300 dpi.
    #[arg(long, default_value_t = Figures::default(), value_parser = words::<Figures>(&Figures::WORDS))]
    figures: Figures,
}

impl ReportChoices {
    pub(super) fn options(&self) -> Result<ChartChoices> {
        let compare = match self.compare.as_slice() {
            [] => None,
            [a, b] => Some((a.clone(), b.clone())),
            other => bail!("--compare takes two strategy variants, got {}", other.len()),
        };
        Ok(ChartChoices {
            compare,
            hardness_variant: self.hardness_solver.clone(),
            metric: self.hardness_metric,
            figures: self.figures,
        })
    }
}

/// Options shared by every command that reads puzzles.
#[derive(clap::Args, Clone)]
pub(super) struct InputArgs {
    /// Input format (`auto` detects it from the content).
    #[arg(long, default_value = "auto", value_parser = clap::builder::PossibleValuesParser::new(Format::NAMES))]
    format: String,
    /// Symbol alphabet for 16x16 and 25x25 grids, by name or by range: `digits` (`1-9A-G`, `1-9A-P`),
    /// `letters` (`A-P`, `A-Y`), `hex` (`0-9A-F`); `auto` decides from the input.
    #[arg(long, default_value = "auto")]
    alphabet: AlphabetKind,
    /// Skip bad entries (and say how many) instead of failing.
    #[arg(long)]
    skip_invalid: bool,
}

impl InputArgs {
    pub(super) fn read_options(&self) -> Result<ReadOptions> {
        Ok(ReadOptions {
            format: Format::from_name(&self.format)?,
            alphabet: self.alphabet,
            skip_invalid: self.skip_invalid,
            ..ReadOptions::default()
        })
    }
}

#[derive(Clone, Copy, ValueEnum)]
pub(super) enum ModeArg {
    /// Stop at the first solution.
    First,
    /// Stop at the second solution (tells unique from multiple).
    Unique,
    /// Count solutions up to --count-limit.
    Count,
}

impl ModeArg {
    /// The choice that names `mode`.
    pub(super) fn of(mode: Mode) -> ModeArg {
        match mode {
            Mode::First => ModeArg::First,
            Mode::Unique => ModeArg::Unique,
            Mode::Count(_) => ModeArg::Count,
        }
    }

    /// The mode it names, counting to `count_limit`.
    pub(super) fn mode(self, count_limit: u64) -> Mode {
        match self {
            ModeArg::First => Mode::First,
            ModeArg::Unique => Mode::Unique,
            ModeArg::Count => Mode::Count(count_limit),
        }
    }
}

/// A parser for a value read from one of `words` (its `FromStr`), which
/// `--help` lists.
pub(super) fn words<T>(
    words: &'static [&'static str],
) -> impl clap::builder::TypedValueParser<Value = T>
where
    T: std::str::FromStr<Err = sudoku_bench::words::UnknownWord> + Clone + Send + Sync + 'static,
{
    use clap::builder::TypedValueParser;
    clap::builder::PossibleValuesParser::new(words).try_map(|w| w.parse::<T>())
}

pub(super) fn build_pool(threads: Option<usize>) -> Result<rayon::ThreadPool> {
    let mut b = rayon::ThreadPoolBuilder::new();
    // Without --threads, rayon reads RAYON_NUM_THREADS: bounded as --threads is.
    let from_env = || {
        let v = std::env::var("RAYON_NUM_THREADS").ok()?;
        v.trim().parse::<usize>().ok().map(|n| (v, n))
    };
    if let Some(t) = threads {
        b = b.num_threads(t);
    } else if let Some((v, n)) = from_env() {
        if n > 0 {
            self::threads(&n.to_string())
                .map_err(|e| anyhow::anyhow!("RAYON_NUM_THREADS={v}: {e}"))?;
        }
    }
    b.build().context("cannot start the worker threads")
}

/// Outside contenders, as `bench` and `hunt` take them.
#[derive(clap::Args, Clone)]
pub(super) struct OutsideArgs {
    /// An outside program as a contender, `NAME=COMMAND` (repeatable): COMMAND is split into
    /// words as a shell would and run without one, once per worker thread, speaking the
    /// line protocol (see docs/contenders.md). `NAME@9,16=COMMAND` declares the grid
    /// sides it handles (default 4, 9, 16, 25): other sizes are skipped for it.
    #[arg(long, value_name = "NAME[@SIDES]=COMMAND")]
    pub(super) contender: Vec<String>,
    // A shared library as a contender (help: the ABIs from their table).
    #[arg(long, value_name = "NAME[@SIDES]=PATH:SYMBOL:ABI", help = library_help())]
    pub(super) library: Vec<String>,
    /// Give an outside contender up everywhere after this many crashes over the run (each
    /// crash costs its own row and a restart). Unsaid, a contender is given up only on a
    /// grid size where its first 50 calls all crashed with no answer. A contenders entry's
    /// `max_crashes` takes precedence.
    #[arg(long, value_name = "N", value_parser = positive::<u32>)]
    pub(super) max_crashes: Option<u32>,
    /// A TOML file of contenders: `[[contender]]` tables with `name` and `command` (a list
    /// of words) or `library`, `symbol` and `abi`; optional `sizes`, `description`,
    /// `pencilmark`, `max_crashes` and (programs) `batch`, at most 4096 puzzles.
    #[arg(long, value_name = "FILE")]
    pub(super) contenders: Option<PathBuf>,
}

impl OutsideArgs {
    /// Every outside contender asked for (see [`sudoku_bench::external::specs`]).
    pub(super) fn specs(&self) -> Result<Vec<sudoku_bench::external::ContenderSpec>> {
        let mut specs = sudoku_bench::external::specs(
            &self.contender,
            &self.library,
            self.contenders.as_deref(),
        )?;
        for s in &mut specs {
            s.max_crashes = s.max_crashes.or(self.max_crashes);
        }
        Ok(specs)
    }
}

/// `--library`'s help, its ABIs from their table.
fn library_help() -> String {
    format!(
        "A shared library as a contender, `NAME=PATH:SYMBOL:ABI` (repeatable): its function \
         SYMBOL is called in a helper process per worker and timed there; ABI is {}. \
         `NAME@9=...` declares its sides, as for --contender",
        Abi::described()
    )
}

/// An output folder: `--out` (created if need be), or a new one under
/// `reports/` named `KIND-<UTC time>`.
pub(super) fn out_dir(out: &Option<PathBuf>, kind: &str) -> Result<PathBuf> {
    let parent = std::path::Path::new(sudoku_bench::export::run_dir::REPORTS);
    Ok(sudoku_bench::export::run_dir::out_dir(
        out.as_deref(),
        parent,
        kind,
    )?)
}

/// Reads a duration ([`duration`]) in the form its default is shown in.
pub(super) fn human_duration(text: &str) -> Result<humantime::Duration, String> {
    duration(text).map(Into::into).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    #[test]
    fn threads_are_at_least_one_and_at_most_what_the_machine_takes() {
        let most = sudoku_bench::usage::most_threads(sudoku_bench::usage::cores());
        assert_eq!(super::threads(&most.to_string()), Ok(most));
        let e = super::threads(&(most + 1).to_string()).unwrap_err();
        assert!(e.contains(&format!("at most {most}")), "{e}");
        assert!(super::threads("0").unwrap_err().contains("1 or more"));
        assert!(super::threads("99999999999999999999999").is_err());
    }
}
