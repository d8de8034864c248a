//! Shared libraries as contenders: the solve function of a C (or any) library,
//! called in a helper process of the workbench's own (`sudoku-bench
//! library-host`), one per worker. The host loads the library, answers the
//! line protocol on its pipes, and times each call with its own monotonic
//! clock: the time it reports (`ns=`) is the call's alone, with no pipe or
//! wake-up in it. A library that crashes or hangs takes its host down, not the
//! run, and a library that keeps its search in globals is never entered by two
//! threads at once (each host is one process with one caller).
//!
//! The function shapes ([`Abi`]) are one table, `abis!`: each entry says
//! its word, what it is, the sides and pencilmarks its contenders get unless
//! they say, and how its function is found and called (a `Caller`). A new
//! shape is one entry and its caller. The host's side of the line protocol,
//! serving a [`Library`] on its pipes, is [`super::host`].

use crate::callgrind::{timed, CallCountError};
use crate::format::Alphabet;
use crate::grid::Grid;
use crate::solver::{Mode, Status};
use std::ffi::{c_char, c_int, c_void};
use std::path::Path;

/// The hidden subcommand that hosts a library.
pub const HOST_COMMAND: &str = "library-host";

/// Everything the workbench knows of one ABI: its entry in `abis!`.
#[derive(Clone, Copy, Debug)]
pub struct AbiEntry {
    /// Its word in contenders files, `--library` and the host's `--abi`.
    pub word: &'static str,
    /// What it is, as help text names it after the word.
    pub about: &'static str,
    /// The sides its contenders are sent unless they name their own (a
    /// library that says its own when it starts is then held to those).
    pub sides: &'static [usize],
    /// When its contenders are sent pencilmark puzzles.
    pub pencilmarks: Pencilmarks,
    /// Finds the function in a loaded library and says how to call it.
    open: Open,
}

/// When a library contender of an ABI is sent pencilmark puzzles (its
/// `pencilmark` unsaid or said).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pencilmarks {
    /// Never: the function reads 81 characters.
    Never,
    /// When the contender says `pencilmark = true`: the shape takes 729
    /// characters, but not every function of it reads them.
    Declared,
    /// When the library's own table says it takes them, unless the
    /// contender says `pencilmark = false`.
    Own,
}

