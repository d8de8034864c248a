//! Reading and writing puzzles: one-per-line, Kaggle CSV, block and HDU 1426 formats.
//!
//! Every reader reports bad input as a [`ParseError`] naming the source, the
//! 1-based line and column, what was found and what was expected.

mod alphabet;
mod block;
pub mod blocks;
mod collect;
mod csvfmt;
mod detect;
mod guard;
mod line;
mod lines;
mod pencilmark;
mod rest;
mod write;

pub use alphabet::{Alphabet, AlphabetKind, Symbol};
pub use pencilmark::from_marks;
pub use write::{append_line, encode_pencilmarks, write_block, write_line, write_line_into};

pub(crate) use collect::{Collector, Keep};
use detect::detect_format;

use crate::error::{LoadError, ParseError, ParseErrorKind};
use crate::grid::{Geometry, Grid};
use std::fs::File;
use std::io::{BufReader, Cursor, Read};
use std::path::Path;

/// The input formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Format {
    /// One puzzle per line; a comment or expected answer may follow.
    Line,
    /// Kaggle CSV: `quizzes,solutions` or `puzzle,solution` columns.
    Csv,
    /// `n²` rows of `n²` symbols, with optional spaces, `|` and rule lines.
    Block,
    /// HDU 1426: rows of space-separated symbols, `?` for blanks.
    Hdu,
}

impl Format {
    /// Names accepted on the command line.
    pub const NAMES: &'static [&'static str] = &["auto", "line", "csv", "block", "hdu"];

    /// Parses a name; `auto` gives `Ok(None)`.
    pub fn from_name(name: &str) -> Result<Option<Format>, crate::words::UnknownWord> {
        Ok(Some(match name.to_ascii_lowercase().as_str() {
            "auto" => return Ok(None),
            "line" => Format::Line,
            "csv" => Format::Csv,
            "block" => Format::Block,
            "hdu" => Format::Hdu,
            _ => {
                return Err(crate::words::UnknownWord::new(
                    "a format",
                    name,
                    Format::NAMES.join(", "),
                ))
            }
        }))
    }

    /// The name of the format.
    pub fn name(self) -> &'static str {
        match self {
            Format::Line => "line",
            Format::Csv => "csv",
            Format::Block => "block",
            Format::Hdu => "hdu",
        }
    }
}

/// The verdict words `solve` opens each answer with: `solver::Status`'s
/// words (it takes them from here), so that its output reads back as puzzles.
pub const RESULT_WORDS: [&str; 7] = [
    "unique",
    "multiple",
    "solved",
    "none",
    "budget",
    "cancelled",
    "invalid",
];

/// What follows the verdict on a line `solve` wrote (`unique<TAB>GRID`; in
/// mode count `multiple<TAB>2<TAB>GRID`): the solution's text, or an empty
/// string where there is none (`none<TAB>-`, or the verdict alone above a
/// block). `None` for any other line.
pub(crate) fn result_rest(line: &str) -> Option<&str> {
    let body = line.trim_start();
    // Every verdict word opens with a lowercase letter; a puzzle line rarely does.
    if !body.as_bytes().first().is_some_and(u8::is_ascii_lowercase) {
        return None;
    }
    let (word, rest) = body.split_once('\t').unwrap_or((body.trim_end(), ""));
    if !RESULT_WORDS.contains(&word) {
        return None;
    }
    let rest = match rest.split_once('\t') {
        Some((n, after)) if !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) => after,
        _ => rest,
    };
    Some(if rest.trim() == "-" { "" } else { rest })
}

/// One puzzle read from an input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Puzzle {
    /// The givens.
    pub grid: Grid,
    /// The answer given with the puzzle, if any.
    pub expected: Option<Grid>,
    /// Text that followed the puzzle, if it was not an answer.
    pub comment: Option<Box<str>>,
    /// 1-based line where the puzzle starts.
    pub line: u32,
}

/// All puzzles of one input, of one size.
#[derive(Clone, Debug)]
pub struct Dataset {
    /// Short name (file stem or embedded name).
    pub name: String,
    /// Where it came from: a path, `<stdin>` or `embedded:NAME`.
    pub source: String,
    /// The size of every puzzle.
    pub geometry: Geometry,
    /// The format it was read in.
    pub format: Format,
    /// The alphabet it was read with.
    pub alphabet: Alphabet,
    /// The puzzles, in input order.
    pub puzzles: Vec<Puzzle>,
    /// Entries skipped as bad (with `skip_invalid`).
    pub skipped: usize,
    /// Puzzles read: `puzzles.len()` when the reader kept them all (see [`read_capped`]).
    pub count: usize,
    /// Pencilmark puzzles among them.
    pub pencilmarks: usize,
}

