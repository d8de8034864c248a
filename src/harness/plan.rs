//! The run's options, typed: what `bench` was asked for, as `run.json`
//! keeps it under `options` and `bench --resume` reads it back.
//!
//! The words a file holds are the command line's (`unique`, `count:5`,
//! `interleaved`, `strategy-default`), so runs written before the options
//! were typed still read; those (version 1) did not keep all a run needs to
//! be made again, and are reported but not resumed.

use super::prepare::Selection;
use super::{Budget, Schedule};
use crate::external::ContenderSpec;
use crate::format::ReadOptions;
use crate::solver::{Mode, SolverId};
use crate::words::{millis, text, texts, UnknownWord};
use serde::{Deserialize, Serialize};
use std::time::Duration;

/// The most timed passes (`--repeat`) a run takes: each puzzle's times over
/// its passes are kept until its median is taken, and a thousand passes
/// already put a median's rank error far below the machine's drift.
pub const MOST_REPEATS: u32 = 1000;

/// The version of [`RunOptions`] this build writes.
pub const VERSION: u32 = 2;

/// What a run was asked for. Before it is planned (see `bench::Plan`),
/// `threads` 0 stands for the machine's default and `datasets` is empty;
/// planned, both are what ran.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct RunOptions {
    /// [`VERSION`] when written by this build; 1 for runs written before it.
    #[serde(default = "first_version")]
    pub version: u32,
    /// Strategy variants, in run order, by name (a run keeps its names even
    /// after a strategy is renamed; the plan checks them).
    pub solvers: Vec<String>,
    /// Dataset names, in run order.
    pub datasets: Vec<String>,
    /// The datasets as asked for: names, files or folders (empty: every embedded set).
    #[serde(default)]
    pub inputs: Vec<String>,
    /// How puzzle files are read.
    #[serde(default)]
    pub input: ReadOptions,
    /// Worker threads.
    pub threads: usize,
    /// What each solve looks for.
    #[serde(with = "text")]
    pub mode: Mode,
    /// Per-puzzle node budget.
    #[serde(with = "text")]
    pub node_budget: Budget,
    /// Per-puzzle time limit.
    #[serde(rename = "time_limit_ms", with = "millis")]
    pub time_limit: Option<Duration>,
    /// Per-puzzle CPU-time limit.
    #[serde(
        default,
        rename = "cpu_limit_ms",
        with = "millis",
        skip_serializing_if = "Option::is_none"
    )]
    pub cpu_limit: Option<Duration>,
    /// Untimed puzzles before each timed pass.
    pub warmup: usize,
    /// Timed passes over each round's share (at least; at most
    /// [`MOST_REPEATS`]).
    pub repeat: u32,
    /// Rounds asked for (runs saved before rounds: 1, intervals over puzzles only).
    #[serde(default = "one")]
    pub rounds: usize,
    /// More passes until each contender's timed work reaches this.
    #[serde(default, rename = "min_time_ms", with = "millis")]
    pub min_time: Option<Duration>,
    /// How contenders take turns (runs saved before schedules existed were sequential).
    #[serde(default = "sequential", with = "text")]
    pub schedule: Schedule,
    /// `--limit`.
    pub limit: Option<usize>,
    /// `--sample`.
    pub sample: Option<usize>,
    /// Seed for sampling and permutation.
    pub seed: u64,
    /// Random symmetry transforms applied.
    pub permute: bool,
    /// Each worker pinned to a processor of its own (the i-th the run may
    /// use), its outside program's processes with it (`--pin`).
    #[serde(default, skip_serializing_if = "is_false")]
    pub pin: bool,
    /// The memory each process of an outside contender may hold
    /// (`--memory-limit`), and how the limit is set.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub memory_limit: Option<MemorySetting>,
    /// The variant the speed columns compare with (default: each dataset's fastest).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reference: Option<String>,
    /// Nodes the untimed reference search may spend on one puzzle.
    #[serde(default = "reference_budget")]
    pub reference_budget: u64,
    /// Every timed solve is kept in `solves.csv`.
    #[serde(default, skip_serializing_if = "is_false")]
    pub keep_solves: bool,
    /// Outside contenders, as described (runs of version 1 kept `NAME: command`).
    #[serde(
        default,
        skip_serializing_if = "Vec::is_empty",
        deserialize_with = "contenders"
    )]
    pub contenders: Vec<ContenderSpec>,
    /// Strategies slowed on purpose (`--handicap`), as `NAME=SHARE`.
    #[serde(default, skip_serializing_if = "Vec::is_empty", with = "texts")]
    pub handicaps: Vec<Handicap>,
    /// Why the thread count is what it is, when outside programs changed or question it.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub threads_note: String,
    /// The thread counts of the scaling run this run is one count of
    /// (`--threads 1,2,4`); empty for a run of its own.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub scaling: Vec<usize>,
    /// What is measured of each call: its time, or (under callgrind) its
    /// instructions as well.
    #[serde(
        default,
        skip_serializing_if = "Measure::is_time",
        with = "crate::words::text"
    )]
    pub measure: Measure,
    /// What was measured, in the user's words (`--label`), like a commit of
    /// their solver: shown in reports, kept by baselines, ordered by `history`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    /// What follows the measuring: the report, the baseline gate.
    #[serde(default)]
    pub after: AfterRun,
}

