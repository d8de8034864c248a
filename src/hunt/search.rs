//! The search: islands of simulated annealing, run in generations.
//!
//! A chain makes a random move ([`super::moves::step`]) and keeps the result
//! when it scores higher, or when it scores lower with probability
//! `exp(Δ / T)`, where `Δ` is the change in the logarithm of the score: a
//! doubling counts alike at 10 guesses and at 1,000. `T` falls geometrically
//! over an epoch of [`EPOCH`] moves, from [`T_HOT`] (a drop of 10% is kept
//! one time in two, a halving one in a hundred) to [`T_COLD`] (only
//! climbing), then the chain heats up again from its best. Annealing, not
//! plain climbing, because a solver's cost is rugged in the givens: one
//! given more or less often changes the guesses by a factor. The schedule
//! was picked by measuring 30-second, one-thread hunts for `band`'s guesses,
//! seeds 1 to 4: the best reached 306–588 with these, 307–483 starting at
//! 0.3, 187–505 at 1.0, 186–269 with 10,000-move epochs.
//!
//! One chain's outcome depends on the basin it falls into (issue 39: seed 1
//! stuck at 251 guesses from 12.7 s on). So a hunt runs several chains
//! ([`super::default_islands`] unless told), each with a seed of its own
//! and its own temperature (a ladder from once to twice the schedule's),
//! spread over the threads. They run one epoch a generation; between
//! generations, an island that has not bettered its own best for
//! [`STALE`](super::islands::STALE) generation and lies in the lower half
//! is restarted from a new generated puzzle, a new basin, and so is one of
//! the upper half but the best after [`STUCK`](super::islands::STUCK)
//! generations. The islands share nothing else:
//! giving the worst island the best one's puzzle every 3 generations (as
//! this search first did) drew them into one basin. With 9 million moves
//! on seeds 4, 6 and 7, where that search stalled at 415, 379 and 329
//! guesses, it reached 753, 942 and 417 without the exchange, and 666 on
//! seed 7 restarting after one stale generation instead of two.
//!
//! Before each epoch but the first, an island also scores
//! [`POLISH`](super::POLISH) random symmetric copies of its best and goes
//! on from the best of them (exact objectives only): a cost depends on how
//! a puzzle is written, and a move keeps the writing. In 9 million moves on
//! seeds 11–20 that took all ten past 600 of `band`'s guesses, where six
//! passed without.
//!
//! Generations end together, and these choices depend on the islands'
//! scores alone: with a move budget the same seed gives the same puzzles at
//! any thread count (with an exact objective).
use super::islands::{Island, ScoreFn, Search};
use super::merge::symmetric;
use super::moves::{self, Unique};
use super::{Found, HuntError, HuntObserver, HuntOptions, HuntResult, Objective, ProgressRow};
use super::{Start, Stop};
use crate::contender::{check, BenchPuzzle, Contender, Job, Solved};
use crate::generate::{generate_one, GenerateOptions};
use crate::grid::{Geometry, Grid};
use crate::seeded::stream;
use crate::solver::{Limits, Mode, Solver, SolverId, Status};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Moves in one epoch of the temperature schedule.
pub const EPOCH: u64 = 50_000;
/// The temperature at the start of an epoch (log-score units).
pub const T_HOT: f64 = 0.15;
/// The temperature at its end.
pub const T_COLD: f64 = 0.02;

/// The cost of one puzzle for one contender.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Cost {
    pub(super) value: f64,
    pub(super) censored: bool,
}

/// One contender as the hunt measures it: through its engine, in mode unique.
struct Measure<'a> {
    contender: &'a Contender,
    objective: Objective,
    repeat: u32,
    time_limit: Option<Duration>,
    cancel: &'a Arc<AtomicBool>,
}

