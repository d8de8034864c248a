//! How contenders take turns over a dataset, and the rounds a run is measured
//! in: the schedules, each dataset's measurements carried from round to round,
//! and the pairing of every contender's times with every other's.

use super::tally::Tally;
use super::workers::{names, run_pass, warm_up, Pass};
use super::{summary, BenchDataset, BenchOptions, Contender, Observer, SummaryRow};
use crate::contender::BenchPuzzle;
use std::io;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;

/// How contenders take turns over a dataset.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Schedule {
    /// The dataset is cut into stretches (see [`Schedule::stretch_size`]); a
    /// worker takes a stretch and solves it with every contender in turn, the
    /// first to go rotating from stretch to stretch, then takes the next free
    /// one. Machine drift then hits all contenders alike, and no worker waits
    /// for another.
    Interleaved,
    /// Each contender runs its whole pass (every repeat) before the next starts.
    Sequential,
}

impl Schedule {
    /// Fewest puzzles in a stretch of the interleaved schedule.
    pub const MIN_STRETCH: usize = 32;
    /// Least work a stretch gives the fastest contender, so that switching
    /// contenders (and their cold caches) stays a small share of a stretch.
    pub const STRETCH_TIME: Duration = Duration::from_millis(1);
    /// Fewest stretches per worker in a window, where the window is large
    /// enough: so that the last stretches finish close together.
    pub const STRETCHES_PER_WORKER: usize = 4;

    /// Puzzles per stretch of `n`, given the fastest contender's time per puzzle
    /// in warm-up: enough for [`Schedule::STRETCH_TIME`] of its work, at least
    /// [`Schedule::MIN_STRETCH`] (stretches of 16 to 64 puzzles of top1465 kept
    /// the spread of five runs' throughput ratio near 2%, against up to 30%
    /// one strategy after another; sub-microsecond 4×4 puzzles get blocks of
    /// thousands).
    pub fn stretch_size(fastest: Duration, n: usize) -> usize {
        let per = fastest.as_nanos().max(1);
        let want = Self::STRETCH_TIME.as_nanos().div_ceil(per) as usize;
        want.max(Self::MIN_STRETCH).min(n.max(1))
    }

    /// Puzzles per stretch of a window of `w` (of a dataset of `n`) on
    /// `threads` workers for `contenders` taking turns: with several, the
    /// chosen `stretch` or [`Schedule::stretch_size`], cut down to give each
    /// worker [`Schedule::STRETCHES_PER_WORKER`]; alone, small stretches that
    /// keep the workers' shares even (one puzzle up to 64).
    ///
    /// [`Schedule::MIN_STRETCH`] yields to the workers' share: a 75-puzzle
    /// window in stretches of 32 kept 3 of 16 workers busy, and
    /// hardest_1106 "scaled" 1.8× from 1 to 16 threads (Xeon, 16 cores).
    pub fn stretch(
        stretch: Option<usize>,
        fastest: Duration,
        contenders: usize,
        w: usize,
        n: usize,
        threads: usize,
    ) -> usize {
        if contenders <= 1 {
            return (w / (threads.max(1) * 16)).clamp(1, 64);
        }
        let even = w.div_ceil(threads.max(1) * Self::STRETCHES_PER_WORKER);
        match stretch {
            Some(b) => b.max(1),
            None => Self::stretch_size(fastest, n).min(even).max(1),
        }
    }

    /// Every schedule, in [`Schedule::WORDS`]'s order.
    pub const ALL: [Schedule; 2] = [Schedule::Interleaved, Schedule::Sequential];
    /// The names used on the command line and in `run.json`.
    pub const WORDS: [&'static str; 2] = ["interleaved", "sequential"];

    /// The name used on the command line and in `run.json`.
    pub fn name(self) -> &'static str {
        Schedule::WORDS[self as usize]
    }
}

crate::words_of!(Schedule, "a schedule");

/// Fewest puzzles a round of a dataset takes, so that each round pairs several.
pub const MIN_PER_ROUND: usize = 2;

/// The rounds a dataset of `n` puzzles is measured in when the run asks for
/// `rounds`: as many as give every round [`MIN_PER_ROUND`] puzzles, at least one.
/// Puzzle `i` (in run order) belongs to round `i mod rounds_for(..)`, so every
/// round draws evenly from the whole file.
pub fn rounds_for(n: usize, rounds: usize) -> usize {
    rounds.max(1).min((n / MIN_PER_ROUND).max(1))
}

