//! A comparison's files: `compare.md`, `compare.csv`, `compare.json` and its
//! charts, all from the finished [`Comparison`].

use super::{CompareError, CompareRow, Comparison, Verdict};
use crate::export::cells::{num, table, times};
use crate::export::first_seen;
use crate::harness::files;
use crate::harness::plan::Measure;
use crate::report::charts::{render, BeforeAfter, DrawError, RatioDistribution, Rendered};
use std::fmt::Write;
use std::path::Path;

/// Column heads of the comparison table.
pub const HEADER: [&str; 10] = [
    "dataset",
    "variant",
    "before µs",
    "after µs",
    "speed",
    "95% CI",
    "time",
    "faster on %",
    "guesses",
    "verdict",
];

fn pct(x: f64) -> String {
    if x.is_finite() {
        format!("{x:+.1}%")
    } else {
        "-".into()
    }
}

fn ratio(x: f64) -> String {
    if x.is_finite() {
        times(x)
    } else {
        "-".into()
    }
}

/// A counter's mean, or `-` when the contender does not report it.
fn opt_num(x: Option<f64>) -> String {
    x.map_or_else(|| "-".into(), num)
}

/// One row as display cells.
pub fn cells(r: &CompareRow) -> [String; 10] {
    let guesses = if r.base_guesses == r.cur_guesses {
        opt_num(r.cur_guesses)
    } else {
        format!("{} → {}", opt_num(r.base_guesses), opt_num(r.cur_guesses))
    };
    [
        r.dataset.clone(),
        r.variant.clone(),
        num(r.base_median_us),
        num(r.cur_median_us),
        ratio(r.speed),
        format!("{}–{}", ratio(r.speed_lo), ratio(r.speed_hi)),
        pct(r.time_change_pct),
        r.faster_pct.map_or("-".into(), |p| format!("{p:.0}")),
        guesses,
        verdict_cell(r),
    ]
}

/// A row's verdict in a table's cell, its failures first: `fixed 13;
/// improved`, `13 now fail; regressed`, or the verdict alone.
pub fn verdict_cell(r: &CompareRow) -> String {
    match r.failures.short() {
        Some(f) => format!("{f}; {}", r.verdict.word()),
        None => r.verdict.word().to_string(),
    }
}

/// Column heads of a comparison by instructions per puzzle.
pub const COUNTED_HEADER: [&str; 6] = [
    "dataset",
    "variant",
    "before instructions",
    "after instructions",
    "change",
    "verdict",
];

/// One row of a comparison by instructions, as display cells.
fn counted_cells(r: &CompareRow) -> Vec<String> {
    let count =
        |x: Option<f64>| x.map_or("-".into(), |x| crate::stats::thousands(x.round() as u64));
    vec![
        r.dataset.clone(),
        r.variant.clone(),
        count(r.base_instructions),
        count(r.cur_instructions),
        pct(r.time_change_pct),
        verdict_cell(r),
    ]
}

/// The line above the table: what was compared with what, by which
/// measure, at which threshold.
pub fn heading(c: &Comparison) -> String {
    let what = match c.metric {
        Measure::Instructions => " in instructions per puzzle",
        _ => "",
    };
    format!(
        "Compared with {}{what} (noise threshold ±{:.1}%)",
        c.baseline.label,
        100.0 * c.threshold
    )
}

/// The comparison table (markdown, lined up for a terminal too).
pub fn table_text(c: &Comparison) -> String {
    if c.metric == Measure::Instructions {
        let rows: Vec<Vec<String>> = c.rows.iter().map(counted_cells).collect();
        return table(
            &COUNTED_HEADER,
            &rows,
            &[false, false, true, true, true, false],
        );
    }
    let rows: Vec<Vec<String>> = c.rows.iter().map(|r| cells(r).to_vec()).collect();
    let right: Vec<bool> = (0..HEADER.len()).map(|i| (2..8).contains(&i)).collect();
    table(&HEADER, &rows, &right)
}

/// One sentence per row that is not within noise, or a single one saying
/// all are. A row whose failed puzzles changed says that first.
pub fn sentences(c: &Comparison) -> Vec<String> {
    let t = 100.0 * c.threshold;
    let mut out = Vec::new();
    for r in &c.rows {
        let said = match c.metric {
            Measure::Instructions => counted_sentence(r, t),
            _ => timed_sentence(r, t),
        };
        out.extend(said);
    }
    if out.is_empty() {
        out.push(match c.metric {
            Measure::Instructions => format!(
                "Every strategy and dataset is within ±{t:.1}% in instructions per puzzle."
            ),
            _ => format!(
                "Every strategy and dataset is within noise (no change beyond ±{t:.0}% that its 95% interval confirms)."
            ),
        });
    }
    out
}

