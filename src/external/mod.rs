//! Outside programs and shared libraries as contenders, over the line
//! protocol (docs/contenders.md).
//!
//! A [`Program`] keeps one process per worker thread for the whole run. In
//! protocol version 1 it writes one puzzle at a time and times each answer from
//! just before the puzzle's line is written to the moment the answer is read;
//! in version 2 (`batch = K`) it writes up to K puzzles before reading their
//! answers and shares out each batch's wall time. A library contender is a
//! program too: the workbench's own host ([`library`]), which times each call
//! itself and says so in `ns=`, the rows' time.

pub mod floor;
pub mod library;
pub mod process;
pub mod protocol;
pub mod stderr;

use crate::contender::{Contender, Engine, Job, Origin, Solved, Timing};
use crate::format::Alphabet;
use crate::solver::{Mode, Status};
use process::{Process, ReadError};
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// An outside contender as the user described it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ContenderSpec {
    /// Its name in tables and charts.
    pub name: String,
    /// The program and its arguments (run without a shell); empty for a library.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub command: Vec<String>,
    /// Grid sides it handles (a program: 4, 9, 16, 25 unless named, up to 64;
    /// a library: its ABI's, [`library::AbiEntry::sides`]).
    #[serde(default)]
    pub sizes: Vec<usize>,
    /// One line on what it is.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub description: String,
    /// It reads pencilmark lines (`n³` characters); datasets with pencilmark
    /// puzzles are skipped for it otherwise. Unsaid: no for a program; for a
    /// library, as its ABI's [`library::AbiEntry::pencilmarks`] says.
    #[serde(
        default,
        alias = "pencilmarks",
        skip_serializing_if = "Option::is_none"
    )]
    pub pencilmark: Option<bool>,
    /// It returns the solutions it finds (the default). `false`: it returns a
    /// verdict (and a count) alone, and its rows are checked by verdict
    /// against the reference verdicts.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub solutions: Option<bool>,
    /// A shared library to call instead of a command (with `symbol` and `abi`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub library: Option<PathBuf>,
    /// The library's solve function (`abi = "sudoku-bench"`: the function returning its table).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub symbol: Option<String>,
    /// The function's shape, a word of [`library::Abi::WORDS`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub abi: Option<library::Abi>,
    /// Protocol version 2: up to this many puzzles written before their
    /// answers are read ([`MAX_BATCH`] at most).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub batch: Option<usize>,
    /// Crashes over the run after which it is given up everywhere (`--max-crashes`);
    /// unsaid, only a size where it answers nothing is given up
    /// ([`UNANSWERED_BOUND`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_crashes: Option<u32>,
}

impl ContenderSpec {
    /// A contender running `command`, sizes left to their default.
    pub fn program(name: &str, command: Vec<String>) -> ContenderSpec {
        ContenderSpec {
            name: name.to_string(),
            command,
            sizes: Vec::new(),
            description: String::new(),
            pencilmark: None,
            solutions: None,
            library: None,
            symbol: None,
            abi: None,
            batch: None,
            max_crashes: None,
        }
    }

    /// The flag that names it with `sides` only: `--contender 'mine@9=python3
    /// mine.py'`, or `--library mine@9=PATH:SYMBOL:ABI`.
    pub fn sized_flag(&self, sides: &[usize]) -> String {
        let at: Vec<String> = sides.iter().map(usize::to_string).collect();
        let name = format!("{}@{}", self.name, at.join(","));
        match (&self.library, self.abi) {
            (Some(lib), Some(abi)) => format!(
                "--library {name}={}:{}:{}",
                lib.display(),
                self.symbol.as_deref().unwrap_or_default(),
                abi.name()
            ),
            _ => {
                let words = self.command.iter().map(String::as_str);
                let command = shlex::try_join(words).unwrap_or_else(|_| self.command.join(" "));
                let arg = format!("{name}={command}");
                let quoted =
                    shlex::try_quote(&arg).map_or_else(|_| format!("'{arg}'"), |q| q.into_owned());
                format!("--contender {quoted}")
            }
        }
    }

    /// A contenders file's `sizes` line for `sides`: `sizes = [9, 16]`.
    pub fn sizes_line(sides: &[usize]) -> String {
        let list: Vec<String> = sides.iter().map(usize::to_string).collect();
        format!("sizes = [{}]", list.join(", "))
    }

    /// The contender in a line: `NAME: command words`, or its library, symbol
    /// and ABI.
    pub fn describe(&self) -> String {
        match (&self.library, self.abi) {
            (Some(lib), abi) => format!(
                "{}: library {} {} ({})",
                self.name,
                lib.display(),
                self.symbol.as_deref().unwrap_or_default(),
                abi.map_or("", library::Abi::name)
            ),
            (None, _) if self.command.is_empty() => format!("{}: {}", self.name, self.description),
            (None, _) => format!("{}: {}", self.name, self.command.join(" ")),
        }
    }

    /// How its answers are checked: by their solutions unless it says it returns none.
    pub fn checked(&self) -> crate::contender::Checked {
        match self.solutions {
            Some(false) => crate::contender::Checked::Verdict,
            _ => crate::contender::Checked::Solution,
        }
    }

    /// True when it is sent pencilmark puzzles, given what a library's host
    /// said it can take (`host_says`): as declared, else as its ABI's
    /// [`library::Pencilmarks`] say.
    pub fn takes_pencilmarks(&self, host_says: Option<bool>) -> bool {
        match (host_says, self.abi.map(|a| a.entry().pencilmarks)) {
            (None, _) => self.pencilmark.unwrap_or(false),
            (Some(can), Some(library::Pencilmarks::Own)) => can && self.pencilmark != Some(false),
            (Some(can), _) => can && self.pencilmark == Some(true),
        }
    }

