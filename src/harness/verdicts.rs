//! Reference verdicts: each puzzle's solutions counted once, untimed, by the
//! strategy `solve` trusts on its size (`band` on 9×9, `cdcl-hybrid`
//! elsewhere; both are tested to agree with `dlx`), up to the mode's limit and
//! within a node budget. Every row's verdict is checked against them
//! ([`crate::contender::check`]). They are cached by the dataset's SHA-256
//! and the limit, so a long list pays once.

use crate::contender::Reference;
use crate::solver::{Limits, Mode, Solver, SolverId, Status};
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// Nodes the reference search may visit on one puzzle before its verdict is
/// left undecided (a big grid near the hardness peak): the rows of such a
/// puzzle are `unchecked`.
pub const DEFAULT_BUDGET: u64 = 20_000_000;

/// How reference verdicts are made.
#[derive(Clone, Debug)]
pub struct VerdictOptions {
    /// Nodes per puzzle before the verdict is left undecided.
    pub budget: u64,
    /// Where verdicts are cached (`None`: never).
    pub cache: Option<PathBuf>,
    /// Threads that compute them.
    pub threads: usize,
}

impl Default for VerdictOptions {
    fn default() -> VerdictOptions {
        VerdictOptions {
            budget: DEFAULT_BUDGET,
            cache: None,
            threads: 1,
        }
    }
}

/// The folder verdicts are cached in: `$SUDOKU_BENCH_CACHE/verdicts`, else
/// the platform's cache folder (`~/.cache/sudoku-bench/verdicts` on Linux).
pub fn cache_dir() -> Option<PathBuf> {
    match std::env::var_os(crate::datasets::public::CACHE_VAR).filter(|v| !v.is_empty()) {
        Some(dir) => Some(PathBuf::from(dir).join("verdicts")),
        None => dirs::cache_dir().map(|d| d.join("sudoku-bench").join("verdicts")),
    }
}

/// What making a run's reference verdicts cost.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct VerdictCost {
    /// Puzzles given a reference verdict.
    pub puzzles: u64,
    /// Of those, the ones searched now (the rest came from the cache).
    pub computed: u64,
    /// Puzzles the search could not decide within its budget.
    pub undecided: u64,
    /// Wall time, seconds.
    pub seconds: f64,
    /// Cache files found damaged and searched again, a line each.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
}

impl std::fmt::Display for VerdictCost {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "reference verdicts for {} puzzles: {:.2} s",
            crate::stats::thousands(self.puzzles),
            self.seconds
        )?;
        match self.computed {
            0 => write!(f, " (cached)")?,
            n if n < self.puzzles => write!(f, " ({} searched, the rest cached)", n)?,
            _ => {}
        }
        if self.undecided > 0 {
            write!(
                f,
                "; {} undecided within the budget: their rows are unchecked",
                self.undecided
            )?;
        }
        Ok(())
    }
}

/// No verdict yet.
const UNKNOWN: u32 = u32::MAX;
/// The search ran out of its budget.
const UNDECIDED: u32 = u32::MAX - 1;
/// Highest count kept (a larger limit is counted to here).
const MAX_LIMIT: u64 = (u32::MAX - 2) as u64;

/// One dataset's verdicts by position in its file: the count found (up to
/// `limit`), [`UNDECIDED`] or [`UNKNOWN`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdicts {
    limit: u64,
    pub(super) budget: u64,
    codes: Vec<u32>,
}

impl Verdicts {
    pub(super) fn new(limit: u64, budget: u64, n: usize) -> Verdicts {
        Verdicts {
            limit,
            budget,
            codes: vec![UNKNOWN; n],
        }
    }

    /// The count the verdicts go to.
    pub fn limit(&self) -> u64 {
        self.limit
    }

    /// The reference of the puzzle at `index` in the file.
    pub fn get(&self, index: u64) -> Reference {
        match self.codes.get(index as usize).copied() {
            None | Some(UNKNOWN) => Reference::Unknown,
            Some(UNDECIDED) => Reference::Undecided,
            Some(n) => Reference::Count {
                found: u64::from(n),
                limit: self.limit,
            },
        }
    }

    pub(super) fn set(&mut self, index: u64, r: Reference) {
        let code = match r {
            Reference::Unknown => UNKNOWN,
            Reference::Undecided => UNDECIDED,
            Reference::Count { found, .. } => found.min(MAX_LIMIT) as u32,
        };
        if let Some(c) = self.codes.get_mut(index as usize) {
            *c = code;
        }
    }

    /// True when the verdict at `index` must be searched with `budget`.
    pub(super) fn missing(&self, index: u64, budget: u64) -> bool {
        match self.codes.get(index as usize).copied() {
            Some(UNKNOWN) => true,
            Some(UNDECIDED) => budget > self.budget,
            _ => false,
        }
    }

