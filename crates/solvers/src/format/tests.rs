use super::*;
use crate::error::ParseErrorKind as K;

const P: &str = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..";
const S: &str = "812753649943682175675491283154237896369845721287169534521974368438526917796318452";

fn read(text: &str) -> Result<Dataset, LoadError> {
    read_str("t.txt", text, &ReadOptions::default())
}

fn first_error(text: &str) -> ParseError {
    match read(text) {
        Err(e) => e.first_parse_error().cloned().expect("a parse error"),
        Ok(d) => panic!("expected an error, read {} puzzles", d.puzzles.len()),
    }
}

#[test]
fn line_format_with_comments_blanks_and_answers() {
    let text = format!(
        "# header\n\n{P}\n{}  hard one\n{P}:1:{S}\n{P},{S},extra\n",
        P.replace('.', "0")
    );
    let d = read(&text).unwrap();
    assert_eq!(d.format, Format::Line);
    assert_eq!(d.puzzles.len(), 4);
    assert!(d.puzzles.iter().all(|p| p.grid == d.puzzles[0].grid));
    assert_eq!(d.puzzles[0].line, 3);
    assert_eq!(d.puzzles[1].comment.as_deref(), Some("hard one"));
    assert_eq!(d.puzzles[2].comment.as_deref(), Some("1"));
    let answer = d.puzzles[2].expected.as_ref().unwrap();
    assert_eq!(write_line(answer, &d.alphabet), S);
    assert_eq!(d.puzzles[3].comment.as_deref(), Some("extra"));
    assert!(d.puzzles[3].expected.is_some());
    let mixed_blanks = P.replacen('.', "_", 3).replacen('.', "-", 3);
    assert_eq!(
        read(&mixed_blanks).unwrap().puzzles[0].grid,
        d.puzzles[0].grid
    );
}

#[test]
fn wrong_length_is_located() {
    let e = first_error(&format!("{P}\n  {}\n", &P[..80]));
    assert_eq!((e.line, e.column), (2, 3));
    assert!(matches!(e.kind, K::WrongLength { found: 80, .. }));
    assert!(e
        .to_string()
        .starts_with("t.txt:2:3: found a puzzle of 80 symbols, expected 16, 81"));
}

#[test]
fn unknown_symbol_is_located() {
    let bad = format!("{}x{}", &P[..10], &P[11..]);
    let e = first_error(&bad);
    assert_eq!((e.line, e.column), (1, 11));
    assert_eq!(
        e.kind,
        K::UnknownSymbol {
            found: 'x',
            expected: "one of 1-9 or a blank (. _ - 0 ?)".into()
        }
    );
}

#[test]
fn mixed_sizes_are_rejected() {
    let e = first_error(&format!("{P}\n{}\n", ".".repeat(16)));
    assert_eq!(e.line, 2);
    assert_eq!(
        e.kind,
        K::MixedSizes {
            found: "4x4".into(),
            expected: "9x9".into()
        }
    );
}

#[test]
fn empty_inputs_are_rejected() {
    for text in ["", "# only a comment\n\n", "\n\n"] {
        assert_eq!(first_error(text).kind, K::Empty);
    }
}

#[test]
fn non_utf8_is_located() {
    let mut bytes = format!("{P}\n").into_bytes();
    bytes.extend_from_slice(b"12\xff4\n");
    let e = read_reader("t.txt", &bytes[..], &ReadOptions::default()).unwrap_err();
    let e = e.first_parse_error().unwrap();
    assert_eq!((e.line, e.column, &e.kind), (2, 3, &K::NotUtf8));
}

#[test]
fn answer_that_does_not_fit_is_located() {
    let mut wrong = S.to_string();
    wrong.replace_range(0..1, "9"); // the puzzle gives 8 at r1c1
    let e = first_error(&format!("{P} {wrong}\n"));
    assert_eq!((e.line, e.column), (1, 83));
    assert!(matches!(&e.kind, K::AnswerMismatch(m) if m.contains("r1c1") && m.contains("gives 8")));
    let mut holed = S.to_string();
    holed.replace_range(5..6, ".");
    let e = first_error(&format!("{P}:{holed}\n"));
    assert_eq!(e.column, 83 + 5);
    assert!(matches!(&e.kind, K::AnswerMismatch(m) if m.contains("blank")));
}

