use super::html::{esc, sort_value};
use super::*;
use std::path::{Path, PathBuf};

const HEADER: &str = "strategy,variant,dataset,puzzle_index,repeat,puzzle,status,solutions,nodes,guesses,solve_ns,threads,detail";
const SUMMARY_HEADER: &str = "strategy,variant,dataset,threads,puzzles,solved,budget,wrong,errors,puzzles_per_sec,mean_us,median_us,p90_us,p99_us,max_us,guesses_per_puzzle,no_guess_pct,wall_s";

/// A run folder with `variants` over one dataset of `puzzles` puzzles.
fn run_dir(variants: &[&str], puzzles: u64) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().to_path_buf();
    let mut results = format!("{HEADER}\n");
    let mut summary = format!("{SUMMARY_HEADER}\n");
    for (k, v) in variants.iter().enumerate() {
        for i in 0..puzzles {
            let status = if k == 0 && i == puzzles - 1 && puzzles > 2 {
                "budget"
            } else {
                "unique"
            };
            results.push_str(&format!(
                "{v},{v},tiny,{i},0,{},{status},1,{},{},{},1,\n",
                ".".repeat(81),
                10 + i * (k as u64 + 1),
                i % 4,
                1000 * (i + 1) * (k as u64 + 1)
            ));
        }
        summary.push_str(&format!(
            "{v},{v},tiny,1,{puzzles},{puzzles},0,0,0,{},1,1,1,1,1,1.0,50.0,0.1\n",
            1000.0 / (k as f64 + 1.0)
        ));
    }
    std::fs::write(path.join("results.csv"), results).unwrap();
    std::fs::write(path.join("summary.csv"), summary).unwrap();
    (dir, path)
}

/// A strategy the run skipped on a dataset (a size it does not handle) is
/// named under each chart of that dataset, not dropped without a word.
#[test]
fn a_strategy_skipped_on_a_dataset_is_named_under_its_charts() {
    let (_keep, dir) = run_dir(&["dlx", "bitset-mrv"], 20);
    let mut info = crate::harness::RunInfo::new(Default::default(), Vec::new(), Vec::new());
    info.skipped.push(crate::harness::Skipped {
        variant: "band".into(),
        dataset: "tiny".into(),
        size: "16x16".into(),
        handles: "9x9".into(),
    });
    let json = serde_json::to_string(&info).unwrap();
    std::fs::write(dir.join(crate::files::RUN_JSON), json).unwrap();
    write(&dir, &ReportOptions::default()).unwrap();
    for chart in ["cactus-tiny", "distribution-tiny", "head-to-head-tiny"] {
        let path = dir.join("charts").join(format!("{chart}.svg"));
        let svg = std::fs::read_to_string(path).unwrap();
        assert!(
            svg.contains("not shown: band (handles 9x9 only)"),
            "{chart} does not name band"
        );
    }
}

/// A chart of several datasets (memory, hardness) names a strategy the run
/// skipped on one of them, with which and why.
#[test]
fn a_chart_of_several_datasets_names_a_skipped_strategy() {
    let (_keep, dir) = run_dir(&["band", "dlx"], 20);
    // A second dataset, `big`, where dlx ran and band was skipped; every
    // row with a peak heap, so that the memory chart is drawn.
    // Summary rows compared with a reference too, so that the page has
    // its speed matrix.
    let with_heap = |csv: String, header: &str, more: &str| -> String {
        let mut out = format!(
            "{header},peak_heap_bytes{}\n",
            if more.is_empty() {
                ""
            } else {
                ",reference,speed"
            }
        );
        for line in csv.lines().skip(1) {
            out.push_str(&format!("{line},4096{more}\n"));
            if line.starts_with("dlx,") {
                out.push_str(&format!("{},4096{more}\n", line.replace(",tiny,", ",big,")));
            }
        }
        out
    };
    for (file, header, more) in [
        ("results.csv", HEADER, ""),
        ("summary.csv", SUMMARY_HEADER, ",dlx,1.0"),
    ] {
        let csv = std::fs::read_to_string(dir.join(file)).unwrap();
        std::fs::write(dir.join(file), with_heap(csv, header, more)).unwrap();
    }
    let mut info = crate::harness::RunInfo::new(Default::default(), Vec::new(), Vec::new());
    info.skipped.push(crate::harness::Skipped {
        variant: "band".into(),
        dataset: "big".into(),
        size: "16x16".into(),
        handles: "9x9".into(),
    });
    let json = serde_json::to_string(&info).unwrap();
    std::fs::write(dir.join(crate::files::RUN_JSON), json).unwrap();
    let opts = ReportOptions {
        hardness_variant: Some("band".into()),
        ..ReportOptions::default()
    };
    write(&dir, &opts).unwrap();
    let read = |chart: &str| {
        std::fs::read_to_string(dir.join("charts").join(format!("{chart}.svg")))
            .unwrap_or_else(|e| panic!("{chart}: {e}"))
    };
    let memory = read("memory");
    assert!(
        memory.contains("band on big (handles 9x9 only)"),
        "memory does not name band"
    );
    assert!(
        read("hardness").contains("big (band handles 9x9 only)"),
        "hardness does not name big"
    );
    let html = std::fs::read_to_string(dir.join("report.html")).unwrap();
    assert!(html.contains("speed-matrix"), "no speed matrix");
    assert!(
        html.contains(">9x9 only</td>"),
        "the speed matrix leaves band's skipped cell blank"
    );
}

