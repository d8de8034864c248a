//! What a chart's data line says: the run's measure, machine and build,
//! and how much of a dataset its dots sample.

use super::MAX_DOTS;

/// The machine and build of a run, for a chart's data line: `AMD EPYC (2
/// cores), sudoku-bench 0.1.0 (8f34ad2)`, with its GPUs where it has any,
/// and the day it started (`run 2026-11-29`) where known.
pub fn machine_line(info: &crate::harness::RunInfo) -> String {
    let commit: String = info.git_commit.chars().take(7).collect();
    let label = info
        .options
        .label
        .as_ref()
        .map_or(String::new(), |l| format!("; label {l}"));
    let gpus = match info.gpus.as_slice() {
        [] => String::new(),
        g => format!(", GPU {}", g.join(", ")),
    };
    let day: String = info.started.chars().take(10).collect();
    let day = match day.len() {
        10 => format!("; run {day}"),
        _ => String::new(),
    };
    format!(
        "{} ({} cores){gpus}, sudoku-bench {} ({commit}){label}{day}",
        info.cpu_model, info.cores, info.version
    )
}

/// [`machine_line`] for this machine and build, for a chart drawn outside a
/// bench run (a hunt, a scaling run).
pub fn machine_here() -> String {
    let info = crate::harness::RunInfo::new(Default::default(), Vec::new(), Vec::new());
    machine_line(&info)
}

/// What a run's chart shows, for its data line: how it was measured, then
/// [`machine_line`]; `puzzles` names the dataset when the chart has one.
pub fn run_line(info: &crate::harness::RunInfo, puzzles: Option<(&str, u64, u64)>) -> String {
    let t = info.options.threads;
    described(
        info,
        puzzles,
        format!("{t} thread{}", if t == 1 { "" } else { "s" }),
    )
}

/// [`run_line`] for a chart drawn over several of the run's datasets:
/// how many, and their puzzles (`5 datasets, 1,500 puzzles; ...`).
pub fn run_line_over(info: &crate::harness::RunInfo, datasets: &[String]) -> String {
    let drawn: Vec<_> = info
        .datasets
        .iter()
        .filter(|d| datasets.contains(&d.name))
        .collect();
    let line = run_line(info, None);
    if drawn.is_empty() {
        return line;
    }
    let run: u64 = drawn.iter().map(|d| d.puzzles_run).sum();
    let of: u64 = drawn.iter().map(|d| d.puzzles_in_source).sum();
    let puzzles = match run < of {
        true => format!(
            "{} of their {} puzzles",
            crate::stats::thousands(run),
            crate::stats::thousands(of)
        ),
        false => format!("{} puzzles", crate::stats::thousands(run)),
    };
    format!(
        "{} dataset{}, {puzzles}; {line}",
        drawn.len(),
        if drawn.len() == 1 { "" } else { "s" }
    )
}

/// [`run_line`] for a scaling run's chart: the thread counts it ran,
/// from the first count's record (every count's options but the threads
/// are the same).
pub fn counts_line(
    info: &crate::harness::RunInfo,
    puzzles: Option<(&str, u64, u64)>,
    counts: &[usize],
) -> String {
    let counts: Vec<String> = counts.iter().map(usize::to_string).collect();
    described(info, puzzles, format!("threads {}", counts.join(", ")))
}

fn described(
    info: &crate::harness::RunInfo,
    puzzles: Option<(&str, u64, u64)>,
    threads: String,
) -> String {
    let o = &info.options;
    let mut s = match puzzles {
        Some((name, n, of)) if n < of => format!(
            "{name}: {} of its {} puzzles; ",
            crate::stats::thousands(n),
            crate::stats::thousands(of)
        ),
        Some((name, n, _)) => format!("{name}: {} puzzles; ", crate::stats::thousands(n)),
        None => String::new(),
    };
    // The dataset's own rounds (fewer than asked on a small one); across
    // datasets, the most any was measured in.
    let (rounds, up_to) = match puzzles {
        Some((name, _, _)) => (info.rounds_of(name), ""),
        None => {
            let most = info.most_rounds();
            let fewer = info.datasets.iter().any(|d| info.rounds_of(&d.name) < most);
            (most, if fewer { "up to " } else { "" })
        }
    };
    s += &format!(
        "mode {}, {threads}, {up_to}{rounds} round{}, {}; {}",
        o.mode,
        if rounds == 1 { "" } else { "s" },
        measure_words(o.measure),
        machine_line(info)
    );
    s
}

/// What a run measured, for a data line: `timed`, `instructions counted by
/// callgrind`, or the CPU's counters read.
pub fn measure_words(m: crate::harness::plan::Measure) -> String {
    use crate::harness::plan::Measure;
    match m {
        Measure::Time => "timed".into(),
        Measure::Instructions => "instructions counted by callgrind".into(),
        Measure::Counters(events) => format!("timed, counters {}", Measure::Counters(events)),
    }
}

/// The sentence a scatter plot's caption ends with when it drew a sample:
/// `points` dots were available out of a dataset of `population` puzzles
/// (`None`: every puzzle was available).
pub fn sampled_note(points: usize, population: Option<u64>) -> String {
    let drawn = points.min(MAX_DOTS);
    match population {
        Some(n) if (drawn as u64) < n => format!(
            " Drawn from a seeded random sample of {drawn} of the {n} puzzles (counts are over the sample)."
        ),
        _ if drawn < points => {
            format!(" Drawn from a seeded random sample of {drawn} of the {points} puzzles.")
        }
        _ => String::new(),
    }
}

/// The data lines of several runs drawn on one chart, as one: what every
/// run's line says (its `; `-separated parts) said once after the runs'
/// names, then what each says alone: `M1, M2: hard-9x9: 30 puzzles; ...;
/// M1: label v1; M2: label v2`.
pub fn runs_line(names: &[&str], lines: &[String]) -> String {
    let parts: Vec<Vec<&str>> = lines.iter().map(|l| l.split("; ").collect()).collect();
    let Some(first) = parts.first() else {
        return String::new();
    };
    let shared: Vec<&str> = first
        .iter()
        .copied()
        .filter(|p| parts.iter().all(|q| q.contains(p)))
        .collect();
    let mut line = format!("{}: {}", names.join(", "), shared.join("; "));
    for (name, own) in names.iter().zip(&parts) {
        let own: Vec<&str> = own
            .iter()
            .copied()
            .filter(|p| !shared.contains(p))
            .collect();
        if !own.is_empty() {
            line += &format!("; {name}: {}", own.join(", "));
        }
    }
    line
}

#[cfg(test)]
mod tests {
    #[test]
    fn runs_say_once_what_they_share_and_alone_what_they_do_not() {
        let a = "hard-9x9: 30 puzzles; mode unique, 2 threads; Xeon (2 cores); label v1; run 2026-11-29";
        let b = "hard-9x9: 30 puzzles; mode unique, 2 threads; Xeon (2 cores); label v2; run 2026-11-29";
        assert_eq!(
            super::runs_line(&["M1", "M2"], &[a.into(), b.into()]),
            "M1, M2: hard-9x9: 30 puzzles; mode unique, 2 threads; Xeon (2 cores); run 2026-11-29; M1: label v1; M2: label v2"
        );
        assert_eq!(
            super::runs_line(&["M1", "M2"], &[a.into(), a.into()]),
            format!("M1, M2: {a}")
        );
    }
}
