//! The datasets embedded in the binary (from the repository's `datasets/`),
//! public lists by name ([`public`]), and resolution of `--dataset` names,
//! files and folders.

pub mod public;

use crate::error::LoadError;
use crate::format::{puzzle_files, read_capped, read_str, ReadOptions};
use crate::harness::prepare::WINDOW;
use crate::harness::prepare::{sha256_hex, Hashing};
use crate::harness::{BenchDataset, Selection};

/// A dataset compiled into the binary.
#[derive(Clone, Copy, Debug)]
pub struct Embedded {
    /// Name used with `--dataset`.
    pub name: &'static str,
    /// Path in the repository.
    pub path: &'static str,
    /// The file's text.
    pub text: &'static str,
}

macro_rules! embedded {
    ($($name:literal => $path:literal),* $(,)?) => {
        &[$(Embedded { name: $name, path: $path, text: include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/", $path)) }),*]
    };
}

/// Every embedded dataset, in the order the default run uses them.
pub const EMBEDDED: &[Embedded] = embedded! {
    "seeds-9x9" => "datasets/reference/seeds-9x9.txt",
    "easy-9x9" => "datasets/easy-9x9.txt",
    "medium-9x9" => "datasets/medium-9x9.txt",
    "hard-9x9" => "datasets/hard-9x9.txt",
    "extreme-9x9" => "datasets/extreme-9x9.txt",
    "set-4x4" => "datasets/set-4x4.txt",
    "set-16x16" => "datasets/set-16x16.txt",
    "set-25x25" => "datasets/set-25x25.txt",
    "set-36x36" => "datasets/set-36x36.txt",
    "set-64x64" => "datasets/set-64x64.txt",
};

/// Looks an embedded dataset up by name.
pub fn embedded(name: &str) -> Option<&'static Embedded> {
    EMBEDDED.iter().find(|e| e.name == name)
}

/// Resolves a `--dataset` argument: an embedded name, a public list's name
/// (downloaded on first use; `progress` hears what is fetched), a file, or a
/// folder (one dataset per file).
pub fn resolve(
    spec: &str,
    opts: &ReadOptions,
    sel: &Selection,
    progress: &mut dyn FnMut(&str),
) -> Result<Vec<BenchDataset>, LoadError> {
    if let Some(p) = public::find(spec) {
        let path = p.ensure(progress)?;
        return read_files(&path, Some(p.name), opts, sel, WINDOW);
    }
    resolve_windowed(spec, opts, sel, WINDOW)
}

/// A path named on the command line, or the cached copy of the public list
/// of that name (downloaded first if need be) when no such path exists.
pub fn path_or_public(
    spec: &std::path::Path,
    progress: &mut dyn FnMut(&str),
) -> Result<std::path::PathBuf, LoadError> {
    match spec.to_str().and_then(public::find) {
        Some(p) if !spec.exists() => Ok(p.ensure(progress)?),
        _ => Ok(spec.to_path_buf()),
    }
}

/// [`resolve`], with files of more than `window` puzzles streamed in windows of
/// half that many, one solved while the next is read (tests use small
/// windows; runs use [`WINDOW`]).
pub fn resolve_windowed(
    spec: &str,
    opts: &ReadOptions,
    sel: &Selection,
    window: usize,
) -> Result<Vec<BenchDataset>, LoadError> {
    if let Some(e) = embedded(spec) {
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
        let names: Vec<&str> = EMBEDDED
            .iter()
            .map(|e| e.name)
            .chain(public::PUBLIC.iter().map(|p| p.name))
            .collect();
        return Err(LoadError::UnknownDataset(
            spec.to_string(),
            names.join(", "),
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
) -> Result<Vec<BenchDataset>, LoadError> {
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
