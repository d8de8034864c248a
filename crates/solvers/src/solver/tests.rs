use super::*;
use crate::format::test_grid as grid;
use crate::grid::Geometry;
use crate::validate::check_solution;
use std::time::Duration;

const HARD: &str =
    "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..";
const HARD_ANSWER: &str =
    "812753649943682175675491283154237896369845721287169534521974368438526917796318452";
/// The exact-cover article's easy puzzle: naked and hidden singles alone solve it.
const EASY: &str =
    ".9.6..3...3..5..285.1..27....61.8..2.1.....3.8..5.96....97..4.314..2..9...8..6.7.";

/// Every strategy that finishes the hard seed puzzle within a small budget.
fn complete_strategies() -> impl Iterator<Item = SolverId> {
    SolverId::ALL
        .iter()
        .copied()
        .filter(|s| *s != SolverId::NaiveExactCoverPure)
}

#[test]
fn registry_names_are_unique_and_round_trip() {
    for s in SolverId::ALL {
        assert_eq!(SolverId::from_name(s.name()), Some(*s));
        assert!(!s.description().is_empty());
        assert!(SolverId::from_name(s.strategy())
            .unwrap()
            .is_default_variant());
    }
    let mut names: Vec<_> = SolverId::ALL.iter().map(|s| s.name()).collect();
    names.dedup();
    assert_eq!(names.len(), SolverId::ALL.len());
    assert_eq!(SolverId::from_name("nope"), None);
}

#[test]
fn every_strategy_solves_the_hard_seed_puzzle() {
    let p = grid(HARD);
    for s in complete_strategies() {
        let out = s.solve(
            &p,
            &Limits::new(Mode::Unique).with_node_budget(Some(50_000_000)),
        );
        assert_eq!(out.status, Status::Unique, "{s}");
        assert_eq!(out.solution_count, 1, "{s}");
        assert_eq!(out.first(), Some(&grid(HARD_ANSWER)), "{s}");
        assert!(
            !s.counts_search() || (out.counters.nodes >= 1 && out.counters.guesses >= 1),
            "{s}: {:?}",
            out.counters
        );
    }
}

#[test]
fn first_mode_stops_at_one_solution() {
    let empty = Grid::empty(Geometry::new(3).unwrap());
    for s in complete_strategies() {
        let out = s.solve(
            &empty,
            &Limits::new(Mode::First).with_node_budget(Some(10_000_000)),
        );
        assert_eq!((out.status, out.solution_count), (Status::Solved, 1), "{s}");
        assert_eq!(check_solution(&empty, out.first().unwrap()), Ok(()), "{s}");
    }
}

#[test]
fn counting_the_empty_4x4_gives_288() {
    let empty = Grid::empty(Geometry::new(2).unwrap());
    for s in SolverId::ALL
        .iter()
        .filter(|s| s.supports(empty.geometry()))
    {
        assert_eq!(s.count_up_to(&empty, 1000), 288, "{s}");
        let out = s.solve(&empty, &Limits::new(Mode::Count(1000)));
        assert_eq!(out.status, Status::Multiple, "{s}");
        assert_eq!(
            out.solutions.len(),
            2,
            "{s}: keeps two solutions by default"
        );
        assert_ne!(out.solutions[0], out.solutions[1], "{s}");
        assert_eq!(s.count_up_to(&empty, 5), 5, "{s}: stops at the limit");
    }
}

#[test]
fn conflicting_givens_give_no_solution_and_invalid_when_checked() {
    let mut p = grid(HARD);
    p.set(1, 8); // 8 twice in row 1
    assert_no_solution(&p);
    for s in SolverId::ALL {
        assert_eq!(
            s.solve_checked(&p, &Limits::new(Mode::Unique)).status,
            Status::Invalid
        );
    }
}

#[test]
fn a_cell_the_givens_leave_no_digit_has_no_solution() {
    // No two givens conflict, but r1c1 sees 1-8 in its row and 9 in its column.
    let mut text = String::from(".12345678");
    text.push('9');
    text.push_str(&".".repeat(71));
    let p = grid(&text);
    assert!(crate::validate::find_conflict(&p).is_none());
    assert_no_solution(&p);
}

/// Every strategy finds no solution in `p` (or runs out of its budget looking).
fn assert_no_solution(p: &Grid) {
    for s in SolverId::ALL {
        let out = s.solve(
            p,
            &Limits::new(Mode::Unique).with_node_budget(Some(1_000_000)),
        );
        assert!(
            matches!(out.status, Status::None | Status::Budget),
            "{s}: {:?}",
            out.status
        );
        assert!(out.solutions.is_empty(), "{s}");
    }
}

