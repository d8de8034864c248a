//! Shared libraries as contenders: the solve function of a C (or any) library,
//! called in a helper process of the workbench's own (`sudoku-bench
//! library-host`), one per worker. The host loads the library, answers the
//! line protocol on its pipes, and times each call with its own monotonic
//! clock: the time it reports (`ns=`) is the call's alone, with no pipe or
//! wake-up in it. A library that crashes or hangs takes its host down, not the
//! run, and a library that keeps its search in globals is never entered by two
//! threads at once (each host is one process with one caller).
//!
//! Three function shapes ([`Abi`]): tdoku's `SolverFn`, JSolve's, and the
//! workbench's own (`include/sudoku_bench.h`).

use crate::callgrind::timed;
use crate::format::Alphabet;
use crate::grid::{Geometry, Grid};
use crate::solver::{Mode, Status};
use std::ffi::{c_char, c_int, c_void};
use std::io::{self, BufRead, Read, Write};
use std::path::Path;

/// The hidden subcommand that hosts a library.
pub const HOST_COMMAND: &str = "library-host";

/// A library's function shape (in files, its name: [`Abi::WORDS`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Abi {
    /// tdoku's `SolverFn`: `size_t f(const char *input, size_t limit,
    /// uint32_t configuration, char *solution, size_t *num_guesses)`. 9×9, an
    /// 81-character puzzle (729 for pencilmarks), `.` for blanks.
    Tdoku,
    /// JSolve's (and JCZSolve's): `int f(const char *puzzle81, char *solution82, int limit)`.
    Jsolve,
    /// The workbench's own: a function returning an `sb_solver` table
    /// (`include/sudoku_bench.h`): any size, pencilmarks, every mode, counters.
    SudokuBench,
}

impl Abi {
    /// Every shape, in [`Abi::WORDS`]'s order.
    pub const ALL: [Abi; 3] = [Abi::Tdoku, Abi::Jsolve, Abi::SudokuBench];
    /// The names a contenders file takes.
    pub const WORDS: [&'static str; 3] = ["tdoku", "jsolve", "sudoku-bench"];

    /// The name as written.
    pub fn name(self) -> &'static str {
        Abi::WORDS[self as usize]
    }
}

crate::words_of!(Abi, "an ABI");

/// Why a library cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum LibraryError {
    /// The file does not load as a shared library here.
    #[error("{path}: not a shared library this machine can load ({why})")]
    Load {
        /// The file.
        path: String,
        /// The loader's words.
        why: String,
    },
    /// The symbol is not in it.
    #[error("{path}: no symbol {symbol} ({why})")]
    Symbol {
        /// The file.
        path: String,
        /// The symbol.
        symbol: String,
        /// The loader's words.
        why: String,
    },
    /// The symbol is there but does not follow the ABI.
    #[error("{path}: {symbol} is not a sudoku-bench ABI solver: {why}")]
    Abi {
        /// The file.
        path: String,
        /// The symbol.
        symbol: String,
        /// What is wrong.
        why: String,
    },
    /// The host cannot read the CPU's counters the run asks for.
    #[error(transparent)]
    Perf(#[from] crate::perf::PerfError),
}

type TdokuFn = unsafe extern "C" fn(*const c_char, usize, u32, *mut c_char, *mut usize) -> usize;
type JsolveFn = unsafe extern "C" fn(*const c_char, *mut c_char, c_int) -> c_int;

/// `sb_puzzle` of `include/sudoku_bench.h`: the types of that header, for a
/// library written in Rust (see `examples/libraries/example_library.rs`).
#[repr(C)]
pub struct SbPuzzle {
    /// 4, 9, 16, 25, 36, 49 or 64.
    pub side: u32,
    /// `SB_MODE_FIRST` (0), `SB_MODE_UNIQUE` (1) or `SB_MODE_COUNT` (2).
    pub mode: u32,
    /// With `SB_MODE_COUNT`: stop counting here.
    pub count_limit: u64,
    /// `side * side` cells, row by row: 0 a blank.
    pub cells: *const u8,
    /// Null, or per cell the digits the puzzle allows (bit `d - 1`).
    pub allowed: *const u64,
}

