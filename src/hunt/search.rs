//! The search: islands of simulated annealing, run in generations.
//!
//! A chain makes a random move ([`super::moves::step`]) and keeps the result
//! when it scores higher, or when it scores lower with probability
//! `exp(Δ / T)`, where `Δ` is the change in the logarithm of the score: a
//! doubling counts alike at 10 guesses and at 1,000. `T` falls geometrically
//! over an epoch of [`EPOCH`] moves, from [`T_HOT`](super::islands::T_HOT) (a drop of 10% is kept
//! one time in two, a halving one in a hundred) to [`T_COLD`](super::islands::T_COLD) (only
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
use super::moves::{self, Unique};
use super::score::{Pool, Scored, Scorer, Shared};
use super::{HuntError, HuntObserver, HuntOptions, HuntResult, Objective};
use super::{Start, Stop};
use crate::contender::Contender;
use crate::generate::{generate_one, GenerateOptions};
use crate::grid::Geometry;
use crate::seeded::stream;
use crate::solver::{Limits, Mode, Solver, SolverId, Status};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Moves in one epoch of the temperature schedule.
pub const EPOCH: u64 = 50_000;

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
