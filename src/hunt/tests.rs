use super::*;
use crate::contender::Contender;
use crate::solver::{Limits, Mode, Solver, SolverId, Status};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

fn nine() -> Geometry {
    Geometry::from_side(9).unwrap()
}

fn opts(objective: Objective, iterations: u64, threads: usize, seed: u64) -> HuntOptions {
    HuntOptions {
        objective,
        stop: Stop::Iterations(iterations),
        keep: 8,
        seed,
        threads,
        islands: 4,
        epoch: search::EPOCH,
        polish: 20,
        repeat: 3,
        time_limit: None,
        start: Start::Generated(nine()),
    }
}

fn run(o: &HuntOptions, a: SolverId, b: Option<SolverId>) -> HuntResult {
    let (a, b) = (Contender::from_id(a), b.map(Contender::from_id));
    hunt(&a, b.as_ref(), o, &Arc::new(AtomicBool::new(false)), &Quiet).expect("the hunt runs")
}

fn puzzles(r: &HuntResult) -> Vec<(Grid, f64)> {
    r.found
        .iter()
        .map(|f| (f.unique.puzzle.clone(), f.score))
        .collect()
}

#[test]
fn the_same_seed_gives_the_same_puzzles_at_one_thread() {
    // Past one epoch: the reheat is part of what repeats.
    let o = opts(Objective::Guesses, search::EPOCH + 500, 1, 11);
    let first = run(&o, SolverId::Band, None);
    let again = run(&o, SolverId::Band, None);
    assert_eq!(puzzles(&first), puzzles(&again));
    assert_eq!(first.iterations, search::EPOCH + 500);
    let other = run(&opts(Objective::Guesses, 600, 1, 12), SolverId::Band, None);
    assert_ne!(puzzles(&first), puzzles(&other));
}

#[test]
fn every_kept_puzzle_has_one_solution_and_its_score_is_its_cost() {
    let r = run(&opts(Objective::Guesses, 800, 2, 3), SolverId::Band, None);
    assert!(!r.found.is_empty());
    assert!(r.found.windows(2).all(|w| w[0].score >= w[1].score));
    for f in &r.found {
        let out = SolverId::Dlx.solve(&f.unique.puzzle, &Limits::new(Mode::Unique));
        assert_eq!(out.status, Status::Unique);
        assert_eq!(out.first(), Some(&f.unique.solution));
        let band = SolverId::Band.solve(&f.unique.puzzle, &Limits::new(Mode::Unique));
        assert_eq!(band.counters.guesses as f64, f.score);
    }
    // One puzzle per solution grid: a given more is not another find.
    let distinct: std::collections::HashSet<_> =
        r.found.iter().map(|f| f.unique.solution.clone()).collect();
    assert_eq!(distinct.len(), r.found.len());
}

#[test]
fn a_pair_score_is_the_ratio_of_the_two_costs() {
    let r = run(
        &opts(Objective::Nodes, 300, 1, 9),
        SolverId::BitsetMrv,
        Some(SolverId::Dlx),
    );
    for f in &r.found {
        let a = SolverId::BitsetMrv.solve(&f.unique.puzzle, &Limits::new(Mode::Unique));
        let b = SolverId::Dlx.solve(&f.unique.puzzle, &Limits::new(Mode::Unique));
        assert_eq!(f.cost, a.counters.nodes as f64);
        assert_eq!(f.against, Some(b.counters.nodes as f64));
        assert!((f.score - f.cost / b.counters.nodes as f64).abs() < 1e-12);
    }
}

/// Records every progress row.
struct Rows(Mutex<Vec<ProgressRow>>);

impl HuntObserver for Rows {
    fn improved(&self, row: &ProgressRow) {
        self.0.lock().unwrap().push(row.clone());
    }
}

