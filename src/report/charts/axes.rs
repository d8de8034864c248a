//! Axes: log and linear ranges, their ticks and labels, axis names that
//! fit, and the charts of one row per name.

use super::{err, frame, text_width, DrawError, AXIS, FONT, TEXT};
use plotters::coord::combinators::{BindKeyPoints, LogCoord, WithKeyPoints};
use plotters::coord::Shift;
use plotters::prelude::*;

/// `text`, an axis's name, as it fits in `width` pixels: whole, else with
/// its parenthesis cut to the first clause, else without it; a log axis's
/// name keeps its `(log)` whatever is cut, its words shortened with `…`
/// where they must be.
pub fn fit(text: &str, width: f64) -> String {
    let fits = |t: &str| text_width(t, AXIS as f64 / 1.24) <= width;
    if fits(text) {
        return text.to_string();
    }
    let log = text.contains("(log") || text.contains("log)");
    let tail = if log { " (log)" } else { "" };
    if let Some((head, _)) = text.split_once(';') {
        let shorter = if log && !head.contains("log") {
            format!("{}{tail}", head.split_once(" (").map_or(head, |h| h.0))
        } else {
            format!("{head})")
        };
        if fits(&shorter) {
            return shorter;
        }
    }
    let head = text.split_once(" (").map_or(text, |(head, _)| head);
    let whole = format!("{head}{tail}");
    if fits(&whole) || !log {
        return whole;
    }
    // Words off the end of the head until it fits beside `(log)`.
    let mut words: Vec<&str> = head.split(' ').collect();
    while words.len() > 1 {
        words.pop();
        let cut = format!("{}…{tail}", words.join(" ").trim_end_matches(','));
        if fits(&cut) {
            return cut;
        }
    }
    format!("{}…{tail}", words.join(" "))
}

/// The first of `names` (an axis's name, longest first) that fits in
/// `width` pixels whole, else the last as [`fit`] cuts it.
pub fn fit_any(names: &[String], width: f64) -> String {
    names
        .iter()
        .find(|t| text_width(t, AXIS as f64 / 1.24) <= width)
        .cloned()
        .unwrap_or_else(|| fit(names.last().map_or("", |t| t.as_str()), width))
}

/// A log axis's tick label: [`compact`] up to `top`, the data's top, and
/// none above it, in the room a legend is given there.
pub fn tick_below(v: f64, top: f64) -> String {
    match v <= top * 1.001 {
        true => compact(v),
        false => String::new(),
    }
}

/// The least and the greatest of the positive, finite `values`.
pub fn log_span(values: impl Iterator<Item = f64>) -> Option<(f64, f64)> {
    let (mut lo, mut hi) = (f64::INFINITY, 0.0f64);
    for v in values.filter(|v| *v > 0.0 && v.is_finite()) {
        lo = lo.min(v);
        hi = hi.max(v);
    }
    lo.is_finite().then_some((lo, hi))
}

/// A log-axis range padded around positive values: by 6% of the data's
/// span in log terms each side, at least 15% and at most a factor of two,
/// so that a narrow span (4 to 10 µs) keeps the plot's height and a wide
/// one keeps its marks off the frame.
pub fn log_range(values: impl Iterator<Item = f64>) -> std::ops::Range<f64> {
    let Some((lo, hi)) = log_span(values) else {
        return 0.1..10.0;
    };
    let pad = (0.06 * (hi / lo).ln()).clamp(1.15f64.ln(), 2f64.ln()).exp();
    (lo / pad)..(hi * pad)
}

/// A log axis over `r` with the grid every log chart shares: bold lines and
/// labels at 1, 2 and 5 times the powers of ten (only at the powers of ten when
/// the range spans more than three decades), light lines at the other whole
/// multiples; so no stretch of the axis gets denser lines than another.
pub fn log_axis(r: std::ops::Range<f64>) -> WithKeyPoints<LogCoord<f64>> {
    log_axis_labels(r, usize::MAX)
}

/// A [`log_axis`] for the x axis of a chart drawn on `root`: labels only at
/// the powers of ten where 1, 2 and 5 would crowd its width.
pub fn log_x_axis<DB: DrawingBackend>(
    r: std::ops::Range<f64>,
    root: &DrawingArea<DB, Shift>,
) -> WithKeyPoints<LogCoord<f64>> {
    let room = root.dim_in_pixel().0.saturating_sub(140) as usize;
    log_axis_labels(r, (room / 64).max(2))
}

