//! The workers' loop and the writer behind it.
//!
//! A pass hands a window's puzzles out in *stretches* of consecutive puzzles.
//! A worker takes the next free stretch and solves it with every contender in
//! turn, the first to go rotating from stretch to stretch, then takes another:
//! contenders alternate within milliseconds on every worker, so drift hits
//! them alike, and no worker ever waits for another. Each answer is checked on
//! the worker, after its clock stops; the checked solves go to the calling
//! thread a stretch at a time, in batches, and it adds them to each
//! contender's [`Tally`] (and makes the kept solves' records) while the
//! workers go on.
//!
//! Kept solves therefore come stretch by stretch, in the order the stretches
//! were finished; within a stretch, contender after contender in the order
//! they ran, and each contender's solves in file order.

use super::tally::{Solve, Tally};
use super::{
    BenchDataset, BenchOptions, Budget, Observer, RecordSink, RowEncoder, RowStatus, SolveRecord,
};
use crate::contender::{check, BenchPuzzle, Contender, Job, Solved, Verdict};
use crate::solver::Outcome;
use rayon::prelude::*;
use std::io;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{sync_channel, Receiver, SyncSender, TryRecvError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// One pass: some contenders over a window, stretch by stretch.
pub(super) struct Pass<'a> {
    /// Every contender of the dataset.
    pub cs: &'a [&'a Contender],
    /// Those taking part in this pass (indices into `cs`), in turn order.
    pub taking: &'a [usize],
    /// The window's puzzles.
    pub puzzles: &'a [BenchPuzzle],
    /// Puzzles per stretch.
    pub stretch: usize,
    /// Rotation of stretch 0: stretch `k` starts with `taking[(turn + k) % len]`.
    pub turn: usize,
    /// Round and repeat, for the records.
    pub round: u32,
    /// See `round`.
    pub repeat: u32,
}

impl Pass<'_> {
    /// Stretches in the pass.
    pub fn stretches(&self) -> usize {
        self.puzzles.len().div_ceil(self.stretch.max(1))
    }

    /// Workers the pass keeps busy: no more than it has stretches.
    fn workers(&self, opts: &BenchOptions) -> usize {
        opts.threads.max(1).min(self.stretches())
    }
}

/// The node budget a contender's solves get in this run.
fn budget(c: &Contender, opts: &BenchOptions) -> Option<u64> {
    match opts.budget {
        Budget::StrategyDefault => c.default_budget,
        Budget::Unlimited => None,
        Budget::Nodes(n) => Some(n),
    }
}