/// The figure lint (the suite's figure tests read every chart of real runs
/// with it) over a made-up run's charts at both print widths: the fast
/// check of a change to a chart (CONTRIBUTING.md).
#[test]
fn a_runs_charts_pass_the_figure_lint_at_both_widths() {
    let (_keep, dir) = run_dir(&["dlx", "bitset-mrv", "backtracking"], 40);
    // The run's facts, which each chart's data line says.
    let info = crate::harness::RunInfo::new(Default::default(), Vec::new(), Vec::new());
    let json = serde_json::to_string(&info).unwrap();
    std::fs::write(dir.join(crate::files::RUN_JSON), json).unwrap();
    let opts = ReportOptions {
        figures: crate::harness::plan::Figures::Paper,
        ..ReportOptions::default()
    };
    let report = write(&dir, &opts).unwrap();
    let mut faults = Vec::new();
    let mut drawn = 0;
    for e in std::fs::read_dir(dir.join("charts")).unwrap() {
        let path = e.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let Some(stem) = name.strip_suffix(".svg") else {
            continue;
        };
        let size = if stem.ends_with(charts::figure::SINGLE.suffix) {
            charts::figure::SINGLE
        } else {
            charts::figure::DOUBLE
        };
        let svg = std::fs::read_to_string(&path).unwrap();
        faults.extend(
            charts::lint::lint(&svg, &size)
                .into_iter()
                .map(|f| format!("{name}: {f}")),
        );
        drawn += 1;
    }
    assert_eq!(drawn, 2 * report.charts.len(), "each chart at both widths");
    assert!(drawn >= 12, "{drawn} charts");
    assert!(faults.is_empty(), "{}", faults.join("\n"));
}

#[test]
fn every_chart_names_its_strategies_and_axes() {
    let (_keep, dir) = run_dir(&["dlx", "bitset-mrv", "backtracking"], 12);
    let report = write(&dir, &ReportOptions::default()).unwrap();
    let names: Vec<&str> = report.charts.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "throughput",
            "cactus-tiny",
            "distribution-tiny",
            "search-cost-tiny",
            "head-to-head-tiny",
            "hardness"
        ]
    );
    assert!(report.skipped.is_empty(), "{:?}", report.skipped);
    let axes = [
        ("throughput", "puzzles per second"),
        ("cactus-tiny", "puzzles solved"),
        ("distribution-tiny", "share of puzzles solved"),
        ("search-cost-tiny", "search nodes per puzzle"),
        ("head-to-head-tiny", "time per puzzle, µs"),
        ("hardness", "guesses + 1"),
    ];
    for (chart, axis) in axes {
        let c = report.charts.iter().find(|c| c.name == chart).unwrap();
        assert!(
            c.svg.starts_with("<svg") || c.svg.contains("<svg"),
            "{chart}"
        );
        assert!(
            c.svg.contains(axis),
            "{chart} lacks its axis label {axis:?}"
        );
        assert!(dir.join("charts").join(format!("{chart}.png")).is_file());
        assert!(
            std::fs::read_to_string(dir.join("charts").join(format!("{chart}.svg"))).unwrap()
                == c.svg
        );
        assert!(!c.caption.is_empty());
    }
    for chart in [
        "throughput",
        "cactus-tiny",
        "distribution-tiny",
        "search-cost-tiny",
    ] {
        let svg = &report.charts.iter().find(|c| c.name == chart).unwrap().svg;
        for v in ["dlx", "bitset-mrv", "backtracking"] {
            // The distribution's legend says how many a strategy solved when not all.
            assert!(
                svg.contains(&format!("\n{v}\n</text>")) || svg.contains(&format!("\n{v} (")),
                "{chart} lacks {v}"
            );
        }
    }
    // Head to head defaults to the two fastest: dlx (1000/s) and bitset-mrv (500/s).
    let h2h = report
        .charts
        .iter()
        .find(|c| c.name == "head-to-head-tiny")
        .unwrap();
    assert!(h2h.title.starts_with("dlx vs bitset-mrv"), "{}", h2h.title);
    assert!(report
        .charts
        .iter()
        .find(|c| c.name == "hardness")
        .unwrap()
        .title
        .contains("dlx"));
}

