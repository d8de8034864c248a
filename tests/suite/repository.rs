//! The repository itself: CI's refusal of a tracked file over 2 MB; the
//! layers of both crates (ARCHITECTURE.md), which no import may climb; and
//! the size of a file and the circles between files, which none may pass.

use std::path::Path;
use std::process::Command;

fn git(dir: &Path, args: &[&str]) {
    let ok = Command::new("git")
        .args(["-c", "user.name=t", "-c", "user.email=t@t"])
        .args(args)
        .current_dir(dir)
        .output()
        .expect("git runs")
        .status
        .success();
    assert!(ok, "git {args:?}");
}

/// Runs `.ci/tracked-sizes` on `repo`: its exit status and stderr.
fn check(repo: &Path) -> (bool, String) {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join(".ci/tracked-sizes");
    let out = Command::new("bash")
        .arg(script)
        .arg(repo)
        .output()
        .expect("bash runs");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn ci_refuses_a_tracked_file_over_2_mb() {
    let dir = tempfile::tempdir().unwrap();
    let repo = dir.path();
    git(repo, &["init", "-q"]);
    std::fs::write(repo.join("small.csv"), vec![b'x'; 2 * 1024 * 1024]).unwrap();
    // Untracked files are not the repository's.
    std::fs::write(repo.join("untracked.csv"), vec![b'x'; 3 * 1024 * 1024]).unwrap();
    git(repo, &["add", "small.csv"]);
    let (ok, err) = check(repo);
    assert!(ok, "2 MB exactly is allowed: {err}");
    std::fs::create_dir(repo.join("reports")).unwrap();
    std::fs::write(
        repo.join("reports/big results.csv"),
        vec![b'x'; 3 * 1024 * 1024],
    )
    .unwrap();
    git(repo, &["add", "reports"]);
    let (ok, err) = check(repo);
    assert!(!ok);
    assert!(err.contains("reports/big results.csv (3072 KiB)"), "{err}");
    assert!(!err.contains("untracked.csv"), "{err}");
}

/// The workbench's top-level modules, bottom layer first (ARCHITECTURE.md):
/// a module may import only from lower layers. The solvers' crate sits below
/// them all: its modules, re-exported under their names (`crate::grid`,
/// `crate::solver`, ...), may be imported from anywhere.
const LAYERS: &[&[&str]] = &[
    &[
        "stats", "words", "sync", "usage", "columns", "files", "spool",
    ],
    &["perf", "lock", "hygiene"],
    &["datasets", "callgrind"],
    &["rate", "batch", "valgrind"],
    &["contender"],
    &["external"],
    &["check"],
    &["harness"],
    &["export"],
    &["report"],
    &["compare", "study", "hunt"],
    &["history"],
    &["bench"],
];

/// The solvers' crate (`crates/solvers`), bottom layer first; it never names
/// the workbench.
const SOLVER_LAYERS: &[&[&str]] = &[
    &["grid", "seeded", "error", "words", "clock"],
    &["format", "validate", "transform"],
    &["solver"],
    &["rating"],
    &["generate"],
];

/// The solvers' modules the workbench re-exports (`src/lib.rs`).
const REEXPORTED: &[&str] = &[
    "error",
    "format",
    "generate",
    "grid",
    "seeded",
    "solver",
    "transform",
    "validate",
    "verdicts",
    "words_of",
];

fn layer(layers: &[&[&str]], module: &str) -> Option<usize> {
    layers.iter().position(|l| l.contains(&module))
}

/// A file's code: its unit tests and comment lines left out.
fn code(text: &str) -> String {
    let code = text.split("#[cfg(test)]\nmod tests").next().unwrap_or("");
    code.lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Every `crate::MODULE` a file's code names (comments and its unit tests left out).
fn imports(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for line in code(text).lines() {
        for (i, _) in line.match_indices("crate::") {
            let name: String = line[i + 7..]
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            out.push(name);
        }
    }
    out
}

fn rust_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
    out.sort();
}

/// A unit test's file: `tests.rs`, or anything in a `tests/` folder.
fn is_unit_test(rel: &Path) -> bool {
    rel.ends_with("tests.rs") || rel.components().any(|c| c.as_os_str() == "tests")
}

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The imports under `src` that climb `layers`: each as `FILE imports crate::MODULE`.
/// Files of the modules in `skip` are not checked; `seen` counts the others.
fn climbs(src: &Path, layers: &[&[&str]], skip: &[&str], seen: &mut usize) -> Vec<String> {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    let mut climbs = Vec::new();
    for file in &files {
        let rel = file.strip_prefix(src).unwrap();
        let top = rel
            .components()
            .next()
            .unwrap()
            .as_os_str()
            .to_string_lossy();
        let module = top.trim_end_matches(".rs").to_string();
        if skip.contains(&module.as_str()) || is_unit_test(rel) {
            continue; // unit tests may reach anywhere
        }
        let from = layer(layers, &module).unwrap_or_else(|| {
            panic!(
                "{}: a module missing from its LAYERS and ARCHITECTURE.md",
                file.display()
            )
        });
        *seen += 1;
        for to in imports(&std::fs::read_to_string(file).unwrap()) {
            if let Some(l) = layer(layers, &to) {
                if to != module && l >= from {
                    climbs.push(format!("{} imports crate::{to}", rel.display()));
                }
            }
        }
    }
    climbs
}

#[test]
fn no_import_climbs_a_layer() {
    let mut seen = 0;
    // The binary sits above every layer.
    let mut found = climbs(
        &root().join("src"),
        LAYERS,
        &["cli", "main", "lib"],
        &mut seen,
    );
    assert!(seen > 50, "the walk found the workbench's files ({seen})");
    for name in REEXPORTED {
        assert!(
            layer(LAYERS, name).is_none(),
            "{name} is the solvers' crate's"
        );
    }
    let mut seen = 0;
    let solvers = root().join("crates/solvers/src");
    found.extend(climbs(&solvers, SOLVER_LAYERS, &["lib"], &mut seen));
    assert!(seen > 30, "the walk found the solvers' files ({seen})");
    assert!(
        found.is_empty(),
        "imports that climb:\n{}",
        found.join("\n")
    );
}

#[test]
fn the_solvers_never_name_the_workbench() {
    let mut files = Vec::new();
    rust_files(&root().join("crates/solvers"), &mut files);
    assert!(files.len() > 30, "{}", files.len());
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        assert!(
            !text.contains("sudoku_bench"),
            "{} names the workbench",
            file.display()
        );
    }
    let manifest = std::fs::read_to_string(root().join("crates/solvers/Cargo.toml")).unwrap();
    assert!(
        !manifest
            .lines()
            .any(|l| l.trim_start().starts_with("sudoku-bench")),
        "the solvers' crate depends on the workbench:\n{manifest}"
    );
}