#[test]
fn errors_are_capped_and_counted_or_skipped() {
    let mut text = String::new();
    for i in 0..15 {
        text.push_str(if i % 2 == 0 { "123\n" } else { P });
        text.push('\n');
    }
    let err = read(&text).unwrap_err();
    let LoadError::Invalid { errors, total, .. } = &err else {
        panic!()
    };
    assert_eq!((errors.len(), *total), (8, 8));
    let many: String = (0..15).map(|_| "123\n").collect::<String>() + P;
    let err = read(&many).unwrap_err();
    let LoadError::Invalid { errors, total, .. } = &err else {
        panic!()
    };
    assert_eq!((errors.len(), *total), (10, 15));
    assert!(err.to_string().contains("... and 5 more"));
    let opts = ReadOptions {
        skip_invalid: true,
        ..ReadOptions::default()
    };
    let d = read_str("t", &text, &opts).unwrap();
    assert_eq!((d.puzzles.len(), d.skipped), (7, 8));
}

#[test]
fn a_csv_of_one_column_is_told_by_its_header_alone() {
    // Its header has no comma: it was read as a line file, `puzzle` a bad entry.
    for header in ["puzzle", "Quizzes", "\"puzzle\""] {
        let text = format!("{header}\n{P}\n\"{P}\"\n");
        let d = read(&text).unwrap_or_else(|e| panic!("{header}: {e}"));
        assert_eq!((d.format, d.puzzles.len()), (Format::Csv, 2), "{header}");
        assert_eq!(d.puzzles[1].line, 3);
    }
}

#[test]
fn kaggle_csv() {
    let text = format!("quizzes,solutions\n{P},{S}\n{P},{S}\n");
    let d = read(&text).unwrap();
    assert_eq!(d.format, Format::Csv);
    assert_eq!(d.puzzles.len(), 2);
    assert_eq!(d.puzzles[1].line, 3);
    assert!(d.puzzles[0].expected.is_some());
    let other = format!(
        "id,puzzle,solution,clues,difficulty\n7,{},{S},21,2.5\n",
        P.replace('.', "0")
    );
    let d = read(&other).unwrap();
    assert_eq!(d.puzzles[0].grid.givens(), 21);
    let bad = format!("id,puzzle,solution\n1,{},{S}\n", &P[..80]);
    let e = first_error(&bad);
    assert_eq!((e.line, e.column), (2, 3));
    let e = read_str(
        "t.csv",
        "id,quiz_text\n1,2\n",
        &ReadOptions {
            format: Some(Format::Csv),
            ..Default::default()
        },
    )
    .unwrap_err();
    assert!(
        matches!(&e.first_parse_error().unwrap().kind, K::Csv(m) if m.contains("puzzle column"))
    );
}

#[test]
fn block_format_with_separators_and_rules() {
    let mut text = String::from("# two puzzles\n");
    for _ in 0..2 {
        for r in 0..9 {
            if r == 3 || r == 6 {
                text.push_str("------+-------+------\n");
            }
            let row: Vec<String> = (0..9)
                .map(|c| P[r * 9 + c..r * 9 + c + 1].to_string())
                .collect();
            text.push_str(&format!(
                "{} | {} | {}\n",
                row[..3].join(" "),
                row[3..6].join(" "),
                row[6..].join(" ")
            ));
        }
        text.push('\n');
    }
    let d = read(&text).unwrap();
    assert_eq!(d.format, Format::Block);
    assert_eq!(d.puzzles.len(), 2);
    assert_eq!(write_line(&d.puzzles[1].grid, &d.alphabet), P);
    assert_eq!(d.puzzles[0].line, 2);
}

