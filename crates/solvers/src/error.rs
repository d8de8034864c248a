//! Typed errors of the library: where a puzzle file is wrong and why.

use std::fmt;
use std::path::PathBuf;

/// What is wrong at one position of an input.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseErrorKind {
    /// The bytes at this position are not UTF-8.
    #[error("bytes that are not UTF-8")]
    NotUtf8,
    /// A puzzle has a length no grid size has.
    #[error("found a puzzle of {found} symbols, expected {expected}")]
    WrongLength {
        /// Symbols found.
        found: usize,
        /// What was expected, in words.
        expected: String,
    },
    /// A character that is neither a digit symbol nor a blank.
    #[error("unknown symbol {found:?}, expected {expected}")]
    UnknownSymbol {
        /// The character found.
        found: char,
        /// The symbols accepted, in words.
        expected: String,
    },
    /// A cell of a numbers row (space-separated numbers) that is neither a number of the size nor a blank.
    #[error("unknown cell {found:?}, expected {expected}")]
    UnknownCell {
        /// The token found.
        found: String,
        /// What is accepted, in words.
        expected: String,
    },
    /// A block puzzle with too many or too few rows.
    #[error("found {found} rows, expected {expected}")]
    WrongRowCount {
        /// Rows found.
        found: usize,
        /// Rows expected.
        expected: usize,
    },
    /// A block row with too many or too few symbols.
    #[error("found a row of {found} symbols, expected {expected}")]
    WrongRowLength {
        /// Symbols found.
        found: usize,
        /// Symbols expected.
        expected: usize,
    },
    /// A puzzle of another size than the first puzzle of the same input.
    #[error("found a {found} puzzle, expected {expected} like the first puzzle of this input (one size per file)")]
    MixedSizes {
        /// Size found, like `4x4`.
        found: String,
        /// Size of the first puzzle, like `9x9`.
        expected: String,
    },
    /// No puzzle at all.
    #[error("no puzzles found, expected at least one")]
    Empty,
    /// An expected answer that does not fit its puzzle.
    #[error("the answer does not fit its puzzle: {0}")]
    AnswerMismatch(String),
    /// A CSV file without the columns it needs.
    #[error("{0}")]
    Csv(String),
    /// A line longer than any puzzle's, refused before it was read in full.
    #[error("a line longer than {limit} bytes, expected a puzzle, an answer or a comment (the longest, a 64x64 puzzle in numbers with its answer, is about 24,000 bytes); is this the right file and --format?")]
    LineTooLong {
        /// The limit, in bytes.
        limit: usize,
    },
    /// A CSV quoted field carried over line ends past the longest line's
    /// bound, refused before it was read in full.
    #[error("a quoted field that runs over {lines} line ends and past {limit} bytes, expected its closing quote `\"` within {limit} bytes (a puzzle and its answer fit on one line); is a quote left open, or is this the right file and --format?")]
    FieldTooLong {
        /// The limit, in bytes.
        limit: usize,
        /// Line ends it had crossed when it passed the limit.
        lines: usize,
    },
    /// The input ends inside a CSV quoted field, which would swallow every
    /// record after its quote.
    #[error("a quoted field that is never closed: the file ends inside it, expected its closing quote `\"` (a quote left open swallows every line after it)")]
    FieldUnclosed,
    /// The format could not be told from the content.
    #[error("cannot tell the format: {0}")]
    UnknownFormat(String),
}

/// A parse error with its position: file, 1-based line and column.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// File name, or `<stdin>`.
    pub source_name: String,
    /// 1-based line.
    pub line: usize,
    /// 1-based column in characters.
    pub column: usize,
    /// What is wrong.
    pub kind: ParseErrorKind,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}:{}: {}",
            self.source_name, self.line, self.column, self.kind
        )
    }
}

impl std::error::Error for ParseError {}

/// Why an input could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// The file or folder could not be read.
    #[error("cannot read {}: {source}", path.display())]
    Io {
        /// What was being read.
        path: PathBuf,
        /// The OS error.
        #[source]
        source: std::io::Error,
    },
    /// The input has bad entries (the first few are listed).
    #[error("{}", describe_invalid(source_name, errors, *total, *skippable))]
    Invalid {
        /// File name, or `<stdin>`.
        source_name: String,
        /// The first errors, in input order.
        errors: Vec<ParseError>,
        /// How many errors in all.
        total: usize,
        /// True when `--skip-invalid` would get past them (bad entries among good ones).
        skippable: bool,
    },
    /// A folder given as a dataset holds no puzzle file.
    #[error("{}: the folder holds no puzzle files (hidden files, README*, *.md and *.json are not read)", .0.display())]
    NoFiles(PathBuf),
}

fn describe_invalid(
    source_name: &str,
    errors: &[ParseError],
    total: usize,
    skippable: bool,
) -> String {
    use std::fmt::Write;
    let mut s = format!(
        "{source_name}: {total} bad {}{}",
        if total == 1 { "entry" } else { "entries" },
        if skippable {
            " (use --skip-invalid to skip them)"
        } else {
            ""
        }
    );
    for e in errors {
        let _ = write!(s, "\n  {e}");
    }
    if total > errors.len() {
        let _ = write!(s, "\n  ... and {} more", total - errors.len());
    }
    s
}

impl LoadError {
    /// The first parse error, if this is an invalid-input error.
    pub fn first_parse_error(&self) -> Option<&ParseError> {
        match self {
            LoadError::Invalid { errors, .. } => errors.first(),
            _ => None,
        }
    }
}
