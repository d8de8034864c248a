//! `sudoku-bench datasets`: the embedded sets and the public lists by name.

use anyhow::Result;
use std::io::Write;
use std::process::ExitCode;
use sudoku_bench::datasets::{public, EMBEDDED};
use sudoku_bench::format::{read_str, ReadOptions};

#[derive(clap::Args)]
pub(super) struct DatasetsArgs {
    /// Download every public list not yet cached (then list them all).
    #[arg(long)]
    fetch: bool,
}

pub(super) fn run(args: DatasetsArgs) -> Result<ExitCode> {
    if args.fetch {
        for p in public::PUBLIC {
            p.ensure(&mut |m| eprintln!("{m}"))?;
        }
    }
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "Embedded in the binary (the default run uses all of them):"
    )?;
    for e in EMBEDDED {
        let set = read_str(e.name, e.text, &ReadOptions::default())?;
        // The first comment line says where the set came from.
        let origin = e
            .text
            .lines()
            .find_map(|l| l.strip_prefix('#'))
            .map(|l| {
                l.trim()
                    .trim_start_matches("made by datasets/make.sh: sudoku-bench ")
            })
            .unwrap_or("");
        writeln!(
            out,
            "  {:<13} {:<6} {:>6} puzzles  {origin}",
            e.name,
            set.geometry.name(),
            set.count
        )?;
    }
    let cache = public::cache_dir();
    writeln!(
        out,
        "\nPublic lists, downloaded on first use and checked against their SHA-256{}:",
        match &cache {
            Ok(dir) => format!(", cached in {}", dir.display()),
            Err(_) => String::new(),
        }
    )?;
    for p in public::PUBLIC {
        let state = if p.is_cached() {
            "cached"
        } else {
            "not cached"
        };
        writeln!(
            out,
            "  {:<13} {:<6} {:>6} puzzles  {:>7.1} kB  {state}",
            p.name,
            p.size,
            p.puzzles,
            p.bytes as f64 / 1e3,
        )?;
        writeln!(out, "                {}", p.origin)?;
    }
    let mut sources: Vec<&str> = public::PUBLIC.iter().map(|p| p.archive).collect();
    sources.dedup();
    for s in sources {
        writeln!(out, "  from {s}")?;
    }
    writeln!(
        out,
        "  (set {} to a base URL or folder holding the files by name to download from there instead)",
        public::MIRROR_VAR
    )?;
    Ok(ExitCode::SUCCESS)
}