/// The ABIs: one entry each, with every fact about it. The enum [`Abi`], its
/// words and its table come from here; a new ABI is one entry plus its
/// `Caller` and the `open` that makes one.
macro_rules! abis {
    ($(
        $(#[$doc:meta])*
        $id:ident => {
            word: $word:literal,
            about: $about:literal,
            sides: $sides:expr,
            pencilmarks: $pencilmarks:expr,
            open: $open:expr $(,)?
        }
    ),* $(,)?) => {
        /// A library's function shape (in files, its word: [`Abi::WORDS`]).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
        pub enum Abi {
            $($(#[$doc])* #[serde(rename = $word)] $id,)*
        }

        impl Abi {
            /// Every shape, in the table's order.
            pub const ALL: [Abi; [$($word),*].len()] = [$(Abi::$id),*];
            /// The names a contenders file takes.
            pub const WORDS: [&'static str; [$($word),*].len()] = [$($word),*];
        }

        /// Each shape's entry, in [`Abi::ALL`]'s order.
        static ABIS: [AbiEntry; [$($word),*].len()] = [$(AbiEntry {
            word: $word,
            about: $about,
            sides: $sides,
            pencilmarks: $pencilmarks,
            open: $open,
        }),*];
    };
}

abis! {
    /// tdoku's `SolverFn`: `size_t f(const char *input, size_t limit,
    /// uint32_t configuration, char *solution, size_t *num_guesses)`. 9×9, an
    /// 81-character puzzle (729 for pencilmarks), `.` for blanks.
    Tdoku => {
        word: "tdoku",
        about: "tdoku's SolverFn",
        sides: &[9],
        pencilmarks: Pencilmarks::Declared,
        open: Tdoku::open,
    },
    /// JSolve's (and JCZSolve's): `int f(const char *puzzle81, char *solution82, int limit)`.
    Jsolve => {
        word: "jsolve",
        about: "JSolve's",
        sides: &[9],
        pencilmarks: Pencilmarks::Never,
        open: Jsolve::open,
    },
    /// The workbench's own: a function returning an `sb_solver` table
    /// (`include/sudoku_bench.h`): any size, pencilmarks, every mode, counters.
    SudokuBench => {
        word: "sudoku-bench",
        about: "include/sudoku_bench.h",
        sides: crate::solver::ALL_SIZES,
        pencilmarks: Pencilmarks::Own,
        open: SudokuBench::open,
    },
}

impl Abi {
    /// The name as written.
    pub fn name(self) -> &'static str {
        Abi::WORDS[self as usize]
    }

    /// Its entry of the table.
    pub fn entry(self) -> &'static AbiEntry {
        &ABIS[self as usize]
    }

    /// The words as help text lists them: `tdoku, jsolve or sudoku-bench`.
    pub fn listed() -> String {
        either(ABIS.iter().map(|e| e.word.to_string()))
    }

    /// Each word with what it is, as help text lists them: `` `tdoku`
    /// (tdoku's SolverFn), `jsolve` (JSolve's) or ... ``.
    pub fn described() -> String {
        either(ABIS.iter().map(|e| format!("`{}` ({})", e.word, e.about)))
    }
}

/// `a, b or c`.
fn either(items: impl Iterator<Item = String>) -> String {
    let mut items: Vec<String> = items.collect();
    match items.pop() {
        Some(last) if !items.is_empty() => format!("{} or {last}", items.join(", ")),
        Some(last) => last,
        None => String::new(),
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

/// What was counted of a timed call, or why it could not be.
type Counted = Result<crate::perf::Counts, CallCountError>;

/// An ABI's calls into the function it found (its entry's `open` makes one).
trait Caller {
    /// One timed call answering `mode`'s question for `grid`, and what was
    /// counted of it.
    fn solve(&mut self, grid: &Grid, mode: Mode) -> (Called, Counted);

    /// The first solution, by an untimed call, of a puzzle a timed call
    /// found solutions of and handed none back (none where the timed call
    /// always hands its solution back).
    fn first_solution(&mut self, _grid: &Grid) -> Option<Vec<u8>> {
        None
    }
}

/// How an ABI's function is found in a loaded library.
///
/// # Safety
///
/// The symbol is taken to have the ABI's type, as the user declared.
type Open = unsafe fn(&Symbol<'_>) -> Result<Opened, LibraryError>;

/// What an ABI's `open` found: the caller, and the sides and pencilmarks the
/// library says it takes, where its ABI lets it say (else the entry's).
struct Opened {
    caller: Box<dyn Caller>,
    says: Option<(Vec<usize>, bool)>,
}

/// The function a contender names, in its loaded library.
struct Symbol<'a> {
    lib: &'a libloading::Library,
    /// The library's file, as errors name it.
    path: &'a str,
    name: &'a str,
}

impl Symbol<'_> {
    /// The function, as a value of type `F`.
    ///
    /// # Safety
    ///
    /// `F` is the symbol's type.
    unsafe fn get<F: Copy>(&self) -> Result<F, LibraryError> {
        // SAFETY: the caller vouches for the type.
        let found = unsafe { self.lib.get::<F>(self.name.as_bytes()) };
        found.map(|f| *f).map_err(|e| LibraryError::Symbol {
            path: self.path.to_string(),
            symbol: self.name.to_string(),
            why: e.to_string(),
        })
    }

    /// The function does not follow its ABI.
    fn bad(&self, why: String) -> LibraryError {
        LibraryError::Abi {
            path: self.path.to_string(),
            symbol: self.name.to_string(),
            why,
        }
    }
}

type TdokuFn = unsafe extern "C" fn(*const c_char, usize, u32, *mut c_char, *mut usize) -> usize;

/// tdoku's `SolverFn`.
struct Tdoku(TdokuFn);

impl Tdoku {
    /// # Safety
    ///
    /// The symbol is a `SolverFn`.
    unsafe fn open(symbol: &Symbol<'_>) -> Result<Opened, LibraryError> {
        Ok(Opened {
            // SAFETY: as the caller vouches.
            caller: Box::new(Tdoku(unsafe { symbol.get()? })),
            says: None,
        })
    }
}

impl Caller for Tdoku {
    fn solve(&mut self, grid: &Grid, mode: Mode) -> (Called, Counted) {
        let (f, limit) = (self.0, mode.max_solutions());
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
        let found = digits(&solution, 81);
        let called = verdict(mode, t.out as u64, found, t.ns, None, Some(guesses as u64));
        (called, t.counts())
    }

    fn first_solution(&mut self, grid: &Grid) -> Option<Vec<u8>> {
        let input = nul_terminated(grid);
        let mut solution = [0 as c_char; 82];
        let mut guesses = 0usize;
        // SAFETY: as in `solve`; untimed, for the solution only.
        unsafe { (self.0)(input.as_ptr(), 1, 0, solution.as_mut_ptr(), &mut guesses) };
        digits(&solution, 81)
    }
}

type JsolveFn = unsafe extern "C" fn(*const c_char, *mut c_char, c_int) -> c_int;

/// JSolve's function.
struct Jsolve(JsolveFn);

impl Jsolve {
    /// # Safety
    ///
    /// The symbol is JSolve's shape.
    unsafe fn open(symbol: &Symbol<'_>) -> Result<Opened, LibraryError> {
        Ok(Opened {
            // SAFETY: as the caller vouches.
            caller: Box::new(Jsolve(unsafe { symbol.get()? })),
            says: None,
        })
    }
}

impl Caller for Jsolve {
    fn solve(&mut self, grid: &Grid, mode: Mode) -> (Called, Counted) {
        let (f, limit) = (self.0, mode.max_solutions());
        let input = nul_terminated(grid);
        let mut solution = [0 as c_char; 82];
        // SAFETY: as for tdoku; JSolve writes 81 cells and a NUL.
        let t = timed(|| unsafe { f(input.as_ptr(), solution.as_mut_ptr(), limit as c_int) });
        let found = digits(&solution, 81);
        let called = verdict(mode, t.out.max(0) as u64, found, t.ns, None, None);
        (called, t.counts())
    }

    fn first_solution(&mut self, grid: &Grid) -> Option<Vec<u8>> {
        let input = nul_terminated(grid);
        let mut solution = [0 as c_char; 82];
        // SAFETY: as in `solve`; untimed, for the solution only.
        unsafe { (self.0)(input.as_ptr(), solution.as_mut_ptr(), 1) };
        digits(&solution, 81)
    }
}

/// The workbench's own: the `sb_solver` table and the state it made.
struct SudokuBench {
    solver: &'static SbSolver,
    state: *mut c_void,
}

impl SudokuBench {
    /// # Safety
    ///
    /// The symbol is a function returning an `sb_solver` table.
    unsafe fn open(symbol: &Symbol<'_>) -> Result<Opened, LibraryError> {
        // SAFETY: as the caller vouches.
        let get = unsafe { symbol.get::<unsafe extern "C" fn() -> *const SbSolver>()? };
        // SAFETY: the function returns its table, or NULL.
        let solver =
            unsafe { get().as_ref() }.ok_or_else(|| symbol.bad("it returned NULL".into()))?;
        if solver.abi_version != SB_ABI_VERSION {
            return Err(symbol.bad(format!(
                "abi_version {}, this workbench speaks {SB_ABI_VERSION}",
                solver.abi_version
            )));
        }
        if solver.solve.is_none() {
            return Err(symbol.bad("its solve is NULL".into()));
        }
        let named: Vec<usize> = solver
            .sides
            .iter()
            .take_while(|&&s| s != 0)
            .map(|&s| s as usize)
            .collect();
        if let Some(s) = named.iter().find(|s| !crate::solver::ALL_SIZES.contains(s)) {
            return Err(symbol.bad(format!(
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
            return Err(symbol.bad("its sides name none".into()));
        }
        let state = match solver.create {
            // SAFETY: the table's own constructor, called once.
            Some(create) => unsafe { create() },
            None => std::ptr::null_mut(),
        };
        Ok(Opened {
            caller: Box::new(SudokuBench { solver, state }),
            says: Some((sides, solver.pencilmarks == 1)),
        })
    }
}

impl Caller for SudokuBench {
    fn solve(&mut self, grid: &Grid, mode: Mode) -> (Called, Counted) {
        let (solver, state) = (self.solver, self.state);
        let side = grid.geometry().side();
        let mut out = vec![0u8; grid.cells().len()];
        let puzzle = SbPuzzle {
            side: side as u32,
            mode: match mode {
                Mode::First => 0,
                Mode::Unique => 1,
                Mode::Count(_) => 2,
            },
            count_limit: mode.max_solutions(),
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
        let t = timed(|| unsafe { solve(state, &puzzle, &mut answer) });
        let (code, ns) = (t.out, t.ns);
        let known = |x: u64| (x != SB_UNKNOWN).then_some(x);
        let (nodes, guesses) = (known(answer.nodes), known(answer.guesses));
        let called = match code {
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
        };
        (called, t.counts())
    }
}

impl Drop for SudokuBench {
    fn drop(&mut self) {
        if let Some(destroy) = self.solver.destroy {
            // SAFETY: the state `create` made, destroyed once.
            unsafe { destroy(self.state) };
        }
    }
}

/// A loaded library and its solve function (in the host process).
pub struct Library {
    caller: Box<dyn Caller>,
    /// The sides it handles.
    pub sides: Vec<usize>,
    /// True when it takes pencilmark puzzles.
    pub pencilmarks: bool,
    /// False for a contender that returns no solutions: none is fetched.
    fetch: bool,
    // Last: the library stays loaded while `caller` points into it.
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
        let found = Symbol {
            lib: &lib,
            path: &shown,
            name: symbol,
        };
        let entry = abi.entry();
        // SAFETY: the symbol is taken to have the ABI's type, as the user declared.
        let opened = unsafe { (entry.open)(&found) }?;
        let (sides, pencilmarks) = opened.says.unwrap_or_else(|| {
            let pencilmarks = entry.pencilmarks != Pencilmarks::Never;
            (entry.sides.to_vec(), pencilmarks)
        });
        Ok(Library {
            caller: opened.caller,
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
        let (mut called, counted) = self.caller.solve(grid, mode);
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
        c.solution = self.caller.first_solution(grid);
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
    }

    #[test]
    fn puzzles_are_written_as_tdoku_reads_them() {
        let p = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..";
        let g = crate::format::read_str("t", p, &Default::default())
            .unwrap()
            .puzzles
            .remove(0)
            .grid;
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
