//! The library host (`sudoku-bench library-host`): its command line and
//! its first line (ready, or why not) as the workbench starts it
//! ([`host_command`], [`host_ready`]), and its own side of the line
//! protocol ([`serve`]): a [`Library`] opened from its ABI's entry, then for
//! each puzzle line an answer line with the timed call's `ns=`. The ABI
//! table is [`super::library`].

use super::library::{Called, Library, LibraryError};
use super::process::{Process, ReadError};
use super::protocol;
use super::spec::ContenderSpec;
use crate::format::Alphabet;
use crate::grid::{Geometry, Grid};
use crate::solver::Mode;
use std::io::{self, BufRead, Read, Write};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

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
        super::library::HOST_COMMAND.to_string(),
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
    use crate::external::library::Abi;

    #[test]
    fn a_host_whose_library_failed_to_open_says_why() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("notes.txt");
        std::fs::write(&path, "not a library").unwrap();
        let mut out = Vec::new();
        serve(Library::open(&path, "f", Abi::Tdoku), &b""[..], &mut out).unwrap();
        assert!(String::from_utf8(out).unwrap().starts_with("error "));
    }

    #[test]
    fn puzzle_lines_read_in_the_harness_notation() {
        let p = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..";
        let g = read_puzzle(p, &mut Alphabets::default()).unwrap();
        assert_eq!(
            crate::format::write_line(&g, &Alphabet::default_for(g.geometry())),
            p
        );
    }
}
