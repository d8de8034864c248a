//! The repository itself: CI's refusal of a tracked file over 2 MB, and the
//! library's layers (ARCHITECTURE.md), which no import may climb.

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

/// The library's top-level modules, bottom layer first (ARCHITECTURE.md):
/// a module may import only from lower layers.
const LAYERS: &[&[&str]] = &[
    &[
        "grid", "stats", "seeded", "error", "words", "sync", "usage", "columns", "files", "spool",
    ],
    &["format", "validate", "transform", "perf", "lock", "hygiene"],
    &["solver", "datasets", "callgrind"],
    &["rate", "batch", "valgrind"],
    &["generate"],
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

fn layer(module: &str) -> Option<usize> {
    LAYERS.iter().position(|l| l.contains(&module))
}

/// Every `crate::MODULE` a file's code names (comments and its unit tests left out).
fn imports(text: &str) -> Vec<String> {
    let code = text.split("#[cfg(test)]\nmod tests").next().unwrap_or("");
    let mut out = Vec::new();
    for line in code.lines().filter(|l| !l.trim_start().starts_with("//")) {
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
}

#[test]
fn no_import_climbs_a_layer() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut climbs = Vec::new();
    let mut seen = 0;
    for file in &files {
        let rel = file.strip_prefix(&src).unwrap();
        let top = rel
            .components()
            .next()
            .unwrap()
            .as_os_str()
            .to_string_lossy();
        let module = top.trim_end_matches(".rs").to_string();
        let unit_test =
            rel.ends_with("tests.rs") || rel.components().any(|c| c.as_os_str() == "tests");
        if ["cli", "main", "lib"].contains(&module.as_str()) || unit_test {
            continue; // the binary sits above every layer; unit tests may reach anywhere
        }
        let from = layer(&module).unwrap_or_else(|| {
            panic!("src/{top}: a module missing from LAYERS and ARCHITECTURE.md")
        });
        seen += 1;
        for to in imports(&std::fs::read_to_string(file).unwrap()) {
            if let Some(l) = layer(&to) {
                if to != module && l >= from {
                    climbs.push(format!("{} imports crate::{to}", rel.display()));
                }
            }
        }
    }
    assert!(seen > 50, "the walk found the library's files ({seen})");
    assert!(
        climbs.is_empty(),
        "imports that climb:\n{}",
        climbs.join("\n")
    );
}

#[test]
fn the_layer_check_sees_a_climbing_import() {
    let text = "use crate::harness::BenchDataset;\n// crate::report in a comment\n#[cfg(test)]\nmod tests {\n    use crate::study;\n}\n";
    assert_eq!(imports(text), vec!["harness".to_string()]);
}