#[test]
fn the_best_never_falls_and_the_hunt_beats_its_start() {
    let rows = Rows(Mutex::new(Vec::new()));
    let a = Contender::from_id(SolverId::Band);
    let r = hunt(
        &a,
        None,
        &opts(Objective::Guesses, 3000, 2, 1),
        &Arc::new(AtomicBool::new(false)),
        &rows,
    )
    .unwrap();
    let rows = rows.0.into_inner().unwrap();
    assert!(rows.len() >= 2);
    // The best of all never falls; each island's best rises row by row (no
    // generation ends within this budget, so no island restarts).
    assert!(rows.windows(2).all(|w| w[1].overall >= w[0].overall));
    for i in 0..4 {
        let mine: Vec<f64> = rows
            .iter()
            .filter(|r| r.island == i)
            .map(|r| r.best)
            .collect();
        assert!(mine.windows(2).all(|w| w[1] > w[0]), "island {i}: {mine:?}");
    }
    assert!(rows.iter().all(|r| r.overall >= r.best));
    assert_eq!(rows.last().unwrap().overall, r.found[0].score);
    assert!(
        r.found[0].score > r.start_best,
        "{} after {}",
        r.found[0].score,
        r.start_best
    );
}

#[test]
fn a_hunt_stopped_by_its_flag_keeps_the_best_so_far() {
    let cancel = Arc::new(AtomicBool::new(false));
    /// Raises the flag at the first improvement after the start.
    struct StopAt(Arc<AtomicBool>, Mutex<u32>);
    impl HuntObserver for StopAt {
        fn improved(&self, _: &ProgressRow) {
            let mut n = self.1.lock().unwrap();
            *n += 1;
            if *n >= 3 {
                self.0.store(true, Ordering::SeqCst);
            }
        }
    }
    let stop = StopAt(cancel.clone(), Mutex::new(0));
    let mut o = opts(Objective::Guesses, u64::MAX, 1, 2);
    o.stop = Stop::Time(std::time::Duration::from_secs(3600));
    let r = hunt(
        &Contender::from_id(SolverId::Band),
        None,
        &o,
        &cancel,
        &stop,
    )
    .unwrap();
    assert!(r.interrupted);
    assert!(!r.found.is_empty());
}

#[test]
fn starts_from_given_puzzles_take_the_best_first() {
    let text = crate::datasets::embedded("hard-9x9")
        .expect("an embedded set")
        .text;
    let ds = crate::format::read_str("hard-9x9", text, &Default::default()).unwrap();
    let grids: Vec<Grid> = ds.puzzles.into_iter().map(|p| p.grid).collect();
    let best = grids
        .iter()
        .map(|g| {
            SolverId::Band
                .solve(g, &Limits::new(Mode::Unique))
                .counters
                .guesses
        })
        .max()
        .unwrap();
    let mut o = opts(Objective::Guesses, 1, 1, 4);
    o.start = Start::Puzzles(grids);
    let r = run(&o, SolverId::Band, None);
    assert_eq!(r.start_best, best as f64);
    assert!(r.found[0].score >= best as f64);
}

#[test]
fn bad_requests_are_refused_before_anything_runs() {
    let band = Contender::from_id(SolverId::Band);
    let flag = Arc::new(AtomicBool::new(false));
    let err = |o: &HuntOptions, b: Option<&Contender>| {
        hunt(&band, b, o, &flag, &Quiet).unwrap_err().to_string()
    };
    let o = opts(Objective::Guesses, 10, 1, 1);
    assert!(err(&o, Some(&band)).contains("two different contenders"));
    assert!(err(&opts(Objective::Guesses, 0, 1, 1), None).contains("budget above zero"));
    let mut none = o.clone();
    none.start = Start::Puzzles(Vec::new());
    assert!(err(&none, None).contains("no puzzle"));
    let reference = Contender::from_id(SolverId::DlxCrate);
    let e = hunt(&reference, None, &o, &flag, &Quiet)
        .unwrap_err()
        .to_string();
    assert!(e.contains("reports no guesses"), "{e}");
    let mut big = o.clone();
    big.start = Start::Generated(Geometry::from_side(16).unwrap());
    let e = err(&big, None);
    assert!(e.contains("does not handle 16x16"), "{e}");
}

