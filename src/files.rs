//! The names of a run folder's files, in one place, below every layer
//! that names one (`check` says `results.csv` as `harness` writes it).

/// One row per puzzle.
pub const RESULTS_CSV: &str = "results.csv";
/// The record of the run: build, machine, options, datasets.
pub const RUN_JSON: &str = "run.json";
/// Every timed solve (`--keep-solves`).
pub const SOLVES_CSV: &str = "solves.csv";
/// One row per contender and dataset.
pub const SUMMARY_CSV: &str = "summary.csv";
/// The summary's tables and sentences.
pub const SUMMARY_MD: &str = "summary.md";
/// The report, with every chart inline.
pub const REPORT_HTML: &str = "report.html";
/// The report in Markdown, its charts beside it.
pub const REPORT_MD: &str = "report.md";
/// The charts' folder.
pub const CHARTS: &str = "charts";
/// Outside contenders' stderr logs.
pub const CONTENDER_LOGS: &str = "contenders";
/// A comparison's folder in the current run's.
pub const COMPARE: &str = "compare";
/// A comparison's tables and verdicts, in its folder.
pub const COMPARE_MD: &str = "compare.md";
/// The lock a command holds on a folder while it writes there
/// (`crate::lock`): hidden, and removed when the command lets go.
pub const LOCK: &str = ".sudoku-bench.lock";
