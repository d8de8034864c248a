//! The datasets embedded in the binary (from the repository's `datasets/`),
//! public lists by name ([`public`]), and their checksums ([`checksum`]).
//! Turning `--dataset` names into a run's datasets is the harness's
//! (`harness::resolve`).

pub mod checksum;
pub mod listing;
pub mod public;

use crate::error::LoadError;

/// Why a dataset named on the command line could not be had.
#[derive(Debug, thiserror::Error)]
pub enum DatasetError {
    /// A file or folder could not be read or holds bad entries.
    #[error(transparent)]
    Load(#[from] LoadError),
    /// A public list could not be downloaded or cached.
    #[error(transparent)]
    Download(#[from] public::DownloadError),
    /// A name that is neither an embedded dataset nor a path: the name, the
    /// names there are, and the closest of them (empty when none is close).
    #[error("no dataset named {0:?}: there is no such file or folder, and no embedded or public set of that name{hint}({1})", hint = did_you_mean(.2))]
    Unknown(String, String, String),
}

/// `; did you mean "NAME"? ` before the list of names, or a space.
fn did_you_mean(name: &str) -> String {
    if name.is_empty() {
        " ".to_string()
    } else {
        format!("; did you mean {name:?}? ")
    }
}

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

/// A path named on the command line, or the cached copy of the public list
/// of that name (downloaded first if need be) when no such path exists.
pub fn path_or_public(
    spec: &std::path::Path,
    progress: &mut dyn FnMut(&str),
) -> Result<std::path::PathBuf, public::DownloadError> {
    match spec.to_str().and_then(public::find) {
        Some(p) if !spec.exists() => Ok(p.ensure(progress)?),
        _ => Ok(spec.to_path_buf()),
    }
}
