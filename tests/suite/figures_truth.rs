//! What a chart says under it, recomputed from the run's own files: the
//! data line from run.json and summary.csv, each partial series' k/n, and
//! every contender left off named with why.

use crate::common::bin_in as bin;
use crate::common::{csv_rows, example, hard_lines};
use std::path::Path;
use sudoku_bench::harness::SummaryRow;

/// Every piece of text an SVG draws, in order, joined by spaces.
fn svg_text(path: &Path) -> String {
    let svg = std::fs::read_to_string(path).unwrap();
    let doc = roxmltree::Document::parse(&svg).unwrap();
    doc.descendants()
        .filter(|n| n.is_text())
        .filter_map(|n| n.text())
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn data_lines_shares_and_left_out_contenders_are_the_runs_own() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let all = hard_lines(20);
    let set: String = all.iter().map(|(p, _)| format!("{p}\n")).collect();
    std::fs::write(dir.join("set.txt"), set).unwrap();
    // "part" knows 14 of the 20 answers (says none for the rest: wrong);
    // "junk" answers nothing a solver would.
    let part: String = all[..14]
        .iter()
        .map(|(p, s)| format!("{p}\t{s}\n"))
        .collect();
    std::fs::write(dir.join("part.tsv"), part).unwrap();
    let fx = example("fixture-contender");
    let toml = format!(
        "[[contender]]\nname = \"part\"\ncommand = [\"{fx}\", \"{t}\"]\n\n[[contender]]\nname = \"junk\"\ncommand = [\"{fx}\", \"{t}\", \"garbage\"]\n",
        fx = fx.display(),
        t = dir.join("part.tsv").display()
    );
    std::fs::write(dir.join("c.toml"), toml).unwrap();
    bin(dir)
        .args(["bench", "--quiet", "--solver", "dlx,bitset-mrv"])
        .args(["--dataset", "set.txt", "--contenders", "c.toml"])
        .args(["--threads", "1", "--rounds", "30", "--min-time", "0"])
        .args(["--out", "run"])
        .assert()
        .code(1);
    let run = dir.join("run");
    let rows: Vec<SummaryRow> = csv_rows(&run.join("summary.csv"));
    let info: sudoku_bench::harness::RunInfo =
        serde_json::from_str(&std::fs::read_to_string(run.join("run.json")).unwrap()).unwrap();
    let of = |v: &str| rows.iter().find(|r| r.variant == v).unwrap();
    let (part, junk) = (of("part"), of("junk"));
    assert_eq!((part.solved, part.puzzles, junk.solved), (14, 20, 0));
    let dataset = &part.dataset;
    let charts = run.join("charts");
    let slug = sudoku_bench::report::slug(dataset);
    for chart in ["relative-speed", "search-cost", "cactus"] {
        let path = charts.join(format!("{chart}-{slug}.svg"));
        let text = svg_text(&path);
        // The data line, from run.json and summary.csv: the dataset's own
        // rounds (reduced from 30 to what 20 puzzles take), mode, threads,
        // measure, machine, build and day.
        let rounds = part.rounds;
        assert!(rounds < 30, "{rounds}");
        let wants = [
            format!("{dataset}: {} puzzles;", part.puzzles),
            format!(
                "mode {}, 1 thread, {rounds} rounds, timed;",
                info.options.mode
            ),
            format!("{} ({} cores)", info.cpu_model, info.cores),
            format!("run {}", &info.started[..10]),
        ];
        for want in wants {
            assert!(text.contains(&want), "{chart}: no {want:?} in {text}");
        }
        // The partial contender with its share, on the chart itself.
        // (The fixture reports no nodes: the search-cost chart says so.)
        let shared = match chart {
            "search-cost" => format!("not shown: {} (no node counts)", part.label()),
            _ => format!("{} (14/20; 6 wrong)", part.label()),
        };
        assert!(text.contains(&shared), "{chart}: no {shared:?} in {text}");
        // The one left off, named with why (the cactus lists it in its
        // legend, as solving nothing).
        if chart != "cactus" {
            let left = format!(
                "{} ({}: under half verified)",
                junk.label(),
                junk.failure_cell()
            );
            assert!(text.contains(&left), "{chart}: no {left:?} in {text}");
            assert!(text.contains("; not shown: "), "{chart}: {text}");
        } else {
            let none = format!("{} (0/20", junk.label());
            assert!(text.contains(&none), "{chart}: no {none:?} in {text}");
        }
    }
}

