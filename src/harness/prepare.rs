//! Datasets as a run sees them: selected (`--limit`, `--sample`), optionally
//! permuted, givens checked once, with the facts `run.json` records.

use super::verdicts::{limit_for, reference_of, Cached, VerdictCost, VerdictOptions, Verdicts};
use crate::contender::Reference;
use crate::contender::{BenchPuzzle, Contender};
use crate::format::{Alphabet, Dataset, ReadOptions};
use crate::grid::Geometry;
use crate::seeded::stream;
use crate::solver::Mode;
use crate::transform::Transform;
use crate::validate::find_flaw;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::io;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

/// What `run.json` says of a dataset.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct DatasetInfo {
    /// Name used in records.
    pub name: String,
    /// Path, `<stdin>` or `embedded:NAME`.
    pub source: String,
    /// Grid size, like `9x9`.
    pub size: String,
    /// Bytes of the source.
    pub bytes: u64,
    /// SHA-256 of the source bytes, hex.
    pub sha256: String,
    /// Puzzles in the source.
    pub puzzles_in_source: u64,
    /// Puzzles the run used.
    pub puzzles_run: u64,
    /// Bad entries skipped (`--skip-invalid`).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub skipped: u64,
    /// Pencilmark puzzles in the source.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub pencilmarks: u64,
    /// Rounds the dataset is measured in: the run's `--rounds`, or fewer on
    /// a dataset too small for them (see [`super::rounds_for`]); absent in
    /// older runs and before a bench plans it (see [`super::RunInfo::rounds_of`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rounds: Option<usize>,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// A dataset ready to run: its puzzles in memory, or (a file too large to
/// hold) read again in windows for each use (see [`BenchDataset::for_each_window`]).
#[derive(Clone, Debug)]
pub struct BenchDataset {
    /// Name used in records.
    pub name: String,
    /// Alphabet for writing puzzles.
    pub alphabet: Alphabet,
    /// Grid size of every puzzle.
    pub geometry: Geometry,
    /// True when some puzzle has pencilmarks (only contenders that take them run it).
    pub pencilmarks: bool,
    /// The puzzles, in file order (empty when streamed).
    pub puzzles: Vec<BenchPuzzle>,
    /// Facts for `run.json`.
    pub info: DatasetInfo,
    /// Where a streamed dataset is read from.
    streamed: Option<Streamed>,
    /// Reference verdicts by position in the file, once attached.
    verdicts: Option<Arc<Verdicts>>,
    /// Puzzles (by position in the file) a resumed run has measured already: left out.
    done: Option<Arc<Bits>>,
}

/// A file read again for each pass, a window at a time.
#[derive(Clone, Debug)]
struct Streamed {
    path: std::path::PathBuf,
    /// The input's name in errors (`path` may be its copy in a store).
    name: String,
    /// The store `path` lies in, for an input that cannot be opened again.
    store: Option<Arc<super::store::Store>>,
    opts: ReadOptions,
    sel: Selection,
    total: usize,
    window: usize,
}

/// Most puzzles a run holds at once: a larger file is streamed, in windows of
/// half this many, the next read while the last is solved.
pub const WINDOW: usize = 1 << 16;

/// Chooses puzzles in one pass, in file order: a seeded selection sample
/// (Knuth's algorithm S: each puzzle is taken with probability
/// wanted-left / puzzles-left, so exactly `sample` are taken) then `limit`.
struct Selector {
    rng: rand_chacha::ChaCha8Rng,
    want: usize,
    total: usize,
    seen: usize,
    taken: usize,
    limit: usize,
}

impl Selector {
    fn new(sel: &Selection, total: usize) -> Selector {
        Selector {
            rng: stream(sel.seed, u64::MAX),
            want: sel.sample.unwrap_or(total).min(total),
            total,
            seen: 0,
            taken: 0,
            limit: sel.limit.unwrap_or(usize::MAX),
        }
    }

    /// How many will be taken in all.
    fn count(&self) -> usize {
        self.want.min(self.limit)
    }