impl Measure<'_> {
    fn name(&self) -> String {
        self.contender.variant.clone()
    }

    /// The contender's cost on `u`, or what went wrong.
    fn cost(&self, u: &Unique) -> Result<Cost, String> {
        let puzzles = [BenchPuzzle {
            index: 0,
            grid: u.puzzle.clone(),
            expected: Some(u.solution.clone()),
            invalid: false,
            reference: crate::contender::Reference::Count { found: 1, limit: 2 },
        }];
        let job = Job {
            puzzles: &puzzles,
            mode: Mode::Unique,
            node_budget: self.contender.default_budget,
            time_limit: self.time_limit,
            cpu_limit: None,
            cancel: self.cancel,
            pin: false,
        };
        let times = match self.objective {
            Objective::Time => self.repeat.max(1),
            _ => 1,
        };
        let mut left = times;
        let mut next = || {
            (left > 0).then(|| {
                left -= 1;
                0
            })
        };
        let mut solves: Vec<Solved> = Vec::new();
        self.contender
            .engine
            .work(&job, &mut next, &mut |_, s| solves.push(s));
        let mut ns = Vec::with_capacity(solves.len());
        let mut censored = false;
        let mut counted = None;
        let mut stopped = None;
        for s in &solves {
            let outcome = s.result.as_ref().map_err(|e| e.clone())?;
            match outcome.status {
                Status::Budget => {
                    censored = true;
                    stopped = s.note.clone().or(stopped);
                }
                Status::Cancelled => return Err("cancelled".into()),
                _ => {
                    use crate::contender::Verdict;
                    if let Verdict::Unchecked(why) | Verdict::Wrong(why) =
                        check(&puzzles[0], outcome, self.contender.checked)
                    {
                        return Err(why);
                    }
                    if outcome.status != Status::Unique {
                        return Err(format!(
                            "said {} for a puzzle with one solution",
                            outcome.status
                        ));
                    }
                }
            }
            ns.push(s.ns);
            counted = match self.objective {
                Objective::Guesses => s.guesses.filter(|_| self.contender.counts),
                Objective::Nodes => s.nodes.filter(|_| self.contender.counts),
                Objective::Time => None,
            };
        }
        if ns.is_empty() {
            return Err("gave no answer".into());
        }
        let value = match self.objective {
            Objective::Time => {
                ns.sort_unstable();
                ns[ns.len() / 2] as f64
            }
            // A program stopped at the time limit reports nothing: say so.
            o => counted
                .ok_or_else(|| stopped.unwrap_or_else(|| format!("reported no {}", o.name())))?
                as f64,
        };
        Ok(Cost { value, censored })
    }
}

/// The score of a puzzle and what it is made of.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Scored {
    pub(super) score: f64,
    pub(super) cost: Cost,
    pub(super) against: Option<Cost>,
}

impl Scored {
    /// `unique` kept with this score, found at move `iteration`, `elapsed_s`
    /// into the hunt.
    pub(super) fn found(&self, unique: Unique, iteration: u64, elapsed_s: f64) -> Found {
        Found {
            unique,
            score: self.score,
            cost: self.cost.value,
            against: self.against.map(|a| a.value),
            censored: self.cost.censored || self.against.is_some_and(|a| a.censored),
            iteration,
            elapsed_s,
        }
    }

    /// The annealing's energy: the logarithm of the score (a ratio's as it is,
    /// a cost's plus one, so that 0 guesses is defined).
    pub(super) fn level(&self, pair: bool) -> f64 {
        if pair {
            self.score.max(f64::MIN_POSITIVE).ln()
        } else {
            (self.score + 1.0).ln()
        }
    }
}

pub(super) struct Scorer<'a> {
    hunted: Measure<'a>,
    against: Option<Measure<'a>>,
    objective: Objective,
}

impl<'a> Scorer<'a> {
    /// Scores for `hunted` (relative to `against`), as `opts` asks.
    pub(super) fn new(
        hunted: &'a Contender,
        against: Option<&'a Contender>,
        opts: &HuntOptions,
        cancel: &'a Arc<AtomicBool>,
    ) -> Scorer<'a> {
        let measure = |c| Measure {
            contender: c,
            objective: opts.objective,
            repeat: opts.repeat,
            time_limit: opts.time_limit,
            cancel,
        };
        Scorer {
            hunted: measure(hunted),
            against: against.map(measure),
            objective: opts.objective,
        }
    }

    /// The score of `u`, or what went wrong.
    pub(super) fn score(&self, u: &Unique) -> Result<Scored, String> {
        let cost = self
            .hunted
            .cost(u)
            .map_err(|e| format!("{}: {e}", self.hunted.name()))?;
        let against = match &self.against {
            Some(m) => Some(m.cost(u).map_err(|e| format!("{}: {e}", m.name()))?),
            None => None,
        };
        let score = match against {
            Some(b) => {
                let s = self.objective.smoothing();
                (cost.value + s) / (b.value + s).max(f64::MIN_POSITIVE)
            }
            None => cost.value,
        };
        Ok(Scored {
            score,
            cost,
            against,
        })
    }
}

