//! A study's points and their puzzles: a grid side and a number of givens,
//! each puzzle a random complete grid with that many random cells kept.

use super::StudyError;
use crate::contender::BenchPuzzle;
use crate::generate::holes_puzzle;
use crate::grid::Geometry;
use crate::seeded::stream;
use serde::{Deserialize, Serialize};

/// One point of a study: a grid side and how many givens each puzzle keeps.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PointSpec {
    /// Grid side (4, 9, 16, ...).
    pub side: usize,
    /// Givens kept per puzzle.
    pub givens: usize,
}

impl PointSpec {
    /// The point's geometry (checked when the point was made).
    pub fn geometry(self) -> Geometry {
        Geometry::from_side(self.side).expect("a point's side is checked when it is made")
    }

    /// The name of the point's puzzle set, like `9x9-k25`.
    pub fn name(self) -> String {
        format!("{0}x{0}-k{1}", self.side, self.givens)
    }
}

/// The geometry of a grid side, or the error listing the sides there are.
pub fn side_geometry(side: usize) -> Result<Geometry, StudyError> {
    Geometry::from_side(side).ok_or_else(|| {
        StudyError::Options(format!(
            "{side} is not a grid side this workbench handles: the sides are {}",
            crate::grid::SIDES_TEXT
        ))
    })
}

/// Reads a range of clue counts, both ends included: `17..60`, `17..=60`,
/// `17-60`, or one count.
pub fn clue_range(text: &str) -> Result<(usize, usize), StudyError> {
    let bad = || {
        StudyError::Options(format!(
            "{text:?}: expected a range of clue counts such as 17..60"
        ))
    };
    let num = |t: &str| t.trim().parse::<usize>().map_err(|_| bad());
    let ends = ["..=", "..", "-"]
        .iter()
        .find_map(|sep| text.split_once(sep));
    match ends {
        Some((a, b)) => Ok((num(a)?, num(b)?)),
        None => num(text).map(|n| (n, n)),
    }
}

/// The points of a clue study: `lo..=hi` givens in steps of `step` on `g`.
pub fn clue_points(
    g: Geometry,
    lo: usize,
    hi: usize,
    step: usize,
) -> Result<Vec<PointSpec>, StudyError> {
    if step == 0 {
        return Err(StudyError::Options(
            "the clue step must be 1 or more".into(),
        ));
    }
    if lo > hi {
        return Err(StudyError::Options(format!(
            "the clue range {lo}..{hi} has no points: give the smaller count first, like {hi}..{lo}"
        )));
    }
    if hi > g.cells() {
        return Err(StudyError::Options(format!(
            "the clue range {lo}..{hi} goes past the {} cells of a {g} grid",
            g.cells()
        )));
    }
    Ok((lo..=hi)
        .step_by(step)
        .map(|givens| PointSpec {
            side: g.side(),
            givens,
        })
        .collect())
}

/// The points of a size study: each side at `fraction` of its cells given.
pub fn size_points(sides: &[usize], fraction: f64) -> Result<Vec<PointSpec>, StudyError> {
    if !(fraction > 0.0 && fraction < 1.0) {
        return Err(StudyError::Options(format!(
            "the fraction of givens must lie strictly between 0 and 1, got {fraction}"
        )));
    }
    if sides.is_empty() {
        return Err(StudyError::Options("no grid sizes given".into()));
    }
    let mut out: Vec<PointSpec> = Vec::new();
    for &side in sides {
        let g = side_geometry(side)?;
        if out.iter().any(|p| p.side == side) {
            continue;
        }
        out.push(PointSpec {
            side,
            givens: (fraction * g.cells() as f64).round() as usize,
        });
    }
    out.sort_by_key(|p| p.side);
    Ok(out)
}

/// The puzzles of a point: puzzle `i` draws from its own stream, keyed by the
/// seed, the side, the givens and `i`, so a point's puzzles do not depend on
/// the other points of the study.
pub fn point_puzzles(p: PointSpec, count: usize, seed: u64) -> Vec<BenchPuzzle> {
    (0..count)
        .map(|i| {
            let key = (p.side as u64) << 48 | (p.givens as u64) << 24 | i as u64;
            let (grid, _) = holes_puzzle(p.geometry(), p.givens, &mut stream(seed, key));
            BenchPuzzle {
                index: i as u64,
                grid,
                expected: None,
                invalid: false,
                reference: Default::default(),
            }
        })
        .collect()
}
