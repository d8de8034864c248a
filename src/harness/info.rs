//! What `run.json` records: enough to reproduce and compare a run.

use super::plan::RunOptions;
use super::prepare::DatasetInfo;
use serde::{Deserialize, Serialize};

/// Everything `run.json` holds.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct RunInfo {
    /// Always `sudoku-bench`.
    pub tool: String,
    /// Crate version.
    pub version: String,
    /// Git commit the binary was built from (`-dirty` with local changes).
    pub git_commit: String,
    /// rustc that built it.
    pub rustc: String,
    /// CPU model name.
    pub cpu_model: String,
    /// Logical cores.
    pub cores: usize,
    /// The GPUs the machine has, by model, where the driver says
    /// (`/proc/driver/nvidia`); empty in older runs and where there is none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub gpus: Vec<String>,
    /// The host's instruction-set extensions that the solvers can use, the
    /// same whatever the measure (empty in older runs; older counted runs
    /// recorded valgrind's narrower set here).
    #[serde(default)]
    pub isa: String,
    /// A counted run's: the narrower set the solvers saw under valgrind
    /// (which hides AVX-512), recorded apart from the host's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub valgrind_isa: Option<String>,
    /// OS and kernel.
    pub os: String,
    /// The command line.
    pub command: Vec<String>,
    /// Options.
    pub options: RunOptions,
    /// Start, RFC 3339 UTC.
    pub started: String,
    /// End, RFC 3339 UTC (empty while running).
    pub finished: String,
    /// True when the run was interrupted.
    pub interrupted: bool,
    /// Wrong answers over the run.
    pub wrong: u64,
    /// Strategy panics over the run.
    pub errors: u64,
    /// The datasets, with size and checksum.
    pub datasets: Vec<DatasetInfo>,
    /// Strategy × dataset pairs not run: the strategy does not handle the size.
    #[serde(default)]
    pub skipped: Vec<super::Skipped>,
    /// Rounds that ran to their end over every dataset (absent before rounds existed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rounds_complete: Option<usize>,
    /// Where the process's time went: the timed solves against the tool's own
    /// work (absent in older runs).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub own_time: Option<OwnTime>,
    /// The pipe's floor: the median round trip of a puzzle line to a program
    /// of the workbench's own that answers at once, ns (runs with programs only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pipe_floor_ns: Option<u64>,
    /// What a run that was cut short (killed) lacks, a line per contender and
    /// dataset short of rows; filled when its summary is rebuilt from its rows.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub incomplete: Vec<String>,
    /// Times the run was resumed (`bench --resume`) after it was cut short.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub resumed: u32,
    /// Contenders given up during the run (a crash loop), each with why.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub given_up: Vec<String>,
    /// What the reference verdicts cost (untimed, before the run).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub verdicts: Option<super::verdicts::VerdictCost>,
    /// The contenders as the run began with them, and the files they run
    /// (absent in older runs): what `bench --resume` checks them against.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub contender_prints: Option<Vec<super::prints::ContenderPrint>>,
}

/// The tool's own cost beside the solvers', in seconds of wall time (the
/// timed solves in seconds summed over the workers).
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
pub struct OwnTime {
    /// Reading and checking the datasets, and starting outside programs.
    pub load_s: f64,
    /// The schedule: warm-up, timed solves, checking and writing rows.
    pub run_s: f64,
    /// The timed solves, summed over the workers.
    pub timed_solves_s: f64,
    /// The coordinating thread's busy time during the schedule: passing the
    /// workers' rows to `results.csv` (with fewer workers than cores it also
    /// makes the records, on a core of its own). The serial part of the run.
    #[serde(default)]
    pub writer_s: f64,
    /// Medians, intervals and speeds from the recorded rows.
    pub statistics_s: f64,
    /// summary.csv, summary.md and run.json.
    pub write_s: f64,
    /// Charts and the report (0 with `--no-report`).
    pub report_s: f64,
    /// The whole process so far.
    pub wall_s: f64,
    /// The workers' time outside the timed solves, over the timed solves:
    /// `(wall_s × threads − timed_solves_s) / timed_solves_s`.
    pub own_share: f64,
}

impl OwnTime {
    /// Sets `wall_s` and the share from the process's start.
    pub fn close(&mut self, started: std::time::Instant, threads: usize) {
        self.wall_s = started.elapsed().as_secs_f64();
        self.own_share = if self.timed_solves_s > 0.0 {
            (self.wall_s * threads.max(1) as f64 - self.timed_solves_s) / self.timed_solves_s
        } else {
            0.0
        };
    }
}

