//! Resolution of `--dataset` names, files and folders into the datasets a
//! run measures: embedded sets, public lists (downloaded on first use), files,
//! and folders of files.

use super::prepare::WINDOW;
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
        return Err(DatasetError::Unknown(spec.to_string(), names.join(", ")));
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
    // again, half a window at a time, whenever a run uses it.
    puzzle_files(path)?
        .iter()
        .map(|file| {
            let io = |source| LoadError::Io {
                path: file.clone(),
                source,
            };
            // Checked and hashed in one read.
            let mut hashing = Hashing::new(std::fs::File::open(file).map_err(io)?);
            let mut ds = read_capped(&file.display().to_string(), &mut hashing, opts, window)?;
            if let Some(name) = name {
                ds.name = name.to_string();
            } else if let Some(stem) = file.file_stem() {
                ds.name = stem.to_string_lossy().into_owned();
            }
            let (bytes, sha) = hashing.finish().map_err(io)?;
            Ok(if ds.puzzles.len() < ds.count {
                BenchDataset::streamed(ds, file, opts, bytes, sha, sel)
                    .with_window((window / 2).max(1))
            } else {
                BenchDataset::prepare(ds, bytes, sha, sel)
            })
        })
        .collect()
}