/// The best puzzles so far, best first, one per solution grid (a puzzle and
/// the same with a given more are one find), one up to symmetry, and one per
/// lineage (a symmetric copy an island made of its best, and what its moves
/// made from the copy without changing the solution, are the find it came
/// from); ties go to fewer givens, then to the givens' order.
struct Pool {
    keep: usize,
    found: Vec<Found>,
    /// Each kept puzzle's lineage: the solution grid of the writing it came from.
    lineages: Vec<Grid>,
}

impl Pool {
    fn order(a: &Found, b: &Found) -> std::cmp::Ordering {
        b.score
            .total_cmp(&a.score)
            .then_with(|| a.unique.puzzle.givens().cmp(&b.unique.puzzle.givens()))
            .then_with(|| a.unique.puzzle.cells().cmp(b.unique.puzzle.cells()))
    }

    /// Offers a puzzle of `lineage`; true when its score is higher than any before.
    fn offer(&mut self, f: Found, lineage: &Grid) -> bool {
        use std::cmp::Ordering::Less;
        let higher = self.found.first().is_none_or(|b| f.score > b.score);
        let same = |(k, l): (&Found, &Grid)| {
            k.unique.solution == f.unique.solution
                || l == lineage
                || symmetric(&k.unique.puzzle, &f.unique.puzzle)
        };
        if let Some(i) = self.found.iter().zip(&self.lineages).position(same) {
            if Pool::order(&f, &self.found[i]) != Less {
                return false;
            }
            self.found.remove(i);
            self.lineages.remove(i);
        }
        let at = self.found.partition_point(|k| Pool::order(k, &f) == Less);
        if at >= self.keep {
            return false;
        }
        self.found.insert(at, f);
        self.lineages.insert(at, lineage.clone());
        self.found.truncate(self.keep);
        self.lineages.truncate(self.keep);
        higher
    }

    fn threshold(&self) -> f64 {
        if self.found.len() < self.keep {
            f64::NEG_INFINITY
        } else {
            self.found.last().map_or(f64::NEG_INFINITY, |f| f.score)
        }
    }
}

/// What the chains share.
pub(super) struct Shared<'a> {
    pool: Mutex<Pool>,
    /// The pool's lowest kept score, as f64 bits (an offer below it is not made).
    threshold: AtomicU64,
    /// The best score of any island so far (held while the observer hears
    /// a row, so that rows arrive in its order).
    overall: Mutex<f64>,
    pub(super) iterations: AtomicU64,
    pub(super) evaluations: AtomicU64,
    failures: Mutex<(Vec<String>, u64)>,
    started: Instant,
    deadline: Option<Instant>,
    cancel: &'a Arc<AtomicBool>,
    pub(super) observer: &'a dyn HuntObserver,
}

impl Shared<'_> {
    /// Offers `unique` to the pool; `lineage` is the solution grid of the
    /// writing it came from (see [`Pool`]), when not its own.
    pub(super) fn offer(
        &self,
        unique: &Unique,
        lineage: Option<&Grid>,
        s: &Scored,
        iteration: u64,
    ) {
        if s.score < f64::from_bits(self.threshold.load(Ordering::Relaxed)) {
            return;
        }
        let elapsed_s = self.started.elapsed().as_secs_f64();
        let found = s.found(unique.clone(), iteration, elapsed_s);
        let mut pool = crate::sync::lock(&self.pool);
        pool.offer(found, lineage.unwrap_or(&unique.solution));
        self.threshold
            .store(pool.threshold().to_bits(), Ordering::Relaxed);
    }

    pub(super) fn failed(&self, why: String) {
        let mut f = crate::sync::lock(&self.failures);
        if f.0.len() < 5 {
            f.0.push(why);
        }
        f.1 += 1;
    }

    pub(super) fn stopped(&self) -> bool {
        self.cancel.load(Ordering::Relaxed) || self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// Tells the observer that island `island` bettered its own best.
    /// `copy`: the puzzle is a symmetric copy of the island's best before.
    pub(super) fn island_improved(&self, island: usize, s: &Scored, puzzle: &Unique, copy: bool) {
        let mut overall = crate::sync::lock(&self.overall);
        *overall = overall.max(s.score);
        self.observer.improved(&ProgressRow {
            elapsed_s: self.started.elapsed().as_secs_f64(),
            iterations: self.iterations.load(Ordering::Relaxed),
            island,
            best: s.score,
            overall: *overall,
            cost: s.cost.value,
            against: s.against.map(|a| a.value),
            puzzle: puzzle.puzzle.clone(),
            copy,
        });
    }

    pub(super) fn best(&self) -> f64 {
        let pool = crate::sync::lock(&self.pool);
        pool.found.first().map_or(0.0, |f| f.score)
    }
}