/// How to read an input.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(default)]
pub struct ReadOptions {
    /// Force a format instead of detecting it.
    pub format: Option<Format>,
    /// Symbol alphabet.
    pub alphabet: AlphabetKind,
    /// Skip bad entries (counted in [`Dataset::skipped`]) instead of failing.
    pub skip_invalid: bool,
    /// How many errors a failure lists before `... and N more`.
    pub max_listed_errors: usize,
}

impl Default for ReadOptions {
    fn default() -> Self {
        ReadOptions {
            format: None,
            alphabet: AlphabetKind::Auto,
            skip_invalid: false,
            max_listed_errors: 10,
        }
    }
}

/// Reads puzzles from any reader. `source_name` is used in errors.
pub fn read_reader<R: Read>(
    source_name: &str,
    reader: R,
    opts: &ReadOptions,
) -> Result<Dataset, LoadError> {
    read_keeping(source_name, reader, opts, Keep::All)
}

/// Reads and checks a whole input, keeping its puzzles only if there are at most
/// `cap` of them: otherwise the dataset comes back with `puzzles` empty and
/// `count` set, for reading again in chunks ([`read_chunks`]).
pub fn read_capped<R: Read>(
    source_name: &str,
    reader: R,
    opts: &ReadOptions,
    cap: usize,
) -> Result<Dataset, LoadError> {
    read_keeping(source_name, reader, opts, Keep::UpTo(cap))
}

/// Reads puzzles in chunks of up to `chunk`, handing each to `each` as soon as
/// it is full, with the notation its puzzles were written in (the input's
/// alphabet, or numbers when they came as numbers; so memory holds one
/// chunk, not the input); `each` returns false
/// to stop reading. A bad entry (without `skip_invalid`) stops the chunks and
/// is the error returned. The dataset returned has `puzzles` empty.
pub fn read_chunks<R: Read>(
    source_name: &str,
    reader: R,
    opts: &ReadOptions,
    chunk: usize,
    each: &mut dyn FnMut(Vec<Puzzle>, &Alphabet) -> bool,
) -> Result<Dataset, LoadError> {
    read_keeping(source_name, reader, opts, Keep::Chunks(chunk.max(1), each))
}

/// An error of the line guard (an over-long line) or the CSV record guard
/// (a quoted field left open) as the read's error, naming its line; any
/// other as an I/O error.
fn too_long(source_name: &str, e: std::io::Error) -> LoadError {
    let (line, column, kind) = if let Some(t) = guard::too_long(&e) {
        let kind = ParseErrorKind::LineTooLong { limit: t.limit };
        (t.line, t.limit + 1, kind)
    } else if let Some(t) = guard::field_too_long(&e) {
        let (limit, lines) = (t.limit, t.lines);
        (
            t.line,
            t.column,
            ParseErrorKind::FieldTooLong { limit, lines },
        )
    } else if let Some(t) = guard::field_unclosed(&e) {
        (t.line, t.column, ParseErrorKind::FieldUnclosed)
    } else {
        return LoadError::Io {
            path: source_name.into(),
            source: e,
        };
    };
    one_error(source_name, line, column, kind)
}

/// A read refused for one error at `line`:`column`.
fn one_error(source_name: &str, line: usize, column: usize, kind: ParseErrorKind) -> LoadError {
    LoadError::Invalid {
        source_name: source_name.to_string(),
        errors: vec![ParseError {
            source_name: source_name.to_string(),
            line,
            column,
            kind,
        }],
        total: 1,
        skippable: false,
    }
}

/// The UTF-8 byte-order mark.
const BOM: &[u8] = b"\xEF\xBB\xBF";