#[test]
fn node_budget_is_exact_and_reported() {
    let p = grid(HARD);
    // The reference crates search without our counters, so without node budgets.
    for s in SolverId::ALL.iter().filter(|s| s.counts_search()) {
        let out = s.solve(&p, &Limits::new(Mode::Unique).with_node_budget(Some(5)));
        assert_eq!(out.status, Status::Budget, "{s}");
        assert_eq!(out.counters.nodes, 5, "{s}");
    }
}

#[test]
fn deadline_and_cancel_stop_a_long_search() {
    let p = grid(HARD);
    let started = Instant::now();
    let limits =
        Limits::new(Mode::Unique).with_deadline(Some(Instant::now() + Duration::from_millis(30)));
    let out = SolverId::NaiveExactCoverPure.solve(&p, &limits);
    assert_eq!(out.status, Status::Budget);
    assert!(
        started.elapsed() < Duration::from_secs(2),
        "took {:?}",
        started.elapsed()
    );

    let flag = Arc::new(AtomicBool::new(false));
    let setter = {
        let flag = flag.clone();
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(30));
            flag.store(true, Ordering::Relaxed);
        })
    };
    let started = Instant::now();
    let out = SolverId::NaiveExactCoverPure.solve(&p, &Limits::new(Mode::Unique).with_cancel(flag));
    setter.join().unwrap();
    assert_eq!(out.status, Status::Cancelled);
    assert!(started.elapsed() < Duration::from_secs(2));
}

#[test]
fn a_cpu_deadline_stops_a_long_search_once_the_thread_has_spent_it() {
    let p = grid(HARD);
    let at = crate::clock::thread_cpu() + Duration::from_millis(30);
    let out = SolverId::NaiveExactCoverPure
        .solve(&p, &Limits::new(Mode::Unique).with_cpu_deadline(Some(at)));
    assert_eq!(out.status, Status::Budget);
    assert!(
        crate::clock::thread_cpu() >= at,
        "stopped by its CPU clock, not before"
    );
    // A deadline already past stops it at its first look at the clocks.
    let past = Limits::new(Mode::Unique).with_cpu_deadline(Some(Duration::ZERO));
    let out = SolverId::NaiveExactCoverPure.solve(&p, &past);
    assert_eq!(
        (out.status, out.counters.nodes),
        (Status::Budget, crate::solver::CHECK_INTERVAL)
    );
}

/// A slow, independent check: do naked (and optionally hidden) singles alone solve `p`?
fn singles_alone_solve(p: &Grid, hidden: bool) -> bool {
    let g = p.geometry();
    let n = g.side();
    let mut cells = p.cells().to_vec();
    let candidates = |cells: &[u8], c: usize| -> Vec<u8> {
        (1..=n as u8)
            .filter(|&d| {
                (0..g.cells()).all(|o| {
                    o == c
                        || cells[o] != d
                        || (g.row(o) != g.row(c)
                            && g.col(o) != g.col(c)
                            && g.boxed(o) != g.boxed(c))
                })
            })
            .collect()
    };
    loop {
        let mut progress = false;
        for c in 0..g.cells() {
            if cells[c] == 0 {
                if let [d] = candidates(&cells, c)[..] {
                    cells[c] = d;
                    progress = true;
                }
            }
        }
        if hidden && !progress {
            for unit in crate::grid::Unit::ALL {
                for i in 0..n {
                    let unit_cells: Vec<usize> = g.unit_cells(unit, i).collect();
                    for d in 1..=n as u8 {
                        if unit_cells.iter().any(|&c| cells[c] == d) {
                            continue;
                        }
                        let places: Vec<usize> = unit_cells
                            .iter()
                            .copied()
                            .filter(|&c| cells[c] == 0 && candidates(&cells, c).contains(&d))
                            .collect();
                        if let [c] = places[..] {
                            cells[c] = d;
                            progress = true;
                        }
                    }
                }
            }
        }
        if !progress {
            return cells.iter().all(|&d| d != 0);
        }
    }
}