#[test]
fn the_layer_check_sees_a_climbing_import() {
    let text = "use crate::harness::BenchDataset;\n// crate::report in a comment\n#[cfg(test)]\nmod tests {\n    use crate::study;\n}\n";
    assert_eq!(imports(text), vec!["harness".to_string()]);
}

/// The most lines a file of either crate may have, unless it is a unit
/// test's (`tests.rs`, a `tests/` folder).
const MOST_LINES: usize = 800;

/// The source folders of both crates, from the repository's root.
const SOURCES: &[&str] = &["src", "crates/solvers/src"];

#[test]
fn no_file_outside_tests_passes_800_lines() {
    let mut long = Vec::new();
    let mut seen = 0;
    for dir in SOURCES {
        let mut files = Vec::new();
        rust_files(&root().join(dir), &mut files);
        for file in files {
            let rel = file.strip_prefix(root()).unwrap();
            if is_unit_test(rel) {
                continue;
            }
            seen += 1;
            let lines = std::fs::read_to_string(&file).unwrap().lines().count();
            let name = rel.to_string_lossy().into_owned();
            if lines > MOST_LINES {
                long.push(format!("{name}: {lines} lines"));
            }
        }
    }
    assert!(seen > 100, "the walk found both crates' files ({seen})");
    assert!(
        long.is_empty(),
        "files over {MOST_LINES} lines (split each along an idea):\n{}",
        long.join("\n")
    );
}

