//! Studies: how each strategy's cost grows along one axis (clue count, grid
//! size). A point is a set of seeded puzzles of one size and one number of
//! givens, each a random complete grid with that many random cells kept, so
//! satisfiable by construction (the quasigroup-with-holes form). Each point is
//! run through the harness like any dataset, every answer checked, in rounds
//! that spread the machine's drift over the points; [`fit`] turns the points
//! into peaks and growth rates with bootstrap intervals.

pub mod analysis;
pub mod fit;
mod points;
mod resume;
pub mod session;
mod write;

pub use crate::generate::holes_puzzle;
pub use points::{clue_points, clue_range, point_puzzles, side_geometry, size_points, PointSpec};
pub use resume::{measured, resumable, Resumable, ResumeError, ShareLog};
pub use write::{write_outputs, StudyFile, StudyInfo, CSV, FILES, JSON, SHARES_CSV, SOLVES_CSV};

use crate::contender::{BenchPuzzle, Contender};
use crate::harness::plan::Measure;
use crate::harness::{
    self, BenchDataset, BenchOptions, Budget, Collected, Observer, RowStatus, Schedule, SolveRecord,
};
use crate::solver::{Mode, SolverId};
use fit::Obs;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::io;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

/// The axis a study sweeps.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Axis {
    /// Clue counts at one grid size.
    Clues,
    /// Grid sizes at one fraction of givens.
    Size,
}

impl Axis {
    /// The axis's name.
    pub fn name(self) -> &'static str {
        match self {
            Axis::Clues => "clues",
            Axis::Size => "size",
        }
    }
}