#[test]
fn singles_variants_need_no_guess_exactly_when_singles_solve() {
    let mut puzzles = vec![grid(EASY), grid(HARD)];
    let opts = crate::generate::GenerateOptions::minimal(Geometry::new(3).unwrap());
    puzzles.extend((0..40).map(|i| crate::generate::generate_indexed(&opts, 9, i).unwrap().0));
    let many_clues = crate::generate::GenerateOptions {
        minimal: false,
        min_clues: Some(40),
        max_clues: Some(50),
        ..opts
    };
    puzzles.extend((0..40).map(|i| {
        crate::generate::generate_indexed(&many_clues, 9, i)
            .unwrap()
            .0
    }));
    let (mut naked_seen, mut hidden_seen) = (0, 0);
    for p in &puzzles {
        for (s, hidden) in [
            (SolverId::BitsetMrvNaked, false),
            (SolverId::BitsetMrv, true),
        ] {
            let out = s.solve(p, &Limits::new(Mode::Unique));
            assert_eq!(out.status, Status::Unique, "{s}");
            let by_singles = singles_alone_solve(p, hidden);
            assert_eq!(
                out.counters.no_guess(),
                by_singles,
                "{s} on {p:?}: {:?}",
                out.counters
            );
            if by_singles {
                assert_eq!(out.counters.guesses, 0);
                if hidden {
                    hidden_seen += 1
                } else {
                    naked_seen += 1
                }
            }
        }
    }
    assert!(
        hidden_seen > 0 && naked_seen > 0,
        "the sample must hold singles-only puzzles of both kinds"
    );
    assert!(!SolverId::BitsetMrv
        .solve(&grid(HARD), &Limits::new(Mode::Unique))
        .counters
        .no_guess());
}

#[test]
fn trace_matches_untraced_search_and_records_decisions() {
    let p = grid(HARD);
    // The reference crates' searches are not traced.
    for s in complete_strategies().filter(|s| s.counts_search()) {
        let limits = Limits::new(Mode::Unique).with_node_budget(Some(50_000_000));
        let plain = s.solve(&p, &limits);
        let mut log = TraceLog::default();
        let traced = s.solve_traced(&p, &limits, &mut log);
        assert_eq!(plain, traced, "{s}");
        let places = log
            .events
            .iter()
            .filter(|e| matches!(e, Event::Place { .. }))
            .count();
        let guesses = log
            .events
            .iter()
            .filter(|e| {
                matches!(
                    e,
                    Event::Place {
                        reason: Reason::Guess,
                        ..
                    } | Event::Confine { .. }
                )
            })
            .count();
        assert!(places > 0 && guesses > 0, "{s}");
        assert!(
            log.events
                .iter()
                .any(|e| matches!(e, Event::Backtrack { .. })),
            "{s}"
        );
        assert_eq!(
            log.events
                .iter()
                .filter(|e| matches!(e, Event::Solution { .. }))
                .count(),
            1,
            "{s}"
        );
        // Every backtrack says why, and none is told twice at the end.
        let backs: Vec<Why> = log
            .events
            .iter()
            .filter_map(|e| match e {
                Event::Backtrack { why, .. } => Some(*why),
                _ => None,
            })
            .collect();
        assert_ne!(log.events.last(), log.events.iter().rev().nth(1), "{s}");
        // The cell searches and DLX name the cell left without a candidate or
        // the digit left without a place.
        if matches!(
            s,
            SolverId::BitsetMrv
                | SolverId::BitsetMrvLocked
                | SolverId::Backtracking
                | SolverId::Dlx
        ) {
            assert!(
                backs
                    .iter()
                    .any(|w| matches!(w, Why::NoCandidate { .. } | Why::NoPlace { .. })),
                "{s}: {backs:?}"
            );
        }
    }
}

#[test]
fn a_dead_end_names_the_cell_or_digit_it_met() {
    use crate::grid::Unit;
    use crate::solver::trace::dead_end;
    let g = Geometry::from_side(4).unwrap();
    // r1c1 empty with no candidate.
    let why = dead_end(g, |_| 0, |c| if c == 0 { 0 } else { 0b1111 });
    assert_eq!(why, Why::NoCandidate { cell: 0 });
    // Every cell has candidates, but no cell of row 2 may hold 3.
    let why = dead_end(
        g,
        |_| 0,
        |c| if (4..8).contains(&c) { 0b1011 } else { 0b1111 },
    );
    assert_eq!(
        why,
        Why::NoPlace {
            digit: 3,
            unit: Unit::Row,
            index: 1
        }
    );
    let why = dead_end(g, |_| 0, |_| 0b1111);
    assert_eq!(why, Why::Contradiction);
    let alphabet = crate::format::Alphabet::default_for(g);
    let said = |why| {
        super::trace::Display {
            event: &Event::Backtrack { depth: 2, why },
            side: 4,
            alphabet: &alphabet,
        }
        .to_string()
    };
    assert_eq!(
        said(Why::NoPlace {
            digit: 3,
            unit: Unit::Row,
            index: 1
        }),
        "    backtrack to depth 2: digit 3 has no place left in row 2"
    );
    assert_eq!(
        said(Why::NoCandidate { cell: 5 }),
        "    backtrack to depth 2: r2c2 has no candidate left"
    );
}

