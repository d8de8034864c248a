//! Exporters: finished records in, files out. One file per format.

pub mod csv;
pub mod json;
pub mod markdown;

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

/// Writes every exporter's file into `dir`.
pub fn write_all(dir: &Path, run: &RunReport) -> io::Result<()> {
    for e in all() {
        std::fs::write(dir.join(e.file_name()), e.render(run)?)?;
    }
    Ok(())
}