    /// The file's format: what it begins with.
    const MAGIC: &'static [u8; 12] = b"sb-verdicts2";

    /// Reads a cache file: absent, another format or build's, damaged (its
    /// checksum or shape wrong), or its verdicts.
    pub(super) fn load(path: &Path, limit: u64, n: usize) -> Cached {
        let mut bytes = Vec::new();
        let read = std::fs::File::open(path).and_then(|mut f| f.read_to_end(&mut bytes));
        if read.is_err() {
            return Cached::Absent;
        }
        let Some(rest) = bytes.strip_prefix(Self::MAGIC.as_slice()) else {
            return Cached::Other;
        };
        let damaged = |why: &str| Cached::Damaged(format!("{}: {why}", path.display()));
        // Everything before the last 32 bytes, and their SHA-256 in them.
        let Some(at) = bytes
            .len()
            .checked_sub(32)
            .filter(|&at| at >= Self::MAGIC.len())
        else {
            return damaged("cut short");
        };
        let sum = crate::datasets::checksum::sha256_hex(&bytes[..at]);
        let kept: String = bytes[at..].iter().map(|b| format!("{b:02x}")).collect();
        if sum != kept {
            return damaged("its checksum does not match its contents");
        }
        let rest = &rest[..at - Self::MAGIC.len()];
        let word = |i: usize| -> Option<u64> {
            Some(u64::from_le_bytes(
                rest.get(i * 8..i * 8 + 8)?.try_into().ok()?,
            ))
        };
        let (Some(build_len), Some(lim), Some(budget), Some(count)) =
            (word(0), word(1), word(2), word(3))
        else {
            return damaged("its header is cut short");
        };
        let Some(build) = usize::try_from(build_len)
            .ok()
            .and_then(|l| rest.get(32..32usize.checked_add(l)?))
        else {
            return damaged("its build is cut short");
        };
        if build != BUILD.as_bytes() {
            return Cached::Other;
        }
        let body = &rest[32 + build.len()..];
        if lim != limit || count != n as u64 || body.len() != 4 * n {
            return damaged("its shape is not the dataset's");
        }
        let codes = body
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        Cached::Found(Verdicts {
            limit,
            budget,
            codes,
        })
    }

    /// The bytes of a cache file: the format, the build's length, the limit,
    /// the budget and the count, the build, the codes, then the SHA-256 of
    /// all that.
    fn bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(100 + 4 * self.codes.len());
        out.extend_from_slice(Self::MAGIC);
        for w in [
            BUILD.len() as u64,
            self.limit,
            self.budget,
            self.codes.len() as u64,
        ] {
            out.extend_from_slice(&w.to_le_bytes());
        }
        out.extend_from_slice(BUILD.as_bytes());
        for c in &self.codes {
            out.extend_from_slice(&c.to_le_bytes());
        }
        let sum = crate::datasets::checksum::sha256_hex(&out);
        out.extend((0..32).map(|i| u8::from_str_radix(&sum[2 * i..2 * i + 2], 16).unwrap_or(0)));
        out
    }

    /// Writes a cache file whole (through a temporary file, so a reader never
    /// sees half of one).
    pub(super) fn save(&self, path: &Path) -> io::Result<()> {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)?;
        }
        let tmp = path.with_extension(format!("tmp{}", std::process::id()));
        {
            let mut out = io::BufWriter::new(crate::files::create(&tmp)?);
            out.write_all(&self.bytes())?;
            out.flush()?;
        }
        std::fs::rename(&tmp, path)
    }
}

/// The build whose verdicts a cache file holds: its version and the
/// strategies' commit (another build searches again, in case its reference
/// strategies count otherwise).
const BUILD: &str = concat!(env!("CARGO_PKG_VERSION"), " ", env!("SUDOKU_BENCH_GIT"));

/// What a cache file held.
pub(super) enum Cached {
    /// No file.
    Absent,
    /// Another format's or build's: searched again, silently.
    Other,
    /// A damaged file, with why: searched again, with a note.
    Damaged(String),
    /// The verdicts.
    Found(Verdicts),
}

/// The count a reference search goes to in `mode`: two (one from several)
/// unless the mode counts further.
pub fn limit_for(mode: Mode) -> u64 {
    mode.max_solutions().clamp(2, MAX_LIMIT)
}

