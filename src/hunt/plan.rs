//! A hunt as it is asked for, checked into [`HuntOptions`] before anything
//! runs: the stop, the starts (generated, or a dataset's puzzles), the
//! contenders by name.

use super::{HuntError, HuntOptions, Objective, Start, Stop};
use crate::contender::Contender;
use crate::external::{ContenderSpec, Program};
use crate::format::{Alphabet, ReadOptions};
use crate::grid::{Geometry, Grid};
use crate::harness::{self, files, Selection};
use crate::solver::{Mode, SolverId};
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

/// The time budget when neither a budget nor a move count is given.
pub const DEFAULT_BUDGET: Duration = Duration::from_secs(60);
/// Most puzzles of a `--from` dataset scored as starts.
pub const MAX_STARTS: usize = 2_000;

/// What a hunt is asked for.
#[derive(Clone, Debug)]
pub struct HuntRequest {
    /// The contender hunted.
    pub hunted: String,
    /// The contender it is measured against, for a pair hunt.
    pub against: Option<String>,
    /// What a contender's cost is.
    pub objective: Objective,
    /// The dataset to start from (default: generated minimal puzzles).
    pub from: Option<String>,
    /// How its files are read.
    pub input: ReadOptions,
    /// The side of generated starts.
    pub size: usize,
    /// Stop after this much time.
    pub budget: Option<Duration>,
    /// Stop after this many moves.
    pub iterations: Option<u64>,
    /// Puzzles kept.
    pub keep: usize,
    /// Seed of every random choice.
    pub seed: u64,
    /// Chains (default: every core).
    pub threads: Option<usize>,
    /// Islands of the search (by default [`super::default_islands`] of
    /// the threads).
    pub islands: Option<usize>,
    /// Timed solves per puzzle with the time objective.
    pub repeat: u32,
    /// Longest wait for one solve.
    pub time_limit: Option<Duration>,
}

/// A hunt checked and its starts read.
#[derive(Debug)]
pub struct HuntPlan {
    /// The options the search runs with.
    pub options: HuntOptions,
    /// The starts' alphabet: how found puzzles are written.
    pub alphabet: Alphabet,
    /// Where the chains start, in words.
    pub start_words: String,
}

impl HuntPlan {
    /// Checks `req` on a machine of `cores` cores and reads its starts
    /// (`progress` hears what is downloaded).
    pub fn new(
        req: &HuntRequest,
        cores: usize,
        progress: &mut dyn FnMut(&str),
    ) -> Result<HuntPlan, HuntError> {
        if req.against.as_deref() == Some(req.hunted.as_str()) {
            return Err(HuntError::SameContender(req.hunted.clone()));
        }
        let stop = match (req.iterations, req.budget) {
            (Some(0), _) | (_, Some(Duration::ZERO)) => return Err(HuntError::ZeroBudget),
            (Some(n), _) => Stop::Iterations(n),
            (None, Some(t)) => Stop::Time(t),
            (None, None) => Stop::Time(DEFAULT_BUDGET),
        };
        let (start, alphabet, start_words) = match &req.from {
            Some(spec) => {
                let (grids, alphabet) = starts(spec, &req.input, req.seed, progress)?;
                let words = format!("the best of {} puzzles of {spec}", grids.len());
                (Start::Puzzles(grids), alphabet, words)
            }
            None => {
                let g = Geometry::from_side(req.size)
                    .filter(|g| g.side() <= crate::generate::UNIQUE_MAX_SIDE)
                    .ok_or(HuntError::StartSize(req.size))?;
                let words = format!("generated minimal {} puzzles", g.name());
                (Start::Generated(g), Alphabet::default_for(g), words)
            }
        };
        let threads = crate::usage::check_threads(req.threads.unwrap_or(cores).max(1), cores)?;
        Ok(HuntPlan {
            options: HuntOptions {
                objective: req.objective,
                stop,
                keep: req.keep,
                seed: req.seed,
                threads,
                islands: req
                    .islands
                    .unwrap_or(super::default_islands(threads))
                    .max(1),
                epoch: super::EPOCH,
                polish: match req.objective {
                    Objective::Time => 0,
                    Objective::Guesses | Objective::Nodes => super::POLISH,
                },
                repeat: req.repeat,
                time_limit: req.time_limit,
                start,
            },
            alphabet,
            start_words,
        })
    }
}

/// The `spec` dataset's puzzles (a sample of [`MAX_STARTS`]), checked to hold some.
fn starts(
    spec: &str,
    read: &ReadOptions,
    seed: u64,
    progress: &mut dyn FnMut(&str),
) -> Result<(Vec<Grid>, Alphabet), HuntError> {
    let sel = Selection {
        sample: Some(MAX_STARTS),
        limit: None,
        permute: false,
        seed,
    };
    let sets = harness::resolve(spec, read, &sel, progress).map_err(|source| HuntError::From {
        spec: spec.to_string(),
        source: Box::new(source),
    })?;
    let mut grids = Vec::new();
    let mut alphabet = None;
    for set in &sets {
        if set.pencilmarks {
            continue;
        }
        alphabet.get_or_insert_with(|| set.alphabet.clone());
        set.for_each_window(&mut |w| {
            grids.extend(w.iter().filter(|p| !p.invalid).map(|p| p.grid.clone()));
            Ok(true)
        })
        .map_err(HuntError::Io)?;
        if !grids.is_empty() {
            break;
        }
    }
    match alphabet {
        Some(a) if !grids.is_empty() => Ok((grids, a)),
        _ => Err(HuntError::NoStart(format!(
            "--from {spec}: no valid puzzle to start from (a hunt moves givens: it takes puzzles without pencilmarks whose givens do not conflict)"
        ))),
    }
}

