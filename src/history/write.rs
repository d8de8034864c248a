//! A history's files: `history.md`, a self-contained `history.html`,
//! `history.csv` (a row per run and timeline) and a timeline chart per
//! contender, dataset and measure; and the lines the terminal prints.

use super::{History, HistoryError, Step, Timeline};
use crate::columns::Columns;
use crate::compare::Verdict;
use crate::export::cells::num;
use crate::harness::files;
use crate::harness::plan::Measure;
use crate::harness::RunInfo;
use crate::report::charts::{render, ChangeMark, Rendered, TimePoint, TimeSeries};
use crate::report::html::{esc, figure, STYLE};
use std::fmt::Write as _;
use std::path::Path;

/// The history's Markdown file.
pub const HISTORY_MD: &str = "history.md";
/// Its HTML file.
pub const HISTORY_HTML: &str = "history.html";
/// Its CSV file.
pub const HISTORY_CSV: &str = "history.csv";

/// `+5.0%`, `−4.8%`: a change as the terminal and the charts say it.
pub fn change_text(s: &Step) -> String {
    if !s.change.is_finite() {
        return match s.failures.changed() {
            true => format!("{} → {} failed", s.failures.before, s.failures.after),
            false => "changed".into(),
        };
    }
    let pct = 100.0 * (s.change - 1.0);
    let sign = if pct < 0.0 { "−" } else { "+" };
    format!("{sign}{:.1}%", pct.abs())
}

/// The machines' short names: `M1`, `M2`, … in order of first appearance.
fn machine_tag(h: &History, machine: &str) -> String {
    h.machines()
        .iter()
        .position(|m| m == machine)
        .map_or("M?".into(), |i| format!("M{}", i + 1))
}

/// `run 7 (v7)`.
fn run_ref(h: &History, run: usize) -> String {
    format!("run {} ({})", run + 1, h.runs[run].name())
}

/// What a metric's values are, for a sentence.
fn what(metric: Measure) -> &'static str {
    match metric {
        Measure::Instructions => "the instructions",
        _ => "the time",
    }
}

/// One sentence per step, its failures first: `band on hard-9x9 (M1):
/// regressed at run 7 (v7): +5.0%, 1.050× the time of run 6 (v6) (95%
/// interval …)`; `mine on hard-9x9 (M1): improved at run 9 (v9): fixed 13
/// puzzles (13 → 0 failed); +3.5% over the 87 puzzles both verified, …`.
pub fn step_sentence(h: &History, t: &Timeline, s: &Step) -> String {
    let interval = if s.interval.0 < s.interval.1 && s.change.is_finite() {
        format!(" (95% interval {:.3}×–{:.3}×)", s.interval.0, s.interval.1)
    } else {
        String::new()
    };
    let over = if s.means_only {
        " (each run's mean over its own verified puzzles)".to_string()
    } else if s.all_puzzles {
        String::new()
    } else {
        format!(" over the {} puzzles both verified", s.puzzles)
    };
    let ratio = if s.change.is_finite() {
        format!(
            "{}{over}, {:.3}× {} of {}{interval}",
            change_text(s),
            s.change,
            what(t.metric),
            run_ref(h, s.from)
        )
    } else {
        "no puzzle verified in both runs".into()
    };
    let said = match s.failures.words() {
        Some(failures) => format!("{failures}; {ratio}, cost {}", s.cost.word()),
        None => ratio,
    };
    format!(
        "{} on {} ({}): {} at {}: {said}",
        t.variant,
        t.dataset,
        machine_tag(h, &t.machine),
        s.verdict.word(),
        run_ref(h, s.to),
    )
}

