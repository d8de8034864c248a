//! `results.csv` (streamed row by row) and `summary.csv`.

use super::{Exporter, RunReport};
use crate::harness::{PuzzleRecord, RecordSink};
use std::fs::File;
use std::io::{self, BufWriter};
use std::path::Path;

/// Streams records into `results.csv`; each flush makes the rows so far durable.
///
/// Rows are written field by field (numbers through `itoa`), not through serde:
/// the writer shares the machine with the timed workers, so it should be cheap.
/// The columns are [`PuzzleRecord::COLUMNS`], the order serde reads them back in.
pub struct CsvSink<W: io::Write> {
    writer: csv::Writer<W>,
}

impl CsvSink<BufWriter<File>> {
    /// Creates (truncates) the file and writes the header.
    pub fn create(path: &Path) -> io::Result<Self> {
        CsvSink::new(BufWriter::new(File::create(path)?))
    }
}

impl<W: io::Write> CsvSink<W> {
    /// Streams into any writer, header first (so a run with no rows still has one).
    pub fn new(w: W) -> io::Result<Self> {
        let mut writer = csv::Writer::from_writer(w);
        writer
            .write_record(PuzzleRecord::COLUMNS)
            .map_err(io::Error::other)?;
        Ok(CsvSink { writer })
    }

    /// The inner writer, after a final flush.
    pub fn into_inner(self) -> io::Result<W> {
        self.writer.into_inner().map_err(|e| e.into_error())
    }

    fn number(&mut self, n: impl itoa::Integer) -> csv::Result<()> {
        self.writer.write_field(itoa::Buffer::new().format(n))
    }

    /// A number, or an empty field when there is none.
    fn maybe(&mut self, n: Option<u64>) -> csv::Result<()> {
        match n {
            Some(n) => self.number(n),
            None => self.writer.write_field(""),
        }
    }

    fn row(&mut self, r: &PuzzleRecord) -> csv::Result<()> {
        self.writer.write_field(&*r.strategy)?;
        self.writer.write_field(&*r.variant)?;
        self.writer.write_field(&*r.dataset)?;
        self.number(r.puzzle_index)?;
        self.number(r.repeat)?;
        self.writer.write_field(&r.puzzle)?;
        self.writer.write_field(r.status.word())?;
        self.number(r.solutions)?;
        self.maybe(r.nodes)?;
        self.maybe(r.guesses)?;
        self.number(r.solve_ns)?;
        self.maybe(r.own_ns)?;
        self.number(r.threads)?;
        self.writer.write_field(&r.detail)?;
        self.number(r.round)?;
        self.writer.write_record(None::<&[u8]>)
    }
}

impl<W: io::Write> RecordSink for CsvSink<W> {
    fn record(&mut self, r: &PuzzleRecord) -> io::Result<()> {
        self.row(r).map_err(io::Error::other)
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
