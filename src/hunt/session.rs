//! A hunt from what was asked to its exit code ([`run`]): planned, its
//! folder made, the contenders started, the search run with `progress.csv`
//! written as it goes, then `puzzles.txt`, `found.csv` and the chart; or
//! hunts merged. The folder is written under its [`FolderLock`]; one that
//! holds a hunt is replaced only when asked. The command only maps its
//! arguments.

use super::plan::{contender, HuntPlan, HuntRequest};
use super::score::score_text;
use super::write::{print_best, write_results, Header, ProgressFile, ScoreName};
use super::{HuntError, HuntObserver, HuntResult, ProgressRow, Stop};
use crate::contender::Contender;
use crate::export::terminal;
use crate::external::ContenderSpec;
use crate::lock::FolderLock;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};

/// Where hunt folders go unless `--out` says.
pub const HUNTS: &str = "hunts";

/// What a hunt needs of the terminal beyond its words and Ctrl-C.
pub trait Console: terminal::Console {
    /// What shows a hunt that stops at `stop` as it goes (nothing when
    /// `quiet`); dropping it clears it.
    fn display(&mut self, stop: &Stop, quiet: bool) -> Box<dyn HuntObserver>;
}

/// A `hunt` command: a search, or the hunts of `merge` merged.
pub struct Request {
    /// What is hunted, and how.
    pub hunt: HuntRequest,
    /// The outside contenders it may name.
    pub specs: Vec<ContenderSpec>,
    /// The folders of hunts to merge instead of hunting.
    pub merge: Vec<PathBuf>,
    /// `--out`.
    pub out: Option<PathBuf>,
    /// Replace a hunt the folder already holds.
    pub force: bool,
    /// No display.
    pub quiet: bool,
}

/// Runs the hunt (or merge) asked for into its folder and says what it
/// found; gives the exit code (0, or 130 when interrupted).
pub fn run(r: Request, console: &mut dyn Console) -> Result<u8, HuntError> {
    let say = &mut |m: &str| console.err(m);
    let plan = HuntPlan::new(&r.hunt, crate::usage::cores(), say)?;
    if r.force {
        if let Some(out) = &r.out {
            // Its files would be removed before they are read.
            let same = |d: &PathBuf| same_folder(d, out);
            if let Some(d) = r.merge.iter().find(|d| same(d)) {
                return Err(HuntError::MergeInto(d.clone()));
            }
        }
    }
    let dir = crate::export::run_dir::out_dir(r.out.as_deref(), Path::new(HUNTS), "run")?;
    let _writer = FolderLock::take(&dir)?;
    if r.out.is_some() {
        let files = super::write::FILES.to_vec();
        crate::export::run_dir::replace_earlier(&dir, "hunt", files, r.force)?;
    }
    if !r.merge.is_empty() {
        let cancel = console.cancel("interrupted (a second Ctrl-C or signal quits now)");
        let (m, _) = merge(&plan, &r.hunt, &r.specs, &r.merge, &dir, &cancel)?;
        for why in &m.dropped {
            console.err(&format!("dropped {why}"));
        }
        console.out(&format!(
            "{} puzzles read from {} hunts, {} kept once up to symmetry: {}\n",
            m.read,
            r.merge.len(),
            m.kept.len(),
            dir.join(super::write::PUZZLES_TXT).display()
        ));
        return Ok(0);
    }
    let started = Started::new(plan, &r.hunt, &r.specs, &dir)?;
    let opts = &started.plan().options;
    let display = console.display(&opts.stop, r.quiet);
    if !r.quiet {
        let (t, s) = (opts.threads, if opts.threads == 1 { "" } else { "s" });
        console.err(&format!(
            "hunting {} with {} islands on {t} thread{s} from {}, seed {}; results in {}",
            started.score.short(),
            opts.islands,
            started.plan().start_words,
            opts.seed,
            dir.display()
        ));
    }
    let cancel = console.cancel(
        "interrupted: stopping the hunt and writing the best found so far (a second Ctrl-C or signal quits now)",
    );
    let alphabet = started.plan().alphabet.clone();
    let hunted = started.hunt(&dir, &cancel, display.as_ref());
    drop(display);
    let hunted = hunted?;
    let mut best = Vec::new();
    print_best(&mut best, &hunted.score, &hunted.result, &alphabet, 5).map_err(HuntError::Io)?;
    console.out(&String::from_utf8_lossy(&best));
    console.out(&format!("{}\n", hunted.summary(&dir)));
    if let Some(note) = hunted.failures() {
        console.err(&format!("note: {note}"));
    }
    Ok(if hunted.result.interrupted { 130 } else { 0 })
}