#[test]
fn search_cost_is_nodes_per_solved_puzzle_and_time_per_node() {
    let (_keep, dir) = run_dir(&["dlx", "bitset-mrv"], 12);
    let data = load(&dir).unwrap();
    let dlx = data.variants.iter().position(|v| v == "dlx").unwrap();
    // dlx: puzzles 0..=10 solved (11 is a budget row), nodes 10 + i, time 1000 (i + 1) ns.
    let (per_puzzle, per_node) = node_costs(&data, 0, dlx).unwrap();
    assert!((per_puzzle - 165.0 / 11.0).abs() < 1e-9, "{per_puzzle}");
    assert!((per_node - 66.0 / 165.0).abs() < 1e-9, "{per_node}");
    assert_eq!(node_costs(&data, 1, dlx), None, "no such dataset");
}

#[test]
fn head_to_head_takes_each_datasets_own_two_fastest() {
    // `band`-like: the fastest variant ran on one dataset only; the other dataset
    // still gets its head to head, between the two that ran on it.
    let dir = tempfile::tempdir().unwrap();
    let mut results = format!("{HEADER}\n");
    let mut summary = format!("{SUMMARY_HEADER}\n");
    for (v, dataset, rate) in [
        ("fast", "nine", 900.0),
        ("dlx", "nine", 300.0),
        ("bitset-mrv", "nine", 600.0),
        ("dlx", "sixteen", 20.0),
        ("bitset-mrv", "sixteen", 10.0),
    ] {
        for i in 0..3 {
            results.push_str(&format!(
                "{v},{v},{dataset},{i},0,{},unique,1,5,1,{},1,\n",
                ".".repeat(81),
                1000 + i
            ));
        }
        summary.push_str(&format!(
            "{v},{v},{dataset},1,3,3,0,0,0,{rate},1,1,1,1,1,1.0,0.0,0.1\n"
        ));
    }
    std::fs::write(dir.path().join("results.csv"), results).unwrap();
    std::fs::write(dir.path().join("summary.csv"), summary).unwrap();
    let report = write(dir.path(), &ReportOptions::default()).unwrap();
    let title = |name: &str| {
        report
            .charts
            .iter()
            .find(|c| c.name == name)
            .unwrap_or_else(|| panic!("{name} missing; skipped: {:?}", report.skipped))
            .title
            .clone()
    };
    assert!(title("head-to-head-nine").starts_with("fast vs bitset-mrv"));
    assert!(title("head-to-head-sixteen").starts_with("dlx vs bitset-mrv"));
}