/// A [`log_axis`] over `r` whose labels and grid are chosen for the data's
/// range `data` alone, at most `most` labels (every other power of ten, or
/// fewer, where even those would crowd): an axis padded past its data
/// gets its 1-2-5 labels where the data is, not only the powers of ten of
/// the whole axis.
pub fn log_axis_over(
    r: std::ops::Range<f64>,
    data: std::ops::Range<f64>,
    most: usize,
) -> WithKeyPoints<LogCoord<f64>> {
    let (bold, light) = log_points(data, most);
    r.log_scale().with_key_points(bold).with_light_points(light)
}

/// A y axis by [`log_axis_over`] for a chart drawn on `root`, as many
/// labels as the data's share of the plot's height holds (one a 1.4 text
/// heights): the padding past the data has no tick.
pub fn log_y_axis_over<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    r: std::ops::Range<f64>,
    data: std::ops::Range<f64>,
) -> WithKeyPoints<LogCoord<f64>> {
    let share = ((data.end / data.start).ln() / (r.end / r.start).ln()).clamp(0.0, 1.0);
    let share = if share.is_finite() { share } else { 1.0 };
    let plot = root.dim_in_pixel().1 as f64 - 130.0;
    let data_px = plot * share;
    let most = (data_px / (TEXT as f64 * 1.4)).floor().max(2.0) as usize;
    let (bold, light) = log_points(data.clone(), most);
    // An end stretch over 1.5× past the outer label (data at 29.6k under a
    // first label at 50k) gets whole multiples, where they keep a line and
    // a fifth of text apart.
    let filled = fill_stretches(&data, (bold.clone(), light.clone()), 1.5);
    let filled = clear_of_ends(filled, &bold, &r, plot);
    let apart = filled
        .0
        .windows(2)
        .all(|p| log_px(p[1], &r, plot) - log_px(p[0], &r, plot) >= TEXT as f64 * 1.2);
    let (bold, light) = if apart { filled } else { (bold, light) };
    r.log_scale().with_key_points(bold).with_light_points(light)
}

/// `(labelled, light)` with every label not in `kept` that lies within a
/// line of text of either end of a log axis over `r`, `plot` px long, made
/// light: a label that filling added there sits under the title or over
/// the x axis's labels (8 under the title at 3.5 in).
pub(super) fn clear_of_ends(
    (mut bold, mut light): (Vec<f64>, Vec<f64>),
    kept: &[f64],
    r: &std::ops::Range<f64>,
    plot: f64,
) -> (Vec<f64>, Vec<f64>) {
    let clear = |v: f64| {
        let y = log_px(v, r, plot);
        y >= TEXT as f64 && plot - y >= TEXT as f64
    };
    let crowded: Vec<f64> = (bold.iter().copied())
        .filter(|v| !kept.contains(v) && !clear(*v))
        .collect();
    bold.retain(|v| !crowded.contains(v));
    light.extend(crowded);
    light.sort_by(f64::total_cmp);
    (bold, light)
}

/// A [`log_axis`] with at most `most` labels where fewer will do.
fn log_axis_labels(r: std::ops::Range<f64>, most: usize) -> WithKeyPoints<LogCoord<f64>> {
    let (bold, light) = log_points(r.clone(), most);
    r.log_scale().with_key_points(bold).with_light_points(light)
}