/// The note a dataset of `n` puzzles measured in `got` rounds, fewer than the
/// `asked` (see [`rounds_for`]), gets on the terminal, in `summary.md` and in
/// the report.
pub fn fewer_rounds_note(dataset: &str, n: usize, got: usize, asked: usize) -> String {
    format!(
        "{dataset} is measured in {got} round{}, not the {asked} asked ({n} puzzle{}; {MIN_PER_ROUND} a round at least)",
        if got == 1 { "" } else { "s" },
        if n == 1 { "" } else { "s" },
    )
}

/// Each contender's speed against each other one, built window by window:
/// `sums[r][i]` measures contender `i` against contender `r`.
pub(super) struct Pairs {
    sums: Vec<Vec<crate::stats::SpeedSum>>,
}

impl Pairs {
    pub(super) fn new(k: usize) -> Pairs {
        Pairs {
            sums: vec![vec![crate::stats::SpeedSum::default(); k]; k],
        }
    }

    /// Adds one window's per-puzzle solved times of every contender, measured in `round`.
    pub(super) fn add(&mut self, round: usize, times: &[Vec<(u64, u64)>]) {
        for (r, row) in self.sums.iter_mut().enumerate() {
            for (i, sum) in row.iter_mut().enumerate() {
                sum.add_in_round(round, &times[r], &times[i]);
            }
        }
    }

    /// Fills the speed columns of one dataset's rows: against `reference` when
    /// it ran here, else the fastest.
    pub(super) fn relate(&self, rows: &mut [SummaryRow], reference: Option<&str>) {
        if rows.len() < 2 {
            return; // nothing to compare with
        }
        // Only a row whose figures stand is compared, or compared with.
        let chosen = reference
            .and_then(|name| rows.iter().position(|r| r.variant == name))
            .filter(|&i| rows[i].stands());
        let fastest = || {
            (0..rows.len())
                .filter(|&i| rows[i].puzzles_per_sec > 0.0 && rows[i].stands())
                .max_by(|&a, &b| rows[a].puzzles_per_sec.total_cmp(&rows[b].puzzles_per_sec))
        };
        let Some(r) = chosen.or_else(fastest) else {
            return;
        };
        let name = rows[r].variant.clone();
        for (i, row) in rows.iter_mut().enumerate() {
            row.reference = name.clone();
            if !row.stands() {
                continue;
            }
            if let Some(s) = self.sums[r][i].finish() {
                row.speed = Some(s.ratio.value);
                row.speed_lo = Some(s.ratio.lo);
                row.speed_hi = Some(s.ratio.hi);
                // The reference against itself is no comparison.
                row.faster_pct = (i != r).then_some(s.faster_pct);
            }
        }
    }
}

/// What every window of a round shares: the dataset, the round, and the
/// names its rows carry.
struct Round<'r> {
    ds: &'r BenchDataset,
    round: usize,
    /// Each contender's strategy, variant and timing ([`names`]).
    names: Vec<(Arc<str>, Arc<str>, crate::contender::Timing)>,
    dataset: Arc<str>,
}

/// One dataset's measurements, carried from round to round.
pub(super) struct DatasetRun<'a> {
    cs: Vec<&'a Contender>,
    /// Rounds this dataset is measured in ([`rounds_for`]).
    pub(super) rounds: usize,
    builders: Vec<summary::SummaryBuilder>,
    walls: Vec<Duration>,
    /// What each contender used over every timed pass.
    used: Vec<super::workers::PassUse>,
    pairs: Pairs,
    /// The fastest contender's time per puzzle in the first warm-up (sizes stretches).
    fastest: Option<Duration>,
    /// Rotation of the next pass's first stretch.
    turn: usize,
    /// The calling thread's time with the rows, over every pass.
    pub(super) writer: Duration,
}

