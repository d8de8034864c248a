//! Helpers shared by the integration tests.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use sudoku_bench::format::{read_path, ReadOptions};
use sudoku_bench::Dataset;

/// The environment variable that points tests at `../shared/datasets`.
pub const SHARED_ENV: &str = "SUDOKU_BENCH_DATASETS";

/// The public datasets folder, or `None` after printing a visible notice.
pub fn shared_datasets(test: &str) -> Option<PathBuf> {
    match std::env::var_os(SHARED_ENV).map(PathBuf::from) {
        Some(p) if p.is_dir() => Some(p),
        other => {
            // Written to the stderr handle, not with eprintln!, so that the test
            // harness does not capture it: the skip shows in every run.
            use std::io::Write;
            let _ = writeln!(
                std::io::stderr(),
                "NOTICE: {test} SKIPPED its public-dataset part: {SHARED_ENV} is {} \
                 (set it to the shared datasets folder, as .ci/run does)",
                match other {
                    Some(p) => format!("{} (not a folder)", p.display()),
                    None => "unset".to_string(),
                }
            );
            None
        }
    }
}

/// The repository's `datasets/` folder.
pub fn repo_datasets() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("datasets")
}

/// Reads a file with default options, panicking with the error on failure.
pub fn load(path: &Path) -> Dataset {
    read_path(path, &ReadOptions::default()).unwrap_or_else(|e| panic!("{e}"))
}

/// A small HTTP server on 127.0.0.1 serving files by name (404 otherwise),
/// counting the requests; stopped when dropped.
pub struct Loopback {
    server: std::sync::Arc<tiny_http::Server>,
    thread: Option<std::thread::JoinHandle<()>>,
    hits: std::sync::Arc<std::sync::atomic::AtomicUsize>,
    /// `http://127.0.0.1:PORT`
    pub base: String,
}

impl Loopback {
    /// Serves each `(name, bytes)` at `/name`.
    pub fn serve(files: Vec<(String, Vec<u8>)>) -> Loopback {
        use std::sync::atomic::Ordering;
        let server = std::sync::Arc::new(tiny_http::Server::http("127.0.0.1:0").unwrap());
        let port = server.server_addr().to_ip().unwrap().port();
        let hits = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let (s, h) = (server.clone(), hits.clone());
        let thread = std::thread::spawn(move || {
            for request in s.incoming_requests() {
                h.fetch_add(1, Ordering::SeqCst);
                let name = request.url().trim_start_matches('/').to_string();
                let response = match files.iter().find(|(n, _)| *n == name) {
                    Some((_, bytes)) => tiny_http::Response::from_data(bytes.clone()),
                    None => {
                        tiny_http::Response::from_data(b"not here".to_vec()).with_status_code(404)
                    }
                };
                let _ = request.respond(response);
            }
        });
        Loopback {
            server,
            thread: Some(thread),
            hits,
            base: format!("http://127.0.0.1:{port}"),
        }
    }

    /// Requests served so far.
    pub fn hits(&self) -> usize {
        self.hits.load(std::sync::atomic::Ordering::SeqCst)
    }
}

impl Drop for Loopback {
    fn drop(&mut self) {
        self.server.unblock();
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// A loopback base URL where nothing listens (a port bound, then let go).
pub fn dead_base() -> String {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    drop(listener);
    format!("http://127.0.0.1:{port}")
}

/// A built example (a program, or `lib*.so` for a library) beside the test binary.
pub fn example(name: &str) -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    let dir = exe.parent().unwrap().parent().unwrap().join("examples");
    let path = dir.join(name);
    assert!(path.exists(), "{} is not built", path.display());
    path
}

/// Processes still running whose command line or environment mentions
/// `needle` (name something of the test's own, such as a temporary path, so
/// that tests running beside it are not counted).
pub fn running(needle: &str) -> usize {
    let mentions = |path: &Path| {
        std::fs::read(path)
            .map(|c| String::from_utf8_lossy(&c).contains(needle))
            .unwrap_or(false)
    };
    std::fs::read_dir("/proc")
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().parse::<u32>().is_ok())
        .filter(|e| {
            let hit = mentions(&e.path().join("cmdline")) || mentions(&e.path().join("environ"));
            if hit {
                let cmd = std::fs::read(e.path().join("cmdline")).unwrap_or_default();
                eprintln!(
                    "still running: {:?} {}",
                    e.path(),
                    String::from_utf8_lossy(&cmd)
                );
            }
            hit
        })
        .count()
}