/// `sb_answer`.
#[repr(C)]
pub struct SbAnswer {
    /// Solutions found.
    pub solutions: u64,
    /// Where the first solution goes (`side * side` cells).
    pub solution: *mut u8,
    /// Search nodes, or [`SB_UNKNOWN`].
    pub nodes: u64,
    /// Guesses, or [`SB_UNKNOWN`].
    pub guesses: u64,
}

/// `sb_solver`: what the named symbol returns.
#[repr(C)]
pub struct SbSolver {
    /// [`SB_ABI_VERSION`].
    pub abi_version: u32,
    /// 1 when `solve` honours `allowed`.
    pub pencilmarks: u32,
    /// The sides handled, ended by 0 unless all eight are used.
    pub sides: [u8; 8],
    /// Makes per-worker state (may be absent).
    pub create: Option<unsafe extern "C" fn() -> *mut c_void>,
    /// Solves one puzzle: [`SB_OK`], [`SB_BUDGET`] or a negative error.
    pub solve: Option<unsafe extern "C" fn(*mut c_void, *const SbPuzzle, *mut SbAnswer) -> i32>,
    /// Frees the state (may be absent).
    pub destroy: Option<unsafe extern "C" fn(*mut c_void)>,
}

/// The ABI version this workbench speaks (`SUDOKU_BENCH_ABI_VERSION`).
pub const SB_ABI_VERSION: u32 = 1;
/// `SB_OK`: the answer is filled.
pub const SB_OK: i32 = 0;
/// `SB_BUDGET`: the solver gave up.
pub const SB_BUDGET: i32 = 1;
/// `SB_UNKNOWN`: a counter the solver does not keep.
pub const SB_UNKNOWN: u64 = u64::MAX;

enum Call {
    Tdoku(TdokuFn),
    Jsolve(JsolveFn),
    SudokuBench {
        solver: &'static SbSolver,
        state: *mut c_void,
    },
}

/// A loaded library and its solve function (in the host process).
pub struct Library {
    call: Call,
    /// The sides it handles.
    pub sides: Vec<usize>,
    /// True when it takes pencilmark puzzles.
    pub pencilmarks: bool,
    /// False for a contender that returns no solutions: none is fetched.
    fetch: bool,
    // Last: the library stays loaded while `call` points into it.
    _lib: libloading::Library,
}

/// What one puzzle came to, as the host writes it back.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Called {
    /// `unique`, `multiple`, `solved`, `none` or `budget`; an error with why.
    pub status: Result<Status, String>,
    /// The first solution, when one was found and handed back.
    pub solution: Option<Vec<u8>>,
    /// Solutions counted, for a `multiple` verdict (up to the mode's limit).
    pub count: Option<u64>,
    /// The timed call, ns.
    pub ns: u64,
    /// The library's counters, when it keeps them.
    pub nodes: Option<u64>,
    /// Likewise.
    pub guesses: Option<u64>,
    /// What was counted of the timed call, when the host counts (it runs
    /// under callgrind, see [`crate::callgrind`], or reads the CPU's
    /// counters, see [`crate::perf`]).
    pub counts: crate::perf::Counts,
}