/// Whether `a` and `b` are one folder (both there, and the same).
fn same_folder(a: &Path, b: &Path) -> bool {
    match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

/// A hunt whose contenders are started, ready to search.
pub struct Started {
    plan: HuntPlan,
    hunted: Contender,
    against: Option<Contender>,
    /// What the score is, in words.
    pub score: ScoreName,
}

/// What a finished hunt leaves: its result and the name of its score.
pub struct Hunted {
    /// The search's outcome.
    pub result: HuntResult,
    /// What the score is, in words.
    pub score: ScoreName,
}

impl Started {
    /// Starts the contenders `req` names (outside entries from `specs`,
    /// their logs under `dir`).
    pub fn new(
        plan: HuntPlan,
        req: &HuntRequest,
        specs: &[ContenderSpec],
        dir: &Path,
    ) -> Result<Started, HuntError> {
        let threads = plan.options.threads;
        let hunted = contender(&req.hunted, specs, threads, dir)?;
        let against = match &req.against {
            Some(b) => Some(contender(b, specs, threads, dir)?),
            None => None,
        };
        let score = ScoreName {
            hunted: hunted.variant.clone(),
            against: against.as_ref().map(|b| b.variant.clone()),
            objective: plan.options.objective,
        };
        Ok(Started {
            plan,
            hunted,
            against,
            score,
        })
    }

    /// The plan it runs.
    pub fn plan(&self) -> &HuntPlan {
        &self.plan
    }

    /// Runs the search into `dir` (`display` hears its progress too), then
    /// writes the folder. A Ctrl-C through `cancel` ends it with what it found.
    pub fn hunt(
        self,
        dir: &Path,
        cancel: &Arc<AtomicBool>,
        display: &dyn HuntObserver,
    ) -> Result<Hunted, HuntError> {
        let progress = dir.join(super::write::PROGRESS_CSV);
        let written = |path: PathBuf| move |source| HuntError::Write { path, source };
        let file = ProgressFile::create(dir, self.plan.alphabet.clone())
            .map_err(written(progress.clone()))?;
        let watch = Recorder {
            file,
            display,
            error: Mutex::new(None),
        };
        let opts = &self.plan.options;
        let result = super::hunt(&self.hunted, self.against.as_ref(), opts, cancel, &watch);
        for c in std::iter::once(&self.hunted).chain(self.against.as_ref()) {
            c.engine.finish();
        }
        let result = result?;
        if let Some(e) = crate::sync::lock(&watch.error).take() {
            return Err(written(progress)(e));
        }
        let header = Header {
            score: self.score.clone(),
            seed: opts.seed,
            threads: opts.threads,
            islands: opts.islands,
            start: self.plan.start_words.clone(),
            repeat: opts.repeat,
        };
        write_results(
            dir,
            &header,
            &result,
            &self.plan.alphabet,
            &watch.file.steps(),
        )
        .map_err(written(dir.to_path_buf()))?;
        Ok(Hunted {
            result,
            score: self.score,
        })
    }
}

/// The progress file gets every row; the display hears them too.
struct Recorder<'a> {
    file: ProgressFile,
    display: &'a dyn HuntObserver,
    error: Mutex<Option<std::io::Error>>,
}

impl HuntObserver for Recorder<'_> {
    fn improved(&self, row: &ProgressRow) {
        if let Err(e) = self.file.row(row) {
            crate::sync::lock(&self.error).get_or_insert(e);
        }
        self.display.improved(row);
    }

    fn tick(&self, iterations: u64, best: f64) {
        self.display.tick(iterations, best);
    }

    fn event(&self, line: &str) {
        self.display.event(line);
    }
}

impl Hunted {
    /// The last line: moves, puzzles scored, time, the best score against
    /// the best start's, and where the puzzles are.
    pub fn summary(&self, dir: &Path) -> String {
        let r = &self.result;
        format!(
            "{} moves, {} puzzles scored in {:.2} s{}; best {} (the best start: {}); {} puzzles in {}",
            r.iterations,
            r.evaluations,
            r.elapsed.as_secs_f64(),
            if r.interrupted { " (interrupted)" } else { "" },
            r.found.first().map_or("none".into(), |f| score_text(f.score)),
            score_text(r.start_best),
            r.found.len(),
            dir.join(super::write::PUZZLES_TXT).display()
        )
    }

    /// A note on the answers that failed their check, if any did.
    pub fn failures(&self) -> Option<String> {
        let (shown, failures) = &self.result.failures;
        (*failures > 0).then(|| {
            format!(
                "{failures} answers failed their check and were left out; the first: {}",
                shown.join("; ")
            )
        })
    }
}

/// `hunt --merge`: the puzzles of `dirs` checked, scored on this machine for
/// the contenders `req` names, and kept once up to symmetry, written into
/// `out` (`puzzles.txt`, `found.csv`).
pub fn merge(
    plan: &HuntPlan,
    req: &HuntRequest,
    specs: &[ContenderSpec],
    dirs: &[PathBuf],
    out: &Path,
    cancel: &Arc<AtomicBool>,
) -> Result<(super::merge::MergeResult, ScoreName), HuntError> {
    let hunted = contender(&req.hunted, specs, 1, out)?;
    let against = match &req.against {
        Some(b) => Some(contender(b, specs, 1, out)?),
        None => None,
    };
    let merged = super::merge::merge(dirs, &hunted, against.as_ref(), &plan.options, cancel);
    for c in std::iter::once(&hunted).chain(against.as_ref()) {
        c.engine.finish();
    }
    let merged = merged?;
    let score = ScoreName {
        hunted: hunted.variant.clone(),
        against: against.as_ref().map(|b| b.variant.clone()),
        objective: plan.options.objective,
    };
    super::merge::write_merged(out, &score, &merged, dirs.len(), &plan.alphabet).map_err(
        |source| HuntError::Write {
            path: out.to_path_buf(),
            source,
        },
    )?;
    Ok((merged, score))
}
