//! One report across machines, written: the sentences on where the
//! ranking or a ratio changes from machine to machine ([`changes`]), the
//! tables of machines and speeds, and `report.md` and `report.html` with
//! their charts ([`write`]).

use super::{gather, same_machines, Machine, MachinesReport, SharedDataset};
use crate::export::cells::{num, table};
use crate::harness::files;
use crate::report::charts::{render, MachineSpeed};
use crate::report::html::{esc, figure, STYLE};
use crate::report::load::ReportError;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// The sentences: for each dataset, each pair whose order differs between two
/// machines, and each ratio whose intervals on two machines do not overlap.
pub fn changes(machines: &[Machine], datasets: &[SharedDataset]) -> Vec<String> {
    let mut out = Vec::new();
    let label = |m: usize| format!("{} ({})", machines[m].label, machines[m].info.cpu_model);
    for d in datasets {
        let n = d.variants.len();
        for a in 0..n {
            for b in a + 1..n {
                let ratio = |m: usize| match (d.speeds[a][m], d.speeds[b][m]) {
                    (Some(x), Some(y)) if y.speed > 0.0 => Some(x.speed / y.speed),
                    _ => None,
                };
                let r: Vec<Option<f64>> = (0..machines.len()).map(ratio).collect();
                let faster = r
                    .iter()
                    .enumerate()
                    .find(|(_, x)| x.is_some_and(|x| x > 1.0));
                let slower = r
                    .iter()
                    .enumerate()
                    .find(|(_, x)| x.is_some_and(|x| x < 1.0));
                if let (Some((f, Some(rf))), Some((s, Some(rs)))) = (faster, slower) {
                    out.push(format!(
                        "On {}, the ranking changes: {} is {}× as fast as {} on {}, and {}× on {}.",
                        d.name,
                        d.variants[a],
                        num(*rf),
                        d.variants[b],
                        label(f),
                        num(*rs),
                        label(s)
                    ));
                }
            }
        }
        for (v, row) in d.speeds.iter().enumerate() {
            if d.variants[v] == d.reference {
                continue;
            }
            for m1 in 0..machines.len() {
                for m2 in m1 + 1..machines.len() {
                    if let (Some(x), Some(y)) = (row[m1], row[m2]) {
                        if x.hi < y.lo || y.hi < x.lo {
                            out.push(format!(
                                "On {}, {}'s speed against {} moves from {}× [{}–{}] on {} to {}× [{}–{}] on {}: the intervals do not overlap, so the ratio depends on the machine.",
                                d.name, d.variants[v], d.reference,
                                num(x.speed), num(x.lo), num(x.hi), label(m1),
                                num(y.speed), num(y.lo), num(y.hi), label(m2)
                            ));
                        }
                    }
                }
            }
        }
    }
    if out.is_empty() {
        out.push(
            "The ranking holds on every machine, and every ratio's intervals overlap from one machine to the next."
                .into(),
        );
    }
    for d in datasets {
        out.extend(instruction_changes(machines, d));
    }
    out
}

/// For runs that counted instructions: which contenders count the same on
/// every machine (as they should: a count does not depend on a machine's
/// speed), and each that does not, with the difference (another build, or
/// another instruction-set path).
fn instruction_changes(machines: &[Machine], d: &SharedDataset) -> Vec<String> {
    let label = |m: usize| format!("{} ({})", machines[m].label, machines[m].info.cpu_model);
    let mut out = Vec::new();
    let mut same = Vec::new();
    for (v, row) in d.speeds.iter().enumerate() {
        let counts: Vec<(usize, f64)> = row
            .iter()
            .enumerate()
            .filter_map(|(m, s)| s.and_then(|s| s.instructions).map(|n| (m, n)))
            .collect();
        let Some(&(m0, n0)) = counts.first() else {
            continue;
        };
        if counts.len() < 2 {
            continue;
        }
        match counts.iter().find(|(_, n)| *n != n0) {
            None => same.push(d.variants[v].clone()),
            Some(&(m, n)) => out.push(format!(
                "On {}, {} counts {} instructions a puzzle on {} and {} on {} ({:+.2}%): a count does not depend on the machine's speed, so the code that ran differs (another build, or another instruction-set path).",
                d.name,
                d.variants[v],
                num(n0),
                label(m0),
                num(n),
                label(m),
                100.0 * (n / n0 - 1.0)
            )),
        }
    }
    if !same.is_empty() {
        out.insert(
            0,
            format!(
                "On {}, instructions per puzzle are the same on every machine for {}: counted by callgrind, they do not depend on a machine's speed, so they compare directly.",
                d.name,
                same.join(", ")
            ),
        );
    }
    out
}

