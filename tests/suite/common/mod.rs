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