/// The current time, RFC 3339 UTC to the second.
pub fn now_rfc3339() -> String {
    humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string()
}

fn cpu_model() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split(':').nth(1))
                .map(|m| m.trim().to_string())
        })
        .unwrap_or_else(|| std::env::consts::ARCH.to_string())
}

/// The machine's GPUs by model, as the NVIDIA driver lists them
/// (`/proc/driver/nvidia/gpus/*/information`, `Model:` lines); none where
/// it is not loaded.
fn gpus() -> Vec<String> {
    let Ok(dirs) = std::fs::read_dir("/proc/driver/nvidia/gpus") else {
        return Vec::new();
    };
    let mut out: Vec<String> = dirs
        .flatten()
        .filter_map(|d| std::fs::read_to_string(d.path().join("information")).ok())
        .filter_map(|text| {
            text.lines()
                .find(|l| l.starts_with("Model:"))
                .map(|l| l["Model:".len()..].trim().to_string())
        })
        .collect();
    out.sort();
    out
}

fn os() -> String {
    let pretty = std::fs::read_to_string("/etc/os-release")
        .ok()
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("PRETTY_NAME="))
                .map(|v| v.trim_matches('"').to_string())
        });
    let kernel = std::fs::read_to_string("/proc/sys/kernel/osrelease")
        .ok()
        .map(|k| k.trim().to_string());
    match (pretty, kernel) {
        (Some(p), Some(k)) => format!("{p}, kernel {k}"),
        (Some(p), None) => p,
        (None, Some(k)) => format!("{} {k}", std::env::consts::OS),
        (None, None) => std::env::consts::OS.to_string(),
    }
}

impl RunInfo {
    /// The rounds dataset `name` was measured in: as `run.json` records it,
    /// else as [`super::rounds_for`] gives them for its puzzles and the
    /// rounds asked (a run saved before it was recorded; the run's rounds
    /// for a name it does not hold).
    pub fn rounds_of(&self, name: &str) -> usize {
        let asked = self.options.rounds;
        match self.datasets.iter().find(|d| d.name == name) {
            Some(d) => d
                .rounds
                .unwrap_or_else(|| super::rounds_for(d.puzzles_run as usize, asked)),
            None => asked.max(1),
        }
    }

    /// The most rounds any dataset was measured in (the run's rounds when it
    /// holds no dataset).
    pub fn most_rounds(&self) -> usize {
        self.datasets
            .iter()
            .map(|d| self.rounds_of(&d.name))
            .max()
            .unwrap_or(self.options.rounds.max(1))
    }

    /// A note for each dataset measured in fewer rounds than asked
    /// ([`super::fewer_rounds_note`]), in the run's order.
    pub fn fewer_rounds(&self) -> Vec<String> {
        let asked = self.options.rounds;
        self.datasets
            .iter()
            .filter_map(|d| {
                let got = self.rounds_of(&d.name);
                (got < asked)
                    .then(|| super::fewer_rounds_note(&d.name, d.puzzles_run as usize, got, asked))
            })
            .collect()
    }

    /// How the build that recorded this run differs from the running one
    /// (version, git commit), in words; `None` when it is the same.
    pub fn other_build(&self) -> Option<String> {
        let (version, commit) = (env!("CARGO_PKG_VERSION"), env!("SUDOKU_BENCH_GIT"));
        (self.version != version || self.git_commit != commit).then(|| {
            format!(
                "made by {} ({}), this is {version} ({commit})",
                self.version, self.git_commit
            )
        })
    }

    /// Facts about this build and machine, with the run's options; start time now.
    pub fn new(options: RunOptions, command: Vec<String>, datasets: Vec<DatasetInfo>) -> RunInfo {
        RunInfo {
            contender_prints: Some(super::prints::prints(&options)),
            tool: "sudoku-bench".into(),
            version: env!("CARGO_PKG_VERSION").into(),
            git_commit: env!("SUDOKU_BENCH_GIT").into(),
            rustc: env!("SUDOKU_BENCH_RUSTC").into(),
            cpu_model: cpu_model(),
            cores: super::cores(),
            gpus: gpus(),
            isa: crate::valgrind::host_isa(),
            valgrind_isa: crate::callgrind::on_valgrind().then(crate::valgrind::isa_here),
            os: os(),
            command,
            options,
            started: now_rfc3339(),
            finished: String::new(),
            interrupted: false,
            wrong: 0,
            errors: 0,
            datasets,
            skipped: Vec::new(),
            rounds_complete: None,
            own_time: None,
            pipe_floor_ns: None,
            incomplete: Vec::new(),
            resumed: 0,
            given_up: Vec::new(),
            verdicts: None,
        }
    }
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}
