//! What a run's contenders were when it began, as `run.json` records it: each
//! contender's name and a SHA-256 of its description, and a SHA-256 of each
//! file it runs (an outside program, the files its command names, a shared
//! library). `bench --resume` makes them again and says what differs: a
//! contender `run.json` gained or changed after the run began is never run,
//! and a program or library whose file changed is refused unless forced.

use super::plan::RunOptions;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// One contender as the run began with it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ContenderPrint {
    /// Its name.
    pub name: String,
    /// SHA-256 of its description as `run.json` holds it (a built-in
    /// strategy's: of its name).
    pub spec_sha256: String,
    /// The files it runs, each with its SHA-256.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub files: Vec<FilePrint>,
}

/// A file a contender runs.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct FilePrint {
    /// The path, as the command or `--library` gave it (a program found on
    /// `PATH`: where it was found).
    pub path: String,
    /// SHA-256 of its bytes, hex; empty when it could not be read.
    pub sha256: String,
}

/// The prints of every contender of `options`, in run order.
pub fn prints(options: &RunOptions) -> Vec<ContenderPrint> {
    let mut out: Vec<ContenderPrint> = options
        .solvers
        .iter()
        .map(|s| ContenderPrint {
            name: s.clone(),
            spec_sha256: crate::datasets::checksum::sha256_hex(s.as_bytes()),
            files: Vec::new(),
        })
        .collect();
    for c in &options.contenders {
        let spec = serde_json::to_vec(c).unwrap_or_default();
        let files = files_of(&c.command, c.library.as_deref())
            .into_iter()
            .map(|p| FilePrint {
                sha256: file_sha256(&p).unwrap_or_default(),
                path: p.display().to_string(),
            })
            .collect();
        out.push(ContenderPrint {
            name: c.name.clone(),
            spec_sha256: crate::datasets::checksum::sha256_hex(&spec),
            files,
        });
    }
    out
}

/// The files a contender runs: a library; or a command's program (found on
/// `PATH` when it names no folder) and every later word that names a file
/// (a script, a table it reads).
fn files_of(command: &[String], library: Option<&Path>) -> Vec<PathBuf> {
    if let Some(lib) = library {
        return vec![lib.to_path_buf()];
    }
    let mut out = Vec::new();
    let Some(program) = command.first() else {
        return out;
    };
    if program.contains('/') {
        out.push(PathBuf::from(program));
    } else if let Some(found) = std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|d| d.join(program))
            .find(|p| p.is_file())
    }) {
        out.push(found);
    }
    for word in &command[1..] {
        let p = Path::new(word);
        if p.is_file() {
            out.push(p.to_path_buf());
        }
    }
    out
}

fn file_sha256(path: &Path) -> std::io::Result<String> {
    let file = std::fs::File::open(path)?;
    Ok(crate::datasets::checksum::Hashing::new(file).finish()?.1)
}

/// How the prints recorded (`then`) and made now (`now`) differ: the
/// contenders gained or changed in `run.json` (never to be run), and the
/// files changed (refused unless forced).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Differences {
    /// Contenders `run.json` lists now but did not when the run began, or
    /// lists with another description.
    pub gained: Vec<String>,
    /// Files that changed, are gone, or are run now and were not.
    pub changed: Vec<String>,
}

/// Compares the prints a run recorded with those of its options now.
pub fn compare(then: &[ContenderPrint], now: &[ContenderPrint]) -> Differences {
    let short = |s: &str| s[..s.len().min(12)].to_string();
    let mut d = Differences::default();
    for n in now {
        let Some(t) = then.iter().find(|t| t.name == n.name) else {
            d.gained.push(format!(
                "contender `{}`: not in the run when it began (run.json gained it since)",
                n.name
            ));
            continue;
        };
        if t.spec_sha256 != n.spec_sha256 {
            d.gained.push(format!(
                "contender `{}`: its description in run.json changed since the run began",
                n.name
            ));
            continue;
        }
        for f in &t.files {
            match n.files.iter().find(|g| g.path == f.path) {
                None => d.changed.push(format!(
                    "contender `{}`: {} is not what it runs now",
                    n.name, f.path
                )),
                Some(g) if g.sha256.is_empty() => d.changed.push(format!(
                    "contender `{}`: {} cannot be read now",
                    n.name, f.path
                )),
                Some(g) if g.sha256 != f.sha256 => d.changed.push(format!(
                    "contender `{}`: {} changed (SHA-256 {} then, {} now)",
                    n.name,
                    f.path,
                    short(&f.sha256),
                    short(&g.sha256)
                )),
                Some(_) => {}
            }
        }
        for g in &n.files {
            if !t.files.iter().any(|f| f.path == g.path) {
                d.changed.push(format!(
                    "contender `{}`: runs {} now, which the run did not",
                    n.name, g.path
                ));
            }
        }
    }
    for t in then {
        if !now.iter().any(|n| n.name == t.name) {
            d.changed
                .push(format!("contender `{}`: not in run.json now", t.name));
        }
    }
    d
}

#[cfg(test)]
mod tests {
    use super::*;

    fn print(name: &str, spec: &str, files: &[(&str, &str)]) -> ContenderPrint {
        ContenderPrint {
            name: name.into(),
            spec_sha256: spec.into(),
            files: files
                .iter()
                .map(|(p, s)| FilePrint {
                    path: p.to_string(),
                    sha256: s.to_string(),
                })
                .collect(),
        }
    }

    #[test]
    fn a_gained_or_redescribed_contender_and_a_changed_file_are_named() {
        let then = [print("band", "b", &[]), print("fx", "f", &[("x", "aaaa")])];
        assert_eq!(compare(&then, &then), Differences::default());
        let now = [
            print("band", "b", &[]),
            print("fx", "f", &[("x", "bbbb")]),
            print("new", "n", &[]),
        ];
        let d = compare(&then, &now);
        assert_eq!(d.gained.len(), 1, "{d:?}");
        assert!(d.gained[0].contains("`new`"));
        assert_eq!(
            d.changed,
            ["contender `fx`: x changed (SHA-256 aaaa then, bbbb now)"]
        );
        let d = compare(&then, &[print("band", "b", &[]), print("fx", "g", &[])]);
        assert!(d.gained[0].contains("description"), "{d:?}");
    }

    #[test]
    fn a_script_and_its_interpreter_are_both_printed() {
        let dir = tempfile::tempdir().unwrap();
        let script = dir.path().join("s.py");
        std::fs::write(&script, "print(1)\n").unwrap();
        let files = files_of(
            &["sh".into(), script.display().to_string(), "9".into()],
            None,
        );
        assert_eq!(files.len(), 2, "{files:?}");
        assert_eq!(files[1], script);
        assert!(files[0].ends_with("sh"));
    }
}