fn islands_opts(threads: usize, seed: u64) -> HuntOptions {
    let mut o = opts(Objective::Guesses, 4 * 300 * 7, threads, seed);
    (o.islands, o.epoch) = (4, 300);
    o
}

/// Hears rows and events.
#[derive(Default)]
struct Heard(Mutex<(Vec<ProgressRow>, Vec<String>)>);

impl HuntObserver for Heard {
    fn improved(&self, row: &ProgressRow) {
        self.0.lock().unwrap().0.push(row.clone());
    }
    fn event(&self, line: &str) {
        self.0.lock().unwrap().1.push(line.to_string());
    }
}

fn heard_run(o: &HuntOptions) -> (HuntResult, Vec<ProgressRow>, Vec<String>) {
    let heard = Heard::default();
    let a = Contender::from_id(SolverId::Band);
    let r = hunt(&a, None, o, &Arc::new(AtomicBool::new(false)), &heard).unwrap();
    let (rows, events) = heard.0.into_inner().unwrap();
    (r, rows, events)
}

#[test]
fn islands_give_the_same_puzzles_at_any_thread_count() {
    // Seven generations of four islands, restarts included.
    let (one, _, said_one) = heard_run(&islands_opts(1, 5));
    let (three, _, said_three) = heard_run(&islands_opts(3, 5));
    assert_eq!(puzzles(&one), puzzles(&three));
    assert_eq!(said_one, said_three, "the same islands tended the same way");
    assert_eq!((one.iterations, three.iterations), (8400, 8400));
}

#[test]
fn stuck_islands_of_the_lower_half_restart_and_each_restart_is_told() {
    let (r, rows, said) = heard_run(&islands_opts(2, 7));
    assert!(!said.is_empty(), "restarts in seven generations");
    assert!(
        said.iter().all(|l| {
            l.contains("for a generation, in the lower half: restarted from a new puzzle")
                || l.contains("for 4 generations, in the upper half: restarted from a new puzzle")
        }),
        "{said:?}"
    );
    // A restart leaves the island's best behind, never the hunt's.
    let fell = |k: usize| {
        let best: Vec<f64> = rows
            .iter()
            .filter(|r| r.island == k)
            .map(|r| r.best)
            .collect();
        best.windows(2).any(|w| w[1] < w[0])
    };
    let restarted = |k: usize| said.iter().any(|l| l.starts_with(&format!("island {k} ")));
    assert!((0..4).any(|k| fell(k) && restarted(k)), "{said:?}");
    assert!(
        (0..4).all(|k| !fell(k) || restarted(k)),
        "only a restart lowers an island's best"
    );
    // Every island has rows of its own; the best of all never falls.
    for i in 0..4 {
        assert!(rows.iter().any(|r| r.island == i), "island {i}");
    }
    assert!(rows.windows(2).all(|w| w[1].overall >= w[0].overall));
    assert!(r.found[0].score >= rows.last().unwrap().overall);
}

/// A fixture score with two basins in the count of givens: from 30 givens
/// up it climbs to 52 at 81; from 25 down it is 100 and more; in between it
/// is 0, which the annealing of a ratio never accepts (its level is
/// ln(f64::MIN_POSITIVE), about -708). A move takes at most one given away,
/// so a chain in the upper basin can never cross to the lower one.
fn two_basins(u: &moves::Unique) -> Result<score::Scored, String> {
    let n = u.puzzle.givens();
    let score = match n {
        30.. => (n - 29) as f64,
        26..=29 => 0.0,
        _ => 100.0 + (25 - n) as f64,
    };
    Ok(fixed(score))
}

