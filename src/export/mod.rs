//! Exporters: finished records in, files out. One file per format.

use crate::harness::files;
pub mod cells;
pub mod csv;
pub mod failures;
pub mod json;
pub mod markdown;
pub mod run_dir;
pub mod terminal;
pub mod track;
pub mod words;

use crate::harness::{RunInfo, SummaryRow};
use std::io;
use std::path::Path;

/// A finished run: what every exporter sees.
#[derive(Clone, Debug)]
pub struct RunReport {
    /// Metadata (`run.json`).
    pub info: RunInfo,
    /// One row per strategy variant and dataset.
    pub summary: Vec<SummaryRow>,
}

/// Names in the order they first appear, each once (datasets of a summary, say).
pub fn first_seen<'a>(names: impl IntoIterator<Item = &'a str>) -> Vec<&'a str> {
    let mut out: Vec<&str> = Vec::new();
    for n in names {
        if !out.contains(&n) {
            out.push(n);
        }
    }
    out
}

/// Renders a finished run into one file.
pub trait Exporter {
    /// File name inside the run folder.
    fn file_name(&self) -> &'static str;
    /// The file's bytes.
    fn render(&self, run: &RunReport) -> io::Result<Vec<u8>>;
}

/// Every exporter of a run folder.
pub fn all() -> Vec<Box<dyn Exporter>> {
    vec![
        Box::new(csv::SummaryCsv),
        Box::new(markdown::SummaryMarkdown),
        Box::new(json::RunJson),
    ]
}

/// Every file of a run folder besides `charts/`: `results.csv` (and the kept
/// solves' `solves.csv`), the exporters' files, and the report's.
pub fn run_files() -> Vec<&'static str> {
    let mut files = vec![files::RESULTS_CSV, files::SOLVES_CSV];
    files.extend(all().iter().map(|e| e.file_name()));
    files.extend([files::REPORT_MD, files::REPORT_HTML]);
    files
}

/// Writes every exporter's file into `dir`.
pub fn write_all(dir: &Path, run: &RunReport) -> io::Result<()> {
    for e in all() {
        crate::files::write(dir.join(e.file_name()), e.render(run)?)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests;