/// Runs `pass` on the current pool (called from inside it): `init` makes each
/// worker's state, `each` takes every answer as `(contender, slot, solved)`
/// (a puzzle whose givens conflict gets an unsolved `invalid` answer), and
/// `end` runs after each stretch. Returns what each contender used: its busy
/// time and its workers' CPU time in it, summed over the workers, and the
/// most heap one call of an in-process engine held (where the process's
/// allocator can tell, and no instructions are counted).
#[allow(clippy::too_many_arguments)]
fn share_out<W>(
    pass: &Pass<'_>,
    opts: &BenchOptions,
    cancel: &Arc<AtomicBool>,
    init: impl Fn() -> W + Sync,
    each: impl Fn(&mut W, usize, usize, Solved) + Sync,
    end: impl Fn(&mut W) + Sync,
) -> Vec<PassUse> {
    let (cs, puzzles, stretch) = (pass.cs, pass.puzzles, pass.stretch.max(1));
    // Heap watched in calls made in this process, unless they are counted
    // (the watch would add its instructions to theirs).
    let heap = !crate::callgrind::counting() && crate::callgrind::counts_heap();
    let in_process: Vec<bool> = cs.iter().map(|c| c.engine.solve_fn().is_some()).collect();
    // A contender whose rows time its calls (a built-in, a library in its
    // host) has those calls as its own time: handing out each puzzle and
    // reading the clock around it, the pipe, a host's reading and writing
    // and an untimed fetch of a solution are the workbench's. A program's
    // rows time its round trips, and its own time is its loop.
    let by_calls: Vec<bool> = cs
        .iter()
        .map(|c| c.timing == crate::contender::Timing::Call)
        .collect();
    let count = pass.stretches();
    let jobs: Vec<Job<'_>> = cs
        .iter()
        .map(|c| Job {
            puzzles,
            mode: opts.mode,
            node_budget: budget(c, opts),
            time_limit: opts.time_limit,
            cpu_limit: opts.cpu_limit,
            cancel,
            pin: opts.pin,
        })
        .collect();
    let counter = AtomicUsize::new(0);
    let busy = Mutex::new(vec![PassUse::default(); cs.len()]);
    let cpus = if opts.pin {
        crate::usage::allowed_cpus()
    } else {
        Vec::new()
    };
    (0..pass.workers(opts)).into_par_iter().for_each(|_| {
        // With --pin, worker i keeps to the i-th processor the run may use.
        if let (Some(i), false) = (rayon::current_thread_index(), cpus.is_empty()) {
            crate::usage::pin(0, cpus[i % cpus.len()]);
        }
        let mut state = init();
        let mut mine = vec![PassUse::default(); cs.len()];
        // A contender's answers over a stretch, kept as they come and
        // checked once its clock has stopped: its loop holds nothing but
        // handing out the puzzle, the timed call and this push.
        let held = std::cell::RefCell::new(Vec::<(usize, Solved)>::with_capacity(stretch));
        loop {
            let k = counter.fetch_add(1, Ordering::Relaxed);
            if k >= count || cancel.load(Ordering::Relaxed) {
                break;
            }
            let slots = k * stretch..((k + 1) * stretch).min(puzzles.len());
            for j in 0..pass.taking.len() {
                let ci = pass.taking[(pass.turn + k + j) % pass.taking.len()];
                let mut at = slots.start;
                let mut next = || loop {
                    if at >= slots.end || cancel.load(Ordering::Relaxed) {
                        return None;
                    }
                    let slot = at;
                    at += 1;
                    if !puzzles[slot].invalid {
                        return Some(slot);
                    }
                    let s = Solved {
                        result: Ok(Outcome::invalid()),
                        ns: 0,
                        nodes: Some(0),
                        guesses: Some(0),
                        own_ns: None,
                        counts: Default::default(),
                        at: Instant::now(),
                        note: None,
                        memory: false,
                    };
                    held.borrow_mut().push((slot, s));
                };
                let mut done = |slot, s| held.borrow_mut().push((slot, s));
                let watch = (heap && in_process[ci]).then(crate::callgrind::watch_heap);
                // The thread's CPU clock (a system call) is read once a
                // stretch, outside the busy time, and over its own span.
                let outer = Instant::now();
                let cpu = crate::usage::thread_cpu();
                let started = Instant::now();
                cs[ci].engine.work(&jobs[ci], &mut next, &mut done);
                let busy = started.elapsed();
                let cpu = crate::usage::thread_cpu().saturating_sub(cpu);
                let m = &mut mine[ci];
                m.busy += busy;
                m.own += match by_calls[ci] {
                    true => Duration::from_nanos(held.borrow().iter().map(|(_, s)| s.ns).sum()),
                    false => busy,
                };
                m.cpu += cpu;
                m.span += outer.elapsed();
                if let Some(w) = watch {
                    m.heap_bytes = m.heap_bytes.max(Some(w.peak()));
                }
                // Off the clock: each answer checked and handed on.
                for (slot, s) in held.borrow_mut().drain(..) {
                    each(&mut state, ci, slot, s);
                }
            }
            end(&mut state);
        }
        let mut busy = crate::sync::lock(&busy);
        for (b, m) in busy.iter_mut().zip(&mine) {
            b.add(m);
        }
    });
    crate::sync::into_inner(busy)
}

/// Solves the first `--warmup` puzzles of `window` with each contender,
/// unrecorded; returns the fastest contender's wall time per puzzle (which
/// sizes the interleaved stretches), `Duration::MAX` without a warm-up.
pub(super) fn warm_up(
    pool: &rayon::ThreadPool,
    cs: &[&Contender],
    window: &[BenchPuzzle],
    opts: &BenchOptions,
    cancel: &Arc<AtomicBool>,
) -> Duration {
    let mut fastest = Duration::MAX;
    let some = &window[..opts.warmup.min(window.len())];
    for ci in 0..cs.len() {
        let started = Instant::now();
        let solved = AtomicUsize::new(0);
        let pass = Pass {
            cs,
            taking: &[ci],
            puzzles: some,
            stretch: 1,
            turn: 0,
            round: 0,
            repeat: 0,
        };
        pool.install(|| {
            share_out(
                &pass,
                opts,
                cancel,
                || (),
                |_, _, slot, _| {
                    if !some[slot].invalid {
                        solved.fetch_add(1, Ordering::Relaxed);
                    }
                },
                |_| {},
            )
        });
        cs[ci].engine.warmed_up();
        let solved = solved.into_inner();
        if solved > 0 {
            fastest = fastest.min(started.elapsed() / solved as u32);
        }
    }
    fastest
}