    /// Fills the sizes left out: a program's default, a library's ABI's (a
    /// library that says its own when it starts is held to those).
    fn with_default_sizes(mut self) -> ContenderSpec {
        if self.sizes.is_empty() {
            self.sizes = match (&self.library, self.abi) {
                (None, _) => DEFAULT_SIZES.to_vec(),
                // Without `abi`, a library is refused before its sizes are read.
                (Some(_), abi) => abi.map_or_else(Vec::new, |a| a.entry().sides.to_vec()),
            };
        }
        self
    }
}

/// Puzzles a library's host is sent at a time: enough that the exchange is a
/// small share of each puzzle's wall time, few enough that a crash sends
/// little again.
pub const LIBRARY_BATCH: usize = 64;

/// Most puzzles a batch program (`batch = K`) may ask for at a time. A
/// batch's lines are cut at 48 KiB anyway (about 2,900 4×4 puzzles, 600
/// 9×9), so no batch larger than this could ever be sent.
pub const MAX_BATCH: usize = 4096;

/// The sides an outside program is sent unless it names its own: the classic
/// ones, which every one-character line holds (36 and up are asked for by name).
pub const DEFAULT_SIZES: &[usize] = &[4, 9, 16, 25];

/// Why a contender cannot take part.
#[derive(Debug, thiserror::Error)]
pub enum ContenderError {
    /// `--contender` or `--library` does not read: the option, its text, what is wrong.
    #[error("{0} {1:?}: {2}")]
    BadArgument(&'static str, String, String),
    /// The contenders file could not be read.
    #[error("cannot read {}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The OS error.
        #[source]
        source: std::io::Error,
    },
    /// The contenders file is not valid.
    #[error("{}:{line}:{column}: {message}", path.display())]
    File {
        /// The file.
        path: PathBuf,
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// What was expected.
        message: String,
    },
    /// A library contender's library cannot be used.
    #[error("contender {name}: {message}")]
    Library {
        /// The contender.
        name: String,
        /// What its host said: the file, the symbol, and what is wrong.
        message: String,
    },
    /// Two contenders have one name.
    #[error("two contenders are named {0:?}: names must differ")]
    SameName(String),
    /// The program could not be started.
    #[error("contender {name}: cannot start {command:?}")]
    CannotStart {
        /// The contender.
        name: String,
        /// The program.
        command: String,
        /// The OS error.
        #[source]
        source: std::io::Error,
    },
}

/// Checks a contender's name and sizes; `Err` says what is wrong.
fn validate(spec: &ContenderSpec) -> Result<(), String> {
    let ok = |c: char| c.is_ascii_alphanumeric() || "-_.+".contains(c);
    if spec.name.is_empty() || !spec.name.chars().all(ok) || spec.name.starts_with('.') {
        return Err(format!(
            "the name {:?} should be letters, digits, and - _ . + (it names a log file)",
            spec.name
        ));
    }
    if crate::solver::SolverId::from_name(&spec.name).is_some() {
        return Err(format!(
            "{:?} is the name of a built-in strategy",
            spec.name
        ));
    }
    match (&spec.library, spec.command.is_empty()) {
        (Some(_), false) => {
            return Err("give `library` or `command`, not both".into());
        }
        (Some(_), true) => {
            if spec.symbol.as_deref().is_none_or(str::is_empty) {
                return Err("a library needs `symbol`, the name of its solve function".into());
            }
            if spec.abi.is_none() {
                return Err(format!(
                    "a library needs `abi`, its function's shape: {}",
                    library::Abi::WORDS.join(", ")
                ));
            }
            if spec.batch.is_some() {
                return Err(
                    "`batch` is for programs: a library is called a puzzle at a time".into(),
                );
            }
        }
        (None, _) => {
            if spec.command.is_empty() {
                return Err("give `command` (the program and its arguments) or `library`".into());
            }
            if spec.command[0].is_empty() {
                return Err("the command is empty".into());
            }
            if spec.symbol.is_some() || spec.abi.is_some() {
                return Err("`symbol` and `abi` go with `library`".into());
            }
        }
    }
    if spec.max_crashes == Some(0) {
        return Err("max_crashes is 0: give 1 or more crashes".into());
    }
    match spec.batch {
        Some(0) => return Err("batch is 0: give 1 or more puzzles".into()),
        Some(k) if k > MAX_BATCH => return Err(batch_too_large(k)),
        _ => {}
    }
    if let Some(s) = spec
        .sizes
        .iter()
        .find(|s| !crate::solver::ALL_SIZES.contains(s))
    {
        return Err(format!(
            "size {s} is not one of {}",
            crate::grid::SIDES_TEXT
        ));
    }
    if spec.sizes.is_empty() {
        return Err("sizes is empty".into());
    }
    Ok(())
}

/// Why a batch of `k` puzzles is refused.
fn batch_too_large(k: usize) -> String {
    format!(
        "batch is {k}: give at most {MAX_BATCH} puzzles (a batch's lines are cut at {} KiB anyway)",
        MAX_BATCH_BYTES / 1024
    )
}

/// The outside contenders asked for: each `--contender NAME=COMMAND`, each
/// `--library NAME=PATH:SYMBOL:ABI`, then the contenders file's; names must differ.
pub fn specs(
    programs: &[String],
    libraries: &[String],
    file: Option<&Path>,
) -> Result<Vec<ContenderSpec>, ContenderError> {
    let mut specs = Vec::new();
    for a in programs {
        specs.push(parse_argument(a)?);
    }
    for a in libraries {
        specs.push(parse_library_argument(a)?);
    }
    if let Some(f) = file {
        specs.extend(load_file(f)?);
    }
    for (i, s) in specs.iter().enumerate() {
        if specs[..i].iter().any(|t| t.name == s.name) {
            return Err(ContenderError::SameName(s.name.clone()));
        }
    }
    Ok(specs)
}