#[test]
fn block_errors_name_row_and_count() {
    let rows: Vec<&str> = (0..9).map(|r| &P[r * 9..r * 9 + 9]).collect();
    let short = rows[..8].join("\n") + "\n\n";
    let e = first_error(&short);
    assert_eq!(
        (e.line, &e.kind),
        (
            9,
            &K::WrongRowCount {
                found: 8,
                expected: 9
            }
        )
    );
    let mut long_row = rows.clone();
    let extra = format!("{}1", rows[4]);
    long_row[4] = &extra;
    let e = first_error(&long_row.join("\n"));
    assert_eq!((e.line, e.column), (5, 10));
    assert_eq!(
        e.kind,
        K::WrongRowLength {
            found: 10,
            expected: 9
        }
    );
}

#[test]
fn hdu_format() {
    let text = "7 1 2 ? 6 ? 3 5 8\n? 6 5 2 ? 7 1 ? 4\n? ? 8 5 1 3 6 7 2\n9 2 4 ? 5 6 ? 3 7\n5 ? 6 ? ? ? 2 4 1\n\
                1 ? 3 7 2 ? 9 ? 5\n? ? 1 9 7 5 4 8 6\n6 ? 7 8 3 ? 5 1 9\n8 5 9 ? 4 ? ? 2 3\n";
    let d = read(&format!("{text}\n{text}")).unwrap();
    assert_eq!(d.format, Format::Hdu);
    assert_eq!(d.puzzles.len(), 2);
    assert_eq!(d.puzzles[0].grid.givens(), 81 - text.matches('?').count());
    let bad = text.replacen("? 6 5", "? x 5", 1);
    let e = first_error(&bad);
    assert_eq!((e.line, e.column), (2, 3));
}

#[test]
fn sixteen_by_sixteen_alphabets() {
    let g16 = Geometry::new(4).unwrap();
    let mut grid = Grid::empty(g16);
    for (i, d) in (1..=16u8).enumerate() {
        grid.set(i * 17 % 256, d);
    }
    for kind in [
        AlphabetKind::Digits,
        AlphabetKind::Letters,
        AlphabetKind::Hex,
    ] {
        let a = Alphabet::new(g16, kind).unwrap();
        let opts = ReadOptions {
            alphabet: kind,
            ..ReadOptions::default()
        };
        let line = write_line(&grid, &a);
        assert_eq!(
            read_str("t", &line, &opts).unwrap().puzzles[0].grid,
            grid,
            "{kind:?}"
        );
        let lower = line.to_lowercase();
        assert_eq!(
            read_str("t", &lower, &opts).unwrap().puzzles[0].grid,
            grid,
            "{kind:?} lower case"
        );
    }
    // The dancing-links article's form: 16 rows of letters A-P, '-' for blanks, detected as block + letters.
    let letters = Alphabet::new(g16, AlphabetKind::Letters).unwrap();
    let line = write_line(&grid, &letters).replace('.', "-");
    let block: String = (0..16)
        .map(|r| format!("{}\n", &line[r * 16..r * 16 + 16]))
        .collect();
    let d = read(&block).unwrap();
    assert_eq!((d.format, d.alphabet.encode(16)), (Format::Block, 'P'));
    assert_eq!(d.puzzles[0].grid, grid);
}

#[test]
fn twenty_five_alphabets() {
    let g25 = Geometry::new(5).unwrap();
    let mut grid = Grid::empty(g25);
    for d in 1..=25u8 {
        grid.set(d as usize * 26 % 625, d);
    }
    let dflt = write_line(&grid, &Alphabet::default_for(g25));
    assert!(dflt.contains('Y'));
    assert_eq!(read(&dflt).unwrap().puzzles[0].grid, grid);
    let numeric = write_line(&grid, &Alphabet::new(g25, AlphabetKind::Digits).unwrap());
    assert!(numeric.contains('P') && numeric.contains('1'));
    assert_eq!(read(&numeric).unwrap().puzzles[0].grid, grid);
}

