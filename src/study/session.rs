//! A study from what was asked to its exit code ([`Session`]): its
//! strategies and limits settled, the re-run under valgrind when it counts
//! instructions, its folder, then [`measure`]: `study.json` first (so a
//! killed study says what it was), each share's solves appended to
//! `solves.csv` and its line to `shares.csv` as it ends, then the rows,
//! the findings, the charts and the report. With what a killed study
//! measured, only the shares it lacks are run. The folder is written under
//! its [`FolderLock`], taken by the counted study itself under valgrind.

use super::{
    Measured, Resumable, Share, StudyData, StudyError, StudyFile, StudyInfo, StudyOptions,
};
use crate::callgrind::on_valgrind;
use crate::export::csv::SolvesCsv;
use crate::export::run_dir;
use crate::export::terminal::{self, Ending};
use crate::harness::plan::Measure;
use crate::harness::{self, RunInfo, RunOptions, Schedule, SolveRecord};
use crate::lock::FolderLock;
use std::ffi::OsString;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Instant;

/// Where study folders go unless `--out` says: a folder of
/// [`run_dir::REPORTS`].
pub const STUDIES: &str = "studies";

/// What a study needs of the terminal beyond its words and Ctrl-C.
pub trait Console: terminal::Console {
    /// A bar of `len` shares, `done` of them measured already (hidden when
    /// `quiet`): each call says a share ended, with its dataset; dropping it
    /// clears the bar.
    fn shares(&mut self, len: u64, done: u64, quiet: bool) -> Box<dyn FnMut(&str)>;
}

/// What a `study` command asks for.
pub enum Request {
    /// A new study of `info` into `out`, or a new folder under `reports/studies/`.
    New {
        /// What to study, as the command line gave it (see [`settle`]).
        info: StudyInfo,
        /// Whether the strategies were named (else: the ones limits stop).
        chosen: bool,
        /// `--out`.
        out: Option<PathBuf>,
        /// Replace a study the folder already holds.
        force: bool,
    },
    /// The rest of the study in `dir`, with its own options.
    Resume {
        /// The study folder.
        dir: PathBuf,
        /// Resume despite another build.
        force: bool,
    },
}

/// A `study` command in progress.
pub struct Session<'a> {
    /// No progress and no findings.
    pub quiet: bool,
    /// The command line, the program first: study.json records it, and a
    /// counted study runs it again under valgrind.
    pub command: Vec<OsString>,
    /// Where the study's words go.
    pub console: &'a mut dyn Console,
}