/// The terminal's summary: what was read, then every step where puzzles
/// failed anew or were fixed, every other regression, then the largest
/// improvements (up to `most` in all) and where they came in.
pub fn summary_lines(h: &History, most: usize) -> Vec<String> {
    let moves = h.moves();
    let count = |n: usize, what: &str| format!("{n} {what}{}", if n == 1 { "" } else { "s" });
    let regressions = moves
        .iter()
        .filter(|m| m.1.verdict == Verdict::Regressed)
        .count();
    let mut out = vec![format!(
        "{}, {}, {}: {}, {}",
        count(h.runs.len(), "run"),
        count(h.machines().len(), "machine"),
        count(h.timelines.len(), "timeline"),
        count(regressions, "regression"),
        count(moves.len() - regressions, "improvement"),
    )];
    let alone = h.timelines.iter().filter(|t| t.points.len() < 2).count();
    if alone == h.timelines.len() {
        out.push(
            "Nothing was compared: every timeline holds a single run (the runs differ in machine, setting or dataset; see the notes).".into(),
        );
        return out;
    }
    if alone > 0 {
        out.push(format!(
            "{} of a single run, nothing to compare (see the notes).",
            count(alone, "timeline")
        ));
    }
    if moves.is_empty() {
        out.push(format!(
            "No step beyond the noise threshold ({:.0}% for times, {:.0}% for instructions).",
            h.thresholds.0 * 100.0,
            h.thresholds.1 * 100.0
        ));
    }
    // Failures and regressions are never left to "… and N more": a bug
    // and a slowdown must show.
    let must = moves
        .iter()
        .filter(|m| m.1.failures_changed() || m.1.verdict == Verdict::Regressed)
        .count();
    let shown = must.max(most.min(moves.len()));
    for (t, s) in moves.iter().take(shown) {
        out.push(format!("- {}", step_sentence(h, t, s)));
    }
    if moves.len() > shown {
        out.push(format!(
            "  … and {} more in history.md",
            moves.len() - shown
        ));
    }
    out
}

/// The timelines drawn on one chart: one contender, one dataset, one metric.
pub fn chart_groups(h: &History) -> Vec<Vec<&Timeline>> {
    let mut groups: Vec<Vec<&Timeline>> = Vec::new();
    for t in &h.timelines {
        match groups.iter_mut().find(|g| {
            g[0].variant == t.variant && g[0].dataset == t.dataset && g[0].metric == t.metric
        }) {
            Some(g) => g.push(t),
            None => groups.push(vec![t]),
        }
    }
    groups
}

/// The name of each timeline of a group in its chart's legend: its
/// machine, and what of its setting or dataset differs from the others'.
fn series_names(h: &History, group: &[&Timeline]) -> Vec<String> {
    let parts =
        |t: &Timeline| -> Vec<String> { t.setting.split(", ").map(str::to_string).collect() };
    let shared: Vec<String> = parts(group[0])
        .into_iter()
        .filter(|p| group.iter().all(|t| parts(t).contains(p)))
        .collect();
    let checksums_differ = group.iter().any(|u| u.sha256 != group[0].sha256);
    group
        .iter()
        .map(|t| {
            // The machine by its tag: the chart's key line describes it.
            let mut name = machine_tag(h, &t.machine);
            let own: Vec<String> = parts(t)
                .into_iter()
                .filter(|p| !shared.contains(p))
                .collect();
            if !own.is_empty() {
                name += &format!("; {}", own.join(", "));
            }
            if checksums_differ {
                name += &format!("; sha256 {}…", &t.sha256[..t.sha256.len().min(8)]);
            }
            name
        })
        .collect()
}

/// The runs a group's lines hold, in the history's order: its chart's x axis.
pub fn group_runs(group: &[&Timeline]) -> Vec<usize> {
    let mut runs: Vec<usize> = group
        .iter()
        .flat_map(|t| t.points.iter().map(|p| p.run))
        .collect();
    runs.sort_unstable();
    runs.dedup();
    runs
}

/// What a step's mark on a chart says: its failures first (`13 now fail`,
/// `fixed 13`), else its change (`+28.4%`).
pub fn mark_text(s: &Step) -> String {
    s.failures.short().unwrap_or_else(|| change_text(s))
}

/// A chart's title, saying its measure: `band on hard-9x9: instructions a
/// puzzle (counted)`.
pub fn chart_title(t: &Timeline) -> String {
    let measure = match t.metric {
        Measure::Instructions => "instructions a puzzle (counted)",
        _ => "median time a puzzle",
    };
    format!("{} on {}: {measure}", t.variant, t.dataset)
}

