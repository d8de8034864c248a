//! `rate`: each puzzle of its input given its verdict, and the ones with one
//! solution rated ([`rating`](sudoku_solvers::rating), re-exported here), in
//! a CSV row each; the input read in chunks, each rated and written before
//! the next is read.

pub use sudoku_solvers::rating::{
    rate, rate_puzzle, rate_with, verdict, Level, Rated, Rating, DEFAULT_PERMUTATIONS, REFERENCE,
    VERDICT_BUDGET,
};

use crate::columns::Columns;
use crate::solver::{SolverId, Status};
use crate::spool::Spool;

/// Puzzles a `rate` run found, by verdict.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Rated (exactly one solution).
    pub rated: u64,
    /// Givens that conflict.
    pub invalid: u64,
    /// No solution.
    pub none: u64,
    /// Two or more solutions.
    pub multiple: u64,
    /// Not decided within [`VERDICT_BUDGET`].
    pub undecided: u64,
}

impl Tally {
    fn add(&mut self, status: Status) {
        match status {
            Status::Unique => self.rated += 1,
            Status::Invalid => self.invalid += 1,
            Status::None => self.none += 1,
            Status::Multiple => self.multiple += 1,
            _ => self.undecided += 1,
        }
    }

    /// Puzzles seen.
    pub fn puzzles(&self) -> u64 {
        self.rated + self.invalid + self.none + self.multiple + self.undecided
    }

    /// What was left out, in words (empty when nothing was): `2 invalid, 1
    /// with no solution, 3 with several solutions`.
    pub fn left_out(&self) -> String {
        let parts: Vec<String> = [
            (self.invalid, "invalid (the givens conflict)"),
            (self.none, "with no solution"),
            (self.multiple, "with several solutions"),
            (
                self.undecided,
                "undecided within the verdict search's budget",
            ),
        ]
        .iter()
        .filter(|(n, _)| *n > 0)
        .map(|(n, what)| format!("{n} {what}"))
        .collect();
        parts.join(", ")
    }
}

crate::columns! {
    /// One row of `rate`'s CSV: a puzzle, its verdict, and its rating when
    /// it has one solution (empty otherwise).
    #[derive(Clone, Debug, Default, serde::Serialize)]
    pub struct RateRow in RateColumns {
        /// The puzzle, on one line.
        pub puzzle: String,
        /// Its solution, when it has one (or its file gives one).
        pub solution: String,
        /// The reference's verdict.
        pub verdict: String,
        /// The strategy that rated it.
        pub solver: String,
        /// Mean guesses over the permutations.
        pub guesses: String,
        /// Mean nodes over them.
        pub nodes: String,
        /// `true` when naked and hidden singles alone solve it.
        pub singles: String,
        /// Its level.
        pub level: String,
    }
}

/// Puzzles rated together between two writes: what a streamed input holds
/// at once.
const CHUNK: usize = 4096;

/// Writes `rate`'s CSV for every puzzle of `datasets` (a header, then a row
/// a puzzle in order, every puzzle with its verdict and only those with one
/// solution rated by `solver`), working on `pool`; returns the tally.
pub fn write_csv(
    datasets: &[crate::format::Dataset],
    solver: SolverId,
    permutations: u32,
    pool: &rayon::ThreadPool,
    out: &mut dyn std::io::Write,
) -> Result<Tally, csv::Error> {
    // The header first, even without a row.
    out.write_all(&header())?;
    let mut tally = Tally::default();
    for ds in datasets {
        for chunk in ds.puzzles.chunks(CHUNK) {
            let rows = rate_rows(chunk, &ds.alphabet, solver, permutations, pool, &mut tally)?;
            out.write_all(&rows)?;
        }
    }
    out.flush()?;
    Ok(tally)
}

/// `rate`'s CSV header line.
fn header() -> Vec<u8> {
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record(RateRow::COLUMNS)
        .and_then(|()| w.flush().map_err(csv::Error::from))
        .expect("writing to memory cannot fail");
    w.into_inner().expect("flushed")
}

/// The rows of `puzzles`, each rated on `pool` and written in
/// `alphabet`, in order, without a header; each verdict added to `tally`.
fn rate_rows(
    puzzles: &[crate::format::Puzzle],
    alphabet: &crate::format::Alphabet,
    solver: SolverId,
    permutations: u32,
    pool: &rayon::ThreadPool,
    tally: &mut Tally,
) -> Result<Vec<u8>, csv::Error> {
    use crate::format::write_line;
    use rayon::prelude::*;
    let rated: Vec<Rated> = pool.install(|| {
        puzzles
            .par_iter()
            .map(|p| rate_puzzle(solver, &p.grid, permutations))
            .collect()
    });
    let mut w = csv::WriterBuilder::new()
        .has_headers(false)
        .from_writer(Vec::new());
    for (p, r) in puzzles.iter().zip(rated) {
        tally.add(r.verdict);
        let solution = r.solution.as_ref().or(p.expected.as_ref());
        let mut row = RateRow {
            puzzle: write_line(&p.grid, alphabet),
            solution: solution.map_or(String::new(), |e| write_line(e, alphabet)),
            verdict: r.verdict.to_string(),
            ..RateRow::default()
        };
        if let Some(r) = r.rating {
            row.solver = solver.name().to_string();
            row.guesses = format!("{:.3}", r.guesses);
            row.nodes = format!("{:.1}", r.nodes);
            row.singles = r.singles.to_string();
            row.level = Level::of(&r).to_string();
        }
        w.serialize(&row)?;
    }
    w.flush()?;
    Ok(w.into_inner().map_err(|e| e.into_error())?)
}

