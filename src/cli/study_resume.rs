//! `sudoku-bench study resume DIR`: a study that was killed or interrupted,
//! finished. Its options are its own, read back from its study.json; the
//! shares its `shares.csv` lists are taken as they are.

use anyhow::Result;
use std::path::PathBuf;
use std::process::ExitCode;
use sudoku_bench::harness::plan::Measure;
use sudoku_bench::study::{self, Resumable};

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
    let (info, resumed, despite) = match study::resumable(&r.dir, r.force)? {
        Resumable::Complete(finished) => {
            println!(
                "{}: the study is complete (finished {finished}): nothing to resume",
                r.dir.display()
            );
            return Ok(ExitCode::SUCCESS);
        }
        Resumable::CutShort {
            info,
            resumed,
            despite,
        } => (info, resumed, despite),
    };
    let counted = info.options.measure == Measure::Instructions;
    if counted && !sudoku_bench::callgrind::on_valgrind() {
        return super::study::counted(r.quiet);
    }
    if let Some(why) = despite {
        eprintln!("note: resuming despite: {why}");
    }
    eprintln!(
        "resuming {}: {} shares measured already",
        r.dir.display(),
        resumed.earlier.len()
    );
    super::study::measure(*info, r.quiet, &r.dir, Some(*resumed))
}
