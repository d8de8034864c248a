//! What `sudoku-bench datasets` prints: each embedded set with its size and
//! origin, each public list with its size, origin and whether it is cached.

use super::{public, DatasetError, EMBEDDED};
use crate::format::{read_str, ReadOptions};

/// The listing, a line for each set.
pub fn listing() -> Result<String, DatasetError> {
    let mut text = "Embedded in the binary (the default run uses all of them):\n".to_string();
    for e in EMBEDDED {
        let set = read_str(e.name, e.text, &ReadOptions::default())?;
        text += &format!(
            "  {:<13} {:<6} {:>6} puzzles  {}\n",
            e.name,
            set.geometry.name(),
            set.count,
            origin(e.text)
        );
    }
    let cached_in =
        public::cache_dir().map_or(String::new(), |d| format!(", cached in {}", d.display()));
    text += &format!(
        "\nPublic lists, downloaded on first use and checked against their SHA-256{cached_in}:\n"
    );
    for p in public::PUBLIC {
        let state = if p.is_cached() {
            "cached"
        } else {
            "not cached"
        };
        text += &format!(
            "  {:<13} {:<6} {:>6} puzzles  {:>7.1} kB  {state}\n                {}\n",
            p.name,
            p.size,
            p.puzzles,
            p.bytes as f64 / 1e3,
            p.origin
        );
    }
    let mut sources: Vec<&str> = public::PUBLIC.iter().map(|p| p.archive).collect();
    sources.dedup();
    for s in sources {
        text += &format!("  from {s}\n");
    }
    text += &format!(
        "  (set {} to a base URL or folder holding the files by name to download from there instead)\n",
        public::MIRROR_VAR
    );
    Ok(text)
}

/// Where an embedded set came from: its first comment line, less the
/// command that made it.
fn origin(text: &str) -> &str {
    text.lines()
        .find_map(|l| l.strip_prefix('#'))
        .map(|l| {
            l.trim()
                .trim_start_matches("made by datasets/make.sh: sudoku-bench ")
        })
        .unwrap_or("")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_embedded_set_and_public_list_is_listed_once() {
        let text = listing().unwrap();
        for name in EMBEDDED
            .iter()
            .map(|e| e.name)
            .chain(public::PUBLIC.iter().map(|p| p.name))
        {
            let lines = text
                .lines()
                .filter(|l| l.split_whitespace().next() == Some(name));
            assert_eq!(lines.count(), 1, "{name} in\n{text}");
        }
        assert!(!text.contains("made by datasets/make.sh"), "{text}");
    }
}
