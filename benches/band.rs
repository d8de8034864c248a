//! The 9×9 engines' instruction-set paths, `band`'s and `box`'s, side by side
//! with `bitset-mrv-locked`'s (portable and AVX2 rows):
//! one thread, mode unique, whole public lists, the contenders taking turns round
//! by round (rotating who goes first) so that machine drift hits all alike.
//! Prints the median puzzles/s of each over the rounds, guesses per puzzle, and
//! each path's median ratio to the portable one.
//!
//! `SUDOKU_BENCH_DATASETS=../shared/datasets cargo bench --bench band [ROUNDS]`

use std::hint::black_box;
use std::path::PathBuf;
use std::time::Instant;
use sudoku_bench::format::{read_path, ReadOptions};
use sudoku_bench::solver::{Band, BitsetMrv, Boxes, Isa, Limits, Mode, Singles, Solver};
use sudoku_bench::Grid;

enum Contender {
    Band(Isa),
    Box(Isa),
    Locked(Isa),
}

impl Contender {
    fn name(&self) -> String {
        match self {
            Contender::Band(i) => format!("band {i:?}"),
            Contender::Box(i) => format!("box {i:?}"),
            Contender::Locked(i) => format!("locked {i:?}"),
        }
    }

    /// Solves every puzzle; returns (seconds, guesses).
    fn run(&self, puzzles: &[Grid]) -> (f64, u64) {
        let limits = Limits::new(Mode::Unique);
        let t = Instant::now();
        let mut guesses = 0;
        for p in puzzles {
            let out = match self {
                Contender::Band(isa) => Band { isa: *isa }.solve(black_box(p), &limits),
                Contender::Box(isa) => Boxes { isa: *isa }.solve(black_box(p), &limits),
                Contender::Locked(isa) => BitsetMrv {
                    singles: Singles::NakedHiddenLocked,
                    isa: *isa,
                }
                .solve(black_box(p), &limits),
            };
            guesses += out.counters.guesses;
        }
        (t.elapsed().as_secs_f64(), guesses)
    }
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() {
    let rounds: usize = std::env::args()
        .skip(1)
        .find_map(|a| a.parse().ok())
        .unwrap_or(9);
    let Some(dir) = std::env::var_os("SUDOKU_BENCH_DATASETS").map(PathBuf::from) else {
        eprintln!("NOTICE: SUDOKU_BENCH_DATASETS is not set: the band benchmark needs the public lists; SKIPPED");
        return;
    };
    let mut contenders: Vec<Contender> =
        Isa::available().into_iter().map(Contender::Band).collect();
    contenders.extend(Isa::available().into_iter().map(Contender::Box));
    contenders.extend(
        Isa::available()
            .into_iter()
            .filter(|&i| i != Isa::Avx512)
            .map(Contender::Locked),
    );
    for file in [
        "puzzles2_17_clue",
        "puzzles3_magictour_top1465",
        "puzzles6_forum_hardest_1106",
    ] {
        let ds = match read_path(&dir.join(file), &ReadOptions::default()) {
            Ok(ds) => ds,
            Err(e) => {
                eprintln!("{file}: {e}");
                continue;
            }
        };
        let puzzles: Vec<Grid> = ds.puzzles.into_iter().map(|p| p.grid).collect();
        let n = puzzles.len() as f64;
        let mut rates = vec![Vec::new(); contenders.len()];
        let mut ratios = vec![Vec::new(); contenders.len()];
        let mut guesses = vec![0; contenders.len()];
        for c in &contenders {
            c.run(&puzzles[..puzzles.len().min(2000)]); // warm-up
        }
        for round in 0..rounds {
            let mut secs = vec![0.0; contenders.len()];
            for k in 0..contenders.len() {
                let i = (k + round) % contenders.len();
                let (s, g) = contenders[i].run(&puzzles);
                secs[i] = s;
                guesses[i] = g;
            }
            for i in 0..contenders.len() {
                rates[i].push(n / secs[i]);
                ratios[i].push(secs[0] / secs[i]);
            }
        }
        println!(
            "{file} ({} puzzles, {rounds} rounds, 1 thread, mode unique)",
            puzzles.len()
        );
        for (i, c) in contenders.iter().enumerate() {
            println!(
                "  {:<20} {:>10.0} puzzles/s   {:>7.2} guesses/puzzle   {:>5.3}x band portable",
                c.name(),
                median(rates[i].clone()),
                guesses[i] as f64 / n,
                median(ratios[i].clone()),
            );
        }
    }
}