fn machine_rows(machines: &[Machine]) -> (Vec<&'static str>, Vec<Vec<String>>) {
    let header = vec![
        "machine",
        "run",
        "CPU",
        "cores",
        "instruction set",
        "OS",
        "threads",
        "commit",
        "started",
    ];
    let rows = machines
        .iter()
        .map(|m| {
            vec![
                m.label.clone(),
                m.dir.display().to_string(),
                m.info.cpu_model.clone(),
                m.info.cores.to_string(),
                if m.info.isa.is_empty() {
                    "not recorded".into()
                } else {
                    m.info.isa.clone()
                },
                m.info.os.clone(),
                m.info.options.threads.to_string(),
                m.info.git_commit.clone(),
                m.info.started.clone(),
            ]
        })
        .collect();
    (header, rows)
}

fn speed_rows(machines: &[Machine], d: &SharedDataset) -> (Vec<String>, Vec<Vec<String>>) {
    let counted = d
        .speeds
        .iter()
        .flatten()
        .flatten()
        .any(|s| s.instructions.is_some());
    // A counted run's ratio is of counts, exact; its times (valgrind's)
    // say nothing of a speed, so it has no puzzles/s.
    let mut header = vec!["variant".to_string()];
    for m in machines {
        match counted {
            true => header.push(format!("{} work ({}'s count / own)", m.label, d.reference)),
            false => {
                header.push(format!("{} speed [95%]", m.label));
                header.push(format!("{} puzzles/s", m.label));
            }
        }
    }
    if counted {
        for m in machines {
            header.push(format!("{} instructions/puzzle", m.label));
        }
    }
    let rows = d
        .variants
        .iter()
        .zip(&d.speeds)
        .map(|(v, row)| {
            let mut cells = vec![if *v == d.reference {
                format!("{v} (reference)")
            } else {
                v.clone()
            }];
            for s in row {
                match s {
                    Some(_) if counted && *v == d.reference => cells.push("1×".into()),
                    Some(s) if counted => cells.push(format!("{}×", num(s.speed))),
                    None if counted => cells.push("-".into()),
                    Some(s) if *v == d.reference => {
                        cells.extend(["1×".into(), num(s.puzzles_per_sec)])
                    }
                    Some(s) => cells.extend([
                        format!("{}× [{}–{}]", num(s.speed), num(s.lo), num(s.hi)),
                        num(s.puzzles_per_sec),
                    ]),
                    None => cells.extend(["-".into(), "-".into()]),
                }
            }
            if counted {
                cells.extend(
                    row.iter()
                        .map(|s| s.and_then(|s| s.instructions).map_or("-".into(), num)),
                );
            }
            cells
        })
        .collect();
    (header, rows)
}

/// Builds the report across machines into `out`: `report.md`, `report.html`
/// and a chart per dataset under `charts/` (single-column figures too where
/// `paper`).
pub fn write(dirs: &[PathBuf], out: &Path, paper: bool) -> Result<MachinesReport, ReportError> {
    let (machines, datasets, left_out) = gather(dirs)?;
    let mut sentences = same_machines(&machines);
    sentences.extend(changes(&machines, &datasets));
    let charts_dir = out.join(files::CHARTS);
    crate::files::folder(&charts_dir).map_err(|source| ReportError::Write {
        path: charts_dir.clone(),
        source,
    })?;
    let mut charts = Vec::new();
    for d in &datasets {
        let mut points = Vec::new();
        for (v, row) in d.speeds.iter().enumerate() {
            for (m, s) in row.iter().enumerate() {
                if let Some(s) = s {
                    points.push((v, m, s.speed, s.lo, s.hi));
                }
            }
        }
        let chart = MachineSpeed {
            dataset: d.name.clone(),
            reference: d.reference.clone(),
            machines: crate::report::charts::machine_names(
                &machines
                    .iter()
                    .map(|m| (m.label.as_str(), &m.info, m.dir.as_path()))
                    .collect::<Vec<_>>(),
            ),
            variants: d.labels.clone(),
            failures: d.failures.clone(),
            points,
            counted: machines
                .iter()
                .all(|m| m.info.options.measure == crate::harness::plan::Measure::Instructions),
        };
        // Each run's own record of this dataset: its puzzles, mode and
        // threads, what it measured, its machine, build and day (its
        // folder is in the report's table, not in a figure).
        let lines: Vec<String> = machines
            .iter()
            .map(|m| {
                let ds = m.info.datasets.iter().find(|x| x.name == d.name);
                let one = ds.map(|x| (x.name.as_str(), x.puzzles_run, x.puzzles_in_source));
                crate::report::charts::run_line(&m.info, one)
            })
            .collect();
        let labels: Vec<&str> = machines.iter().map(|m| m.label.as_str()).collect();
        // What every run says, said once; what one says alone, after it.
        let line = crate::report::charts::runs_line(&labels, &lines);
        charts.push(
            render(&chart, &charts_dir, &line, paper).map_err(|message| ReportError::Draw {
                chart: format!("machines-{}", d.name),
                message,
            })?,
        );
    }
    let report = MachinesReport {
        machines,
        datasets,
        left_out,
        sentences,
        charts,
    };
    let io = |path: PathBuf| move |source| ReportError::Write { path, source };
    crate::files::write(out.join(files::REPORT_MD), markdown(&report))
        .map_err(io(out.join(files::REPORT_MD)))?;
    crate::files::write(
        out.join(files::REPORT_HTML),
        crate::report::charts::share_glyphs(&html(&report)),
    )
    .map_err(io(out.join(files::REPORT_HTML)))?;
    Ok(report)
}

