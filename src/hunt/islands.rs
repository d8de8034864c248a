//! The islands of a hunt (see [`super::search`]): chains of simulated
//! annealing, each with its own random stream and temperature, run an epoch
//! a generation over the threads, and tended between generations: the stale
//! ones of the lower half, and the long-stuck ones of the upper half but the
//! best, restarted from new puzzles. Before each epoch but the first, an
//! island also tries symmetric copies of its best ([`POLISH`]).

use super::moves::{self, Unique};
use super::score::{Scored, Shared};
use crate::generate::{generate_one, GenerateOptions};
use crate::grid::{Geometry, Grid};
use crate::seeded::stream;
use crate::solver::SolverId;
use crate::transform::Transform;
use rand::Rng;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};

/// A puzzle's score, or why it has none.
pub(super) type ScoreFn<'a> = dyn Fn(&Unique) -> Result<Scored, String> + Sync + 'a;

/// The temperature at the start of an epoch (log-score units).
pub const T_HOT: f64 = 0.15;
/// The temperature at its end.
pub const T_COLD: f64 = 0.02;

/// Islands restart after this many generations without bettering their
/// own best (when they lie in the lower half).
pub const STALE: u32 = 1;
/// Islands of the upper half, all but the best, restart after this many
/// generations without bettering their own best. Left alone (as first),
/// such plateaus held half the islands for the second minute of a 2-minute
/// hunt: on seed 10, islands stuck at 393 and 363 guesses from 50 and 40 s
/// on. An island does still better its best after a stall of 2 generations
/// (481 to 853 guesses after 10.7 s), rarely after 4.
pub const STUCK: u32 = 4;
/// Islands, by default: more than a 2-core machine's threads, so that
/// several basins are searched at once.
pub const ISLANDS: usize = 8;
/// Islands a thread, where [`ISLANDS`] would be fewer: each island then
/// gets the share of a thread it gets on 2 cores, and a thread whose island
/// is slow in a generation has others to run.
pub const ISLANDS_A_THREAD: usize = 4;

/// The islands of a hunt over `threads` threads unless told: [`ISLANDS`],
/// or [`ISLANDS_A_THREAD`] a thread where that is more.
pub fn default_islands(threads: usize) -> usize {
    ISLANDS.max(ISLANDS_A_THREAD.saturating_mul(threads))
}
/// Random symmetric copies of its best an island scores between
/// generations (for an exact objective). A solver's cost is not a property
/// of the puzzle alone but of how it is written: `band`'s guesses on 1,000
/// random symmetric copies of a hunted 820-guess puzzle ranged from 2 to
/// 867, median 18. A move changes one given and keeps the rest of the
/// writing, so the chains climb in one writing; the copies try others, and
/// the island goes on from the best of them.
pub const POLISH: u32 = 500;

/// The islands' temperatures, as factors of the schedule's, in turn. A
/// ladder from half to twice the schedule's (as first) left its cold islands
/// in the first basin they met: in hunts of 3 million moves, seeds 1–10,
/// islands at 0.5× and 0.8× made 108 of the 175 climbs (a climb ends at a
/// restart) and 2 of the 15 that passed 300 guesses. From 1× to 2×, 24 of
/// 171 passed 300; at 3× and 4.5×, 3 of 101.
const LADDER: [f64; 4] = [1.0, 1.25, 1.6, 2.0];

/// One chain of the search, with its own random stream and temperature.
pub(super) struct Island {
    index: usize,
    rng: rand_chacha::ChaCha8Rng,
    current: Unique,
    now: Scored,
    best: (Unique, Scored),
    /// The lineages of the current puzzle and of the best: the solution grid
    /// of the writing each came from, when a symmetric copy made it (see
    /// [`Search::polish`]); `None` where it is the puzzle's own.
    lineage: Option<Arc<Grid>>,
    best_lineage: Option<Arc<Grid>>,
    /// Moves it may make in all, and has made.
    quota: u64,
    made: u64,
    /// Its temperature factor.
    heat: f64,
    /// Generations since it last bettered its own best.
    stale: u32,
    improved: bool,
}