/// The labelled and the light points of a log axis over `r`.
pub(super) fn log_points(r: std::ops::Range<f64>, most: usize) -> (Vec<f64>, Vec<f64>) {
    let (lo, hi) = (r.start, r.end);
    let decades = (hi.log10().floor() - lo.log10().ceil()) as usize + 1;
    let labelled: &[u32] = if hi / lo > 1e3 || 3 * decades > most && decades >= 2 {
        &[1]
    } else {
        &[1, 2, 5]
    };
    let (mut bold, mut light) = (Vec::new(), Vec::new());
    let mut decade = 10f64.powi(lo.log10().floor() as i32);
    while decade <= hi {
        for m in 1..10u32 {
            let v = decade * m as f64;
            if (lo..=hi).contains(&v) {
                // A label at the axis's far end would stick out of the
                // plot, into the title above a y axis.
                let at_end = (hi / v).ln() < 0.03 * (hi / lo).ln();
                if labelled.contains(&m) && !at_end {
                    bold.push(v);
                } else {
                    light.push(v);
                }
            }
        }
        decade *= 10.0;
    }
    if bold.len() + light.len() < 2 {
        // Fewer than two whole multiples of a power of ten (11 to 18 MB,
        // 1.84 to 2.44 MB): labels a round step apart, the finest of 1, 2
        // and 5 tenths of the decade (or whole ones) that gives at least
        // two labels and at most `most` (6 at the most): 12, 14, 16, not
        // 11 to 19; 1.9, 2, 2.1 ... 2.4.
        let at_end = |v: f64| (hi / v).ln() < 0.03 * (hi / lo).ln();
        let multiples = |step: f64| -> Vec<f64> {
            let (first, last) = ((lo / step).ceil() as i64, (hi / step).floor() as i64);
            (first..=last).map(|k| k as f64 * step).collect()
        };
        let tenth = 10f64.powi(lo.log10().floor() as i32 - 1);
        let steps = [1.0, 2.0, 5.0, 10.0, 20.0, 50.0].map(|m| tenth * m);
        let pick = steps.iter().find_map(|&s| {
            let l: Vec<f64> = multiples(s).into_iter().filter(|&v| !at_end(v)).collect();
            (l.len() >= 2 && l.len() <= most.clamp(2, 6)).then_some((s, l))
        });
        if let Some((step, labels)) = pick {
            // Light lines a notch finer: halves of a 1 or 2 step, fifths of a 5.
            let fine = step / if leading_digit(step) == 5 { 5.0 } else { 2.0 };
            let labelled = |v: f64| labels.iter().any(|l| (l / v - 1.0).abs() < 1e-9);
            light = multiples(fine)
                .into_iter()
                .filter(|&v| !labelled(v))
                .collect();
            bold = labels;
        }
    }
    let digit = leading_digit;
    if bold.len() < 2 {
        // A narrow range: its 1, 2 and 5 multiples get a label, else every
        // whole multiple.
        let (ones, rest): (Vec<f64>, Vec<f64>) = std::mem::take(&mut light)
            .into_iter()
            .partition(|&v| [1, 2, 5].contains(&digit(v)));
        if bold.len() + ones.len() >= 2 {
            bold.extend(ones);
            light = rest;
        } else {
            bold.extend(ones.into_iter().chain(rest));
        }
        bold.sort_by(f64::total_cmp);
    }
    // A short unlabelled stretch over a top label at a power of ten (0.4×
    // to 1× labelled, the data running on to 1.35×): labels at its fifths
    // (1.2×), short of the far end.
    let short_stretch = |t: f64| hi / lo < 10.0 && digit(t) == 1 && hi / t > 1.2 && hi / t < 1.6;
    if let Some(top) = bold.last().copied().filter(|&t| short_stretch(t)) {
        let step = top / 5.0;
        let mut v = top + step;
        while (hi / v).ln() >= 0.03 * (hi / lo).ln() {
            bold.push(v);
            light.retain(|l| (l / v - 1.0).abs() > 1e-9);
            v += step;
        }
    }
    // Under a decade with fewer than three labels (1 and 2 over 0.5 to
    // 3.4): whole multiples 1.45× or more from every label take labels too
    // (0.6, 3), short of either end.
    if hi / lo < 10.0 && bold.len() < 3 {
        let inside = |v: f64| !near_end(v, lo, hi);
        let mut added: Vec<f64> = Vec::new();
        for &v in &light {
            let apart = bold
                .iter()
                .chain(&added)
                .all(|&b| (v / b).ln().abs() >= 1.45f64.ln());
            if inside(v) && apart {
                added.push(v);
            }
        }
        light.retain(|l| !added.contains(l));
        bold.extend(added);
        bold.sort_by(f64::total_cmp);
    }
    if bold.len() > most.max(2) {
        // Too many even at the powers of ten: every k-th keeps its label.
        let k = bold.len().div_ceil(most.max(2));
        return every_kth((bold, light), k);
    }
    (bold, light)
}

