//! The repository itself: CI's refusal of a tracked file over 2 MB.

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