/// A format of a benchmark-history service (`--export FORMAT=FILE`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TrackFormat {
    /// Bencher's Metric Format: an object of benchmarks, each an object of measures.
    Bmf,
    /// github-action-benchmark's `customSmallerIsBetter` array.
    GithubActionBenchmark,
}

impl TrackFormat {
    /// Each format with its word on the command line.
    pub const WORDS: [(&'static str, TrackFormat); 2] = [
        ("bmf", TrackFormat::Bmf),
        (
            "github-action-benchmark",
            TrackFormat::GithubActionBenchmark,
        ),
    ];

    /// The format's word.
    pub fn word(self) -> &'static str {
        Self::WORDS
            .iter()
            .find(|(_, f)| *f == self)
            .map_or("", |(w, _)| w)
    }
}

/// One export a run writes when it ends: a format and the file it goes to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExportTo {
    /// The format.
    pub format: TrackFormat,
    /// The file.
    pub path: std::path::PathBuf,
}

impl std::fmt::Display for ExportTo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}={}", self.format.word(), self.path.display())
    }
}

impl std::str::FromStr for ExportTo {
    type Err = UnknownWord;

    /// `FORMAT=FILE`, like `bmf=bmf.json`.
    fn from_str(text: &str) -> Result<ExportTo, UnknownWord> {
        let expected =
            "FORMAT=FILE, with FORMAT bmf or github-action-benchmark, like bmf=bench.json";
        let bad = || UnknownWord::new("an export", text, expected);
        let (word, path) = text.split_once('=').ok_or_else(bad)?;
        let format = Self::format(word).ok_or_else(bad)?;
        if path.trim().is_empty() {
            return Err(bad());
        }
        Ok(ExportTo {
            format,
            path: path.into(),
        })
    }
}

impl ExportTo {
    fn format(word: &str) -> Option<TrackFormat> {
        TrackFormat::WORDS
            .iter()
            .find(|(w, _)| *w == word)
            .map(|(_, f)| *f)
    }
}

impl Serialize for ExportTo {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for ExportTo {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<ExportTo, D::Error> {
        let text = String::deserialize(d)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

/// A memory limit on each process of an outside contender.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct MemorySetting {
    /// The limit, bytes.
    pub bytes: u64,
    /// How it is set ([`crate::usage::LimitBy::word`]); empty until the
    /// run starts its contenders.
    #[serde(default)]
    pub by: String,
}

/// What a run measures of each timed call.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Measure {
    /// Its time, on this machine.
    #[default]
    Time,
    /// Its instructions, counted by valgrind's callgrind, the same on every
    /// run of a build (times are kept too, but they are valgrind's).
    Instructions,
    /// Its time, and the CPU's counters read around it through
    /// `perf_event_open` (see [`crate::perf`]).
    Counters(crate::perf::Events),
}

impl Measure {
    /// True for [`Measure::Time`].
    pub fn is_time(&self) -> bool {
        *self == Measure::Time
    }

    /// What runs of this measure are judged by: instructions for callgrind's
    /// counts, time otherwise (the CPU's counters come with native times).
    pub fn metric(self) -> Measure {
        match self {
            Measure::Instructions => Measure::Instructions,
            Measure::Time | Measure::Counters(_) => Measure::Time,
        }
    }
}

impl std::fmt::Display for Measure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Measure::Time => f.write_str("time"),
            Measure::Instructions => f.write_str("instructions"),
            Measure::Counters(e) => e.fmt(f),
        }
    }
}

impl std::str::FromStr for Measure {
    type Err = crate::words::UnknownWord;