/// Why a study cannot run as asked.
#[derive(Debug, thiserror::Error)]
pub enum StudyError {
    /// The options describe no valid study (said before anything runs).
    #[error("{0}")]
    Options(String),
    /// No strategy of the study handles any of its sizes.
    #[error("no strategy of the study ({solvers}) handles {sizes}")]
    NoStrategy {
        /// The strategies asked for.
        solvers: String,
        /// The sizes asked for.
        sizes: String,
    },
    /// Writing the rows failed.
    #[error(transparent)]
    Io(#[from] io::Error),
    /// The study folder cannot be made or replaced.
    #[error(transparent)]
    RunDir(#[from] crate::export::run_dir::RunDirError),
    /// Another process writes into the study folder.
    #[error(transparent)]
    Lock(#[from] crate::lock::LockError),
    /// The study cut short cannot be read back.
    #[error(transparent)]
    Resume(#[from] Box<ResumeError>),
    /// The counted study under valgrind could not be made.
    #[error(transparent)]
    Valgrind(#[from] crate::valgrind::ValgrindError),
    /// The study failed as it was written into its folder.
    #[error("writing the study into {}", dir.display())]
    Writing {
        /// The study folder.
        dir: std::path::PathBuf,
        /// Why.
        #[source]
        source: Box<StudyError>,
    },
}

/// How to run a study: what `study.json` records (in the command line's
/// words) and `study resume` reads back.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StudyOptions {
    /// The axis swept.
    pub axis: Axis,
    /// The points, in order.
    pub points: Vec<PointSpec>,
    /// The strategies.
    #[serde(with = "crate::words::texts")]
    pub solvers: Vec<SolverId>,
    /// The modes each point is measured in.
    #[serde(with = "crate::words::texts")]
    pub modes: Vec<Mode>,
    /// Puzzles per point.
    #[serde(rename = "puzzles_per_point")]
    pub puzzles: usize,
    /// Seed of the puzzles.
    pub seed: u64,
    /// Worker threads.
    pub threads: usize,
    /// Per-puzzle node budget.
    #[serde(rename = "node_budget", with = "crate::words::text")]
    pub budget: Budget,
    /// Per-puzzle time limit.
    #[serde(rename = "time_limit_ms", with = "crate::words::millis")]
    pub time_limit: Option<Duration>,
    /// Timed solves of each puzzle (its median is kept).
    pub repeat: u32,
    /// Puzzles solved untimed before each strategy's timed pass over a point.
    pub warmup: usize,
    /// After a point whose median is censored (over the puzzles so far), run
    /// the strategy on no larger point (size studies).
    pub stop_after_censored: bool,
    /// Rounds the puzzles of every point are measured in (see [`run`]).
    pub rounds: usize,
    /// What is measured of each solve: its time, or (under callgrind) its
    /// instructions as well, which the findings are then about.
    #[serde(
        default,
        skip_serializing_if = "Measure::is_time",
        with = "crate::words::text"
    )]
    pub measure: Measure,
}

impl StudyOptions {
    /// What a study that counts instructions changes: one solve at a time,
    /// once (a count is the same on every pass), and no time limit, which
    /// would make the censored points depend on the machine; says each.
    pub fn count_instructions(&mut self) -> Vec<String> {
        let mut notes = Vec::new();
        self.measure = Measure::Instructions;
        if self.threads > 1 {
            notes.push(format!(
                "--measure instructions counts one solve at a time: 1 worker thread, not {}",
                self.threads
            ));
        }
        if let Some(t) = self.time_limit.take() {
            notes.push(format!(
                "--measure instructions: no time limit (a limit of {} ms would make what is censored depend on the machine); the node budget stops hard points",
                t.as_millis()
            ));
        }
        (self.threads, self.repeat) = (1, 1);
        notes
    }

    /// The costs the findings are about: instructions when the study counts
    /// them (its times are valgrind's), else time; search nodes; and, in a
    /// size study, the peak heap of a call, where it is watched (not while
    /// counting).
    pub fn costs(&self) -> Vec<analysis::Cost> {
        use analysis::Cost;
        match (self.measure, self.axis) {
            (Measure::Instructions, _) => vec![Cost::Instructions, Cost::Nodes],
            (_, Axis::Size) => vec![Cost::Time, Cost::Nodes, Cost::Memory],
            (_, Axis::Clues) => vec![Cost::Time, Cost::Nodes],
        }
    }
}

/// How a strategy fared at a point.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PointState {
    /// The median is known.
    Measured,
    /// Half or more of the solves hit a limit: the median is only bounded below.
    Censored,
    /// Not run: the strategy was censored at a smaller size.
    Skipped,
}

/// One row of `study.csv`: a strategy at one point, in one mode.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StudyRow {
    /// `clues` or `size`.
    pub axis: Axis,
    /// Grid size, like `9x9`.
    pub size: String,
    /// Grid side.
    pub side: usize,
    /// Cells of the grid.
    pub cells: usize,
    /// Givens of each puzzle.
    pub givens: usize,
    /// `first` or `unique`.
    pub mode: String,
    /// Strategy family.
    pub strategy: String,
    /// Variant.
    pub variant: String,
    /// See [`PointState`].
    pub state: PointState,
    /// Puzzles measured.
    pub puzzles: u64,
    /// Puzzles with a correct verdict.
    pub solved: u64,
    /// Puzzles stopped by the node budget or time limit.
    pub censored: u64,
    /// Puzzles whose answer failed a check.
    pub wrong: u64,
    /// Puzzles where the strategy failed.
    pub errors: u64,
    /// Puzzles whose verdict nothing could check (the reference search ran
    /// out of its budget): left out of the costs and of the one-solution share.
    #[serde(default)]
    pub unchecked: u64,
    /// Mode unique: share of the puzzles with a checked verdict that have exactly one solution, %.
    pub unique_pct: Option<f64>,
    /// Median time per puzzle, µs (a lower bound when censored).
    pub median_us: Option<f64>,
    /// 95% interval of the median, lower end, µs.
    pub median_lo_us: Option<f64>,
    /// Upper end (empty when unbounded: it falls on a censored solve).
    pub median_hi_us: Option<f64>,
    /// Median search nodes per puzzle (empty when the strategy does not count them).
    pub median_nodes: Option<f64>,
    /// 95% interval of the median nodes, lower end.
    pub nodes_lo: Option<f64>,
    /// Upper end.
    pub nodes_hi: Option<f64>,
    /// Median instructions per puzzle, when the study counts them.
    #[serde(default)]
    pub median_instructions: Option<f64>,
    /// 95% interval of the median instructions, lower end.
    #[serde(default)]
    pub instructions_lo: Option<f64>,
    /// Upper end.
    #[serde(default)]
    pub instructions_hi: Option<f64>,
    /// Median of the most heap bytes a call held at once (built-in
    /// strategies, when the heap is watched).
    #[serde(default)]
    pub median_heap_bytes: Option<f64>,
    /// 95% interval of the median heap, lower end.
    #[serde(default)]
    pub heap_lo: Option<f64>,
    /// Upper end.
    #[serde(default)]
    pub heap_hi: Option<f64>,
}

