//! `--measure instructions`: the workbench runs itself again under
//! `valgrind --tool=callgrind`, with collection off until a timed call
//! switches it on (see [`crate::callgrind`]), and ends as that run ends.
//! `bench` and `study` both count so.

use crate::callgrind;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

/// Why the counted run could not be made.
#[derive(Debug, thiserror::Error)]
pub enum ValgrindError {
    /// Valgrind is not installed, or does not start.
    #[error("--measure instructions needs valgrind, which does not start here ({0}): install the `valgrind` package (apt-get install valgrind)")]
    NoValgrind(String),
    /// Its scratch folder cannot be made.
    #[error("{}: {source}", path.display())]
    Io {
        /// The folder.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
}

/// What the counted run came to.
pub struct Rerun {
    /// Its exit code (2 when valgrind itself failed).
    pub code: u8,
    /// Its wall time, seconds.
    pub wall_s: f64,
    /// Why valgrind stopped it, when it did (an instruction it cannot run).
    pub valgrind_failed: Option<String>,
    /// The run folder whose report the counted run left to this process.
    pub report_dir: Option<PathBuf>,
}

/// The environment variable naming the file where the run under valgrind
/// leaves its folder instead of drawing its report: this process draws it
/// natively once that run has ended (valgrind draws charts 20-40x slower,
/// 27 s for one dataset's).
pub const REPORT_VAR: &str = "SUDOKU_BENCH_REPORT_LATER";

/// In a run under valgrind started by [`rerun_saying`]: leaves `out_dir`'s
/// report to the process that started it; false when there is none (or the
/// note cannot be written: then the run draws its own).
pub fn report_later(out_dir: &Path) -> bool {
    match std::env::var_os(REPORT_VAR) {
        Some(file) if callgrind::on_valgrind() => {
            let dir = std::fs::canonicalize(out_dir).unwrap_or_else(|_| out_dir.to_path_buf());
            std::fs::write(file, dir.as_os_str().as_encoded_bytes()).is_ok()
        }
        _ => false,
    }
}

/// The environment variable that passes the calibration's native time
/// (ns) to the run under valgrind, which times it again to say the slowdown.
pub const NATIVE_VAR: &str = "SUDOKU_BENCH_NATIVE_NS";

/// The environment variable that passes the host's instruction set to the
/// run under valgrind, which records it as the machine's (valgrind hides
/// AVX-512 from the code it runs, so that a counted run would otherwise
/// read as another machine).
pub const HOST_ISA_VAR: &str = "SUDOKU_BENCH_HOST_ISA";

/// The architecture and the SIMD extensions that code running here sees:
/// `x86-64 AVX2 AVX-512 BITALG` natively, `x86-64 AVX2` under valgrind.
pub fn isa_here() -> String {
    #[cfg(target_arch = "x86_64")]
    {
        let mut parts = vec!["x86-64"];
        if std::is_x86_feature_detected!("avx2") {
            parts.push("AVX2");
        }
        if std::is_x86_feature_detected!("avx512f")
            && std::is_x86_feature_detected!("avx512bw")
            && std::is_x86_feature_detected!("avx512vl")
        {
            parts.push("AVX-512");
            if std::is_x86_feature_detected!("avx512bitalg") {
                parts.push("BITALG");
            }
        }
        parts.join(" ")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        std::env::consts::ARCH.to_string()
    }
}

/// The machine's instruction set, whatever the measure: under valgrind, as
/// the process that started the counted run saw it natively.
pub fn host_isa() -> String {
    match std::env::var(HOST_ISA_VAR) {
        Ok(isa) if callgrind::on_valgrind() && !isa.is_empty() => isa,
        _ => isa_here(),
    }
}

/// Nanoseconds to solve the calibration puzzles (the first 50 of the
/// embedded `hard-9x9` with `bitset-mrv`), the fastest of three passes.
pub fn calibrate() -> u64 {
    use crate::solver::{Limits, Mode, Solver, SolverId};
    let Some(set) = crate::datasets::embedded("hard-9x9") else {
        return 0;
    };
    let Ok(set) = crate::format::read_str(set.name, set.text, &Default::default()) else {
        return 0;
    };
    let limits = Limits::new(Mode::Unique);
    let puzzles: Vec<_> = set.puzzles.iter().take(50).collect();
    (0..3)
        .map(|_| {
            let t0 = Instant::now();
            for p in &puzzles {
                std::hint::black_box(SolverId::BitsetMrv.solve(&p.grid, &limits));
            }
            t0.elapsed().as_nanos() as u64
        })
        .min()
        .unwrap_or(0)
}

/// Under valgrind, started by [`rerun`]: how many times slower the
/// calibration runs here than it ran natively.
pub fn slowdown() -> Option<f64> {
    let native: f64 = std::env::var(NATIVE_VAR).ok()?.parse().ok()?;
    let here = calibrate() as f64;
    (native > 0.0 && here > 0.0).then(|| here / native)
}

/// Under valgrind: the note that says the slowdown and how to keep a
/// counted run short.
pub fn slowdown_note() -> Option<String> {
    slowdown().map(|times| format!("note: valgrind runs this code {times:.0}x slower than this machine does (keep a counted run short with --limit or --sample)"))
}

/// Checks that valgrind runs; gives its version.
pub fn version() -> Result<String, ValgrindError> {
    let out = Command::new("valgrind")
        .arg("--version")
        .output()
        .map_err(|e| ValgrindError::NoValgrind(e.to_string()))?;
    if !out.status.success() {
        return Err(ValgrindError::NoValgrind(format!(
            "valgrind --version: {}",
            out.status
        )));
    }
    Ok(String::from_utf8_lossy(&out.stdout).trim().to_string())
}

/// Runs this program again with `args` under callgrind, its output and
/// errors on this process's, collection off at the start; `say` hears
/// that it starts (unless `quiet`) and how it ended. Gives its exit code,
/// and the run folder whose report it left to this process.
pub fn rerun_saying(
    args: &[OsString],
    quiet: bool,
    say: &mut dyn FnMut(&str),
) -> Result<(u8, Option<PathBuf>), ValgrindError> {
    version()?;
    if !quiet {
        say("counting instructions: running again under valgrind's callgrind");
    }
    let r = rerun(args)?;
    match &r.valgrind_failed {
        Some(why) => say(&format!("error: valgrind stopped the run: {why}")),
        None if !quiet => say(&format!("counted under valgrind in {:.1} s", r.wall_s)),
        None => {}
    }
    Ok((r.code, r.report_dir))
}

/// Runs this program again with `args` under callgrind (whose presence
/// [`rerun_saying`] checked), its output and errors on this process's,
/// collection off at the start.
fn rerun(args: &[OsString]) -> Result<Rerun, ValgrindError> {
    let exe = std::env::current_exe().map_err(|e| ValgrindError::NoValgrind(e.to_string()))?;
    let work = scratch()?;
    // Removed by an exit through a signal as well as when `work` drops.
    let _removal = crate::hygiene::remove_on_exit(work.path());
    let out = work.path().join("callgrind.out");
    let log = work.path().join("valgrind.log");
    let later = work.path().join("report-later");
    let started = Instant::now();
    let mut cmd = Command::new("valgrind");
    cmd.args(callgrind::valgrind_options(&out, &log))
        .arg(exe)
        .args(args)
        .env(callgrind::OUT_VAR, &out)
        .env(NATIVE_VAR, calibrate().to_string())
        .env(HOST_ISA_VAR, isa_here())
        .env(REPORT_VAR, &later);
    // A signal stops the counted run as it stops this one: it is passed on,
    // and the counted run keeps what it measured.
    crate::hygiene::signals::claim();
    let (mut child, group) =
        crate::hygiene::spawn(cmd).map_err(|e| ValgrindError::NoValgrind(e.to_string()))?;
    let status = wait_passing_signals(&mut child);
    drop(group);
    let wall_s = started.elapsed().as_secs_f64();
    let text = read_private(&log);
    let report_dir = Some(read_private(&later))
        .filter(|t| !t.is_empty())
        .map(PathBuf::from);
    let valgrind_failed = callgrind::stopped_by(&text);
    let code = status
        .ok()
        .and_then(|s| s.code())
        .map_or(2, |c| u8::try_from(c).unwrap_or(2));
    Ok(Rerun {
        code,
        wall_s,
        valgrind_failed,
        report_dir,
    })
}

/// Waits for `child`, passing on the first signal this process hears.
fn wait_passing_signals(
    child: &mut std::process::Child,
) -> std::io::Result<std::process::ExitStatus> {
    let mut passed = false;
    loop {
        if let Some(status) = child.try_wait()? {
            return Ok(status);
        }
        if !passed {
            if let Some(sig) = crate::hygiene::signals::received() {
                // SAFETY: kill sends a signal; no memory is touched.
                unsafe { libc::kill(child.id() as i32, sig) };
                passed = true;
            }
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
}

/// A file in the private folder, as text, never through a link.
fn read_private(path: &Path) -> String {
    use std::io::Read;
    use std::os::unix::fs::OpenOptionsExt;
    let mut text = String::new();
    if let Ok(mut f) = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW)
        .open(path)
    {
        let _ = f.read_to_string(&mut text);
    }
    text
}

/// A fresh private folder for callgrind's dumps and log: made anew with a
/// random name, mode 0700, never one that exists (a folder planted under a
/// guessed name is never used); removed when dropped.
fn scratch() -> Result<tempfile::TempDir, ValgrindError> {
    crate::hygiene::private_folder("sudoku-bench-callgrind")
        .map_err(|(path, source)| ValgrindError::Io { path, source })
}
