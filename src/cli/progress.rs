//! The terminal: the progress bar every command draws on stderr, `bench`'s
//! observer that advances it, and the console the library's runs say things on.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use sudoku_bench::harness;

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
    bar: ProgressBar,
    pending: std::cell::Cell<u64>,
}

impl Rows {
    pub(super) fn new(quiet: bool) -> Rows {
        Rows {
            bar: bar(
                0,
                "{msg:32} [{bar:30}] {pos}/{len} ({per_sec}, eta {eta})",
                quiet,
            ),
            pending: Default::default(),
        }
    }
}

impl Drop for Rows {
    fn drop(&mut self) {
        self.bar.finish_and_clear();
    }
}

/// Standard output and error, Ctrl-C and the progress bar, for the library's runs.
pub(super) struct Terminal;

impl sudoku_bench::export::terminal::Console for Terminal {
    fn out(&mut self, text: &str) {
        print!("{text}");
    }
    fn err(&mut self, line: &str) {
        eprintln!("{line}");
    }
}

impl sudoku_bench::bench::Console for Terminal {
    fn cancel(&mut self, message: &'static str) -> std::sync::Arc<std::sync::atomic::AtomicBool> {
        super::interrupt::flag(message)
    }
    fn progress(&mut self, quiet: bool) -> Box<dyn harness::Observer> {
        Box::new(Rows::new(quiet))
    }
}

impl harness::Observer for Rows {
    fn phase_started(&self, variant: &str, dataset: &str, rows: u64) {
        self.pending.set(0);
        self.bar.set_position(0);
        self.bar.set_length(rows);
        self.bar.set_message(format!("{variant} on {dataset}"));
    }
    fn rows_added(&self, rows: u64) {
        self.bar.inc_length(rows);
    }
    fn rows_done(&self, rows: u64) {
        let n = self.pending.get() + rows;
        if n >= 256 {
            self.bar.inc(n);
            self.pending.set(0);
        } else {
            self.pending.set(n);
        }
    }
    fn phase_done(&self, _: &harness::SummaryRow) {
        self.bar.inc(self.pending.replace(0));
    }
}