/// The costs behind one row, kept for the fits and peaks.
#[derive(Clone, Debug)]
pub struct Sample {
    /// Index of the point in [`StudyOptions::points`].
    pub point: usize,
    /// The mode.
    pub mode: String,
    /// The variant.
    pub variant: String,
    /// Time per puzzle, µs.
    pub times: Vec<Obs>,
    /// Nodes per puzzle (empty when not counted).
    pub nodes: Vec<Obs>,
    /// Instructions per puzzle (empty when not counted).
    pub instructions: Vec<Obs>,
    /// Peak heap bytes per puzzle (empty when not watched).
    pub heap: Vec<Obs>,
}

/// What a study measured.
#[derive(Clone, Debug, Default)]
pub struct StudyData {
    /// One row per point, mode and strategy, in run order.
    pub rows: Vec<StudyRow>,
    /// The costs behind the measured and censored rows.
    pub samples: Vec<Sample>,
    /// Strategies left out of points whose size they do not handle: `variant: sizes`.
    pub unhandled: Vec<String>,
    /// The study was interrupted; the rows hold the shares that finished.
    pub interrupted: bool,
}

/// The strategies of a study: those asked for, with a note for each that a
/// budget or time limit cannot stop (a hard point may take it unbounded
/// time); by default (`asked` false) only the given strategies that limits
/// can stop.
pub fn strategies(mut solvers: Vec<SolverId>, asked: bool) -> (Vec<SolverId>, Vec<String>) {
    if !asked {
        solvers.retain(|s| s.honours_limits());
        return (solvers, Vec::new());
    }
    let notes = solvers
        .iter()
        .filter(|s| !s.honours_limits())
        .map(|s| format!("{s} cannot be stopped by the node budget or time limit (its crate offers no hook): a hard point may take it unbounded time"))
        .collect();
    (solvers, notes)
}

/// Refuses a study whose strategies handle none of its sizes.
pub fn check_handled(opts: &StudyOptions) -> Result<(), StudyError> {
    if opts
        .points
        .iter()
        .any(|p| opts.solvers.iter().any(|s| s.supports(p.geometry())))
    {
        return Ok(());
    }
    let mut sizes: Vec<String> = Vec::new();
    for p in &opts.points {
        let name = p.geometry().name();
        if !sizes.contains(&name) {
            sizes.push(name);
        }
    }
    Err(StudyError::NoStrategy {
        solvers: names(&opts.solvers),
        sizes: sizes.join(", "),
    })
}