#[test]
fn html_embeds_every_chart_and_references_nothing_outside() {
    let (_keep, dir) = run_dir(&["dlx", "bitset-mrv"], 5);
    let report = write(&dir, &ReportOptions::default()).unwrap();
    let html = std::fs::read_to_string(dir.join("report.html")).unwrap();
    // Each chart's, and one hidden at the top holding the page's glyphs.
    assert_eq!(html.matches("<svg").count(), report.charts.len() + 1);
    for c in &report.charts {
        assert!(html.contains(&format!("<figure id=\"{}\">", c.name)));
        assert!(html.contains(&esc(&c.caption)));
    }
    for bad in ["<link", "<script src", "src=", "url(", "@import"] {
        assert!(!html.contains(bad), "report.html holds {bad}");
    }
    // Links only within the page: the charts' glyphs, each defined once.
    for link in html.split("href=\"").skip(1) {
        let target = link.split('"').next().unwrap();
        let id = target
            .strip_prefix('#')
            .unwrap_or_else(|| panic!("report.html links outside: {target}"));
        assert_eq!(html.matches(&format!(" id=\"{id}\"")).count(), 1, "{id}");
    }
    assert!(
        html.contains("<use href=\"#"),
        "the charts' text is drawn by glyphs"
    );
    // Every glyph used is defined once for the page, none per chart.
    let mut used: Vec<&str> = html
        .split("<use href=\"#")
        .skip(1)
        .map(|l| l.split('"').next().unwrap())
        .collect();
    used.sort_unstable();
    used.dedup();
    assert!(used.iter().all(|id| id.starts_with("sb-g")), "{used:?}");
    assert_eq!(html.matches("<path id=\"").count(), used.len());
    // One inline script, after everything it works on.
    assert_eq!(html.matches("<script>").count(), 1);
    assert!(html.find("<script>") > html.rfind("</table>"));
    // The only URLs are XML namespace names inside the SVGs, which are never fetched.
    let urls = html.matches("http").count();
    let namespaces = html.matches("xmlns=\"http://www.w3.org/2000/svg\"").count()
        + html
            .matches("xmlns:xlink=\"http://www.w3.org/1999/xlink\"")
            .count();
    assert_eq!(urls, namespaces);
    let md = std::fs::read_to_string(dir.join("report.md")).unwrap();
    for c in &report.charts {
        assert!(md.contains(&format!("(charts/{}.svg)", c.name)));
    }
    assert!(md.contains("| dataset"));
}

#[test]
fn a_missing_column_or_a_bad_number_is_located() {
    let (_keep, dir) = run_dir(&["dlx"], 3);
    let results = std::fs::read_to_string(dir.join("results.csv")).unwrap();
    std::fs::write(
        dir.join("results.csv"),
        results.replace(",solve_ns,", ",time,"),
    )
    .unwrap();
    let e = load(&dir).unwrap_err().to_string();
    assert!(
        e.contains("results.csv:1:1: missing column `solve_ns`"),
        "{e}"
    );

    std::fs::write(
        dir.join("results.csv"),
        results.replacen(",1000,1,", ",fast,1,", 1),
    )
    .unwrap();
    let e = load(&dir).unwrap_err().to_string();
    let col = 1 + results
        .lines()
        .nth(1)
        .unwrap()
        .split(',')
        .take(10)
        .map(|f| f.len() + 1)
        .sum::<usize>();
    assert!(
        e.contains(&format!(
            "results.csv:2:{col}: found \"fast\" in column `solve_ns`"
        )),
        "{e}"
    );

    std::fs::write(dir.join("results.csv"), &results).unwrap();
    let summary = std::fs::read_to_string(dir.join("summary.csv")).unwrap();
    std::fs::write(dir.join("summary.csv"), summary.replace(",1000,", ",lots,")).unwrap();
    let e = load(&dir).unwrap_err().to_string();
    assert!(
        e.contains("summary.csv:2:")
            && e.contains("puzzles_per_sec")
            && e.contains("expected a number"),
        "{e}"
    );
}

#[test]
fn single_strategy_or_single_puzzle_runs_still_draw() {
    let (_keep, dir) = run_dir(&["dlx"], 4);
    let report = write(&dir, &ReportOptions::default()).unwrap();
    assert_eq!(report.charts.len(), 4);
    assert!(report
        .skipped
        .iter()
        .any(|n| n.contains("only one strategy")));
    assert!(std::fs::read_to_string(dir.join("report.md"))
        .unwrap()
        .contains("only one strategy"));

    let (_keep, dir) = run_dir(&["dlx", "bitset-mrv"], 1);
    let report = write(&dir, &ReportOptions::default()).unwrap();
    assert_eq!(report.charts.len(), 6, "{:?}", report.skipped);

    let (_keep, dir) = run_dir(&["dlx", "bitset-mrv"], 3);
    let opts = ReportOptions {
        compare: Some(("dlx".into(), "quantum".into())),
        ..ReportOptions::default()
    };
    let report = write(&dir, &opts).unwrap();
    assert!(report.skipped.iter().any(|n| n.contains("quantum")));
}