/// Searches one puzzle's reference verdict.
pub fn reference_of(
    grid: &crate::grid::Grid,
    limit: u64,
    budget: u64,
    cancel: &Arc<AtomicBool>,
) -> Reference {
    let limits = Limits {
        max_solutions: limit,
        keep_solutions: 0,
        ..Limits::new(Mode::Unique)
    }
    .with_node_budget(Some(budget))
    .with_cancel(cancel.clone());
    let out = SolverId::fastest_for(grid.geometry()).solve(grid, &limits);
    match out.status {
        Status::Budget | Status::Cancelled => Reference::Undecided,
        Status::Invalid => Reference::Count { found: 0, limit },
        _ => Reference::Count {
            found: out.solution_count.min(limit),
            limit,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::contender::BenchPuzzle;
    use crate::format::read_str;
    use crate::harness::prepare::{attach_verdicts as attach, BenchDataset};
    use crate::harness::Selection;

    fn dataset(text: &str) -> BenchDataset {
        let ds = read_str("t", text, &Default::default()).unwrap();
        BenchDataset::prepare(
            ds,
            text.len() as u64,
            "abc123".into(),
            &Selection::default(),
        )
    }

    const UNIQUE: &str =
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";

    #[test]
    fn verdicts_are_counted_and_cached_by_checksum() {
        let several = format!("{}{}", ".".repeat(80), "1");
        let text = format!("{UNIQUE}\n{several}\n{UNIQUE}\n");
        let dir = tempfile::tempdir().unwrap();
        let opts = VerdictOptions {
            cache: Some(dir.path().to_path_buf()),
            ..VerdictOptions::default()
        };
        let never = Arc::new(AtomicBool::new(false));
        let mut sets = [dataset(&text)];
        let cost = attach(&mut sets, Mode::Unique, &opts, &never).unwrap();
        assert_eq!((cost.puzzles, cost.computed), (3, 3));
        let refs: Vec<Reference> = sets[0]
            .puzzles
            .iter()
            .map(|p: &BenchPuzzle| p.reference)
            .collect();
        assert_eq!(refs[0], Reference::Count { found: 1, limit: 2 });
        assert_eq!(refs[1], Reference::Count { found: 2, limit: 2 });
        // Again: all from the cache, the same verdicts.
        let mut again = [dataset(&text)];
        let cost = attach(&mut again, Mode::Unique, &opts, &never).unwrap();
        assert_eq!((cost.puzzles, cost.computed), (3, 0));
        assert_eq!(
            again[0]
                .puzzles
                .iter()
                .map(|p| p.reference)
                .collect::<Vec<_>>(),
            refs
        );
        // Another limit is another cache entry.
        let mut counted = [dataset(&text)];
        let cost = attach(&mut counted, Mode::Count(5), &opts, &never).unwrap();
        assert_eq!(cost.computed, 3);
        assert_eq!(
            counted[0].puzzles[1].reference,
            Reference::Count { found: 5, limit: 5 }
        );
    }

    #[test]
    fn a_damaged_cache_file_is_searched_again_with_a_note() {
        let several = format!("{}{}", ".".repeat(80), "1");
        let text = format!("{UNIQUE}\n{several}\n");
        let dir = tempfile::tempdir().unwrap();
        let opts = VerdictOptions {
            cache: Some(dir.path().to_path_buf()),
            ..VerdictOptions::default()
        };
        let never = Arc::new(AtomicBool::new(false));
        let cost = attach(&mut [dataset(&text)], Mode::Unique, &opts, &never).unwrap();
        assert_eq!((cost.computed, cost.notes.len()), (2, 0));
        let file = dir.path().join("abc123-2.bin");
        let good = std::fs::read(&file).unwrap();
        // The two counts flipped (1 <-> 2), as an attacker would.
        let mut flipped = good.clone();
        let body = good.len() - 32 - 8;
        flipped[body..body + 4].copy_from_slice(&2u32.to_le_bytes());
        flipped[body + 4..body + 8].copy_from_slice(&1u32.to_le_bytes());
        for damaged in [
            flipped,
            good[..good.len() - 5].to_vec(),
            b"sb-verdicts2".to_vec(),
        ] {
            std::fs::write(&file, &damaged).unwrap();
            let mut sets = [dataset(&text)];
            let cost = attach(&mut sets, Mode::Unique, &opts, &never).unwrap();
            assert_eq!(cost.computed, 2, "searched again");
            assert_eq!(cost.notes.len(), 1, "{:?}", cost.notes);
            assert!(cost.notes[0].contains("not trusted"), "{:?}", cost.notes);
            assert_eq!(
                sets[0].puzzles[0].reference,
                Reference::Count { found: 1, limit: 2 }
            );
            assert_eq!(
                sets[0].puzzles[1].reference,
                Reference::Count { found: 2, limit: 2 }
            );
            assert_eq!(std::fs::read(&file).unwrap(), good, "written again whole");
        }
        // A file of the former format (no build, no checksum): searched again, silently.
        std::fs::write(&file, b"sb-verdicts1 anything").unwrap();
        let cost = attach(&mut [dataset(&text)], Mode::Unique, &opts, &never).unwrap();
        assert_eq!((cost.computed, cost.notes.len()), (2, 0));
    }
}