/// Runs a study in [`StudyOptions::rounds`] rounds: each round visits every
/// point and mode in turn and solves its share of the point's puzzles (puzzle
/// `i` in round `i mod R`), every strategy taking turns on each stretch; so a
/// slow spell of the machine is spread over the points instead of landing on
/// one. `on_records` hears each share's per-solve records as they are
/// measured (a file written from them keeps everything measured if the
/// process dies). An interrupted study summarises the shares that finished.
pub fn run(
    opts: &StudyOptions,
    cancel: &Arc<AtomicBool>,
    mut earlier: Measured,
    on_share: &mut dyn FnMut(Share, &[SolveRecord]) -> io::Result<()>,
    observer: &dyn Observer,
) -> Result<StudyData, StudyError> {
    if opts.points.is_empty() {
        return Err(StudyError::Options("the study has no points".into()));
    }
    check_handled(opts)?;
    let mut data = StudyData::default();
    for s in &opts.solvers {
        if opts.points.iter().any(|p| !s.supports(p.geometry())) {
            data.unhandled
                .push(format!("{}: {}", s.name(), sizes_of(*s)));
        }
    }
    let puzzles: Vec<Vec<BenchPuzzle>> = opts
        .points
        .iter()
        .map(|&p| point_puzzles(p, opts.puzzles, opts.seed))
        .collect();
    let rounds = opts.rounds.clamp(1, opts.puzzles.max(1));
    // Records per (point, mode); (variant, mode, side) where a variant was
    // censored: it runs on no larger side in that mode.
    let mut records: BTreeMap<(usize, usize), Vec<SolveRecord>> = BTreeMap::new();
    let mut stopped: Vec<(SolverId, usize, usize)> = Vec::new();
    'rounds: for round in 0..rounds {
        for (pi, &p) in opts.points.iter().enumerate() {
            let g = p.geometry();
            for (mi, &mode) in opts.modes.iter().enumerate() {
                let run_now: Vec<SolverId> = opts
                    .solvers
                    .iter()
                    .copied()
                    .filter(|s| s.supports(g) && !is_stopped(&stopped, *s, mi, p.side))
                    .collect();
                let share: Vec<BenchPuzzle> = puzzles[pi]
                    .iter()
                    .filter(|b| b.index as usize % rounds == round)
                    .cloned()
                    .collect();
                if run_now.is_empty() || share.is_empty() {
                    continue;
                }
                let key = Share {
                    point: pi,
                    mode: mi,
                    round,
                };
                if let Some(before) = earlier.remove(&key) {
                    // Measured before the study was cut short: taken as it is.
                    let here = records.entry((pi, mi)).or_default();
                    here.extend(before);
                    if opts.stop_after_censored {
                        note_censored(opts, (p, pi, mi), &run_now, here, &mut stopped);
                    }
                    continue;
                }
                let contenders: Vec<Contender> =
                    run_now.iter().map(|&s| Contender::from_id(s)).collect();
                let (ds, bench) = share_run(opts, p, mode, share);
                let mut sink = Collected::default();
                let result = harness::run(&contenders, &[ds], &bench, cancel, &mut sink, observer)?;
                if result.interrupted {
                    // The share in flight is incomplete: it is left out.
                    data.interrupted = true;
                    break 'rounds;
                }
                on_share(key, &sink.solves)?;
                let here = records.entry((pi, mi)).or_default();
                here.extend(sink.solves);
                if opts.stop_after_censored {
                    note_censored(opts, (p, pi, mi), &run_now, here, &mut stopped);
                }
            }
        }
    }
    tabulate(opts, &records, &stopped, &mut data);
    Ok(data)
}

/// True when `s` was stopped in mode `mi` on a side below `side`: it runs
/// on no larger side in that mode.
fn is_stopped(stopped: &[(SolverId, usize, usize)], s: SolverId, mi: usize, side: usize) -> bool {
    stopped
        .iter()
        .any(|&(t, m, at)| t == s && m == mi && side > at)
}

/// Each point's rows and samples, from its records; a skipped row where a
/// strategy was stopped before the point.
fn tabulate(
    opts: &StudyOptions,
    records: &BTreeMap<(usize, usize), Vec<SolveRecord>>,
    stopped: &[(SolverId, usize, usize)],
    data: &mut StudyData,
) {
    for (pi, &p) in opts.points.iter().enumerate() {
        for (mi, &mode) in opts.modes.iter().enumerate() {
            let mname = mode.to_string();
            let here = records.get(&(pi, mi)).map_or(&[][..], Vec::as_slice);
            for &s in opts.solvers.iter().filter(|s| s.supports(p.geometry())) {
                if here.iter().any(|r| &*r.variant == s.name()) {
                    let (row, sample) = summarise(opts.axis, p, pi, &mname, s, here);
                    data.rows.push(row);
                    data.samples.push(sample);
                } else if is_stopped(stopped, s, mi, p.side) {
                    data.rows.push(StudyRow {
                        state: PointState::Skipped,
                        ..empty_row(opts.axis, p, &mname, s)
                    });
                }
            }
        }
    }
}