/// The summary of `run_dir` with the relative-speed columns filled: `speeds` gives
/// each variant's `(speed, lo, hi)` against the first.
fn with_speeds(dir: &Path, speeds: &[(f64, f64, f64)]) {
    let path = dir.join("summary.csv");
    let text = std::fs::read_to_string(&path).unwrap();
    let mut out = String::new();
    for (i, line) in text.lines().enumerate() {
        if i == 0 {
            out.push_str(&format!(
                "{line},reference,speed,speed_lo,speed_hi,faster_pct\n"
            ));
        } else {
            let (s, lo, hi) = speeds[i - 1];
            out.push_str(&format!("{line},dlx,{s},{lo},{hi},50\n"));
        }
    }
    std::fs::write(&path, out).unwrap();
}

#[test]
fn relative_speed_is_drawn_with_whiskers_around_the_reference() {
    let (_keep, dir) = run_dir(&["dlx", "bitset-mrv", "backtracking"], 6);
    with_speeds(
        &dir,
        &[(1.0, 1.0, 1.0), (2.5, 2.2, 2.9), (0.04, 0.03, 0.05)],
    );
    let report = write(&dir, &ReportOptions::default()).unwrap();
    let c = report
        .charts
        .iter()
        .find(|c| c.name == "relative-speed-tiny")
        .unwrap_or_else(|| panic!("no relative-speed chart: {:?}", report.skipped));
    assert!(c.svg.contains("speed relative to dlx"));
    for v in ["dlx", "bitset-mrv", "backtracking"] {
        assert!(
            c.svg.contains(&format!("\n{v}\n</text>")),
            "{v} has no row label"
        );
    }
    // Fastest on top: the y position of each row's label grows with slowness.
    let y_of = |v: &str| -> f64 {
        let end = c.svg.find(&format!("\n{v}\n</text>")).unwrap();
        let tag = &c.svg[c.svg[..end].rfind("<text").unwrap()..end];
        let y = tag.split(" y=\"").nth(1).unwrap();
        y[..y.find('"').unwrap()].parse().unwrap()
    };
    assert!(y_of("bitset-mrv") < y_of("dlx") && y_of("dlx") < y_of("backtracking"));
    // A run saved before rounds (no round column, no run.json) says what its intervals cover.
    for file in ["report.md", "report.html"] {
        let text = std::fs::read_to_string(dir.join(file)).unwrap();
        assert!(
            text.contains("95% intervals cover the puzzles only"),
            "{file}"
        );
    }
    // Without a second strategy there is nothing to relate.
    let (_keep, one) = run_dir(&["dlx"], 6);
    with_speeds(&one, &[(1.0, 1.0, 1.0)]);
    let report = write(&one, &ReportOptions::default()).unwrap();
    assert!(!report
        .charts
        .iter()
        .any(|c| c.name.starts_with("relative-speed")));
}

#[test]
fn html_opens_with_the_overview_then_one_section_per_dataset_tables_collapsed() {
    let (_keep, dir) = run_dir(&["dlx", "bitset-mrv"], 6);
    with_speeds(&dir, &[(1.0, 1.0, 1.0), (0.004, 0.003, 0.005)]);
    let report = write(&dir, &ReportOptions::default()).unwrap();
    let html = std::fs::read_to_string(dir.join("report.html")).unwrap();
    let at = |needle: &str| {
        html.find(needle)
            .unwrap_or_else(|| panic!("report.html lacks {needle}"))
    };
    // Sentences, then the overview (matrix and throughput), then the dataset's section.
    let overview = at("<h2 id=\"overview\">");
    assert!(at("<ul class=\"said\">") < overview);
    assert!(overview < at("<table class=\"heat\" id=\"speed-matrix\">"));
    assert!(at("<table class=\"heat\"") < at("<figure id=\"throughput\">"));
    let section = at("<h2 id=\"dataset-tiny\">");
    assert!(at("<figure id=\"throughput\">") < section);
    for c in report.charts.iter().filter(|c| c.name != "throughput") {
        assert!(
            at(&format!("<figure id=\"{}\">", c.name)) > section,
            "{}",
            c.name
        );
    }
    // The matrix: one row per strategy, the reference marked, a slow speed readable.
    let start = at("id=\"speed-matrix\"");
    let matrix = &html[start..start + html[start..].find("</table>").unwrap()];
    assert_eq!(matrix.matches("<tr><th class=\"row\">").count(), 2);
    assert_eq!(matrix.matches(">ref</td>").count(), 1);
    assert!(matrix.contains(">1/250×</td>"), "{matrix}");
    assert!(matrix.contains("background:hsl("));
    // Every table is inside a closed <details>: collapsed, yet in the page without scripts.
    let tables = html.matches("<table id=").count();
    assert_eq!(
        tables, 3,
        "the dataset's summary, then all summary and relative rows"
    );
    let mut in_details = 0;
    for part in html.split("<details class=\"tables\">").skip(1) {
        let body = &part[..part.find("</details>").unwrap()];
        in_details += body.matches("<table id=").count();
    }
    assert_eq!(in_details, tables);
    assert!(!html.contains("<details open"));
}