/// A contender by name: a strategy, or an outside entry (started now, its
/// log in `dir/contenders`).
pub fn contender(
    name: &str,
    specs: &[ContenderSpec],
    threads: usize,
    dir: &Path,
) -> Result<Contender, HuntError> {
    if let Some(spec) = specs.iter().find(|s| s.name == name) {
        let program = Program::new(spec.clone(), Some(&dir.join(files::CONTENDER_LOGS)))
            .map_err(HuntError::Io)?;
        program
            .start(threads, Mode::Unique)
            .map_err(|e| HuntError::Contender(Box::new(e)))?;
        return Ok(Arc::new(program).contender());
    }
    match SolverId::from_name(name) {
        Some(id) => Ok(Contender::from_id(id)),
        None => {
            let mut known: Vec<&str> = SolverId::ALL.iter().map(|s| s.name()).collect();
            known.extend(specs.iter().map(|s| s.name.as_str()));
            Err(HuntError::Unknown {
                name: name.to_string(),
                known: known.join(", "),
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(hunted: &str) -> HuntRequest {
        HuntRequest {
            hunted: hunted.into(),
            against: None,
            objective: Objective::Guesses,
            from: None,
            input: ReadOptions::default(),
            size: 9,
            budget: None,
            iterations: None,
            keep: 20,
            seed: 1,
            threads: None,
            islands: None,
            repeat: 5,
            time_limit: None,
        }
    }

    fn refused(req: HuntRequest) -> String {
        HuntPlan::new(&req, 2, &mut |_| {}).unwrap_err().to_string()
    }

    #[test]
    fn bad_requests_are_refused_before_anything_runs() {
        let against = Some("band".to_string());
        assert!(refused(HuntRequest {
            against,
            ..request("band")
        })
        .contains("two different"));
        let none = HuntRequest {
            iterations: Some(0),
            ..request("band")
        };
        assert!(refused(none).contains("above zero"));
        let none = HuntRequest {
            budget: Some(Duration::ZERO),
            ..request("band")
        };
        assert!(refused(none).contains("above zero"));
        let big = HuntRequest {
            size: 36,
            ..request("band")
        };
        assert!(refused(big).contains("sides 4, 9, 16 or 25"));
        let crowd = HuntRequest {
            threads: Some(100_000),
            ..request("band")
        };
        assert!(refused(crowd)
            .starts_with("--threads: 100000 threads is more than this machine takes: at most 16"));
    }

    #[test]
    fn the_plan_takes_the_stop_and_threads_asked() {
        let plan = |req: HuntRequest| HuntPlan::new(&req, 2, &mut |_| {}).unwrap().options;
        let moves = plan(HuntRequest {
            iterations: Some(500),
            budget: Some(Duration::from_secs(9)),
            threads: Some(3),
            ..request("band")
        });
        assert_eq!((moves.stop, moves.threads), (Stop::Iterations(500), 3));
        let timed = plan(HuntRequest {
            budget: Some(Duration::from_secs(90)),
            ..request("band")
        });
        assert_eq!(
            (timed.stop, timed.threads),
            (Stop::Time(Duration::from_secs(90)), 2)
        );
        assert_eq!(plan(request("band")).stop, Stop::Time(DEFAULT_BUDGET));
    }

    #[test]
    fn symmetric_copies_are_scored_for_exact_objectives_only() {
        let polish = |objective| {
            let req = HuntRequest {
                objective,
                ..request("band")
            };
            HuntPlan::new(&req, 2, &mut |_| {}).unwrap().options.polish
        };
        // A time is noisy: the best of hundreds of copies would be the luckiest draw.
        assert_eq!(polish(Objective::Time), 0);
        assert_eq!(polish(Objective::Guesses), crate::hunt::POLISH);
        assert_eq!(polish(Objective::Nodes), crate::hunt::POLISH);
    }

    #[test]
    fn islands_are_eight_or_four_a_thread_unless_named() {
        let islands = |threads, islands| {
            let req = HuntRequest {
                threads: Some(threads),
                islands,
                ..request("band")
            };
            HuntPlan::new(&req, 2, &mut |_| {}).unwrap().options.islands
        };
        assert_eq!((islands(1, None), islands(2, None)), (8, 8));
        assert_eq!((islands(3, None), islands(16, None)), (12, 64));
        assert_eq!((islands(16, Some(8)), islands(1, Some(3))), (8, 3));
    }
}