/// The chart of one group of timelines (one contender, dataset and metric).
pub fn timeline_chart(h: &History, group: &[&Timeline]) -> crate::report::charts::Timeline {
    let t0 = group[0];
    let counted = t0.metric == Measure::Instructions;
    let slug = format!(
        "history-{}-{}{}",
        crate::report::slug(&t0.variant),
        crate::report::slug(&t0.dataset),
        if counted { "-instructions" } else { "" }
    );
    let runs = group_runs(group);
    let at = |run: usize| runs.binary_search(&run).unwrap_or(0);
    let names = series_names(h, group);
    let mut machines: Vec<String> = Vec::new();
    for t in group {
        let m = format!("{}: {}", machine_tag(h, &t.machine), t.machine);
        if !machines.contains(&m) {
            machines.push(m);
        }
    }
    let series = group
        .iter()
        .zip(names)
        .enumerate()
        .map(|(i, (t, name))| TimeSeries {
            name,
            slot: i,
            points: t
                .points
                .iter()
                .map(|p| TimePoint {
                    x: at(p.run),
                    value: p.value,
                    interval: p.interval,
                    failed: p.failed_words(),
                })
                .collect(),
        })
        .collect();
    let marks = group
        .iter()
        .flat_map(|t| t.steps.iter())
        .map(|s| ChangeMark {
            x: at(s.to),
            text: mark_text(s),
            regressed: s.verdict == Verdict::Regressed,
        })
        .collect();
    let (y_desc, figure) = if counted {
        ("instructions a puzzle", "instructions a puzzle (callgrind)")
    } else {
        (
            "median µs a puzzle",
            "median time a puzzle with its 95% interval",
        )
    };
    let labels: Vec<Option<String>> = runs
        .iter()
        .map(|&r| h.runs[r].info.options.label.clone())
        .collect();
    let numbers: Vec<usize> = runs.iter().map(|&r| r + 1).collect();
    // The rounds behind each drawn interval: what the bars are made of.
    let mut rounds: Vec<usize> = group
        .iter()
        .flat_map(|t| t.points.iter())
        .filter(|p| p.interval.is_some())
        .map(|p| {
            let info = &h.runs[p.run].info;
            info.rounds_complete.unwrap_or(info.options.rounds).max(1)
        })
        .collect();
    rounds.sort_unstable();
    rounds.dedup();
    let (names, x_desc) = crate::report::charts::history::axis_names(&labels, &numbers);
    crate::report::charts::Timeline {
        name: slug,
        title: chart_title(t0),
        caption: format!(
            "{} of {} on {}, over the runs that measured it, in the history's order; a line per machine (or setting), never averaged. A dashed rule at each run where a change beyond noise came in, labelled with it: failures first (puzzles now failing, or fixed), else the change in {}. A ✕ with its count where puzzles failed; a run whose figure does not stand (too few puzzles verified) is a gap in its line, marked at the foot.",
            crate::report::upper_first(figure),
            t0.variant,
            t0.dataset,
            what(t0.metric).trim_start_matches("the "),
        ),
        y_desc: y_desc.into(),
        x_desc,
        runs: names,
        series,
        marks,
        machines,
        rounds,
    }
}

/// Draws a chart per contender, dataset and metric into `dir/charts/`.
pub fn charts(h: &History, dir: &Path) -> Result<Vec<Rendered>, HistoryError> {
    let charts_dir = dir.join(files::CHARTS);
    let io = |source| HistoryError::Write {
        path: charts_dir.clone(),
        source,
    };
    crate::export::run_dir::clear_charts(&charts_dir).map_err(io)?;
    chart_groups(h)
        .iter()
        .map(|g| {
            let line = data_line(h, &group_runs(g), &g[0].dataset);
            render(&timeline_chart(h, g), &charts_dir, &line, false)
                .map_err(|e| io(std::io::Error::other(e.0)))
        })
        .collect()
}