/// One share's puzzles as a dataset of their own, and how the harness
/// measures them: the study's threads, limits and passes, one round.
fn share_run(
    opts: &StudyOptions,
    p: PointSpec,
    mode: Mode,
    share: Vec<BenchPuzzle>,
) -> (BenchDataset, BenchOptions) {
    let g = p.geometry();
    let ds = BenchDataset::in_memory(
        p.name(),
        format!(
            "study:{}:seed={}:side={}:givens={}",
            opts.axis.name(),
            opts.seed,
            p.side,
            p.givens
        ),
        g,
        share,
    );
    let bench = BenchOptions {
        threads: opts.threads,
        mode,
        budget: opts.budget,
        time_limit: opts.time_limit,
        cpu_limit: None,
        warmup: opts.warmup,
        repeat: opts.repeat,
        rounds: 1,
        min_time: None,
        schedule: Schedule::Interleaved,
        stretch: None,
        reference: None,
        pin: false,
    };
    (ds, bench)
}

/// One share of a study: a point and a mode (indices into the options) in a round.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Share {
    /// Index into [`StudyOptions::points`].
    pub point: usize,
    /// Index into [`StudyOptions::modes`].
    pub mode: usize,
    /// The round.
    pub round: usize,
}

/// Shares a study measured before it was cut short, with their solves: a
/// resumed study takes them as they are and measures the rest.
pub type Measured = BTreeMap<Share, Vec<SolveRecord>>;

/// Marks each of `run_now` whose median at point `p` was censored: it runs
/// at no larger side in this mode.
fn note_censored(
    opts: &StudyOptions,
    (p, pi, mi): (PointSpec, usize, usize),
    run_now: &[SolverId],
    here: &[SolveRecord],
    stopped: &mut Vec<(SolverId, usize, usize)>,
) {
    let mode = opts.modes[mi].to_string();
    for &s in run_now {
        let (row, _) = summarise(opts.axis, p, pi, &mode, s, here);
        if row.state == PointState::Censored && !stopped.contains(&(s, mi, p.side)) {
            stopped.push((s, mi, p.side));
        }
    }
}

fn names(solvers: &[SolverId]) -> String {
    solvers
        .iter()
        .map(|s| s.name())
        .collect::<Vec<_>>()
        .join(", ")
}

fn sizes_of(s: SolverId) -> String {
    s.sizes()
        .iter()
        .map(|n| format!("{n}x{n}"))
        .collect::<Vec<_>>()
        .join(", ")
}

fn empty_row(axis: Axis, p: PointSpec, mode: &str, s: SolverId) -> StudyRow {
    StudyRow {
        axis,
        size: p.geometry().name(),
        side: p.side,
        cells: p.side * p.side,
        givens: p.givens,
        mode: mode.to_string(),
        strategy: s.strategy().to_string(),
        variant: s.name().to_string(),
        state: PointState::Measured,
        puzzles: 0,
        solved: 0,
        censored: 0,
        wrong: 0,
        errors: 0,
        unchecked: 0,
        unique_pct: None,
        median_us: None,
        median_lo_us: None,
        median_hi_us: None,
        median_nodes: None,
        nodes_lo: None,
        nodes_hi: None,
        median_instructions: None,
        instructions_lo: None,
        instructions_hi: None,
        median_heap_bytes: None,
        heap_lo: None,
        heap_hi: None,
    }
}

/// The lower median of `values`, `None` when there are none.
fn lower_median(values: impl Iterator<Item = u64>) -> Option<f64> {
    let mut v: Vec<u64> = values.collect();
    v.sort_unstable();
    v.get(v.len().checked_sub(1)? / 2).map(|&x| x as f64)
}