impl Library {
    /// Loads `path` and finds `symbol` in it, of shape `abi`.
    pub fn open(path: &Path, symbol: &str, abi: Abi) -> Result<Library, LibraryError> {
        let shown = path.display().to_string();
        // SAFETY: loading runs the library's initialisers; that is what the
        // user asked for, and it happens in the host process only.
        let lib = unsafe { libloading::Library::new(path) }.map_err(|e| LibraryError::Load {
            path: shown.clone(),
            why: e.to_string(),
        })?;
        let missing = |e: libloading::Error| LibraryError::Symbol {
            path: shown.clone(),
            symbol: symbol.to_string(),
            why: e.to_string(),
        };
        // SAFETY: the symbol is taken to have the ABI's type, as the user declared.
        let (call, sides, pencilmarks) = unsafe {
            match abi {
                Abi::Tdoku => {
                    let f = *lib.get::<TdokuFn>(symbol.as_bytes()).map_err(missing)?;
                    (Call::Tdoku(f), vec![9], true)
                }
                Abi::Jsolve => {
                    let f = *lib.get::<JsolveFn>(symbol.as_bytes()).map_err(missing)?;
                    (Call::Jsolve(f), vec![9], false)
                }
                Abi::SudokuBench => {
                    let get = *lib
                        .get::<unsafe extern "C" fn() -> *const SbSolver>(symbol.as_bytes())
                        .map_err(missing)?;
                    let bad = |why: String| LibraryError::Abi {
                        path: shown.clone(),
                        symbol: symbol.to_string(),
                        why,
                    };
                    let solver = get()
                        .as_ref()
                        .ok_or_else(|| bad("it returned NULL".into()))?;
                    if solver.abi_version != SB_ABI_VERSION {
                        return Err(bad(format!(
                            "abi_version {}, this workbench speaks {SB_ABI_VERSION}",
                            solver.abi_version
                        )));
                    }
                    if solver.solve.is_none() {
                        return Err(bad("its solve is NULL".into()));
                    }
                    let named: Vec<usize> = solver
                        .sides
                        .iter()
                        .take_while(|&&s| s != 0)
                        .map(|&s| s as usize)
                        .collect();
                    if let Some(s) = named.iter().find(|s| !crate::solver::ALL_SIZES.contains(s)) {
                        return Err(bad(format!(
                            "its sides name {s}, not one of {}",
                            crate::grid::SIDES_TEXT
                        )));
                    }
                    let sides: Vec<usize> = crate::solver::ALL_SIZES
                        .iter()
                        .copied()
                        .filter(|s| named.contains(s))
                        .collect();
                    if sides.is_empty() {
                        return Err(bad("its sides name none".into()));
                    }
                    let state = match solver.create {
                        Some(create) => create(),
                        None => std::ptr::null_mut(),
                    };
                    (
                        Call::SudokuBench { solver, state },
                        sides,
                        solver.pencilmarks == 1,
                    )
                }
            }
        };
        Ok(Library {
            call,
            sides,
            pencilmarks,
            fetch: true,
            _lib: lib,
        })
    }

    /// Solves `grid` for `mode`, timing the call that answers the mode's
    /// question (tdoku's and JSolve's shapes count to 2 for `unique`). A
    /// solution found but not handed back (tdoku writes one only when asked
    /// for the first; the buffer is cleared before each call) is left for
    /// [`Library::fetch_solution`].
    pub fn solve(&mut self, grid: &Grid, mode: Mode) -> Called {
        let limit = mode.max_solutions();
        let counted;
        let mut called = match &self.call {
            Call::Tdoku(f) => {
                let input = nul_terminated(grid);
                let mut solution = [0 as c_char; 82];
                let mut guesses = 0usize;
                // SAFETY: the input is NUL-terminated and the buffer holds 81 cells and a NUL.
                let t = timed(|| unsafe {
                    f(
                        input.as_ptr(),
                        limit as usize,
                        0,
                        solution.as_mut_ptr(),
                        &mut guesses,
                    )
                });
                counted = t.counts();
                let (count, ns) = (t.out, t.ns);
                let found = digits(&solution, 81);
                verdict(mode, count as u64, found, ns, None, Some(guesses as u64))
            }
            Call::Jsolve(f) => {
                let input = nul_terminated(grid);
                let mut solution = [0 as c_char; 82];
                // SAFETY: as for tdoku; JSolve writes 81 cells and a NUL.
                let t =
                    timed(|| unsafe { f(input.as_ptr(), solution.as_mut_ptr(), limit as c_int) });
                counted = t.counts();
                let (count, ns) = (t.out, t.ns);
                let found = digits(&solution, 81);
                verdict(mode, count.max(0) as u64, found, ns, None, None)
            }
            Call::SudokuBench { solver, state } => {
                let side = grid.geometry().side();
                let mut out = vec![0u8; grid.cells().len()];
                let puzzle = SbPuzzle {
                    side: side as u32,
                    mode: match mode {
                        Mode::First => 0,
                        Mode::Unique => 1,
                        Mode::Count(_) => 2,
                    },
                    count_limit: limit,
                    cells: grid.cells().as_ptr(),
                    allowed: grid.marks().map_or(std::ptr::null(), |m| m.as_ptr()),
                };
                let mut answer = SbAnswer {
                    solutions: 0,
                    solution: out.as_mut_ptr(),
                    nodes: SB_UNKNOWN,
                    guesses: SB_UNKNOWN,
                };
                let solve = solver.solve.expect("checked at load");
                // SAFETY: the table was checked at load; the buffers outlive the call.
                let t = timed(|| unsafe { solve(*state, &puzzle, &mut answer) });
                counted = t.counts();
                let (code, ns) = (t.out, t.ns);
                let known = |x: u64| (x != SB_UNKNOWN).then_some(x);
                let (nodes, guesses) = (known(answer.nodes), known(answer.guesses));
                match code {
                    SB_OK => {
                        let found = (answer.solutions > 0).then_some(out);
                        verdict(mode, answer.solutions, found, ns, nodes, guesses)
                    }
                    SB_BUDGET => Called {
                        status: Ok(Status::Budget),
                        solution: None,
                        count: None,
                        ns,
                        nodes,
                        guesses,
                        counts: Default::default(),
                    },
                    other => Called {
                        status: Err(format!("solve returned {other}")),
                        solution: None,
                        count: None,
                        ns,
                        nodes,
                        guesses,
                        counts: Default::default(),
                    },
                }
            }
        };
        match counted {
            Ok(n) => called.counts = n,
            Err(why) => called.status = Err(why.to_string()),
        }
        called
    }
}

