//! Reading and writing puzzles: one-per-line, Kaggle CSV, block and HDU 1426 formats.
//!
//! Every reader reports bad input as a [`ParseError`] naming the source, the
//! 1-based line and column, what was found and what was expected.

mod alphabet;
mod block;
mod csvfmt;
mod guard;
mod line;
mod lines;
mod pencilmark;

pub use alphabet::{Alphabet, AlphabetKind, Symbol};
pub use pencilmark::from_marks;

use crate::error::{LoadError, ParseError, ParseErrorKind};
use crate::grid::{Geometry, Grid};
use std::fs::File;
use std::io::{BufReader, Cursor, Read};
use std::path::Path;

/// The input formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
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
    pub fn from_name(name: &str) -> Result<Option<Format>, String> {
        Ok(Some(match name.to_ascii_lowercase().as_str() {
            "auto" => return Ok(None),
            "line" => Format::Line,
            "csv" => Format::Csv,
            "block" => Format::Block,
            "hdu" => Format::Hdu,
            other => {
                return Err(format!(
                    "unknown format {other:?}, expected one of {}",
                    Format::NAMES.join(", ")
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
#[derive(Clone, Debug)]
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
/// it is full, with the input's alphabet (so memory holds one chunk, not the input); `each` returns false
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

/// What a reader does with the puzzles it parses.
pub(crate) enum Keep<'f> {
    /// Keeps them all.
    All,
    /// Keeps up to this many; past that, only counts them.
    UpTo(usize),
    /// Hands them on in chunks of this many; the callback says whether to go on.
    Chunks(usize, &'f mut dyn FnMut(Vec<Puzzle>, &Alphabet) -> bool),
}

fn read_keeping<R: Read>(
    source_name: &str,
    reader: R,
    opts: &ReadOptions,
    keep: Keep<'_>,
) -> Result<Dataset, LoadError> {
    let io_err = |source| LoadError::Io {
        path: source_name.into(),
        source,
    };
    // Every byte passes the line guard: an over-long line stops the read at once.
    let too_long = |e: std::io::Error| match guard::too_long(&e) {
        Some(t) => LoadError::Invalid {
            source_name: source_name.to_string(),
            errors: vec![ParseError {
                source_name: source_name.to_string(),
                line: t.line,
                column: t.limit + 1,
                kind: ParseErrorKind::LineTooLong { limit: t.limit },
            }],
            total: 1,
            skippable: false,
        },
        None => io_err(e),
    };
    let mut reader = guard::LineGuard::new(
        BufReader::with_capacity(1 << 16, reader),
        guard::MAX_LINE_BYTES,
    );
    let mut head = Vec::with_capacity(1 << 16);
    (&mut reader)
        .take(1 << 16)
        .read_to_end(&mut head)
        .map_err(too_long)?;
    let format = match opts.format {
        Some(f) => f,
        None => match detect_format(&head) {
            Ok(f) => f,
            Err((line, column, kind)) => {
                return Err(LoadError::Invalid {
                    source_name: source_name.to_string(),
                    errors: vec![ParseError {
                        source_name: source_name.to_string(),
                        line,
                        column,
                        kind,
                    }],
                    total: 1,
                    skippable: false,
                })
            }
        },
    };
    let input = BufReader::with_capacity(1 << 16, Cursor::new(head).chain(reader));
    let mut collector = Collector::new(source_name, opts, keep);
    match format {
        Format::Line => line::parse(input, &mut collector),
        Format::Block => block::parse(input, &mut collector, false),
        Format::Hdu => block::parse(input, &mut collector, true),
        Format::Csv => csvfmt::parse(input, &mut collector),
    }
    .map_err(too_long)?;
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

/// Tells the format from the first bytes of an input.
fn detect_format(head: &[u8]) -> Result<Format, (usize, usize, ParseErrorKind)> {
    // Only whole lines that are valid UTF-8 take part; a bad line is reported by the reader.
    let text = String::from_utf8_lossy(head);
    let mut content = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim_end_matches('\r')))
        .filter(|(_, l)| !l.trim().is_empty() && !l.trim_start().starts_with('#'));
    let Some((first_no, first)) = content.next() else {
        return Ok(Format::Line); // empty input: the line reader reports it as empty
    };
    let lower = first.to_ascii_lowercase();
    if lower.contains(',') && (lower.contains("quizzes") || lower.contains("puzzle")) {
        return Ok(Format::Csv);
    }
    let token_of = |l: &str| {
        l.trim_start()
            .split(|c: char| c.is_whitespace() || matches!(c, ',' | ';' | ':'))
            .next()
            .map_or(0, |t| t.chars().count())
    };
    let token_len = token_of(first);
    // A bad first entry must not hide a file of one puzzle per line.
    if content
        .clone()
        .take(32)
        .any(|(_, l)| matches!(token_of(l), 81 | 256 | 625 | 1296 | 729))
    {
        return Ok(Format::Line);
    }
    // A grid's cells as numbers separated by spaces (9x9 and up; with its answer, twice as many).
    let cells_line = |l: &str| {
        let k = l.split('#').next().unwrap_or("").split_whitespace().count();
        k >= 81 && (Geometry::from_cells(k).is_some() || Geometry::from_cells(k / 2).is_some())
    };
    if line::is_numbers_line(first.trim_start()) && cells_line(first) {
        return Ok(Format::Line);
    }
    match token_len {
        // Cells, or pencilmarks (n³ characters: 64, 729, 4096, 15625).
        81 | 256 | 625 | 1296 | 64 | 729 | 4096 | 15625 => return Ok(Format::Line),
        16 => {
            // A 4x4 puzzle per line, or a row of a 16x16 block?
            let g4 = Geometry::new(2).expect("4x4");
            let a4 = Alphabet::default_for(g4);
            let outside_4x4 = first.chars().any(|c| a4.decode(c).is_none());
            let rows = 1 + content
                .clone()
                .take_while(|(no, l)| *no <= first_no + 16 && l.trim().chars().count() == 16)
                .count();
            return Ok(if outside_4x4 && rows >= 16 {
                Format::Block
            } else {
                Format::Line
            });
        }
        _ => {}
    }
    let tokens: Vec<&str> = first.split_whitespace().filter(|t| *t != "|").collect();
    if tokens.len() > 1
        && Geometry::from_side(tokens.len()).is_some()
        && (first.contains('?')
            || tokens.len() > 36
            || tokens
                .iter()
                .any(|t| t.len() > 1 && t.parse::<u8>().is_ok()))
    {
        return Ok(Format::Hdu);
    }
    let symbols = block::row_symbols(first).len();
    if Geometry::from_side(symbols).is_some() || block::is_rule_line(first, None) {
        return Ok(Format::Block);
    }
    Err((
        first_no,
        1,
        ParseErrorKind::UnknownFormat(format!(
            "found a line of {token_len} symbols, expected a puzzle per line (16, 81, 256, 625 or 1296 symbols, \
             or a grid's cells as numbers separated by spaces), a CSV header with a `quizzes` or `puzzle` column, \
             or a block row of 4, 9, 16, 25 or 36 symbols (49 or 64 numbers)"
        )),
    ))
}

/// Collects puzzles and errors for one input, enforcing one size per input.
pub(crate) struct Collector<'a, 'f> {
    source_name: &'a str,
    opts: &'a ReadOptions,
    /// The size and alphabet the first puzzle fixed (shared: every line asks).
    geometry: Option<(Geometry, std::rc::Rc<Alphabet>)>,
    puzzles: Vec<Puzzle>,
    errors: Vec<ParseError>,
    total_errors: usize,
    keep: Keep<'f>,
    count: usize,
    pencilmarks: usize,
    stopped: bool,
}

impl<'a, 'f> Collector<'a, 'f> {
    fn new(source_name: &'a str, opts: &'a ReadOptions, keep: Keep<'f>) -> Self {
        Collector {
            source_name,
            opts,
            geometry: None,
            puzzles: Vec::new(),
            errors: Vec::new(),
            total_errors: 0,
            keep,
            count: 0,
            pencilmarks: 0,
            stopped: false,
        }
    }

    /// True when reading should end: the chunk consumer asked so, or a bad
    /// entry ended a chunked read.
    pub(crate) fn stopped(&self) -> bool {
        self.stopped
    }

    /// Records an error at a 1-based line and column.
    pub(crate) fn error(&mut self, line: usize, column: usize, kind: ParseErrorKind) {
        self.total_errors += 1;
        if matches!(self.keep, Keep::Chunks(..)) && !self.opts.skip_invalid {
            self.stopped = true;
        }
        if self.errors.len() < self.opts.max_listed_errors.max(1) {
            self.errors.push(ParseError {
                source_name: self.source_name.to_string(),
                line,
                column,
                kind,
            });
        }
    }

    /// The alphabet for a puzzle of `geometry`; the first puzzle fixes the size
    /// and (with `Auto`) the alphabet, from `sample`. `None` after recording an error.
    pub(crate) fn alphabet_for(
        &mut self,
        geometry: Geometry,
        sample: &str,
        line: usize,
        column: usize,
    ) -> Option<std::rc::Rc<Alphabet>> {
        match &self.geometry {
            Some((g, a)) if *g == geometry => Some(a.clone()),
            Some((g, _)) => {
                let expected = g.name();
                self.error(
                    line,
                    column,
                    ParseErrorKind::MixedSizes {
                        found: geometry.name(),
                        expected,
                    },
                );
                None
            }
            None => match Alphabet::detect(geometry, self.opts.alphabet, sample) {
                Ok(a) => {
                    let a = std::rc::Rc::new(a);
                    self.geometry = Some((geometry, a.clone()));
                    Some(a)
                }
                Err(msg) => {
                    self.error(line, column, ParseErrorKind::AnswerMismatch(msg));
                    None
                }
            },
        }
    }

    /// Decodes `symbols` (each with its 1-based column) into cells, or records the first unknown symbol.
    pub(crate) fn decode(
        &mut self,
        alphabet: &Alphabet,
        symbols: impl Iterator<Item = (usize, char)>,
        line: usize,
    ) -> Option<Vec<u8>> {
        let mut cells = Vec::with_capacity(81);
        for (column, c) in symbols {
            match alphabet.decode(c) {
                Some(Symbol::Blank) => cells.push(0),
                Some(Symbol::Digit(d)) => cells.push(d),
                None => {
                    self.error(
                        line,
                        column,
                        ParseErrorKind::UnknownSymbol {
                            found: c,
                            expected: alphabet.describe(),
                        },
                    );
                    return None;
                }
            }
        }
        Some(cells)
    }

    /// Checks an answer against its puzzle; records an error (at the answer's
    /// column plus the offending cell) when it does not fit.
    pub(crate) fn answer(
        &mut self,
        puzzle: &Grid,
        answer: &[u8],
        line: usize,
        column: usize,
    ) -> Option<Grid> {
        let g = puzzle.geometry();
        if answer.len() != g.cells() {
            self.error(
                line,
                column,
                ParseErrorKind::AnswerMismatch(format!(
                    "it has {} symbols, expected {}",
                    answer.len(),
                    g.cells()
                )),
            );
            return None;
        }
        for (i, (&given, &value)) in puzzle.cells().iter().zip(answer).enumerate() {
            let problem = if value == 0 {
                "is blank, expected a digit".to_string()
            } else if given != 0 && given != value {
                format!("holds digit {value} where the puzzle gives {given}")
            } else if puzzle.is_pencilmark() && puzzle.allowed(i) & 1 << (value - 1) == 0 {
                format!("holds digit {value}, which the puzzle's pencilmarks exclude")
            } else {
                continue;
            };
            self.error(
                line,
                column + i,
                ParseErrorKind::AnswerMismatch(format!(
                    "cell r{}c{} {problem}",
                    g.row(i) + 1,
                    g.col(i) + 1
                )),
            );
            return None;
        }
        Grid::from_cells(g, answer)
    }

    pub(crate) fn push(&mut self, puzzle: Puzzle) {
        self.count += 1;
        self.pencilmarks += usize::from(puzzle.grid.is_pencilmark());
        match &mut self.keep {
            Keep::All => self.puzzles.push(puzzle),
            Keep::UpTo(cap) => {
                if self.count <= *cap {
                    self.puzzles.push(puzzle);
                } else if !self.puzzles.is_empty() {
                    self.puzzles = Vec::new();
                }
            }
            Keep::Chunks(n, _) => {
                let n = *n;
                self.puzzles.push(puzzle);
                if self.puzzles.len() >= n {
                    self.hand_on();
                }
            }
        }
    }

    /// Hands the chunk held to the consumer (chunked reads only).
    fn hand_on(&mut self) {
        if let (Keep::Chunks(n, each), Some((_, alphabet))) = (&mut self.keep, &self.geometry) {
            let chunk = std::mem::replace(&mut self.puzzles, Vec::with_capacity(*n));
            if !self.stopped && !chunk.is_empty() && !each(chunk, alphabet) {
                self.stopped = true;
            }
        }
    }

    fn finish(mut self, format: Format) -> Result<Dataset, LoadError> {
        if self.total_errors == 0 || self.opts.skip_invalid {
            self.hand_on();
        }
        // With --skip-invalid, a file of nothing but bad entries still fails: nothing is left.
        if self.total_errors > 0 && (!self.opts.skip_invalid || self.count == 0) {
            return Err(LoadError::Invalid {
                source_name: self.source_name.to_string(),
                errors: self.errors,
                total: self.total_errors,
                skippable: !self.opts.skip_invalid && self.count > 0,
            });
        }
        let Some((geometry, alphabet)) = self.geometry.filter(|_| self.count > 0) else {
            return Err(LoadError::Invalid {
                source_name: self.source_name.to_string(),
                errors: vec![ParseError {
                    source_name: self.source_name.to_string(),
                    line: 1,
                    column: 1,
                    kind: ParseErrorKind::Empty,
                }],
                total: 1,
                skippable: false,
            });
        };
        Ok(Dataset {
            name: self.source_name.to_string(),
            source: self.source_name.to_string(),
            geometry,
            format,
            alphabet: std::rc::Rc::unwrap_or_clone(alphabet),
            puzzles: self.puzzles,
            skipped: self.total_errors,
            count: self.count,
            pencilmarks: self.pencilmarks,
        })
    }
}

/// Appends `grid`'s pencilmark form (`n³` symbols, `.` where a candidate is
/// excluded) to `out`.
pub(crate) fn encode_pencilmarks(grid: &Grid, alphabet: &Alphabet, out: &mut Vec<u8>) {
    pencilmark::encode_into(grid, alphabet, out);
}

/// Writes a grid on one line, `.` for blanks; a pencilmark puzzle in its
/// pencilmark form (`n³` characters).
pub fn write_line(grid: &Grid, alphabet: &Alphabet) -> String {
    let mut out = String::with_capacity(grid.cells().len());
    write_line_into(&mut out, grid, alphabet);
    out
}

/// Replaces the contents of `out` with the grid on one line (reusing its buffer).
pub fn write_line_into(out: &mut String, grid: &Grid, alphabet: &Alphabet) {
    let mut bytes = std::mem::take(out).into_bytes();
    bytes.clear();
    if grid.is_pencilmark() && !alphabet.is_numbers() {
        pencilmark::encode_into(grid, alphabet, &mut bytes);
    } else {
        alphabet.encode_into(grid.cells(), &mut bytes);
    }
    // Every symbol is ASCII, so this never takes the lossy path.
    *out = String::from_utf8(bytes)
        .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
}

/// Writes a grid as a pretty block: spaces between cells, `|` between boxes,
/// rule lines between bands (numbers right-aligned in sides past 36).
pub fn write_block(grid: &Grid, alphabet: &Alphabet) -> String {
    let g = grid.geometry();
    let (b, n) = (g.box_size(), g.side());
    let width = if alphabet.is_numbers() { 2 } else { 1 };
    let rule = vec!["-".repeat(b * width + b - 1); b].join("-+-");
    let mut out = String::new();
    for r in 0..n {
        if r > 0 && r % b == 0 {
            out.push_str(&rule);
            out.push('\n');
        }
        for c in 0..n {
            if c > 0 {
                out.push_str(if c % b == 0 { " | " } else { " " });
            }
            let symbol = alphabet.symbol(grid.get(g.cell(r, c)));
            out.push_str(&format!("{symbol:>width$}"));
        }
        out.push('\n');
    }
    out
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