/// Why `rate` cannot rate what it was given.
#[derive(Debug, thiserror::Error)]
pub enum RateError {
    /// The strategy counts no guesses.
    #[error("--solver {0}: it counts no guesses, so it cannot rate; pick one that does (see `sudoku-bench solvers`)")]
    NoGuesses(SolverId),
    /// A dataset's size is one the strategy does not handle.
    #[error(
        "{dataset}: {size} puzzles, which --solver {solver} does not handle (it handles {handled})"
    )]
    Size {
        /// The dataset.
        dataset: String,
        /// Its size, `16x16`.
        size: String,
        /// The strategy.
        solver: SolverId,
        /// The sizes it handles.
        handled: String,
    },
    /// The input cannot be read.
    #[error(transparent)]
    Load(#[from] crate::LoadError),
    /// The public list cannot be fetched.
    #[error(transparent)]
    Download(#[from] crate::datasets::public::DownloadError),
    /// The CSV cannot be written.
    #[error(transparent)]
    Csv(#[from] csv::Error),
}

/// What `rate` is asked for.
pub struct Request {
    /// A puzzle file or folder, an embedded or public set's name, or `-`.
    pub input: std::path::PathBuf,
    /// How it is read.
    pub read: crate::format::ReadOptions,
    /// The strategy that rates.
    pub solver: SolverId,
    /// Symmetry permutations per puzzle.
    pub permutations: u32,
}

/// Rates every puzzle `r` names into `out` as CSV (see [`write_csv`]), on
/// `pool`; `say` hears a download's progress. Gives the line said after it.
///
/// Each input is read in chunks of 4,096 puzzles, rated and written as
/// it is read, so memory holds a chunk, not the input. A file's rows are
/// held (past 32 MB in an unnamed temporary file: [`Spool`]) until the whole
/// file has passed its check, so a bad entry fails with none of its rows
/// written; standard input is answered chunk by chunk as it comes.
pub fn run(
    r: &Request,
    pool: &rayon::ThreadPool,
    out: &mut dyn std::io::Write,
    say: &mut dyn FnMut(&str),
) -> Result<String, RateError> {
    let solver = r.solver;
    if !solver.counts_search() {
        return Err(RateError::NoGuesses(solver));
    }
    let path = &r.input;
    let embedded = path
        .to_str()
        .filter(|_| !path.exists())
        .and_then(crate::datasets::embedded);
    let mut rater = Rater::new(r, pool);
    match embedded {
        Some(e) => {
            let mut rows = Spool::default();
            rater.input(e.name, e.text.as_bytes(), &mut rows)?;
            rater.put(out, |out| rows.copy_to(out))?;
        }
        None => {
            let path = crate::datasets::path_or_public(path, say)?;
            for file in crate::format::puzzle_files(&path)? {
                if file == std::path::Path::new("-") {
                    let stdin = std::io::stdin().lock();
                    let header = rater.header;
                    let mut rows = Straight {
                        out: &mut *out,
                        header,
                    };
                    let read = rater.input("<stdin>", stdin, &mut rows);
                    rater.header = rows.header;
                    read?;
                    continue;
                }
                let name = file.display().to_string();
                let reader = std::fs::File::open(&file).map_err(|source| crate::LoadError::Io {
                    path: file.clone(),
                    source,
                })?;
                let mut rows = Spool::default();
                rater.input(&name, reader, &mut rows)?;
                rater.put(out, |out| rows.copy_to(out))?;
            }
        }
    }
    // The header, even without a row.
    rater.put(out, |_| Ok(()))?;
    out.flush().map_err(csv::Error::from)?;
    let (tally, n) = (rater.tally, r.permutations.max(1));
    let left = tally.left_out();
    Ok(format!(
        "rated {} of {} puzzles by {solver}'s mean guesses over {n} permutation{}{}",
        tally.rated,
        tally.puzzles(),
        if n == 1 { "" } else { "s" },
        if left.is_empty() {
            String::new()
        } else {
            format!("; left out (only a puzzle with one solution has a rating): {left}")
        }
    ))
}

/// `rate`'s inputs rated in turn into one CSV.
struct Rater<'a> {
    request: &'a Request,
    pool: &'a rayon::ThreadPool,
    tally: Tally,
    /// The header is out.
    header: bool,
}

/// Rows written straight to the output, the header before the first.
struct Straight<'o> {
    out: &'o mut dyn std::io::Write,
    /// The header is out.
    header: bool,
}