impl Library {
    /// Whether a solution a call did not hand back is fetched (a contender
    /// that says `solutions = false` has none to fetch: the extra call would
    /// only stand between its timed calls).
    pub fn fetching_solutions(mut self, fetch: bool) -> Library {
        self.fetch = fetch;
        self
    }

    /// Fills in the solution of a call that found one and handed none back,
    /// by an untimed call asking for the first (tdoku's and JSolve's shapes).
    pub fn fetch_solution(&mut self, grid: &Grid, c: &mut Called) {
        let found = matches!(
            c.status,
            Ok(Status::Unique | Status::Solved | Status::Multiple)
        );
        if !self.fetch || !found || c.solution.is_some() {
            return;
        }
        let input = nul_terminated(grid);
        let mut solution = [0 as c_char; 82];
        match &self.call {
            Call::Tdoku(f) => {
                let mut guesses = 0usize;
                // SAFETY: as in `solve`; untimed, for the solution only.
                unsafe { f(input.as_ptr(), 1, 0, solution.as_mut_ptr(), &mut guesses) };
            }
            Call::Jsolve(f) => {
                // SAFETY: as in `solve`; untimed, for the solution only.
                unsafe { f(input.as_ptr(), solution.as_mut_ptr(), 1) };
            }
            Call::SudokuBench { .. } => return,
        }
        c.solution = digits(&solution, 81);
    }
}

impl Drop for Library {
    fn drop(&mut self) {
        if let Call::SudokuBench { solver, state } = &self.call {
            if let Some(destroy) = solver.destroy {
                // SAFETY: the state `create` made, destroyed once.
                unsafe { destroy(*state) };
            }
        }
    }
}

/// A 9×9 puzzle as tdoku and JSolve read it: 81 characters (729 for a
/// pencilmark puzzle, each cell's candidates in digit order), `.` a blank, NUL.
fn nul_terminated(grid: &Grid) -> Vec<c_char> {
    let mut text = Vec::with_capacity(730);
    if grid.is_pencilmark() {
        let alphabet = Alphabet::default_for(grid.geometry());
        crate::format::encode_pencilmarks(grid, &alphabet, &mut text);
    } else {
        text.extend(
            grid.cells()
                .iter()
                .map(|&c| if c == 0 { b'.' } else { b'0' + c }),
        );
    }
    text.push(0);
    text.into_iter().map(|b| b as c_char).collect()
}

/// The first `n` characters of a solution buffer as digits, if they all are.
fn digits(buf: &[c_char], n: usize) -> Option<Vec<u8>> {
    buf[..n]
        .iter()
        .map(|&c| {
            let b = c as u8;
            (b'1'..=b'9').contains(&b).then(|| b - b'0')
        })
        .collect()
}