    /// Whether the next puzzle is taken.
    fn take(&mut self) -> bool {
        use rand::Rng;
        let left = self.total - self.seen;
        self.seen += 1;
        if self.taken >= self.count() || left == 0 {
            return false;
        }
        let chosen =
            self.want == self.total || self.rng.gen_range(0..left) < self.want - self.taken;
        self.taken += usize::from(chosen);
        chosen
    }

    /// True when nothing more will be taken.
    fn done(&self) -> bool {
        self.taken >= self.count()
    }
}

/// A puzzle of a run: permuted if asked, its givens checked.
fn bench_puzzle(
    p: crate::format::Puzzle,
    index: usize,
    g: Geometry,
    sel: &Selection,
) -> BenchPuzzle {
    let (mut grid, mut expected) = (p.grid, p.expected);
    if sel.permute {
        let t = Transform::random(g, &mut stream(sel.seed, index as u64));
        grid = t.apply(&grid);
        expected = expected.map(|e| t.apply(&e));
    }
    let invalid = find_flaw(&grid).is_some();
    BenchPuzzle {
        index: index as u64,
        grid,
        expected,
        invalid,
        reference: Default::default(),
    }
}

impl BenchDataset {
    /// True when `c` runs on this dataset: its size, and its pencilmarks if
    /// it has any.
    pub fn admits(&self, c: &Contender) -> bool {
        c.supports(self.geometry) && (c.pencilmark || !self.pencilmarks)
    }

    /// Prepares a dataset read from `source_bytes` (for the checksum and size).
    pub fn prepare(ds: Dataset, bytes: u64, sha256: String, sel: &Selection) -> BenchDataset {
        let total = ds.puzzles.len();
        let geometry = ds.geometry;
        let mut chooser = Selector::new(sel, total);
        let mut puzzles: Vec<BenchPuzzle> = Vec::with_capacity(chooser.count());
        for (i, p) in ds.puzzles.into_iter().enumerate() {
            if chooser.take() {
                puzzles.push(bench_puzzle(p, i, geometry, sel));
            }
        }
        BenchDataset {
            info: DatasetInfo {
                name: ds.name.clone(),
                source: ds.source.clone(),
                size: geometry.name(),
                bytes,
                sha256,
                puzzles_in_source: total as u64,
                puzzles_run: puzzles.len() as u64,
                skipped: ds.skipped as u64,
                pencilmarks: ds.pencilmarks as u64,
                rounds: None,
            },
            name: ds.name,
            alphabet: ds.alphabet,
            geometry,
            pencilmarks: ds.pencilmarks > 0,
            puzzles,
            streamed: None,
            verdicts: None,
            done: None,
        }
    }

    /// A dataset made in memory (a study's point): its puzzles as given, their
    /// givens checked; `source` says how they were made.
    pub fn in_memory(
        name: String,
        source: String,
        geometry: Geometry,
        puzzles: Vec<BenchPuzzle>,
    ) -> BenchDataset {
        let puzzles: Vec<BenchPuzzle> = puzzles
            .into_iter()
            .map(|mut p| {
                p.invalid = find_flaw(&p.grid).is_some();
                p
            })
            .collect();
        let pencilmarks = puzzles.iter().filter(|p| p.grid.is_pencilmark()).count();
        // Positions run up to the source's last: a share of a study's point
        // holds puzzles 0, 5, 10, … of it, and verdicts are kept by position.
        let in_source = puzzles.iter().map(|p| p.index + 1).max().unwrap_or(0);
        BenchDataset {
            info: DatasetInfo {
                name: name.clone(),
                source,
                size: geometry.name(),
                bytes: 0,
                sha256: String::new(),
                puzzles_in_source: in_source.max(puzzles.len() as u64),
                puzzles_run: puzzles.len() as u64,
                skipped: 0,
                pencilmarks: pencilmarks as u64,
                rounds: None,
            },
            name,
            alphabet: Alphabet::default_for(geometry),
            geometry,
            pencilmarks: pencilmarks > 0,
            puzzles,
            streamed: None,
            verdicts: None,
            done: None,
        }
    }