/// Runs a hunt for the puzzles on which `hunted` costs most, or (with
/// `against`) most relative to `against`. `cancel` stops it early (Ctrl-C);
/// what was found so far is returned all the same.
pub fn hunt(
    hunted: &Contender,
    against: Option<&Contender>,
    opts: &HuntOptions,
    cancel: &Arc<AtomicBool>,
    observer: &dyn HuntObserver,
) -> Result<HuntResult, HuntError> {
    if let Some(b) = against {
        if b.variant == hunted.variant {
            return Err(HuntError::SameContender(b.variant.clone()));
        }
    }
    if matches!(opts.stop, Stop::Iterations(0)) || opts.stop == Stop::Time(Duration::ZERO) {
        return Err(HuntError::ZeroBudget);
    }
    let geometry = match &opts.start {
        Start::Generated(g) => *g,
        Start::Puzzles(p) => p
            .first()
            .map(|p| p.geometry())
            .ok_or_else(|| HuntError::NoStart("no puzzle to start from".into()))?,
    };
    for c in std::iter::once(hunted).chain(against) {
        if !c.supports(geometry) {
            return Err(HuntError::Size {
                name: c.variant.clone(),
                size: geometry.name(),
            });
        }
        if opts.objective != Objective::Time && !c.counts {
            return Err(HuntError::NoCounters {
                name: c.variant.clone(),
                objective: opts.objective.name(),
            });
        }
    }
    let scorer = Scorer::new(hunted, against, opts, cancel);
    let score = |u: &Unique| scorer.score(u);
    let what = Scoring {
        score: &score,
        name: hunted.variant.clone(),
        pair: against.is_some(),
    };
    search(&what, geometry, opts, cancel, observer)
}

/// What a search maximises: a puzzle's score (or why it has none), the
/// contender's name for a failure on the first puzzle, and whether the
/// score is a ratio.
pub(super) struct Scoring<'a> {
    pub(super) score: &'a ScoreFn<'a>,
    pub(super) name: String,
    pub(super) pair: bool,
}

/// The search itself, for any score: islands from their starts until the
/// budget is spent or `cancel` is raised; the kept puzzles checked.
pub(super) fn search(
    what: &Scoring<'_>,
    geometry: Geometry,
    opts: &HuntOptions,
    cancel: &Arc<AtomicBool>,
    observer: &dyn HuntObserver,
) -> Result<HuntResult, HuntError> {
    let checker = moves::checker(geometry);
    let n = opts.islands.max(1);
    let starts = starting_points(what, checker, opts, geometry, n, cancel)?;
    let start_best = starts.iter().map(|s| s.1.score).fold(0.0, f64::max);

    let started = Instant::now();
    let shared = Shared {
        pool: Mutex::new(Pool {
            keep: opts.keep.max(1),
            found: Vec::new(),
            lineages: Vec::new(),
        }),
        threshold: AtomicU64::new(f64::NEG_INFINITY.to_bits()),
        overall: Mutex::new(0.0),
        iterations: AtomicU64::new(0),
        evaluations: AtomicU64::new(starts.len() as u64),
        failures: Mutex::new((Vec::new(), 0)),
        started,
        deadline: match opts.stop {
            Stop::Time(t) => Some(started + t),
            Stop::Iterations(_) => None,
        },
        cancel,
        observer,
    };
    let mut islands: Vec<Island> = starts
        .into_iter()
        .enumerate()
        .map(|(i, (u, s))| {
            let quota = match opts.stop {
                Stop::Iterations(m) => m / n as u64 + u64::from((i as u64) < m % n as u64),
                Stop::Time(_) => u64::MAX,
            };
            shared.offer(&u, None, &s, 0);
            Island::new(i, u, s, quota, opts.seed)
        })
        .collect();
    let search = Search {
        checker,
        score: what.score,
        shared: &shared,
        pair: what.pair,
        geometry,
        epoch: opts.epoch.max(1),
        polish: opts.polish,
    };
    search.run(&mut islands, opts.threads.max(1));
    let elapsed = started.elapsed();
    let Shared {
        pool,
        iterations,
        evaluations,
        failures,
        ..
    } = shared;
    let mut failures = crate::sync::into_inner(failures);
    let mut found = crate::sync::into_inner(pool).found;
    // Each kept puzzle is checked by a solver the hunt did not use.
    let independent = SolverId::DlxCrate;
    found.retain(|f| {
        let out = independent.solve(&f.unique.puzzle, &Limits::new(Mode::Unique));
        let ok = out.status == Status::Unique && out.first() == Some(&f.unique.solution);
        if !ok {
            failures.1 += 1;
            failures.0.push(format!(
                "{} says {} for a kept puzzle: dropped",
                independent.name(),
                out.status
            ));
        }
        ok
    });
    Ok(HuntResult {
        found,
        iterations: iterations.into_inner(),
        evaluations: evaluations.into_inner(),
        elapsed,
        interrupted: cancel.load(Ordering::Relaxed),
        checked_by: independent.name(),
        failures,
        start_best,
    })
}