/// A fixture's score: one contender's exact cost, nothing against it.
fn fixed(score: f64) -> score::Scored {
    score::Scored {
        score,
        cost: score::Cost {
            value: score,
            censored: false,
        },
        against: None,
    }
}

#[test]
fn islands_reach_the_better_of_two_basins_where_one_chain_stays_in_the_worse() {
    // The start: every other cell of a solution grid, 41 givens, in the worse basin.
    let mut rng = crate::seeded::stream(9, 0);
    let (_, solution) =
        crate::generate::generate_one(&crate::generate::GenerateOptions::minimal(nine()), &mut rng)
            .unwrap();
    let mut start = solution.clone();
    for c in (1..81).step_by(2) {
        start.set(c, 0);
    }
    assert_eq!(start.givens(), 41);
    let what = search::Scoring {
        score: &two_basins,
        name: "two basins".into(),
        pair: true,
    };
    let hunt = |islands: usize| {
        let mut o = opts(Objective::Guesses, 4 * 300 * 8, 2, 3);
        (o.islands, o.epoch, o.start) = (islands, 300, Start::Puzzles(vec![start.clone()]));
        let cancel = Arc::new(AtomicBool::new(false));
        search::search(&what, nine(), &o, &cancel, &Quiet).unwrap()
    };
    // One chain, the same 9,600 moves: it climbs its basin and stays there.
    let one = hunt(1);
    assert_eq!(one.iterations, 9600);
    assert!(
        one.found[0].score > 12.0,
        "it climbed: {}",
        one.found[0].score
    );
    assert!(one.found.iter().all(|f| f.score < 100.0));
    // Four islands: the stale ones restart from new puzzles, in the better basin.
    let four = hunt(4);
    assert_eq!(four.iterations, 9600);
    assert!(four.found[0].score >= 100.0, "{}", four.found[0].score);
    assert!(four.found[0].unique.puzzle.givens() <= 25);
}

#[test]
fn stuck_islands_of_the_upper_half_restart_later_and_the_best_never() {
    // Every puzzle scores the same: no island ever betters its best, and ties
    // rank the islands by index (0 and 1 the upper half, 0 the best).
    let flat = |_: &moves::Unique| Ok(fixed(1.0));
    let what = search::Scoring {
        score: &flat,
        name: "flat".into(),
        pair: false,
    };
    // Nine generations of four islands.
    let mut o = opts(Objective::Guesses, 4 * 50 * 9, 2, 4);
    (o.islands, o.epoch) = (4, 50);
    let heard = Heard::default();
    let cancel = Arc::new(AtomicBool::new(false));
    search::search(&what, nine(), &o, &cancel, &heard).unwrap();
    let (_, said) = heard.0.into_inner().unwrap();
    let of = |k: usize| -> Vec<&String> {
        said.iter()
            .filter(|l| l.starts_with(&format!("island {k} ")))
            .collect()
    };
    assert!(
        of(0).is_empty(),
        "the best island is never restarted: {said:?}"
    );
    // The upper half's other island after 4 stale generations, twice in 8.
    assert_eq!(of(1).len(), 2, "{said:?}");
    assert!(of(1)
        .iter()
        .all(|l| l.contains("for 4 generations, in the upper half")));
    // The lower half after each stale generation but the last.
    for k in [2, 3] {
        assert_eq!(of(k).len(), 8, "{said:?}");
        assert!(of(k)
            .iter()
            .all(|l| l.contains("for a generation, in the lower half")));
    }
}