/// `points` (labelled, light) over `r` with an unlabelled stretch at
/// either end longer than `stretch` labelled where 1, 2 and 5 are (20 the
/// top label, the data running on to 48): its whole multiples take labels, each at least 1.45×
/// from the last (30, not 40), short of the far end. A candidate for a
/// chart that checks its labels are clear ([`labels_clear`]).
pub(super) fn fill_stretches(
    r: &std::ops::Range<f64>,
    (mut bold, mut light): (Vec<f64>, Vec<f64>),
    stretch: f64,
) -> (Vec<f64>, Vec<f64>) {
    let (lo, hi) = (r.start, r.end);
    // Only a full 1-2-5 set: one thinned (10, 50) or at the powers of ten
    // keeps its gaps even.
    let (first, top) = match (bold.first(), bold.last()) {
        (Some(&a), Some(&b)) if bold.len() >= 2 => (a, b),
        _ => return (bold, light),
    };
    let full = bold.iter().any(|&v| leading_digit(v) != 1)
        && !light
            .iter()
            .any(|&v| v > first && v < top && [1, 2, 5].contains(&leading_digit(v)));
    if !full {
        return (bold, light);
    }
    let open = |v: f64| !near_end(v, lo, hi);
    let mut added = Vec::new();
    if hi / top > stretch {
        let mut last = top;
        for &v in light.iter().filter(|&&v| v > top && open(v)) {
            if v / last >= 1.45 {
                added.push(v);
                last = v;
            }
        }
    }
    if first / lo > stretch {
        let mut last = first;
        for &v in light.iter().rev().filter(|&&v| v < first && open(v)) {
            if last / v >= 1.45 {
                added.push(v);
                last = v;
            }
        }
    }
    light.retain(|l| !added.iter().any(|a| (l / a - 1.0).abs() < 1e-9));
    bold.extend(added);
    bold.sort_by(f64::total_cmp);
    (bold, light)
}

/// Whether `v` lies within 3% of the log span of either end of `lo..hi`,
/// where a label would stick out of the plot.
fn near_end(v: f64, lo: f64, hi: f64) -> bool {
    let span = (hi / lo).ln();
    (hi / v).ln() < 0.03 * span || (v / lo).ln() < 0.03 * span
}

/// The leading digit of a whole multiple of a power of ten.
fn leading_digit(v: f64) -> u32 {
    (v / 10f64.powf(v.log10().floor())).round() as u32
}

/// `points` (labelled, light) with every `k`-th labelled, counted from a
/// power of ten where one is labelled; the rest light.
fn every_kth((bold, mut light): (Vec<f64>, Vec<f64>), k: usize) -> (Vec<f64>, Vec<f64>) {
    let from = bold
        .iter()
        .position(|&v| leading_digit(v) == 1)
        .unwrap_or(0)
        % k;
    let mut kept = Vec::new();
    for (i, v) in bold.into_iter().enumerate() {
        match (i + k - from) % k {
            0 => kept.push(v),
            _ => light.push(v),
        }
    }
    light.sort_by(f64::total_cmp);
    (kept, light)
}

/// The coordinates of a chart with two [`log_axis`] axes.
pub type LogLog = Cartesian2d<WithKeyPoints<LogCoord<f64>>, WithKeyPoints<LogCoord<f64>>>;

/// Draws the grid, labels and axis names of a chart with two log axes.
pub fn log_log_mesh<'a, DB: DrawingBackend + 'a>(
    chart: &mut ChartContext<'a, DB, LogLog>,
    x_desc: &str,
    y_desc: &str,
) -> Result<(), DrawError> {
    let (w, h) = chart.plotting_area().dim_in_pixel();
    chart
        .configure_mesh()
        .x_desc(fit(x_desc, w as f64))
        .y_desc(fit(y_desc, h as f64))
        .x_label_formatter(&|v| compact(*v))
        .y_label_formatter(&|v| compact(*v))
        .label_style((FONT, TEXT))
        .axis_desc_style((FONT, AXIS))
        .draw()
        .map_err(err)
}

/// Formats a value on a log axis compactly (1, 10, 100, 1k, 10k, 1M).
pub fn compact(v: f64) -> String {
    let a = v.abs();
    if a >= 1e6 {
        format!("{}M", trim(v / 1e6))
    } else if a >= 1e3 {
        format!("{}k", trim(v / 1e3))
    } else {
        trim(v)
    }
}