impl Session<'_> {
    /// Runs what was asked; gives the exit code (0, 1 or 130).
    pub fn run(&mut self, request: Request) -> Result<u8, StudyError> {
        match request {
            Request::New {
                mut info,
                chosen,
                out,
                force,
            } => {
                let notes = settle(&mut info.options, chosen);
                self.new_study(info, notes, out, force)
            }
            Request::Resume { dir, force } => self.resume(&dir, force),
        }
    }

    fn new_study(
        &mut self,
        info: StudyInfo,
        notes: Vec<String>,
        out: Option<PathBuf>,
        force: bool,
    ) -> Result<u8, StudyError> {
        let opts = &info.options;
        // A strategy set that handles no requested size is refused before any folder is made.
        super::check_handled(opts)?;
        let counting = opts.measure == Measure::Instructions;
        if counting && !on_valgrind() {
            if let Some(dir) = &out {
                FolderLock::check(dir)?;
            }
            return self.counted();
        }
        if !self.quiet {
            for n in notes {
                self.console.err(&format!("note: {n}"));
            }
            if let Some(n) = counting.then(crate::valgrind::slowdown_note).flatten() {
                self.console.err(&n);
            }
        }
        let parent = Path::new(run_dir::REPORTS).join(STUDIES);
        let dir = run_dir::out_dir(out.as_deref(), &parent, opts.axis.name())?;
        let _writer = FolderLock::take(&dir)?;
        if out.is_some() {
            run_dir::replace_earlier(&dir, "study", super::FILES.to_vec(), force)?;
        }
        self.study_into(info, &dir, None)
    }

    /// Finishes the study in `dir`, or says it is complete.
    fn resume(&mut self, dir: &Path, force: bool) -> Result<u8, StudyError> {
        // Taken before the folder is read: a second resume is refused.
        let writer = FolderLock::take_if_there(dir)?;
        let (info, resumed, despite) = match super::resumable(dir, force).map_err(Box::new)? {
            Resumable::Complete(finished) => {
                self.console.out(&format!(
                    "{}: the study is complete (finished {finished}): nothing to resume\n",
                    dir.display()
                ));
                return Ok(0);
            }
            Resumable::CutShort {
                info,
                resumed,
                despite,
            } => (info, resumed, despite),
        };
        if info.options.measure == Measure::Instructions && !on_valgrind() {
            // The counted study writes the folder: it takes the lock.
            drop(writer);
            return self.counted();
        }
        if let Some(why) = despite {
            self.console.err(&format!("note: resuming despite: {why}"));
        }
        self.console.err(&format!(
            "resuming {}: {} shares measured already",
            dir.display(),
            resumed.earlier.len()
        ));
        self.study_into(*info, dir, Some(*resumed))
    }

    /// This command again under callgrind, which counts each solve's
    /// instructions; its exit code is this one's.
    fn counted(&mut self) -> Result<u8, StudyError> {
        let args = self.command.get(1..).unwrap_or_default();
        let console = &mut *self.console;
        let say = &mut |m: &str| console.err(m);
        Ok(crate::valgrind::rerun_saying(args, self.quiet, say)?.0)
    }

    /// Runs the study into `dir` and says what it found; with `resumed`,
    /// the shares it measured are taken as they are.
    fn study_into(
        &mut self,
        info: StudyInfo,
        dir: &Path,
        resumed: Option<Resumed>,
    ) -> Result<u8, StudyError> {
        let opts = &info.options;
        let cancel = self.console.cancel(INTERRUPTED);
        let rounds = opts.rounds.clamp(1, opts.puzzles);
        let len = (opts.points.len() * opts.modes.len() * rounds) as u64;
        let done = resumed.as_ref().map_or(0, |r| r.earlier.len() as u64);
        let mut bar = self.console.shares(len, done, self.quiet);
        let command = self.command.iter();
        let command = command.map(|a| a.to_string_lossy().into_owned()).collect();
        let studied = measure(info, dir, resumed, command, &cancel, &mut *bar).map_err(|e| {
            StudyError::Writing {
                dir: dir.to_path_buf(),
                source: Box::new(e),
            }
        })?;
        drop(bar);
        if !self.quiet {
            for u in &studied.data.unhandled {
                let note = format!("note: not run where the size is not handled: {u}");
                self.console.err(&note);
            }
            self.console.out(&studied.summary(dir));
        }
        // An interrupted study has said so already (the Ctrl-C handler).
        let run = &studied.file.run;
        let ending = Ending::of(run.wrong, run.errors, studied.data.interrupted, None);
        if let (Ending::Failed { .. }, Some(line)) = (&ending, ending.line(&dir.join(super::CSV))) {
            self.console.err(&line);
        }
        Ok(ending.code())
    }
}

/// Said when Ctrl-C stops a study.
const INTERRUPTED: &str =
    "interrupted: the points that finished are kept (a second Ctrl-C or signal quits now)";

/// Settles what the command line gave: each mode once; the strategies
/// limits can stop unless they were `chosen` (then a note for each that
/// cannot be); one thread, one pass and no time limit when instructions
/// are counted. Gives the notes said before the study.
pub fn settle(options: &mut StudyOptions, chosen: bool) -> Vec<String> {
    options.modes.dedup();
    // A study's hard points need limits that stop a solve.
    let (solvers, mut notes) = super::strategies(std::mem::take(&mut options.solvers), chosen);
    options.solvers = solvers;
    if options.measure == Measure::Instructions {
        notes.extend(options.count_instructions());
    }
    notes
}

/// What a resumed study takes from its folder.
pub struct Resumed {
    /// Its study.json as it was written when it began.
    pub file: StudyFile,
    /// The shares it measured, with their solves.
    pub earlier: Measured,
}

/// What a study came to.
pub struct Studied {
    /// Its rows and whether it was interrupted.
    pub data: StudyData,
    /// What study.json now holds.
    pub file: StudyFile,
    /// The findings in words.
    pub findings: Vec<String>,
}