#[test]
fn status_words_round_trip() {
    for s in Status::ALL {
        assert_eq!(s.word().parse::<Status>(), Ok(s));
    }
    let e = "Unique".parse::<Status>().unwrap_err().to_string();
    assert!(
        e.contains("is not a status: expected unique, multiple"),
        "{e}"
    );
}

#[test]
fn solvable_without_agrees_with_counting() {
    // The hard seed puzzle with some of its answer's cells added as clues, so
    // that removing one clue leaves it unique sometimes and not other times.
    let answer = grid(HARD_ANSWER);
    let mut rich = grid(HARD);
    for c in (0..81).step_by(5) {
        rich.set(c, answer.get(c));
    }
    let mut said = [0; 2];
    for c in (0..81).filter(|&c| rich.get(c) != 0) {
        let mut puzzle = rich.clone();
        puzzle.set(c, 0);
        let d = answer.get(c);
        // Any other solution differs from the answer at c.
        let other = solvable_without(&puzzle, c, d);
        let count = SolverId::BitsetMrv.count_up_to(&puzzle, 2);
        assert_eq!(other, count == 2, "cell {c}");
        // The bitset engine (other sizes' path) agrees with band.
        let limits = Limits::new(Mode::First);
        let mut tracer = NoTrace;
        let mut ctl = Control::new(&limits, &mut tracer);
        bitset_mrv::search_excluding(&puzzle, Some((c, d)), &mut ctl);
        assert_eq!(ctl.finish().solution_count > 0, other, "cell {c}");
        said[usize::from(other)] += 1;
    }
    assert!(said[0] > 0 && said[1] > 0, "{said:?}");
}

/// Grids past 25×25 (64-bit digit masks, the wide unit sets of the bitset
/// engine, three-word dirty sets at 49 and 64): every strategy that takes the
/// size agrees with `dlx` on generated unique puzzles with many givens, or
/// stops at its default budget (the slow seed strategies only).
#[test]
fn every_strategy_agrees_with_dlx_past_25x25() {
    for (side, count) in [(36, 3), (49, 2), (64, 1)] {
        let g = Geometry::from_side(side).unwrap();
        let opts = crate::generate::GenerateOptions {
            minimal: false,
            min_clues: Some(g.cells() * 3 / 4),
            max_clues: Some(g.cells() * 4 / 5),
            ..crate::generate::GenerateOptions::minimal(g)
        };
        for i in 0..count {
            let (p, answer) = crate::generate::generate_indexed(&opts, 25, i).unwrap();
            let reference = SolverId::Dlx.solve(&p, &Limits::new(Mode::Unique));
            assert_eq!(reference.status, Status::Unique, "{side}x{side} #{i}");
            assert_eq!(reference.first(), Some(&answer));
            for s in SolverId::ALL.iter().filter(|s| s.supports(g)) {
                let budget = s.default_node_budget().map(|b| b.min(200_000));
                let limits = Limits::new(Mode::Unique).with_node_budget(budget);
                let out = s.solve(&p, &limits);
                if out.status == Status::Budget && budget.is_some() {
                    continue;
                }
                assert_eq!(out.status, Status::Unique, "{s} on {side}x{side} #{i}");
                assert_eq!(out.first(), Some(&answer), "{s} on {side}x{side} #{i}");
                assert_eq!(check_solution(&p, &answer), Ok(()));
            }
        }
    }
}

/// Every strategy but `band` and `box` takes 36×36, 49×49 and 64×64.
#[test]
fn general_strategies_take_every_size_to_64() {
    for s in SolverId::ALL {
        let general = !matches!(s.strategy(), "band" | "box");
        for side in [36, 49, 64] {
            let g = Geometry::from_side(side).unwrap();
            assert_eq!(s.supports(g), general, "{s} at {side}");
        }
    }
}

/// `answer` as a pencilmark puzzle: each candidate other than the answer's
/// digit is excluded with probability `per_mille / 1000`, so the answer is
/// always a solution and the puzzle is unique or not by chance.
fn pencilmark_puzzle(answer: &Grid, per_mille: u32, rng: &mut impl rand::Rng) -> Grid {
    let n = answer.geometry().side() as u8;
    let marks = answer
        .cells()
        .iter()
        .map(|&a| {
            (1..=n)
                .filter(|&d| d == a || rng.gen_range(0..1000) >= per_mille)
                .fold(0u64, |m, d| m | 1 << (d - 1))
        })
        .collect();
    crate::format::from_marks(answer.geometry(), marks)
}