#[test]
fn html_tables_sort_by_number_and_filter_by_dataset() {
    let (_keep, dir) = run_dir(&["dlx", "bitset-mrv"], 6);
    with_speeds(&dir, &[(1.0, 1.0, 1.0), (2.5, 2.2, 2.9)]);
    // A second dataset, so the filter has something to choose.
    let summary = std::fs::read_to_string(dir.join("summary.csv")).unwrap();
    let extra = summary.lines().nth(1).unwrap().replace(",tiny,", ",other,");
    std::fs::write(dir.join("summary.csv"), format!("{summary}{extra}\n")).unwrap();
    write(&dir, &ReportOptions::default()).unwrap();
    let html = std::fs::read_to_string(dir.join("report.html")).unwrap();
    for id in ["summary", "relative"] {
        let start = html
            .find(&format!("<table id=\"{id}\" class=\"sortable\">"))
            .unwrap();
        let table = &html[start..start + html[start..].find("</table>").unwrap()];
        assert!(
            table.contains("<thead>") && table.contains("<tbody>"),
            "{id}"
        );
        // Every numeric cell carries the number it sorts by, equal to what it shows.
        let mut cells = 0;
        for cell in table.split("<td class=\"n\" data-v=\"").skip(1) {
            let (v, rest) = cell.split_once("\">").unwrap();
            let shown = &rest[..rest.find("</td>").unwrap()];
            let v: f64 = v.parse().unwrap_or_else(|_| panic!("{id}: data-v {v:?}"));
            let first: String = shown
                .chars()
                .filter(|c| *c != ',')
                .take_while(|c| c.is_ascii_digit() || *c == '.')
                .collect();
            if let Ok(x) = first.parse::<f64>() {
                assert_eq!(v, x, "{id}: {shown:?}");
            }
            cells += 1;
        }
        assert!(cells > 0, "{id} has no numeric cells");
        assert!(table.contains("<tr data-dataset=\"tiny\">"));
    }
    assert!(html.contains("<tr data-dataset=\"other\">"));
    // The filter is hidden until the script shows it, and lists each dataset once.
    assert!(html.contains("<p id=\"dataset-filter\" hidden>"));
    assert_eq!(html.matches("<option>tiny</option>").count(), 1);
    assert_eq!(html.matches("<option>other</option>").count(), 1);
    assert_eq!(sort_value("1,234"), "1234");
    assert_eq!(sort_value("2.40×–2.60×"), "2.4");
    assert_eq!(sort_value("-"), "-Infinity");
}

#[test]
fn big_runs_make_small_charts() {
    // 30,000 puzzles for each of two strategies: every curve is thinned and every
    // scatter sampled, so no chart grows with the run.
    let (_keep, dir) = run_dir(&["dlx", "bitset-mrv"], 30_000);
    let report = write(&dir, &ReportOptions::default()).unwrap();
    for c in &report.charts {
        assert!(c.svg.len() < 1 << 20, "{}: {} bytes", c.name, c.svg.len());
    }
    let h2h = report
        .charts
        .iter()
        .find(|c| c.name == "head-to-head-tiny")
        .unwrap();
    assert!(
        h2h.caption.contains(
            "seeded random sample of 5000 of the 30000 puzzles (counts are over the sample)"
        ),
        "{}",
        h2h.caption
    );
    assert!(h2h.svg.matches("<circle").count() <= charts::MAX_DOTS + 10);
    let html = std::fs::metadata(dir.join("report.html")).unwrap().len();
    assert!(html < 5 << 20, "report.html is {html} bytes");
}

