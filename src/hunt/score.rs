//! What a puzzle costs the hunted contender (and the one it is measured
//! against), as the hunt measures it through their engines; its score; the
//! pool of the best puzzles so far, one up to symmetry and lineage; and
//! what the chains share while they search.

use super::moves::Unique;
use super::{Found, HuntObserver, HuntOptions, Objective, ProgressRow};
use crate::contender::{check, BenchPuzzle, Contender, Job, Solved};
use crate::grid::Grid;
use crate::solver::{Mode, Status};
use crate::transform::symmetric;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

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
pub(super) struct Pool {
    pub(super) keep: usize,
    pub(super) found: Vec<Found>,
    /// Each kept puzzle's lineage: the solution grid of the writing it came from.
    pub(super) lineages: Vec<Grid>,
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
    pub(super) pool: Mutex<Pool>,
    /// The pool's lowest kept score, as f64 bits (an offer below it is not made).
    pub(super) threshold: AtomicU64,
    /// The best score of any island so far (held while the observer hears
    /// a row, so that rows arrive in its order).
    pub(super) overall: Mutex<f64>,
    pub(super) iterations: AtomicU64,
    pub(super) evaluations: AtomicU64,
    pub(super) failures: Mutex<(Vec<String>, u64)>,
    pub(super) started: Instant,
    pub(super) deadline: Option<Instant>,
    pub(super) cancel: &'a Arc<AtomicBool>,
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

/// A score as the terminal shows it: whole, or to three places.
pub fn score_text(v: f64) -> String {
    if v.fract() == 0.0 {
        format!("{v:.0}")
    } else {
        format!("{v:.3}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::{generate_one, GenerateOptions};
    use crate::grid::Geometry;
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
