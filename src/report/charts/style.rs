//! How series are told apart: the palettes, each series' slot (colour and
//! marker), and the marks drawn with them.

use super::{err, DrawError};
use plotters::prelude::*;

/// Okabe and Ito's colours, safe for colour-blind readers, without their
/// yellow (1.6:1 on white), in an order where neighbours differ most in
/// lightness (at least 12.9 L*): black, bluish green, orange, vermillion,
/// sky blue, blue, reddish purple.
pub(super) const PALETTE: [(u8, u8, u8); 8] = [
    (0, 0, 0),
    (0, 158, 115),
    (230, 159, 0),
    (213, 94, 0),
    (86, 180, 233),
    (0, 114, 178),
    (204, 121, 167),
    // An eighth, for the eighth series of the default run: a mid grey
    // (the palette's yellow is too pale on white).
    (119, 119, 119),
];

/// Colours for datasets (Paul Tol's muted scheme and a dark grey), apart
/// from the strategies' so that a dataset never reads as a strategy: ten,
/// for the default run's ten datasets. Those that share a marker (`i` and
/// `i + 9`) lie far apart in grayscale.
const DATASET_PALETTE: [(u8, u8, u8); 10] = [
    (51, 34, 136),
    (68, 170, 153),
    (136, 34, 85),
    (153, 153, 51),
    (204, 102, 119),
    (17, 119, 51),
    (85, 85, 85),
    (136, 204, 238),
    (221, 204, 119),
    (170, 68, 153),
];

/// The colour of dataset `i` in a chart whose series are datasets.
pub fn dataset_color(i: usize) -> RGBColor {
    let (r, g, b) = DATASET_PALETTE[i % DATASET_PALETTE.len()];
    RGBColor(r, g, b)
}

/// Each dataset's slot in a chart whose series are datasets (its colour
/// [`dataset_color`] and marker [`marker_shape`]), the same in every run:
/// an embedded dataset's is its place among the embedded sets (ten, one
/// colour each); any other name's is hashed from the name into the
/// palette, moved on to the next colour no dataset drawn here has while
/// one is free.
pub fn dataset_slots<'a>(names: impl IntoIterator<Item = &'a str>) -> Vec<usize> {
    let embedded = crate::datasets::EMBEDDED;
    let names: Vec<&str> = names.into_iter().collect();
    let known: Vec<Option<usize>> = names
        .iter()
        .map(|n| embedded.iter().position(|e| e.name == *n))
        .collect();
    let n = DATASET_PALETTE.len();
    let mut colours: Vec<usize> = known.iter().flatten().map(|s| s % n).collect();
    names
        .iter()
        .zip(&known)
        .map(|(name, k)| {
            k.unwrap_or_else(|| {
                // FNV-1a: stable from one build to the next.
                let hash = name.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
                    (h ^ b as u64).wrapping_mul(0x100_0000_01b3)
                });
                let start = embedded.len() + (hash % (n * MARKERS) as u64) as usize;
                let slot = (start..start + n)
                    .find(|s| !colours.contains(&(s % n)))
                    .unwrap_or(start);
                colours.push(slot % n);
                slot
            })
        })
        .collect()
}

/// Marker shapes, one per series with its colour (see [`marker_shape`]):
/// the first nine slots, the default run's eight contenders among them,
/// each have a shape of their own.
pub const MARKERS: usize = 9;

/// The colour of series slot `i`: slots 8 apart share a colour and differ
/// in marker.
pub fn color(i: usize) -> RGBColor {
    let (r, g, b) = PALETTE[i % PALETTE.len()];
    RGBColor(r, g, b)
}

/// The marker shape of series slot `i`: slots that share a colour (eight
/// apart) differ in shape, and slots that share a shape (nine apart, up to
/// slot 13) differ in lightness for a grayscale print.
pub fn marker_kind(i: usize) -> usize {
    i % MARKERS
}

/// The built-in strategies, each in its own slot in every chart of every
/// command (`bench`, `report`, `study`, `compare`).
const SLOTS: [&str; 17] = [
    "band",
    "bitset-mrv",
    "dlx",
    "backtracking",
    "naive-exact-cover",
    "cdcl",
    "sat-varisat",
    // The other reference, beside sat-varisat in the default run.
    "dlx-crate",
    "bitset-mrv-locked",
    "cdcl-hybrid",
    "dlx-first-column",
    "band-portable",
    "bitset-mrv-plain",
    "bitset-mrv-naked",
    "naive-exact-cover-pure",
    // Not in the default run: grey and a plus, apart from `band` beside it.
    "box",
    "box-portable",
];