    /// A dataset too large to hold, checked already (`ds` has its `count` and
    /// no puzzles): each use reads `path` again, a window at a time.
    pub fn streamed(
        ds: Dataset,
        path: &std::path::Path,
        opts: &ReadOptions,
        bytes: u64,
        sha256: String,
        sel: &Selection,
    ) -> BenchDataset {
        let total = ds.count;
        let run = Selector::new(sel, total).count();
        BenchDataset {
            info: DatasetInfo {
                name: ds.name.clone(),
                source: ds.source.clone(),
                size: ds.geometry.name(),
                bytes,
                sha256,
                puzzles_in_source: total as u64,
                puzzles_run: run as u64,
                skipped: ds.skipped as u64,
                pencilmarks: ds.pencilmarks as u64,
                rounds: None,
            },
            name: ds.name,
            alphabet: ds.alphabet,
            geometry: ds.geometry,
            pencilmarks: ds.pencilmarks > 0,
            puzzles: Vec::new(),
            streamed: Some(Streamed {
                path: path.to_path_buf(),
                name: ds.source.clone(),
                store: None,
                opts: opts.clone(),
                sel: sel.clone(),
                total,
                window: WINDOW / 2,
            }),
            verdicts: None,
            done: None,
        }
    }

    /// Streams in windows of `window` puzzles instead of half [`WINDOW`] (no
    /// effect on a dataset held in memory).
    pub fn with_window(mut self, window: usize) -> BenchDataset {
        if let Some(st) = &mut self.streamed {
            st.window = window.max(1);
        }
        self
    }

    /// Keeps `store`, which a streamed dataset's file lies in, as long as
    /// the dataset (or a copy of it) lives.
    pub(super) fn kept_in(mut self, store: Option<Arc<super::store::Store>>) -> BenchDataset {
        if let Some(st) = &mut self.streamed {
            st.store = store;
        }
        self
    }

    /// The reference verdicts, once attached (see [`attach_verdicts`]).
    pub fn verdicts(&self) -> Option<&Verdicts> {
        self.verdicts.as_deref()
    }

    /// Attaches reference verdicts: each puzzle held gets its own now, each
    /// puzzle streamed as its window is read.
    pub fn set_verdicts(&mut self, v: Arc<Verdicts>) {
        for p in &mut self.puzzles {
            p.reference = v.get(p.index);
        }
        self.verdicts = Some(v);
    }

    /// Leaves out the puzzles `done` marks (by position in the file): what a
    /// resumed run measured before. The rounds the others fall in do not change.
    pub fn without(mut self, done: Bits) -> BenchDataset {
        self.done = Some(Arc::new(done));
        self
    }

    /// True when the puzzles are read from the file for each use.
    pub fn is_streamed(&self) -> bool {
        self.streamed.is_some()
    }

    /// Puzzles the run uses.
    pub fn len(&self) -> usize {
        match self.streamed {
            Some(_) => self.info.puzzles_run as usize,
            None => self.puzzles.len(),
        }
    }

    /// True without puzzles.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Hands the run's puzzles to `f` in file order, at most [`WINDOW`] at a
    /// time: the whole set at once when it is held in memory, else window by
    /// window from a fresh read of the file. `f` returns false to stop early.
    pub fn for_each_window(
        &self,
        f: &mut dyn FnMut(&[BenchPuzzle]) -> std::io::Result<bool>,
    ) -> std::io::Result<()> {
        self.for_each_window_in(0, 1, f)
    }