#[test]
fn writers_round_trip_every_size() {
    for g in Geometry::all() {
        let a = Alphabet::default_for(g);
        let mut grid = Grid::empty(g);
        for c in (0..g.cells()).step_by(3) {
            grid.set(c, (c % g.side()) as u8 + 1);
        }
        let line = write_line(&grid, &a);
        assert_eq!(read(&line).unwrap().puzzles[0].grid, grid, "{g} line");
        let block = write_block(&grid, &a);
        let opts = ReadOptions {
            format: Some(Format::Block),
            ..ReadOptions::default()
        };
        assert_eq!(
            read_str("t", &block, &opts).unwrap().puzzles[0].grid,
            grid,
            "{g} block"
        );
    }
}

#[test]
fn forced_format_and_unknown_format() {
    let opts = ReadOptions {
        format: Some(Format::Line),
        ..ReadOptions::default()
    };
    assert!(read_str("t", P, &opts).is_ok());
    let e = first_error("hello world\n");
    assert!(matches!(e.kind, K::UnknownFormat(_)));
    assert_eq!(e.line, 1);
}

/// A grid of `g` with every third cell filled (a digit that varies by column).
fn sparse(g: Geometry) -> Grid {
    let mut grid = Grid::empty(g);
    for c in (0..g.cells()).step_by(3) {
        grid.set(c, (c % g.side()) as u8 + 1);
    }
    grid
}

#[test]
fn numbers_lines_and_blocks_past_36_are_detected_and_round_trip() {
    for side in [49, 64] {
        let g = Geometry::from_side(side).unwrap();
        let a = Alphabet::default_for(g);
        let grid = sparse(g);
        let line = write_line(&grid, &a);
        assert!(
            line.contains(&format!(" {side} ")),
            "numbers: {}",
            &line[..40]
        );
        let d = read(&format!("{line}\n")).unwrap();
        assert_eq!((d.format, d.geometry), (Format::Line, g));
        assert_eq!(d.puzzles[0].grid, grid);
        // Detected as a block too: rows of numbers, `|` and rule lines, `.` blanks.
        let block = write_block(&grid, &a);
        assert!(block.starts_with(" 1  .  .  4 "), "{}", &block[..40]);
        let d = read(&block).unwrap();
        assert_eq!(d.puzzles[0].grid, grid, "{side} block");
    }
    // 36x36 has one-character symbols: 0-9A-Z, `.` for a blank.
    let g = Geometry::from_side(36).unwrap();
    let line = write_line(&sparse(g), &Alphabet::default_for(g));
    assert_eq!(line.len(), 1296);
    let d = read(&line).unwrap();
    assert_eq!((d.format, &d.puzzles[0].grid), (Format::Line, &sparse(g)));
}

#[test]
fn a_numbers_line_may_carry_its_answer_and_a_comment() {
    let solved =
        "534678912672195348198342567859761423426853791713924856961537284287419635345286179";
    let answer = test_grid(solved);
    let mut puzzle = answer.clone();
    (0..81).step_by(2).for_each(|c| puzzle.set(c, 0));
    let words = |g: &Grid| {
        g.cells()
            .iter()
            .map(|&d| {
                if d == 0 {
                    ".".to_string()
                } else {
                    d.to_string()
                }
            })
            .collect::<Vec<_>>()
            .join(" ")
    };
    let text = format!("{}  {} # from a test\n", words(&puzzle), words(&answer));
    let d = read(&text).unwrap();
    let p = &d.puzzles[0];
    assert_eq!((&p.grid, p.expected.as_ref()), (&puzzle, Some(&answer)));
    assert_eq!(p.comment.as_deref(), Some("from a test"));
}