/// One generated run: `n` puzzles of hard-9x9, a contender that knows
/// `known` of their answers, one that answers garbage when `junk`, `rounds`
/// asked, counted under valgrind when `counted`.
fn generated_run(dir: &Path, n: usize, known: usize, junk: bool, rounds: usize, counted: bool) {
    let all = hard_lines(n);
    let set: String = all.iter().map(|(p, _)| format!("{p}\n")).collect();
    std::fs::write(dir.join("set.txt"), set).unwrap();
    let part: String = all[..known]
        .iter()
        .map(|(p, s)| format!("{p}\t{s}\n"))
        .collect();
    std::fs::write(dir.join("part.tsv"), part).unwrap();
    let fx = example("fixture-contender");
    let t = dir.join("part.tsv");
    let mut toml = format!(
        "[[contender]]\nname = \"part\"\ncommand = [\"{}\", \"{}\"]\n",
        fx.display(),
        t.display()
    );
    if junk {
        toml += &format!(
            "\n[[contender]]\nname = \"junk\"\ncommand = [\"{}\", \"{}\", \"garbage\"]\n",
            fx.display(),
            t.display()
        );
    }
    std::fs::write(dir.join("c.toml"), toml).unwrap();
    let mut cmd = bin(dir);
    cmd.args(["bench", "--quiet", "--solver", "dlx,bitset-mrv"])
        .args(["--dataset", "set.txt"])
        .args(["--threads", "1", "--min-time", "0", "--warmup", "1"])
        .args(["--rounds", &rounds.to_string(), "--out", "run"]);
    // Programs cannot be counted: a counted run is of built-ins only.
    if counted {
        cmd.args(["--measure", "instructions"]);
    } else {
        cmd.args(["--contenders", "c.toml"]);
    }
    let out = cmd.output().unwrap();
    assert!(
        matches!(out.status.code(), Some(0 | 1)),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig { cases: 8, ..Default::default() })]

    /// Over generated runs (failures, partial contenders, datasets smaller
    /// than the rounds asked, timed and counted), every chart's data line,
    /// share and left-out name is what summary.csv and run.json say.
    #[test]
    fn every_charts_words_are_its_runs_files(
        n in 2usize..24,
        known_share in 0.0f64..=1.0,
        junk in proptest::bool::ANY,
        rounds in 1usize..40,
        counted in proptest::bool::weighted(0.25),
    ) {
        if counted && !crate::common::valgrind() {
            return Ok(());
        }
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path();
        let known = ((n as f64 * known_share) as usize).min(n);
        generated_run(dir, n, known, junk, rounds, counted);
        let run = dir.join("run");
        let rows: Vec<SummaryRow> = csv_rows(&run.join("summary.csv"));
        let info: sudoku_bench::harness::RunInfo = serde_json::from_str(
            &std::fs::read_to_string(run.join("run.json")).unwrap(),
        )
        .unwrap();
        let dataset = rows[0].dataset.clone();
        let slug = sudoku_bench::report::slug(&dataset);
        let mut charts: Vec<String> = std::fs::read_dir(run.join("charts"))
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|f| f.ends_with(".svg"))
            .collect();
        charts.sort();
        if counted {
            // Nothing drawn from valgrind's clock.
            proptest::prop_assert!(
                charts.iter().all(|c| c.starts_with("instructions")),
                "{charts:?}"
            );
            return Ok(());
        }
        // The dataset's rounds as run: what summary.csv and run.json say.
        let ds_rounds = info.rounds_of(&dataset);
        proptest::prop_assert!(rows.iter().all(|r| r.rounds as usize <= ds_rounds.max(1)));
        for chart in charts.iter().filter(|c| c.ends_with(&format!("-{slug}.svg"))) {
            let text = svg_text(&run.join("charts").join(chart));
            let want = format!(
                "{dataset}: {n} puzzles; mode {}, 1 thread, {ds_rounds} round{}, timed;",
                info.options.mode,
                if ds_rounds == 1 { "" } else { "s" }
            );
            proptest::prop_assert!(text.contains(&want), "{chart}: no {want:?} in {text}");
        }
        // Relative speed: each row that stands on fewer than all its
        // puzzles carries k/n; each row left off is named with why.
        let relative = run.join("charts").join(format!("relative-speed-{slug}.svg"));
        if relative.exists() {
            let text = svg_text(&relative);
            for r in &rows {
                if r.stands() && r.solved < r.puzzles {
                    let share = format!("{} ({}/{}", r.label(), r.solved, r.puzzles);
                    proptest::prop_assert!(text.contains(&share), "no {share:?} in {text}");
                }
                if !r.stands() {
                    let left = format!("{} ({}: under half verified)", r.label(), r.failure_cell());
                    proptest::prop_assert!(text.contains("not shown: "), "{text}");
                    proptest::prop_assert!(text.contains(&left), "no {left:?} in {text}");
                }
            }
        }
    }
}

/// A chart over several datasets says how many, and their puzzles, as
/// summary.csv counts them and run.json sizes their sources.
#[test]
fn a_chart_over_datasets_counts_them_and_their_puzzles() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    bin(dir)
        .args(["bench", "--quiet", "--solver", "dlx,bitset-mrv"])
        .args(["--dataset", "easy-9x9,set-4x4", "--limit", "6"])
        .args(["--threads", "1", "--min-time", "0", "--out", "run"])
        .assert()
        .success();
    let run = dir.join("run");
    let rows: Vec<SummaryRow> = csv_rows(&run.join("summary.csv"));
    let info: sudoku_bench::harness::RunInfo =
        serde_json::from_str(&std::fs::read_to_string(run.join("run.json")).unwrap()).unwrap();
    let mut per: Vec<(String, u64)> = rows
        .iter()
        .map(|r| (r.dataset.clone(), r.puzzles))
        .collect();
    per.sort();
    per.dedup();
    assert_eq!(per.len(), 2, "{per:?}");
    let run_puzzles: u64 = per.iter().map(|p| p.1).sum();
    let in_source: u64 = info.datasets.iter().map(|d| d.puzzles_in_source).sum();
    assert!(run_puzzles < in_source, "--limit 6 takes part of each");
    let want = format!(
        "2 datasets, {} of their {} puzzles;",
        sudoku_bench::stats::thousands(run_puzzles),
        sudoku_bench::stats::thousands(in_source)
    );
    for chart in ["throughput", "hardness"] {
        let text = svg_text(&run.join(format!("charts/{chart}.svg")));
        assert!(text.contains(&want), "{chart}: no {want:?} in {text}");
    }
}