    /// [`BenchDataset::for_each_window`] over one round's share: the run's
    /// puzzles at positions `i` (in run order) with `i mod rounds == round`.
    /// A streamed file is read whole, but only that share is prepared.
    pub fn for_each_window_in(
        &self,
        round: usize,
        rounds: usize,
        f: &mut dyn FnMut(&[BenchPuzzle]) -> std::io::Result<bool>,
    ) -> std::io::Result<()> {
        let rounds = rounds.max(1);
        let done = self.done.as_deref();
        let left = |p: &BenchPuzzle| done.is_none_or(|d| !d.get(p.index));
        let Some(st) = &self.streamed else {
            if rounds == 1 && done.is_none() {
                f(&self.puzzles)?;
            } else {
                let mine: Vec<BenchPuzzle> = self
                    .puzzles
                    .iter()
                    .skip(round)
                    .step_by(rounds)
                    .filter(|p| left(p))
                    .cloned()
                    .collect();
                if !mine.is_empty() {
                    f(&mine)?;
                }
            }
            return Ok(());
        };
        // A thread of its own reads and prepares the next window while `f`
        // runs the current one: one window is solved while the next is filled
        // (and waits to be taken).
        let (tx, rx) = std::sync::mpsc::sync_channel::<Vec<BenchPuzzle>>(0);
        let stop = std::sync::atomic::AtomicBool::new(false);
        let g = self.geometry;
        std::thread::scope(|scope| {
            let (verdicts, stop_ref) = (self.verdicts.as_deref(), &stop);
            let share = Share {
                round,
                rounds,
                done,
            };
            let reader = scope.spawn(move || read_windows(st, g, verdicts, share, stop_ref, tx));
            let mut failure = None;
            for window in rx.iter() {
                match f(&window) {
                    Ok(true) => {}
                    Ok(false) => break,
                    Err(e) => {
                        failure = Some(e);
                        break;
                    }
                }
            }
            stop.store(true, std::sync::atomic::Ordering::Relaxed);
            drop(rx);
            let read = reader
                .join()
                .unwrap_or_else(|_| Err(std::io::Error::other("the dataset reader panicked")));
            match failure {
                Some(e) => Err(e),
                None => read,
            }
        })
    }
}

/// One round's share of a dataset: positions `i` (in run order) with
/// `i mod rounds == round`, less the puzzles `done` marks.
#[derive(Clone, Copy)]
struct Share<'a> {
    round: usize,
    rounds: usize,
    done: Option<&'a Bits>,
}

/// Reads a streamed dataset's share for one round and sends it a window at a
/// time, until the file ends, `stop` is raised or nobody listens.
fn read_windows(
    st: &Streamed,
    g: Geometry,
    verdicts: Option<&Verdicts>,
    share: Share<'_>,
    stop: &std::sync::atomic::AtomicBool,
    tx: std::sync::mpsc::SyncSender<Vec<BenchPuzzle>>,
) -> std::io::Result<()> {
    let file = std::fs::File::open(&st.path)?;
    let mut chooser = Selector::new(&st.sel, st.total);
    let (mut index, mut position) = (0usize, 0usize);
    let mut window = Vec::with_capacity(st.window);
    let mut each = |chunk: Vec<crate::format::Puzzle>, _: &Alphabet| -> bool {
        for p in chunk {
            if chooser.take() {
                let left = share.done.is_none_or(|d| !d.get(index as u64));
                if position % share.rounds == share.round && left {
                    let mut p = bench_puzzle(p, index, g, &st.sel);
                    if let Some(v) = verdicts {
                        p.reference = v.get(p.index);
                    }
                    window.push(p);
                }
                position += 1;
            }
            index += 1;
            if window.len() == st.window || (chooser.done() && !window.is_empty()) {
                let full = std::mem::replace(&mut window, Vec::with_capacity(st.window));
                if tx.send(full).is_err() {
                    return false;
                }
            }
            if chooser.done() || stop.load(std::sync::atomic::Ordering::Relaxed) {
                return false;
            }
        }
        true
    };
    crate::format::read_chunks(&st.name, file, &st.opts, st.window.min(4096), &mut each)
        .map_err(std::io::Error::other)?;
    // (A window handed on is replaced, so a stopped read leaves none here.)
    if !window.is_empty() && !stop.load(std::sync::atomic::Ordering::Relaxed) {
        let _ = tx.send(window);
    }
    Ok(())
}

/// Which puzzles to run, and how.
#[derive(Clone, Debug, Default)]
pub struct Selection {
    /// Keep a random sample of this many (file order kept).
    pub sample: Option<usize>,
    /// Then keep the first this many.
    pub limit: Option<usize>,
    /// Apply a random symmetry to each puzzle.
    pub permute: bool,
    /// Seed for sampling and permutation.
    pub seed: u64,
}

/// One bit per puzzle of a dataset file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Bits(Vec<u64>);

