//! `history` over many runs: its time and peak memory for 10, 30 and 100
//! saved runs (the ten small counted runs of `examples/history`, copied
//! with new labels). Memory is the process's high-water mark after each,
//! so a history that held every run at once would show it growing.
//!
//! `cargo bench --bench history`

use std::path::Path;
use std::time::Instant;
use sudoku_bench::history::{self, Order};

/// The process's peak resident memory, kB.
fn peak_kb() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1)?.parse().ok())
        })
        .unwrap_or(0)
}

/// `n` runs in `dir`, each a copy of one of the sample runs with label `c<i>`.
fn make_runs(dir: &Path, n: usize) -> Vec<String> {
    let sample = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/history");
    let mut runs: Vec<_> = std::fs::read_dir(&sample)
        .expect("examples/history")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.join("run.json").is_file())
        .collect();
    runs.sort();
    (0..n)
        .map(|i| {
            let to = dir.join(format!("c{i:03}"));
            std::fs::create_dir_all(&to).unwrap();
            let from = &runs[i % runs.len()];
            for f in ["results.csv", "summary.csv"] {
                std::fs::copy(from.join(f), to.join(f)).unwrap();
            }
            let info = std::fs::read_to_string(from.join("run.json")).unwrap();
            let mut v: serde_json::Value = serde_json::from_str(&info).unwrap();
            v["options"]["label"] = serde_json::json!(format!("c{i:03}"));
            std::fs::write(to.join("run.json"), v.to_string()).unwrap();
            to.display().to_string()
        })
        .collect()
}

fn main() {
    let tmp = std::env::temp_dir().join(format!("sudoku-bench-history-{}", std::process::id()));
    let runs = make_runs(&tmp, 100);
    println!("runs  history ms  written ms  peak kB");
    for n in [10, 30, 100] {
        let t = Instant::now();
        let h = history::history(&runs[..n], &tmp, Order::Label, None).expect("a history");
        let read = t.elapsed().as_secs_f64() * 1e3;
        history::write::write(&h, &tmp.join(format!("out-{n}"))).expect("written");
        let all = t.elapsed().as_secs_f64() * 1e3;
        println!("{n:>4}  {read:>10.1}  {all:>10.1}  {:>7}", peak_kb());
    }
    let _ = std::fs::remove_dir_all(&tmp);
}
