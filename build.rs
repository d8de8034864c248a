//! Records the git commit and rustc version for `run.json`.
//!
//! Reruns when the commit changes (HEAD, the branch it points to, packed refs)
//! or the sources do, never on `.git/index`, which `git status` rewrites.
use std::path::PathBuf;
use std::process::Command;

fn output(cmd: &str, args: &[&str]) -> Option<String> {
    let out = Command::new(cmd).args(args).output().ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}

fn main() {
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let version = output(&rustc, &["--version"]).unwrap_or_else(|| "unknown".into());
    println!("cargo:rustc-env=SUDOKU_BENCH_RUSTC={version}");
    let commit = output("git", &["rev-parse", "HEAD"]).unwrap_or_else(|| "unknown".into());
    // Local changes to tracked files at build time (recomputed whenever the sources change).
    let dirty = output("git", &["status", "--porcelain", "--untracked-files=no"])
        .is_some_and(|s| !s.is_empty());
    println!(
        "cargo:rustc-env=SUDOKU_BENCH_GIT={commit}{}",
        if dirty { "-dirty" } else { "" }
    );
    if let Some(git_dir) = output("git", &["rev-parse", "--git-dir"]).map(PathBuf::from) {
        let head = git_dir.join("HEAD");
        let branch = std::fs::read_to_string(&head)
            .ok()
            .and_then(|h| h.trim().strip_prefix("ref: ").map(|b| git_dir.join(b)));
        // Only files that exist: cargo reruns every time for a missing one.
        let watched = [Some(head), branch, Some(git_dir.join("packed-refs"))];
        for path in watched.into_iter().flatten().filter(|p| p.exists()) {
            println!("cargo:rerun-if-changed={}", path.display());
        }
    }
    for path in ["src", "Cargo.toml", "build.rs", "datasets"] {
        println!("cargo:rerun-if-changed={path}");
    }
}
