//! No input makes a reader buffer more than a bounded line: long runs without a
//! newline, in every format, forced or detected, are refused at the limit, and
//! the bytes allocated meanwhile stay small (counted by this test's allocator).

use proptest::prelude::*;
use std::io::Read;
use std::sync::Mutex;
use sudoku_bench::format::{read_reader, Format, ReadOptions};
use sudoku_bench::ParseErrorKind;

/// Counts live and peak bytes allocated.
use crate::counting::peak_of;

/// The tests measure one at a time.
static ONE: Mutex<()> = Mutex::new(());

/// `prefix`, then `len` bytes cycling through `pattern`, never a newline; made as it is read.
struct Endless {
    prefix: Vec<u8>,
    pattern: Vec<u8>,
    left: usize,
    at: usize,
}

impl Read for Endless {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        if !self.prefix.is_empty() {
            let n = self.prefix.len().min(out.len());
            out[..n].copy_from_slice(&self.prefix[..n]);
            self.prefix.drain(..n);
            return Ok(n);
        }
        let n = self.left.min(out.len());
        for b in &mut out[..n] {
            *b = self.pattern[self.at % self.pattern.len()];
            self.at += 1;
        }
        self.left -= n;
        Ok(n)
    }
}

/// Peak bytes allocated above the level at the start, and the outcome.
fn measure(
    input: Endless,
    format: Option<Format>,
) -> (usize, Result<usize, sudoku_bench::LoadError>) {
    let _one = ONE.lock().unwrap_or_else(|e| e.into_inner());
    let opts = ReadOptions {
        format,
        ..ReadOptions::default()
    };
    let (out, peak) = peak_of(|| read_reader("endless", input, &opts).map(|d| d.puzzles.len()));
    (peak, out)
}

const FORMATS: [Option<Format>; 5] = [
    None,
    Some(Format::Line),
    Some(Format::Block),
    Some(Format::Hdu),
    Some(Format::Csv),
];

/// A reader holds its 64 KiB buffers, a 64 KiB head for detection and one line: well under 1 MiB.
const BOUND: usize = 1 << 20;

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn long_runs_without_newlines_are_refused_within_a_bounded_buffer(
        pattern in prop::collection::vec(prop_oneof![Just(b'1'), Just(b'.'), Just(b','), Just(b' '), Just(b'A'), any::<u8>()], 1..12),
        megabytes in 1usize..24,
        lines_before in 0usize..3,
        format in 0usize..5,
    ) {
        let pattern: Vec<u8> = pattern.into_iter().map(|b| if b == b'\n' || b == b'\r' { b'x' } else { b }).collect();
        let mut prefix = Vec::new();
        if FORMATS[format] == Some(Format::Csv) {
            prefix.extend_from_slice(b"quizzes,solutions\n");
        }
        for _ in 0..lines_before {
            prefix.extend_from_slice(b"4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......\n");
        }
        let first_long = prefix.iter().filter(|b| **b == b'\n').count() + 1;
        let input = Endless { prefix, pattern, left: megabytes << 20, at: 0 };
        let (peak, out) = measure(input, FORMATS[format]);
        prop_assert!(peak < BOUND, "{peak} bytes buffered");
        let err = out.expect_err("an endless line is refused");
        let e = err.first_parse_error().expect("a located error");
        // Detection may refuse an unreadable head first; otherwise the long line is named.
        if let ParseErrorKind::LineTooLong { limit } = e.kind {
            prop_assert_eq!(e.line, first_long);
            prop_assert_eq!(e.column, limit + 1);
        } else {
            prop_assert!(FORMATS[format].is_none() || matches!(e.kind, ParseErrorKind::NotUtf8 | ParseErrorKind::Csv(_)), "{err}");
        }
    }
}

#[test]
fn a_200_mb_line_read_as_blocks_costs_less_than_a_megabyte() {
    // The case that once took 12.9 GB and 44 s.
    for format in FORMATS {
        let input = Endless {
            prefix: Vec::new(),
            pattern: b"123456789".to_vec(),
            left: 200 << 20,
            at: 0,
        };
        let (peak, out) = measure(input, format);
        assert!(peak < BOUND, "{format:?}: {peak} bytes");
        let err = out.unwrap_err();
        let e = err.first_parse_error().unwrap();
        assert!(
            matches!(e.kind, ParseErrorKind::LineTooLong { .. }),
            "{format:?}: {err}"
        );
        // Refused one byte past the 32 KiB line limit.
        assert_eq!((e.line, e.column), (1, 32 * 1024 + 1), "{err}");
    }
}

/// An `Endless` that counts the bytes taken from it.
struct Counted<'a> {
    inner: Endless,
    taken: &'a std::sync::atomic::AtomicUsize,
}

impl Read for Counted<'_> {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(out)?;
        self.taken
            .fetch_add(n, std::sync::atomic::Ordering::Relaxed);
        Ok(n)
    }
}

#[test]
fn a_quoted_csv_field_over_ten_thousand_lines_is_refused_at_the_line_bound() {
    // The case that once took 531 MB: a quote left open, then 300 MB of
    // short lines, every one within the line guard's bound.
    for format in [None, Some(Format::Csv)] {
        let taken = std::sync::atomic::AtomicUsize::new(0);
        let input = Counted {
            inner: Endless {
                prefix: b"id,puzzle,note\n1,4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......,\"".to_vec(),
                pattern: b"twenty-nine bytes of a note\r\n".to_vec(),
                left: 300 << 20,
                at: 0,
            },
            taken: &taken,
        };
        let _one = ONE.lock().unwrap_or_else(|e| e.into_inner());
        let opts = ReadOptions {
            format,
            ..ReadOptions::default()
        };
        let (out, peak) =
            peak_of(|| read_reader("notes.csv", input, &opts).map(|d| d.puzzles.len()));
        let err = out.expect_err("a field left open is refused");
        let e = err.first_parse_error().expect("a located error");
        // Named where the quote opened: line 2, after `1,` and 81 cells and `,`.
        assert_eq!((e.line, e.column), (2, 85), "{err}");
        assert!(
            matches!(e.kind, ParseErrorKind::FieldTooLong { limit: 32768, lines } if lines > 1000),
            "{format:?}: {err}"
        );
        let said = err.to_string();
        assert!(said.contains("notes.csv:2:85:"), "{said}");
        assert!(said.contains("expected its closing quote"), "{said}");
        // Refused within the reader's buffers, not at the end of the input.
        let taken = taken.load(std::sync::atomic::Ordering::Relaxed);
        assert!(taken < 1 << 20, "{format:?}: {taken} bytes read");
        assert!(peak < BOUND, "{format:?}: {peak} bytes");
    }
}
