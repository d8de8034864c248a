//! One report across machines: runs of the same contenders and datasets made
//! on different machines (`sudoku-bench report RUN_A RUN_B …`), the machine a
//! dimension. Datasets are matched by checksum; each contender's speed is
//! read against its own machine's reference from each run's `summary.csv`, so
//! a ratio is always measured within one machine. Sentences name where the
//! ranking changes, and where one ratio's intervals on two machines do not
//! overlap.

mod write;
pub(crate) use write::html_table;
pub use write::{changes, write};

use super::charts::Rendered;
use super::load::{load, ReportError};
use crate::harness::files;
use crate::harness::plan::Measure;
use crate::harness::{DatasetInfo, RunInfo, SummaryRow};
use std::collections::HashMap;
use std::path::PathBuf;

/// One machine: the run made on it.
#[derive(Clone, Debug)]
pub struct Machine {
    /// Its label in tables and charts: `M1`, `M2`, ….
    pub label: String,
    /// The run folder.
    pub dir: PathBuf,
    /// The run's `run.json`.
    pub info: RunInfo,
}

/// One contender on one dataset on one machine.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Speed {
    /// Paired speed against the machine's reference (1 for the reference).
    pub speed: f64,
    /// Its 95% interval.
    pub lo: f64,
    /// Likewise.
    pub hi: f64,
    /// Puzzles per second of wall time.
    pub puzzles_per_sec: f64,
    /// Instructions per puzzle, in a run that counted them (`--measure
    /// instructions`): they do not depend on the machine's speed.
    pub instructions: Option<f64>,
}

/// One dataset the runs share.
#[derive(Clone, Debug)]
pub struct SharedDataset {
    /// Its name (the first run's).
    pub name: String,
    /// The reference every run measured against on it.
    pub reference: String,
    /// Variants, fastest first on the first machine.
    pub variants: Vec<String>,
    /// Each variant's name as tables and charts show it, marked where its
    /// origin is not built in (`sat-varisat (reference)`).
    pub labels: Vec<String>,
    /// Each variant that failed puzzles on some machine, said once:
    /// `partial failed 14 of 30 on M1 (8 wrong), 14 of 30 on M2 (8 wrong)`.
    pub failures: Vec<String>,
    /// `speeds[v][m]`: variant `v` on machine `m`.
    pub speeds: Vec<Vec<Option<Speed>>>,
}

/// The report across machines.
#[derive(Clone, Debug)]
pub struct MachinesReport {
    /// The machines, in the order given.
    pub machines: Vec<Machine>,
    /// The datasets every run measured.
    pub datasets: Vec<SharedDataset>,
    /// Datasets left out (not in every run), by name.
    pub left_out: Vec<String>,
    /// What changes between machines, in sentences.
    pub sentences: Vec<String>,
    /// The charts drawn.
    pub charts: Vec<Rendered>,
}

fn mismatch(message: String) -> ReportError {
    ReportError::Mismatch(message)
}