/// An input behind the line guard (every byte passes it: an over-long line
/// stops the read at once) with its format, the one asked for or the one
/// its head (first 64 KiB) shows.
fn open_detected<R: Read>(
    source_name: &str,
    reader: R,
    opts: &ReadOptions,
) -> Result<(Format, impl std::io::BufRead), LoadError> {
    let mut reader = guard::LineGuard::new(
        BufReader::with_capacity(1 << 16, reader),
        guard::MAX_LINE_BYTES,
    );
    let mut head = Vec::with_capacity(1 << 16);
    (&mut reader)
        .take(1 << 16)
        .read_to_end(&mut head)
        .map_err(|e| too_long(source_name, e))?;
    // A UTF-8 byte-order mark (as some editors save a file) is no content.
    if head.starts_with(BOM) {
        head.drain(..BOM.len());
    }
    let format = match opts.format {
        Some(f) => f,
        None => match detect_format(&head) {
            Ok(f) => f,
            Err((line, column, kind)) => return Err(one_error(source_name, line, column, kind)),
        },
    };
    let input = BufReader::with_capacity(1 << 16, Cursor::new(head).chain(reader));
    Ok((format, input))
}

fn read_keeping<R: Read>(
    source_name: &str,
    reader: R,
    opts: &ReadOptions,
    keep: Keep<'_>,
) -> Result<Dataset, LoadError> {
    let (format, input) = open_detected(source_name, reader, opts)?;
    let mut collector = Collector::new(source_name, opts, keep);
    match format {
        Format::Line => line::parse(input, &mut collector),
        Format::Block => block::parse(input, &mut collector, false),
        Format::Hdu => block::parse(input, &mut collector, true),
        Format::Csv => csvfmt::parse(input, &mut collector),
    }
    .map_err(|e| too_long(source_name, e))?;
    collector.finish(format)
}

/// Reads puzzles from a string (see [`read_reader`]).
pub fn read_str(source_name: &str, text: &str, opts: &ReadOptions) -> Result<Dataset, LoadError> {
    read_reader(source_name, text.as_bytes(), opts)
}

/// Reads one file; `-` reads standard input.
pub fn read_path(path: &Path, opts: &ReadOptions) -> Result<Dataset, LoadError> {
    read_path_capped(path, opts, usize::MAX)
}

/// Reads and checks one file, keeping its puzzles if there are at most `cap`
/// (see [`read_capped`]); standard input (`-`) is always kept whole.
pub fn read_path_capped(path: &Path, opts: &ReadOptions, cap: usize) -> Result<Dataset, LoadError> {
    if path == Path::new("-") {
        return read_reader("<stdin>", std::io::stdin().lock(), opts);
    }
    let file = File::open(path).map_err(|source| LoadError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    let mut ds = read_capped(&path.display().to_string(), file, opts, cap)?;
    if let Some(stem) = path.file_stem() {
        ds.name = stem.to_string_lossy().into_owned();
    }
    Ok(ds)
}

/// Reads a file, or every puzzle file of a folder (sorted by name; hidden
/// files, `README*` and `*.md` are passed over), one dataset per file.
pub fn read_path_or_folder(path: &Path, opts: &ReadOptions) -> Result<Vec<Dataset>, LoadError> {
    puzzle_files(path)?
        .iter()
        .map(|f| read_path(f, opts))
        .collect()
}

/// The puzzle files of a path: the path itself, or a folder's puzzle files
/// (sorted by name; hidden files, `README*`, `*.md` and `*.json` passed over).
pub fn puzzle_files(path: &Path) -> Result<Vec<std::path::PathBuf>, LoadError> {
    if !path.is_dir() {
        return Ok(vec![path.to_path_buf()]);
    }
    let io_err = |source| LoadError::Io {
        path: path.to_path_buf(),
        source,
    };
    let mut files: Vec<_> = std::fs::read_dir(path)
        .map_err(io_err)?
        .collect::<Result<Vec<_>, _>>()
        .map_err(io_err)?
        .into_iter()
        .map(|e| e.path())
        .filter(|p| p.is_file() && is_puzzle_file(p))
        .collect();
    if files.is_empty() {
        return Err(LoadError::NoFiles(path.to_path_buf()));
    }
    files.sort();
    Ok(files)
}

fn is_puzzle_file(p: &Path) -> bool {
    let name = p
        .file_name()
        .map(|n| n.to_string_lossy())
        .unwrap_or_default();
    !(name.starts_with('.')
        || name.starts_with("README")
        || name.ends_with(".md")
        || name.ends_with(".json"))
}

/// The first puzzle of some text, for tests.
#[cfg(test)]
pub(crate) fn test_grid(text: &str) -> Grid {
    read_str("t", text, &ReadOptions::default())
        .expect("a test puzzle")
        .puzzles
        .remove(0)
        .grid
}

#[cfg(test)]
mod tests;
