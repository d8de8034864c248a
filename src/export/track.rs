//! Exports for the services where projects keep benchmark histories:
//! bencher's Metric Format (BMF JSON) and github-action-benchmark's
//! `customSmallerIsBetter` array. One benchmark per contender and dataset,
//! named `VARIANT/DATASET`, its values summary.csv's.

use super::RunReport;
use crate::harness::plan::{ExportTo, Measure, TrackFormat};
use crate::harness::SummaryRow;
use serde_json::{json, Map, Value};
use std::path::{Path, PathBuf};

/// An export that could not be written.
#[derive(Debug, thiserror::Error)]
#[error("cannot write the {format} export to {}: {source}", path.display())]
pub struct TrackError {
    /// The format's word.
    pub format: &'static str,
    /// The file.
    pub path: PathBuf,
    /// The OS error.
    #[source]
    pub source: std::io::Error,
}

/// An export refused before anything runs: it would replace what a run
/// made, or another export.
#[derive(Debug, thiserror::Error)]
pub enum ExportRefused {
    /// The file is one of a run folder's own.
    #[error("--export {export}: that is the {name} of the run folder {}, which the export would replace: give the export a file of its own", dir.display())]
    RunFile {
        /// The export, as typed.
        export: String,
        /// The run's file it names.
        name: &'static str,
        /// The run folder.
        dir: PathBuf,
    },
    /// The path is a folder, which a file cannot replace.
    #[error("--export {export}: {} is a folder; give the export a file's path", path.display())]
    Folder {
        /// The export, as typed.
        export: String,
        /// The folder.
        path: PathBuf,
    },
    /// The file would go into a run's own subfolder.
    #[error("--export {export}: {} is a run's own folder; give the export a file outside it", dir.display())]
    InRun {
        /// The export, as typed.
        export: String,
        /// The subfolder.
        dir: PathBuf,
    },
    /// Two exports name one file.
    #[error("--export {first} and --export {second} name one file, which the second would replace: give each export a file of its own")]
    Twice {
        /// The first export, as typed.
        first: String,
        /// The second.
        second: String,
    },
}

/// Refuses `exports` that would replace what a run made: a run folder's own
/// file (`results.csv`, `run.json`, ...) in one of `writing` (the folders
/// about to be written) or in any run folder (one that holds `run.json`),
/// one of its subfolders (`charts`, `contenders`, ...), or a file another
/// export writes too.
pub fn refuse_clashes(exports: &[ExportTo], writing: &[&Path]) -> Result<(), ExportRefused> {
    let writing: Vec<PathBuf> = writing.iter().map(|d| resolved(d)).collect();
    let mut own = super::run_files();
    own.extend(crate::files::OWN);
    own.extend(crate::files::SUBFOLDERS);
    let marked = |d: &Path| {
        use crate::files::{RUN_JSON, SCALING_CSV};
        d.join(RUN_JSON).is_file()
            || d.join(SCALING_CSV).is_file()
            || writing.iter().any(|w| w == d)
    };
    let mut seen: Vec<(PathBuf, &ExportTo)> = Vec::new();
    for e in exports {
        let file = resolved(&e.path);
        if let Some((_, first)) = seen.iter().find(|(f, _)| *f == file) {
            return Err(ExportRefused::Twice {
                first: first.to_string(),
                second: e.to_string(),
            });
        }
        if file.is_dir() {
            return Err(ExportRefused::Folder {
                export: e.to_string(),
                path: e.path.clone(),
            });
        }
        let Some(dir) = file.parent() else {
            seen.push((file, e));
            continue;
        };
        let name = file.file_name().and_then(|n| n.to_str());
        if let Some(name) = own.iter().find(|o| Some(**o) == name) {
            if marked(dir) {
                return Err(ExportRefused::RunFile {
                    export: e.to_string(),
                    name,
                    dir: dir.to_path_buf(),
                });
            }
        }
        let sub = dir.file_name().and_then(|n| n.to_str());
        if let (Some(sub), Some(run)) = (sub, dir.parent()) {
            if crate::files::SUBFOLDERS.contains(&sub) && marked(run) {
                return Err(ExportRefused::InRun {
                    export: e.to_string(),
                    dir: dir.to_path_buf(),
                });
            }
        }
        seen.push((file, e));
    }
    Ok(())
}