/// A crate's files as modules: each file's module path (`src/export/mod.rs`
/// is `export`, `src/export/markdown.rs` is `export::markdown`, `src/lib.rs`
/// the root), unit tests left out.
fn modules(src: &Path) -> Vec<(Vec<String>, std::path::PathBuf)> {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    let mut out = Vec::new();
    for file in files {
        let rel = file.strip_prefix(src).unwrap();
        if is_unit_test(rel) {
            continue;
        }
        let mut path: Vec<String> = rel
            .with_extension("")
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect();
        if path.last().is_some_and(|l| l == "mod") {
            path.pop();
        }
        if path == ["lib"] {
            path.clear();
        } else if path == ["main"] {
            // The binary's root: a crate of its own, named apart from the library's.
            path = vec!["<main>".to_string()];
        }
        out.push((path, file));
    }
    out
}

/// The paths of `use` trees: `a::{b, c::{d, e}}` is `a::b`, `a::c::d`, `a::c::e`.
fn use_paths(tree: &str) -> Vec<String> {
    let tree = tree.trim();
    let Some(open) = tree.find('{') else {
        let path = tree.split(" as ").next().unwrap_or("").trim();
        return vec![path.to_string()];
    };
    let (prefix, inner) = (
        &tree[..open],
        &tree[open + 1..tree.rfind('}').unwrap_or(tree.len())],
    );
    let (mut items, mut depth, mut item) = (Vec::new(), 0, String::new());
    for c in inner.chars() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                items.push(std::mem::take(&mut item));
                continue;
            }
            _ => {}
        }
        item.push(c);
    }
    items.push(item);
    items
        .iter()
        .filter(|i| !i.trim().is_empty())
        .flat_map(|i| use_paths(i))
        .map(|p| format!("{prefix}{p}"))
        .collect()
}

/// The paths a file's code names: each `use` (a `pub use` re-exports, and
/// is no dependency) and each `crate::`, `super::` or `self::` path.
fn named_paths(text: &str) -> Vec<String> {
    let code = code(text);
    let mut out = Vec::new();
    let mut rest = String::new();
    let mut statement: Option<(bool, String)> = None;
    for line in code.lines() {
        let t = line.trim_start();
        if statement.is_none() {
            let public = t.starts_with("pub ") || t.starts_with("pub(");
            let body = t.strip_prefix("use ").or_else(|| {
                public
                    .then(|| t.split_once(' ').map(|(_, b)| b))
                    .flatten()
                    .and_then(|b| b.strip_prefix("use "))
            });
            match body {
                Some(b) => statement = Some((public, b.to_string())),
                None => {
                    rest += line;
                    rest.push('\n');
                    continue;
                }
            }
        } else if let Some((_, s)) = statement.as_mut() {
            s.push(' ');
            s.push_str(t);
        }
        if let Some((public, s)) = statement.take() {
            match s.find(';') {
                Some(end) if !public => out.extend(use_paths(&s[..end])),
                Some(_) => {}
                None => statement = Some((public, s)),
            }
        }
    }
    let is_word = |c: char| c.is_ascii_alphanumeric() || c == '_';
    for start in ["crate::", "super::", "self::"] {
        for (i, _) in rest.match_indices(start) {
            if rest[..i]
                .chars()
                .next_back()
                .is_some_and(|c| is_word(c) || c == ':' || c == '$')
            {
                continue; // inside a longer path, or a macro's `$crate::`
            }
            let path: String = rest[i..]
                .chars()
                .take_while(|c| is_word(*c) || *c == ':')
                .collect();
            out.push(path.trim_end_matches(':').to_string());
        }
    }
    out
}

