//! `sudoku-bench study resume DIR`: a study that was killed or interrupted,
//! finished. Its options are its own, read back from its study.json; the
//! shares its `shares.csv` lists are taken as they are.

use anyhow::{bail, Context, Result};
use std::path::PathBuf;
use std::process::ExitCode;
use sudoku_bench::study::session::Resumed;
use sudoku_bench::study::{self, StudyFile};

#[derive(clap::Args)]
pub(super) struct ResumeArgs {
    /// The study folder.
    #[arg(value_name = "STUDY_DIR")]
    dir: PathBuf,
    /// Resume even when this is another build than the one that began it.
    #[arg(long)]
    force: bool,
    /// No progress and no findings on the terminal.
    #[arg(long)]
    quiet: bool,
}

pub(super) fn run(r: &ResumeArgs) -> Result<ExitCode> {
    let json = r.dir.join(study::JSON);
    if !json.is_file() {
        bail!(
            "{}: not a study folder (no {})",
            r.dir.display(),
            study::JSON
        );
    }
    let text = std::fs::read_to_string(&json)
        .with_context(|| format!("cannot read {}", json.display()))?;
    let file: StudyFile =
        serde_json::from_str(&text).with_context(|| format!("reading {}", json.display()))?;
    if !file.run.finished.is_empty() && !file.run.interrupted {
        println!(
            "{}: the study is complete (finished {}): nothing to resume",
            r.dir.display(),
            file.run.finished
        );
        return Ok(ExitCode::SUCCESS);
    }
    if let Some(why) = file.run.other_build() {
        let why = format!("the study was {why}");
        if !r.force {
            bail!(
                "{}: {why}; not resumed (--force resumes anyway)",
                r.dir.display()
            );
        }
        eprintln!("note: resuming despite: {why}");
    }
    let info = file.study.clone();
    study::check_handled(&info.options)?;
    let earlier = study::measured(&r.dir, &info.options)?;
    eprintln!(
        "resuming {}: {} shares measured already",
        r.dir.display(),
        earlier.len()
    );
    let resumed = Resumed { file, earlier };
    super::study::measure(info, r.quiet, &r.dir, Some(resumed))
}