fn trim(v: f64) -> String {
    let s = if v >= 10.0 {
        format!("{v:.0}")
    } else if v == 0.0 || v.abs() >= 1.0 {
        format!("{v:.2}")
    } else {
        // Two significant digits below 1 (0.5, 0.015, 0.0025), never "0".
        let places = (-v.abs().log10().floor()) as usize + 1;
        format!("{v:.places$}")
    };
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s
    }
}

/// The share axis, 0 to `top` (a little past 100%): a label
/// every 20%, or every 25% or 50% where the shares' height (`share` of the
/// plot's) holds fewer, light lines every 10%, no tick above 100%.
pub fn share_axis<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    top: f64,
    share: f64,
) -> Ticked {
    let px = (root.dim_in_pixel().1 as f64 - 130.0) * share;
    let fit = px / (TEXT as f64 * 1.4);
    let k = [5, 4, 2]
        .into_iter()
        .find(|&k| fit >= k as f64 + 1.0)
        .unwrap_or(1);
    Ticked {
        range: 0.0..top,
        bold: (0..=k).map(|i| i as f64 / k as f64).collect(),
        light: (0..=10).map(|i| i as f64 / 10.0).collect(),
    }
}

/// The coordinates of a chart with one row per name and a log x axis.
pub type Rows = Cartesian2d<WithKeyPoints<LogCoord<f64>>, Ticked>;

/// A linear axis over `range` ticked at `bold` (labelled) and `light`
/// alone: none in the room a chart keeps past its data for a legend.
#[derive(Clone, Debug)]
pub struct Ticked {
    /// The axis's span.
    pub range: std::ops::Range<f64>,
    /// Labelled ticks and grid lines.
    pub bold: Vec<f64>,
    /// Light grid lines.
    pub light: Vec<f64>,
}

impl Ranged for Ticked {
    type FormatOption = plotters::coord::ranged1d::DefaultFormatting;
    type ValueType = f64;
    fn map(&self, v: &f64, limit: (i32, i32)) -> i32 {
        let share = (v - self.range.start) / (self.range.end - self.range.start);
        (limit.0 as f64 + (limit.1 - limit.0) as f64 * share).round() as i32
    }
    fn key_points<H: plotters::coord::ranged1d::KeyPointHint>(&self, hint: H) -> Vec<f64> {
        match hint.weight().allow_light_points() {
            true => self.light.clone(),
            false => self.bold.clone(),
        }
    }
    fn range(&self) -> std::ops::Range<f64> {
        self.range.clone()
    }
}

/// A chart with one row per name (the first at the top, at y = n−1) over a log
/// x axis, its mesh and labels drawn; `x_label` formats the x axis.
/// `x_desc` may hold several names for the axis, one a line, longest
/// first: the first that fits is drawn ([`fit_any`]).
pub fn rows_chart<'a, DB: DrawingBackend + 'a>(
    root: &'a DrawingArea<DB, Shift>,
    title: &str,
    x: std::ops::Range<f64>,
    names: &[String],
    x_label: &dyn Fn(&f64) -> String,
    x_desc: &str,
) -> Result<ChartContext<'a, DB, Rows>, DrawError> {
    let axis = XAxis {
        range: x,
        label: x_label,
        desc: x_desc,
        always: &[],
    };
    rows_chart_over(root, title, &axis, names)
}

/// The x axis of a chart of rows: its range, how a tick is labelled, its
/// names (one a line, longest first) and the values whose tick is always
/// labelled (`1×` on a chart of ratios).
pub struct XAxis<'l> {
    /// The axis's span.
    pub range: std::ops::Range<f64>,
    /// A tick's label.
    pub label: &'l dyn Fn(&f64) -> String,
    /// The axis's names, one a line, longest first.
    pub desc: &'l str,
    /// Ticks labelled whatever else is: their neighbours give way.
    pub always: &'l [f64],
}

/// Line height of a row's label set on two lines.
const LABEL_LINE: f64 = TEXT as f64 * 0.85;

