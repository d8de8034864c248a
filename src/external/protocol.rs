//! The line protocol: puzzle lines out, answer lines back (docs/contenders.md).

use crate::format::{Alphabet, Symbol};
use crate::grid::Grid;
use crate::solver::{Counters, Outcome, Status};

/// Environment variable that tells a program it is run by the workbench.
pub const PROTOCOL_VAR: &str = "SUDOKU_BENCH_PROTOCOL";
/// The protocol version this workbench speaks: one puzzle in flight.
pub const PROTOCOL_VERSION: &str = "1";
/// Version 2: batches (`batch = K` in a contenders file): up to K puzzle lines
/// are written before their answers are read, in order. A program that reads
/// and answers a line at a time speaks it unchanged; one that waits for more
/// than one line must not wait for K (the last batch of a share is shorter).
pub const BATCH_VERSION: &str = "2";
/// Environment variable that tells the program what to look for.
pub const MODE_VAR: &str = "SUDOKU_BENCH_MODE";
/// Environment variable set to `1` for a program that takes pencilmark lines.
pub const PENCILMARK_VAR: &str = "SUDOKU_BENCH_PENCILMARK";
/// Why a pencilmark puzzle was not sent.
pub const NO_PENCILMARKS: &str =
    "a pencilmark puzzle, not sent: the contender does not say `pencilmark = true`";

/// Longest answer line read (a 64×64 answer in numbers is about 12,000 bytes).
pub const MAX_ANSWER_BYTES: usize = 32 * 1024;

/// One answer line, understood.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    /// The outcome as the harness checks it (counters zero when not reported).
    pub outcome: Outcome,
    /// `nodes=`, when given.
    pub nodes: Option<u64>,
    /// `guesses=`, when given.
    pub guesses: Option<u64>,
    /// `ns=`: the program's own time on the puzzle, when given.
    pub ns: Option<u64>,
    /// What a library's host counted of the call: `instructions=` (under
    /// callgrind, or the CPU's), `cycles=`, `branch-misses=`, `task-clock=`.
    pub counts: crate::perf::Counts,
}

/// The puzzle line sent for a grid: the size's default symbols, `.` for
/// blanks (49×49 and 64×64: numbers separated by spaces), then `\n`; a
/// pencilmark puzzle in its `n³`-symbol form (each cell's candidates in digit
/// order, `.` where one is excluded).
pub fn puzzle_line(out: &mut Vec<u8>, grid: &Grid, alphabet: &Alphabet) {
    if grid.is_pencilmark() {
        crate::format::encode_pencilmarks(grid, alphabet, out);
    } else {
        alphabet.encode_into(grid.cells(), out);
    }
    out.push(b'\n');
}

/// Shortens a line for an error message.
pub fn quote(line: &str) -> String {
    const MAX: usize = 80;
    let line = line.trim_end();
    if line.chars().count() <= MAX {
        format!("{line:?}")
    } else {
        let head: String = line.chars().take(MAX).collect();
        format!("{head:?}… ({} bytes)", line.len())
    }
}

/// Reads a grid in line format; `Err` says what is wrong with it.
fn grid(token: &str, puzzle: &Grid, alphabet: &Alphabet) -> Result<Grid, String> {
    let n = token.chars().count();
    cells_of(
        n,
        token.chars().map(|c| (alphabet.decode(c), c)),
        puzzle,
        alphabet,
    )
}

/// Reads a grid written in numbers, one token a cell.
fn grid_of(symbols: &[&str], puzzle: &Grid, alphabet: &Alphabet) -> Result<Grid, String> {
    let decoded = symbols.iter().map(|&t| (alphabet.decode_token(t), t));
    cells_of(symbols.len(), decoded, puzzle, alphabet)
}

/// The grid of `n` decoded cells, each with what was written for it.
fn cells_of<D: std::fmt::Debug>(
    n: usize,
    decoded: impl Iterator<Item = (Option<Symbol>, D)>,
    puzzle: &Grid,
    alphabet: &Alphabet,
) -> Result<Grid, String> {
    let g = puzzle.geometry();
    if n != g.cells() {
        return Err(format!("a solution has {} cells, this one {n}", g.cells()));
    }
    let mut cells = Vec::with_capacity(n);
    for (i, (symbol, c)) in decoded.enumerate() {
        match symbol {
            Some(Symbol::Digit(d)) => cells.push(d),
            Some(Symbol::Blank) => return Err(format!("the solution leaves cell {} blank", i + 1)),
            None => {
                return Err(format!(
                    "{c:?} at cell {} of the solution is not {}",
                    i + 1,
                    alphabet.describe()
                ))
            }
        }
    }
    Grid::from_cells(g, &cells).ok_or_else(|| "not a grid".to_string())
}

/// An answer line that does not read, quoted, with what is wrong.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct BadAnswer(pub String);