    /// `time`; `instructions` (callgrind's); or a list of the CPU's
    /// counters, like `cycles,instructions,branch-misses`.
    fn from_str(text: &str) -> Result<Measure, Self::Err> {
        match text {
            "time" => Ok(Measure::Time),
            "instructions" => Ok(Measure::Instructions),
            _ => text.parse().map(Measure::Counters).map_err(|_| {
                crate::words::UnknownWord::new(
                    "a measure",
                    text,
                    "time, instructions (counted by callgrind), or a list of the CPU's counters: cycles, instructions, branch-misses, task-clock",
                )
            }),
        }
    }
}

impl Default for RunOptions {
    /// `bench`'s defaults: each strategy's default variant, every embedded
    /// set, the machine's threads, mode `unique`.
    fn default() -> RunOptions {
        RunOptions {
            version: VERSION,
            solvers: SolverId::defaults().map(|s| s.name().to_string()).collect(),
            datasets: Vec::new(),
            inputs: Vec::new(),
            input: ReadOptions::default(),
            threads: 0,
            mode: Mode::Unique,
            node_budget: Budget::StrategyDefault,
            time_limit: None,
            cpu_limit: None,
            warmup: 20,
            repeat: 1,
            rounds: DEFAULT_ROUNDS,
            min_time: Some(DEFAULT_MIN_TIME),
            schedule: Schedule::Interleaved,
            limit: None,
            sample: None,
            seed: 1,
            permute: false,
            pin: false,
            memory_limit: None,
            reference: None,
            reference_budget: super::verdicts::DEFAULT_BUDGET,
            keep_solves: false,
            contenders: Vec::new(),
            handicaps: Vec::new(),
            threads_note: String::new(),
            scaling: Vec::new(),
            measure: Measure::Time,
            label: None,
            after: AfterRun::default(),
        }
    }
}

/// `--rounds` when not given.
pub const DEFAULT_ROUNDS: usize = 5;
/// `--min-time` when not given.
pub const DEFAULT_MIN_TIME: Duration = Duration::from_millis(250);

impl RunOptions {
    /// The measuring options in one line, for reports: mode, budget, limits, passes.
    pub fn describe(&self) -> String {
        let ms = |t: Option<Duration>| {
            t.map_or("none".into(), |t| format!("{} ms", t.as_secs_f64() * 1e3))
        };
        format!(
            "mode {}, node budget {}, time limit {}, warmup {}, rounds {}, repeat {}, min time {}, schedule {}, permute {}, seed {}",
            self.mode,
            self.node_budget,
            ms(self.time_limit),
            self.warmup,
            self.rounds,
            self.repeat,
            ms(self.min_time),
            self.schedule,
            self.permute,
            self.seed
        ) + if self.pin {
            ", pinned (a processor each worker)"
        } else {
            ""
        } + &self
            .cpu_limit
            .map(|t| format!(", CPU limit {}", ms(Some(t))))
            .unwrap_or_default()
            + &self
            .memory_limit
            .as_ref()
            .map(|m| {
                format!(
                    ", memory limit {} a process ({})",
                    crate::usage::size_words(m.bytes),
                    m.by
                )
            })
            .unwrap_or_default()
    }

    /// Which puzzles of each dataset run, and how they are dealt.
    pub fn selection(&self) -> Selection {
        Selection {
            sample: self.sample,
            limit: self.limit,
            permute: self.permute,
            seed: self.seed,
        }
    }

    /// What the harness needs of them to run.
    pub fn bench_options(&self) -> super::BenchOptions {
        super::BenchOptions {
            threads: self.threads,
            mode: self.mode,
            budget: self.node_budget,
            time_limit: self.time_limit,
            cpu_limit: self.cpu_limit,
            warmup: self.warmup,
            repeat: self.repeat,
            rounds: self.rounds,
            min_time: self.min_time,
            schedule: self.schedule,
            stretch: None,
            reference: self.reference.clone(),
            pin: self.pin,
        }
    }

    /// The names of the contenders, strategies first, then outside ones.
    pub fn contender_names(&self) -> Vec<String> {
        self.solvers
            .iter()
            .cloned()
            .chain(self.contenders.iter().map(|c| c.name.clone()))
            .collect()
    }

    /// The outside contenders in a line each: `NAME: command words`, or the
    /// library, its symbol and its ABI.
    pub fn contender_lines(&self) -> Vec<String> {
        self.contenders
            .iter()
            .map(ContenderSpec::describe)
            .collect()
    }
}