/// What a run's figures depend on besides the machine, in the command
/// line's words: runs that differ in any of it measured different things.
pub fn setting(info: &RunInfo) -> [(&'static str, String); 4] {
    let o = &info.options;
    let subset = match (o.limit, o.sample) {
        (None, None) => "every puzzle".to_string(),
        (Some(l), None) => format!("--limit {l}"),
        (None, Some(s)) => format!("--sample {s} (seed {})", o.seed),
        (Some(l), Some(s)) => format!("--limit {l} --sample {s} (seed {})", o.seed),
    };
    let order = if o.permute {
        format!("--permute (seed {})", o.seed)
    } else {
        "puzzles as given".into()
    };
    [
        ("mode", o.mode.to_string()),
        ("subset", subset),
        ("permutation", order),
        ("measure", o.measure.to_string()),
    ]
}

/// Refuses runs whose settings differ: the report would show a change of
/// mode, subset or measure as a change of machine.
fn alike(machines: &[Machine]) -> Result<(), ReportError> {
    let first = setting(&machines[0].info);
    let mut differences = Vec::new();
    for m in &machines[1..] {
        for ((what, a), (_, b)) in first.iter().zip(setting(&m.info)) {
            if *a != b {
                differences.push(format!(
                    "{what}: {b} in {}, {a} in {}",
                    m.dir.display(),
                    machines[0].dir.display()
                ));
            }
        }
    }
    if differences.is_empty() {
        return Ok(());
    }
    Err(mismatch(format!(
        "the runs measured different things, so a report across them would show that as a difference of machines: {}. Report runs of one setting together, or each on its own",
        differences.join("; ")
    )))
}

/// Machines that are one: the same CPU, cores, instruction set and OS.
/// A sentence for each group, so their differences read as run-to-run drift.
pub fn same_machines(machines: &[Machine]) -> Vec<String> {
    let key = |m: &Machine| {
        let i = &m.info;
        (i.cpu_model.clone(), i.cores, i.isa.clone(), i.os.clone())
    };
    let mut out = Vec::new();
    let mut told = vec![false; machines.len()];
    for a in 0..machines.len() {
        if told[a] {
            continue;
        }
        let group: Vec<usize> = (a..machines.len())
            .filter(|&b| key(&machines[b]) == key(&machines[a]))
            .collect();
        if group.len() > 1 {
            group.iter().for_each(|&g| told[g] = true);
            let labels: Vec<&str> = group.iter().map(|&g| machines[g].label.as_str()).collect();
            out.push(format!(
                "{} ran on one machine ({}, {} cores, the same instruction set and OS): what differs between them is the run, not the machine.",
                labels.join(" and "),
                machines[a].info.cpu_model,
                machines[a].info.cores
            ));
        }
    }
    out
}

/// The machines, the datasets they share, and the datasets left out.
pub type Gathered = (Vec<Machine>, Vec<SharedDataset>, Vec<String>);

/// Reads the runs and matches their datasets and contenders.
pub fn gather(dirs: &[PathBuf]) -> Result<Gathered, ReportError> {
    let (machines, summaries) = read_runs(dirs)?;
    alike(&machines)?;
    let runs = Runs::new(&machines, &summaries);
    let mut datasets = Vec::new();
    let mut left_out = Vec::new();
    for d in &machines[0].info.datasets {
        match runs.shared(d)? {
            Ok(shared) => datasets.push(shared),
            Err(why) => left_out.push(why),
        }
    }
    if datasets.is_empty() {
        return Err(mismatch(format!(
            "the runs share no dataset with two contenders measured in each (datasets are matched by checksum): {}",
            dirs.iter().map(|d| d.display().to_string()).collect::<Vec<_>>().join(", ")
        )));
    }
    Ok((machines, datasets, left_out))
}

/// Each run folder's machine (labelled `M1`, `M2`, … in order) and its
/// summary rows; a run without `run.json` is refused.
fn read_runs(dirs: &[PathBuf]) -> Result<(Vec<Machine>, Vec<Vec<SummaryRow>>), ReportError> {
    let mut machines = Vec::new();
    let mut summaries = Vec::new();
    for (i, dir) in dirs.iter().enumerate() {
        let data = load(dir)?;
        let info = data.info.ok_or_else(|| {
            mismatch(format!(
                "{} has no {}: a report across machines needs each run's machine",
                dir.display(),
                files::RUN_JSON
            ))
        })?;
        machines.push(Machine {
            label: format!("M{}", i + 1),
            dir: dir.clone(),
            info,
        });
        summaries.push(data.summary);
    }
    Ok((machines, summaries))
}

/// The runs read, and each one's datasets by checksum: what matching one
/// dataset of the first run across them reads.
struct Runs<'a> {
    machines: &'a [Machine],
    summaries: &'a [Vec<SummaryRow>],
    /// Per run, its datasets' names by checksum (those with one).
    sums: Vec<HashMap<&'a str, &'a str>>,
}