/// Pencilmark puzzles: every strategy finds what `dlx` finds (one solution
/// or several), and every solution it reports keeps the exclusions.
#[test]
fn every_strategy_agrees_with_dlx_on_pencilmark_puzzles() {
    let mut seen = [0usize; 2];
    let mut checked = std::collections::BTreeMap::new();
    for (side, rates) in [
        (4, &[300, 500][..]),
        (9, &[450, 600, 750]),
        (16, &[800, 900]),
    ] {
        let g = Geometry::from_side(side).unwrap();
        let mut rng = crate::seeded::stream(7, side as u64);
        for &rate in rates {
            for i in 0..4 {
                let answer = crate::generate::complete_grid(g, &mut rng);
                let p = pencilmark_puzzle(&answer, rate, &mut rng);
                assert!(p.is_pencilmark());
                let what = format!("{side}x{side} at {rate}‰ #{i}");
                let reference = SolverId::Dlx.solve(&p, &Limits::new(Mode::Unique));
                assert!(
                    matches!(reference.status, Status::Unique | Status::Multiple),
                    "{what}: {:?}",
                    reference.status
                );
                seen[usize::from(reference.status == Status::Multiple)] += 1;
                if reference.status == Status::Unique {
                    assert_eq!(reference.first(), Some(&answer), "{what}");
                }
                for s in SolverId::ALL.iter().filter(|s| s.supports(g)) {
                    // Random exclusions make deep dead ends for the searches
                    // without propagation; a budget keeps them short.
                    let budget = Some(s.default_node_budget().unwrap_or(u64::MAX).min(200_000));
                    for mode in [Mode::Unique, Mode::First] {
                        let out = s.solve(&p, &Limits::new(mode).with_node_budget(budget));
                        if out.status == Status::Budget {
                            continue;
                        }
                        *checked.entry(s.name()).or_insert(0) += 1;
                        let want = if mode == Mode::First {
                            Status::Solved
                        } else {
                            reference.status
                        };
                        assert_eq!(out.status, want, "{s} {mode:?} on {what}");
                        for sol in &out.solutions {
                            assert_eq!(check_solution(&p, sol), Ok(()), "{s} on {what}");
                        }
                        if want == Status::Unique {
                            assert_eq!(out.first(), Some(&answer), "{s} on {what}");
                        }
                    }
                }
            }
        }
    }
    // The rates give both kinds of puzzle, and each strategy finished some.
    assert!(seen[0] > 0 && seen[1] > 0, "{seen:?}");
    assert_eq!(checked.len(), SolverId::ALL.len(), "{checked:?}");
}

/// Marks that leave a cell nothing, or refuse a given, leave no solution:
/// every strategy says `none` when asked directly (but the seed's pure search,
/// which walks the whole tree to learn it), and the checked entry says
/// `invalid`.
#[test]
fn impossible_pencilmarks_have_no_solution() {
    let g = Geometry::new(3).unwrap();
    let mut marks = vec![crate::grid::full_mask(9); 81];
    marks[40] = 0;
    let empty_cell = Grid::empty(g).with_marks(marks).unwrap();
    let mut marks = vec![crate::grid::full_mask(9); 81];
    marks[0] = 0b10;
    let mut refused = Grid::empty(g);
    refused.set(0, 1);
    let refused = refused.with_marks(marks).unwrap();
    assert!(refused.marks_refuse_a_given());
    for p in [&empty_cell, &refused] {
        assert!(crate::validate::find_flaw(p).is_some());
        for s in SolverId::ALL {
            let limits = Limits::new(Mode::Unique).with_node_budget(Some(1_000_000));
            if *s != SolverId::NaiveExactCoverPure {
                assert_eq!(s.solve(p, &limits).status, Status::None, "{s}");
            }
            assert_eq!(s.solve_checked(p, &limits).status, Status::Invalid, "{s}");
        }
    }
}

#[test]
fn modes_read_back_what_they_write_and_nothing_else() {
    for m in [
        Mode::First,
        Mode::Unique,
        Mode::Count(1),
        Mode::Count(1_000_000),
    ] {
        assert_eq!(m.to_string().parse::<Mode>(), Ok(m));
    }
    for bad in [
        "", "Unique", "count", "count:", "count:0", "count:x", "first ",
    ] {
        let e = bad.parse::<Mode>().unwrap_err().to_string();
        assert!(e.contains("is not a mode"), "{bad:?}: {e}");
    }
}