/// What follows the measuring: the report and the baseline gate.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(default)]
pub struct AfterRun {
    /// Draw the charts and the report.
    pub report: bool,
    /// The optional charts' choices.
    pub charts: ChartChoices,
    /// Compare with this baseline (a name or a run folder) and gate on it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub baseline: Option<String>,
    /// Save the run as this baseline.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub save_baseline: Option<String>,
    /// Changes smaller than this share count as noise.
    pub noise_threshold: f64,
    /// Files for benchmark-history services (`--export FORMAT=FILE`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub exports: Vec<ExportTo>,
}

impl Default for AfterRun {
    fn default() -> AfterRun {
        AfterRun {
            report: true,
            charts: ChartChoices::default(),
            baseline: None,
            save_baseline: None,
            noise_threshold: 0.03,
            exports: Vec::new(),
        }
    }
}

/// Choices for the optional charts.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
#[serde(default)]
pub struct ChartChoices {
    /// The two variants of the head-to-head chart (default: the two fastest).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub compare: Option<(String, String)>,
    /// The variant of the hardness chart (default: the fastest).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hardness_variant: Option<String>,
    /// The hardness chart's x axis.
    pub metric: Metric,
    /// The sizes each chart is drawn at.
    pub figures: Figures,
}

/// The sizes charts are drawn at.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Figures {
    /// Each chart as a double-column figure (7 in), which the report shows.
    #[default]
    Report,
    /// Also as a single-column figure (3.5 in), `NAME-3.5in.svg|png`.
    Paper,
}

impl Figures {
    /// Every choice, in [`Figures::WORDS`]'s order.
    pub const ALL: [Figures; 2] = [Figures::Report, Figures::Paper];
    /// The names `--figures` takes.
    pub const WORDS: [&'static str; 2] = ["report", "paper"];
}

crate::words_of!(Figures, "a choice of figures");

/// The search counter on the hardness chart's x axis.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Metric {
    /// Guesses + 1 (so that 0 guesses fits a log axis).
    #[default]
    Guesses,
    /// Search nodes.
    Nodes,
}

impl Metric {
    /// Every metric, in [`Metric::WORDS`]'s order.
    pub const ALL: [Metric; 2] = [Metric::Guesses, Metric::Nodes];
    /// The names `--hardness-metric` takes.
    pub const WORDS: [&'static str; 2] = ["guesses", "nodes"];
}

crate::words_of!(Metric, "a metric");

/// A strategy slowed on purpose: after each solve it spins until the solve
/// has taken `share` longer (for checking that a baseline gate catches it).
#[derive(Clone, Debug, PartialEq)]
pub struct Handicap {
    /// The strategy variant.
    pub variant: String,
    /// How much longer, as a share: 0.2 is 20%.
    pub share: f64,
}

impl std::fmt::Display for Handicap {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // A whole percentage as one (`band=20%`), else the share (`band=0.075`).
        let percent = self.share * 100.0;
        if (percent - percent.round()).abs() < 1e-9 {
            write!(f, "{}={}%", self.variant, percent.round())
        } else {
            write!(f, "{}={}", self.variant, self.share)
        }
    }
}

impl std::str::FromStr for Handicap {
    type Err = UnknownWord;

    /// Reads `NAME=SHARE`, like `band=20%` or `band=0.2`.
    fn from_str(text: &str) -> Result<Handicap, UnknownWord> {
        let bad = || UnknownWord::new("a handicap", text, "NAME=SHARE, like band=20%");
        let (name, share) = text.split_once('=').ok_or_else(bad)?;
        Ok(Handicap {
            variant: name.to_string(),
            share: crate::words::fraction(share).map_err(|_| bad())?,
        })
    }
}

/// Contenders as this build writes them, or as version 1 did (`NAME: command`):
/// those keep their name, which is all a report needs of them.
fn contenders<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<ContenderSpec>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Either {
        Spec(ContenderSpec),
        Line(String),
    }
    Ok(Vec::<Either>::deserialize(d)?
        .into_iter()
        .map(|e| match e {
            Either::Spec(s) => s,
            Either::Line(line) => {
                let (name, rest) = line.split_once(':').unwrap_or((&line, ""));
                ContenderSpec {
                    description: rest.trim().to_string(),
                    ..ContenderSpec::program(name.trim(), Vec::new())
                }
            }
        })
        .collect())
}

fn first_version() -> u32 {
    1
}

fn is_false(b: &bool) -> bool {
    !*b
}

fn one() -> usize {
    1
}

fn sequential() -> Schedule {
    Schedule::Sequential
}

fn reference_budget() -> u64 {
    super::verdicts::DEFAULT_BUDGET
}