#[test]
fn islands_go_on_from_the_best_symmetric_copy_and_keep_one_up_to_symmetry() {
    let mut rng = crate::seeded::stream(5, 0);
    let gen = crate::generate::GenerateOptions::minimal(nine());
    let (start, _) = crate::generate::generate_one(&gen, &mut rng).unwrap();
    let row = |g: &Grid, r: usize| (0..9).filter(|&c| g.get(r * 9 + c) != 0).count();
    let col = |g: &Grid, c: usize| (0..9).filter(|&r| g.get(r * 9 + c) != 0).count();
    // A score that only written copies of the start have: the givens of its
    // first row. Every move's result scores 0, which a ratio's annealing
    // never accepts, so only a copy can better an island's best.
    let first_row = |u: &moves::Unique| {
        let copy = crate::transform::symmetric(&start, &u.puzzle);
        Ok(fixed(if copy {
            1.0 + row(&u.puzzle, 0) as f64
        } else {
            0.0
        }))
    };
    let what = search::Scoring {
        score: &first_row,
        name: "first row".into(),
        pair: true,
    };
    let fullest = (0..9).map(|i| row(&start, i).max(col(&start, i))).max();
    assert!(
        fullest > Some(row(&start, 0)),
        "the start's first row is not its fullest"
    );
    let hunt = |polish: u32| {
        let mut o = opts(Objective::Guesses, 3 * 40, 1, 6);
        (o.islands, o.epoch, o.polish) = (1, 40, polish);
        o.start = Start::Puzzles(vec![start.clone()]);
        let heard = Heard::default();
        let cancel = Arc::new(AtomicBool::new(false));
        let r = search::search(&what, nine(), &o, &cancel, &heard).unwrap();
        (r, heard.0.into_inner().unwrap().0)
    };
    // Without copies, the start stays the best.
    let (plain, _) = hunt(0);
    assert_eq!(plain.found[0].unique.puzzle, start);
    // With them, the island's best is the copy whose first row is fullest,
    // told as a copy; the pool keeps that one copy of the start, however
    // many scored above the rest.
    let (copied, rows) = hunt(200);
    let best = &copied.found[0];
    assert_eq!(best.score, 1.0 + fullest.unwrap() as f64);
    assert!(crate::transform::symmetric(&start, &best.unique.puzzle));
    assert_eq!(
        SolverId::Dlx
            .solve(&best.unique.puzzle, &Limits::new(Mode::Unique))
            .first(),
        Some(&best.unique.solution)
    );
    assert!(rows.last().is_some_and(|r| r.copy && r.best == best.score));
    assert_eq!(copied.found.iter().filter(|f| f.score > 0.0).count(), 1);
}

#[test]
fn found_csv_rows_are_written_as_the_csv_crate_wrote_them() {
    use crate::columns::{header, Row};
    use write::{FoundLine, MergedLine};
    let puzzle = crate::format::read_str("t", "1......2..3..4..", &Default::default())
        .unwrap()
        .puzzles
        .remove(0)
        .grid;
    let solution = SolverId::Dlx
        .solve(&puzzle, &Limits::new(Mode::Unique))
        .first()
        .cloned()
        .unwrap();
    let found = Found {
        unique: Unique { puzzle, solution },
        score: 2.5,
        cost: 12.0,
        against: None,
        censored: false,
        iteration: 7,
        elapsed_s: 0.25,
    };
    let alphabet = crate::format::Alphabet::default_for(found.unique.puzzle.geometry());
    let mut out = header::<FoundLine>();
    FoundLine::of(1, &found, &alphabet, "0.250".into(), 7).row(&mut out);
    assert_eq!(
        String::from_utf8(out).unwrap(),
        "rank,score,cost,against_cost,censored,givens,found_at_s,found_at_iteration,puzzle\n\
         1,2.5,12,,false,4,0.250,7,1......2..3..4..\n"
    );
    let mut out = header::<MergedLine>();
    let copies = "a:1 b,2".to_string();
    MergedLine::of(1, &found, &alphabet, "h/puzzles.txt:3".into(), copies).row(&mut out);
    assert_eq!(
        String::from_utf8(out).unwrap(),
        "rank,score,cost,against_cost,censored,givens,source,copies,puzzle\n\
         1,2.5,12,,false,4,h/puzzles.txt:3,\"a:1 b,2\",1......2..3..4..\n"
    );
}