/// The file-level import graph of a crate: for each file, the files it
/// names. A folder's `mod.rs` and its own files are one module (it declares
/// them, they use what it declares), so no edge joins a parent and a child;
/// nor does one lead to the crate's root, which only re-exports.
fn import_graph(src: &Path) -> (Vec<String>, Vec<Vec<usize>>) {
    let modules = modules(src);
    let find = |path: &[String]| {
        (0..=path.len())
            .rev()
            .find_map(|k| modules.iter().position(|(m, _)| m[..] == path[..k]))
    };
    let mut edges = vec![Vec::new(); modules.len()];
    for (from, (module, file)) in modules.iter().enumerate() {
        for named in named_paths(&std::fs::read_to_string(file).unwrap()) {
            let mut segs: Vec<&str> = named.split("::").filter(|s| !s.is_empty()).collect();
            let mut path: Vec<String> = module.clone();
            match segs.first() {
                Some(&"crate") => {
                    path.clear();
                    segs.remove(0);
                }
                Some(&"super") | Some(&"self") => {
                    while let Some(&s) = segs.first().filter(|s| **s == "super" || **s == "self") {
                        if s == "super" {
                            path.pop();
                        }
                        segs.remove(0);
                    }
                }
                // A `use` of a child module by name; anything else is another crate's.
                Some(first)
                    if find(&[module.clone(), vec![first.to_string()]].concat())
                        .is_some_and(|i| modules[i].0.len() > module.len()) => {}
                _ => continue,
            }
            path.extend(segs.iter().map(|s| s.to_string()));
            let Some(to) = find(&path) else { continue };
            let target = &modules[to].0;
            let related = target.len() + 1 == module.len() && module.starts_with(target)
                || module.len() + 1 == target.len() && target.starts_with(module);
            if to != from && !target.is_empty() && !related && !edges[from].contains(&to) {
                edges[from].push(to);
            }
        }
    }
    let names = modules
        .iter()
        .map(|(_, f)| f.strip_prefix(src).unwrap().to_string_lossy().into_owned())
        .collect();
    (names, edges)
}

/// The circles of a graph: each group of two or more nodes that reach one
/// another, with the edges among them, in words.
fn circles(names: &[String], edges: &[Vec<usize>]) -> Vec<String> {
    let reach = |start: usize| {
        let mut seen = vec![false; edges.len()];
        let mut stack = edges[start].clone();
        while let Some(n) = stack.pop() {
            if !std::mem::replace(&mut seen[n], true) {
                stack.extend(&edges[n]);
            }
        }
        seen
    };
    let reaches: Vec<Vec<bool>> = (0..edges.len()).map(reach).collect();
    let mut placed = vec![false; edges.len()];
    let mut out = Vec::new();
    for a in 0..edges.len() {
        if placed[a] || !reaches[a][a] {
            continue;
        }
        let group: Vec<usize> = (0..edges.len())
            .filter(|&b| reaches[a][b] && reaches[b][a])
            .collect();
        let mut words = Vec::new();
        for &b in &group {
            placed[b] = true;
            let to: Vec<&str> = edges[b]
                .iter()
                .filter(|c| group.contains(c))
                .map(|&c| names[c].as_str())
                .collect();
            words.push(format!("  {} imports {}", names[b], to.join(", ")));
        }
        out.push(words.join("\n"));
    }
    out
}

#[test]
fn no_circle_between_files() {
    let mut found = Vec::new();
    for dir in SOURCES {
        let (names, edges) = import_graph(&root().join(dir));
        assert!(names.len() > 30, "{dir}: {}", names.len());
        assert!(
            edges.iter().any(|e| !e.is_empty()),
            "{dir}: the graph has edges"
        );
        found.extend(
            circles(&names, &edges)
                .into_iter()
                .map(|c| format!("{dir}:\n{c}")),
        );
    }
    assert!(
        found.is_empty(),
        "files that import each other, directly or through others:\n{}",
        found.join("\n")
    );
}