/// [`rows_chart`] over `axis`. Where the row labels would leave
/// the plot under half the canvas's width, a long label is set on two
/// lines (broken before a parenthesis, else at a space or a hyphen) when
/// the rows are tall enough for two.
pub fn rows_chart_over<'a, DB: DrawingBackend + 'a>(
    root: &'a DrawingArea<DB, Shift>,
    title: &str,
    axis: &XAxis<'_>,
    names: &[String],
) -> Result<ChartContext<'a, DB, Rows>, DrawError> {
    let (x, x_label) = (axis.range.clone(), axis.label);
    let n = names.len().max(1) as f64;
    let px = |l: &str| text_width(l, TEXT as f64 / 1.24);
    let (w, h) = root.dim_in_pixel();
    let widest = names.iter().map(|l| px(l)).fold(0.0, f64::max);
    // Each label's lines: one, or two where the plot would be narrow.
    // The plot is the canvas less about 116 px (title, margins, x axis).
    let row_px = (h as f64 - 116.0) / n;
    let narrow = (w as f64 - widest - 62.0) < w as f64 / 2.0;
    let split: Vec<Option<(String, String)>> = names
        .iter()
        .map(|l| match narrow && row_px >= 2.0 * LABEL_LINE + 4.0 {
            true => two_lines(l).filter(|_| px(l) > w as f64 / 2.0 - 62.0),
            false => None,
        })
        .collect();
    let widest = names
        .iter()
        .zip(&split)
        .map(|(l, s)| match s {
            Some((a, b)) => px(a).max(px(b)),
            None => px(l),
        })
        .fold(0.0, f64::max);
    let labels = widest as u32 + 16;
    let plot = w.saturating_sub(labels + 46) as f64;
    let descs: Vec<String> = axis.desc.lines().map(str::to_string).collect();
    let x_desc = fit_any(&descs, plot);
    // As many x labels as the plot's width holds, each clear of its
    // neighbours by its own width (0.0000001× is wider than 1k): the
    // most of 1-2-5, the powers of ten, every other one, ... that fit.
    let label_w = |v: f64| text_width(&x_label(&v), TEXT as f64 / 1.24);
    // The candidates: what `log_points` gives for each count the width's
    // cap allows, and its 1-2-5 labels thinned to every other or third
    // (0.02×, 0.1×, 0.5×, 2× where 1-2-5 crowd and the powers of ten are
    // two); the clear one with the most labels wins.
    let cap = (w.saturating_sub(140) as usize / 64).max(2);
    let dense = log_points(x.clone(), usize::MAX);
    let mut candidates: Vec<(Vec<f64>, Vec<f64>)> =
        (2..=cap).rev().map(|m| log_points(x.clone(), m)).collect();
    for k in 2..=3 {
        candidates.push(every_kth(dense.clone(), k));
    }
    // Each with its long end stretches labelled too (20 to 48: 30).
    let filled: Vec<_> = candidates
        .iter()
        .map(|c| fill_stretches(&x, c.clone(), 2.0))
        .collect();
    candidates.extend(filled);
    let mut fitted: Option<(Vec<f64>, Vec<f64>)> = None;
    for c in candidates {
        let (bold, light) = with_always(c, &x, plot, &label_w, axis);
        let clear = labels_clear(&bold, &x, plot, &label_w);
        let better = fitted.as_ref().is_none_or(|f| bold.len() > f.0.len());
        if clear && better {
            fitted = Some((bold, light));
        }
    }
    // None clear: the fewest.
    let (bold, light) =
        fitted.unwrap_or_else(|| with_always(log_points(x.clone(), 2), &x, plot, &label_w, axis));
    let mut chart = frame(root, title)
        .y_label_area_size(labels)
        .build_cartesian_2d(
            x.clone()
                .log_scale()
                .with_key_points(bold)
                .with_light_points(light),
            // A tick at each name's row.
            Ticked {
                range: -0.5..n - 0.5,
                bold: (0..names.len()).map(|i| i as f64).collect(),
                light: Vec::new(),
            },
        )
        .map_err(err)?;
    let one_line: Vec<String> = names
        .iter()
        .zip(&split)
        .map(|(l, s)| match s {
            Some(_) => String::new(),
            None => l.clone(),
        })
        .collect();
    let label = row_label(&one_line);
    chart
        .configure_mesh()
        .disable_y_mesh()
        .y_label_formatter(&label)
        .x_label_formatter(x_label)
        .x_desc(x_desc)
        .label_style((FONT, TEXT))
        .axis_desc_style((FONT, AXIS))
        .draw()
        .map_err(err)?;
    // The labels on two lines, set as plotters sets the others: right
    // aligned 9 px left of the plot, about the row's middle.
    let style = (FONT, TEXT)
        .into_font()
        .color(&BLACK)
        .pos(plotters::style::text_anchor::Pos::new(
            plotters::style::text_anchor::HPos::Right,
            plotters::style::text_anchor::VPos::Center,
        ));
    let base = root.get_base_pixel();
    let x0 = chart.plotting_area().get_base_pixel().0 - base.0 - 9;
    for (i, s) in split.iter().enumerate() {
        let Some((a, b)) = s else { continue };
        let y = names.len() as f64 - 1.0 - i as f64;
        let (_, py) = chart.backend_coord(&(x.start, y));
        let py = (py - base.1) as f64;
        for (t, dy) in [(a, -LABEL_LINE / 2.0), (b, LABEL_LINE / 2.0)] {
            root.draw(&Text::new(
                t.clone(),
                (x0, (py + dy).round() as i32),
                style.clone(),
            ))
            .map_err(err)?;
        }
    }
    Ok(chart)
}