/// The chains' starting puzzles, scored: generated ones, one per chain; or
/// the given puzzles scored, chain `i` taking the `i`-th best.
fn starting_points(
    what: &Scoring<'_>,
    checker: SolverId,
    opts: &HuntOptions,
    geometry: Geometry,
    islands: usize,
    cancel: &AtomicBool,
) -> Result<Vec<(Unique, Scored)>, HuntError> {
    let first_failure = |why: String| HuntError::Failed {
        name: what.name.clone(),
        why,
    };
    match &opts.start {
        Start::Generated(g) => {
            let gen = GenerateOptions::minimal(*g);
            let mut out = Vec::with_capacity(islands);
            for i in 0..islands {
                let mut rng = stream(opts.seed, u64::MAX - i as u64);
                let (puzzle, solution) = loop {
                    if let Some(p) = generate_one(&gen, &mut rng) {
                        break p;
                    }
                };
                let u = Unique { puzzle, solution };
                let s = (what.score)(&u).map_err(first_failure)?;
                out.push((u, s));
            }
            Ok(out)
        }
        Start::Puzzles(list) => {
            let mut scored = Vec::new();
            let mut rng = stream(opts.seed, u64::MAX);
            let mut first_error = None;
            for p in list {
                if p.geometry() != geometry || p.is_pencilmark() {
                    continue;
                }
                let Some(u) = moves::restore(checker, p.clone(), &mut rng) else {
                    continue;
                };
                match (what.score)(&u) {
                    Ok(s) => scored.push((u, s)),
                    Err(e) => {
                        first_error.get_or_insert(e);
                    }
                }
                if cancel.load(Ordering::Relaxed) {
                    break;
                }
            }
            if scored.is_empty() {
                return Err(match first_error {
                    Some(e) => first_failure(e),
                    None => HuntError::NoStart(
                        "no puzzle to start from: none of the puzzles given has a solution".into(),
                    ),
                });
            }
            scored.sort_by(|a, b| {
                b.1.score
                    .total_cmp(&a.1.score)
                    .then_with(|| a.0.puzzle.cells().cmp(b.0.puzzle.cells()))
            });
            Ok((0..islands)
                .map(|i| scored[i % scored.len()].clone())
                .collect())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::transform::Transform;

    #[test]
    fn a_copy_and_what_moves_made_of_it_are_the_find_it_came_from() {
        let g = Geometry::from_side(9).unwrap();
        let mut rng = crate::seeded::stream(3, 0);
        let gen = GenerateOptions::minimal(g);
        let (puzzle, solution) = generate_one(&gen, &mut rng).unwrap();
        let found = |puzzle: &Grid, solution: &Grid, score: f64| Found {
            unique: Unique {
                puzzle: puzzle.clone(),
                solution: solution.clone(),
            },
            score,
            cost: score,
            against: None,
            censored: false,
            iteration: 0,
            elapsed_s: 0.0,
        };
        // A copy in another writing with a given more: another solution grid,
        // and not symmetric to the first (it has a given more).
        let t = Transform::random(g, &mut rng);
        let (mut copied, copied_solution) = (t.apply(&puzzle), t.apply(&solution));
        let open = (0..81).find(|&c| copied.get(c) == 0).unwrap();
        copied.set(open, copied_solution.get(open));
        assert_ne!(copied_solution, solution);
        assert!(!symmetric(&puzzle, &copied));
        let pool = |lineage: &Grid| {
            let mut pool = Pool {
                keep: 4,
                found: Vec::new(),
                lineages: Vec::new(),
            };
            pool.offer(found(&puzzle, &solution, 10.0), &solution);
            pool.offer(found(&copied, &copied_solution, 12.0), lineage);
            pool.found.iter().map(|f| f.score).collect::<Vec<_>>()
        };
        // Of the first's lineage: one find, the better.
        assert_eq!(pool(&solution), [12.0]);
        // Of its own: two.
        assert_eq!(pool(&copied_solution), [12.0, 10.0]);
    }
}