/// What a chart's data is: its runs (by their labels, where they have
/// them) of the history's, when and on how many machines they were made,
/// and the build that drew it.
fn data_line(h: &History, runs: &[usize], dataset: &str) -> String {
    let (Some(&a), Some(&b)) = (runs.first(), runs.last()) else {
        return String::new();
    };
    let (first, last) = (&h.runs[a], &h.runs[b]);
    let named = match (&first.info.options.label, &last.info.options.label) {
        (Some(a), Some(b)) => format!(" ({a} to {b})"),
        _ => String::new(),
    };
    let of = match runs.len() == h.runs.len() {
        true => String::new(),
        false => format!(" of the history's {}", h.runs.len()),
    };
    let machines = {
        let mut m: Vec<String> = runs
            .iter()
            .map(|&r| super::machine(&h.runs[r].info))
            .collect();
        m.sort();
        m.dedup();
        m.len()
    };
    let (day0, day1): (String, String) = (
        first.info.started.chars().take(10).collect(),
        last.info.started.chars().take(10).collect(),
    );
    let days = match day0 == day1 {
        true => format!("on {day0}"),
        false => format!("{day0} to {day1}"),
    };
    // Each setting and build said once where alike, else each in turn.
    let said = |of: &dyn Fn(&RunInfo) -> String| -> Vec<String> {
        let mut all: Vec<String> = Vec::new();
        for &r in runs {
            let v = of(&h.runs[r].info);
            if !all.contains(&v) {
                all.push(v);
            }
        }
        all
    };
    let modes = said(&|i| i.options.mode.to_string());
    let threads = said(&|i| i.options.threads.to_string());
    let builds = said(&|i| i.git_commit.chars().take(7).collect());
    let puzzles = said(&|i| {
        i.datasets
            .iter()
            .find(|d| d.name == dataset)
            .map_or(String::new(), |d| crate::stats::thousands(d.puzzles_run))
    });
    let rounds = said(&|i| i.rounds_of(dataset).to_string());
    let puzzles = match puzzles.as_slice() {
        [one] => format!("{dataset}: {one} puzzles"),
        many => format!("{dataset}: puzzles {}", many.join(", ")),
    };
    let rounds = match rounds.as_slice() {
        [one] if one == "1" => "1 round".to_string(),
        [one] => format!("{one} rounds"),
        many => format!("rounds {}", many.join(", ")),
    };
    let threads = match threads.as_slice() {
        [one] if one == "1" => "1 thread".to_string(),
        [one] => format!("{one} threads"),
        many => format!("threads {}", many.join(", ")),
    };
    let builds = match builds.as_slice() {
        [one] if one.is_empty() => String::new(),
        [one] => format!("; build {one}"),
        many => format!(
            "; {} builds, {} to {}",
            many.len(),
            many[0],
            many[many.len() - 1]
        ),
    };
    format!(
        "{puzzles}; {} runs{named}{of}, {}; mode{} {}, {threads}, {rounds}{builds}; {machines} machine{}; drawn by sudoku-bench {}",
        runs.len(),
        days,
        if modes.len() == 1 { "" } else { "s" },
        modes.join(", "),
        if machines == 1 { "" } else { "s" },
        env!("CARGO_PKG_VERSION")
    )
}

/// The runs table: header and rows.
fn run_rows(h: &History) -> (Vec<&'static str>, Vec<Vec<String>>) {
    let header = vec![
        "#",
        "label",
        "run",
        "started",
        "sudoku-bench build",
        "machine",
        "setting",
        "state",
    ];
    let rows = h
        .runs
        .iter()
        .enumerate()
        .map(|(i, r)| {
            vec![
                (i + 1).to_string(),
                r.info.options.label.clone().unwrap_or_default(),
                r.spec.clone(),
                r.info.started.clone(),
                format!(
                    "{} ({})",
                    r.info.version,
                    r.info.git_commit.chars().take(12).collect::<String>()
                ),
                machine_tag(h, &super::machine(&r.info)),
                super::setting(&r.info),
                if !r.cut_short.is_empty() {
                    "cut short".into()
                } else if r.info.interrupted {
                    "interrupted".into()
                } else {
                    "complete".into()
                },
            ]
        })
        .collect();
    (header, rows)
}

/// A timeline's table: header and a row per run.
fn timeline_rows(h: &History, t: &Timeline) -> (Vec<String>, Vec<Vec<String>>) {
    let header = vec![
        "run".to_string(),
        format!("value ({})", t.unit()),
        "95% interval".into(),
        "verified".into(),
        "change".into(),
    ];
    let rows = t
        .points
        .iter()
        .map(|p| {
            let step = t.steps.iter().find(|s| s.to == p.run);
            vec![
                run_ref(h, p.run),
                p.value.map_or("no figure".into(), num),
                p.interval
                    .map(|(lo, hi)| format!("{}–{}", num(lo), num(hi)))
                    .unwrap_or_default(),
                format!("{} of {}", p.solved, p.puzzles),
                step.map(|s| match s.failures.short() {
                    Some(f) => format!("{}: {f}; {}", s.verdict.word(), change_text(s)),
                    None => format!("{} {}", s.verdict.word(), change_text(s)),
                })
                .unwrap_or_default(),
            ]
        })
        .collect();
    (header, rows)
}