/// Splits `NAME[@SIDES]` into the name and the sides declared (empty: none
/// declared), like `mine@9,16`.
fn name_and_sides(text: &str) -> Result<(&str, Vec<usize>), String> {
    let Some((name, sides)) = text.split_once('@') else {
        return Ok((text.trim(), Vec::new()));
    };
    let sides = sides
        .split(',')
        .map(|w| {
            let w = w.trim();
            let side = w
                .split_once('x')
                .map_or(w, |(a, b)| if a == b { a } else { w });
            side.parse::<usize>().map_err(|_| {
                format!(
                    "{w:?} after @ is not a grid side: expected sides like @9 or @9,16 (one of {})",
                    crate::grid::SIDES_TEXT
                )
            })
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok((name.trim(), sides))
}

/// Reads `NAME[@SIDES]=COMMAND`: the command is split into words as a shell would
/// (quotes and backslashes), then run without one; `@9,16` declares its sides.
pub fn parse_argument(arg: &str) -> Result<ContenderSpec, ContenderError> {
    let bad = |why: String| ContenderError::BadArgument("--contender", arg.to_string(), why);
    let (name, command) = arg.split_once('=').ok_or_else(|| {
        bad("expected NAME=COMMAND, like jcz=./jcz --quiet (or jcz@9=... for 9x9 only)".into())
    })?;
    let (name, sizes) = name_and_sides(name).map_err(bad)?;
    let words = shlex::split(command)
        .ok_or_else(|| bad("the command has an unclosed quote or a trailing backslash".into()))?;
    if words.is_empty() {
        return Err(bad("the command is empty".into()));
    }
    let spec = ContenderSpec {
        sizes,
        ..ContenderSpec::program(name, words)
    }
    .with_default_sizes();
    validate(&spec).map_err(bad)?;
    Ok(spec)
}

/// Reads `--library NAME[@SIDES]=PATH:SYMBOL:ABI` (ABI one of [`library::Abi::WORDS`]).
pub fn parse_library_argument(arg: &str) -> Result<ContenderSpec, ContenderError> {
    let bad = |why: String| ContenderError::BadArgument("--library", arg.to_string(), why);
    let usage = "expected NAME=PATH:SYMBOL:ABI, like tdoku=./libtdoku_shared.so:TdokuSolverDpllTriadSimd:tdoku";
    let (name, rest) = arg.split_once('=').ok_or_else(|| bad(usage.into()))?;
    let (name, sizes) = name_and_sides(name).map_err(bad)?;
    let mut parts = rest.rsplitn(3, ':');
    let (Some(abi), Some(symbol), Some(path)) = (parts.next(), parts.next(), parts.next()) else {
        return Err(bad(usage.into()));
    };
    let abi = abi
        .parse()
        .map_err(|e: crate::words::UnknownWord| bad(e.to_string()))?;
    let spec = ContenderSpec {
        library: Some(PathBuf::from(path)),
        symbol: Some(symbol.to_string()),
        abi: Some(abi),
        sizes,
        ..ContenderSpec::program(name, Vec::new())
    }
    .with_default_sizes();
    validate(&spec).map_err(bad)?;
    Ok(spec)
}

/// Reads a contenders file: `[[contender]]` tables with `name`, and `command`
/// (a list of words) or `library`, `symbol` and `abi`; optional `sizes`,
/// `description`, `pencilmark`, `solutions`, `batch`, `max_crashes`. A library's path is taken from the
/// file's folder.
pub fn load_file(path: &Path) -> Result<Vec<ContenderSpec>, ContenderError> {
    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    struct File {
        #[serde(default)]
        contender: Vec<ContenderSpec>,
    }
    let text = std::fs::read_to_string(path).map_err(|source| ContenderError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    let at = |offset: usize, message: String| {
        let before = &text[..offset.min(text.len())];
        ContenderError::File {
            path: path.to_path_buf(),
            line: before.matches('\n').count() + 1,
            column: before.chars().rev().take_while(|&c| c != '\n').count() + 1,
            message,
        }
    };
    let file: File = toml::from_str(&text).map_err(|e| {
        let offset = e.span().map_or(0, |s| s.start);
        at(offset, e.message().to_string())
    })?;
    if file.contender.is_empty() {
        return Err(at(
            0,
            "no contenders: expected [[contender]] tables with name and command".into(),
        ));
    }
    let base = path.parent().unwrap_or(Path::new("."));
    let mut specs = Vec::new();
    for mut spec in file.contender {
        validate(&spec.clone().with_default_sizes()).map_err(|why| {
            let offset = text.find(&format!("\"{}\"", spec.name)).unwrap_or(0);
            let offset = key_line(&text, offset, &why).unwrap_or(offset);
            at(offset, format!("contender {}: {why}", spec.name))
        })?;
        if let Some(lib) = &spec.library {
            spec.library = Some(base.join(lib));
        }
        specs.push(spec.with_default_sizes());
    }
    Ok(specs)
}

/// Where, in the `[[contender]]` table around byte `near` of a contenders
/// file, the key that `why` begins with (`batch`, `max_crashes`) is set.
fn key_line(text: &str, near: usize, why: &str) -> Option<usize> {
    const TABLE: &str = "[[contender]]";
    let key = ["batch", "max_crashes"]
        .into_iter()
        .find(|k| why.starts_with(&format!("{k} ")))?;
    let near = near.min(text.len());
    let start = text.get(..near)?.rfind(TABLE).unwrap_or(0);
    let end = text[near..].find(TABLE).map_or(text.len(), |i| near + i);
    let mut at = start;
    for line in text[start..end].split_inclusive('\n') {
        let rest = line.trim_start().strip_prefix(key);
        if rest.is_some_and(|r| r.trim_start().starts_with('=')) {
            return Some(at + (line.len() - line.trim_start().len()));
        }
        at += line.len();
    }
    None
}

/// Worker threads for a run with outside programs when none are asked for:
/// half the cores, since each worker waits awake for its program's answer and
/// the two need a core each.
pub fn default_threads(cores: usize) -> usize {
    (cores / 2).max(1)
}

/// True when `threads` workers and their programs outnumber `cores`: an awake
/// worker would then take the core its program needs.
pub fn crowded(threads: usize, cores: usize) -> bool {
    2 * threads > cores
}

/// Crashes on one grid size, with no answer at all on that size, after which
/// a contender is given up on it: its puzzles left there are `error` rows.
///
/// Longest wait for a started program to settle before its first puzzle is
/// sent: past it, the rest of its start is timed with that puzzle.
pub const READY_CAP: Duration = Duration::from_secs(3);

/// Each crash costs a restart (a few milliseconds for a program or a
/// library's host), so a contender that answers nothing is given up after
/// well under a second. One that answers even a tenth of the puzzles, in any
/// order, crashes on all of its first 50 with a chance of 0.5%; one crash
/// pattern in the puzzles never gives up the rows it can answer.
pub const UNANSWERED_BOUND: u32 = 50;

/// What a contender has done on one grid size: crashes and answers.
#[derive(Clone, Copy, Debug, Default)]
struct Attempts {
    crashes: u32,
    answers: u32,
}

/// Where a contender was given up: on one side, or everywhere.
#[derive(Clone, Debug, Default)]
struct GivenUp {
    /// Sides given up on, each with why.
    sides: Vec<(usize, String)>,
    /// Given up everywhere (`max_crashes` reached), with why.
    all: Option<String>,
}

/// A contender program at run time: its idle processes (one per worker that
/// has used it), its stderr log, and how often it had to be restarted.
pub struct Program {
    /// What the user asked for.
    pub spec: ContenderSpec,
    /// What is run: the command, or for a library the workbench's host.
    command: Vec<String>,
    /// Puzzles written before their answers are read (1: protocol version 1).
    batch: usize,
    /// What its row times stand for.
    timing: Timing,
    /// A library's sides and pencilmarks, as its host said when it started.
    library: Mutex<Option<(Vec<usize>, bool)>>,
    log: Option<stderr::Log>,
    idle: Mutex<Vec<Process>>,
    /// Crashes and answers per grid side.
    attempts: Mutex<Vec<(usize, Attempts)>>,
    /// Crashes over the run, every side.
    crashes: AtomicU32,
    gave_up: Mutex<GivenUp>,
    /// True when the run's workers and programs outnumber the cores: readers sleep.
    crowded: AtomicBool,
    /// CPU time and peak memory of every process it started.
    usage: std::sync::Arc<crate::usage::Usage>,
    /// The memory limit each of its processes runs under (`--memory-limit`).
    memory: Option<std::sync::Arc<crate::usage::MemoryLimit>>,
}

impl std::fmt::Debug for Program {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Program").field("spec", &self.spec).finish()
    }
}

impl Program {
    /// A program whose processes write their stderr to `log_dir/NAME.stderr.log`
    /// (the folder is created; its first and last 64 KiB kept, see
    /// [`stderr::Log`]), or nowhere. A library contender runs the
    /// workbench's own binary as its host.
    pub fn new(spec: ContenderSpec, log_dir: Option<&Path>) -> std::io::Result<Program> {
        let (command, batch, timing) = match (&spec.library, spec.abi) {
            (Some(_), Some(_)) => (host_command(&spec)?, LIBRARY_BATCH, Timing::Call),
            _ => match spec.batch {
                // Checked where it is read; a run.json edited by hand is not.
                Some(k) if k > MAX_BATCH => {
                    return Err(std::io::Error::new(
                        std::io::ErrorKind::InvalidInput,
                        format!("contender {}: {}", spec.name, batch_too_large(k)),
                    ))
                }
                Some(k) if k > 1 => (spec.command.clone(), k, Timing::Batch),
                _ => (spec.command.clone(), 1, Timing::Pipe),
            },
        };
        let log = match log_dir {
            Some(dir) => {
                crate::files::folder(dir)?;
                let path = dir.join(format!("{}.stderr.log", spec.name));
                Some(stderr::Log::create(&path)?)
            }
            None => None,
        };
        Ok(Program {
            spec,
            command,
            batch,
            timing,
            library: Mutex::new(None),
            log,
            idle: Mutex::new(Vec::new()),
            usage: Default::default(),
            attempts: Mutex::new(Vec::new()),
            crashes: AtomicU32::new(0),
            gave_up: Mutex::new(GivenUp::default()),
            crowded: AtomicBool::new(false),
            memory: None,
        })
    }

    /// The program, each of its processes under `limit` (a fresh process
    /// takes the place of one the limit stopped).
    pub fn with_memory_limit(
        mut self,
        limit: Option<std::sync::Arc<crate::usage::MemoryLimit>>,
    ) -> Program {
        self.memory = limit;
        self
    }

    /// The stderr log, if any.
    pub fn log(&self) -> Option<&Path> {
        self.log.as_ref().map(stderr::Log::path)
    }

    fn spawn(&self, mode: Mode) -> Result<Process, ContenderError> {
        let version = if self.batch > 1 && self.spec.library.is_none() {
            protocol::BATCH_VERSION
        } else {
            protocol::PROTOCOL_VERSION
        };
        let cannot = |source| ContenderError::CannotStart {
            name: self.spec.name.clone(),
            command: self.command.join(" "),
            source,
        };
        let cage = self.memory.as_ref().map(|m| m.cage()).transpose();
        let mut p = Process::spawn_version(
            &self.command,
            mode,
            self.spec.pencilmark == Some(true) || self.spec.library.is_some(),
            self.log.as_ref(),
            version,
            cage.map_err(cannot)?,
        )
        .map_err(|source| ContenderError::CannotStart {
            name: self.spec.name.clone(),
            command: self.command.join(" "),
            source,
        })?;
        if self.spec.library.is_some() {
            let (ready, host_says) = host_ready(p).map_err(|message| ContenderError::Library {
                name: self.spec.name.clone(),
                message,
            })?;
            p = ready;
            *crate::sync::lock(&self.library) = Some(host_says);
        }
        if self.crowded.load(Ordering::Relaxed) {
            p.sleep_when_idle();
        }
        p.count_into(self.usage.clone());
        Ok(p)
    }

    /// Starts `n` processes ahead of a run, so a command that cannot start is
    /// an error before anything is measured. With more than half the cores as
    /// workers, their reads sleep instead of staying awake for the answer (an
    /// awake reader would take the core its program needs).
    pub fn start(&self, n: usize, mode: Mode) -> Result<(), ContenderError> {
        let cores = crate::usage::cores();
        self.crowded.store(crowded(n, cores), Ordering::Relaxed);
        let mut started = Vec::new();
        for _ in 0..n.max(1) {
            started.push(self.spawn(mode)?);
        }
        // They start side by side; each is waited for once.
        for p in &mut started {
            self.settle(p);
        }
        crate::sync::lock(&self.idle).extend(started);
        Ok(())
    }

    /// Closes every idle process's stdin and waits a moment for it to exit
    /// (then kills it): the end of a run.
    pub fn shutdown(&self) {
        let idle = std::mem::take(&mut *crate::sync::lock(&self.idle));
        for p in idle {
            p.close(Duration::from_millis(500));
        }
    }

    fn take(&self, mode: Mode, side: usize, pin: bool) -> Result<Process, String> {
        {
            let gave_up = crate::sync::lock(&self.gave_up);
            if let Some(why) = &gave_up.all {
                return Err(format!("not run: {why}"));
            }
            if let Some((_, why)) = gave_up.sides.iter().find(|(s, _)| *s == side) {
                return Err(format!("not run: {why}"));
            }
        }
        let found = {
            let mut idle = crate::sync::lock(&self.idle);
            let at = idle.iter().position(|p| p.mode == mode);
            at.map(|i| idle.swap_remove(i))
        };
        let mut p = match found {
            Some(p) => p,
            None => {
                let mut p = self.spawn(mode).map_err(|e| e.to_string())?;
                self.settle(&mut p);
                p
            }
        };
        // A worker pinned to one processor (--pin) shares it with its program:
        // every thread of it, and those it starts. Its reads then sleep.
        if let Some(cpu) = pin.then(crate::usage::pinned_cpu).flatten() {
            crate::usage::pin_process(p.id(), cpu);
            p.sleep_when_idle();
        }
        Ok(p)
    }

    /// Waits for a program that was just started to be ready for its first
    /// puzzle ([`Process::wait_ready`], [`READY_CAP`] at most), so that its
    /// start is not timed as that puzzle: after a crash, the puzzle a fresh
    /// process gets would otherwise carry an interpreter's start-up. A
    /// library host has said it is ready already.
    fn settle(&self, p: &mut Process) {
        if self.spec.library.is_none() {
            p.wait_ready(READY_CAP);
        }
    }

    fn put_back(&self, p: Process) {
        if p.drained() {
            crate::sync::lock(&self.idle).push(p);
        }
    }

    /// Forgets the crashes so far (those of the warm-up, which has no rows).
    pub fn forgive(&self) {
        self.crashes.store(0, Ordering::Relaxed);
        crate::sync::lock(&self.attempts).clear();
        *crate::sync::lock(&self.gave_up) = GivenUp::default();
    }

    /// This side's attempts, changed by `f`; returns them after.
    fn attempt(&self, side: usize, f: impl FnOnce(&mut Attempts)) -> Attempts {
        let mut all = crate::sync::lock(&self.attempts);
        let at = match all.iter().position(|(s, _)| *s == side) {
            Some(i) => i,
            None => {
                all.push((side, Attempts::default()));
                all.len() - 1
            }
        };
        f(&mut all[at].1);
        all[at].1
    }

    /// Counts a crash on a puzzle of `side`. Gives the contender up on that
    /// side after [`UNANSWERED_BOUND`] crashes there with no answer at all,
    /// and everywhere at its `max_crashes` over the run.
    fn crashed(&self, why: &str, side: usize) {
        let total = self.crashes.fetch_add(1, Ordering::Relaxed) + 1;
        let here = self.attempt(side, |a| a.crashes += 1);
        let mut gave_up = crate::sync::lock(&self.gave_up);
        let name = &self.spec.name;
        if let Some(max) = self.spec.max_crashes.filter(|&m| total >= m) {
            gave_up.all.get_or_insert(format!(
                "`{name}` was given up after {total} crashes, its max_crashes ({max}; last: {why}): its puzzles left are `error` rows reading \"not run\""
            ));
        } else if here.answers == 0
            && here.crashes >= UNANSWERED_BOUND
            && !gave_up.sides.iter().any(|(s, _)| *s == side)
        {
            gave_up.sides.push((
                side,
                format!(
                    "`{name}` was given up on {side}x{side} puzzles: its first {} calls there all crashed, with no answer (last: {why}); its {side}x{side} puzzles left are `error` rows reading \"not run\"",
                    here.crashes
                ),
            ));
        }
    }

    /// An answer came for a puzzle of `side`.
    fn answered(&self, side: usize) {
        self.attempt(side, |a| a.answers += 1);
    }

    /// Why the contender was given up, where it was.
    pub fn given_up(&self) -> Vec<String> {
        let gave_up = crate::sync::lock(&self.gave_up);
        gave_up
            .sides
            .iter()
            .map(|(_, why)| why.clone())
            .chain(gave_up.all.clone())
            .collect()
    }

    /// This program as a contender of a run (after [`Program::start`], which
    /// learns a library's sizes and pencilmarks from its host).
    pub fn contender(self: Arc<Self>) -> Contender {
        let host_says = crate::sync::lock(&self.library).clone();
        let (sizes, pencilmark) = match host_says {
            Some((sides, pm)) => (
                self.spec
                    .sizes
                    .iter()
                    .copied()
                    .filter(|s| sides.contains(s))
                    .collect(),
                self.spec.takes_pencilmarks(Some(pm)),
            ),
            None => (self.spec.sizes.clone(), self.spec.takes_pencilmarks(None)),
        };
        Contender {
            strategy: if self.spec.library.is_some() {
                "library"
            } else {
                "external"
            }
            .to_string(),
            variant: self.spec.name.clone(),
            default_budget: None,
            sizes,
            pencilmark,
            checked: self.spec.checked(),
            origin: Origin::External,
            timing: self.timing,
            // Whatever the program reports (nothing, when it says nothing).
            counts: true,
            engine: self,
        }
    }
}

/// The host command of a library contender: this binary, `library-host`.
pub fn host_command(spec: &ContenderSpec) -> std::io::Result<Vec<String>> {
    let (Some(lib), Some(abi)) = (&spec.library, spec.abi) else {
        return Err(std::io::Error::other("not a library contender"));
    };
    let exe = std::env::current_exe()?;
    let lib = std::path::absolute(lib)?;
    // Counting: the host runs under callgrind too, and counts its calls.
    let counted = crate::callgrind::host_under_valgrind();
    let mut words = counted.as_ref().map(|c| c.0.clone()).unwrap_or_default();
    words.extend([
        exe.display().to_string(),
        library::HOST_COMMAND.to_string(),
        "--library".to_string(),
        lib.display().to_string(),
        "--symbol".to_string(),
        spec.symbol.clone().unwrap_or_default(),
        "--abi".to_string(),
        abi.name().to_string(),
    ]);
    if let Some((_, out)) = counted {
        words.extend(["--callgrind-out".to_string(), out]);
    }
    let perf = crate::perf::events();
    if !perf.is_empty() {
        words.extend(["--perf".to_string(), perf.to_string()]);
    }
    if spec.checked() == crate::contender::Checked::Verdict {
        words.push("--verdicts-only".to_string());
    }
    Ok(words)
}

/// How long a library's host may take to load it and say it is ready.
const HOST_READY: Duration = Duration::from_secs(20);

/// Reads a library host's first line: `ready sides=9,16 pencilmark=0` gives
/// the sides and pencilmarks; `error ...` (or an early end) says why not.
pub(crate) fn host_ready(mut p: Process) -> Result<(Process, (Vec<usize>, bool)), String> {
    let never = AtomicBool::new(false);
    let line = match p.read_line(Some(Instant::now() + HOST_READY), &never) {
        Ok(line) => line.to_string(),
        Err(ReadError::Timeout) => {
            let why = p.kill();
            return Err(format!("its library did not load within 20 s ({why})"));
        }
        Err(_) => {
            return Err(format!(
                "its host ended while loading the library ({}): is `abi` the function's shape?",
                p.ended()
            ))
        }
    };
    if let Some(why) = line.strip_prefix("error ") {
        return Err(why.to_string());
    }
    let mut sides = Vec::new();
    let mut pencilmark = false;
    for t in line.split_whitespace().skip(1) {
        match t.split_once('=') {
            Some(("sides", v)) => sides = v.split(',').filter_map(|x| x.parse().ok()).collect(),
            Some(("pencilmark", v)) => pencilmark = v == "1",
            _ => {}
        }
    }
    if !line.starts_with("ready") || sides.is_empty() {
        return Err(format!("its host said {}", protocol::quote(&line)));
    }
    Ok((p, (sides, pencilmark)))
}

/// Most bytes of puzzle lines in one batch (a pipe holds 64 KiB): a batch
/// of large grids is cut short rather than fill it.
const MAX_BATCH_BYTES: usize = 48 * 1024;

impl Program {
    /// True when pencilmark puzzles may be sent to it.
    fn takes_pencilmarks(&self) -> bool {
        let host_says = crate::sync::lock(&self.library).as_ref().map(|(_, pm)| *pm);
        self.spec.takes_pencilmarks(host_says)
    }
}

/// Why no answer came for a puzzle: its row, and for a crash (not a hang) what ended the process.
struct Failure {
    row: Solved,
    crash: Option<String>,
}

impl Program {
    /// The row of an answer line read `ns` after the one before it.
    fn answer(
        &self,
        line: &str,
        puzzle: &crate::grid::Grid,
        alphabet: &Alphabet,
        ns: u64,
        now: Instant,
    ) -> Solved {
        match protocol::parse_answer(line, puzzle, alphabet) {
            Ok(a) if self.timing == Timing::Call => match a.ns {
                Some(_) if a.counts.instructions.is_none() && crate::callgrind::counting() => {
                    Solved::failed("the host counted no instructions".into(), ns, now)
                }
                Some(_) if a.counts == Default::default() && !crate::perf::events().is_empty() => {
                    Solved::failed("the host read none of the CPU's counters".into(), ns, now)
                }
                Some(call) => Solved {
                    result: Ok(a.outcome),
                    ns: call,
                    nodes: a.nodes,
                    guesses: a.guesses,
                    own_ns: None,
                    counts: a.counts,
                    at: now,
                    note: None,
                    memory: false,
                },
                None => Solved::failed("the host gave no time".into(), ns, now),
            },
            Ok(a) => Solved {
                result: Ok(a.outcome),
                ns,
                nodes: a.nodes,
                guesses: a.guesses,
                own_ns: a.ns,
                counts: Default::default(),
                at: now,
                note: None,
                memory: false,
            },
            Err(why) => Solved::failed(why.0, ns, now),
        }
    }

    /// What a failed read means for the puzzle it waited on; `p` is ended.
    fn failure(
        &self,
        e: ReadError,
        p: Process,
        (limit, cpu_limit): (Option<Duration>, Option<Duration>),
        ns: u64,
        now: Instant,
    ) -> Failure {
        let crash = |why: String| Failure {
            row: Solved::failed(why.clone(), ns, now),
            crash: Some(why),
        };
        match e {
            ReadError::Timeout | ReadError::CpuLimit => {
                let (what, bound) = match e {
                    ReadError::Timeout => ("time limit", limit),
                    _ => ("CPU limit", cpu_limit),
                };
                let why = p.kill();
                let mut row = Solved::stopped(Status::Budget, ns, now);
                row.note = Some(format!(
                    "no answer within the {what} ({}); killed ({why})",
                    bound.map_or("none".into(), |t| format!("{t:?}"))
                ));
                Failure { row, crash: None }
            }
            ReadError::TooLong => crash(format!(
                "the answer line ran past {} KiB without a line end; killed ({})",
                protocol::MAX_ANSWER_BYTES / 1024,
                p.kill()
            )),
            ReadError::Io(e) => crash(format!("reading its answer failed: {e} ({})", p.kill())),
            ReadError::Closed | ReadError::Cancelled => {
                // Under callgrind, valgrind may have stopped the host.
                let valgrind = crate::callgrind::host_stopped(p.id())
                    .map(|why| format!(" ({why}: valgrind cannot run this code)"))
                    .unwrap_or_default();
                let (how, over) = p.ended_by();
                // Over the memory limit: a `memory` row, not a crash.
                if let Some(why) = over {
                    let mut row = Solved::failed(format!("{why}; {how}"), ns, now);
                    row.memory = true;
                    return Failure { row, crash: None };
                }
                crash(format!(
                    "the {} ended before answering: {}{valgrind}",
                    if self.spec.library.is_some() {
                        "library's host"
                    } else {
                        "program"
                    },
                    how
                ))
            }
        }
    }
}

/// Shares a batch's wall time out over its answered rows, held until it
/// was read (by the program's own `ns=` when every row has one, else
/// evenly), and hands them on to `done`.
fn share_batch(
    held: &mut Vec<(usize, Solved)>,
    wall: Duration,
    done: &mut dyn FnMut(usize, Solved),
) {
    let wall = wall.as_nanos() as f64;
    let n = held.len().max(1) as f64;
    let own: Option<Vec<u64>> = held.iter().map(|(_, s)| s.own_ns).collect();
    let total: u64 = own.iter().flatten().sum();
    for (i, (_, s)) in held.iter_mut().enumerate() {
        s.ns = match &own {
            Some(own) if total > 0 => (wall * own[i] as f64 / total as f64) as u64,
            _ => (wall / n) as u64,
        };
    }
    for (s, solved) in held.drain(..) {
        done(s, solved);
    }
}

/// An error row for a puzzle that was never sent.
fn unsent(msg: &str, at: Instant) -> Solved {
    Solved::failed(msg.to_string(), 0, at)
}

/// One worker's puzzles on their way through a [`Program`] in
/// [`Engine::work`]: the batch being sent, the puzzles waiting to be sent
/// again, the answers held until their batch is read, and the worker's process.
struct Feed<'w, 'j> {
    program: &'w Program,
    job: &'w Job<'j>,
    alphabet: Alphabet,
    side: usize,
    /// Whether the program takes pencilmark lines.
    pencilmarks: bool,
    /// Puzzles whose lines were not answered: they go to a restarted program.
    resend: VecDeque<usize>,
    /// Puzzles of a failed batch, none of them known to be at fault: each
    /// is sent alone, so that a failure there is its own.
    suspects: VecDeque<usize>,
    /// The batch's lines.
    out: Vec<u8>,
    /// The batch's puzzles (slots in the job), in the order sent.
    slots: Vec<usize>,
    /// A batch-timed program's answers, held until its batch is read.
    held: Vec<(usize, Solved)>,
    proc: Option<Process>,
}

impl Feed<'_, '_> {
    /// Makes the next batch: a suspect alone, else up to the program's
    /// batch of the puzzles to send again and then new ones, their lines
    /// written out. A pencilmark puzzle the program does not take gets its
    /// error row instead.
    fn fill(
        &mut self,
        next: &mut dyn FnMut() -> Option<usize>,
        done: &mut dyn FnMut(usize, Solved),
    ) {
        self.slots.clear();
        self.out.clear();
        let room = if self.suspects.is_empty() {
            self.program.batch
        } else {
            1
        };
        while self.slots.len() < room && self.out.len() < MAX_BATCH_BYTES {
            let Some(slot) = self
                .suspects
                .pop_front()
                .or_else(|| self.resend.pop_front())
                .or_else(&mut *next)
            else {
                break;
            };
            let grid = &self.job.puzzles[slot].grid;
            if grid.is_pencilmark() && !self.pencilmarks {
                // A dataset with pencilmarks is skipped for it; this is a safeguard.
                done(slot, unsent(protocol::NO_PENCILMARKS, Instant::now()));
                continue;
            }
            protocol::puzzle_line(&mut self.out, grid, &self.alphabet);
            self.slots.push(slot);
        }
    }

    /// No process could be started: the batch and every puzzle this worker
    /// would still get are error rows saying why.
    fn give_up(
        &mut self,
        msg: &str,
        next: &mut dyn FnMut() -> Option<usize>,
        done: &mut dyn FnMut(usize, Solved),
    ) {
        let now = Instant::now();
        for &slot in &self.slots {
            done(slot, unsent(msg, now));
        }
        for slot in self.suspects.drain(..).chain(self.resend.drain(..)) {
            done(slot, unsent(msg, now));
        }
        while let Some(slot) = next() {
            done(slot, unsent(msg, now));
        }
    }

    /// Sends the batch to the running process and reads its answers, each
    /// timed from the one before it (the first from just before the lines
    /// are written). Rows go to `done` as they are read, a batch-timed
    /// program's once its batch is; a failure is blamed ([`Feed::blame`]).
    /// A process gone before its lines are written is counted as crashed
    /// and dropped, and the batch waits for the next one. Breaks when the
    /// run is cancelled.
    fn exchange(&mut self, done: &mut dyn FnMut(usize, Solved)) -> ControlFlow<()> {
        let (program, job) = (self.program, self.job);
        let p = self.proc.as_mut().expect("running");
        let window = p.begin_call();
        let start = Instant::now();
        if p.send(&self.out).is_err() {
            // The program is gone (it ended after its last answer): a new one gets these.
            let why = self.proc.take().expect("running").ended();
            program.crashed(&why, self.side);
            for &slot in self.slots.iter().rev() {
                self.resend.push_front(slot);
            }
            return ControlFlow::Continue(());
        }
        let mut last = start;
        let mut answered = 0;
        let mut failure: Option<Failure> = None;
        for &slot in &self.slots {
            let p = self.proc.as_mut().expect("running");
            let deadline = job.time_limit.map(|t| last + t);
            // Each answer's CPU time is its own (a batch's first holds
            // the work done for the others before it).
            p.limit_cpu(job.cpu_limit);
            let read = p.read_line(deadline, job.cancel);
            let now = Instant::now();
            let ns = (now - last).as_nanos() as u64;
            match read {
                Ok(line) => {
                    let puzzle = &job.puzzles[slot].grid;
                    let solved = program.answer(line, puzzle, &self.alphabet, ns, now);
                    program.answered(self.side);
                    if program.timing == Timing::Batch {
                        self.held.push((slot, solved));
                    } else {
                        done(slot, solved);
                    }
                    last = now;
                    answered += 1;
                }
                Err(ReadError::Cancelled) => {
                    share_batch(&mut self.held, last - start, done);
                    done(slot, Solved::stopped(Status::Cancelled, 0, now));
                    return ControlFlow::Break(());
                }
                Err(e) => {
                    let p = self.proc.take().expect("running");
                    failure = Some(program.failure(e, p, (job.time_limit, job.cpu_limit), ns, now));
                    break;
                }
            }
        }
        if let Some(p) = &self.proc {
            p.end_call(window);
        }
        share_batch(&mut self.held, last - start, done);
        if let Some(f) = failure {
            self.blame(answered, f, done);
        }
        ControlFlow::Continue(())
    }

    /// After failure `f` with the batch's first `answered` lines answered:
    /// where answers come one at a time, the first unanswered puzzle is the
    /// one that failed (its row is the failure's) and the rest are sent
    /// again; a batch program may hold its answers, so none is blamed yet,
    /// and each unanswered puzzle is sent alone.
    fn blame(&mut self, answered: usize, f: Failure, done: &mut dyn FnMut(usize, Solved)) {
        let unanswered = &self.slots[answered..];
        let known =
            unanswered.len() == 1 || self.program.batch == 1 || self.program.spec.library.is_some();
        if known {
            if let Some(why) = &f.crash {
                self.program.crashed(why, self.side);
            }
            done(unanswered[0], f.row);
            for &slot in unanswered[1..].iter().rev() {
                self.resend.push_front(slot);
            }
        } else {
            self.suspects.extend(unanswered);
        }
    }
}

impl Engine for Program {
    /// Calls `done` for each puzzle as its answer arrives (a batch's rows once
    /// the batch is answered). With one puzzle in flight (protocol version 1)
    /// each is timed from just before its line is written to the moment its
    /// answer is read, so no row carries another puzzle's work or wait. A
    /// library's host times the call itself (the row's time is its `ns=`)
    /// and writes each answer as its call returns.
    ///
    /// A crash or a hang costs exactly its own puzzle's row: where answers
    /// come one at a time (a program of protocol version 1, a library's
    /// host), the first unanswered puzzle is the one that failed, and the
    /// rest go to a fresh process; a batch program may hold its answers, so
    /// every unanswered puzzle of a failed batch is sent again alone, to a
    /// fresh process, and timed there.
    fn work(
        &self,
        job: &Job<'_>,
        next: &mut dyn FnMut() -> Option<usize>,
        done: &mut dyn FnMut(usize, Solved),
    ) {
        let Some(first) = job.puzzles.first() else {
            return;
        };
        let mut feed = Feed {
            program: self,
            job,
            alphabet: Alphabet::default_for(first.grid.geometry()),
            side: first.grid.geometry().side(),
            pencilmarks: self.takes_pencilmarks(),
            resend: Default::default(),
            suspects: Default::default(),
            out: Vec::new(),
            slots: Vec::with_capacity(self.batch),
            held: Vec::new(),
            proc: None,
        };
        loop {
            feed.fill(next, done);
            if feed.slots.is_empty() {
                break;
            }
            if feed.proc.is_none() {
                match self.take(job.mode, feed.side, job.pin) {
                    Ok(p) => feed.proc = Some(p),
                    Err(msg) => return feed.give_up(&msg, next, done),
                }
            }
            if feed.exchange(done).is_break() {
                return; // cancelled: the process is killed as it drops
            }
        }
        if let Some(p) = feed.proc {
            self.put_back(p);
        }
    }

    fn warmed_up(&self) {
        self.forgive();
    }

    fn usage(&self) -> Option<crate::contender::Used> {
        // Between passes every process is idle: read each now.
        for p in crate::sync::lock(&self.idle).iter_mut() {
            p.count();
        }
        Some(crate::contender::Used {
            cpu: self.usage.cpu(),
            peak_bytes: self.usage.peak(),
            calls: self.usage.calls(),
        })
    }

    fn finish(&self) {
        self.shutdown();
    }

    fn given_up(&self) -> Vec<String> {
        Program::given_up(self)
    }
}

#[cfg(test)]
mod tests;