impl Bits {
    /// Sets bit `i`.
    pub fn set(&mut self, i: u64) {
        let (w, b) = ((i / 64) as usize, i % 64);
        if self.0.len() <= w {
            self.0.resize(w + 1, 0);
        }
        self.0[w] |= 1 << b;
    }

    /// True when bit `i` is set.
    pub fn get(&self, i: u64) -> bool {
        self.0
            .get((i / 64) as usize)
            .is_some_and(|w| w & (1 << (i % 64)) != 0)
    }

    pub(super) fn and(&mut self, other: &Bits) {
        self.0.truncate(other.0.len());
        for (a, b) in self.0.iter_mut().zip(&other.0) {
            *a &= b;
        }
    }

    /// Bits set.
    pub fn count(&self) -> u64 {
        self.0.iter().map(|w| u64::from(w.count_ones())).sum()
    }
}

/// Gives every puzzle of `datasets` its reference verdict for `mode`: from the
/// cache where it holds them, else searched now, in parallel (and then
/// cached). A dataset without a checksum (made in memory) is never cached.
/// Puzzles whose givens conflict need none. The cancel flag stops the search:
/// what is left stays [`Reference::Unknown`].
pub fn attach_verdicts(
    datasets: &mut [BenchDataset],
    mode: Mode,
    opts: &VerdictOptions,
    cancel: &Arc<AtomicBool>,
) -> io::Result<VerdictCost> {
    let started = Instant::now();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(opts.threads.max(1))
        .build()
        .map_err(io::Error::other)?;
    let limit = limit_for(mode);
    let mut cost = VerdictCost::default();
    for ds in datasets.iter_mut() {
        if ds.verdicts().is_some_and(|v| v.limit() == limit) {
            continue;
        }
        let n = ds.info.puzzles_in_source as usize;
        let path = (!ds.info.sha256.is_empty())
            .then_some(opts.cache.as_ref())
            .flatten()
            .map(|dir| dir.join(format!("{}-{limit}.bin", ds.info.sha256)));
        let cached = path
            .as_deref()
            .map_or(Cached::Absent, |p| Verdicts::load(p, limit, n));
        let mut verdicts = match cached {
            Cached::Found(v) => v,
            Cached::Damaged(why) => {
                cost.notes.push(format!(
                    "the cached reference verdicts {why}: not trusted, searched again"
                ));
                Verdicts::new(limit, opts.budget, n)
            }
            Cached::Absent | Cached::Other => Verdicts::new(limit, opts.budget, n),
        };
        let (mut computed, mut undecided) = (0u64, 0u64);
        let mut fill = |window: &[crate::contender::BenchPuzzle]| -> io::Result<bool> {
            let todo: Vec<usize> = (0..window.len())
                .filter(|&i| !window[i].invalid && verdicts.missing(window[i].index, opts.budget))
                .collect();
            let found: Vec<Reference> = pool.install(|| {
                todo.par_iter()
                    .map(|&i| reference_of(&window[i].grid, limit, opts.budget, cancel))
                    .collect()
            });
            for (&i, r) in todo.iter().zip(found) {
                if !cancel.load(Ordering::Relaxed) {
                    verdicts.set(window[i].index, r);
                }
            }
            computed += todo.len() as u64;
            for p in window.iter().filter(|p| !p.invalid) {
                cost.puzzles += 1;
                undecided += u64::from(verdicts.get(p.index) == Reference::Undecided);
            }
            Ok(!cancel.load(Ordering::Relaxed))
        };
        ds.for_each_window(&mut fill)?;
        if cancel.load(Ordering::Relaxed) {
            return Ok(cost);
        }
        verdicts.budget = verdicts.budget.max(opts.budget);
        cost.computed += computed;
        if let (Some(p), true) = (&path, computed > 0) {
            // A cache that cannot be written costs the next run the search, nothing more.
            let _ = verdicts.save(p);
        }
        ds.set_verdicts(Arc::new(verdicts));
        cost.undecided += undecided;
    }
    cost.seconds = started.elapsed().as_secs_f64();
    Ok(cost)
}
