//! The collector every reader feeds: one size per input, the puzzles kept,
//! capped or handed on in chunks, and the errors gathered.

use super::{Alphabet, Dataset, Format, Puzzle, ReadOptions, Symbol};
use crate::error::{LoadError, ParseError, ParseErrorKind};
use crate::grid::{Geometry, Grid};

/// The size, alphabet and notation the first puzzle of an input fixed.
#[derive(Clone, Debug)]
pub struct Fixed {
    /// The size of every puzzle.
    pub geometry: Geometry,
    /// The alphabet of its one-character symbols.
    pub alphabet: Alphabet,
    /// A puzzle was written as numbers: answers are written in them.
    pub numbers: bool,
}

impl Fixed {
    /// The notation its puzzles were written in, which answers take.
    pub fn written(&self) -> Alphabet {
        match self.numbers {
            true => Alphabet::numbers(self.geometry),
            false => self.alphabet.clone(),
        }
    }
}

/// What one block's lines came to.
#[derive(Debug)]
pub struct ParsedBlock {
    /// Its puzzles, in input order.
    pub puzzles: Vec<Puzzle>,
    /// The size and alphabet fixed so far (by this block or one before it).
    pub fixed: Option<Fixed>,
    pub(super) errors: Vec<ParseError>,
    pub(super) total_errors: usize,
    pub(super) count: usize,
    pub(super) pencilmarks: usize,
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

/// Collects puzzles and errors for one input, enforcing one size per input.
pub(crate) struct Collector<'a, 'f> {
    source_name: &'a str,
    opts: &'a ReadOptions,
    /// The size and alphabet the first puzzle fixed (shared: every line asks).
    geometry: Option<(Geometry, std::rc::Rc<Alphabet>)>,
    /// Numbers, once a puzzle was written as numbers: the notation chunks
    /// are handed on with, so that their answers come back in it.
    numbers: Option<Alphabet>,
    puzzles: Vec<Puzzle>,
    errors: Vec<ParseError>,
    total_errors: usize,
    keep: Keep<'f>,
    count: usize,
    pencilmarks: usize,
    stopped: bool,
    /// A bad entry ends the read (a chunked read, a block, unless bad
    /// entries are skipped).
    stop_on_error: bool,
}

impl<'a, 'f> Collector<'a, 'f> {
    pub(super) fn new(source_name: &'a str, opts: &'a ReadOptions, keep: Keep<'f>) -> Self {
        let stop_on_error = matches!(keep, Keep::Chunks(..)) && !opts.skip_invalid;
        Collector {
            stop_on_error,
            source_name,
            opts,
            geometry: None,
            numbers: None,
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
        if self.stop_on_error {
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
                    self.error(line, column, ParseErrorKind::AnswerMismatch(msg.0));
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
        let grid = Grid::from_cells(g, answer)?;
        // Complete and keeping the givens, it must also keep the rules.
        if let Some((cell, why)) = repeated(&grid) {
            self.error(
                line,
                column + cell,
                ParseErrorKind::AnswerMismatch(format!("it is no solution: {why}")),
            );
            return None;
        }
        Some(grid)
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

    /// Notes that a puzzle of `geometry` was written as numbers.
    pub(crate) fn written_as_numbers(&mut self, geometry: Geometry) {
        if self.numbers.is_none() {
            self.numbers = Some(Alphabet::numbers(geometry));
        }
    }

    /// Hands the chunk held to the consumer (chunked reads only), with the
    /// notation its puzzles were written in.
    fn hand_on(&mut self) {
        if let (Keep::Chunks(n, each), Some((_, alphabet))) = (&mut self.keep, &self.geometry) {
            let written = self.numbers.as_ref().unwrap_or(alphabet);
            let chunk = std::mem::replace(&mut self.puzzles, Vec::with_capacity(*n));
            if !self.stopped && !chunk.is_empty() && !each(chunk, written) {
                self.stopped = true;
            }
        }
    }

    /// A collector for one block of a line-format input (see
    /// [`super::blocks`]): it keeps its puzzles, stops at a bad entry unless
    /// they are skipped, and reads against the size, alphabet and notation
    /// that earlier blocks fixed.
    pub(super) fn for_block(
        source_name: &'a str,
        opts: &'a ReadOptions,
        fixed: Option<&Fixed>,
    ) -> Self {
        let mut c = Collector::new(source_name, opts, Keep::All);
        c.stop_on_error = !opts.skip_invalid;
        if let Some(f) = fixed {
            c.geometry = Some((f.geometry, std::rc::Rc::new(f.alphabet.clone())));
            c.numbers = f.numbers.then(|| Alphabet::numbers(f.geometry));
        }
        c
    }

    /// What a block's collector found (see [`Collector::for_block`]).
    pub(super) fn into_block(self) -> ParsedBlock {
        ParsedBlock {
            fixed: self.geometry.map(|(geometry, a)| Fixed {
                geometry,
                alphabet: std::rc::Rc::unwrap_or_clone(a),
                numbers: self.numbers.is_some(),
            }),
            puzzles: self.puzzles,
            errors: self.errors,
            total_errors: self.total_errors,
            count: self.count,
            pencilmarks: self.pencilmarks,
        }
    }

    pub(super) fn finish(mut self, format: Format) -> Result<Dataset, LoadError> {
        if self.total_errors == 0 || self.opts.skip_invalid {
            self.hand_on();
        }
        let read = (self.errors, self.total_errors, self.count);
        let (geometry, alphabet) = read_end(self.source_name, self.opts, read, self.geometry)?;
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

/// How a read ends: its bad entries refuse it (with `--skip-invalid`, a read
/// of nothing but bad entries still fails: nothing is left), and so does a
/// read without a puzzle (`errors` listed of `total`, `count` puzzles read,
/// `fixed` what the first puzzle fixed, given back when the read stands).
pub(super) fn read_end<T>(
    source_name: &str,
    opts: &ReadOptions,
    (errors, total, count): (Vec<ParseError>, usize, usize),
    fixed: Option<T>,
) -> Result<T, LoadError> {
    if total > 0 && (!opts.skip_invalid || count == 0) {
        return Err(LoadError::Invalid {
            source_name: source_name.to_string(),
            errors,
            total,
            skippable: !opts.skip_invalid && count > 0,
        });
    }
    match fixed.filter(|_| count > 0) {
        Some(f) => Ok(f),
        None => Err(LoadError::Invalid {
            source_name: source_name.to_string(),
            errors: vec![ParseError {
                source_name: source_name.to_string(),
                line: 1,
                column: 1,
                kind: ParseErrorKind::Empty,
            }],
            total: 1,
            skippable: false,
        }),
    }
}

/// The first digit a complete grid repeats in a unit (rows, then columns,
/// then boxes): the second cell holding it, and the repeat in words.
fn repeated(grid: &Grid) -> Option<(usize, String)> {
    let g = grid.geometry();
    let (n, b) = (g.side(), g.box_size());
    let name = |cell: usize| format!("r{}c{}", g.row(cell) + 1, g.col(cell) + 1);
    // The cell of unit `u`'s `k`-th place.
    let cell_of = |unit: &str, u: usize, k: usize| match unit {
        "row" => u * n + k,
        "column" => k * n + u,
        _ => (u / b * b + k / b) * n + u % b * b + k % b,
    };
    for unit in ["row", "column", "box"] {
        for u in 0..n {
            let mut first = vec![None; n + 1];
            for k in 0..n {
                let cell = cell_of(unit, u, k);
                let d = usize::from(grid.get(cell));
                match first.get(d).copied().flatten() {
                    Some(earlier) => {
                        return Some((
                            cell,
                            format!(
                                "digit {d} appears twice in {unit} {}: {} and {}",
                                u + 1,
                                name(earlier),
                                name(cell)
                            ),
                        ))
                    }
                    None => {
                        if let Some(f) = first.get_mut(d) {
                            *f = Some(cell);
                        }
                    }
                }
            }
        }
    }
    None
}
