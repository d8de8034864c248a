//! Property tests: random puzzles of every size for every strategy; readers on arbitrary input.

use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use sudoku_bench::format::{read_reader, write_block, write_line, Alphabet, Format, ReadOptions};
use sudoku_bench::generate::complete_grid;
use sudoku_bench::solver::{
    Band, BitsetMrv, Boxes, Isa, Limits, Mode, Singles, Solver, SolverId, Status,
};
use sudoku_bench::transform::Transform;
use sudoku_bench::validate::{check_solution, find_conflict};
use sudoku_bench::{Geometry, Grid};

/// Strategies that take part for a size (the sizes each handles; 25x25 only for the strong ones).
fn strategies(g: Geometry) -> Vec<SolverId> {
    SolverId::ALL
        .iter()
        .copied()
        .filter(|s| *s != SolverId::NaiveExactCoverPure && s.supports(g))
        // The `dlx` crate takes no node budget: on a sparse random 16x16 it
        // once searched for 15 minutes in this test. It is checked on 4x4 and
        // 9x9 here, and on every embedded set elsewhere.
        .filter(|s| *s != SolverId::DlxCrate || g.side() <= 9)
        .filter(|s| {
            g.side() < 25
                || matches!(
                    s,
                    SolverId::Dlx | SolverId::BitsetMrv | SolverId::BitsetMrvLocked
                )
        })
        .collect()
}

fn limits(mode: Mode) -> Limits {
    Limits::new(mode).with_node_budget(Some(300_000))
}

/// A random complete grid with a random share of its cells blanked.
fn puzzle(g: Geometry, seed: u64, blank_percent: u32) -> (Grid, Grid) {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let solution = complete_grid(g, &mut rng);
    let mut p = solution.clone();
    for c in 0..g.cells() {
        if rng.gen_range(0..100) < blank_percent {
            p.set(c, 0);
        }
    }
    (p, solution)
}

/// Blanks `c` and makes it have no candidate while the givens stay conflict-free:
/// its row, column and box are given from the solution, and a row peer `p` outside
/// its box takes `c`'s digit (whose other places in `p`'s column and box are blanked).
fn without_candidates(g: Geometry, solution: &Grid, mut p: Grid, c: usize) -> Grid {
    let (r, col) = (g.row(c), g.col(c));
    for unit_cell in
        (0..g.cells()).filter(|&o| g.row(o) == r || g.col(o) == col || g.boxed(o) == g.boxed(c))
    {
        p.set(unit_cell, solution.get(unit_cell));
    }
    let d = solution.get(c);
    p.set(c, 0);
    let peer = (0..g.side())
        .map(|k| g.cell(r, k))
        .find(|&o| g.boxed(o) != g.boxed(c))
        .unwrap();
    for o in 0..g.cells() {
        if solution.get(o) == d && (g.col(o) == g.col(peer) || g.boxed(o) == g.boxed(peer)) {
            p.set(o, 0);
        }
    }
    p.set(peer, d);
    p
}

/// The solution check, written the slow and obvious way.
fn obviously_right(puzzle: &Grid, solution: &Grid) -> bool {
    let g = puzzle.geometry();
    let n = g.side();
    let units = (0..n).flat_map(|i| {
        [
            (0..g.cells())
                .filter(|&c| g.row(c) == i)
                .collect::<Vec<_>>(),
            (0..g.cells()).filter(|&c| g.col(c) == i).collect(),
            (0..g.cells()).filter(|&c| g.boxed(c) == i).collect(),
        ]
    });
    let permutations = units.into_iter().all(|cells| {
        let mut digits: Vec<u8> = cells.iter().map(|&c| solution.get(c)).collect();
        digits.sort_unstable();
        digits == (1..=n as u8).collect::<Vec<_>>()
    });
    let kept = (0..g.cells()).all(|c| puzzle.get(c) == 0 || puzzle.get(c) == solution.get(c));
    permutations && kept
}

fn geometry() -> impl Strategy<Value = Geometry> {
    (2usize..=5).prop_map(|b| Geometry::new(b).unwrap())
}

