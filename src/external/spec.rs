//! An outside contender as the user described it ([`ContenderSpec`]): read
//! from `--contender NAME=COMMAND`, `--library` or a contenders file, and
//! checked before anything is started.

use super::library;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

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
    pub(super) fn with_default_sizes(mut self) -> ContenderSpec {
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

/// Most bytes of puzzle lines in one batch (a pipe holds 64 KiB): a batch
/// of large grids is cut short rather than fill it.
pub(super) const MAX_BATCH_BYTES: usize = 48 * 1024;

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
pub(super) fn batch_too_large(k: usize) -> String {
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