/// `path` made absolute, each part that exists through its real path and
/// `..` taken away lexically past that, so that two spellings of one file
/// (existing or not) compare equal.
fn resolved(path: &Path) -> PathBuf {
    use std::path::Component;
    let abs = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    let mut out = PathBuf::new();
    for c in abs.components() {
        match c {
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir => {}
            c => out.push(c),
        }
        if let Ok(real) = std::fs::canonicalize(&out) {
            out = real;
        }
    }
    out
}

/// An export's text and what it left out, with why.
#[derive(Clone, Debug, PartialEq)]
pub struct Rendered {
    /// The JSON, pretty-printed.
    pub text: String,
    /// One line per contender and dataset left out, or a figure left out.
    pub notes: Vec<String>,
}

/// The benchmark's name in both formats: `band/hard-9x9`.
pub fn name(row: &SummaryRow) -> String {
    format!("{}/{}", row.variant, row.dataset)
}

/// Puzzles that failed in the row: wrong, errors, stopped by a limit, over
/// the memory limit.
pub fn failures(row: &SummaryRow) -> u64 {
    row.wrong + row.errors + row.budget + row.memory
}

/// Renders `run` in `format`.
pub fn render(format: TrackFormat, run: &RunReport) -> Rendered {
    let (value, notes) = match format {
        TrackFormat::Bmf => bmf(run),
        TrackFormat::GithubActionBenchmark => github_action_benchmark(run),
    };
    let mut text = serde_json::to_string_pretty(&value).unwrap_or_default();
    text.push('\n');
    Rendered { text, notes }
}

/// Renders the runs of a scaling run (`(threads, run)`, a run per count)
/// as one export: each benchmark named `VARIANT/DATASET @ N threads`, so
/// that no count's figures replace another's.
pub fn render_counts(format: TrackFormat, runs: &[(usize, RunReport)]) -> Rendered {
    let at = |name: &str, t: usize| format!("{name} @ {t} threads");
    let (mut object, mut array, mut notes) = (Map::new(), Vec::new(), Vec::new());
    for (t, run) in runs {
        let (value, n) = match format {
            TrackFormat::Bmf => bmf(run),
            TrackFormat::GithubActionBenchmark => github_action_benchmark(run),
        };
        notes.extend(n.into_iter().map(|n| format!("{t} threads: {n}")));
        match value {
            Value::Object(m) => object.extend(m.into_iter().map(|(k, v)| (at(&k, *t), v))),
            Value::Array(a) => array.extend(a.into_iter().map(|mut v| {
                if let Some(Value::String(n)) = v.get_mut("name") {
                    *n = at(n, *t);
                }
                v
            })),
            _ => {}
        }
    }
    let value = match format {
        TrackFormat::Bmf => Value::Object(object),
        TrackFormat::GithubActionBenchmark => Value::Array(array),
    };
    let mut text = serde_json::to_string_pretty(&value).unwrap_or_default();
    text.push('\n');
    Rendered { text, notes }
}

/// Writes each export of `exports` from `run`; returns what they left out.
pub fn write(exports: &[ExportTo], run: &RunReport) -> Result<Vec<String>, TrackError> {
    write_with(exports, &|format| render(format, run))
}

/// Writes each export of `exports` from a scaling run's counts
/// ([`render_counts`]); returns what they left out.
pub fn write_counts(
    exports: &[ExportTo],
    runs: &[(usize, RunReport)],
) -> Result<Vec<String>, TrackError> {
    write_with(exports, &|format| render_counts(format, runs))
}