/// A row's medians and their intervals, from each puzzle's time, nodes,
/// instructions and heap.
fn medians(row: &mut StudyRow, [times, nodes, instructions, heap]: [&[Obs]; 4]) {
    if let Some(m) = fit::median(times) {
        row.state = if m.known {
            PointState::Measured
        } else {
            PointState::Censored
        };
        row.median_us = Some(m.value);
        row.median_lo_us = Some(m.lo);
        row.median_hi_us = m.hi;
    }
    if let Some(m) = fit::median(nodes) {
        row.median_nodes = Some(m.value);
        row.nodes_lo = Some(m.lo);
        row.nodes_hi = m.hi;
    }
    if let Some(m) = fit::median(instructions) {
        row.median_instructions = Some(m.value);
        row.instructions_lo = Some(m.lo);
        row.instructions_hi = m.hi;
    }
    if let Some(m) = fit::median(heap) {
        row.median_heap_bytes = Some(m.value);
        row.heap_lo = Some(m.lo);
        row.heap_hi = m.hi;
    }
}

/// One strategy's row and costs at a point, from the point's records: each
/// puzzle's median over its repeats; a wrong or failed solve is no cost.
fn summarise(
    axis: Axis,
    p: PointSpec,
    pi: usize,
    mode: &str,
    s: SolverId,
    records: &[SolveRecord],
) -> (StudyRow, Sample) {
    let mut by_puzzle: BTreeMap<u64, Vec<&SolveRecord>> = BTreeMap::new();
    for r in records.iter().filter(|r| &*r.variant == s.name()) {
        by_puzzle.entry(r.puzzle_index).or_default().push(r);
    }
    let mut row = empty_row(axis, p, mode, s);
    let (mut times, mut nodes, mut instructions) = (Vec::new(), Vec::new(), Vec::new());
    let mut heap = Vec::new();
    let (mut unique, mut multiple) = (0u64, 0u64);
    for reps in by_puzzle.values() {
        row.puzzles += 1;
        if reps.iter().any(|r| r.status == RowStatus::Error) {
            row.errors += 1;
            continue;
        }
        if reps.iter().any(|r| r.status == RowStatus::Wrong) {
            row.wrong += 1;
            continue;
        }
        if reps.iter().any(|r| r.status == RowStatus::Unchecked) {
            row.unchecked += 1;
            continue;
        }
        let censored = reps.iter().any(|r| r.status.is_budget());
        if censored {
            row.censored += 1;
        } else {
            row.solved += 1;
            match reps[0].status {
                RowStatus::Unique => unique += 1,
                RowStatus::Multiple => multiple += 1,
                _ => {}
            }
        }
        let mut ns: Vec<u64> = reps.iter().map(|r| r.solve_ns).collect();
        ns.sort_unstable();
        times.push(Obs {
            value: ns[(ns.len() - 1) / 2] as f64 / 1e3,
            censored,
        });
        for (costs, of) in [
            (
                &mut instructions,
                (|r| r.instructions) as fn(&SolveRecord) -> Option<u64>,
            ),
            (&mut heap, |r| r.heap_bytes),
        ] {
            if let Some(value) = lower_median(reps.iter().filter_map(|r| of(r))) {
                costs.push(Obs { value, censored });
            }
        }
        if s.counts_search() {
            if let Some(n) = reps[0].nodes {
                nodes.push(Obs {
                    value: n as f64,
                    censored,
                });
            }
        }
    }
    if mode.parse() == Ok(Mode::Unique) && unique + multiple > 0 {
        row.unique_pct = Some(100.0 * unique as f64 / (unique + multiple) as f64);
    }
    medians(&mut row, [&times, &nodes, &instructions, &heap]);
    let sample = Sample {
        point: pi,
        mode: mode.to_string(),
        variant: s.name().to_string(),
        times,
        nodes,
        instructions,
        heap,
    };
    (row, sample)
}

#[cfg(test)]
mod tests;