impl Island {
    pub(super) fn new(index: usize, current: Unique, now: Scored, quota: u64, seed: u64) -> Island {
        Island {
            index,
            rng: stream(seed, index as u64),
            best: (current.clone(), now),
            current,
            now,
            lineage: None,
            best_lineage: None,
            quota,
            made: 0,
            heat: LADDER[index % LADDER.len()],
            stale: 0,
            improved: false,
        }
    }

    /// Starts afresh from `u`, a new basin.
    fn restart(&mut self, u: Unique, s: Scored) {
        self.best = (u.clone(), s);
        (self.current, self.now) = (u, s);
        (self.lineage, self.best_lineage) = (None, None);
        self.stale = 0;
    }
}

/// What every island's moves need.
pub(super) struct Search<'a> {
    pub(super) checker: SolverId,
    /// A puzzle's score, or why it has none.
    pub(super) score: &'a ScoreFn<'a>,
    pub(super) shared: &'a Shared<'a>,
    pub(super) pair: bool,
    pub(super) geometry: Geometry,
    /// Moves of an epoch.
    pub(super) epoch: u64,
    /// Symmetric copies of its best an island scores before each epoch but
    /// the first (0: none).
    pub(super) polish: u32,
}

impl Search<'_> {
    /// Runs the islands in generations over `threads` threads until their
    /// quotas are spent or the hunt stops, tending them in between.
    pub(super) fn run(&self, islands: &mut [Island], threads: usize) {
        loop {
            let active: Vec<&mut Island> =
                islands.iter_mut().filter(|i| i.made < i.quota).collect();
            if active.is_empty() || self.shared.stopped() {
                return;
            }
            let workers = threads.min(active.len());
            let queue = Mutex::new(active.into_iter());
            std::thread::scope(|scope| {
                for _ in 0..workers {
                    scope.spawn(|| loop {
                        let Some(island) = crate::sync::lock(&queue).next() else {
                            return;
                        };
                        self.epoch(island);
                    });
                }
            });
            if self.shared.stopped() {
                return;
            }
            self.tend(islands);
        }
    }

    /// Between generations: restarts the stale islands of the lower half,
    /// and the stuck ones of the upper half but the best, and says so.
    fn tend(&self, islands: &mut [Island]) {
        for i in islands.iter_mut() {
            i.stale = if i.improved { 0 } else { i.stale + 1 };
            i.improved = false;
        }
        let mut order: Vec<usize> = (0..islands.len()).collect();
        order.sort_by(|&a, &b| {
            islands[b]
                .best
                .1
                .score
                .total_cmp(&islands[a].best.1.score)
                .then(a.cmp(&b))
        });
        let half = order.len().div_ceil(2);
        let mut said = Vec::new();
        // The best island (rank 0) is never restarted.
        for (rank, &k) in order.iter().enumerate().skip(1) {
            let island = &mut islands[k];
            let (limit, place) = if rank < half {
                (STUCK, "in the upper half")
            } else {
                (STALE, "in the lower half")
            };
            if island.stale < limit || island.made >= island.quota {
                continue;
            }
            let was = island.best.1.score;
            if let Some((u, s)) = self.fresh(&mut island.rng) {
                let gens = match limit {
                    1 => "a generation".to_string(),
                    n => format!("{n} generations"),
                };
                said.push(format!(
                    "island {k} stuck at {} for {gens}, {place}: restarted from a new puzzle ({})",
                    super::score::score_text(was),
                    super::score::score_text(s.score)
                ));
                island.restart(u, s);
            }
        }
        for line in said {
            self.shared.observer.event(&line);
        }
    }

    /// A new generated puzzle, scored (none when scoring fails).
    fn fresh(&self, rng: &mut rand_chacha::ChaCha8Rng) -> Option<(Unique, Scored)> {
        let gen = GenerateOptions::minimal(self.geometry);
        let (puzzle, solution) = (0..100).find_map(|_| generate_one(&gen, rng))?;
        let u = Unique { puzzle, solution };
        self.shared.evaluations.fetch_add(1, Ordering::Relaxed);
        match (self.score)(&u) {
            Ok(s) => {
                self.shared
                    .offer(&u, None, &s, self.shared.iterations.load(Ordering::Relaxed));
                Some((u, s))
            }
            Err(why) => {
                self.shared.failed(why);
                None
            }
        }
    }

    /// Scores [`Search::polish`] random symmetric copies of `island`'s best
    /// and makes the best of them its best when it scores higher.
    fn polish(&self, island: &mut Island) {
        if self.polish == 0 {
            return;
        }
        let shared = self.shared;
        // The copies' lineage: the writing the island's best came from.
        let lineage = island
            .best_lineage
            .clone()
            .unwrap_or_else(|| Arc::new(island.best.0.solution.clone()));
        for _ in 0..self.polish {
            if shared.stopped() {
                return;
            }
            let t = Transform::random(self.geometry, &mut island.rng);
            let (u, _) = &island.best;
            let copy = Unique {
                puzzle: t.apply(&u.puzzle),
                solution: t.apply(&u.solution),
            };
            shared.evaluations.fetch_add(1, Ordering::Relaxed);
            let scored = match (self.score)(&copy) {
                Ok(s) => s,
                Err(why) => {
                    shared.failed(why);
                    continue;
                }
            };
            let iteration = shared.iterations.load(Ordering::Relaxed);
            shared.offer(&copy, Some(&lineage), &scored, iteration);
            if scored.score > island.best.1.score {
                island.improved = true;
                shared.island_improved(island.index, &scored, &copy, true);
                island.best = (copy, scored);
                island.best_lineage = Some(lineage.clone());
            }
        }
    }

    /// One epoch of `island`'s annealing (fewer moves at the end of its
    /// quota, or when the hunt stops), from its best after the first.
    fn epoch(&self, island: &mut Island) {
        let shared = self.shared;
        if island.made > 0 {
            self.polish(island);
            (island.current, island.now) = island.best.clone();
            island.lineage = island.best_lineage.clone();
        }
        let end = island.made.saturating_add(self.epoch).min(island.quota);
        let mut k = 0u64;
        while island.made < end && !shared.stopped() {
            let t = island.heat * T_HOT * (T_COLD / T_HOT).powf(k as f64 / self.epoch as f64);
            k += 1;
            island.made += 1;
            let total = shared.iterations.fetch_add(1, Ordering::Relaxed) + 1;
            if total.is_multiple_of(512) {
                shared.observer.tick(total, shared.best());
            }
            let Some(next) = moves::step(self.checker, &island.current, &mut island.rng) else {
                continue;
            };
            shared.evaluations.fetch_add(1, Ordering::Relaxed);
            let scored = match (self.score)(&next) {
                Ok(s) => s,
                Err(why) => {
                    if !shared.stopped() {
                        shared.failed(why);
                    }
                    continue;
                }
            };
            // A move that keeps the solution keeps the lineage.
            let lineage = if next.solution == island.current.solution {
                island.lineage.clone()
            } else {
                None
            };
            shared.offer(&next, lineage.as_deref(), &scored, total);
            let delta = scored.level(self.pair) - island.now.level(self.pair);
            // The draw is made whatever the outcome, so the stream does not depend on it.
            let draw: f64 = island.rng.gen();
            if delta >= 0.0 || draw < (delta / t).exp() {
                if scored.score > island.best.1.score {
                    island.best = (next.clone(), scored);
                    island.best_lineage = lineage.clone();
                    island.improved = true;
                    shared.island_improved(island.index, &scored, &next, false);
                }
                island.current = next;
                island.now = scored;
                island.lineage = lineage;
            }
        }
    }
}