fn verdict(
    mode: Mode,
    count: u64,
    solution: Option<Vec<u8>>,
    ns: u64,
    nodes: Option<u64>,
    guesses: Option<u64>,
) -> Called {
    let status = match (mode, count) {
        (_, 0) => Status::None,
        (Mode::First, _) => Status::Solved,
        (_, 1) => Status::Unique,
        _ => Status::Multiple,
    };
    Called {
        status: Ok(status),
        solution: if count == 0 { None } else { solution },
        count: (status == Status::Multiple).then_some(count),
        ns,
        nodes,
        guesses,
        counts: Default::default(),
    }
}

/// The mode the host was started for (the protocol's environment): `unique`
/// when the variable is unset; text that is no mode is an error.
pub fn mode_from_env() -> Result<Mode, crate::words::UnknownWord> {
    match std::env::var(super::protocol::MODE_VAR) {
        Err(_) => Ok(Mode::Unique),
        Ok(text) => {
            text.parse()
                .map_err(|e: crate::words::UnknownWord| crate::words::UnknownWord {
                    what: "a mode (SUDOKU_BENCH_MODE)",
                    ..e
                })
        }
    }
}

/// The host's side: a first line saying the library is ready (`ready
/// sides=9 pencilmark=1`) or why not (`error ...`, then exit); then for each
/// puzzle line an answer line with the timed call's `ns=`. The puzzle lines
/// that have arrived (a batch) are read first; then each is called, its
/// solution fetched (untimed) and its answer written and flushed before the
/// next call, so that a crash or a hang costs its own puzzle only.
pub fn serve(
    opened: Result<Library, LibraryError>,
    input: impl Read,
    output: impl Write,
) -> io::Result<()> {
    let mut out = io::BufWriter::new(output);
    let (mut lib, mode) = match (opened, mode_from_env()) {
        (Ok(lib), Ok(mode)) => (lib, mode),
        (Err(e), _) => {
            writeln!(out, "error {e}")?;
            return out.flush();
        }
        (_, Err(e)) => {
            writeln!(out, "error {e}")?;
            return out.flush();
        }
    };
    let sides: Vec<String> = lib.sides.iter().map(|s| s.to_string()).collect();
    writeln!(
        out,
        "ready sides={} pencilmark={}",
        sides.join(","),
        u8::from(lib.pencilmarks)
    )?;
    out.flush()?;
    let mut input = io::BufReader::with_capacity(64 * 1024, input);
    let mut line = String::new();
    let mut batch: Vec<Result<Grid, &'static str>> = Vec::new();
    let mut answer = Vec::with_capacity(256);
    let mut alphabets = Alphabets::default();
    loop {
        // Every whole line that has arrived, waiting for the first.
        batch.clear();
        loop {
            line.clear();
            if input.read_line(&mut line)? == 0 {
                break;
            }
            batch.push(match read_puzzle(line.trim_end(), &mut alphabets) {
                Ok(g) if lib.sides.contains(&g.geometry().side()) => Ok(g),
                Ok(_) => Err("error-size"),
                Err(_) => Err("error-puzzle"),
            });
            if !input.buffer().contains(&b'\n') {
                break;
            }
        }
        if batch.is_empty() {
            return out.flush();
        }
        for g in &batch {
            answer.clear();
            match g {
                Ok(grid) => {
                    let mut c = lib.solve(grid, mode);
                    lib.fetch_solution(grid, &mut c);
                    write_called(&mut answer, &c, alphabets.of(grid.geometry()));
                }
                Err(why) => answer.extend_from_slice(why.as_bytes()),
            }
            answer.push(b'\n');
            // Out before the next call: a crash or a hang there costs its
            // own puzzle only, and the parent's deadline runs per answer.
            out.write_all(&answer)?;
            out.flush()?;
        }
    }
}

