//! `results.csv` (streamed row by row) and `summary.csv`.

use super::{Exporter, RunReport};
use crate::harness::{PuzzleRecord, RecordSink, RowEncoder};
use std::fs::File;
use std::io::{self, BufWriter};
use std::path::Path;

/// Streams records into `results.csv`; each flush makes the rows so far durable.
///
/// Rows are encoded field by field (numbers through `itoa`), not through
/// serde, by a `CsvEncoder`: the sink's own for rows given to it one by one,
/// and one per worker for rows the workers encode themselves (the writer
/// thread then only writes their bytes). The columns are
/// [`PuzzleRecord::COLUMNS`], the order serde reads them back in.
pub struct CsvSink<W: io::Write> {
    out: W,
    own: CsvEncoder,
}

impl CsvSink<BufWriter<File>> {
    /// Creates (truncates) the file and writes the header.
    pub fn create(path: &Path) -> io::Result<Self> {
        CsvSink::new(BufWriter::new(File::create(path)?))
    }
}

impl<W: io::Write> CsvSink<W> {
    /// Streams into any writer, header first (so a run with no rows still has one).
    pub fn new(mut out: W) -> io::Result<Self> {
        let mut header = csv::Writer::from_writer(Vec::new());
        header
            .write_record(PuzzleRecord::COLUMNS)
            .map_err(io::Error::other)?;
        out.write_all(&header.into_inner().map_err(|e| e.into_error())?)?;
        Ok(CsvSink {
            out,
            own: CsvEncoder::new(),
        })
    }

    /// The inner writer, after a final flush.
    pub fn into_inner(mut self) -> io::Result<W> {
        self.flush()?;
        Ok(self.out)
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

impl<W: io::Write> RecordSink for CsvSink<W> {
    fn record(&mut self, r: &PuzzleRecord) -> io::Result<()> {
        self.own.encode(r)?;
        if self.own.rows >= 256 {
            self.drain()?;
        }
        Ok(())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.drain()?;
        self.out.flush()
    }

    fn encoder(&self) -> Option<Box<dyn RowEncoder>> {
        Some(Box::new(CsvEncoder::new()))
    }

    fn encoded(&mut self, bytes: &[u8]) -> io::Result<()> {
        // Rows given one by one go first, so rows stay in the order they came.
        self.drain()?;
        self.out.write_all(bytes)
    }
}

/// Encodes `results.csv` rows into memory, on any thread: byte for byte what
/// the `csv` crate's default writer gives (a field is quoted when it holds a
/// comma, a quote, a line feed or a carriage return, and its quotes are doubled), without its
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

    /// One text field, quoted where the `csv` crate would quote it.
    fn text(&mut self, s: &str) {
        let b = s.as_bytes();
        if b.iter().any(|&c| matches!(c, b',' | b'"' | b'\n' | b'\r')) {
            self.buf.push(b'"');
            for &c in b {
                if c == b'"' {
                    self.buf.push(b'"');
                }
                self.buf.push(c);
            }
            self.buf.push(b'"');
        } else {
            self.buf.extend_from_slice(b);
        }
    }

    fn number(&mut self, n: impl itoa::Integer) {
        self.buf
            .extend_from_slice(itoa::Buffer::new().format(n).as_bytes());
    }

    /// A number, or an empty field when there is none.
    fn maybe(&mut self, n: Option<u64>) {
        if let Some(n) = n {
            self.number(n);
        }
    }

    fn row(&mut self, r: &PuzzleRecord) {
        self.text(&r.strategy);
        self.buf.push(b',');
        self.text(&r.variant);
        self.buf.push(b',');
        self.text(&r.dataset);
        self.buf.push(b',');
        self.number(r.puzzle_index);
        self.buf.push(b',');
        self.number(r.repeat);
        self.buf.push(b',');
        self.text(&r.puzzle);
        self.buf.push(b',');
        self.buf.extend_from_slice(r.status.word().as_bytes());
        self.buf.push(b',');
        self.number(r.solutions);
        self.buf.push(b',');
        self.maybe(r.nodes);
        self.buf.push(b',');
        self.maybe(r.guesses);
        self.buf.push(b',');
        self.number(r.solve_ns);
        self.buf.push(b',');
        self.maybe(r.own_ns);
        self.buf.push(b',');
        self.number(r.threads);
        self.buf.push(b',');
        self.text(&r.detail);
        self.buf.push(b',');
        self.number(r.round);
        self.buf.push(b'\n');
    }
}

impl RowEncoder for CsvEncoder {
    fn encode(&mut self, r: &PuzzleRecord) -> io::Result<()> {
        self.rows += 1;
        self.row(r);
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::harness::RowStatus;
    use proptest::prelude::*;

    /// The row as the `csv` crate's default writer gives it.
    fn by_the_crate(r: &PuzzleRecord) -> Vec<u8> {
        let mut w = csv::Writer::from_writer(Vec::new());
        let n = |x: u64| x.to_string();
        let o = |x: Option<u64>| x.map(n).unwrap_or_default();
        w.write_record([
            r.strategy.to_string(),
            r.variant.to_string(),
            r.dataset.to_string(),
            n(r.puzzle_index),
            n(r.repeat as u64),
            r.puzzle.clone(),
            r.status.word().to_string(),
            n(r.solutions),
            o(r.nodes),
            o(r.guesses),
            n(r.solve_ns),
            o(r.own_ns),
            n(r.threads as u64),
            r.detail.clone(),
            n(r.round as u64),
        ])
        .unwrap();
        w.into_inner().unwrap()
    }

    proptest! {
        #[test]
        fn rows_are_encoded_as_the_csv_crate_writes_them(
            names in proptest::collection::vec("[a-z,\"\r\n #.-]{0,8}", 3),
            detail in "[a-z ,\"\r\n\t'#]{0,20}",
            numbers in proptest::collection::vec(any::<u64>(), 4),
            optional in proptest::collection::vec(proptest::option::of(any::<u64>()), 3),
            small in proptest::collection::vec(any::<u32>(), 3),
        ) {
            let r = PuzzleRecord {
                strategy: names[0].as_str().into(),
                variant: names[1].as_str().into(),
                dataset: names[2].as_str().into(),
                puzzle_index: numbers[0],
                repeat: small[0],
                puzzle: "1.3".repeat(27),
                status: RowStatus::Wrong,
                solutions: numbers[1],
                nodes: optional[0],
                guesses: optional[1],
                solve_ns: numbers[2],
                own_ns: optional[2],
                threads: small[1] as usize,
                detail,
                round: small[2],
            };
            let mut e = CsvEncoder::new();
            e.encode(&r).unwrap();
            let ours = e.take().unwrap();
            let theirs = by_the_crate(&r);
            prop_assert_eq!(String::from_utf8_lossy(&ours), String::from_utf8_lossy(&theirs));
            // And it reads back as the same record.
            let mut back = csv::ReaderBuilder::new()
                .has_headers(false)
                .from_reader(&ours[..]);
            let read: Vec<csv::StringRecord> = back.records().map(|x| x.unwrap()).collect();
            prop_assert_eq!(read.len(), 1);
            prop_assert_eq!(&read[0][13], r.detail.as_str());
        }
    }
}