/// A random complete grid of any size, cheaply: the pattern grid (row `r`
/// shifted by `(r mod b)·b + r div b`) moved by a random symmetry, so that
/// 36×36 to 64×64 cost no search.
fn any_complete_grid(g: Geometry, seed: u64) -> Grid {
    let (b, n) = (g.box_size(), g.side());
    let cells: Vec<u8> = (0..g.cells())
        .map(|c| {
            let (r, col) = (g.row(c), g.col(c));
            (((r % b) * b + r / b + col) % n + 1) as u8
        })
        .collect();
    let pattern = Grid::from_cells(g, &cells).unwrap();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    Transform::random(g, &mut rng).apply(&pattern)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 8, ..ProptestConfig::default() })]

    /// Every strategy at every size it declares, 4×4 to 64×64, the slow
    /// ones and the crates included: on a grid with a few open cells each
    /// must answer, its answers valid and keeping the givens, and say
    /// `Unique` exactly when `dlx` does (the pure exact-cover DFS may stop
    /// at its budget instead).
    #[test]
    fn every_strategy_solves_at_every_size_it_declares(seed in any::<u64>(), open in 1u32..=6) {
        for b in 2usize..=8 {
            let g = Geometry::new(b).unwrap();
            let solution = any_complete_grid(g, seed);
            prop_assert_eq!(check_solution(&solution, &solution), Ok(()));
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed ^ 0x5eed);
            let mut p = solution.clone();
            for c in 0..g.cells() {
                if rng.gen_range(0..100) < open {
                    p.set(c, 0);
                }
            }
            let want = SolverId::Dlx.solve(&p, &limits(Mode::Unique)).status;
            prop_assert!(matches!(want, Status::Unique | Status::Multiple), "dlx gave {:?}", want);
            let all: Vec<SolverId> = SolverId::ALL.iter().copied().filter(|s| s.supports(g)).collect();
            prop_assert!(all.len() >= 12, "{} strategies at {}", all.len(), g.side());
            for s in all {
                // The exact-cover article's pure DFS is there to show the
                // blow-up: it may stop at its budget even here, never be wrong.
                let blows_up = s == SolverId::NaiveExactCoverPure;
                let budget = if blows_up { 20_000 } else { 300_000 };
                let out = s.solve(&p, &Limits::new(Mode::Unique).with_node_budget(Some(budget)));
                if blows_up && out.status == Status::Budget {
                    prop_assert!(out.solutions.iter().all(|sol| check_solution(&p, sol).is_ok()));
                    continue;
                }
                prop_assert_eq!(out.status, want, "{} at {}x{}", s, g.side(), g.side());
                prop_assert!(!out.solutions.is_empty(), "{}", s);
                for sol in &out.solutions {
                    prop_assert_eq!(check_solution(&p, sol), Ok(()), "{}", s);
                }
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn solutions_validate_and_keep_givens(g in geometry(), seed in any::<u64>(), blanks in 10u32..80) {
        let blanks = if g.side() == 25 { blanks.min(45) } else { blanks };
        let (p, _) = puzzle(g, seed, blanks);
        for s in strategies(g) {
            let out = s.solve(&p, &limits(Mode::Unique));
            prop_assert!(matches!(out.status, Status::Unique | Status::Multiple | Status::Budget), "{} gave {:?}", s, out.status);
            if g.side() < 25 || s.default_node_budget().is_none() {
                prop_assert!(out.status != Status::None);
            }
            for sol in &out.solutions {
                prop_assert_eq!(check_solution(&p, sol), Ok(()), "{}", s);
            }
        }
    }

    #[test]
    fn solution_check_agrees_with_the_obvious_one(g in geometry(), seed in any::<u64>(), blanks in 0u32..100, edits in prop::collection::vec((any::<prop::sample::Index>(), any::<prop::sample::Index>(), 0u8..3), 0..3)) {
        let (p, mut s) = puzzle(g, seed, blanks);
        prop_assert_eq!(check_solution(&p, &s), Ok(()));
        for (a, b, kind) in edits {
            let (a, b) = (a.index(g.cells()), b.index(g.cells()));
            match kind {
                // Swap two cells: still a permutation of the digits, often a conflict.
                0 => {
                    let (x, y) = (s.get(a), s.get(b));
                    s.set(a, y);
                    s.set(b, x);
                }
                1 => s.set(a, (b % (g.side() + 1)) as u8),
                // Relabel two digits everywhere: a valid grid that may change givens.
                _ => {
                    let (x, y) = (s.get(a), s.get(b));
                    for c in 0..g.cells() {
                        let d = s.get(c);
                        s.set(c, if d == x { y } else if d == y { x } else { d });
                    }
                }
            }
        }
        let verdict = check_solution(&p, &s);
        prop_assert_eq!(verdict.is_ok(), obviously_right(&p, &s), "{:?}", verdict);
        if s.cells().contains(&0) {
            prop_assert!(matches!(verdict, Err(sudoku_bench::validate::SolutionError::Incomplete(_))));
        }
    }

    #[test]
    fn unsolvable_puzzles_are_reported_as_none(g in geometry(), seed in any::<u64>(), blanks in 10u32..70, cell in any::<prop::sample::Index>()) {
        let (p, solution) = puzzle(g, seed, blanks.min(if g.side() == 25 { 40 } else { 70 }));
        let p = without_candidates(g, &solution, p, cell.index(g.cells()));
        prop_assert_eq!(find_conflict(&p), None);
        for s in strategies(g) {
            let out = s.solve_checked(&p, &limits(Mode::Unique));
            prop_assert!(matches!(out.status, Status::None | Status::Budget), "{} gave {:?}", s, out.status);
            if s.default_node_budget().is_none() {
                prop_assert_eq!(out.status, Status::None, "{}", s);
            }
        }
    }

    /// Sparse 9x9 puzzles have many solutions: `band` must find every one of them
    /// (a branch that skipped an alternative would count fewer), and every
    /// instruction-set path must make exactly the same search.
    #[test]
    fn band_counts_agree_with_dlx_on_every_path(seed in any::<u64>(), blanks in 40u32..95, limit in 1u64..400) {
        let g = Geometry::new(3).unwrap();
        let (p, _) = puzzle(g, seed, blanks);
        let mode = Mode::Count(limit);
        let want = SolverId::Dlx.solve(&p, &Limits::new(mode));
        let portable = Band { isa: Isa::Portable }.solve(&p, &Limits::new(mode));
        prop_assert_eq!(portable.solution_count, want.solution_count);
        prop_assert_eq!(portable.status, want.status);
        for sol in &portable.solutions {
            prop_assert_eq!(check_solution(&p, sol), Ok(()));
        }
        for isa in Isa::available() {
            let out = Band { isa }.solve(&p, &Limits::new(mode));
            prop_assert_eq!(&out, &portable, "{:?}", isa);
        }
    }

    /// The same for `box`: every solution of sparse puzzles, and one search on every path.
    #[test]
    fn box_counts_agree_with_dlx_on_every_path(seed in any::<u64>(), blanks in 40u32..95, limit in 1u64..400) {
        let g = Geometry::new(3).unwrap();
        let (p, _) = puzzle(g, seed, blanks);
        let mode = Mode::Count(limit);
        let want = SolverId::Dlx.solve(&p, &Limits::new(mode));
        let portable = Boxes { isa: Isa::Portable }.solve(&p, &Limits::new(mode));
        prop_assert_eq!(portable.solution_count, want.solution_count);
        prop_assert_eq!(portable.status, want.status);
        for sol in &portable.solutions {
            prop_assert_eq!(check_solution(&p, sol), Ok(()));
        }
        for isa in Isa::available() {
            let out = Boxes { isa }.solve(&p, &Limits::new(mode));
            prop_assert_eq!(&out, &portable, "{:?}", isa);
        }
    }

    /// The same for the bitset family's engines with hidden singles: the vector
    /// path (9×9, AVX2) makes the portable search node for node, dead ends,
    /// contradictions and every solution included.
    #[test]
    fn bitset_counts_agree_with_dlx_on_every_path(seed in any::<u64>(), blanks in 40u32..95, limit in 1u64..400, locked in any::<bool>()) {
        let g = Geometry::new(3).unwrap();
        let (p, _) = puzzle(g, seed, blanks);
        let mode = Mode::Count(limit);
        let singles = if locked { Singles::NakedHiddenLocked } else { Singles::NakedAndHidden };
        let want = SolverId::Dlx.solve(&p, &Limits::new(mode));
        let portable = BitsetMrv { singles, isa: Isa::Portable }.solve(&p, &Limits::new(mode));
        prop_assert_eq!(portable.solution_count, want.solution_count);
        prop_assert_eq!(portable.status, want.status);
        for sol in &portable.solutions {
            prop_assert_eq!(check_solution(&p, sol), Ok(()));
        }
        for isa in Isa::available() {
            let out = BitsetMrv { singles, isa }.solve(&p, &Limits::new(mode));
            prop_assert_eq!(&out, &portable, "{:?}", isa);
        }
    }

    #[test]
    fn readers_never_panic_on_bytes(bytes in prop::collection::vec(any::<u8>(), 0..2000)) {
        for format in [None, Some(Format::Line), Some(Format::Csv), Some(Format::Block), Some(Format::Hdu)] {
            let opts = ReadOptions { format, ..ReadOptions::default() };
            let _ = read_reader("fuzz", &bytes[..], &opts);
        }
    }

    #[test]
    fn readers_locate_errors_in_near_valid_puzzles(g in geometry(), seed in any::<u64>(), edits in prop::collection::vec((any::<prop::sample::Index>(), 0u8..3, any::<char>()), 1..4), block in any::<bool>()) {
        let (p, _) = puzzle(g, seed, 50);
        let a = Alphabet::default_for(g);
        let mut text: Vec<char> = if block { write_block(&p, &a) } else { write_line(&p, &a) + "\n" }.chars().collect();
        for (at, op, ch) in edits {
            let i = at.index(text.len().max(1));
            match op {
                0 if i < text.len() => text[i] = ch,
                1 => text.insert(i.min(text.len()), ch),
                _ if i < text.len() => { text.remove(i); }
                _ => {}
            }
        }
        let text: String = text.into_iter().collect();
        let lines: Vec<&str> = text.lines().collect();
        match read_reader("near", text.as_bytes(), &ReadOptions::default()) {
            Ok(ds) => prop_assert!(!ds.puzzles.is_empty()),
            Err(e) => {
                if let Some(pe) = e.first_parse_error() {
                    prop_assert!(pe.line >= 1 && pe.line <= lines.len() + 1, "line {} of {}", pe.line, lines.len());
                    prop_assert!(pe.column >= 1);
                    prop_assert!(e.to_string().contains("near:"));
                }
            }
        }
    }
}