fn write_with(
    exports: &[ExportTo],
    render: &dyn Fn(TrackFormat) -> Rendered,
) -> Result<Vec<String>, TrackError> {
    let mut notes = Vec::new();
    for e in exports {
        let r = render(e.format);
        if let Some(parent) = e.path.parent().filter(|p| !p.as_os_str().is_empty()) {
            std::fs::create_dir_all(parent).map_err(|source| TrackError {
                format: e.format.word(),
                path: e.path.clone(),
                source,
            })?;
        }
        crate::files::write(&e.path, r.text).map_err(|source| TrackError {
            format: e.format.word(),
            path: e.path.clone(),
            source,
        })?;
        notes.extend(r.notes.into_iter().map(|n| format!("{e}: {n}")));
    }
    Ok(notes)
}

/// Why a row has no time figure, when it has none.
fn no_figure(row: &SummaryRow) -> Option<String> {
    (!row.stands() || row.median_us.is_none()).then(|| {
        format!(
            "{}: no time, {} of {} puzzles verified ({})",
            name(row),
            row.solved,
            row.puzzles,
            match row.failed_kinds() {
                k if k.is_empty() => "none failed".to_string(),
                k => k,
            }
        )
    })
}

/// A measure with its interval, where it has one.
fn measure(value: f64, interval: Option<(f64, f64)>) -> Value {
    match interval {
        Some((lo, hi)) => json!({"value": value, "lower_value": lo, "upper_value": hi}),
        None => json!({"value": value}),
    }
}

/// Bencher's Metric Format: per benchmark, `latency` (the median time, ns,
/// with its 95% interval) and `throughput` (verified puzzles a second) in
/// a timed run, `instructions` (a puzzle) in a counted one, and `failures`
/// (puzzles not verified for a failure) always, so a failing contender is
/// never silently absent.
fn bmf(run: &RunReport) -> (Value, Vec<String>) {
    let counted = run.info.options.measure.metric() == Measure::Instructions;
    let mut out = Map::new();
    let mut notes = Vec::new();
    for row in &run.summary {
        let mut measures = Map::new();
        if counted {
            match row.instructions_per_puzzle {
                Some(i) if row.stands() => {
                    measures.insert("instructions".into(), measure(i, None));
                }
                _ => notes.push(format!(
                    "{}: no instructions, {} of {} puzzles verified",
                    name(row),
                    row.solved,
                    row.puzzles
                )),
            }
        } else if let Some(why) = no_figure(row) {
            notes.push(why);
        } else if let Some(median) = row.median_us {
            let interval = row
                .median_lo_us
                .zip(row.median_hi_us)
                .map(|(lo, hi)| (lo * 1e3, hi * 1e3));
            measures.insert("latency".into(), measure(median * 1e3, interval));
            measures.insert("throughput".into(), measure(row.puzzles_per_sec, None));
        }
        measures.insert("failures".into(), measure(failures(row) as f64, None));
        out.insert(name(row), Value::Object(measures));
    }
    (Value::Object(out), notes)
}

