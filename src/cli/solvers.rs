//! `sudoku-bench solvers`: the registry, one line per variant.

use anyhow::Result;
use std::io::Write;
use std::process::ExitCode;
use sudoku_bench::solver::SolverId;

pub(super) fn run() -> Result<ExitCode> {
    let mut out = std::io::stdout().lock();
    for s in SolverId::ALL {
        let e = s.entry();
        let sizes = if e.sizes == sudoku_bench::solver::ALL_SIZES {
            "all sizes".to_string()
        } else {
            e.sizes
                .iter()
                .map(|n| format!("{n}x{n}"))
                .collect::<Vec<_>>()
                .join(",")
        };
        let mark = if s.is_default_variant() {
            String::new()
        } else {
            format!("  (variant of {})", e.family)
        };
        writeln!(out, "{:<24} {:<10} {}{mark}", e.name, sizes, e.description)?;
    }
    Ok(ExitCode::SUCCESS)
}