fn intro() -> String {
    format!("Each contender's speed is its paired speed against the reference on the same machine, from that run's {}, with its 95% interval; datasets are matched by checksum. Runs that counted instructions (`--measure instructions`) show instead each contender's work against the reference (the reference's instructions per puzzle over its own, exact) and its instructions per puzzle, which do not depend on the machine's speed and compare directly.", files::SUMMARY_CSV)
}

fn markdown(r: &MachinesReport) -> String {
    let mut s = String::from("# sudoku-bench report across machines\n\n");
    let _ = writeln!(s, "{}\n", intro());
    for l in &r.sentences {
        let _ = writeln!(s, "- {l}");
    }
    let (h, rows) = machine_rows(&r.machines);
    let _ = write!(
        s,
        "\n## Machines\n\n{}",
        table(&h, &rows, &vec![false; h.len()])
    );
    if !r.left_out.is_empty() {
        let _ = writeln!(
            s,
            "\nLeft out (not in every run, or one contender only): {}.",
            r.left_out.join(", ")
        );
    }
    for d in &r.datasets {
        let (h, rows) = speed_rows(&r.machines, d);
        let hr: Vec<&str> = h.iter().map(String::as_str).collect();
        let right: Vec<bool> = (0..h.len()).map(|i| i > 0).collect();
        let _ = write!(s, "\n## {}\n\n{}", d.name, table(&hr, &rows, &right));
        if let Some(c) = r
            .charts
            .iter()
            .find(|c| c.name == format!("machines-{}", crate::report::slug(&d.name)))
        {
            let _ = writeln!(
                s,
                "\n![{}](charts/{}.svg)\n\n{}",
                c.title, c.name, c.caption
            );
        }
    }
    s
}

pub(crate) fn html_table(s: &mut String, header: &[&str], rows: &[Vec<String>]) {
    s.push_str("<div class=\"scroll\"><table>\n<tr>");
    for h in header {
        let _ = write!(s, "<th>{}</th>", esc(h));
    }
    s.push_str("</tr>\n");
    for r in rows {
        s.push_str("<tr>");
        for (i, c) in r.iter().enumerate() {
            let class = if i > 0 && header.len() > 2 && header[i].contains(['%', '/']) {
                " class=\"n\""
            } else {
                ""
            };
            let _ = write!(s, "<td{class}>{}</td>", esc(c));
        }
        s.push_str("</tr>\n");
    }
    s.push_str("</table></div>\n");
}

fn html(r: &MachinesReport) -> String {
    let mut s = format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width,initial-scale=1\">\n\
         <title>sudoku-bench report across machines</title>\n<style>\n{STYLE}</style>\n</head>\n<body>\n\
         <h1>sudoku-bench report across machines</h1>\n<p class=\"note\">{}</p>\n<ul class=\"said\">\n",
        esc(&intro())
    );
    for l in &r.sentences {
        let _ = writeln!(s, "<li>{}</li>", esc(l));
    }
    s.push_str("</ul>\n<h2>Machines</h2>\n");
    let (h, rows) = machine_rows(&r.machines);
    html_table(&mut s, &h, &rows);
    if !r.left_out.is_empty() {
        let _ = writeln!(
            s,
            "<p class=\"note\">Left out (not in every run, or one contender only): {}.</p>",
            esc(&r.left_out.join(", "))
        );
    }
    for d in &r.datasets {
        let _ = writeln!(s, "<h2>{}</h2>", esc(&d.name));
        let (h, rows) = speed_rows(&r.machines, d);
        let hr: Vec<&str> = h.iter().map(String::as_str).collect();
        html_table(&mut s, &hr, &rows);
        if let Some(c) = r
            .charts
            .iter()
            .find(|c| c.name == format!("machines-{}", crate::report::slug(&d.name)))
        {
            figure(&mut s, c);
        }
    }
    s.push_str("</body>\n</html>\n");
    s
}