/// An answer line: `STATUS [SOLUTION] ns=N [nodes=N] [guesses=N]
/// [instructions=N] [cycles=N] [branch-misses=N] [task-clock=N]`. A failed
/// call writes a status the protocol does not know, so the row says why.
fn write_called(out: &mut Vec<u8>, c: &Called, alphabet: &Alphabet) {
    match &c.status {
        Ok(s) => out.extend_from_slice(s.word().as_bytes()),
        Err(why) => {
            out.extend_from_slice(b"error:");
            out.extend(why.bytes().filter(|b| !b.is_ascii_whitespace()));
        }
    }
    if let Some(cells) = &c.solution {
        out.push(b' ');
        alphabet.encode_into(cells, out);
    }
    let mut key = |k: &str, v: Option<u64>| {
        if let Some(v) = v {
            out.push(b' ');
            out.extend_from_slice(k.as_bytes());
            out.extend_from_slice(itoa::Buffer::new().format(v).as_bytes());
        }
    };
    key("count=", c.count);
    key("ns=", Some(c.ns));
    key("nodes=", c.nodes);
    key("guesses=", c.guesses);
    key("instructions=", c.counts.instructions);
    key("cycles=", c.counts.cycles);
    key("branch-misses=", c.counts.branch_misses);
    key("task-clock=", c.counts.task_clock_ns);
}

/// Each size's default alphabet, made once.
#[derive(Default)]
struct Alphabets(Vec<(Geometry, Alphabet)>);

impl Alphabets {
    fn of(&mut self, g: Geometry) -> &Alphabet {
        let at = match self.0.iter().position(|(h, _)| *h == g) {
            Some(i) => i,
            None => {
                self.0.push((g, Alphabet::default_for(g)));
                self.0.len() - 1
            }
        };
        &self.0[at].1
    }
}

/// A puzzle line as the harness writes it (see [`super::protocol::puzzle_line`]).
fn read_puzzle(text: &str, alphabets: &mut Alphabets) -> Result<Grid, String> {
    if let Some(g) = Geometry::from_cells(text.len()).filter(|g| g.side() <= 36) {
        let mut cells = Vec::with_capacity(text.len());
        if alphabets
            .of(g)
            .decode_ascii(text.as_bytes(), &mut cells)
            .is_ok()
        {
            return Grid::from_vec(g, cells).ok_or_else(|| "not a grid".to_string());
        }
    }
    let opts = crate::format::ReadOptions::default();
    let d = crate::format::read_str("<stdin>", text, &opts).map_err(|e| e.to_string())?;
    d.puzzles
        .into_iter()
        .next()
        .map(|p| p.grid)
        .ok_or_else(|| "no puzzle".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn abi_names_read_back() {
        for abi in Abi::ALL {
            assert_eq!(abi.name().parse::<Abi>(), Ok(abi));
            // A contenders file spells it the same way.
            assert_eq!(serde_json::to_string(&abi).unwrap(), format!("\"{abi}\""));
        }
        let e = "tdoku2".parse::<Abi>().unwrap_err().to_string();
        assert!(e.contains("expected tdoku, jsolve, sudoku-bench"), "{e}");
    }

    #[test]
    fn a_file_that_is_no_library_is_named() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("notes.txt");
        std::fs::write(&path, "not a library").unwrap();
        let e = Library::open(&path, "f", Abi::Tdoku)
            .err()
            .unwrap()
            .to_string();
        assert!(
            e.starts_with(&format!("{}: not a shared library", path.display())),
            "{e}"
        );
        let mut out = Vec::new();
        serve(Library::open(&path, "f", Abi::Tdoku), &b""[..], &mut out).unwrap();
        assert!(String::from_utf8(out).unwrap().starts_with("error "));
    }

    #[test]
    fn puzzles_are_written_as_tdoku_reads_them() {
        let p = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..";
        let g = read_puzzle(p, &mut Alphabets::default()).unwrap();
        let text: String = nul_terminated(&g)
            .iter()
            .take_while(|&&c| c != 0)
            .map(|&c| c as u8 as char)
            .collect();
        assert_eq!(text, p);
        let mut marks = vec![0x1ffu64; 81];
        marks[1] = 0b10;
        let pm = g.clone().with_marks(marks).unwrap();
        let text = nul_terminated(&pm);
        assert_eq!(text.len(), 730);
        assert_eq!(
            text[9..18].iter().map(|&c| c as u8).collect::<Vec<_>>(),
            b".2......."
        );
    }
}
