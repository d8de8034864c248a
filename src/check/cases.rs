//! The known puzzles a check sends: each size's reference puzzles with one
//! solution, several and none, and their pencilmark forms.

use crate::contender::BenchPuzzle;
use crate::grid::{Geometry, Grid};
use crate::solver::{Limits, Mode, Solver, SolverId, Status};

/// A reference puzzle and what a correct answer says (mode `unique`).
pub(super) struct Case {
    pub(super) what: &'static str,
    pub(super) puzzle: BenchPuzzle,
}

/// Reference puzzles of a size: its embedded set, or (49×49, which has none)
/// two seeded unique puzzles with three quarters of the cells given.
fn candidates(side: usize) -> Vec<Grid> {
    let name = match side {
        4 => "set-4x4",
        16 => "set-16x16",
        25 => "set-25x25",
        36 => "set-36x36",
        64 => "set-64x64",
        9 => "hard-9x9",
        _ => {
            let Some(g) = Geometry::from_side(side) else {
                return Vec::new();
            };
            let opts = crate::generate::GenerateOptions {
                minimal: false,
                min_clues: Some(g.cells() * 3 / 4),
                max_clues: Some(g.cells() * 4 / 5),
                ..crate::generate::GenerateOptions::minimal(g)
            };
            return (0..2)
                .filter_map(|i| crate::generate::generate_indexed(&opts, 1, i).ok())
                .map(|(p, _)| p)
                .collect();
        }
    };
    let set = crate::datasets::embedded(name).expect("embedded set");
    let ds = crate::format::read_str(set.name, set.text, &Default::default())
        .expect("embedded sets parse");
    ds.puzzles.into_iter().map(|p| p.grid).collect()
}

pub(super) fn count(grid: &Grid, k: u64) -> crate::solver::Outcome {
    SolverId::BitsetMrv.solve(grid, &Limits::new(Mode::Count(k)))
}

/// Two puzzles with one solution from the size's reference puzzles, one with
/// several (cells of a solution blanked until a second solution appears) and
/// one with none (a first puzzle with one empty cell given a digit no solution has).
pub(super) fn cases(side: usize) -> Vec<Case> {
    let mut out = Vec::new();
    let unique: Vec<Grid> = candidates(side)
        .into_iter()
        .filter(|g| count(g, 2).status == Status::Unique)
        .take(2)
        .collect();
    let Some(first) = unique.first().cloned() else {
        return out;
    };
    for g in unique {
        let answer = count(&g, 1).solutions.into_iter().next();
        out.push(Case {
            what: "one solution",
            puzzle: BenchPuzzle {
                index: 0,
                grid: g,
                expected: answer,
                invalid: false,
                reference: Default::default(),
            },
        });
    }
    let solution = count(&first, 1).solutions.remove(0);
    let mut several = solution.clone();
    for cell in 0..several.cells().len() {
        several.set(cell, 0);
        if cell % 4 == 3 && count(&several, 2).solution_count >= 2 {
            out.push(Case {
                what: "several solutions",
                puzzle: BenchPuzzle {
                    index: 0,
                    grid: several,
                    expected: None,
                    invalid: false,
                    reference: Default::default(),
                },
            });
            break;
        }
    }
    let g = first.geometry();
    'cells: for cell in (0..g.cells()).filter(|&c| first.get(c) == 0) {
        for d in 1..=g.side() as u8 {
            let mut trial = first.clone();
            trial.set(cell, d);
            if d != solution.get(cell)
                && crate::validate::find_conflict(&trial).is_none()
                && count(&trial, 1).status == Status::None
            {
                out.push(Case {
                    what: "no solution",
                    puzzle: BenchPuzzle {
                        index: 0,
                        grid: trial,
                        expected: None,
                        invalid: false,
                        reference: Default::default(),
                    },
                });
                break 'cells;
            }
        }
    }
    out
}

/// Pencilmark forms of a size's cases (sides to 25): each one-solution case
/// with a fixed share of its empty cells' wrong candidates excluded (one
/// solution still), the several-solutions case likewise (two of its solutions
/// kept), and the first pencilmark case with its answer excluded from a cell
/// that keeps other candidates (none). Made from the reference puzzles, not from
/// `generate --pencilmark`, whose puzzles can take a search without hidden
/// singles many seconds.
pub(super) fn pencilmark_cases(plain: &[Case]) -> Vec<Case> {
    let case = |what, grid: Grid, expected| Case {
        what,
        puzzle: BenchPuzzle {
            index: 0,
            grid,
            expected,
            invalid: false,
            reference: Default::default(),
        },
    };
    // `p`'s givens kept; each empty cell keeps the digits of `solutions`
    // there and, of the others, those with (cell + digit) not a multiple of 3.
    let pencilmarks = |p: &Grid, solutions: &[Grid]| {
        let g = p.geometry();
        let marks = (0..g.cells())
            .map(|cell| match p.get(cell) {
                0 => (1..=g.side() as u8)
                    .filter(|&d| {
                        !(cell + d as usize).is_multiple_of(3)
                            || solutions.iter().any(|s| s.get(cell) == d)
                    })
                    .fold(0u64, |m, d| m | 1 << (d - 1)),
                d => 1 << (d - 1),
            })
            .collect();
        crate::format::from_marks(g, marks)
    };
    let mut out = Vec::new();
    for c in plain.iter().filter(|c| c.what == "one solution") {
        let (p, Some(answer)) = (&c.puzzle.grid, &c.puzzle.expected) else {
            continue;
        };
        if p.geometry().side() > 25 {
            return Vec::new();
        }
        let pm = pencilmarks(p, std::slice::from_ref(answer));
        out.push(case("one solution (pencilmarks)", pm, Some(answer.clone())));
    }
    let Some(first) = out.first().map(|c| c.puzzle.clone()) else {
        return out;
    };
    // The plain several-solutions case, keeping two of its solutions.
    let g = first.grid.geometry();
    if let Some(c) = plain.iter().find(|c| c.what == "several solutions") {
        let two = count(&c.puzzle.grid, 2).solutions;
        let several = pencilmarks(&c.puzzle.grid, &two);
        if two.len() == 2 && count(&several, 2).status == Status::Multiple {
            out.push(case("several solutions (pencilmarks)", several, None));
        }
    }
    let answer = first.expected.expect("a one-solution case has its answer");
    let mut marks = first.grid.marks().expect("pencilmarks").to_vec();
    if let Some(cell) = (0..g.cells()).find(|&c| marks[c].count_ones() >= 2) {
        marks[cell] &= !(1 << (answer.get(cell) - 1));
        let none = crate::format::from_marks(g, marks);
        if crate::validate::find_flaw(&none).is_none() && count(&none, 1).status == Status::None {
            out.push(case("no solution (pencilmarks)", none, None));
        }
    }
    out
}