/// The verdicts an answer line may begin with.
const ANSWERS: [Status; 5] = [
    Status::Unique,
    Status::Multiple,
    Status::Solved,
    Status::None,
    Status::Budget,
];

/// Reads the `key=value` tokens of an answer line into `answer`; gives its
/// `count=`, when there is one. Unknown keys are passed over (later
/// versions may add keys).
fn read_keys<'a>(
    tokens: impl Iterator<Item = &'a str>,
    answer: &mut Answer,
    bad: &dyn Fn(String) -> BadAnswer,
) -> Result<Option<u64>, BadAnswer> {
    let mut count = None;
    for t in tokens {
        let Some((key, value)) = t.split_once('=') else {
            return Err(bad(format!("{} is not key=value", quote(t))));
        };
        let number = || {
            value
                .parse::<u64>()
                .map_err(|_| bad(format!("{key}={value}: expected a whole number")))
        };
        match key {
            "nodes" => answer.nodes = Some(number()?),
            "guesses" => answer.guesses = Some(number()?),
            "ns" => answer.ns = Some(number()?),
            "instructions" => answer.counts.instructions = Some(number()?),
            "cycles" => answer.counts.cycles = Some(number()?),
            "branch-misses" => answer.counts.branch_misses = Some(number()?),
            "task-clock" => answer.counts.task_clock_ns = Some(number()?),
            "count" => count = Some(number()?),
            _ => {} // later versions may add keys
        }
    }
    Ok(count)
}