impl std::io::Write for Straight<'_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if !self.header {
            self.out.write_all(&header())?;
            self.header = true;
        }
        self.out.write(buf)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.out.flush()
    }
}

impl<'a> Rater<'a> {
    fn new(request: &'a Request, pool: &'a rayon::ThreadPool) -> Self {
        Rater {
            request,
            pool,
            tally: Tally::default(),
            header: false,
        }
    }

    /// Writes `rows` to `out` after the header, if it is not out yet.
    fn put(
        &mut self,
        out: &mut dyn std::io::Write,
        rows: impl FnOnce(&mut dyn std::io::Write) -> std::io::Result<()>,
    ) -> Result<(), RateError> {
        if !self.header {
            out.write_all(&header()).map_err(csv::Error::from)?;
            self.header = true;
        }
        rows(out).map_err(csv::Error::from)?;
        Ok(())
    }

    /// Reads `reader` in chunks, each rated and its rows written to `rows`
    /// before the next is read; a size the strategy does not handle stops
    /// it at the first chunk.
    fn input(
        &mut self,
        name: &str,
        reader: impl std::io::Read,
        rows: &mut dyn std::io::Write,
    ) -> Result<(), RateError> {
        let (r, pool) = (self.request, self.pool);
        let solver = r.solver;
        let tally = &mut self.tally;
        let mut failed: Option<RateError> = None;
        let mut each = |chunk: Vec<crate::format::Puzzle>, written: &crate::format::Alphabet| {
            let g = chunk[0].grid.geometry();
            if !solver.supports(g) {
                let sizes: Vec<String> =
                    solver.sizes().iter().map(|n| format!("{n}x{n}")).collect();
                failed = Some(RateError::Size {
                    dataset: name.to_string(),
                    size: g.name(),
                    solver,
                    handled: sizes.join(", "),
                });
                return false;
            }
            // Rows in one-character symbols where the size has them, as
            // the input's alphabet reads (a puzzle given as numbers too).
            let alphabet = match written.is_numbers() {
                true => crate::format::Alphabet::detect(g, r.read.alphabet, "")
                    .unwrap_or_else(|_| written.clone()),
                false => written.clone(),
            };
            let done = rate_rows(&chunk, &alphabet, solver, r.permutations, pool, tally)
                .and_then(|bytes| rows.write_all(&bytes).map_err(csv::Error::from));
            match done {
                Ok(()) => true,
                Err(e) => {
                    failed = Some(e.into());
                    false
                }
            }
        };
        let read = crate::format::read_chunks(name, reader, &r.read, CHUNK, &mut each);
        if let Some(e) = failed {
            return Err(e);
        }
        read?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_csv_gives_every_puzzle_its_verdict_and_rates_only_unique_ones() {
        let unique = "1......2..3..4..";
        // Two 1s in the first row; a 4x4 with one clue (several solutions);
        // a valid grid with no solution (r1c4 can hold nothing).
        let text = format!("{unique}\n11..............\n1...............\n123....4........\n");
        let read = crate::format::ReadOptions::default();
        let sets = [crate::format::read_str("t", &text, &read).unwrap()];
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .unwrap();
        let mut out = Vec::new();
        let tally = write_csv(&sets, SolverId::Dlx, 2, &pool, &mut out).unwrap();
        let out = String::from_utf8(out).unwrap();
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(
            lines[0],
            "puzzle,solution,verdict,solver,guesses,nodes,singles,level"
        );
        assert_eq!(lines.len(), 5, "{out}");
        let (verdict, solution) = verdict(&sets[0].puzzles[0].grid);
        assert_eq!(verdict, Status::Unique);
        let solved = crate::format::write_line(&solution.unwrap(), &sets[0].alphabet);
        assert!(
            lines[1].starts_with(&format!("{unique},{solved},unique,dlx,")),
            "{out}"
        );
        assert_eq!(lines[2], "11..............,,invalid,,,,,", "{out}");
        assert_eq!(lines[3], "1...............,,multiple,,,,,", "{out}");
        assert_eq!(lines[4], "123....4........,,none,,,,,", "{out}");
        let expected = Tally {
            rated: 1,
            invalid: 1,
            none: 1,
            multiple: 1,
            undecided: 0,
        };
        assert_eq!(tally, expected);
        assert_eq!(
            tally.left_out(),
            "1 invalid (the givens conflict), 1 with no solution, 1 with several solutions"
        );
    }
}