impl<'a> Runs<'a> {
    fn new(machines: &'a [Machine], summaries: &'a [Vec<SummaryRow>]) -> Runs<'a> {
        let sums = machines
            .iter()
            .map(|m| {
                m.info
                    .datasets
                    .iter()
                    .filter(|d| !d.sha256.is_empty())
                    .map(|d| (d.sha256.as_str(), d.name.as_str()))
                    .collect()
            })
            .collect();
        Runs {
            machines,
            summaries,
            sums,
        }
    }

    /// The first run's dataset `d` across the runs: `Ok(Err(_))` with its
    /// entry among those left out where not every run measured the same
    /// puzzles of it with two contenders in common.
    fn shared(&self, d: &DatasetInfo) -> Result<Result<SharedDataset, String>, ReportError> {
        if let Some(why) = self.unmatched(d) {
            return Ok(Err(why));
        }
        let names: Vec<&str> = self.sums.iter().map(|s| s[d.sha256.as_str()]).collect();
        let rows: Vec<Vec<&SummaryRow>> = self
            .summaries
            .iter()
            .zip(&names)
            .map(|(rows, name)| rows.iter().filter(|r| r.dataset == *name).collect())
            .collect();
        let reference = self.reference(d, &rows)?;
        let variants = in_common(&rows);
        if variants.len() < 2 {
            return Ok(Err(d.name.clone()));
        }
        let find = |v: &str, rs: &[&'a SummaryRow]| rs.iter().find(|r| r.variant == v).copied();
        let labels = variants
            .iter()
            .map(|v| {
                let origin = rows
                    .iter()
                    .find_map(|rs| find(v, rs))
                    .map_or("", |r| r.origin_word());
                crate::harness::record::label(v, origin)
            })
            .collect();
        let failures = variants
            .iter()
            .filter_map(|v| {
                let each: Vec<String> = rows
                    .iter()
                    .zip(self.machines)
                    .filter_map(|(rs, m)| {
                        let r = find(v, rs)?;
                        let failed = r.puzzles.saturating_sub(r.solved);
                        (failed > 0).then(|| {
                            let why: Vec<String> = [
                                (r.wrong, "wrong"),
                                (r.errors, "failed"),
                                (r.budget + r.memory, "stopped"),
                            ]
                            .into_iter()
                            .filter(|(n, _)| *n > 0)
                            .map(|(n, w)| format!("{n} {w}"))
                            .collect();
                            let why = match why.is_empty() {
                                true => String::new(),
                                false => format!(" ({})", why.join(", ")),
                            };
                            format!("{failed} of {} on {}{why}", r.puzzles, m.label)
                        })
                    })
                    .collect();
                (!each.is_empty()).then(|| format!("{v} failed {}", each.join(", ")))
            })
            .collect();
        Ok(Ok(SharedDataset {
            name: d.name.clone(),
            reference,
            speeds: self.speeds(&variants, &rows),
            variants,
            labels,
            failures,
        }))
    }

    /// Why `d` is left out before its rows are read: its entry, where some
    /// run lacks its checksum or ran another number of its puzzles.
    fn unmatched(&self, d: &DatasetInfo) -> Option<String> {
        if d.sha256.is_empty() || !self.sums.iter().all(|s| s.contains_key(d.sha256.as_str())) {
            return Some(d.name.clone());
        }
        // Every run measured the same puzzles of it.
        let runs: Vec<u64> = self
            .machines
            .iter()
            .map(|m| {
                m.info
                    .datasets
                    .iter()
                    .find(|o| o.sha256 == d.sha256)
                    .map_or(0, |o| o.puzzles_run)
            })
            .collect();
        if runs.iter().all(|&n| n == runs[0]) {
            return None;
        }
        let counts: Vec<String> = self
            .machines
            .iter()
            .zip(&runs)
            .map(|(m, n)| format!("{n} in {}", m.label))
            .collect();
        Some(format!("{} (puzzles run: {})", d.name, counts.join(", ")))
    }

    /// The reference the first run measured `d` against; refused where
    /// another run measured it against another.
    fn reference(&self, d: &DatasetInfo, rows: &[Vec<&SummaryRow>]) -> Result<String, ReportError> {
        let machines = self.machines;
        let reference = rows[0]
            .first()
            .map(|r| r.reference.clone())
            .unwrap_or_default();
        for (m, rs) in machines.iter().zip(rows).skip(1) {
            if let Some(other) = rs.iter().map(|r| &r.reference).find(|r| **r != reference) {
                return Err(mismatch(format!(
                    "{}: the run in {} measured {} against {other}, the one in {} against {reference}: \
                     run both with the same --reference",
                    d.name,
                    m.dir.display(),
                    d.name,
                    machines[0].dir.display()
                )));
            }
        }
        Ok(reference)
    }

    /// `speeds[v][m]`: each of `variants` on each machine, from its rows.
    fn speeds(&self, variants: &[String], rows: &[Vec<&SummaryRow>]) -> Vec<Vec<Option<Speed>>> {
        variants
            .iter()
            .map(|v| {
                rows.iter()
                    .zip(self.machines)
                    .map(|(rs, m)| {
                        // callgrind's counts only: the CPU's move with the machine.
                        let exact = m.info.options.measure == Measure::Instructions;
                        rs.iter().find(|r| &r.variant == v).and_then(|r| {
                            if exact {
                                // Valgrind's times say nothing of a speed:
                                // the reference's count over this one's,
                                // exact (no interval).
                                let own = r.instructions_per_puzzle.filter(|n| *n > 0.0)?;
                                let base = rs
                                    .iter()
                                    .find(|o| o.variant == r.reference)?
                                    .instructions_per_puzzle?;
                                let s = base / own;
                                return Some(Speed {
                                    speed: s,
                                    lo: s,
                                    hi: s,
                                    puzzles_per_sec: r.puzzles_per_sec,
                                    instructions: Some(own),
                                });
                            }
                            let speed = if *v == r.reference {
                                Some(1.0)
                            } else {
                                r.speed
                            };
                            speed.map(|s| Speed {
                                speed: s,
                                lo: r.speed_lo.unwrap_or(s),
                                hi: r.speed_hi.unwrap_or(s),
                                puzzles_per_sec: r.puzzles_per_sec,
                                instructions: r.instructions_per_puzzle.filter(|_| exact),
                            })
                        })
                    })
                    .collect()
            })
            .collect()
    }
}

/// The contenders every run measured on a dataset (`rows`, run by run),
/// fastest first on the first machine.
fn in_common(rows: &[Vec<&SummaryRow>]) -> Vec<String> {
    let mut variants: Vec<(String, f64)> = rows[0]
        .iter()
        .filter(|r| {
            rows.iter()
                .all(|rs| rs.iter().any(|o| o.variant == r.variant))
        })
        .map(|r| (r.variant.clone(), r.speed.unwrap_or(0.0)))
        .collect();
    variants.sort_by(|a, b| b.1.total_cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    variants.into_iter().map(|v| v.0).collect()
}