/// Understands one answer line for `puzzle` (the trailing newline removed):
/// `STATUS [SOLUTION] [key=value ...]`, or a bare complete grid for `solved GRID`.
/// `Err` says what is wrong, quoting the line.
pub fn parse_answer(line: &str, puzzle: &Grid, alphabet: &Alphabet) -> Result<Answer, BadAnswer> {
    let bad = |why: String| BadAnswer(format!("cannot read the answer {}: {why}", quote(line)));
    let mut tokens = line.split_ascii_whitespace().peekable();
    // Named only when a line is wrong: no allocation per answer read.
    let statuses = || ANSWERS.map(Status::word).join(", ");
    let Some(first) = tokens.next() else {
        return Err(bad(format!(
            "the line is empty; expected a status ({})",
            statuses()
        )));
    };
    let cells = puzzle.geometry().cells();
    // 49x49 and 64x64 grids are numbers separated by spaces: `cells` tokens.
    let numbers = alphabet.is_numbers();
    let is_cell = |t: &&str| !t.contains('=');
    let verdict = first.parse::<Status>().ok().filter(|s| ANSWERS.contains(s));
    let (status, mut solution) = match (verdict, first) {
        (Some(s), _) => (s, None),
        (None, t) if numbers && alphabet.decode_token(t).is_some() => {
            let rest = std::iter::from_fn(|| tokens.next_if(is_cell)).take(cells - 1);
            let symbols: Vec<&str> = std::iter::once(t).chain(rest).collect();
            let solution = grid_of(&symbols, puzzle, alphabet).map_err(bad)?;
            (Status::Solved, Some(solution))
        }
        (None, t) if t.chars().count() == cells => (
            Status::Solved,
            Some(grid(t, puzzle, alphabet).map_err(bad)?),
        ),
        (None, t) => {
            return Err(bad(format!(
                "{} is not a status ({}) nor a {cells}-cell solution",
                quote(t),
                statuses()
            )))
        }
    };
    if solution.is_none() && numbers {
        let symbols: Vec<&str> = std::iter::from_fn(|| tokens.next_if(is_cell))
            .take(cells)
            .collect();
        if !symbols.is_empty() {
            solution = Some(grid_of(&symbols, puzzle, alphabet).map_err(bad)?);
        }
    } else if solution.is_none() {
        if let Some(t) = tokens.next_if(is_cell) {
            solution = Some(grid(t, puzzle, alphabet).map_err(bad)?);
        }
    }
    let mut answer = Answer {
        outcome: Outcome {
            status,
            solutions: Vec::new(),
            solution_count: 0,
            counters: Counters::default(),
        },
        nodes: None,
        guesses: None,
        ns: None,
        counts: Default::default(),
    };
    let count = read_keys(tokens, &mut answer, &bad)?;
    if let (Status::None | Status::Budget, Some(_)) = (status, &solution) {
        return Err(bad(format!("{first} takes no solution")));
    }
    // A verdict without its solution is read; the check says whether the
    // contender may give one (`solutions = false`).
    answer.outcome.solution_count = match (status, count) {
        (Status::Unique | Status::Solved, _) => 1,
        (Status::Multiple, Some(n)) if n >= 2 => n,
        (Status::Multiple, Some(n)) => {
            return Err(bad(format!("multiple with count={n}: expected 2 or more")))
        }
        // At least two; the line does not say how many.
        (Status::Multiple, None) => 2,
        _ => 0,
    };
    answer.outcome.solutions.extend(solution);
    answer.outcome.counters = Counters {
        nodes: answer.nodes.unwrap_or(0),
        guesses: answer.guesses.unwrap_or(0),
    };
    Ok(answer)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Geometry;

    const PUZZLE: &str =
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
    const SOLUTION: &str =
        "417369825632158947958724316825437169791586432346912758289643571573291684164875293";

    fn puzzle() -> (Grid, Alphabet) {
        let g = Geometry::from_side(9).unwrap();
        let a = Alphabet::default_for(g);
        let cells: Vec<u8> = PUZZLE
            .bytes()
            .map(|b| if b == b'.' { 0 } else { b - b'0' })
            .collect();
        (Grid::from_cells(g, &cells).unwrap(), a)
    }

    fn parse(line: &str) -> Result<Answer, String> {
        let (p, a) = puzzle();
        parse_answer(line, &p, &a).map_err(|e| e.0)
    }

    #[test]
    fn status_solution_and_keys() {
        let a = parse(&format!("unique {SOLUTION} nodes=12 guesses=3 ns=9000")).unwrap();
        assert_eq!(a.outcome.status, Status::Unique);
        assert_eq!(a.outcome.solutions.len(), 1);
        assert_eq!((a.nodes, a.guesses, a.ns), (Some(12), Some(3), Some(9000)));
        let bare = parse(SOLUTION).unwrap();
        assert_eq!(bare.outcome.status, Status::Solved);
        assert_eq!((bare.nodes, bare.ns), (None, None));
        let none = parse("none guesses=4").unwrap();
        assert_eq!(
            (none.outcome.status, none.outcome.solution_count),
            (Status::None, 0)
        );
        let multi = parse(&format!("multiple {SOLUTION}")).unwrap();
        assert_eq!(multi.outcome.solution_count, 2);
        assert_eq!(parse("multiple").unwrap().outcome.solutions.len(), 0);
        assert_eq!(parse("multiple count=7").unwrap().outcome.solution_count, 7);
        // A verdict alone is read (the check decides whether it may be).
        let bare = parse("unique guesses=3").unwrap().outcome;
        assert_eq!((bare.status, bare.solutions.len()), (Status::Unique, 0));
        assert!(parse(&format!("unique {SOLUTION} future=x")).is_ok());
    }

    #[test]
    fn what_is_wrong_is_said() {
        let cases = [
            ("", "empty"),
            ("hello", "not a status"),
            ("multiple count=1", "expected 2 or more"),
            (&format!("none {SOLUTION}"), "takes no solution"),
            (
                &format!("unique {}", &SOLUTION[1..]),
                "81 cells, this one 80",
            ),
            (&format!("unique {}x", &SOLUTION[1..]), "'x' at cell 81"),
            (
                &format!("unique {SOLUTION} nodes=many"),
                "expected a whole number",
            ),
            (&format!("unique {SOLUTION} junk"), "is not key=value"),
        ];
        for (line, want) in cases {
            let e = parse(line).unwrap_err();
            assert!(e.contains(want), "{line:?}: {e}");
            assert!(e.starts_with("cannot read the answer"), "{e}");
        }
        let long = "x".repeat(500);
        assert!(parse(&long).unwrap_err().contains("(500 bytes)"));
    }

    #[test]
    fn puzzle_lines_use_the_default_symbols() {
        let (p, a) = puzzle();
        let mut out = Vec::new();
        puzzle_line(&mut out, &p, &a);
        assert_eq!(out, format!("{PUZZLE}\n").into_bytes());
    }

    #[test]
    fn sides_past_36_travel_as_numbers() {
        let g = Geometry::from_side(49).unwrap();
        let a = Alphabet::default_for(g);
        let solution = crate::generate::complete_grid(g, &mut crate::seeded::stream(7, 0));
        let mut puzzle = solution.clone();
        (0..g.cells()).step_by(2).for_each(|c| puzzle.set(c, 0));
        let mut line = Vec::new();
        puzzle_line(&mut line, &puzzle, &a);
        let text = String::from_utf8(line).unwrap();
        assert_eq!(text.split_whitespace().count(), g.cells());
        assert!(text.starts_with(". ") && text.ends_with('\n'));
        let words = crate::format::write_line(&solution, &a);
        for answer in [format!("solved {words} nodes=12"), words.clone()] {
            let got = parse_answer(&answer, &puzzle, &a).unwrap();
            assert_eq!(got.outcome.status, Status::Solved);
            assert_eq!(
                got.outcome.solutions,
                vec![solution.clone()],
                "{}",
                &answer[..20]
            );
        }
        assert_eq!(
            parse_answer(&format!("solved {words} nodes=12"), &puzzle, &a)
                .unwrap()
                .nodes,
            Some(12)
        );
        // One number short: the count is named.
        let short = words.rsplit_once(' ').unwrap().0;
        let err = parse_answer(&format!("solved {short} nodes=1"), &puzzle, &a).unwrap_err();
        assert!(err.0.contains("2401 cells, this one 2400"), "{err}");
    }
}