/// Which puzzles a row's cost is over, when not every puzzle of both runs:
/// ` over the 87 puzzles both verified`.
fn over(r: &CompareRow) -> String {
    let n = r.puzzles as u64;
    if n == r.base_solved && n == r.cur_solved && r.failures == Default::default() {
        String::new()
    } else {
        format!(
            " over the {n} puzzle{} both verified",
            if n == 1 { "" } else { "s" }
        )
    }
}

/// A row's sentence with its failures first: `mine on tiny: improved:
/// fixed 13 puzzles (13 → 0 failed); COST, within noise (±3%).`
fn with_failures(r: &CompareRow, failures: &str, cost: &str, t: f64, digits: usize) -> String {
    let judged = match r.cost {
        // A fix is never blocked by what it costs: said, not judged.
        Verdict::Regressed if r.verdict != Verdict::Regressed => {
            format!("beyond ±{t:.digits$}%: the fix's cost, not a regression")
        }
        Verdict::Regressed => format!("a regression beyond ±{t:.digits$}%"),
        Verdict::Improved => format!("an improvement beyond ±{t:.digits$}%"),
        Verdict::WithinNoise => format!("within noise (±{t:.digits$}%)"),
    };
    let cost = if r.puzzles == 0 {
        "no puzzle verified in both runs, so no cost compared".to_string()
    } else {
        format!("{cost}, {judged}")
    };
    format!(
        "{} on {}: {}: {failures}; {cost}.",
        r.variant,
        r.dataset,
        r.verdict.word()
    )
}

/// The sentence of a timed row, or none when it is within noise and its
/// search and failures did not change.
fn timed_sentence(r: &CompareRow, t: f64) -> Option<String> {
    // One figure for one change: the time per puzzle, the geometric mean
    // of the per-puzzle ratios, with its interval in the same unit.
    let time = |speed: f64| 100.0 * (1.0 / speed - 1.0);
    let interval = format!(
        "time per puzzle {}{}, 95% CI {} to {}",
        pct(time(r.speed)),
        over(r),
        pct(time(r.speed_hi)),
        pct(time(r.speed_lo))
    );
    let mut line = match (r.failures.words(), r.verdict) {
        (Some(f), _) => with_failures(r, &f, &interval, t, 0),
        (None, Verdict::WithinNoise) => continue_if_quiet(r, t, &interval)?,
        (None, v) => format!("{} on {}: {}, {interval}.", r.variant, r.dataset, v.word()),
    };
    if r.search_changed {
        let _ = write!(
            line,
            " The search itself changed: {} → {} guesses and {} → {} nodes per puzzle.",
            opt_num(r.base_guesses),
            opt_num(r.cur_guesses),
            opt_num(r.base_nodes),
            opt_num(r.cur_nodes)
        );
    }
    Some(line)
}

/// The sentence of a row compared by instructions per puzzle (exact
/// changes, judged against the threshold alone), or none when it is
/// within it and its failures did not change.
fn counted_sentence(r: &CompareRow, t: f64) -> Option<String> {
    let over = if r.means_only {
        " (each run's mean over its own verified puzzles: a run kept no count a puzzle)".to_string()
    } else {
        over(r)
    };
    let change = match (r.base_instructions, r.cur_instructions) {
        (Some(b), Some(n)) => format!(
            "{} instructions per puzzle{over} ({} → {})",
            pct(r.time_change_pct),
            crate::stats::thousands(b.round() as u64),
            crate::stats::thousands(n.round() as u64)
        ),
        _ => "no instructions counted".to_string(),
    };
    match (r.failures.words(), r.verdict) {
        (Some(f), _) => Some(with_failures(r, &f, &change, t, 1)),
        (None, Verdict::WithinNoise) => None,
        (None, _) if r.base_instructions.is_none() || r.cur_instructions.is_none() => None,
        (None, v) => Some(format!(
            "{} on {}: {}, {change}; threshold ±{t:.1}%.",
            r.variant,
            r.dataset,
            v.word()
        )),
    }
}