#[cfg(test)]
mod tests {
    use super::super::*;
    use super::*;

    fn machine(label: &str, cpu: &str) -> Machine {
        let mut info = RunInfo::new(Default::default(), Vec::new(), Vec::new());
        info.cpu_model = cpu.into();
        Machine {
            label: label.into(),
            dir: PathBuf::from(label),
            info,
        }
    }

    fn speed(speed: f64, lo: f64, hi: f64) -> Option<Speed> {
        Some(Speed {
            speed,
            lo,
            hi,
            puzzles_per_sec: 1.0,
            instructions: None,
        })
    }

    #[test]
    fn counts_that_match_and_one_that_differs_are_named() {
        let machines = [machine("M1", "zen"), machine("M2", "xeon")];
        let counted = |n: f64| {
            speed(1.0, 1.0, 1.0).map(|s| Speed {
                instructions: Some(n),
                ..s
            })
        };
        let d = SharedDataset {
            name: "top1465".into(),
            reference: "dlx".into(),
            variants: vec!["band".into(), "dlx".into(), "tdoku".into()],
            labels: vec!["band".into(), "dlx".into(), "tdoku".into()],
            failures: Vec::new(),
            speeds: vec![
                vec![counted(77_778.0), counted(77_778.0)],
                vec![counted(227_663.0), counted(227_663.0)],
                vec![counted(40_000.0), counted(41_000.0)],
            ],
        };
        let lines = instruction_changes(&machines, &d);
        assert_eq!(lines.len(), 2, "{lines:?}");
        assert!(
            lines[0].contains("the same on every machine for band, dlx"),
            "{}",
            lines[0]
        );
        assert!(
            lines[1].contains("tdoku counts 40,000 instructions a puzzle on M1 (zen) and 41,000 on M2 (xeon) (+2.50%)"),
            "{}",
            lines[1]
        );
        let (header, rows) = speed_rows(&machines, &d);
        assert_eq!(header.last().unwrap(), "M2 instructions/puzzle");
        assert_eq!(rows[2].last().unwrap(), "41,000");
        // Runs that counted nothing get no such column.
        let timed = SharedDataset {
            speeds: vec![vec![speed(1.0, 1.0, 1.0); 2]; 3],
            ..d
        };
        assert!(instruction_changes(&machines, &timed).is_empty());
        assert!(!speed_rows(&machines, &timed)
            .0
            .iter()
            .any(|h| h.contains("instructions")));
    }

    #[test]
    fn a_swapped_pair_and_a_moved_ratio_are_named() {
        let machines = [machine("M1", "zen"), machine("M2", "xeon")];
        let d = SharedDataset {
            name: "top1465".into(),
            reference: "tdoku".into(),
            variants: vec!["band".into(), "tdoku".into(), "dlx".into()],
            labels: vec!["band".into(), "tdoku".into(), "dlx".into()],
            failures: Vec::new(),
            speeds: vec![
                vec![speed(1.03, 1.01, 1.05), speed(0.90, 0.88, 0.92)],
                vec![speed(1.0, 1.0, 1.0), speed(1.0, 1.0, 1.0)],
                vec![speed(0.2, 0.18, 0.22), speed(0.21, 0.19, 0.23)],
            ],
        };
        let lines = changes(&machines, std::slice::from_ref(&d));
        assert_eq!(lines.len(), 2, "{lines:?}");
        assert!(lines[0].contains("ranking changes: band is 1.03× as fast as tdoku on M1 (zen), and 0.90× on M2 (xeon)"), "{}", lines[0]);
        assert!(lines[1].contains("band's speed against tdoku moves from 1.03× [1.01–1.05] on M1 (zen) to 0.90× [0.88–0.92] on M2 (xeon)"), "{}", lines[1]);
    }

    #[test]
    fn overlapping_intervals_and_one_order_say_the_ranking_holds() {
        let machines = [machine("M1", "a"), machine("M2", "b")];
        let d = SharedDataset {
            name: "x".into(),
            reference: "dlx".into(),
            variants: vec!["band".into(), "dlx".into()],
            labels: vec!["band".into(), "dlx".into()],
            failures: Vec::new(),
            speeds: vec![
                vec![speed(3.0, 2.8, 3.2), speed(3.1, 2.9, 3.3)],
                vec![speed(1.0, 1.0, 1.0), speed(1.0, 1.0, 1.0)],
            ],
        };
        let lines = changes(&machines, &[d]);
        assert_eq!(lines.len(), 1);
        assert!(lines[0].starts_with("The ranking holds on every machine"));
    }
}
