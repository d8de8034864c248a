//! Resolution of `--dataset` names, files and folders into the datasets a
//! run measures: embedded sets, public lists (downloaded on first use), files,
//! and folders of files.

use super::prepare::WINDOW;
use super::store::{Store, Tee, STORE_LIMIT};
use super::{BenchDataset, Selection};
use crate::datasets::{self, checksum::sha256_hex, checksum::Hashing, DatasetError};
use crate::error::LoadError;
use crate::format::{puzzle_files, read_capped, read_str, ReadOptions};

/// Resolves a `--dataset` argument: an embedded name, a public list's name
/// (downloaded on first use; `progress` hears what is fetched), a file, or a
/// folder (one dataset per file).
pub fn resolve(
    spec: &str,
    opts: &ReadOptions,
    sel: &Selection,
    progress: &mut dyn FnMut(&str),
) -> Result<Vec<BenchDataset>, DatasetError> {
    if let Some(p) = datasets::public::find(spec) {
        let path = p.ensure(progress)?;
        return read_files(&path, Some(p.name), opts, sel, WINDOW);
    }
    resolve_windowed(spec, opts, sel, WINDOW)
}

/// [`resolve`], with files of more than `window` puzzles streamed in windows of
/// half that many, one solved while the next is read (tests use small
/// windows; runs use [`WINDOW`]).
pub fn resolve_windowed(
    spec: &str,
    opts: &ReadOptions,
    sel: &Selection,
    window: usize,
) -> Result<Vec<BenchDataset>, DatasetError> {
    if let Some(e) = datasets::embedded(spec) {
        let mut ds = read_str(&format!("embedded:{}", e.name), e.text, opts)?;
        ds.name = e.name.to_string();
        return Ok(vec![BenchDataset::prepare(
            ds,
            e.text.len() as u64,
            sha256_hex(e.text.as_bytes()),
            sel,
        )]);
    }
    let path = std::path::Path::new(spec);
    if !path.exists() {
        let names: Vec<&str> = datasets::EMBEDDED
            .iter()
            .map(|e| e.name)
            .chain(datasets::public::PUBLIC.iter().map(|p| p.name))
            .collect();
        return Err(DatasetError::Unknown(
            spec.to_string(),
            names.join(", "),
            closest(spec, &names).unwrap_or_default().to_string(),
        ));
    }
    read_files(path, None, opts, sel, window)
}

/// Reads a file, or each file of a folder, as datasets named after the files
/// (or `name`).
fn read_files(
    path: &std::path::Path,
    name: Option<&str>,
    opts: &ReadOptions,
    sel: &Selection,
    window: usize,
) -> Result<Vec<BenchDataset>, DatasetError> {
    // Each file is read and checked once; one larger than a window is read
    // again, half a window at a time, whenever a run uses it. A pipe or a
    // device cannot be opened again: its bytes are copied into a store of
    // the run's own as they are read, and read again from there.
    puzzle_files(path)?
        .iter()
        .map(|file| {
            let io = |source| LoadError::Io {
                path: file.clone(),
                source,
            };
            let input = std::fs::File::open(file).map_err(io)?;
            let regular = input.metadata().map_err(io)?.is_file();
            let mut store = match regular {
                true => None,
                false => Some(Store::new(file)?),
            };
            let source_name = file.display().to_string();
            // Checked and hashed in one read (and copied, into a store).
            let (mut ds, (bytes, sha)) = match &mut store {
                None => {
                    let mut hashing = Hashing::new(input);
                    let ds = read_capped(&source_name, &mut hashing, opts, window)?;
                    (ds, hashing.finish().map_err(io)?)
                }
                Some(store) => {
                    let mut copy = std::io::BufWriter::new(store.create().map_err(io)?);
                    let tee = Tee {
                        inner: input,
                        copy: &mut copy,
                        left: STORE_LIMIT,
                    };
                    let mut hashing = Hashing::new(tee);
                    let ds = read_capped(&source_name, &mut hashing, opts, window)?;
                    let done = hashing.finish().map_err(io)?;
                    std::io::Write::flush(&mut copy).map_err(io)?;
                    (ds, done)
                }
            };
            if let Some(name) = name {
                ds.name = name.to_string();
            } else if let Some(stem) = file.file_stem() {
                ds.name = stem.to_string_lossy().into_owned();
            }
            Ok(if ds.puzzles.len() < ds.count {
                let (from, kept) = match store {
                    Some(s) => (s.file(), Some(std::sync::Arc::new(s))),
                    None => (file.clone(), None),
                };
                BenchDataset::streamed(ds, &from, opts, bytes, sha, sel)
                    .with_window((window / 2).max(1))
                    .kept_in(kept)
            } else {
                BenchDataset::prepare(ds, bytes, sha, sel)
            })
        })
        .collect()
}

/// The name `typed` most likely meant: the same letters and digits
/// (`hard9x9`, `HARD-9x9`), else the closest by Jaro–Winkler above 0.85.
pub fn closest<'a>(typed: &str, names: &[&'a str]) -> Option<&'a str> {
    let bare = |s: &str| -> String {
        s.chars()
            .filter(char::is_ascii_alphanumeric)
            .map(|c| c.to_ascii_lowercase())
            .collect()
    };
    let want = bare(typed);
    if let Some(n) = names.iter().find(|n| bare(n) == want) {
        return Some(n);
    }
    names
        .iter()
        .map(|n| (strsim::jaro_winkler(&want, &bare(n)), *n))
        .filter(|(score, _)| *score > 0.85)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, n)| n)
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_mistyped_name_is_matched_to_the_closest() {
        let names = ["hard-9x9", "extreme-9x9", "set-16x16", "top1465", "17-clue"];
        assert_eq!(super::closest("hard9x9", &names), Some("hard-9x9"));
        assert_eq!(super::closest("HARD-9x9", &names), Some("hard-9x9"));
        assert_eq!(super::closest("extrem-9x9", &names), Some("extreme-9x9"));
        assert_eq!(super::closest("top1456", &names), Some("top1465"));
        assert_eq!(super::closest("my-puzzles.txt", &names), None);
    }
}