#[test]
fn bad_numbers_name_their_line_and_column() {
    let g = Geometry::from_side(49).unwrap();
    let line = write_line(&sparse(g), &Alphabet::default_for(g));
    // The third cell ("1 . . 4 ...", column 5) made 50: past the size.
    let bad = format!("# a comment\n{}50{}\n", &line[..4], &line[5..]);
    let e = first_error(&bad);
    assert_eq!((e.line, e.column), (2, 5));
    assert!(
        matches!(&e.kind, K::UnknownCell { found, expected } if found == "50" && expected.contains("1-49")),
        "{e:?}"
    );
    // 49x49 has no one-character form: a 2401-symbol line says how to write it.
    let e = first_error(&"1".repeat(2401));
    assert!(e.to_string().contains("separated by spaces"), "{e}");
    // Too few numbers for any grid.
    let opts = ReadOptions {
        format: Some(Format::Line),
        ..ReadOptions::default()
    };
    let LoadError::Invalid { errors, .. } =
        read_str("t", &vec!["1"; 100].join(" "), &opts).unwrap_err()
    else {
        panic!("not an invalid input")
    };
    assert!(
        matches!(errors[0].kind, K::WrongLength { found: 100, .. }),
        "{:?}",
        errors[0]
    );
}

/// A pencilmark puzzle whose answer is `answer`: each cell keeps its answer
/// and the digits a fixed pattern spares (none, every fifth cell: a given).
fn pencilmarks_of(answer: &Grid) -> Grid {
    let marks = answer
        .cells()
        .iter()
        .enumerate()
        .map(|(c, &a)| {
            (1..=answer.geometry().side() as u64)
                .filter(|d| (c % 5 != 0 && !(c as u64 * 7 + d).is_multiple_of(3)) || *d == a as u64)
                .fold(0, |m, d| m | 1 << (d - 1))
        })
        .collect();
    from_marks(answer.geometry(), marks)
}

#[test]
fn pencilmark_lines_round_trip_with_answers_and_comments() {
    let answer = read(S).unwrap().puzzles[0].grid.clone();
    let pm = pencilmarks_of(&answer);
    assert!(pm.is_pencilmark() && pm.givens() > 0);
    let a = Alphabet::default_for(answer.geometry());
    let line = write_line(&pm, &a);
    assert_eq!(line.len(), 729);
    // A given is written as its digit alone.
    let given = pm.cells().iter().position(|&d| d != 0).unwrap();
    let d = pm.get(given) as usize;
    let cell = &line[given * 9..given * 9 + 9];
    assert_eq!(cell.matches('.').count(), 8, "{cell}");
    assert_eq!(&cell[d - 1..d], d.to_string());
    let d = read(&format!(
        "# sukaku\n{line}\n{line} {S} the answer\n{line};note\n"
    ))
    .unwrap();
    assert_eq!(d.format, Format::Line);
    assert_eq!(d.puzzles.len(), 3);
    assert!(d.puzzles.iter().all(|p| p.grid == pm));
    assert_eq!(d.puzzles[1].expected.as_ref(), Some(&answer));
    assert_eq!(d.puzzles[1].comment.as_deref(), Some("the answer"));
    assert_eq!(d.puzzles[2].comment.as_deref(), Some("note"));
    assert_eq!(write_line(&d.puzzles[0].grid, &d.alphabet), line);
    // Every size to 25x25 has the n³ form.
    for side in [4, 16, 25] {
        let g = Geometry::from_side(side).unwrap();
        let mut rng = crate::seeded::stream(1, side as u64);
        let pm = pencilmarks_of(&crate::generate::complete_grid(g, &mut rng));
        let line = write_line(&pm, &Alphabet::default_for(g));
        assert_eq!(line.len(), side.pow(3));
        assert_eq!(read(&line).unwrap().puzzles[0].grid, pm, "{side}");
    }
}

