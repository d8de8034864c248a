//! The repository itself: CI's refusal of a tracked file over 2 MB, and the
//! layers of both crates (ARCHITECTURE.md), which no import may climb.

use std::path::Path;
use std::process::Command;

fn git(dir: &Path, args: &[&str]) {
    let ok = Command::new("git")
        .args(["-c", "user.name=t", "-c", "user.email=t@t"])
        .args(args)
        .current_dir(dir)
        .output()
        .expect("git runs")
        .status
        .success();
    assert!(ok, "git {args:?}");
}

/// Runs `.ci/tracked-sizes` on `repo`: its exit status and stderr.
fn check(repo: &Path) -> (bool, String) {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join(".ci/tracked-sizes");
    let out = Command::new("bash")
        .arg(script)
        .arg(repo)
        .output()
        .expect("bash runs");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn ci_refuses_a_tracked_file_over_2_mb() {
    let dir = tempfile::tempdir().unwrap();
    let repo = dir.path();
    git(repo, &["init", "-q"]);
    std::fs::write(repo.join("small.csv"), vec![b'x'; 2 * 1024 * 1024]).unwrap();
    // Untracked files are not the repository's.
    std::fs::write(repo.join("untracked.csv"), vec![b'x'; 3 * 1024 * 1024]).unwrap();
    git(repo, &["add", "small.csv"]);
    let (ok, err) = check(repo);
    assert!(ok, "2 MB exactly is allowed: {err}");
    std::fs::create_dir(repo.join("reports")).unwrap();
    std::fs::write(
        repo.join("reports/big results.csv"),
        vec![b'x'; 3 * 1024 * 1024],
    )
    .unwrap();
    git(repo, &["add", "reports"]);
    let (ok, err) = check(repo);
    assert!(!ok);
    assert!(err.contains("reports/big results.csv (3072 KiB)"), "{err}");
    assert!(!err.contains("untracked.csv"), "{err}");
}

/// The workbench's top-level modules, bottom layer first (ARCHITECTURE.md):
/// a module may import only from lower layers. The solvers' crate sits below
/// them all: its modules, re-exported under their names (`crate::grid`,
/// `crate::solver`, ...), may be imported from anywhere.
const LAYERS: &[&[&str]] = &[
    &[
        "stats", "words", "sync", "usage", "columns", "files", "spool",
    ],
    &["perf", "lock", "hygiene"],
    &["datasets", "callgrind"],
    &["rate", "batch", "valgrind"],
    &["contender"],
    &["external"],
    &["check"],
    &["harness"],
    &["export"],
    &["report"],
    &["compare", "study", "hunt"],
    &["history"],
    &["bench"],
];

/// The solvers' crate (`crates/solvers`), bottom layer first; it never names
/// the workbench.
const SOLVER_LAYERS: &[&[&str]] = &[
    &["grid", "seeded", "error", "words", "clock"],
    &["format", "validate", "transform"],
    &["solver"],
    &["rating"],
    &["generate"],
];

/// The solvers' modules the workbench re-exports (`src/lib.rs`).
const REEXPORTED: &[&str] = &[
    "error",
    "format",
    "generate",
    "grid",
    "seeded",
    "solver",
    "transform",
    "validate",
    "verdicts",
    "words_of",
];

fn layer(layers: &[&[&str]], module: &str) -> Option<usize> {
    layers.iter().position(|l| l.contains(&module))
}

/// A file's code: its unit tests and comment lines left out.
fn code(text: &str) -> String {
    let code = text.split("#[cfg(test)]\nmod tests").next().unwrap_or("");
    code.lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Every `crate::MODULE` a file's code names (comments and its unit tests left out).
fn imports(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for line in code(text).lines() {
        for (i, _) in line.match_indices("crate::") {
            let name: String = line[i + 7..]
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            out.push(name);
        }
    }
    out
}

fn rust_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
    out.sort();
}

/// A unit test's file: `tests.rs`, or anything in a `tests/` folder.
fn is_unit_test(rel: &Path) -> bool {
    rel.ends_with("tests.rs") || rel.components().any(|c| c.as_os_str() == "tests")
}

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The imports under `src` that climb `layers`: each as `FILE imports crate::MODULE`.
/// Files of the modules in `skip` are not checked; `seen` counts the others.
fn climbs(src: &Path, layers: &[&[&str]], skip: &[&str], seen: &mut usize) -> Vec<String> {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    let mut climbs = Vec::new();
    for file in &files {
        let rel = file.strip_prefix(src).unwrap();
        let top = rel
            .components()
            .next()
            .unwrap()
            .as_os_str()
            .to_string_lossy();
        let module = top.trim_end_matches(".rs").to_string();
        if skip.contains(&module.as_str()) || is_unit_test(rel) {
            continue; // unit tests may reach anywhere
        }
        let from = layer(layers, &module).unwrap_or_else(|| {
            panic!(
                "{}: a module missing from its LAYERS and ARCHITECTURE.md",
                file.display()
            )
        });
        *seen += 1;
        for to in imports(&std::fs::read_to_string(file).unwrap()) {
            if let Some(l) = layer(layers, &to) {
                if to != module && l >= from {
                    climbs.push(format!("{} imports crate::{to}", rel.display()));
                }
            }
        }
    }
    climbs
}

#[test]
fn no_import_climbs_a_layer() {
    let mut seen = 0;
    // The binary sits above every layer.
    let mut found = climbs(
        &root().join("src"),
        LAYERS,
        &["cli", "main", "lib"],
        &mut seen,
    );
    assert!(seen > 50, "the walk found the workbench's files ({seen})");
    for name in REEXPORTED {
        assert!(
            layer(LAYERS, name).is_none(),
            "{name} is the solvers' crate's"
        );
    }
    let mut seen = 0;
    let solvers = root().join("crates/solvers/src");
    found.extend(climbs(&solvers, SOLVER_LAYERS, &["lib"], &mut seen));
    assert!(seen > 30, "the walk found the solvers' files ({seen})");
    assert!(
        found.is_empty(),
        "imports that climb:\n{}",
        found.join("\n")
    );
}

#[test]
fn the_solvers_never_name_the_workbench() {
    let mut files = Vec::new();
    rust_files(&root().join("crates/solvers"), &mut files);
    assert!(files.len() > 30, "{}", files.len());
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        assert!(
            !text.contains("sudoku_bench"),
            "{} names the workbench",
            file.display()
        );
    }
    let manifest = std::fs::read_to_string(root().join("crates/solvers/Cargo.toml")).unwrap();
    assert!(
        !manifest
            .lines()
            .any(|l| l.trim_start().starts_with("sudoku-bench")),
        "the solvers' crate depends on the workbench:\n{manifest}"
    );
}

#[test]
fn the_layer_check_sees_a_climbing_import() {
    let text = "use crate::harness::BenchDataset;\n// crate::report in a comment\n#[cfg(test)]\nmod tests {\n    use crate::study;\n}\n";
    assert_eq!(imports(text), vec!["harness".to_string()]);
}