impl<'a> DatasetRun<'a> {
    pub(super) fn new(
        cs: Vec<&'a Contender>,
        ds: &BenchDataset,
        opts: &BenchOptions,
    ) -> DatasetRun<'a> {
        let k = cs.len();
        DatasetRun {
            cs,
            rounds: rounds_for(ds.len(), opts.rounds),
            builders: vec![summary::SummaryBuilder::default(); k],
            walls: vec![Duration::ZERO; k],
            used: vec![Default::default(); k],
            pairs: Pairs::new(k),
            fastest: None,
            turn: 0,
            writer: Duration::ZERO,
        }
    }

    /// Runs round `round` over its share of the dataset, a window of puzzles at
    /// a time (the whole set when it is held in memory): warm-up per contender
    /// on the round's first window; then in each window every pass, stretch by
    /// stretch, each stretch solved by every contender in turn (the first to
    /// go rotates), or with the sequential schedule one contender's passes
    /// after another's.
    pub(super) fn run_round(
        &mut self,
        going: &mut super::Going<'_>,
        ds: &BenchDataset,
        round: usize,
    ) -> io::Result<()> {
        let (pool, opts, cancel) = (going.pool, going.opts, going.cancel);
        if self.cs.is_empty() {
            return Ok(());
        }
        self.announce(going.observer, opts, ds, round);
        let k = self.cs.len();
        let groups: Vec<Vec<usize>> = match opts.schedule {
            Schedule::Interleaved => vec![(0..k).collect()],
            Schedule::Sequential => (0..k).map(|i| vec![i]).collect(),
        };
        let r = Round {
            ds,
            round,
            names: names(&self.cs),
            dataset: ds.name.as_str().into(),
        };
        let mut warmed = false;
        ds.for_each_window_in(round, self.rounds, &mut |window| {
            if window.is_empty() {
                return Ok(true);
            }
            if !warmed {
                let f = warm_up(pool, &self.cs, window, opts, cancel);
                self.fastest.get_or_insert(f);
                warmed = true;
            }
            let mut tallies = vec![Tally::new(window.len()); k];
            for group in &groups {
                self.run_group(going, &r, window, group, &mut tallies)?;
            }
            self.finish_window(going, &r, window, tallies)?;
            Ok(!cancel.load(Ordering::Relaxed))
        })
    }

    /// Tells the observer the round's phase has started: its contenders,
    /// the dataset (with the round, where there are several) and the solves
    /// it holds.
    fn announce(
        &self,
        observer: &dyn Observer,
        opts: &BenchOptions,
        ds: &BenchDataset,
        round: usize,
    ) {
        let rounds = self.rounds;
        let variants: Vec<&str> = self.cs.iter().map(|c| c.variant.as_str()).collect();
        let here = (round..ds.len()).step_by(rounds).count();
        let label = if rounds > 1 {
            format!("{} ({}/{rounds})", ds.name, round + 1)
        } else {
            ds.name.clone()
        };
        observer.phase_started(
            &variants.join(", "),
            &label,
            (here * self.cs.len()) as u64 * opts.repeat as u64,
        );
    }

    /// Runs one group of contenders (all of them, or one with the
    /// sequential schedule) over a window, pass after pass while any of
    /// them wants more, adding its solves to `tallies` and its time to the
    /// dataset's.
    fn run_group(
        &mut self,
        going: &mut super::Going<'_>,
        r: &Round<'_>,
        window: &[BenchPuzzle],
        group: &[usize],
        tallies: &mut [Tally],
    ) -> io::Result<()> {
        let opts = going.opts;
        let (n, w) = (r.ds.len(), window.len());
        let fastest = self.fastest.unwrap_or(Duration::MAX);
        // With --min-time, each window of each round takes its share of the minimum.
        let share = w as f64 / n.max(1) as f64;
        let stretch = Schedule::stretch(opts.stretch, fastest, group.len(), w, n, opts.threads);
        // Each contender's share of the passes' wall time (what --min-time
        // counts), and its own wall time (what its puzzles/s is over).
        let mut spent = vec![Duration::ZERO; self.cs.len()];
        let mut own = vec![Duration::ZERO; self.cs.len()];
        // Who takes part in a pass: everyone for the first `repeat` passes,
        // then (with --min-time) those whose timed passes are still short of
        // it, unless they failed on some puzzle (a failing program's error
        // rows are no measurement to make more of).
        let wants_more = |ci: usize, spent: &[Duration], repeat: u32, failing: bool| {
            repeat < opts.repeat
                || (!failing
                    && opts
                        .min_time
                        .is_some_and(|t| w > 0 && spent[ci] < t.mul_f64(share)))
        };
        let mut repeat = 0;
        loop {
            if going.cancel.load(Ordering::Relaxed) {
                break;
            }
            let taking: Vec<usize> = group
                .iter()
                .copied()
                .filter(|&ci| {
                    let failing = self.builders[ci].failed() || tallies[ci].failed();
                    wants_more(ci, &spent, repeat, failing)
                })
                .collect();
            if taking.is_empty() {
                break;
            }
            if repeat >= opts.repeat {
                going.observer.rows_added((w * taking.len()) as u64);
            }
            let pass = Pass {
                cs: &self.cs,
                taking: &taking,
                puzzles: window,
                stretch,
                turn: self.turn,
                round: r.round as u32,
                repeat,
            };
            self.turn += pass.stretches();
            let (times, writing, pass_use) = run_pass(going, &pass, r.ds, tallies)?;
            for (u, p) in self.used.iter_mut().zip(&pass_use) {
                u.add(p);
            }
            self.writer += writing;
            for (s, w) in spent.iter_mut().zip(times.share) {
                *s += w;
            }
            for (o, w) in own.iter_mut().zip(times.own) {
                *o += w;
            }
            repeat += 1;
        }
        for (total, o) in self.walls.iter_mut().zip(&own) {
            *total += *o;
        }
        Ok(())
    }

    /// Makes each puzzle of the window one row per contender, its median
    /// over its solves, hands the rows to the sink and makes them durable,
    /// and pairs the contenders' times on the puzzles they solved.
    fn finish_window(
        &mut self,
        going: &mut super::Going<'_>,
        r: &Round<'_>,
        window: &[BenchPuzzle],
        tallies: Vec<Tally>,
    ) -> io::Result<()> {
        let (opts, names) = (going.opts, &r.names);
        let mut times: Vec<Vec<(u64, u64)>> = Vec::with_capacity(self.cs.len());
        for (ci, tally) in tallies.into_iter().enumerate() {
            let builder = &mut self.builders[ci];
            builder.add_timed(tally.timed_ns());
            let rows = tally.finish(
                |slot| window[slot].index,
                (&names[ci].0, &names[ci].1, &r.dataset),
                r.round as u32,
                opts.threads,
                (names[ci].2, self.cs[ci].checked),
            );
            let mut solved = Vec::with_capacity(rows.len());
            for row in &rows {
                builder.add(row);
                going.sink.puzzle(row)?;
                if row.status.is_solved() {
                    solved.push((row.puzzle_index, row.median_ns));
                }
            }
            solved.sort_unstable();
            times.push(solved);
        }
        going.sink.flush()?;
        self.pairs.add(r.round, &times);
        Ok(())
    }

    /// The summary rows, the speed columns filled.
    pub(super) fn finish(
        self,
        ds: &BenchDataset,
        opts: &BenchOptions,
        observer: &dyn Observer,
        timed_ns: &mut u64,
        writer: &mut Duration,
    ) -> Vec<SummaryRow> {
        *timed_ns += self.builders.iter().map(|b| b.timed_ns()).sum::<u64>();
        *writer += self.writer;
        let mut rows: Vec<SummaryRow> = self
            .cs
            .iter()
            .zip(self.builders)
            .zip(self.walls)
            .zip(self.used)
            .map(|(((c, b), wall), used)| {
                let mut row = b.finish(
                    &c.strategy,
                    &c.variant,
                    &ds.name,
                    opts.threads,
                    wall.as_secs_f64(),
                );
                let timed = row.solves.max(1) as f64;
                if !used.busy.is_zero() {
                    row.cpu_us = Some(used.cpu.as_secs_f64() * 1e6 / timed);
                }
                (row.cpu_ratio, row.cpu_clock, row.cpu_margin) =
                    cpu_ratio(&used, opts.threads, crate::usage::clock_tick());
                row.peak_mem_bytes = used.peak_bytes;
                row.peak_heap_bytes = used.heap_bytes;
                row.origin = c.origin.word().to_string();
                row.checked = c.checked.word().to_string();
                row.timing = c.timing.word().to_string();
                row
            })
            .collect();
        self.pairs.relate(&mut rows, opts.reference.as_deref());
        for row in &rows {
            observer.phase_done(row);
        }
        rows
    }
}

/// A contender's CPU time over wall time from what it used over the run,
/// with the clock it was read on and the clock's margin: an outside
/// engine's calls on its processes' CPU clock where one was read (the CPU
/// reading inside each call's wall window: no margin), else its ticks over
/// its passes (a tick a pass a worker, over the busy time), a built-in's on
/// its worker threads' clock (no margin).
pub(super) fn cpu_ratio(
    used: &super::workers::PassUse,
    threads: usize,
    tick: Duration,
) -> (Option<f64>, String, Option<f64>) {
    if !used.calls.wall.is_zero() {
        let ratio = used.calls.cpu.as_secs_f64() / used.calls.wall.as_secs_f64();
        return (Some(ratio), "process".into(), Some(0.0));
    }
    let wall = used.cpu_wall().as_secs_f64();
    if wall == 0.0 {
        return (None, String::new(), None);
    }
    let ratio = used.cpu.as_secs_f64() / wall;
    if used.ticked == 0 {
        return (Some(ratio), "thread".into(), Some(0.0));
    }
    let margin = tick.as_secs_f64() * used.ticked as f64 * threads.max(1) as f64 / wall;
    (Some(ratio), "ticks".into(), Some(margin))
}