#[test]
fn the_circle_check_sees_a_circle() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path();
    let write = |rel: &str, text: &str| {
        let path = src.join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    };
    write("lib.rs", "pub mod a;\npub mod b;\npub use b::Thing;\n");
    write(
        "a/mod.rs",
        "mod one;\nmod two;\npub use one::One;\nuse crate::b::Thing;\n",
    );
    // A parent and its child are one module: no circle.
    write("a/one.rs", "use super::{two::Two, Other};\n");
    write(
        "a/two.rs",
        "pub struct Two;\n// crate::a::one in a comment\n",
    );
    write(
        "b.rs",
        "use crate::{\n    a::One,\n};\n#[cfg(test)]\nmod tests {\n    use crate::a::two;\n}\n",
    );
    let (names, edges) = import_graph(src);
    let found = circles(&names, &edges);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].contains("a/mod.rs imports b.rs"), "{}", found[0]);
    assert!(found[0].contains("b.rs imports a/mod.rs"), "{}", found[0]);
    write("b.rs", "pub struct Thing;\n");
    let (names, edges) = import_graph(src);
    assert_eq!(circles(&names, &edges), Vec::<String>::new());
}

/// The paths a document names: each backticked word or link target that
/// starts at one of the repository's folders (`src/`, `crates/`, `tests/`,
/// ...) or is a file at its root (`Cargo.toml`, `ARCHITECTURE.md`), without
/// a `::` item or a `:LINE` after it; and each `--bench NAME` and `--test
/// NAME` of its commands, as the file cargo builds it from.
fn named_files(text: &str) -> Vec<String> {
    const ROOTS: &[&str] = &[
        "src/",
        "crates/",
        "tests/",
        "benches/",
        "examples/",
        "docs/",
        ".ci/",
        "datasets/",
    ];
    let mut out = Vec::new();
    let mut words: Vec<&str> = text.split('`').skip(1).step_by(2).collect();
    words.extend(text.split("](").skip(1).filter_map(|s| s.split(')').next()));
    for word in words {
        for part in word.split_whitespace() {
            let part = part.trim_matches(|c: char| matches!(c, '(' | ')' | ',' | ';' | '"' | '\''));
            let path = part
                .split("::")
                .next()
                .unwrap_or("")
                .split('#')
                .next()
                .unwrap_or("");
            let path = path.split(':').next().unwrap_or("");
            let at_root = !path.contains('/')
                && [".md", ".toml", ".lock"].iter().any(|e| path.ends_with(e))
                && path.chars().next().is_some_and(|c| c.is_ascii_uppercase());
            if ROOTS.iter().any(|r| path.starts_with(r)) || at_root {
                out.push(path.to_string());
            }
        }
        let tokens: Vec<&str> = word.split_whitespace().collect();
        for pair in tokens.windows(2) {
            match pair[0] {
                "--bench" => out.push(format!("benches/{}.rs", pair[1])),
                "--test" if pair[1] == "suite" || pair[1] == "bounded" => {
                    out.push(format!("tests/{}", pair[1]))
                }
                _ => {}
            }
        }
    }
    out
}

#[test]
fn every_path_contributing_names_is_there() {
    let text = std::fs::read_to_string(root().join("CONTRIBUTING.md")).unwrap();
    let named = named_files(&text);
    assert!(
        named.len() > 10,
        "the walk found CONTRIBUTING.md's paths: {named:?}"
    );
    let missing: Vec<&String> = named.iter().filter(|p| !root().join(p).exists()).collect();
    assert!(
        missing.is_empty(),
        "CONTRIBUTING.md names what is not there: {missing:?}"
    );
}

#[test]
fn the_contributing_check_sees_a_path_that_is_not_there() {
    let text = "Add a file under `src/solver/` and `crates/solvers/src/lib.rs:12`, see \
                [the layers](ARCHITECTURE.md), run `cargo bench --bench band`; \
                `report::build` is no path, nor is `snapshots/`.";
    assert_eq!(
        named_files(text),
        [
            "src/solver/",
            "crates/solvers/src/lib.rs",
            "benches/band.rs",
            "ARCHITECTURE.md"
        ]
    );
    assert!(!root().join("src/solver").exists(), "the strategies moved");
}
