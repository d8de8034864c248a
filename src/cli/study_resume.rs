//! `sudoku-bench study resume DIR`: a study that was killed or interrupted,
//! finished. Its options are its own (the command line its study.json
//! records); the shares its `shares.csv` lists are taken as they are.

use anyhow::{bail, Context, Result};
use std::path::PathBuf;
use std::process::ExitCode;
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
    let mut plan = match super::study::plan(recorded(&file)?)? {
        super::study::Planned::Study(p) => *p,
        _ => bail!(
            "the recorded command {:?} is not a study of clues or sizes",
            file.run.command.join(" ")
        ),
    };
    plan.common.quiet |= r.quiet;
    let earlier = study::measured(&r.dir, &plan.opts)?;
    eprintln!(
        "resuming {}: {} shares measured already",
        r.dir.display(),
        earlier.len()
    );
    let resumed = super::study::Resumed { file, earlier };
    super::study::measure(plan, &r.dir, Some(resumed))
}

/// The study's own arguments, parsed from the command line it recorded.
fn recorded(file: &StudyFile) -> Result<super::study::StudyArgs> {
    use clap::Parser;
    let cli = super::Cli::try_parse_from(&file.run.command).map_err(|e| {
        anyhow::anyhow!(
            "the recorded command {:?} no longer parses: {}",
            file.run.command.join(" "),
            e.kind()
        )
    })?;
    match cli.command {
        super::Command::Study(args) => Ok(args),
        _ => bail!(
            "the recorded command {:?} is not a study",
            file.run.command.join(" ")
        ),
    }
}
