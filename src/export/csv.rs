//! `results.csv` and the kept solves' `solves.csv` (both streamed row by
//! row), and `summary.csv`.

use super::{Exporter, RunReport};
use crate::columns::{header, Row};
use crate::harness::files;
use crate::harness::{PuzzleResult, RecordSink, RowEncoder, SolveRecord, SummaryRow};
use std::fs::File;
use std::io::{self, BufWriter};
use std::path::Path;

/// Streams each puzzle's row into `results.csv`, and (when given a second
/// writer) every timed solve into `solves.csv`; each flush makes the rows so
/// far durable.
///
/// Rows are encoded by their schemas' [`Row`] (field by field, numbers
/// through `itoa`), not through serde, by a `CsvEncoder`: the sink's own,
/// and one per worker for solves the workers encode themselves (the writer
/// thread then only writes their bytes).
pub struct CsvSink<W: io::Write> {
    out: W,
    own: CsvEncoder,
    solves: Option<SolvesCsv<W>>,
}

impl CsvSink<BufWriter<File>> {
    /// Creates (truncates) `results.csv`, and `solves.csv` when asked for, headers first.
    pub fn create(results: &Path, solves: Option<&Path>) -> io::Result<Self> {
        let solves = match solves {
            Some(p) => Some(BufWriter::new(crate::files::create(p)?)),
            None => None,
        };
        CsvSink::new(BufWriter::new(crate::files::create(results)?), solves)
    }
}

impl CsvSink<BufWriter<File>> {
    /// Appends to the `results.csv` of a resumed run (and its `solves.csv`,
    /// when it keeps solves, created with its header if absent): no header.
    pub fn append(results: &Path, solves: Option<&Path>) -> io::Result<Self> {
        let open = |p: &Path| crate::files::append(p);
        let solves = match solves {
            Some(p) if p.is_file() => Some(SolvesCsv::append(p)?),
            Some(p) => Some(SolvesCsv::create(p)?),
            None => None,
        };
        Ok(CsvSink {
            out: BufWriter::new(open(results)?),
            own: CsvEncoder::new(),
            solves,
        })
    }
}

impl<W: io::Write> CsvSink<W> {
    /// Streams into any writers, headers first (so a run with no rows still has them).
    pub fn new(mut out: W, solves: Option<W>) -> io::Result<Self> {
        out.write_all(&header::<PuzzleResult>())?;
        Ok(CsvSink {
            out,
            own: CsvEncoder::new(),
            solves: solves.map(SolvesCsv::new).transpose()?,
        })
    }

    /// The inner writers, after a final flush.
    pub fn into_inner(mut self) -> io::Result<(W, Option<W>)> {
        self.flush()?;
        Ok((self.out, self.solves.map(|s| s.out)))
    }
}

impl<W: io::Write> RecordSink for CsvSink<W> {
    fn puzzle(&mut self, r: &PuzzleResult) -> io::Result<()> {
        self.own.puzzle(r);
        if self.own.buf.len() >= 64 * 1024 {
            self.out.write_all(&self.own.take()?)?;
        }
        Ok(())
    }

    fn keeps_solves(&self) -> bool {
        self.solves.is_some()
    }

    fn solve(&mut self, r: &SolveRecord) -> io::Result<()> {
        match &mut self.solves {
            Some(s) => s.write(r),
            None => Ok(()),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        if !self.own.buf.is_empty() {
            self.out.write_all(&self.own.take()?)?;
        }
        self.out.flush()?;
        match &mut self.solves {
            Some(s) => s.flush(),
            None => Ok(()),
        }
    }

    fn encoder(&self) -> Option<Box<dyn RowEncoder>> {
        self.solves
            .as_ref()
            .map(|_| Box::new(CsvEncoder::new()) as Box<dyn RowEncoder>)
    }

    fn encoded(&mut self, bytes: &[u8]) -> io::Result<()> {
        match &mut self.solves {
            Some(s) => s.encoded(bytes),
            None => Err(io::Error::other("this sink keeps no solves")),
        }
    }
}

/// Streams timed solves into a `solves.csv`.
pub struct SolvesCsv<W: io::Write> {
    out: W,
    own: CsvEncoder,
}

impl SolvesCsv<BufWriter<File>> {
    /// Creates (truncates) the file and writes the header.
    pub fn create(path: &Path) -> io::Result<Self> {
        SolvesCsv::new(BufWriter::new(crate::files::create(path)?))
    }

    /// Appends to the file of a resumed run or study (no header).
    pub fn append(path: &Path) -> io::Result<Self> {
        let file = crate::files::append(path)?;
        Ok(SolvesCsv {
            out: BufWriter::new(file),
            own: CsvEncoder::new(),
        })
    }
}

impl<W: io::Write> SolvesCsv<W> {
    /// Streams into any writer, header first.
    pub fn new(mut out: W) -> io::Result<Self> {
        out.write_all(&header::<SolveRecord>())?;
        Ok(SolvesCsv {
            out,
            own: CsvEncoder::new(),
        })
    }

    /// Takes one solve.
    pub fn write(&mut self, r: &SolveRecord) -> io::Result<()> {
        self.own.encode(r)?;
        if self.own.rows >= 256 {
            self.drain()?;
        }
        Ok(())
    }

    /// Takes solves encoded by a worker's encoder, whole rows in order.
    pub fn encoded(&mut self, bytes: &[u8]) -> io::Result<()> {
        // Rows given one by one go first, so rows stay in the order they came.
        self.drain()?;
        self.out.write_all(bytes)
    }