fn intro(h: &History) -> String {
    let order = match h.order {
        super::Order::Time => "by the time each started",
        super::Order::Label => "by label",
        super::Order::Given => "as given",
    };
    format!(
        "{} runs, in order {order}. A step is marked where `compare` would call it a regression or an improvement: beyond {:.0}% for times (the whole 95% interval) or {:.0}% for instructions, over the puzzles both runs verified; a step where puzzles fail anew is a regression and one that fixes some (none failing anew) an improvement, whatever its cost, which is said beside it. Each line holds one machine and one setting; runs that differ are kept apart.",
        h.runs.len(),
        h.thresholds.0 * 100.0,
        h.thresholds.1 * 100.0
    )
}

/// `history.md`.
pub fn markdown(h: &History, charts: &[Rendered]) -> String {
    use crate::export::cells::table;
    let mut s = format!("# History of {} runs\n\n{}\n\n", h.runs.len(), intro(h));
    s.push_str("## Changes beyond noise, failures first\n\n");
    for l in summary_lines(h, usize::MAX).iter().skip(1) {
        let _ = writeln!(
            s,
            "{}",
            l.strip_prefix("- ").map_or(l.clone(), |x| format!("- {x}"))
        );
    }
    if !h.notes.is_empty() {
        s.push_str("\n## Notes\n\n");
        for n in &h.notes {
            let _ = writeln!(s, "- {n}");
        }
    }
    s.push_str("\n## Machines\n\n");
    for (i, m) in h.machines().iter().enumerate() {
        let _ = writeln!(s, "- M{}: {m}", i + 1);
    }
    s.push_str("\n## Runs\n\n");
    let (header, rows) = run_rows(h);
    let right = [true, false, false, false, false, false, false, false];
    s.push_str(&table(&header, &rows, &right));
    for (g, chart) in chart_groups(h).iter().zip(charts) {
        let _ = write!(
            s,
            "\n## {}\n\n![{}](charts/{}.svg)\n\n{}\n",
            chart.title, chart.title, chart.name, chart.caption
        );
        for t in g {
            let _ = writeln!(s, "\n{}, {}:\n", machine_tag(h, &t.machine), t.setting);
            let (header, rows) = timeline_rows(h, t);
            let header: Vec<&str> = header.iter().map(String::as_str).collect();
            s.push_str(&table(&header, &rows, &[false, true, true, true, false]));
        }
    }
    s
}

/// `history.html`: the same, self-contained.
pub fn html(h: &History, charts: &[Rendered]) -> String {
    use crate::report::machines::html_table;
    let mut s = format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width,initial-scale=1\">\n\
         <title>sudoku-bench history</title>\n<style>\n{STYLE}</style>\n</head>\n<body>\n\
         <h1>History of {} runs</h1>\n<p class=\"note\">{}</p>\n<h2>Changes beyond noise, failures first</h2>\n<ul class=\"said\">\n",
        h.runs.len(),
        esc(&intro(h))
    );
    for l in summary_lines(h, usize::MAX).iter().skip(1) {
        let _ = writeln!(s, "<li>{}</li>", esc(l.trim_start_matches("- ")));
    }
    s.push_str("</ul>\n");
    if !h.notes.is_empty() {
        s.push_str("<h2>Notes</h2>\n<ul>\n");
        for n in &h.notes {
            let _ = writeln!(s, "<li>{}</li>", esc(n));
        }
        s.push_str("</ul>\n");
    }
    s.push_str("<h2>Machines</h2>\n<ul>\n");
    for (i, m) in h.machines().iter().enumerate() {
        let _ = writeln!(s, "<li>M{}: {}</li>", i + 1, esc(m));
    }
    s.push_str("</ul>\n<h2>Runs</h2>\n");
    let (header, rows) = run_rows(h);
    html_table(&mut s, &header, &rows);
    for (g, chart) in chart_groups(h).iter().zip(charts) {
        let _ = writeln!(s, "<h2>{}</h2>", esc(&chart.title));
        figure(&mut s, chart);
        for t in g {
            let _ = writeln!(
                s,
                "<p>{}, {}:</p>",
                esc(&machine_tag(h, &t.machine)),
                esc(&t.setting)
            );
            let (header, rows) = timeline_rows(h, t);
            let header: Vec<&str> = header.iter().map(String::as_str).collect();
            html_table(&mut s, &header, &rows);
        }
    }
    s.push_str("</body>\n</html>\n");
    s
}