impl Studied {
    /// What the terminal shows: the findings as a list, then where the
    /// report is, the rows and the time.
    pub fn summary(&self, dir: &Path) -> String {
        let mut out: String = self
            .findings
            .iter()
            .map(|l| crate::export::terminal::list_item(l, 100))
            .collect();
        out += &format!(
            "Study: {} ({} rows in {}, {:.1} s)\n",
            dir.join(crate::harness::files::REPORT_MD).display(),
            self.data.rows.len(),
            super::CSV,
            self.file.elapsed_s
        );
        out
    }
}

/// Runs the study `info` asks for into `dir`; `on_share` hears the
/// dataset of each share as it ends; `command` is the command line
/// study.json records (a resumed study keeps its own).
pub fn measure(
    info: StudyInfo,
    dir: &Path,
    resumed: Option<Resumed>,
    command: Vec<String>,
    cancel: &Arc<AtomicBool>,
    on_share: &mut dyn FnMut(&str),
) -> Result<Studied, StudyError> {
    let started = Instant::now();
    let opts = info.options.clone();
    if opts.measure == Measure::Instructions && !crate::callgrind::start_from_env() {
        return Err(StudyError::Options(format!(
            "--measure instructions: this process is not running under callgrind with {} set (`sudoku-bench study` starts it so itself)",
            crate::callgrind::OUT_VAR
        )));
    }
    let mut run = RunInfo::new(run_options(&opts), command, Vec::new());
    let (earlier, resumes) = match resumed {
        Some(r) => {
            run.command = r.file.run.command;
            run.started = r.file.run.started;
            run.resumed = r.file.run.resumed + 1;
            (r.earlier, true)
        }
        None => (Measured::new(), false),
    };
    let begun = StudyFile {
        run: run.clone(),
        study: info.clone(),
        unhandled: Vec::new(),
        elapsed_s: 0.0,
        findings: Default::default(),
    };
    let json = serde_json::to_string_pretty(&begun).map_err(io::Error::other)?;
    crate::files::write(dir.join(super::JSON), json + "\n")?;
    let solves_path = dir.join(super::SOLVES_CSV);
    let mut solves = if resumes {
        SolvesCsv::append(&solves_path)
    } else {
        SolvesCsv::create(&solves_path)
    }?;
    let mut shares = super::ShareLog::open(&dir.join(super::SHARES_CSV), resumes)?;
    let mut each = |share: Share, records: &[SolveRecord]| -> io::Result<()> {
        for r in records {
            solves.write(r)?;
        }
        solves.flush()?;
        shares.add(share, records.len())?;
        on_share(records.first().map_or("", |r| &r.dataset));
        Ok(())
    };
    let data = super::run(&opts, cancel, earlier, &mut each, &harness::Silent)?;
    let mut csv = csv::Writer::from_writer(crate::files::create(dir.join(super::CSV))?);
    for r in &data.rows {
        csv.serialize(r).map_err(io::Error::other)?;
    }
    csv.flush()?;
    let findings = super::analysis::analyse(&opts, &data);
    run.finished = harness::info::now_rfc3339();
    run.interrupted = data.interrupted;
    run.wrong = data.rows.iter().map(|r| r.wrong).sum();
    run.errors = data.rows.iter().map(|r| r.errors).sum();
    let file = StudyFile {
        run,
        study: info,
        unhandled: data.unhandled.clone(),
        elapsed_s: started.elapsed().as_secs_f64(),
        findings,
    };
    let findings = super::write_outputs(dir, &file, &data.rows)?;
    Ok(Studied {
        data,
        file,
        findings,
    })
}

/// The run's options study.json's `run` records: the study's first mode
/// (its `study` lists them all).
fn run_options(opts: &StudyOptions) -> RunOptions {
    RunOptions {
        solvers: opts.solvers.iter().map(|s| s.name().to_string()).collect(),
        datasets: opts.points.iter().map(|p| p.name()).collect(),
        threads: opts.threads,
        mode: opts.modes[0],
        node_budget: opts.budget,
        time_limit: opts.time_limit,
        warmup: opts.warmup,
        repeat: opts.repeat,
        rounds: opts.rounds,
        min_time: None,
        schedule: Schedule::Interleaved,
        seed: opts.seed,
        measure: opts.measure,
        ..RunOptions::default()
    }
}