/// The same two-variant run of `puzzles` puzzles, `repeats` solves each, saved
/// the old way (a row per solve, the puzzle's text in each) or the current
/// way (a row per puzzle); puzzle i's solves take 1000·(i+1)·(k+1) + 10·repeat ns.
fn both_forms(puzzles: u64, repeats: u64, per_solve: bool) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().to_path_buf();
    let mut results = if per_solve {
        format!("{HEADER}\n")
    } else {
        format!(
            "{}\n",
            <crate::harness::PuzzleResult as crate::columns::Columns>::COLUMNS.join(",")
        )
    };
    let mut summary = format!("{SUMMARY_HEADER}\n");
    for (k, v) in ["dlx", "bitset-mrv"].iter().enumerate() {
        let ns = |i: u64, r: u64| 1000 * (i + 1) * (k as u64 + 1) + 10 * r;
        for i in 0..puzzles {
            if per_solve {
                for r in 0..repeats {
                    results.push_str(&format!(
                        "{v},{v},tiny,{i},{r},{},unique,1,{},0,{},1,\n",
                        ".".repeat(81),
                        10 + i,
                        ns(i, r)
                    ));
                }
            } else {
                let median = ns(i, (repeats - 1) / 2);
                results.push_str(&format!(
                    "{v},{v},tiny,{i},0,unique,1,{},0,{repeats},{median},{},,1,\n",
                    10 + i,
                    ns(i, 0)
                ));
            }
        }
        summary.push_str(&format!(
            "{v},{v},tiny,1,{puzzles},{puzzles},0,0,0,1000,1,1,1,1,1,0.0,100.0,0.1\n"
        ));
    }
    std::fs::write(path.join("results.csv"), results).unwrap();
    std::fs::write(path.join("summary.csv"), summary).unwrap();
    (dir, path)
}

#[test]
fn a_run_saved_a_row_per_solve_loads_a_point_per_puzzle_and_reports() {
    let (_old, old) = both_forms(7, 5, true);
    let (_new, new) = both_forms(7, 5, false);
    let (a, b) = (load_points(&old).unwrap(), load_points(&new).unwrap());
    assert!(a.per_solve && !b.per_solve);
    // One point per puzzle either way, with the same median and solves.
    let key = |d: &RunData| {
        let mut k: Vec<(usize, u64, u64, u32)> = d
            .points
            .iter()
            .map(|p| (p.variant, p.puzzle, p.solve_ns, p.solves))
            .collect();
        k.sort();
        k
    };
    assert_eq!(a.points.len(), 2 * 7);
    assert_eq!(key(&a), key(&b));
    assert!(a.points.iter().all(|p| p.solves == 5));
    // The cactus and distribution curves take each puzzle once.
    for d in [&a, &b] {
        for s in &d.series {
            assert_eq!((s.rows, s.solved.len(), s.sample.len()), (7, 7, 7));
        }
    }
    for dir in [&old, &new] {
        let report = write(dir, &ReportOptions::default()).unwrap();
        assert!(report.charts.iter().any(|c| c.name == "cactus-tiny"));
    }
}

#[test]
fn a_current_results_csv_missing_its_times_is_located() {
    let (_keep, dir) = both_forms(3, 1, false);
    let results = std::fs::read_to_string(dir.join("results.csv")).unwrap();
    std::fs::write(
        dir.join("results.csv"),
        results.replace(",solves,", ",passes,"),
    )
    .unwrap();
    let e = load(&dir).unwrap_err().to_string();
    assert!(
        e.contains("results.csv:1:1: missing column `solves`"),
        "{e}"
    );
}

#[test]
fn a_contender_without_guesses_is_said_to_report_none_not_to_solve_none() {
    let (_keep, dir) = run_dir(&["table"], 5);
    // The same rows with the nodes and guesses columns left empty, as an
    // outside program that counts nothing leaves them.
    let text = std::fs::read_to_string(dir.join("results.csv")).unwrap();
    let blanked: String = text
        .lines()
        .enumerate()
        .map(|(i, l)| {
            if i == 0 {
                return format!("{l}\n");
            }
            let mut f: Vec<&str> = l.split(',').collect();
            (f[8], f[9]) = ("", "");
            format!("{}\n", f.join(","))
        })
        .collect();
    std::fs::write(dir.join("results.csv"), blanked).unwrap();
    let report = write(&dir, &ReportOptions::default()).unwrap();
    let note = report
        .skipped
        .iter()
        .find(|s| s.starts_with("What makes a puzzle hard"))
        .expect("the hardness chart is skipped");
    assert!(note.contains("table does not report its guesses"), "{note}");
    assert!(!note.contains("solved no puzzle"), "{note}");
}
