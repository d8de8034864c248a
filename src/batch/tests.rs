use super::*;
use crate::format::ReadOptions;
use crate::solver::Mode;

fn opts() -> BatchOptions {
    BatchOptions {
        solver: None,
        mode: Mode::Unique,
        node_budget: None,
        time_limit: None,
        trace: false,
        notation: Notation::Given,
        blocks: false,
    }
}

fn pool(threads: usize) -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap()
}

/// Some 1,200 lines (about 100 KB: several blocks at any thread count):
/// the embedded 9×9 sets, comments, blank lines, CRLF endings, puzzles with
/// answers and comments after them, and puzzles whose givens clash.
fn text() -> String {
    let mut t = String::from("# a file of many blocks\n");
    let sets = [
        include_str!("../../datasets/easy-9x9.txt"),
        include_str!("../../datasets/hard-9x9.txt"),
        include_str!("../../datasets/medium-9x9.txt"),
        include_str!("../../datasets/extreme-9x9.txt"),
    ];
    for (k, set) in sets.iter().enumerate() {
        for (i, line) in set.lines().enumerate() {
            t.push_str(line);
            t.push_str(if (i + k) % 97 == 0 { "\r\n" } else { "\n" });
            if (i + k) % 211 == 0 {
                // Two 1s in the first row: invalid.
                t.push_str("11");
                t.push_str(&".".repeat(79));
                t.push_str("\n\n");
            }
        }
    }
    t
}

/// `text` in a file of its own, solved on `threads` workers.
fn solve_text(text: &str, threads: usize, read: &ReadOptions) -> Result<Answered, BatchError> {
    let mut f = tempfile::NamedTempFile::new().unwrap();
    f.write_all(text.as_bytes()).unwrap();
    solve_file(&opts(), &pool(threads), f.path(), read, &mut Vec::new())
}

fn by_file(text: &str, threads: usize) -> (Vec<u8>, Vec<String>) {
    let done = solve_text(text, threads, &ReadOptions::default()).unwrap();
    let mut out = Vec::new();
    done.answers.copy_to(&mut out).unwrap();
    let flaws = done.flaws.lines().iter().map(|l| tail(l)).collect();
    (out, flaws)
}

/// A flaw's line without the file's name.
fn tail(l: &str) -> String {
    l.split_once(':').map_or(l, |(_, t)| t).to_string()
}

fn by_stream(text: &str) -> (Vec<u8>, Vec<String>) {
    let mut out = Vec::new();
    let (_, flaws) = solve_stream(
        &opts(),
        &pool(1),
        "t",
        text.as_bytes(),
        &ReadOptions::default(),
        &mut out,
        &mut Vec::new(),
    )
    .unwrap();
    (out, flaws.lines().iter().map(|l| tail(l)).collect())
}

#[test]
fn a_file_parsed_in_blocks_on_the_workers_answers_as_one_reader_does() {
    let text = text();
    let (answers, flaws) = by_stream(&text);
    let lines = answers.split(|&b| b == b'\n').filter(|l| !l.is_empty());
    assert!(lines.count() > 1_000, "every puzzle answered");
    assert!(flaws.len() > 3 && flaws[0].contains("invalid"), "{flaws:?}");
    for threads in [1, 2, 3] {
        let (a, f) = by_file(&text, threads);
        assert!(a == answers, "{threads} threads: the answers differ");
        assert_eq!(f, flaws, "{threads} threads");
    }
}

#[test]
fn a_bad_entry_in_a_late_block_fails_the_file_at_its_line_with_nothing_answered() {
    let mut text = text();
    let bad_line = text.lines().count() + 1;
    text.push_str("12345\n");
    text.push_str(include_str!("../../datasets/easy-9x9.txt"));
    let err = solve_text(&text, 2, &ReadOptions::default())
        .err()
        .expect("a bad entry fails the file");
    let BatchError::Load(e) = err else {
        panic!("{err}")
    };
    let first = e.first_parse_error().expect("a parse error");
    assert_eq!((first.line, first.column), (bad_line, 1), "{e}");
    // Skipped, it costs its own line only.
    let read = ReadOptions {
        skip_invalid: true,
        ..ReadOptions::default()
    };
    let done = solve_text(&text, 2, &read).unwrap();
    assert_eq!(done.skipped, 1);
}

#[test]
fn an_empty_file_or_one_of_comments_fails_as_in_every_reader() {
    for text in ["", "# only a comment\n\n"] {
        let err = solve_text(text, 2, &ReadOptions::default())
            .err()
            .expect("nothing to solve is an error");
        assert!(err.to_string().contains("bad entry"), "{err}");
        let BatchError::Load(e) = err else {
            panic!("{err}")
        };
        let first = e.first_parse_error().expect("a parse error");
        assert_eq!((first.line, first.column), (1, 1), "{text:?}");
    }
}

/// The 9×9 engine timing: only without a budget, a limit or too few puzzles;
/// both engines timed over the same puzzles; the winner is the faster, `band`
/// on a tie; and `solve` says which it took.
#[test]
fn the_9x9_engine_is_timed_on_the_first_puzzles_and_said() {
    use super::calibrate::{time_engines, Timing, FEWEST, PUZZLES};
    let ds = format::read_str(
        "hard",
        include_str!("../../datasets/hard-9x9.txt"),
        &ReadOptions::default(),
    )
    .unwrap();
    let t = time_engines(&opts(), &ds.puzzles).expect("timed");
    assert!((FEWEST..=PUZZLES).contains(&t.puzzles), "{t:?}");
    assert_eq!(time_engines(&opts(), &ds.puzzles[..FEWEST - 1]), None);
    let budget = BatchOptions {
        node_budget: Some(1000),
        ..opts()
    };
    assert_eq!(time_engines(&budget, &ds.puzzles), None);
    let limit = BatchOptions {
        time_limit: Some(Duration::from_secs(1)),
        ..opts()
    };
    assert_eq!(time_engines(&limit, &ds.puzzles), None);
    let ms = Duration::from_millis;
    let timing = |band, boxes| Timing {
        band: ms(band),
        boxes: ms(boxes),
        puzzles: 10,
    };
    assert_eq!(timing(4, 3).winner(), SolverId::Box);
    assert_eq!(timing(3, 3).winner(), SolverId::Band);
    assert_eq!(
        timing(4, 3).note("x.txt"),
        "note: x.txt: 9x9 engine box (timed on the first 10 puzzles, in turns: band 200.0 µs, box 150.0 µs a puzzle)"
    );
    // `solve` writes the note, then the answers of the engine it names.
    let (mut out, mut log) = (Vec::new(), Vec::new());
    let path = std::path::Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/datasets/hard-9x9.txt"
    ));
    solve_paths(
        &opts(),
        &pool(1),
        path,
        &ReadOptions::default(),
        &mut out,
        &mut log,
    )
    .unwrap();
    let log = String::from_utf8(log).unwrap();
    assert!(
        log.starts_with(&format!("note: {}: 9x9 engine b", path.display())),
        "{log}"
    );
    assert_eq!(
        String::from_utf8(out).unwrap().lines().count(),
        ds.puzzles.len()
    );
}
