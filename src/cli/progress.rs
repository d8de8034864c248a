//! The terminal: the progress bar every command draws on stderr, `bench`'s
//! observer that advances it, study's bar of shares, hunt's display, and the
//! console the library's runs say things on.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use sudoku_bench::harness;
use sudoku_bench::hunt::score_text;
use sudoku_bench::hunt::{HuntObserver, ProgressRow, Stop};

/// Whether a bar is drawn: not with `--quiet`, and only on a terminal.
pub(super) fn shown(quiet: bool) -> bool {
    !quiet && std::io::stderr().is_terminal()
}

/// A bar of `len` steps in `template` (indicatif's), hidden unless [`shown`].
pub(super) fn bar(len: u64, template: &str, quiet: bool) -> ProgressBar {
    let bar = ProgressBar::new(len);
    if shown(quiet) {
        bar.set_style(
            ProgressStyle::with_template(template)
                .unwrap_or_else(|_| ProgressStyle::default_bar())
                .progress_chars("=> "),
        );
    } else {
        bar.set_draw_target(ProgressDrawTarget::hidden());
    }
    bar
}

/// `bench`'s bar, advanced in steps of 256 rows so the writer thread stays cheap.
pub(super) struct Rows {
    bar: Cleared,
    pending: std::cell::Cell<u64>,
}

impl Rows {
    pub(super) fn new(quiet: bool) -> Rows {
        let template = "{msg:32} [{bar:30}] {pos}/{len} ({per_sec}, eta {eta})";
        Rows {
            bar: Cleared(bar(0, template, quiet)),
            pending: Default::default(),
        }
    }
}

/// The first error writing standard output, other than a reader that went
/// away: the command ends with it (exit 2) once its work is done.
static OUT_FAILED: std::sync::OnceLock<String> = std::sync::OnceLock::new();

/// Writes `text` to standard output. A closed standard output (`| head`)
/// loses the text, never the run: its files are written whatever the
/// terminal takes. Any other failure (a full disk, `/dev/full`) is kept for
/// [`out_failed`]. False once the text could not be written.
pub(super) fn write_out(text: &str) -> bool {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Ok(()) => true,
        Err(e) => {
            if e.kind() != std::io::ErrorKind::BrokenPipe {
                let _ = OUT_FAILED.set(e.to_string());
            }
            false
        }
    }
}

/// Why standard output could not be written, if it could not.
pub(super) fn out_failed() -> Option<&'static String> {
    OUT_FAILED.get()
}

/// Standard output and error, Ctrl-C and the progress bar, for the library's runs.
pub(super) struct Terminal;

impl sudoku_bench::export::terminal::Console for Terminal {
    fn out(&mut self, text: &str) {
        write_out(text);
    }
    fn err(&mut self, line: &str) {
        eprintln!("{line}");
    }
    fn cancel(&mut self, message: &'static str) -> std::sync::Arc<std::sync::atomic::AtomicBool> {
        super::interrupt::flag(message)
    }
}

impl sudoku_bench::study::session::Console for Terminal {
    fn shares(&mut self, len: u64, done: u64, quiet: bool) -> Box<dyn FnMut(&str)> {
        let template = "{msg:28} [{bar:30}] {pos}/{len} shares (eta {eta})";
        let bar = Cleared(bar(len, template, quiet));
        bar.0.inc(done);
        Box::new(move |dataset| {
            if !dataset.is_empty() {
                bar.0.set_message(dataset.to_string());
            }
            bar.0.inc(1);
        })
    }
}

/// A bar cleared when it is dropped.
struct Cleared(ProgressBar);

impl Drop for Cleared {
    fn drop(&mut self) {
        self.0.finish_and_clear();
    }
}

impl sudoku_bench::bench::Console for Terminal {
    fn progress(&mut self, quiet: bool) -> Box<dyn harness::Observer> {
        Box::new(Rows::new(quiet))
    }
}

impl harness::Observer for Rows {
    fn phase_started(&self, variant: &str, dataset: &str, rows: u64) {
        self.pending.set(0);
        self.bar.0.set_position(0);
        self.bar.0.set_length(rows);
        self.bar.0.set_message(format!("{variant} on {dataset}"));
    }
    fn rows_added(&self, rows: u64) {
        self.bar.0.inc_length(rows);
    }
    fn rows_done(&self, rows: u64) {
        let n = self.pending.get() + rows;
        if n >= 256 {
            self.bar.0.inc(n);
            self.pending.set(0);
        } else {
            self.pending.set(n);
        }
    }
    fn phase_done(&self, _: &harness::SummaryRow) {
        self.bar.0.inc(self.pending.replace(0));
    }
}

/// `hunt`'s display: a spinner, or a bar of moves, with the best so far.
struct Hunting(Cleared);

impl sudoku_bench::hunt::session::Console for Terminal {
    fn display(&mut self, stop: &Stop, quiet: bool) -> Box<dyn HuntObserver> {
        if !shown(quiet) {
            return Box::new(sudoku_bench::hunt::Quiet);
        }
        let bar = match stop {
            Stop::Iterations(n) => ProgressBar::new(*n),
            Stop::Time(_) => ProgressBar::new_spinner(),
        };
        let template = "{spinner} {elapsed_precise} {human_pos} moves {msg}";
        bar.set_style(
            ProgressStyle::with_template(template)
                .unwrap_or_else(|_| ProgressStyle::default_spinner()),
        );
        bar.enable_steady_tick(std::time::Duration::from_millis(200));
        Box::new(Hunting(Cleared(bar)))
    }
}

impl HuntObserver for Hunting {
    fn improved(&self, _: &ProgressRow) {}
    fn tick(&self, iterations: u64, best: f64) {
        let bar = &self.0 .0;
        bar.set_position(iterations);
        let rate = iterations as f64 / bar.elapsed().as_secs_f64().max(1e-3);
        bar.set_message(format!("({:.0}k/s), best {}", rate / 1e3, score_text(best)));
    }
    fn event(&self, line: &str) {
        let bar = &self.0 .0;
        bar.println(format!("{:>7.1} s  {line}", bar.elapsed().as_secs_f64()));
    }
}