#[test]
fn bad_pencilmarks_are_located() {
    let answer = read(S).unwrap().puzzles[0].grid.clone();
    let line = write_line(
        &pencilmarks_of(&answer),
        &Alphabet::default_for(answer.geometry()),
    );
    // Candidate 6 of cell r1c2 (column 15) written as a 3.
    let bad = format!("{}3{}", &line[..14], &line[15..]);
    let e = first_error(&format!("{line}\n{bad}\n"));
    assert_eq!((e.line, e.column), (2, 15));
    assert!(e.to_string().contains("candidate 6 of cell r1c2"), "{e}");
    // An answer the marks exclude.
    let pm = pencilmarks_of(&answer);
    let excluded = (0..81)
        .filter(|&c| pm.get(c) == 0)
        .find_map(|c| {
            let allowed = pm.allowed(c);
            (1..=9u8)
                .find(|&d| allowed & 1 << (d - 1) == 0)
                .map(|d| (c, d))
        })
        .unwrap();
    let mut wrong: Vec<u8> = S.bytes().collect();
    wrong[excluded.0] = b'0' + excluded.1;
    let wrong = String::from_utf8(wrong).unwrap();
    let e = first_error(&format!("{line} {wrong}"));
    assert_eq!((e.line, e.column), (1, 731 + excluded.0), "{e}");
    let cell = format!("r{}c{}", excluded.0 / 9 + 1, excluded.0 % 9 + 1);
    assert!(
        e.to_string().ends_with(&format!(
            "cell {cell} holds digit {}, which the puzzle's pencilmarks exclude",
            excluded.1
        )),
        "{e}"
    );
    // A cell with no candidate reads, and is the puzzle's flaw, named.
    let mut empty = line.clone().into_bytes();
    empty[9 * 10..9 * 11].fill(b'.');
    let d = read(std::str::from_utf8(&empty).unwrap()).unwrap();
    assert_eq!(
        crate::validate::find_flaw(&d.puzzles[0].grid).map(|f| f.to_string()),
        Some("the pencilmarks leave cell r2c2 no candidate".into())
    );
}