/// One checked solve: what a worker sends the writer.
struct Measured {
    /// The contender (index into the pass's `cs`).
    ci: usize,
    slot: usize,
    status: RowStatus,
    detail: String,
    nodes: Option<u64>,
    guesses: Option<u64>,
    solutions: u64,
    ns: u64,
    own_ns: Option<u64>,
    counts: crate::perf::Counts,
}

impl Measured {
    /// Checks a contender's answer (outside the timed region) and keeps only what the record needs.
    fn checked(c: &Contender, p: &BenchPuzzle, ci: usize, slot: usize, s: Solved) -> Measured {
        let (status, mut detail, solutions) = match s.result {
            Err(why) if s.memory => (RowStatus::Memory, why, 0),
            Err(why) => (RowStatus::Error, why, 0),
            Ok(o) => match check(p, &o, c.checked) {
                Verdict::Right(st) => (st.into(), String::new(), o.solution_count),
                Verdict::Unchecked(why) => (RowStatus::Unchecked, why, o.solution_count),
                Verdict::Wrong(why) => (RowStatus::Wrong, why, o.solution_count),
            },
        };
        if let (true, Some(note)) = (detail.is_empty(), s.note) {
            detail = note;
        }
        if status == RowStatus::Invalid && detail.is_empty() {
            // What makes it invalid: the clashing givens, or the cell named.
            if let Some(flaw) = crate::validate::find_flaw(&p.grid) {
                detail = flaw.to_string();
            }
        }
        let counts = c.counts || p.invalid;
        Measured {
            ci,
            slot,
            status,
            detail,
            nodes: s.nodes.filter(|_| counts),
            guesses: s.guesses.filter(|_| counts),
            solutions,
            ns: s.ns,
            own_ns: s.own_ns,
            counts: s.counts,
        }
    }

    /// What the tally takes of it.
    fn solve(&self) -> Solve<'_> {
        Solve {
            status: self.status,
            detail: &self.detail,
            solutions: self.solutions,
            nodes: self.nodes,
            guesses: self.guesses,
            ns: self.ns,
            own_ns: self.own_ns,
            counts: self.counts,
        }
    }

    /// Fills `r` with this solve (the record's pass fields are set already).
    fn fill(&self, r: &mut SolveRecord, p: &BenchPuzzle, names: &Names) {
        if !Arc::ptr_eq(&r.variant, &names[self.ci].1) {
            (r.strategy, r.variant, r.timing) = names[self.ci].clone();
        }
        r.puzzle_index = p.index;
        r.status = self.status;
        r.solutions = self.solutions;
        r.nodes = self.nodes;
        r.guesses = self.guesses;
        r.solve_ns = self.ns;
        r.own_ns = self.own_ns;
        r.set_counts(&self.counts);
        r.detail.clone_from(&self.detail);
    }
}

/// Each contender's strategy, variant and timing, as records hold them.
type Names = [(Arc<str>, Arc<str>, crate::contender::Timing)];

/// The [`Names`] of `cs`.
pub(super) fn names(cs: &[&Contender]) -> Vec<(Arc<str>, Arc<str>, crate::contender::Timing)> {
    cs.iter()
        .map(|c| {
            (
                c.strategy.as_str().into(),
                c.variant.as_str().into(),
                c.timing,
            )
        })
        .collect()
}

/// A worker's solves on their way to the writer, and (when the sink keeps
/// solves and the worker has an encoder) their records, encoded.
#[derive(Default)]
struct Sent {
    measured: Vec<Measured>,
    bytes: Option<Vec<u8>>,
    error: Option<io::Error>,
}

/// A worker's side of the solves. Each answer is checked (outside the timed
/// region); with an encoder the worker also fills the solve's record and encodes it.
/// What gathered is sent at the end of a stretch once [`Batch::ROWS`] rows or
/// [`Batch::AGE`] have gathered, so the timed loop pays for a channel
/// hand-off only once in a while and a stretch's rows stay together.
struct Batch<'a> {
    tx: SyncSender<Sent>,
    sent: Sent,
    since: Instant,
    encoder: Option<Box<dyn RowEncoder>>,
    /// One record, refilled for every row.
    record: SolveRecord,
    names: &'a Names,
}

