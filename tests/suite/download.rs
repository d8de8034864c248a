//! Public lists by name, over a loopback server standing in for the mirror:
//! download, cache, offline reuse, a corrupt file refused, a server down.

use crate::common::{self, Loopback};
use assert_cmd::Command;
use predicates::prelude::*;
use std::path::Path;
use sudoku_bench::datasets::public::{self, CACHE_VAR, MIRROR_VAR};

const TOP: &str = "puzzles3_magictour_top1465";

fn bin(cache: &Path, mirror: &str) -> Command {
    let mut c = crate::common::bin();
    c.env(CACHE_VAR, cache).env(MIRROR_VAR, mirror);
    c
}

fn quick_bench(cache: &Path, mirror: &str, out: &Path) -> Command {
    let mut c = bin(cache, mirror);
    c.args(["bench", "--quiet", "--no-report", "--dataset", "top1465"])
        .args(["--solver", "band", "--limit", "20", "--min-time", "0"])
        .args(["--out", out.to_str().unwrap()]);
    c
}

/// Every file in the cache folder, part files included.
fn cache_files(cache: &Path) -> Vec<String> {
    match std::fs::read_dir(cache) {
        // The reference verdicts' folder is the workbench's cache too.
        Ok(dir) => dir
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|name| name != "verdicts")
            .collect(),
        Err(_) => Vec::new(),
    }
}

#[test]
fn the_table_matches_the_published_lists() {
    let Some(dir) = common::shared_datasets("the_table_matches_the_published_lists") else {
        return;
    };
    for p in public::PUBLIC {
        let bytes = std::fs::read(dir.join(p.file)).unwrap();
        assert_eq!(bytes.len() as u64, p.bytes, "{}", p.name);
        assert_eq!(
            sudoku_bench::datasets::checksum::sha256_hex(&bytes),
            p.sha256,
            "{}",
            p.name
        );
        assert_eq!(common::load(&dir.join(p.file)).puzzles.len(), p.puzzles);
    }
}

#[test]
fn a_list_is_downloaded_checked_cached_and_then_read_offline() {
    let Some(shared) = common::shared_datasets("a_list_is_downloaded_checked_cached") else {
        return;
    };
    let text = std::fs::read(shared.join(TOP)).unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let cache = tmp.path().join("cache");
    let server = Loopback::serve(vec![(TOP.to_string(), text.clone())]);

    let first = quick_bench(&cache, &server.base, &tmp.path().join("a"))
        .assert()
        .success()
        .stderr(predicate::str::contains(format!(
            "downloading top1465 from {}/{TOP}",
            server.base
        )));
    drop(first);
    assert_eq!(server.hits(), 1);
    assert_eq!(std::fs::read(cache.join(TOP)).unwrap(), text);
    assert_eq!(
        cache_files(&cache),
        vec![TOP.to_string()],
        "no part file left"
    );
    let summary = std::fs::read_to_string(tmp.path().join("a/summary.csv")).unwrap();
    assert!(summary.contains("top1465"), "{summary}");

    // Offline: the server is gone, the cache serves.
    let base = server.base.clone();
    drop(server);
    quick_bench(&cache, &base, &tmp.path().join("b"))
        .assert()
        .success()
        .stderr(predicate::str::contains("downloading").not());
    bin(&cache, &base)
        .args(["solve", "top1465", "--threads", "1"])
        .assert()
        .success();
    bin(&cache, &base)
        .arg("datasets")
        .assert()
        .success()
        .stdout(predicate::str::is_match(r"top1465 .* cached").unwrap())
        .stdout(predicate::str::is_match(r"hardest-1106 .* not cached").unwrap());

    // A damaged cached copy is never read: it is removed and fetched again.
    std::fs::write(cache.join(TOP), b"1.2\n").unwrap();
    let server = Loopback::serve(vec![(TOP.to_string(), text.clone())]);
    quick_bench(&cache, &server.base, &tmp.path().join("c"))
        .assert()
        .success();
    assert_eq!(server.hits(), 1);
    assert_eq!(std::fs::read(cache.join(TOP)).unwrap(), text);
}

#[test]
fn a_corrupt_download_is_refused_and_nothing_is_kept() {
    let tmp = tempfile::tempdir().unwrap();
    let cache = tmp.path().join("cache");
    // Right size, wrong bytes.
    let p = public::find("top1465").unwrap();
    let server = Loopback::serve(vec![(TOP.to_string(), vec![b'.'; p.bytes as usize])]);
    let out = tmp.path().join("run");
    quick_bench(&cache, &server.base, &out)
        .assert()
        .code(2)
        .stderr(predicate::str::contains(format!("{}/{TOP}", server.base)))
        .stderr(predicate::str::contains("is not the published list"))
        .stderr(predicate::str::contains(p.sha256));
    assert!(cache_files(&cache).is_empty(), "{:?}", cache_files(&cache));
    assert!(!out.exists(), "no run folder for a run that never started");
}

#[test]
fn a_server_down_or_a_missing_file_is_a_clear_error_naming_the_url() {
    let tmp = tempfile::tempdir().unwrap();
    let cache = tmp.path().join("cache");
    let dead = common::dead_base();
    quick_bench(&cache, &dead, &tmp.path().join("a"))
        .assert()
        .code(2)
        .stderr(predicate::str::contains(format!(
            "cannot download top1465 from {dead}/{TOP}"
        )))
        .stderr(predicate::str::contains(MIRROR_VAR));
    let server = Loopback::serve(Vec::new());
    bin(&cache, &server.base)
        .args(["solve", "hardest-1106"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(format!(
            "cannot download hardest-1106 from {}/puzzles6_forum_hardest_1106",
            server.base
        )))
        .stderr(predicate::str::contains("404"));
    assert!(cache_files(&cache).is_empty(), "{:?}", cache_files(&cache));
}