    /// Makes every solve taken so far durable.
    pub fn flush(&mut self) -> io::Result<()> {
        self.drain()?;
        self.out.flush()
    }

    /// Moves the rows encoded here so far to the writer.
    fn drain(&mut self) -> io::Result<()> {
        if self.own.rows > 0 {
            self.out.write_all(&self.own.buf)?;
            self.own.buf.clear();
            self.own.rows = 0;
        }
        Ok(())
    }
}

/// Encodes `results.csv` and `solves.csv` rows into memory, on any thread,
/// byte for byte as serde writes them through the `csv` crate, without its
/// per-field machinery, since the workers encode their own rows.
struct CsvEncoder {
    buf: Vec<u8>,
    rows: usize,
}

impl CsvEncoder {
    fn new() -> CsvEncoder {
        CsvEncoder {
            buf: Vec::with_capacity(64 * 1024),
            rows: 0,
        }
    }

    /// One `results.csv` row.
    fn puzzle(&mut self, r: &PuzzleResult) {
        self.rows += 1;
        r.row(&mut self.buf);
    }
}

impl RowEncoder for CsvEncoder {
    fn encode(&mut self, r: &SolveRecord) -> io::Result<()> {
        self.rows += 1;
        r.row(&mut self.buf);
        Ok(())
    }

    fn take(&mut self) -> io::Result<Vec<u8>> {
        self.rows = 0;
        let cap = self.buf.capacity();
        Ok(std::mem::replace(&mut self.buf, Vec::with_capacity(cap)))
    }
}

/// `summary.csv`: one row per strategy variant and dataset.
pub struct SummaryCsv;

impl Exporter for SummaryCsv {
    fn file_name(&self) -> &'static str {
        files::SUMMARY_CSV
    }

    fn render(&self, run: &RunReport) -> io::Result<Vec<u8>> {
        let mut w = csv::Writer::from_writer(Vec::new());
        for row in &run.summary {
            w.serialize(row).map_err(io::Error::other)?;
        }
        let bytes = w.into_inner().map_err(|e| e.into_error())?;
        // The header alone (a run that has just begun): serde names the
        // columns only with a row.
        if run.summary.is_empty() {
            return Ok(header::<SummaryRow>());
        }
        Ok(bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::harness::RowStatus;
    use proptest::prelude::*;

    /// The row as serde writes it through the `csv` crate's default writer.
    fn by_serde(row: &impl serde::Serialize) -> Vec<u8> {
        let mut w = csv::WriterBuilder::new()
            .has_headers(false)
            .from_writer(Vec::new());
        w.serialize(row).unwrap();
        w.into_inner().unwrap()
    }

    proptest! {
        #[test]
        fn rows_are_encoded_as_serde_writes_them(
            names in proptest::collection::vec("[a-z,\"\r\n #.-]{0,8}", 3),
            detail in "[a-z ,\"\r\n\t'#]{0,20}",
            numbers in proptest::collection::vec(any::<u64>(), 4),
            optional in proptest::collection::vec(proptest::option::of(any::<u64>()), 3),
            small in proptest::collection::vec(any::<u32>(), 3),
            statuses in proptest::collection::vec(0..RowStatus::ALL.len(), 2),
        ) {
            let s = SolveRecord {
                strategy: names[0].as_str().into(),
                variant: names[1].as_str().into(),
                dataset: names[2].as_str().into(),
                puzzle_index: numbers[0],
                round: small[2],
                repeat: small[0],
                status: RowStatus::ALL[statuses[0]],
                solutions: numbers[1],
                nodes: optional[0],
                guesses: optional[1],
                solve_ns: numbers[2],
                own_ns: optional[2],
                threads: small[1] as usize,
                detail: detail.clone(),
                timing: crate::contender::Timing::Pipe,
                instructions: optional[1],
                cycles: optional[2],
                branch_misses: None,
                task_clock_ns: optional[0],
                heap_bytes: optional[2],
            };
            let p = PuzzleResult {
                strategy: s.strategy.clone(),
                variant: s.variant.clone(),
                dataset: s.dataset.clone(),
                puzzle_index: numbers[0],
                round: small[2],
                status: RowStatus::ALL[statuses[1]],
                solutions: numbers[1],
                nodes: optional[0],
                guesses: optional[1],
                solves: small[0],
                median_ns: numbers[2],
                min_ns: numbers[3],
                own_ns: optional[2],
                threads: small[1] as usize,
                detail: detail.clone(),
                timing: crate::contender::Timing::Batch,
                checked: crate::contender::Checked::Verdict,
                instructions: optional[0],
                cycles: None,
                branch_misses: optional[1],
                task_clock_ns: optional[2],
            };
            let mut e = CsvEncoder::new();
            e.encode(&s).unwrap();
            let ours = e.take().unwrap();
            let theirs = by_serde(&s);
            prop_assert_eq!(String::from_utf8_lossy(&ours), String::from_utf8_lossy(&theirs));
            e.puzzle(&p);
            let ours = e.take().unwrap();
            let theirs = by_serde(&p);
            prop_assert_eq!(String::from_utf8_lossy(&ours), String::from_utf8_lossy(&theirs));
            // And it reads back as the same record.
            let back: PuzzleResult = csv::ReaderBuilder::new()
                .has_headers(false)
                .from_reader(&ours[..])
                .deserialize()
                .next()
                .unwrap()
                .unwrap();
            prop_assert_eq!(back, p);
        }
    }
}
