//! Reads a saved run folder back: `results.csv`, `summary.csv`, `run.json`,
//! with errors naming the file, line and column.

use crate::harness::facts::{FactError, Facts};
use crate::harness::files;
use crate::harness::{PuzzleResult, RowStatus, RunInfo, SolveRecord, SummaryRow};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// Why a run folder cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum ReportError {
    /// A run that was cut short could not be read back (see [`crate::harness::recover`]).
    #[error("{0}")]
    Recover(String),
    /// A file is missing or unreadable.
    #[error("cannot read {}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The OS error.
        #[source]
        source: std::io::Error,
    },
    /// A file or folder of the report cannot be written.
    #[error("cannot write {}: {source}", path.display())]
    Write {
        /// The file or folder.
        path: PathBuf,
        /// The OS error.
        #[source]
        source: std::io::Error,
    },
    /// A CSV file lacks a column.
    #[error("{}:1:1: missing column `{column}` in the header, expected the columns {expected}", path.display())]
    MissingColumn {
        /// The file.
        path: PathBuf,
        /// The column missing.
        column: String,
        /// Every column needed.
        expected: String,
    },
    /// A field does not parse.
    #[error("{}:{line}:{column}: found {found:?} in column `{field}`, expected {expected}", path.display())]
    BadField {
        /// The file.
        path: PathBuf,
        /// 1-based line.
        line: u64,
        /// 1-based column (characters).
        column: usize,
        /// Column name.
        field: String,
        /// The text found.
        found: String,
        /// What was expected.
        expected: String,
    },
    /// The CSV itself is malformed.
    #[error("{}: {message}", path.display())]
    Csv {
        /// The file.
        path: PathBuf,
        /// The reader's message (with its position).
        message: String,
    },
    /// `run.json` does not parse.
    #[error("{}:{line}:{column}: {message}", path.display())]
    Json {
        /// The file.
        path: PathBuf,
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// What is wrong.
        message: String,
    },
    /// A row the run cannot count: one contradicting another, or from elsewhere.
    #[error(transparent)]
    Facts(#[from] FactError),
    /// Runs that cannot be reported together.
    #[error("{0}")]
    Mismatch(String),
    /// Drawing failed.
    #[error("cannot draw {chart}: {message}")]
    Draw {
        /// Chart name.
        chart: String,
        /// The backend's message.
        message: crate::report::charts::DrawError,
    },
    /// The run has no `run.json`, so its figures cannot be exported.
    #[error("{}: {} is missing, so the run's measure and machine are unknown: nothing to export", .0.display(), files::RUN_JSON)]
    NoInfo(PathBuf),
    /// An export cannot be written.
    #[error(transparent)]
    Track(#[from] crate::export::track::TrackError),
    /// An export would replace a run's file or another export.
    #[error(transparent)]
    ExportRefused(#[from] crate::export::track::ExportRefused),
    /// Another process writes into the report's folder.
    #[error(transparent)]
    Lock(#[from] crate::lock::LockError),
    /// A report across machines asked into a run's folder.
    #[error("--out {}: a run's folder (it holds {}), whose report is its own: give a folder of its own to the report across machines", .0.display(), files::RUN_JSON)]
    IntoRun(PathBuf),
}

/// One measured puzzle, as the charts need it.
#[derive(Clone, Debug, PartialEq)]
pub struct Point {
    /// Index into [`RunData::variants`].
    pub variant: usize,
    /// Index into [`RunData::datasets`].
    pub dataset: usize,
    /// Puzzle position in its dataset.
    pub puzzle: u64,
    /// Round number (0 in runs saved before rounds).
    pub round: u32,
    /// The puzzle's status over its solves.
    pub status: RowStatus,
    /// Search nodes (none when the contender does not report them).
    pub nodes: Option<u64>,
    /// Guesses (likewise).
    pub guesses: Option<u64>,
    /// Instructions of its solve, where the run counted them (likewise).
    pub instructions: Option<u64>,
    /// The median of its timed solves, ns.
    pub solve_ns: u64,
    /// Timed solves behind it.
    pub solves: u32,
}

/// A run read back from disk, in memory that does not grow with the run:
/// `results.csv` is summed up per strategy variant and dataset as it is read.
#[derive(Clone, Debug)]
pub struct RunData {
    /// Metadata, when `run.json` is present.
    pub info: Option<RunInfo>,
    /// `summary.csv`.
    pub summary: Vec<SummaryRow>,
    /// Variant names, in first-seen order.
    pub variants: Vec<String>,
    /// Dataset names, in first-seen order.
    pub datasets: Vec<String>,
    /// Per variant and dataset, in first-seen order.
    pub series: Vec<Series>,
    /// Every row of `results.csv`, only when asked for ([`load_points`]).
    pub points: Vec<Point>,
    /// Per dataset, its puzzle count when the series keep only a sample of it.
    pub sampled: Vec<Option<u64>>,
    /// True for a run saved with a row per timed solve (before one row a
    /// puzzle): its solves were gathered into puzzles here, but its
    /// `summary.csv` counts solves as puzzles.
    pub per_solve: bool,
    /// What was dropped reading `results.csv`: rows that repeated one
    /// before them with the same values (see [`crate::harness::facts`]).
    pub notes: Vec<String>,
}

/// One strategy variant's puzzles on one dataset, summed up.
#[derive(Clone, Debug, Default)]
pub struct Series {
    /// Index into [`RunData::variants`].
    pub variant: usize,
    /// Index into [`RunData::datasets`].
    pub dataset: usize,
    /// Puzzles.
    pub rows: u64,
    /// Median ns of the solved puzzles.
    pub solved: crate::stats::Sketch,
    /// Median ns of every puzzle with a reading.
    pub timed: crate::stats::Sketch,
    /// Solved puzzles with a reading: how many, their nodes and their ns
    /// (summed in 128 bits: no count wraps).
    pub cost: (u64, u128, u128),
    /// The puzzles of a seeded sample of the dataset (every puzzle up to
    /// [`SAMPLE`]; the same puzzles for every variant).
    pub sample: Vec<Point>,
}

/// Puzzles per dataset whose rows a report keeps for its scatter plots.
pub const SAMPLE: u64 = 10_000;

/// A puzzle index hashed (splitmix64), to pick the same sample for every variant.
fn mix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl RunData {
    /// Variant `v` as charts label it: outside and reference contenders marked.
    pub fn label(&self, v: usize) -> String {
        let name = &self.variants[v];
        let origin = self
            .summary
            .iter()
            .find(|r| &r.variant == name)
            .map_or("", |r| r.origin_word());
        crate::harness::record::label(name, origin)
    }

    /// Dataset `d`'s puzzle count if its series keep only a sample of its puzzles.
    pub fn sampled(&self, d: usize) -> Option<u64> {
        self.sampled.get(d).copied().flatten()
    }

    /// The series of variant `v` on dataset `d`, if it ran.
    pub fn series(&self, v: usize, d: usize) -> Option<&Series> {
        self.series
            .iter()
            .find(|s| s.variant == v && s.dataset == d)
    }
}

struct Table {
    path: PathBuf,
    reader: csv::Reader<std::io::Take<std::fs::File>>,
    index: HashMap<String, usize>,
    header: csv::StringRecord,
    /// Each row's key, where the file's rows are facts counted once.
    facts: Option<Facts>,
}

impl Table {
    fn open(path: &Path, needed: &[&str]) -> Result<Table, ReportError> {
        let io = |source| ReportError::Io {
            path: path.into(),
            source,
        };
        let mut file = std::fs::File::open(path).map_err(io)?;
        // A last row a kill cut off (no line end) is left out.
        let whole = crate::harness::facts::whole_lines(&mut file).map_err(io)?;
        let mut reader = csv::ReaderBuilder::new()
            .flexible(true)
            .from_reader(std::io::Read::take(file, whole));
        let headers = reader
            .headers()
            .map_err(|e| ReportError::Csv {
                path: path.into(),
                message: e.to_string(),
            })?
            .clone();
        let mut index: HashMap<String, usize> = headers
            .iter()
            .enumerate()
            .map(|(i, h)| (h.trim().to_string(), i))
            .collect();
        // Runs saved before verdicts were checked against a reference call
        // `verified` `solved`.
        let verified = SummaryRow::NAMES.solved;
        if let (None, Some(&i)) = (index.get(verified), index.get("solved")) {
            index.insert(verified.into(), i);
        }
        if let Some(missing) = needed.iter().find(|c| !index.contains_key(**c)) {
            return Err(ReportError::MissingColumn {
                path: path.into(),
                column: missing.to_string(),
                expected: needed.join(", "),
            });
        }
        Ok(Table {
            path: path.into(),
            reader,
            index,
            header: headers,
            facts: None,
        })
    }

    /// Counts each row once (see [`crate::harness::facts`]), checked
    /// against `info` when the run has one.
    fn as_facts(&mut self, info: Option<&RunInfo>) {
        self.facts = Some(Facts::new(&self.path, &self.header, info));
    }

    /// The note on repeated rows dropped, or the error of one that contradicts another.
    fn finish(&mut self) -> Result<Option<String>, ReportError> {
        match self.facts.take() {
            Some(f) => Ok(f.finish()?),
            None => Ok(None),
        }
    }

    fn rows(
        &mut self,
        mut each: impl FnMut(&Field<'_>) -> Result<(), ReportError>,
    ) -> Result<(), ReportError> {
        let mut record = csv::StringRecord::new();
        loop {
            match self.reader.read_record(&mut record) {
                Ok(false) => return Ok(()),
                Ok(true) => {
                    if let Some(f) = &mut self.facts {
                        if !f.admit(&record)? {
                            continue;
                        }
                    }
                    each(&Field {
                        table: self,
                        record: &record,
                    })?
                }
                Err(e) => {
                    return Err(ReportError::Csv {
                        path: self.path.clone(),
                        message: e.to_string(),
                    })
                }
            }
        }
    }
}

struct Field<'a> {
    table: &'a Table,
    record: &'a csv::StringRecord,
}

impl Field<'_> {
    fn text(&self, name: &str) -> Result<&str, ReportError> {
        let i = self.table.index[name];
        self.record
            .get(i)
            .ok_or_else(|| self.bad(name, "", "a value (the row is too short)"))
    }

    fn bad(&self, name: &str, found: &str, expected: &str) -> ReportError {
        let i = self.table.index[name];
        let column = 1 + self
            .record
            .iter()
            .take(i)
            .map(|f| f.chars().count() + 1)
            .sum::<usize>();
        ReportError::BadField {
            path: self.table.path.clone(),
            line: self.record.position().map_or(0, |p| p.line()),
            column,
            field: name.to_string(),
            found: found.to_string(),
            expected: expected.to_string(),
        }
    }

    /// A column that older runs lack: `None` when absent or empty.
    fn opt_text(&self, name: &str) -> Option<&str> {
        let i = *self.table.index.get(name)?;
        self.record.get(i).filter(|t| !t.trim().is_empty())
    }

    /// A number in a column that older runs lack, or left empty: `None`.
    fn opt_num<T: std::str::FromStr>(
        &self,
        name: &str,
        expected: &str,
    ) -> Result<Option<T>, ReportError> {
        match self.opt_text(name) {
            None => Ok(None),
            Some(t) => t
                .trim()
                .parse()
                .map(Some)
                .map_err(|_| self.bad(name, t, expected)),
        }
    }

    fn num<T: std::str::FromStr>(&self, name: &str, expected: &str) -> Result<T, ReportError> {
        let t = self.text(name)?;
        t.trim().parse().map_err(|_| self.bad(name, t, expected))
    }
}

fn intern(names: &mut Vec<String>, name: &str) -> usize {
    names.iter().position(|n| n == name).unwrap_or_else(|| {
        names.push(name.to_string());
        names.len() - 1
    })
}

/// The columns of `results.csv` a report reads, besides the times: `solves`
/// and `median_ns`, or (a run saved with a row per solve) `repeat` and `solve_ns`.
pub(crate) const RESULT_COLUMNS: &[&str] = {
    let c = PuzzleResult::NAMES;
    &[
        c.variant,
        c.dataset,
        c.puzzle_index,
        c.status,
        c.nodes,
        c.guesses,
    ]
};

/// One puzzle's solves in a run saved with a row per solve.
struct Solves {
    first: Point,
    ns: Vec<u64>,
}
/// The columns of `summary.csv` every run has written.
const SUMMARY_COLUMNS: &[&str] = {
    let c = SummaryRow::NAMES;
    &[
        c.strategy,
        c.variant,
        c.dataset,
        c.threads,
        c.puzzles,
        c.solved,
        c.budget,
        c.wrong,
        c.errors,
        c.puzzles_per_sec,
        c.guesses_per_puzzle,
        c.no_guess_pct,
        c.wall_s,
    ]
};

/// Reads `results.csv`, `summary.csv` and (if present) `run.json` from a run
/// folder, summing `results.csv` up (see [`RunData`]).
pub fn load(dir: &Path) -> Result<RunData, ReportError> {
    load_with(dir, false)
}

/// [`load`], keeping every row of `results.csv` as well (memory grows with the run).
pub fn load_points(dir: &Path) -> Result<RunData, ReportError> {
    load_with(dir, true)
}

/// A run folder's `run.json` (when it has one) and `summary.csv`, without
/// reading its `results.csv`.
pub fn load_summary(dir: &Path) -> Result<(Option<RunInfo>, Vec<SummaryRow>), ReportError> {
    Ok((read_info(dir)?, read_summary(dir)?))
}

/// The run's `run.json`, when it has one.
fn read_info(dir: &Path) -> Result<Option<RunInfo>, ReportError> {
    use crate::harness::recover::{self, RecoverError};
    match recover::read_info(dir) {
        Ok(info) => Ok(Some(info)),
        Err(RecoverError::NotARun(_)) => Ok(None),
        Err(RecoverError::Io { path, source }) => Err(ReportError::Io { path, source }),
        Err(RecoverError::Json {
            path,
            line,
            column,
            message,
        }) => Err(ReportError::Json {
            path,
            line,
            column,
            message,
        }),
        Err(e) => Err(ReportError::Csv {
            path: dir.join(files::RUN_JSON),
            message: e.to_string(),
        }),
    }
}

/// The rows of the run's `summary.csv` (older runs' columns too).
fn read_summary(dir: &Path) -> Result<Vec<SummaryRow>, ReportError> {
    let mut t = Table::open(&dir.join(files::SUMMARY_CSV), SUMMARY_COLUMNS)?;
    let mut summary = Vec::new();
    let c = SummaryRow::NAMES;
    t.rows(|f| {
        let (n, w) = ("a number", "a whole number");
        summary.push(SummaryRow {
            strategy: f.text(c.strategy)?.to_string(),
            variant: f.text(c.variant)?.to_string(),
            dataset: f.text(c.dataset)?.to_string(),
            threads: f.num(c.threads, w)?,
            puzzles: f.num(c.puzzles, w)?,
            solved: f.num(c.solved, w)?,
            budget: f.num(c.budget, w)?,
            wrong: f.num(c.wrong, w)?,
            errors: f.num(c.errors, w)?,
            unchecked: f.opt_num(c.unchecked, w)?.unwrap_or(0),
            puzzles_per_sec: f.num(c.puzzles_per_sec, n)?,
            mean_us: f.opt_num(c.mean_us, n)?,
            median_us: f.opt_num(c.median_us, n)?,
            p90_us: f.opt_num(c.p90_us, n)?,
            p99_us: f.opt_num(c.p99_us, n)?,
            max_us: f.opt_num(c.max_us, n)?,
            guesses_per_puzzle: f.opt_num(c.guesses_per_puzzle, n)?,
            no_guess_pct: f.opt_num(c.no_guess_pct, n)?,
            wall_s: f.num(c.wall_s, n)?,
            median_lo_us: f.opt_num(c.median_lo_us, n)?,
            median_hi_us: f.opt_num(c.median_hi_us, n)?,
            p90_lo_us: f.opt_num(c.p90_lo_us, n)?,
            p90_hi_us: f.opt_num(c.p90_hi_us, n)?,
            reference: f.opt_text(c.reference).unwrap_or_default().to_string(),
            speed: f.opt_num(c.speed, n)?,
            speed_lo: f.opt_num(c.speed_lo, n)?,
            speed_hi: f.opt_num(c.speed_hi, n)?,
            faster_pct: f.opt_num(c.faster_pct, n)?,
            origin: f.opt_text(c.origin).unwrap_or_default().to_string(),
            rounds: f.opt_num(c.rounds, w)?.unwrap_or(0),
            solves: f.opt_num(c.solves, w)?.unwrap_or(0),
            timing: f.opt_text(c.timing).unwrap_or_default().to_string(),
            checked: f.opt_text(c.checked).unwrap_or_default().to_string(),
            instructions_per_puzzle: f.opt_num(c.instructions_per_puzzle, n)?,
            cycles_per_puzzle: f.opt_num(c.cycles_per_puzzle, n)?,
            branch_misses_per_puzzle: f.opt_num(c.branch_misses_per_puzzle, n)?,
            task_clock_ns_per_puzzle: f.opt_num(c.task_clock_ns_per_puzzle, n)?,
            nodes_per_puzzle: f.opt_num(c.nodes_per_puzzle, n)?,
            first_failures: f.opt_text(c.first_failures).unwrap_or_default().to_string(),
            cpu_us: f.opt_num(c.cpu_us, n)?,
            cpu_ratio: f.opt_num(c.cpu_ratio, n)?,
            cpu_clock: f.opt_text(c.cpu_clock).unwrap_or_default().to_string(),
            cpu_margin: f.opt_num(c.cpu_margin, n)?,
            peak_mem_bytes: f.opt_num(c.peak_mem_bytes, w)?,
            peak_heap_bytes: f.opt_num(c.peak_heap_bytes, w)?,
            memory: f.opt_num(c.memory, w)?.unwrap_or(0),
        });
        Ok(())
    })?;
    Ok(summary)
}

fn load_with(dir: &Path, keep_points: bool) -> Result<RunData, ReportError> {
    let mut data = RunData {
        info: read_info(dir)?,
        summary: read_summary(dir)?,
        variants: Vec::new(),
        datasets: Vec::new(),
        series: Vec::new(),
        points: Vec::new(),
        sampled: Vec::new(),
        per_solve: false,
        notes: Vec::new(),
    };
    // Puzzles per dataset, to size the sample: run.json's count, else the most rows of a variant.
    let puzzles_of = |name: &str| -> u64 {
        data.info
            .as_ref()
            .and_then(|i| i.datasets.iter().find(|d| d.name == name))
            .map(|d| d.puzzles_run)
            .unwrap_or_else(|| {
                data.summary
                    .iter()
                    .filter(|r| r.dataset == name)
                    .map(|r| r.puzzles)
                    .max()
                    .unwrap_or(0)
            })
    };
    let mut sizes: HashMap<String, u64> = HashMap::new();
    let path = dir.join(files::RESULTS_CSV);
    let mut t = Table::open(&path, RESULT_COLUMNS)?;
    t.as_facts(data.info.as_ref());
    data.per_solve = per_solve_columns(&t, path)?;
    let per_solve = data.per_solve;
    let (variants, datasets) = (&mut data.variants, &mut data.datasets);
    let mut add = Adder {
        at: HashMap::new(),
        series: &mut data.series,
        keep: keep_points.then(Vec::new),
    };
    // Old runs: every solve of a puzzle, gathered before it becomes a point.
    let mut old: HashMap<(usize, usize, u64), usize> = HashMap::new();
    let mut gathered: Vec<Solves> = Vec::new();
    // A run saved with a row per solve has `solves.csv`'s columns.
    let (c, s, w) = (PuzzleResult::NAMES, SolveRecord::NAMES, "a whole number");
    t.rows(|f| {
        let status_text = f.text(c.status)?;
        let status: RowStatus = status_text
            .parse()
            .map_err(|e: crate::words::UnknownWord| f.bad(c.status, status_text, &e.expected))?;
        let dataset_name = f.text(c.dataset)?;
        let ns_column = if per_solve { s.solve_ns } else { c.median_ns };
        let mut p = Point {
            variant: intern(variants, f.text(c.variant)?),
            dataset: intern(datasets, dataset_name),
            puzzle: f.num(c.puzzle_index, w)?,
            round: f.opt_num(c.round, w)?.unwrap_or(0),
            status,
            nodes: f.opt_num(c.nodes, w)?,
            guesses: f.opt_num(c.guesses, w)?,
            instructions: f.opt_num(c.instructions, w)?,
            solve_ns: f.num(ns_column, "a whole number of nanoseconds")?,
            solves: 1,
        };
        let n = *sizes
            .entry(dataset_name.to_string())
            .or_insert_with(|| puzzles_of(dataset_name));
        if per_solve {
            let _: u32 = f.num(s.repeat, w)?;
            let key = (p.variant, p.dataset, p.puzzle);
            match old.get(&key) {
                Some(&i) => gathered[i].add(p),
                None => {
                    old.insert(key, gathered.len());
                    gathered.push(Solves {
                        ns: vec![p.solve_ns],
                        first: p,
                    });
                }
            }
        } else {
            p.solves = f.num(c.solves, w)?;
            add.point(p, n);
        }
        Ok(())
    })?;
    data.notes.extend(t.finish()?);
    for g in gathered {
        let n = sizes[&datasets[g.first.dataset]];
        add.point(g.finish(), n);
    }
    data.points = add.keep.unwrap_or_default();
    for s in &mut data.series {
        s.solved.seal();
        s.timed.seal();
    }
    data.sampled = data
        .datasets
        .iter()
        .map(|d| sizes.get(d).copied().filter(|&n| n > SAMPLE))
        .collect();
    Ok(data)
}

/// True for a `results.csv` with a row per timed solve (older runs), false
/// for one with a row per puzzle; an error when its time columns are missing.
fn per_solve_columns(t: &Table, path: PathBuf) -> Result<bool, ReportError> {
    let (c, s) = (PuzzleResult::NAMES, SolveRecord::NAMES);
    let per_solve = !t.index.contains_key(c.median_ns) && t.index.contains_key(s.repeat);
    let times = if per_solve {
        [s.repeat, s.solve_ns]
    } else {
        [c.solves, c.median_ns]
    };
    if let Some(missing) = times.iter().find(|c| !t.index.contains_key(**c)) {
        let mut expected = RESULT_COLUMNS.to_vec();
        expected.extend(times);
        return Err(ReportError::MissingColumn {
            path,
            column: missing.to_string(),
            expected: expected.join(", "),
        });
    }
    Ok(per_solve)
}

impl Solves {
    /// Another solve of the puzzle; the puzzle's status is the heaviest
    /// (see [`RowStatus::weight`]), as the harness gives it now.
    fn add(&mut self, p: Point) {
        self.ns.push(p.solve_ns);
        if p.status.weight() > self.first.status.weight() {
            self.first.status = p.status;
        }
    }

    /// The puzzle's point: its median solve.
    fn finish(mut self) -> Point {
        self.ns.sort_unstable();
        self.first.solve_ns = crate::harness::summary::quantile(&self.ns, 0.5);
        self.first.solves = self.ns.len() as u32;
        self.first
    }
}

/// Adds each puzzle's point to its series (and keeps every point when asked).
struct Adder<'a> {
    at: HashMap<(usize, usize), usize>,
    series: &'a mut Vec<Series>,
    keep: Option<Vec<Point>>,
}

impl Adder<'_> {
    /// Adds `p`, a puzzle of a dataset of `n`, to its series.
    fn point(&mut self, p: Point, n: u64) {
        let series = &mut *self.series;
        let i = *self.at.entry((p.variant, p.dataset)).or_insert_with(|| {
            series.push(Series {
                variant: p.variant,
                dataset: p.dataset,
                ..Series::default()
            });
            series.len() - 1
        });
        let s = &mut series[i];
        s.rows += 1;
        if p.status.is_solved() {
            s.solved.push(p.solve_ns);
            if let (true, Some(nodes)) = (p.solve_ns > 0, p.nodes) {
                s.cost.0 += 1;
                s.cost.1 += u128::from(nodes);
                s.cost.2 += u128::from(p.solve_ns);
            }
        }
        if p.solve_ns > 0 {
            s.timed.push(p.solve_ns);
        }
        if n <= SAMPLE || mix(p.puzzle) % n < SAMPLE {
            s.sample.push(p.clone());
        }
        if let Some(kept) = &mut self.keep {
            kept.push(p);
        }
    }
}