/// Every row of a CSV file, read through serde.
pub fn csv_rows<T: serde::de::DeserializeOwned>(path: &Path) -> Vec<T> {
    csv::Reader::from_path(path)
        .unwrap()
        .deserialize()
        .collect::<Result<Vec<T>, _>>()
        .unwrap()
}

/// The workbench's binary, ready to be given arguments (`assert_cmd`).
pub fn bin() -> assert_cmd::Command {
    assert_cmd::Command::cargo_bin("sudoku-bench").unwrap()
}

/// [`bin`], run in `cwd`.
pub fn bin_in(cwd: &Path) -> assert_cmd::Command {
    let mut c = bin();
    c.current_dir(cwd);
    c
}

/// The puzzles of an embedded set, as the harness prepares them.
pub fn embedded_puzzles(set: &str) -> Vec<sudoku_bench::contender::BenchPuzzle> {
    sudoku_bench::harness::resolve(set, &Default::default(), &Default::default(), &mut |_| {})
        .unwrap()
        .remove(0)
        .puzzles
}

/// A 9×9 grid as one line of digits, `.` for a blank (as the harness sends it).
pub fn line9(g: &sudoku_bench::grid::Grid) -> String {
    g.cells()
        .iter()
        .map(|&c| if c == 0 { '.' } else { (b'0' + c) as char })
        .collect()
}

/// The first `n` puzzles of hard-9x9 as lines, each with its answer.
pub fn hard_lines(n: usize) -> Vec<(String, String)> {
    embedded_puzzles("hard-9x9")
        .iter()
        .take(n)
        .map(|p| (line9(&p.grid), line9(p.expected.as_ref().unwrap())))
        .collect()
}

/// True when valgrind runs here; else says the counting test is skipped
/// (`.ci/run` installs it).
pub fn valgrind() -> bool {
    let ok = std::process::Command::new("valgrind")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        eprintln!("valgrind is not installed: the instruction-counting test is skipped");
    }
    ok
}

/// Writes the fixture's table (`puzzle<TAB>answer`, puzzles as the harness
/// sends them) for embedded datasets, and returns its path.
pub fn table(dir: &Path, sets: &[&str]) -> PathBuf {
    let mut text = String::new();
    for name in sets {
        let ds = sudoku_bench::harness::resolve(
            name,
            &Default::default(),
            &sudoku_bench::harness::Selection::default(),
            &mut |_| {},
        )
        .unwrap()
        .remove(0);
        let alphabet = sudoku_bench::format::Alphabet::default_for(ds.geometry);
        for p in &ds.puzzles {
            let mut line = Vec::new();
            sudoku_bench::external::protocol::puzzle_line(&mut line, &p.grid, &alphabet);
            let answer = p.expected.as_ref().expect("embedded sets carry answers");
            let mut a = Vec::new();
            sudoku_bench::external::protocol::puzzle_line(&mut a, answer, &alphabet);
            text.push_str(&format!(
                "{}\t{}\n",
                String::from_utf8_lossy(&line).trim(),
                String::from_utf8_lossy(&a).trim()
            ));
        }
    }
    let path = dir.join("table.tsv");
    std::fs::write(&path, text).unwrap();
    path
}

/// `--contender fx=FIXTURE TABLE BEHAVIOUR`.
pub fn fixture(table: &Path, behaviour: &str) -> String {
    format!(
        "fx={} {} {behaviour}",
        example("fixture-contender").display(),
        table.display()
    )
}

/// Rewrites a run's results.csv as a bug would: puzzles 0 to `n - 1`
/// answered wrongly, their times kept.
pub fn break_puzzles(results: &Path, n: u64) {
    let mut r = csv::Reader::from_path(results).unwrap();
    let header = r.headers().unwrap().clone();
    let at = |name: &str| header.iter().position(|h| h == name).unwrap();
    let (index, status) = (at("puzzle_index"), at("status"));
    let rows: Vec<csv::StringRecord> = r.records().map(|x| x.unwrap()).collect();
    let mut w = csv::Writer::from_path(results).unwrap();
    w.write_record(&header).unwrap();
    for row in rows {
        let mut cells: Vec<String> = row.iter().map(str::to_string).collect();
        if cells[index].parse::<u64>().unwrap() < n {
            cells[status] = "wrong".into();
        }
        w.write_record(&cells).unwrap();
    }
    w.flush().unwrap();
}