/// The first embedded 36x36 puzzle, and its cells written as numbers:
/// `(grid, rows)`, each row 36 numbers (`.` a blank) separated by spaces.
fn numbers_36x36() -> (crate::grid::Grid, Vec<String>) {
    let text = include_str!("../../../../datasets/set-36x36.txt");
    let d = read(text).unwrap();
    let g = d.puzzles[0].grid.clone();
    let rows = (0..36)
        .map(|r| {
            (0..36)
                .map(|c| match g.get(r * 36 + c) {
                    0 => ".".to_string(),
                    v => v.to_string(),
                })
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect();
    (g, rows)
}

#[test]
fn a_36x36_grid_of_numbers_reads_as_a_block_and_as_a_line() {
    let (g, rows) = numbers_36x36();
    // A block: auto-detected (its first row may hold no two-digit number), and forced.
    let mut block = rows.join("\n");
    block.push('\n');
    for forced in [None, Some(Format::Block), Some(Format::Hdu)] {
        let opts = ReadOptions {
            format: forced,
            ..ReadOptions::default()
        };
        let d = read_str("b.txt", &block, &opts).unwrap();
        assert_eq!(d.puzzles.len(), 1, "{forced:?}");
        assert_eq!(d.puzzles[0].grid, g, "{forced:?}");
    }
    // Two blocks, and a first row of one-digit numbers only.
    let mut low = rows.clone();
    low[0] = (1..=9)
        .chain(std::iter::repeat_n(0, 27))
        .map(|v| if v == 0 { ".".into() } else { v.to_string() })
        .collect::<Vec<_>>()
        .join(" ");
    let two = format!("{}\n\n{}\n", rows.join("\n"), low.join("\n"));
    let d = read(&two).unwrap();
    assert_eq!(d.puzzles.len(), 2);
    assert_eq!(d.puzzles[0].grid, g);
    assert_eq!(d.puzzles[1].grid.get(8), 9);
    // A line of the same numbers.
    let line = format!("{}\n", rows.join(" "));
    let d = read(&line).unwrap();
    assert_eq!((d.format, &d.puzzles[0].grid), (Format::Line, &g));
    // A number past 36 is named where it stands.
    let mut bad = rows.clone();
    bad[2] = bad[2].replacen(". ", "37 ", 1);
    let e = first_error(&format!("{}\n", bad.join("\n")));
    assert_eq!(e.line, 3);
    assert!(e.to_string().contains("37"), "{e}");
}

#[test]
fn comments_never_decide_the_format() {
    // A merged hunt's lines: a puzzle, then a comment with commas and the word "puzzles".
    let text = format!(
        "# hunt of bitset-mrv against dlx, merged\n\
         {P} # ratio 9.92: bitset-mrv 585 nodes, dlx 59 nodes; from h2/puzzles.txt:4\n\
         {P} # time 6,424,597 ns, puzzle 2\n"
    );
    let d = read(&text).unwrap();
    assert_eq!(d.format, Format::Line);
    assert_eq!(d.puzzles.len(), 2);
    // A header still reads as one, with or without a comment after it.
    let csv = format!("id,puzzle,solution # from a forum\n1,{P},{S}\n");
    assert_eq!(read(&csv).unwrap().format, Format::Csv);
}

#[test]
fn solves_answers_read_back_as_their_solutions() {
    let s = "438172569215694387679538421763285194582419736941367852856941273197823645324756918";
    for (text, n) in [
        (format!("unique\t{s}\nnone\t-\ninvalid\t-\n"), 1),
        (format!("multiple\t2\t{s}\nnone\t0\t-\n"), 1),
        (format!("none\t-\nsolved\t{s}\nunique\t{s}\n"), 2),
    ] {
        let ds = read_str("t", &text, &ReadOptions::default()).unwrap();
        assert_eq!(ds.puzzles.len(), n, "{text}");
        assert_eq!(ds.puzzles[0].grid, crate::format::test_grid(s));
    }
    let block = crate::format::write_block(
        &crate::format::test_grid(s),
        &Alphabet::default_for(crate::grid::Geometry::new(3).unwrap()),
    );
    let text = format!("invalid\t-\nunique\n{block}\nmultiple\n{block}");
    let ds = read_str("t", &text, &ReadOptions::default()).unwrap();
    assert_eq!(ds.format, Format::Block);
    assert_eq!(ds.puzzles.len(), 2);
    // A word that is no verdict is still an error, at its column.
    let e = read_str("t", &format!("uniq\t{s}\n"), &ReadOptions::default()).unwrap_err();
    assert!(e.to_string().contains("t:1:1"), "{e}");
}

mod blocks_read {
    //! A line file read in blocks, each parsed apart, comes to what one
    //! reader's chunks come to: the same puzzles, the same errors and counts.
    use super::*;
    use proptest::prelude::*;

    /// What a read came to: its puzzles, and its counts (puzzles, skipped)
    /// or its errors (line and column of each listed, and their total).
    type Outcome = (
        Vec<Puzzle>,
        Result<(usize, usize), (Vec<(usize, usize)>, usize)>,
    );

    fn summary(puzzles: Vec<Puzzle>, r: Result<Dataset, LoadError>) -> Outcome {
        let r = match r {
            Ok(d) => Ok((d.count, d.skipped)),
            Err(LoadError::Invalid { errors, total, .. }) => {
                Err((errors.iter().map(|e| (e.line, e.column)).collect(), total))
            }
            Err(e) => panic!("{e}"),
        };
        (puzzles, r)
    }

    fn by_chunks(text: &str, opts: &ReadOptions) -> Outcome {
        let mut all = Vec::new();
        let r = read_chunks("t.txt", text.as_bytes(), opts, 7, &mut |c, _| {
            all.extend(c);
            true
        });
        summary(all, r)
    }

    fn by_blocks(text: &str, opts: &ReadOptions, size: usize) -> Outcome {
        let mut list = Vec::new();
        let line = blocks::read_line_blocks("t.txt", text.as_bytes(), opts, size, &mut |b| {
            list.push(b);
            true
        });
        assert_eq!(line.map_err(|e| e.to_string()), Ok(true));
        let (mut all, mut read) = (Vec::new(), blocks::Blocks::new("t.txt", opts));
        let mut fixed = None;
        for b in &list {
            let parsed = blocks::parse_block("t.txt", b, opts, fixed.as_ref());
            if !read.add(&parsed) {
                all.extend(parsed.puzzles);
                break;
            }
            fixed = fixed.or(parsed.fixed.clone());
            all.extend(parsed.puzzles);
        }
        let r = read.finish();
        summary(all, r)
    }

    fn line() -> impl Strategy<Value = String> {
        prop_oneof![
            4 => Just(P.to_string()),
            2 => Just(format!("{P} {S}")),
            1 => Just(format!("{P} # a comment")),
            1 => Just("# a comment line".to_string()),
            1 => Just(String::new()),
            1 => Just("12345".to_string()),
            1 => Just(P.replacen('.', "x", 1)),
            1 => Just("1...".repeat(4)),
            1 => Just(format!("{P}\r")),
        ]
    }

    proptest! {
        #[test]
        fn blocks_read_as_one_reader_reads(
            lines in proptest::collection::vec(line(), 0..40),
            end in any::<bool>(),
            size in 1usize..400,
            skip in any::<bool>(),
        ) {
            let mut text = lines.join("\n");
            if end {
                text.push('\n');
            }
            let opts = ReadOptions { skip_invalid: skip, ..ReadOptions::default() };
            // A file whose head shows another format is not read in blocks.
            prop_assume!(detect::detect_format(text.as_bytes()) == Ok(Format::Line));
            let (blocks, chunks) = (by_blocks(&text, &opts, size), by_chunks(&text, &opts));
            prop_assert_eq!(&blocks.1, &chunks.1);
            // A read that fails hands nothing on that counts.
            if chunks.1.is_ok() {
                prop_assert_eq!(blocks.0, chunks.0);
            }
        }
    }
}

#[test]
fn an_answer_that_breaks_the_rules_or_is_too_short_is_located() {
    // Complete and keeping the givens, but 7 twice in row 9.
    let broken = format!("{}7", &S[..80]);
    let e = first_error(&format!("{P}\n{P} {broken}\n"));
    assert_eq!((e.line, e.column), (2, 83 + 80));
    assert!(
        matches!(&e.kind, K::AnswerMismatch(m) if m.contains("no solution") && m.contains("row 9")),
        "{e}"
    );
    // A token of symbols that is no grid: an answer of the wrong length.
    let e = first_error(&format!("{P} 12345\n"));
    assert_eq!((e.line, e.column), (1, 83));
    assert!(
        matches!(&e.kind, K::AnswerMismatch(m) if m.contains("5 symbols") && m.contains("81")),
        "{e}"
    );
    // After `#`, and words of other characters, a comment still.
    let d = read(&format!("{P} # 12345\n{P} rated 12\n")).unwrap();
    assert_eq!(d.puzzles[0].comment.as_deref(), Some("# 12345"));
    assert_eq!(d.puzzles[1].comment.as_deref(), Some("rated 12"));
}

#[test]
fn a_byte_order_mark_is_skipped() {
    let d = read(&format!("\u{FEFF}{P} {S}\n{P}\n")).unwrap();
    assert_eq!(d.puzzles.len(), 2);
    assert_eq!(d.puzzles[0].line, 1);
    assert!(d.puzzles[0].expected.is_some());
    let csv = read(&format!(
        "\u{FEFF}quizzes,solutions\n{},{}\n",
        P.replace('.', "0"),
        S
    ))
    .unwrap();
    assert_eq!((csv.format, csv.puzzles.len()), (Format::Csv, 1));
}

#[test]
fn an_answer_repeating_a_digit_in_a_column_or_a_box_is_named() {
    // Rows kept, two rows swapped across bands: columns still hold each
    // digit once, but boxes do not (rows 3 and 4 swapped).
    let rows: Vec<&str> = (0..9).map(|r| &S[r * 9..r * 9 + 9]).collect();
    let mut swapped = rows.clone();
    swapped.swap(2, 3);
    let blank = ".".repeat(81);
    let e = first_error(&format!("{blank} {}\n", swapped.concat()));
    assert!(
        matches!(&e.kind, K::AnswerMismatch(m) if m.contains("appears twice in box 1")),
        "{e}"
    );
    // Two cells of a row swapped: the row keeps its digits, the columns do not.
    let mut cells: Vec<char> = S.chars().collect();
    cells.swap(0, 1);
    let e = first_error(&format!("{blank} {}\n", cells.iter().collect::<String>()));
    assert!(
        matches!(&e.kind, K::AnswerMismatch(m) if m.contains("appears twice in column 1")),
        "{e}"
    );
}