impl Batch<'_> {
    const ROWS: usize = 1024;
    const AGE: Duration = Duration::from_millis(50);

    /// Checks and keeps one answer.
    fn row(&mut self, c: &Contender, ci: usize, slot: usize, puzzles: &[BenchPuzzle], s: Solved) {
        let p = &puzzles[slot];
        let m = Measured::checked(c, p, ci, slot, s);
        if let Some(e) = &mut self.encoder {
            m.fill(&mut self.record, p, self.names);
            if let Err(e) = e.encode(&self.record) {
                self.sent.error.get_or_insert(e);
            }
        }
        self.sent.measured.push(m);
    }

    /// The end of a stretch: sends what gathered if it is enough or old enough.
    fn stretch_done(&mut self) {
        if self.sent.measured.len() >= Self::ROWS || self.since.elapsed() >= Self::AGE {
            self.send();
        }
    }

    fn send(&mut self) {
        if !self.sent.measured.is_empty() {
            if let Some(e) = &mut self.encoder {
                match e.take() {
                    Ok(bytes) => self.sent.bytes = Some(bytes),
                    Err(e) => {
                        self.sent.error.get_or_insert(e);
                    }
                }
            }
            let _ = self.tx.send(std::mem::take(&mut self.sent));
        }
        self.since = Instant::now();
    }
}

impl Drop for Batch<'_> {
    fn drop(&mut self) {
        self.send();
    }
}

/// What one contender used in a pass: its workers' busy time, the CPU time
/// spent for it (its worker threads', or for an outside program its
/// processes'), an outside program's peak resident memory, and the most
/// heap one call of a built-in held.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(super) struct PassUse {
    /// The workers' time in the contender's loops (its wall time, summed
    /// over the workers).
    pub busy: Duration,
    /// The contender's own time: its timed calls (a built-in's, a
    /// library's as its host timed them), or a program's loop, its busy
    /// time (summed over the workers).
    pub own: Duration,
    pub cpu: Duration,
    /// The wall time `cpu` was read over: the busy time and the clock
    /// reads around it (a built-in's thread clock is read outside `busy`).
    pub span: Duration,
    pub peak_bytes: Option<u64>,
    pub heap_bytes: Option<u64>,
    /// An outside engine's calls: CPU inside them, and their wall time.
    pub calls: crate::usage::CallUse,
    /// Passes whose `cpu` is an outside engine's, read in clock ticks.
    pub ticked: u32,
}

impl PassUse {
    /// The wall time its CPU time is to be read against: the span it was
    /// read over, never less than the busy time.
    pub fn cpu_wall(&self) -> Duration {
        self.span.max(self.busy)
    }

    /// Adds `other`'s use to this one (times add, peaks take the larger).
    pub fn add(&mut self, other: &PassUse) {
        self.busy += other.busy;
        self.own += other.own;
        self.cpu += other.cpu;
        self.span += other.span;
        self.calls.cpu += other.calls.cpu;
        self.calls.wall += other.calls.wall;
        self.ticked += other.ticked;
        self.peak_bytes = self.peak_bytes.max(other.peak_bytes);
        self.heap_bytes = self.heap_bytes.max(other.heap_bytes);
    }
}

