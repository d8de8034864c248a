//! `results.csv` (streamed row by row) and `summary.csv`.

use super::{Exporter, RunReport};
use crate::harness::{PuzzleRecord, RecordSink};
use std::fs::File;
use std::io::{self, BufWriter};
use std::path::Path;

/// Streams records into `results.csv`; each flush makes the rows so far durable.
pub struct CsvSink<W: io::Write> {
    writer: csv::Writer<W>,
}

impl CsvSink<BufWriter<File>> {
    /// Creates (truncates) the file.
    pub fn create(path: &Path) -> io::Result<Self> {
        Ok(CsvSink::new(BufWriter::new(File::create(path)?)))
    }
}

impl<W: io::Write> CsvSink<W> {
    /// Streams into any writer.
    pub fn new(w: W) -> Self {
        CsvSink {
            writer: csv::Writer::from_writer(w),
        }
    }

    /// The inner writer, after a final flush.
    pub fn into_inner(self) -> io::Result<W> {
        self.writer.into_inner().map_err(|e| e.into_error())
    }
}

impl<W: io::Write> RecordSink for CsvSink<W> {
    fn record(&mut self, r: &PuzzleRecord) -> io::Result<()> {
        self.writer.serialize(r).map_err(io::Error::other)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.writer.flush()
    }
}

/// `summary.csv`: one row per strategy variant and dataset.
pub struct SummaryCsv;

impl Exporter for SummaryCsv {
    fn file_name(&self) -> &'static str {
        "summary.csv"
    }

    fn render(&self, run: &RunReport) -> io::Result<Vec<u8>> {
        let mut w = csv::Writer::from_writer(Vec::new());
        for row in &run.summary {
            w.serialize(row).map_err(io::Error::other)?;
        }
        w.into_inner().map_err(|e| e.into_error())
    }
}
