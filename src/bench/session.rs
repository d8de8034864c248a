//! `bench` from what was asked to its exit code: one run, a run per thread
//! count, a run resumed, each counted under valgrind when instructions are
//! asked for. The command parses its arguments into a [`Request`] and hands
//! in a [`Console`]; everything the run says goes there. Each run folder is
//! written under its [`FolderLock`] (a scaling run's too), except while a
//! counted run under valgrind writes it: that process takes the lock.

use super::{measure, reopen, scaling, BenchError, Plan, Reopened, Watch};
use crate::callgrind::on_valgrind;
use crate::export::failures;
use crate::export::run_dir::{out_dir, replace_earlier_run, REPORTS};
use crate::export::terminal::{self, Ending};
use crate::harness::plan::{Measure, RunOptions};
use crate::harness::{self, files, recover, Observer, RunInfo};
use crate::lock::FolderLock;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// What a run needs of the terminal beyond its words and Ctrl-C.
pub trait Console: terminal::Console {
    /// An observer that shows one run's progress until it is dropped.
    fn progress(&mut self, quiet: bool) -> Box<dyn Observer>;
}

/// What the `bench` command asks for.
pub enum Request {
    /// A new run of `options` (one per count of `options.scaling` when it
    /// has any) into `out`, or a new folder under `reports/`.
    New {
        /// The run's options, as typed.
        options: Box<RunOptions>,
        /// `--out`.
        out: Option<PathBuf>,
        /// Replace a run the folder already holds.
        force: bool,
    },
    /// The rest of the run (or scaling run) in `dir`, with its own options.
    Resume {
        /// The run folder.
        dir: PathBuf,
        /// Resume despite another build, datasets or contenders.
        force: bool,
        /// Draw no report at the end.
        no_report: bool,
    },
}

/// A `bench` command in progress.
pub struct Session<'a> {
    /// Say no more than the ending and what failed.
    pub quiet: bool,
    /// The command line, the program first: run.json records it, and a
    /// counted run runs it again under valgrind.
    pub command: Vec<OsString>,
    /// Where the run's words go.
    pub console: &'a mut dyn Console,
}