/// Runs one pass on the pool and adds every solve to its contender's tally
/// (`tallies[ci]`, by the puzzle's slot in the window), and to the sink when it keeps solves.
/// Returns each contender's times in the pass ([`PassTimes`]), the time
/// this thread was busy with the rows (not waiting for them), and what each
/// contender used ([`PassUse`]).
pub(super) fn run_pass(
    going: &mut super::Going<'_>,
    pass: &Pass<'_>,
    ds: &BenchDataset,
    tallies: &mut [Tally],
) -> io::Result<(PassTimes, Duration, Vec<PassUse>)> {
    let (pool, opts, cancel, observer) = (going.pool, going.opts, going.cancel, going.observer);
    let sink = &mut *going.sink;
    let workers = pass.workers(opts).max(1);
    // Room for a few batches a worker: the workers wait (between stretches,
    // never in a timed solve) when the writer falls behind.
    let (tx, rx) = sync_channel::<Sent>(2 * workers + 2);
    // The writer encodes the kept solves while it has a core of its own;
    // beside as many workers as cores, the workers encode their own.
    let keeps = sink.keeps_solves();
    let cores = super::cores();
    let encoders: Vec<Option<Box<dyn RowEncoder>>> = (0..workers)
        .map(|_| {
            (keeps && opts.threads >= cores)
                .then(|| sink.encoder())
                .flatten()
        })
        .collect();
    let encoders = Mutex::new(encoders);
    let names = names(pass.cs);
    let template = template(pass, ds, opts, &names);
    let mut measured = (Duration::ZERO, Vec::new());
    let out = &mut measured;
    let before: Vec<Option<crate::contender::Used>> =
        pass.cs.iter().map(|c| c.engine.usage()).collect();
    let puzzles = pass.puzzles;
    let (names, template) = (&names, &template);
    let encoders = &encoders;
    // The workers are a job on the pool; this thread passes on what they send.
    let writer = pool.in_place_scope(|scope| {
        scope.spawn(move |_| {
            let started = Instant::now();
            let busy = share_out(
                pass,
                opts,
                cancel,
                || Batch {
                    tx: tx.clone(),
                    sent: Sent::default(),
                    since: Instant::now(),
                    encoder: crate::sync::lock(encoders).pop().flatten(),
                    record: template.clone(),
                    names,
                },
                |batch, ci, slot, s| batch.row(pass.cs[ci], ci, slot, puzzles, s),
                Batch::stretch_done,
            );
            drop(tx);
            *out = (started.elapsed(), busy);
        });
        let mut writer = Writer {
            sink,
            cancel,
            observer,
            keeps,
            record: template.clone(),
            names,
            puzzles,
            tallies,
            failure: None,
            writing: Duration::ZERO,
        };
        while let Some(sent) = writer.next(&rx) {
            writer.take(sent);
        }
        writer
    });
    let writing = writer.finish()?;
    let (wall, busy) = measured;
    let used = pass_use(pass, &before, &busy);
    let times = PassTimes {
        own: walls(pass, workers, &busy),
        share: shares(pass, wall, workers, &busy),
    };
    Ok((times, writing, used))
}

/// The record every solve of `pass` over `ds` is written into: its pass
/// fields set, the rest refilled for each row.
fn template(pass: &Pass<'_>, ds: &BenchDataset, opts: &BenchOptions, names: &Names) -> SolveRecord {
    SolveRecord {
        strategy: names[0].0.clone(),
        variant: names[0].1.clone(),
        dataset: ds.name.as_str().into(),
        puzzle_index: 0,
        round: pass.round,
        repeat: pass.repeat,
        status: RowStatus::Unique,
        solutions: 0,
        nodes: None,
        guesses: None,
        solve_ns: 0,
        own_ns: None,
        threads: opts.threads,
        detail: String::new(),
        timing: names[0].2,
        instructions: None,
        cycles: None,
        branch_misses: None,
        task_clock_ns: None,
        heap_bytes: None,
    }
}

/// The calling thread's side of a pass: it takes what the workers send,
/// adds each solve to its contender's tally and passes the kept solves on
/// to the sink. The first failure to write cancels the run.
struct Writer<'w> {
    sink: &'w mut dyn RecordSink,
    cancel: &'w AtomicBool,
    observer: &'w dyn Observer,
    /// Whether the sink keeps solves.
    keeps: bool,
    /// One record, refilled for every solve the workers did not encode.
    record: SolveRecord,
    names: &'w Names,
    puzzles: &'w [BenchPuzzle],
    tallies: &'w mut [Tally],
    failure: Option<io::Error>,
    /// The time spent with the rows (not waiting for them).
    writing: Duration,
}