crate::columns! {
    /// One row of `history.csv`: a run on a timeline. Figures are written
    /// as Rust prints them (not as serde would), empty where there is none.
    #[derive(Clone, Debug, Default, serde::Serialize)]
    pub struct HistoryRow in HistoryColumns {
        /// The run's place in the history, from 1.
        pub run: usize,
        /// The run's name.
        pub name: String,
        /// When it started.
        pub started: String,
        /// Its folder.
        pub folder: String,
        /// The timeline's machine.
        pub machine: String,
        /// Its setting.
        pub setting: String,
        /// Its variant.
        pub variant: String,
        /// Its dataset.
        pub dataset: String,
        /// What its figures measure.
        pub metric: String,
        /// The run's figure.
        pub value: String,
        /// The low end of its interval.
        pub lo: String,
        /// The high end.
        pub hi: String,
        /// Puzzles verified.
        pub verified: u64,
        /// Puzzles measured.
        pub puzzles: u64,
        /// Puzzles failed.
        pub failed: u64,
        /// The step's verdict into this run, if it is a step's end.
        pub verdict: String,
        /// The step's change.
        pub change: String,
    }
}

/// `history.csv`: a row per run and timeline.
pub fn csv_text(h: &History) -> Result<String, csv::Error> {
    // The header first, even without a row.
    let mut w = csv::WriterBuilder::new()
        .has_headers(false)
        .from_writer(Vec::new());
    w.write_record(HistoryRow::COLUMNS)?;
    let opt = |v: Option<f64>| v.map(|v| format!("{v}")).unwrap_or_default();
    for t in &h.timelines {
        for p in &t.points {
            let r = &h.runs[p.run];
            let step = t.steps.iter().find(|s| s.to == p.run);
            w.serialize(HistoryRow {
                run: p.run + 1,
                name: r.name(),
                started: r.info.started.clone(),
                folder: r.dir.display().to_string(),
                machine: t.machine.clone(),
                setting: t.setting.clone(),
                variant: t.variant.clone(),
                dataset: t.dataset.clone(),
                metric: t.metric.to_string(),
                value: opt(p.value),
                lo: opt(p.interval.map(|i| i.0)),
                hi: opt(p.interval.map(|i| i.1)),
                verified: p.solved,
                puzzles: p.puzzles,
                failed: p.failed,
                verdict: step.map_or(String::new(), |s| s.verdict.word().to_string()),
                change: opt(step.map(|s| s.change).filter(|c| c.is_finite())),
            })?;
        }
    }
    let bytes = w.into_inner().map_err(|e| e.into_error())?;
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

/// Writes `history.md`, `history.html`, `history.csv` and `charts/` into
/// `dir`, under its lock (another process writing there refuses it).
pub fn write(h: &History, dir: &Path) -> Result<Vec<Rendered>, HistoryError> {
    let io = |path: std::path::PathBuf| move |source| HistoryError::Write { path, source };
    // A run's, study's or hunt's folder holds its own record, not a history.
    if let Some((record, _)) = crate::files::KINDS
        .iter()
        .find(|(record, _)| dir.join(record).exists())
    {
        return Err(HistoryError::Write {
            path: dir.to_path_buf(),
            source: std::io::Error::other(format!(
                "it holds {record}, another command's record: give the history a folder of its own"
            )),
        });
    }
    std::fs::create_dir_all(dir).map_err(io(dir.to_path_buf()))?;
    let _writer = crate::lock::FolderLock::take(dir)?;
    let charts = charts(h, dir)?;
    let csv = csv_text(h).map_err(|e| HistoryError::Write {
        path: dir.join(HISTORY_CSV),
        source: std::io::Error::other(e),
    })?;
    for (name, text) in [
        (HISTORY_MD, markdown(h, &charts)),
        (
            HISTORY_HTML,
            crate::report::charts::share_glyphs(&html(h, &charts)),
        ),
        (HISTORY_CSV, csv),
    ] {
        crate::files::write(dir.join(name), text).map_err(io(dir.join(name)))?;
    }
    Ok(charts)
}