impl Session<'_> {
    /// Runs what was asked; gives the exit code (0, 1, 2 or 130).
    pub fn run(&mut self, request: Request) -> Result<u8, BenchError> {
        match request {
            Request::New {
                options,
                out,
                force,
            } => self.new_run(*options, out, force),
            Request::Resume {
                dir,
                force,
                no_report,
            } => {
                if !dir.join(files::RUN_JSON).is_file() {
                    if let Some(first) = super::scaling_counts(&dir).first() {
                        return self.resume_scaling(&dir, first, force, no_report);
                    }
                }
                self.resume(&dir, force, no_report)
            }
        }
    }

    fn new_run(
        &mut self,
        options: RunOptions,
        out: Option<PathBuf>,
        force: bool,
    ) -> Result<u8, BenchError> {
        let mut writing: Vec<PathBuf> = out.iter().cloned().collect();
        if let Some(top) = &out {
            let counts = options.scaling.iter();
            writing.extend(counts.map(|&t| scaling::count_dir(top, t)));
        }
        let writing: Vec<&Path> = writing.iter().map(PathBuf::as_path).collect();
        crate::export::track::refuse_clashes(&options.after.exports, &writing)?;
        if options.measure == Measure::Instructions && !on_valgrind() {
            // What the counted run would refuse is refused here, before valgrind starts.
            Plan::new(options, harness::cores(), &mut |_| {})?;
            if let Some(dir) = &out {
                FolderLock::check(dir)?;
            }
            return self.counted();
        }
        if !options.scaling.is_empty() {
            scaling::check(&options)?;
            let top = out_dir(out.as_deref(), Path::new(REPORTS), "run")?;
            let _writer = FolderLock::take(&top)?;
            return self.counts(&options, &top, &mut |s, one, dir| {
                crate::files::folder(dir).map_err(BenchError::io(dir))?;
                let _writer = FolderLock::take(dir)?;
                replace_earlier_run(dir, force)?;
                s.fresh(one, dir)
            });
        }
        let started = Instant::now();
        let plan = self.plan(options)?;
        let dir = out_dir(out.as_deref(), Path::new(REPORTS), "run")?;
        let _writer = FolderLock::take(&dir)?;
        replace_earlier_run(&dir, force)?;
        let quiet = self.quiet;
        self.one(plan, &dir, None, quiet, started)
    }

    /// A count of a scaling run never begun: planned and run into `dir`,
    /// whose lock the caller holds.
    fn fresh(&mut self, options: RunOptions, dir: &Path) -> Result<u8, BenchError> {
        let started = Instant::now();
        let plan = self.plan(options)?;
        self.one(plan, dir, None, true, started)
    }

    /// Runs each thread count of `options.scaling` through `each` (given
    /// the count's own options and folder), then writes the curve over them
    /// into `top` and says it.
    fn counts(
        &mut self,
        options: &RunOptions,
        top: &Path,
        each: &mut dyn FnMut(&mut Self, RunOptions, &Path) -> Result<u8, BenchError>,
    ) -> Result<u8, BenchError> {
        let quiet = self.quiet;
        let cancel = self.console.cancel(INTERRUPTED);
        let interrupted = || cancel.load(std::sync::atomic::Ordering::SeqCst);
        let (code, table) = scaling::run_counts(options, top, &interrupted, &mut |one, dir| {
            if !quiet {
                let (t, dir) = (one.threads, dir.display());
                self.console
                    .err(&format!("threads {t}: running into {dir}"));
            }
            each(self, one, dir)
        })?;
        if !quiet {
            self.console.out(&format!(
                "{table}Scaling: {} (one run folder per count beside it)\n",
                top.join(scaling::SCALING_MD).display()
            ));
        }
        Ok(code)
    }

    /// Resumes a scaling run: each count that is complete is kept, one that
    /// was cut short is resumed, one never begun is run; then the curve is
    /// written.
    fn resume_scaling(
        &mut self,
        top: &Path,
        first: &Path,
        force: bool,
        no_report: bool,
    ) -> Result<u8, BenchError> {
        let options = super::recorded(&recover::read_info(first)?, first)?;
        if options.measure == Measure::Instructions && !on_valgrind() {
            // The counted run resumes every count, under the locks it takes.
            FolderLock::check(top)?;
            return self.counted();
        }
        let _writer = FolderLock::take(top)?;
        self.counts(
            &options,
            top,
            &mut |s, one, dir| match recover::read_info(dir) {
                Ok(i)
                    if recover::is_complete(&i)
                        && recover::not_whole(dir, &i).is_ok_and(|s| s.is_empty()) =>
                {
                    s.console.err(&format!("{}: complete, kept", dir.display()));
                    Ok(0)
                }
                Ok(_) => s.resume(dir, force, no_report),
                Err(_) => {
                    crate::files::folder(dir).map_err(BenchError::io(dir))?;
                    let _writer = FolderLock::take(dir)?;
                    s.fresh(one, dir)
                }
            },
        )
    }

    /// Finishes the run in `dir`, or says it is complete.
    fn resume(&mut self, dir: &Path, force: bool, no_report: bool) -> Result<u8, BenchError> {
        let started = Instant::now();
        // Taken before the folder is read: a second --resume is refused.
        let writer = FolderLock::take_if_there(dir)?;
        let console = &mut *self.console;
        let say = &mut |m: &str| console.err(m);
        match reopen(dir, force, no_report, harness::cores(), say)? {
            Reopened::Complete(finished) => {
                self.console.out(&format!(
                    "{}: the run is complete (finished {finished}): nothing to resume\n",
                    dir.display()
                ));
                Ok(0)
            }
            Reopened::CutShort {
                info,
                plan,
                despite,
            } => {
                if !despite.is_empty() {
                    let lines = despite.join("\n  ");
                    self.console
                        .err(&format!("note: resuming despite:\n  {lines}"));
                }
                if plan.options.measure == Measure::Instructions && !on_valgrind() {
                    // The counted run writes the folder: it takes the lock.
                    drop(writer);
                    return self.counted();
                }
                let quiet = self.quiet || !info.options.scaling.is_empty();
                self.one(*plan, dir, Some(&info), quiet, started)
            }
        }
    }

    /// Checks `options` on this machine and reads the datasets.
    fn plan(&mut self, options: RunOptions) -> Result<Plan, BenchError> {
        let console = &mut *self.console;
        Plan::new(options, harness::cores(), &mut |m| console.err(m))
    }

    /// This command again under callgrind, which counts each call's
    /// instructions; its exit code is this one's.
    /// The report of the run it made is drawn here, natively (valgrind
    /// draws charts 20-40x slower), and said unless quiet.
    fn counted(&mut self) -> Result<u8, BenchError> {
        let args = self.command.get(1..).unwrap_or_default();
        let console = &mut *self.console;
        let (code, dir) = crate::valgrind::rerun_saying(args, self.quiet, &mut |m| console.err(m))?;
        if let Some(dir) = dir {
            let _writer = FolderLock::take(&dir)?;
            let info = recover::read_info(&dir)?;
            let report =
                crate::report::write(&dir, &info.options.after.charts).map_err(|source| {
                    BenchError::Report {
                        dir: dir.clone(),
                        source: Box::new(source),
                    }
                })?;
            if !self.quiet {
                report.tell(&dir, self.console);
            }
        }
        Ok(code)
    }

    /// One run at one thread count into `dir` (with `resumed`, the rest of
    /// the run recorded there): measure, present; gives the exit code.
    fn one(
        &mut self,
        plan: Plan,
        dir: &Path,
        resumed: Option<&RunInfo>,
        quiet: bool,
        started: Instant,
    ) -> Result<u8, BenchError> {
        for n in &plan.notes {
            self.console.err(&format!("note: {n}"));
        }
        let cancel = self.console.cancel(INTERRUPTED);
        let bar = self.console.progress(quiet);
        let console = &mut *self.console;
        let watch = Watch {
            cancel: &cancel,
            observer: bar.as_ref(),
            quiet,
            say: &mut |m| console.err(m),
        };
        let command = self
            .command
            .iter()
            .map(|a| a.to_string_lossy().into_owned());
        let mut m = measure(plan, dir, resumed, command.collect(), watch)?;
        drop(bar);
        for why in &m.report.info.given_up {
            self.console.err(&format!("warning: {why}"));
        }
        if !quiet {
            let summary = dir.join(files::SUMMARY_MD);
            self.console.out(&terminal::answer(&m.report, &summary));
        }
        for k in &m.result.skipped {
            self.console.err(&format!("note: {k}"));
        }
        let done = super::finish(&mut m, dir, started)?;
        for n in &done.export_notes {
            self.console.err(&format!("note: {n}"));
        }
        let after = &m.report.info.options.after;
        if !quiet {
            match &done.report {
                Some(r) => r.tell(dir, self.console),
                None => self.console.out(&format!("results in {}\n", dir.display())),
            }
        }
        if let Some(c) = &done.comparison {
            if !quiet {
                self.console.out("\n");
            }
            let to = dir.join(files::COMPARE);
            crate::compare::write::tell(c, &to, quiet, self.console);
        }
        if !quiet {
            for e in &after.exports {
                let (format, path) = (e.format.word(), e.path.display());
                self.console.out(&format!("{format} export in {path}\n"));
            }
        }
        match (&after.save_baseline, &done.saved) {
            (Some(name), None) => self.console.err(&format!(
                "note: baseline {name} not saved: the run was interrupted"
            )),
            (Some(name), Some(saved)) if !quiet => self
                .console
                .out(&format!("baseline {name} saved in {}\n", saved.display())),
            _ => {}
        }
        let info = &m.report.info;
        let regressed = done.comparison.as_ref().filter(|c| c.regressed());
        let ending = Ending::of(
            info.wrong,
            info.errors,
            m.result.interrupted,
            regressed.map(|_| after.baseline.as_deref().unwrap_or_default()),
        )
        .by(failures::names(&m.report.summary, info));
        if let Some(line) = ending.line(&dir.join(files::RESULTS_CSV)) {
            self.console.err(&line);
        }
        Ok(ending.code())
    }
}

/// Said when Ctrl-C stops a run.
const INTERRUPTED: &str = "interrupted: finishing the puzzles in flight and writing what was measured (a second Ctrl-C or signal quits now)";