/// Each series' slot: a built-in strategy's own; any other name, in the
/// order given, the next slot after them whose colour no series drawn here
/// has yet (while one of the eight is free), and whose marker none has
/// where one is left, so that an outside contender's bars never share a
/// colour with a strategy's beside them, nor a marker with a grey like its own.
pub fn slots<'a>(names: impl IntoIterator<Item = &'a str>) -> Vec<usize> {
    let known: Vec<Option<usize>> = names
        .into_iter()
        .map(|n| SLOTS.iter().position(|s| *s == n))
        .collect();
    let mut colours: Vec<usize> = known.iter().flatten().map(|s| s % PALETTE.len()).collect();
    let mut markers: Vec<usize> = known.iter().flatten().map(|&s| marker_kind(s)).collect();
    let mut next = SLOTS.len();
    known
        .iter()
        .map(|k| {
            k.unwrap_or_else(|| {
                // A colour no series here has, with a marker none has
                // where one is left, else a free colour alone.
                let free = |s: &usize| !colours.contains(&(s % PALETTE.len()));
                let slot = (next..next + PALETTE.len() * MARKERS)
                    .find(|s| free(s) && !markers.contains(&marker_kind(*s)))
                    .or_else(|| (next..next + PALETTE.len()).find(free))
                    .unwrap_or(next);
                colours.push(slot % PALETTE.len());
                markers.push(marker_kind(slot));
                next = slot + 1;
                slot
            })
        })
        .collect()
}

/// The outline of marker shape `kind`, `size` pixels across, around (0, 0):
/// a circle, square, triangle, diamond, downward triangle, cross, plus,
/// star or right-pointing triangle.
/// Every shape is one polygon, so a series' marks are one element type.
pub fn marker_shape(kind: usize, size: i32) -> Vec<(i32, i32)> {
    let r = size / 2;
    let (a, b) = (r + 1, (r / 3).max(1));
    match kind % MARKERS {
        0 => (0..16)
            .map(|k| {
                let t = k as f64 * std::f64::consts::TAU / 16.0;
                (
                    (r as f64 * t.cos()).round() as i32,
                    (r as f64 * t.sin()).round() as i32,
                )
            })
            .collect(),
        1 => vec![(-r, -r), (r, -r), (r, r), (-r, r)],
        2 => vec![(0, -a), (a, r), (-a, r)],
        3 => vec![(0, -a), (a, 0), (0, a), (-a, 0)],
        4 => vec![(0, a), (a, -r), (-a, -r)],
        5 => vec![
            (-a, -a + b),
            (-a + b, -a),
            (0, -b),
            (a - b, -a),
            (a, -a + b),
            (b, 0),
            (a, a - b),
            (a - b, a),
            (0, b),
            (-a + b, a),
            (-a, a - b),
            (-b, 0),
        ],
        7 => (0..10)
            .map(|k| {
                // Five points, the inner corners at 0.45 of the radius.
                let t = k as f64 * std::f64::consts::TAU / 10.0 - std::f64::consts::FRAC_PI_2;
                let rr = if k % 2 == 0 {
                    a as f64
                } else {
                    a as f64 * 0.45
                };
                ((rr * t.cos()).round() as i32, (rr * t.sin()).round() as i32)
            })
            .collect(),
        8 => vec![(a, 0), (-r, -a), (-r, a)],
        _ => vec![
            (-b, -a),
            (b, -a),
            (b, -b),
            (a, -b),
            (a, b),
            (b, b),
            (b, a),
            (-b, a),
            (-b, b),
            (-a, b),
            (-a, -b),
            (-b, -b),
        ],
    }
}

/// Draws series slot `slot`'s marker, `size` pixels across, at each point.
pub fn draw_marks<'a, DB, X, Y>(
    chart: &mut ChartContext<'a, DB, Cartesian2d<X, Y>>,
    points: impl IntoIterator<Item = (f64, f64)>,
    slot: usize,
    size: i32,
) -> Result<(), DrawError>
where
    DB: DrawingBackend + 'a,
    X: plotters::coord::ranged1d::Ranged<ValueType = f64>,
    Y: plotters::coord::ranged1d::Ranged<ValueType = f64>,
{
    let shape = marker_shape(marker_kind(slot), size);
    let style = color(slot).filled();
    chart
        .draw_series(
            points
                .into_iter()
                .map(|p| EmptyElement::at(p) + Polygon::new(shape.clone(), style)),
        )
        .map_err(err)?;
    Ok(())
}

/// The legend entry of series slot `slot`: its marker, and a stroke through
/// it when the series is a line.
pub fn legend_mark<'a, DB: DrawingBackend + 'a>(
    (x, y): (i32, i32),
    slot: usize,
    line: bool,
) -> impl plotters::element::IntoDynElement<'a, DB, (i32, i32)> {
    let c = color(slot);
    let stroke = if line { 24 } else { 0 };
    EmptyElement::at((x, y))
        + PathElement::new(vec![(0, 0), (stroke, 0)], c.stroke_width(2))
        + Polygon::new(
            marker_shape(marker_kind(slot), 9)
                .into_iter()
                .map(|(dx, dy)| (dx + stroke.max(12) / 2 + if line { 0 } else { 2 }, dy))
                .collect::<Vec<_>>(),
            c.filled(),
        )
}

#[cfg(test)]
mod tests {
    use super::SLOTS;
    use crate::solver::SolverId;

    /// A strategy missing from `SLOTS` would be coloured as an outside
    /// contender, and could share a colour with one beside it.
    #[test]
    fn every_registered_strategy_has_a_slot_of_its_own() {
        for s in SolverId::ALL {
            assert!(
                SLOTS.contains(&s.name()),
                "{} has no slot in SLOTS (src/report/charts/style.rs)",
                s.name()
            );
        }
        assert_eq!(SLOTS.len(), SolverId::ALL.len(), "a slot per strategy");
    }
}