/// `points` (labelled, light) with the axis's always-labelled values
/// added: a neighbour whose label would touch one gives way.
fn with_always(
    (mut bold, mut light): (Vec<f64>, Vec<f64>),
    x: &std::ops::Range<f64>,
    plot: f64,
    label_w: &dyn Fn(f64) -> f64,
    axis: &XAxis<'_>,
) -> (Vec<f64>, Vec<f64>) {
    let px = |v: f64| log_px(v, x, plot);
    for &v in axis.always.iter().filter(|v| x.contains(v)) {
        let (near, keep): (Vec<f64>, Vec<f64>) = std::mem::take(&mut bold)
            .into_iter()
            .partition(|&b| (px(b) - px(v)).abs() < (label_w(b) + label_w(v)) / 2.0 + 12.0);
        bold = keep;
        light.extend(near.into_iter().filter(|b| (b / v - 1.0).abs() > 1e-9));
        light.retain(|b| (b / v - 1.0).abs() > 1e-9);
        bold.push(v);
        bold.sort_by(f64::total_cmp);
    }
    (bold, light)
}

/// Whether an interval from `lo` to `hi` (pixels) lies within the mark
/// drawn at `at`: its whiskers are left out, as their caps alone would
/// read as part of the mark.
pub fn within_mark(lo: i32, at: i32, hi: i32) -> bool {
    (lo - at).abs() <= 8 && (hi - at).abs() <= 8
}

/// Where `v` lies on a log axis over `x`, `plot` px long, from its start.
fn log_px(v: f64, x: &std::ops::Range<f64>, plot: f64) -> f64 {
    plot * (v / x.start).ln() / (x.end / x.start).ln()
}

/// Whether labels at `at` (in order) on a log axis over `x`, `plot` px
/// long, keep 12 px between neighbours.
pub(super) fn labels_clear(
    at: &[f64],
    x: &std::ops::Range<f64>,
    plot: f64,
    label_w: &dyn Fn(f64) -> f64,
) -> bool {
    let px = |v: f64| log_px(v, x, plot);
    at.windows(2)
        .all(|p| px(p[1]) - px(p[0]) >= (label_w(p[0]) + label_w(p[1])) / 2.0 + 12.0)
}

/// A row's label broken in two about its middle: before its last
/// parenthesis (`dlx-crate` / `(reference)`), else at the space or after
/// the hyphen nearest its middle; `None` for a single word.
pub fn two_lines(label: &str) -> Option<(String, String)> {
    if let Some(i) = label.rfind(" (").filter(|&i| i > 0) {
        return Some((label[..i].to_string(), label[i + 1..].to_string()));
    }
    let mid = label.len() / 2;
    let at = label
        .char_indices()
        .filter_map(|(i, c)| match c {
            ' ' => Some((i, i + 1)),
            '-' => Some((i + 1, i + 1)),
            _ => None,
        })
        .filter(|&(i, _)| i > 0 && i < label.len())
        .min_by_key(|&(i, _)| i.abs_diff(mid))?;
    Some((label[..at.0].to_string(), label[at.1..].to_string()))
}

/// The y-label formatter of a chart with one row per name, the first at the top
/// (rows sit at y = 0 … n−1, bottom up).
pub fn row_label(names: &[String]) -> impl Fn(&f64) -> String + '_ {
    let n = names.len() as f64;
    move |y: &f64| {
        let i = y.round();
        if (y - i).abs() > 1e-6 || i < 0.0 || i >= n {
            return String::new();
        }
        names[(n - 1.0 - i) as usize].clone()
    }
}
