//! Datasets as a run sees them: selected (`--limit`, `--sample`), optionally
//! permuted, givens checked once, with the facts `run.json` records.

use crate::format::{Alphabet, Dataset};
use crate::generate::stream;
use crate::grid::{Geometry, Grid};
use crate::transform::Transform;
use crate::validate::find_conflict;
use serde::{Deserialize, Serialize};

/// One puzzle of a run.
#[derive(Clone, Debug)]
pub struct BenchPuzzle {
    /// 0-based position in the dataset file.
    pub index: u64,
    /// The givens (permuted when asked).
    pub grid: Grid,
    /// The expected answer (permuted alike), if the dataset has one.
    pub expected: Option<Grid>,
    /// The givens conflict.
    pub invalid: bool,
}

/// What `run.json` says of a dataset.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct DatasetInfo {
    /// Name used in records.
    pub name: String,
    /// Path, `<stdin>` or `embedded:NAME`.
    pub source: String,
    /// Grid size, like `9x9`.
    pub size: String,
    /// Bytes of the source.
    pub bytes: u64,
    /// SHA-256 of the source bytes, hex.
    pub sha256: String,
    /// Puzzles in the source.
    pub puzzles_in_source: u64,
    /// Puzzles the run used.
    pub puzzles_run: u64,
}

/// A dataset ready to run.
#[derive(Clone, Debug)]
pub struct BenchDataset {
    /// Name used in records.
    pub name: String,
    /// Alphabet for writing puzzles.
    pub alphabet: Alphabet,
    /// Grid size of every puzzle.
    pub geometry: Geometry,
    /// The puzzles, in file order.
    pub puzzles: Vec<BenchPuzzle>,
    /// Facts for `run.json`.
    pub info: DatasetInfo,
}

/// Which puzzles to run, and how.
#[derive(Clone, Debug, Default)]
pub struct Selection {
    /// Keep a random sample of this many (file order kept).
    pub sample: Option<usize>,
    /// Then keep the first this many.
    pub limit: Option<usize>,
    /// Apply a random symmetry to each puzzle.
    pub permute: bool,
    /// Seed for sampling and permutation.
    pub seed: u64,
}

/// Hex SHA-256 of some bytes.
pub fn sha256_hex(bytes: &[u8]) -> String {
    use sha2::Digest;
    sha2::Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Size and hex SHA-256 of a file, read in a stream.
pub fn sha256_file(path: &std::path::Path) -> std::io::Result<(u64, String)> {
    use sha2::Digest;
    let mut hasher = sha2::Sha256::new();
    let bytes = std::io::copy(&mut std::fs::File::open(path)?, &mut hasher)?;
    Ok((
        bytes,
        hasher
            .finalize()
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect(),
    ))
}

impl BenchDataset {
    /// Prepares a dataset read from `source_bytes` (for the checksum and size).
    pub fn prepare(ds: Dataset, bytes: u64, sha256: String, sel: &Selection) -> BenchDataset {
        use rand::seq::index::sample;
        let total = ds.puzzles.len();
        let mut chosen: Vec<usize> = match sel.sample {
            Some(k) if k < total => {
                let mut rng = stream(sel.seed, u64::MAX);
                let mut v = sample(&mut rng, total, k).into_vec();
                v.sort_unstable();
                v
            }
            _ => (0..total).collect(),
        };
        if let Some(limit) = sel.limit {
            chosen.truncate(limit);
        }
        let geometry = ds.geometry;
        // Consume the source in file order, keeping the chosen puzzles (no copies).
        let mut wanted = chosen.iter().copied().peekable();
        let mut puzzles: Vec<BenchPuzzle> = Vec::with_capacity(chosen.len());
        for (i, p) in ds.puzzles.into_iter().enumerate() {
            if wanted.peek() != Some(&i) {
                continue;
            }
            wanted.next();
            let (mut grid, mut expected) = (p.grid, p.expected);
            if sel.permute {
                let t = Transform::random(geometry, &mut stream(sel.seed, i as u64));
                grid = t.apply(&grid);
                expected = expected.map(|e| t.apply(&e));
            }
            let invalid = find_conflict(&grid).is_some();
            puzzles.push(BenchPuzzle {
                index: i as u64,
                grid,
                expected,
                invalid,
            });
        }
        BenchDataset {
            info: DatasetInfo {
                name: ds.name.clone(),
                source: ds.source.clone(),
                size: geometry.name(),
                bytes,
                sha256,
                puzzles_in_source: total as u64,
                puzzles_run: puzzles.len() as u64,
            },
            name: ds.name,
            alphabet: ds.alphabet,
            geometry,
            puzzles,
        }
    }
}