/// A within-noise row is worth a sentence only when its search changed.
fn continue_if_quiet(r: &CompareRow, t: f64, interval: &str) -> Option<String> {
    r.search_changed.then(|| {
        format!(
            "{} on {}: within noise (±{t:.0}%; {interval}).",
            r.variant, r.dataset
        )
    })
}

/// `compare.csv`: one row per variant and dataset, every number unrounded.
pub fn csv_text(c: &Comparison) -> Result<String, csv::Error> {
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record([
        "variant",
        "dataset",
        "paired",
        "puzzles",
        "base_median_us",
        "cur_median_us",
        "speed",
        "speed_lo",
        "speed_hi",
        "time_change_pct",
        "faster_pct",
        "base_guesses",
        "cur_guesses",
        "base_nodes",
        "cur_nodes",
        "search_changed",
        "base_solved",
        "cur_solved",
        "base_failed",
        "cur_failed",
        "fixed",
        "now_failing",
        "cost_verdict",
        "verdict",
    ])?;
    let f = |x: f64| {
        if x.is_finite() {
            x.to_string()
        } else {
            String::new()
        }
    };
    for r in &c.rows {
        w.write_record([
            r.variant.clone(),
            r.dataset.clone(),
            r.paired.to_string(),
            r.puzzles.to_string(),
            f(r.base_median_us),
            f(r.cur_median_us),
            f(r.speed),
            f(r.speed_lo),
            f(r.speed_hi),
            f(r.time_change_pct),
            r.faster_pct.map_or(String::new(), f),
            r.base_guesses.map_or(String::new(), f),
            r.cur_guesses.map_or(String::new(), f),
            r.base_nodes.map_or(String::new(), f),
            r.cur_nodes.map_or(String::new(), f),
            r.search_changed.to_string(),
            r.base_solved.to_string(),
            r.cur_solved.to_string(),
            r.failures.before.to_string(),
            r.failures.after.to_string(),
            r.failures.fixed.to_string(),
            r.failures.new.to_string(),
            r.cost.word().to_string(),
            r.verdict.word().to_string(),
        ])?;
    }
    let bytes = w.into_inner().map_err(|e| e.into_error())?;
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

fn describe(side: &super::Side) -> String {
    let i = &side.info;
    let threads = i.options.threads;
    format!(
        "{}{}: commit {}, started {}, {} ({} cores), {threads} thread{}",
        side.label,
        i.options
            .label
            .as_ref()
            .map_or(String::new(), |l| format!(" (label {l})")),
        i.git_commit,
        i.started,
        i.cpu_model,
        i.cores,
        if threads == 1 { "" } else { "s" }
    )
}

/// `compare.md`: the two runs, warnings, sentences, the table and the charts.
pub fn markdown(c: &Comparison, charts: &[Rendered]) -> String {
    let mut s = String::from("# sudoku-bench comparison\n\n");
    let _ = writeln!(s, "- Baseline (the reference) {}", describe(&c.baseline));
    let _ = writeln!(s, "- Current {}", describe(&c.current));
    let counted =
        c.current.info.options.measure.metric() == crate::harness::plan::Measure::Instructions;
    let _ = match counted {
        true => writeln!(
            s,
            "- Noise threshold ±{:.1}%: a change in instructions counts when it lies beyond it (counts are exact, the same on every run of a build: no interval).",
            100.0 * c.threshold
        ),
        false => writeln!(
            s,
            "- Noise threshold ±{:.1}%: a change counts only when its whole 95% interval lies beyond it.",
            100.0 * c.threshold
        ),
    };
    s.push_str("- Failures first: a puzzle that fails now (wrong, an error, stopped by a limit) and did not in the baseline is a regression, whatever the cost; puzzles fixed, with none failing anew, are an improvement whatever the cost. The cost, over the puzzles both runs verified, is said beside it and judged against the threshold on its own (`cost_verdict`): a fix's cost is never a regression.\n");
    for w in &c.warnings {
        let _ = writeln!(s, "- **Warning:** {w}");
    }
    s.push_str("\n## In short\n\n");
    for l in sentences(c) {
        let _ = writeln!(s, "- {l}");
    }
    s.push_str("\n## By strategy and dataset\n\n");
    s.push_str(&table_text(c));
    if counted {
        s.push_str("\nInstructions: each puzzle's count in both runs, paired by puzzle over the puzzles both verified (a run saved without each puzzle's count: the two summaries' means); the change is the ratio of the two sums, exact, so it has no interval.\n");
    } else {
        let _ = writeln!(
        s,
        "\nSpeed: the geometric mean, over the puzzles solved in both runs, of the baseline's time over the current time (above 1×: faster now); time: the same change as a change in time per puzzle. The medians are each run's own, over the same puzzles: a different statistic, so they can move by a different amount. The 95% interval is {}; unpaired rows (puzzles permuted differently) compare the two geometric means instead, with a bootstrap of each side.",
        c.intervals
    );
    }
    if !c.notes.is_empty() {
        s.push_str("\n## Not compared\n\n");
        for n in &c.notes {
            let _ = writeln!(s, "- {n}");
        }
    }
    if !charts.is_empty() {
        s.push_str("\n## Charts\n");
        for ch in charts {
            let _ = write!(
                s,
                "\n### {}\n\n![{}](charts/{}.svg)\n\n{}\n",
                ch.title, ch.title, ch.name, ch.caption
            );
        }
    }
    s
}

/// The charts of a comparison, per dataset: per-puzzle time ratio distribution
/// (paired rows) and before/after medians.
pub fn charts(c: &Comparison, dir: &Path) -> Result<Vec<Rendered>, CompareError> {
    let charts_dir = dir.join(files::CHARTS);
    crate::export::run_dir::clear_charts(&charts_dir).map_err(|source| CompareError::Write {
        path: charts_dir.clone(),
        source,
    })?;
    let variants = first_seen(c.rows.iter().map(|r| r.variant.as_str()));
    let datasets = first_seen(c.rows.iter().map(|r| r.dataset.as_str()));
    let slots = crate::report::charts::slots(variants.iter().copied());
    let color = |v: &str| {
        variants
            .iter()
            .position(|x| *x == v)
            .map_or(0, |i| slots[i])
    };
    let mut out = Vec::new();
    let draw = |r: Result<Rendered, DrawError>, out: &mut Vec<Rendered>| {
        r.map(|ch| out.push(ch))
            .map_err(|message| CompareError::Write {
                path: charts_dir.clone(),
                source: std::io::Error::other(message),
            })
    };
    // Counted runs: their per-puzzle times are valgrind's, so no ratio of
    // them is drawn, and before/after draws instructions a puzzle.
    let counted = c.metric == Measure::Instructions;
    let measured = match counted {
        true => "instructions counted by callgrind".to_string(),
        false => {
            let t = c.current.info.options.threads;
            format!(
                "mode {}, {t} thread{}",
                c.current.info.options.mode,
                if t == 1 { "" } else { "s" }
            )
        }
    };
    // Each run by its label, else its folder's name (never a path).
    let name = |s: &super::Side| {
        s.info.options.label.clone().unwrap_or_else(|| {
            Path::new(&s.label)
                .file_name()
                .map_or(s.label.clone(), |f| f.to_string_lossy().to_string())
        })
    };
    for d in datasets {
        // The dataset's puzzles compared and each run's rounds on it.
        let rounds = |info: &crate::harness::RunInfo| info.rounds_of(d);
        let puzzles =
            c.current
                .info
                .datasets
                .iter()
                .find(|x| x.name == d)
                .map_or(String::new(), |x| {
                    match x.puzzles_run < x.puzzles_in_source {
                        true => format!(
                            "{d}: {} of its {} puzzles; ",
                            crate::stats::thousands(x.puzzles_run),
                            crate::stats::thousands(x.puzzles_in_source)
                        ),
                        false => {
                            format!("{d}: {} puzzles; ", crate::stats::thousands(x.puzzles_run))
                        }
                    }
                });
        let (rb, rc) = (rounds(&c.baseline.info), rounds(&c.current.info));
        let rounds = match (counted, rb == rc) {
            (true, _) => String::new(),
            (false, true) => format!(", {rc} round{}", if rc == 1 { "" } else { "s" }),
            (false, false) => format!(", rounds {rb} and {rc}"),
        };
        let line = format!(
            "{puzzles}baseline {} against {}; {measured}{rounds}; {}",
            name(&c.baseline),
            name(&c.current),
            crate::report::charts::machine_line(&c.current.info)
        );
        let rows: Vec<&CompareRow> = c.rows.iter().filter(|r| r.dataset == d).collect();
        // What each chart of `d` leaves out: failed puzzles, and
        // contenders not run on its size.
        let mut notes: Vec<String> = rows
            .iter()
            .filter(|r| r.failures.before > 0 || r.failures.after > 0)
            .map(|r| {
                format!(
                    "{}: over the {} puzzles both runs verified ({} failed in the baseline, {} now)",
                    r.variant, r.puzzles, r.failures.before, r.failures.after
                )
            })
            .collect();
        let mut skipped: Vec<String> = [&c.baseline, &c.current]
            .iter()
            .flat_map(|side| side.info.skipped.iter())
            .filter(|k| k.dataset == d)
            .map(|k| format!("{} (handles {} only)", k.variant, k.handles))
            .collect();
        skipped.sort();
        skipped.dedup();
        if !skipped.is_empty() {
            notes.push(format!("Not shown: {}", skipped.join(", ")));
        }
        let drawn: Vec<&&CompareRow> = rows
            .iter()
            .filter(|r| !counted && !r.ratios.is_empty())
            .collect();
        if !drawn.is_empty() {
            let chart = RatioDistribution {
                dataset: d.to_string(),
                threshold: c.threshold,
                lines: drawn
                    .iter()
                    .map(|r| (r.variant.clone(), color(&r.variant), r.ratios.clone()))
                    .collect(),
                now_failing: drawn.iter().map(|r| r.failures.new).collect(),
                notes: notes.clone(),
            };
            draw(render(&chart, &charts_dir, &line, false), &mut out)?;
        }
        let shown: Vec<(&CompareRow, f64, f64)> = rows
            .iter()
            .filter_map(|r| {
                let (b, c) = match counted {
                    true => (r.base_instructions?, r.cur_instructions?),
                    false => (r.base_median_us, r.cur_median_us),
                };
                Some((*r, b, c))
            })
            .collect();
        let chart = BeforeAfter {
            dataset: d.to_string(),
            rows: shown
                .iter()
                .map(|(r, b, c)| (r.variant.clone(), color(&r.variant), *b, *c))
                .collect(),
            counted,
            now_failing: shown.iter().map(|(r, _, _)| r.failures.new).collect(),
            notes,
        };
        if chart.rows.is_empty() {
            continue;
        }
        draw(render(&chart, &charts_dir, &line, false), &mut out)?;
    }
    Ok(out)
}

/// Writes `compare.md`, `compare.csv`, `compare.json` and `charts/` into `dir`.
pub fn write(c: &Comparison, dir: &Path) -> Result<(), CompareError> {
    let io = |path: std::path::PathBuf| move |source| CompareError::Write { path, source };
    // Its own place in a run is the run's compare/.
    if crate::files::in_run(dir, &[files::COMPARE]).is_some() {
        return Err(CompareError::IntoRun(dir.to_path_buf()));
    }
    crate::files::folder(dir).map_err(io(dir.to_path_buf()))?;
    let _writer = crate::lock::FolderLock::take(dir)?;
    let charts = charts(c, dir)?;
    let files = [
        (files::COMPARE_MD, markdown(c, &charts)),
        (
            "compare.csv",
            csv_text(c).map_err(|e| CompareError::Write {
                path: dir.join("compare.csv"),
                source: std::io::Error::other(e),
            })?,
        ),
        (
            "compare.json",
            serde_json::to_string_pretty(c).map_err(|e| CompareError::Write {
                path: dir.join("compare.json"),
                source: std::io::Error::other(e),
            })? + "\n",
        ),
    ];
    for (name, text) in files {
        crate::files::write(dir.join(name), text).map_err(io(dir.join(name)))?;
    }
    Ok(())
}

/// Says a comparison whose files are in `out`: its warnings on stderr, and
/// unless `quiet` its table, verdicts and notes. True when something regressed.
pub fn tell(
    c: &Comparison,
    out: &Path,
    quiet: bool,
    console: &mut dyn crate::export::terminal::Console,
) -> bool {
    for w in &c.warnings {
        console.err(&format!("warning: {w}"));
    }
    if !quiet {
        let mut text = format!("{}\n\n{}\n", heading(c), table_text(c));
        for l in sentences(c) {
            let _ = writeln!(text, "{l}");
        }
        for n in &c.notes {
            let _ = writeln!(text, "note: {n}");
        }
        let _ = writeln!(
            text,
            "comparison in {}",
            out.join(files::COMPARE_MD).display()
        );
        console.out(&text);
    }
    c.regressed()
}