impl Writer<'_> {
    /// Keeps the first failure, and cancels the run.
    fn fail(&mut self, e: io::Error) {
        self.failure.get_or_insert(e);
        self.cancel.store(true, Ordering::Relaxed);
    }

    /// The next batch the workers sent, `None` once they are done; with
    /// nothing waiting, what was written is made durable before it waits.
    fn next(&mut self, rx: &Receiver<Sent>) -> Option<Sent> {
        match rx.try_recv() {
            Ok(b) => Some(b),
            Err(TryRecvError::Empty) => {
                if self.failure.is_none() {
                    if let Err(e) = self.sink.flush() {
                        self.fail(e);
                    }
                }
                rx.recv().ok()
            }
            Err(TryRecvError::Disconnected) => None,
        }
    }

    /// Adds a batch's solves to the tallies and hands its rows (or its
    /// encoded bytes) to the sink, counting the time as writing.
    fn take(&mut self, sent: Sent) {
        let took = Instant::now();
        self.observer.rows_done(sent.measured.len() as u64);
        if let Some(e) = sent.error {
            self.fail(e);
        }
        if let (None, Some(bytes)) = (&self.failure, &sent.bytes) {
            if let Err(e) = self.sink.encoded(bytes) {
                self.fail(e);
            }
        }
        for m in &sent.measured {
            self.tallies[m.ci].add(m.slot, &m.solve());
            if self.keeps && sent.bytes.is_none() && self.failure.is_none() {
                m.fill(&mut self.record, &self.puzzles[m.slot], self.names);
                if let Err(e) = self.sink.solve(&self.record) {
                    self.fail(e);
                }
            }
        }
        self.writing += took.elapsed();
    }

    /// After the pass: its first failure, else everything written made
    /// durable and the time spent writing.
    fn finish(self) -> io::Result<Duration> {
        if let Some(e) = self.failure {
            return Err(e);
        }
        self.sink.flush()?;
        Ok(self.writing)
    }
}

/// What each contender used in `pass`: its workers' `busy` use, with an
/// outside engine's CPU time over the pass (from its usage `before` it
/// and now) and its peak memory.
fn pass_use(
    pass: &Pass<'_>,
    before: &[Option<crate::contender::Used>],
    busy: &[PassUse],
) -> Vec<PassUse> {
    (0..pass.cs.len())
        .map(|ci| {
            let mine = busy.get(ci).copied().unwrap_or_default();
            match (before[ci], pass.cs[ci].engine.usage()) {
                (Some(a), Some(z)) => PassUse {
                    cpu: z.cpu.saturating_sub(a.cpu),
                    peak_bytes: Some(z.peak_bytes),
                    calls: crate::usage::CallUse {
                        cpu: z.calls.cpu.saturating_sub(a.calls.cpu),
                        wall: z.calls.wall.saturating_sub(a.calls.wall),
                    },
                    ticked: 1,
                    ..mine
                },
                _ => mine,
            }
        })
        .collect()
}

/// Each contender's times in one pass, by its index.
pub(super) struct PassTimes {
    /// Its wall time ([`walls`]): what its puzzles/s is over.
    pub own: Vec<Duration>,
    /// Its share of the pass's wall time ([`shares`]): what `--min-time`
    /// counts, so that a run takes as long as it measures.
    pub share: Vec<Duration>,
}

/// Each contender's share of the pass's `wall` time on `workers` workers:
/// its busy time, plus an even share of the workers' time outside any
/// contender, over the workers (none for those not taking part): the
/// shares add up to the pass's wall time.
fn shares(pass: &Pass<'_>, wall: Duration, workers: usize, busy: &[PassUse]) -> Vec<Duration> {
    let busy_of = |ci: usize| busy.get(ci).map_or(0.0, |u| u.busy.as_secs_f64());
    let k = pass.taking.len().max(1) as f64;
    let capacity = wall.as_secs_f64() * workers as f64;
    let spare = (capacity - pass.taking.iter().map(|&ci| busy_of(ci)).sum::<f64>()).max(0.0);
    (0..pass.cs.len())
        .map(|ci| match pass.taking.contains(&ci) {
            true => Duration::from_secs_f64((busy_of(ci) + spare / k) / workers as f64),
            false => Duration::ZERO,
        })
        .collect()
}

/// Each contender's wall time in the pass: its own time on the workers
/// ([`PassUse::own`]: its timed calls, or a program's loop of round
/// trips), over the workers; none for those not taking part. The harness's own work between
/// its stretches (checking answers, making rows, the writer's turns, a
/// worker waiting at the pass's end) is no contender's.
fn walls(pass: &Pass<'_>, workers: usize, busy: &[PassUse]) -> Vec<Duration> {
    (0..pass.cs.len())
        .map(|ci| match (pass.taking.contains(&ci), busy.get(ci)) {
            (true, Some(u)) => u.own / workers.max(1) as u32,
            _ => Duration::ZERO,
        })
        .collect()
}