/// github-action-benchmark's `customSmallerIsBetter`: one entry per
/// contender and dataset whose figure stands, the median time in ns (its
/// interval's half-width as `range`) or, counted, instructions a puzzle;
/// and for every contender and dataset, figure or none, an entry
/// `NAME (failed puzzles)` of its failed puzzles (0 when none failed), so
/// that the action charts a bug as a rise of its own and alerts on it.
fn github_action_benchmark(run: &RunReport) -> (Value, Vec<String>) {
    let counted = run.info.options.measure.metric() == Measure::Instructions;
    let machine = format!("{}, {} cores", run.info.cpu_model, run.info.cores);
    let label = run
        .info
        .options
        .label
        .as_ref()
        .map(|l| format!("\nlabel: {l}"))
        .unwrap_or_default();
    let mut out = Vec::new();
    let mut notes = Vec::new();
    for row in &run.summary {
        let verified = format!("{} of {} puzzles verified", row.solved, row.puzzles);
        out.push(json!({
            "name": format!("{} (failed puzzles)", name(row)),
            "unit": "puzzles",
            "value": failures(row),
            "extra": format!(
                "{verified}; failed: {}\n{machine}{label}",
                match row.failed_kinds() {
                    k if k.is_empty() => "none".to_string(),
                    k => k,
                }
            ),
        }));
        if counted {
            match row.instructions_per_puzzle {
                Some(i) if row.stands() => out.push(json!({
                    "name": format!("{} (instructions)", name(row)),
                    "unit": "instructions/puzzle",
                    "value": i,
                    "extra": format!("mean over {verified}\ncounted by callgrind\n{machine}{label}"),
                })),
                _ => notes.push(format!("{}: no instructions, {verified}", name(row))),
            }
            continue;
        }
        if let Some(why) = no_figure(row) {
            notes.push(why);
            continue;
        }
        let Some(median) = row.median_us else {
            continue;
        };
        let mut entry = Map::new();
        entry.insert("name".into(), json!(name(row)));
        entry.insert("unit".into(), json!("ns"));
        entry.insert("value".into(), json!(median * 1e3));
        let mut extra = format!("median over {verified}");
        if let (Some(lo), Some(hi)) = (row.median_lo_us, row.median_hi_us) {
            entry.insert(
                "range".into(),
                json!(format!("± {:.0}", (hi - lo) * 1e3 / 2.0)),
            );
            extra += &format!("\n95% interval {:.0}–{:.0} ns", lo * 1e3, hi * 1e3);
        }
        extra += &format!("\n{machine}{label}");
        entry.insert("extra".into(), json!(extra));
        out.push(Value::Object(entry));
    }
    (Value::Array(out), notes)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(measure: Measure) -> RunReport {
        let mut info = crate::harness::RunInfo::new(Default::default(), Vec::new(), Vec::new());
        info.options.measure = measure;
        let row = |variant: &str, solved: u64| SummaryRow {
            variant: variant.into(),
            dataset: "hard-9x9".into(),
            puzzles: 10,
            solved,
            errors: 10 - solved,
            median_us: (solved >= 5).then_some(12.5),
            median_lo_us: (solved >= 5).then_some(12.0),
            median_hi_us: (solved >= 5).then_some(13.5),
            puzzles_per_sec: 80_000.0,
            instructions_per_puzzle: Some(41_000.0),
            ..Default::default()
        };
        RunReport {
            info,
            summary: vec![row("band", 10), row("broken", 2)],
        }
    }

    #[test]
    fn bmf_gives_every_row_its_failures_and_a_time_only_where_it_stands() {
        let r = render(TrackFormat::Bmf, &run(Measure::Time));
        let v: Value = serde_json::from_str(&r.text).unwrap();
        assert_eq!(v["band/hard-9x9"]["latency"]["value"], 12_500.0);
        assert_eq!(v["band/hard-9x9"]["latency"]["lower_value"], 12_000.0);
        assert_eq!(v["band/hard-9x9"]["latency"]["upper_value"], 13_500.0);
        assert_eq!(v["band/hard-9x9"]["throughput"]["value"], 80_000.0);
        assert_eq!(v["band/hard-9x9"]["failures"]["value"], 0.0);
        assert!(v["band/hard-9x9"].get("instructions").is_none());
        assert!(v["broken/hard-9x9"].get("latency").is_none());
        assert_eq!(v["broken/hard-9x9"]["failures"]["value"], 8.0);
        assert_eq!(r.notes.len(), 1, "{:?}", r.notes);
        assert!(r.notes[0].contains("broken/hard-9x9: no time, 2 of 10"));
    }

    #[test]
    fn a_counted_run_exports_instructions_not_valgrinds_times() {
        let r = render(TrackFormat::Bmf, &run(Measure::Instructions));
        let v: Value = serde_json::from_str(&r.text).unwrap();
        assert_eq!(v["band/hard-9x9"]["instructions"]["value"], 41_000.0);
        assert!(v["band/hard-9x9"].get("latency").is_none());
        let g = render(
            TrackFormat::GithubActionBenchmark,
            &run(Measure::Instructions),
        );
        let v: Value = serde_json::from_str(&g.text).unwrap();
        let counts: Vec<&Value> = v
            .as_array()
            .unwrap()
            .iter()
            .filter(|e| e["unit"] != "puzzles")
            .collect();
        assert_eq!(counts.len(), 1, "{v}");
        assert_eq!(counts[0]["unit"], "instructions/puzzle");
        assert_eq!(counts[0]["value"], 41_000.0);
    }

    #[test]
    fn github_action_benchmark_entries_carry_the_median_and_its_range() {
        let r = render(TrackFormat::GithubActionBenchmark, &run(Measure::Time));
        let v: Value = serde_json::from_str(&r.text).unwrap();
        let entries = v.as_array().unwrap();
        let times: Vec<&Value> = entries.iter().filter(|e| e["unit"] == "ns").collect();
        assert_eq!(times.len(), 1, "the broken row has no time: {v}");
        assert_eq!(times[0]["name"], "band/hard-9x9");
        assert_eq!(times[0]["value"], 12_500.0);
        assert_eq!(times[0]["range"], "± 750");
        assert_eq!(r.notes.len(), 1);
        // Every row's failures, the broken row's too: a bug is a benchmark's rise.
        let failed: Vec<(&str, u64)> = entries
            .iter()
            .filter(|e| e["unit"] == "puzzles")
            .map(|e| (e["name"].as_str().unwrap(), e["value"].as_u64().unwrap()))
            .collect();
        assert_eq!(failed.len(), 2, "{v}");
        assert!(
            failed.contains(&("band/hard-9x9 (failed puzzles)", 0)),
            "{v}"
        );
        assert!(
            failed.contains(&("broken/hard-9x9 (failed puzzles)", 8)),
            "{v}"
        );
    }

    #[test]
    fn an_export_over_a_runs_file_or_another_export_is_refused() {
        let tmp = tempfile::tempdir().unwrap();
        let run = tmp.path().join("run");
        std::fs::create_dir(&run).unwrap();
        std::fs::write(run.join("run.json"), "{}").unwrap();
        let to = |text: String| -> ExportTo { text.parse().unwrap() };
        let at = |dir: &Path, name: &str| format!("bmf={}", dir.join(name).display());
        // A run folder's own file: in a run folder, or in the folder about to be written.
        let e = refuse_clashes(&[to(at(&run, "results.csv"))], &[]).unwrap_err();
        let text = e.to_string();
        assert!(
            text.contains("that is the results.csv of the run folder"),
            "{text}"
        );
        assert!(
            text.contains(&run.join("results.csv").display().to_string()),
            "{text}"
        );
        let new = tmp.path().join("new");
        let e = refuse_clashes(&[to(at(&new, "run.json"))], &[&new]).unwrap_err();
        assert!(
            matches!(
                e,
                ExportRefused::RunFile {
                    name: "run.json",
                    ..
                }
            ),
            "{e}"
        );
        // Spelled another way, the same file.
        let other = format!(
            "github-action-benchmark={}",
            tmp.path().join("new/../new/./summary.csv").display()
        );
        assert!(refuse_clashes(&[to(other)], &[&new]).is_err());
        // A file of its own, anywhere; a run's file name outside a run folder.
        refuse_clashes(
            &[to(at(&run, "bmf.json")), to(at(tmp.path(), "results.csv"))],
            &[&new],
        )
        .unwrap();
        // Two exports to one file.
        let one = at(tmp.path(), "bmf.json");
        let twice = format!(
            "github-action-benchmark={}",
            tmp.path().join("./bmf.json").display()
        );
        let e = refuse_clashes(&[to(one.clone()), to(twice.clone())], &[]).unwrap_err();
        assert_eq!(
            e.to_string(),
            format!("--export {one} and --export {twice} name one file, which the second would replace: give each export a file of its own")
        );
    }
}
