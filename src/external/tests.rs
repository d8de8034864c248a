use super::*;

#[test]
fn an_argument_is_split_as_a_shell_would_but_needs_no_shell() {
    let s = parse_argument("jcz=./jcz --name 'two words' a\\ b").unwrap();
    assert_eq!(s.name, "jcz");
    assert_eq!(s.command, ["./jcz", "--name", "two words", "a b"]);
    assert_eq!(s.sizes, super::DEFAULT_SIZES);
    for (bad, why) in [
        ("no-equals", "expected NAME=COMMAND"),
        ("x=", "the command is empty"),
        ("x=./a 'open", "unclosed quote"),
        ("bad/name=./a", "letters, digits"),
        ("dlx=./a", "built-in strategy"),
    ] {
        let e = parse_argument(bad).unwrap_err().to_string();
        assert!(e.contains(why), "{bad}: {e}");
    }
}

#[test]
fn a_contenders_file_is_read_and_its_errors_located() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("c.toml");
    std::fs::write(
        &path,
        "[[contender]]\nname = \"a\"\ncommand = [\"./a\", \"-q\"]\nsizes = [9]\n\n[[contender]]\nname = \"b\"\ncommand = [\"./b\"]\ndescription = \"B\"\n",
    )
    .unwrap();
    let specs = load_file(&path).unwrap();
    assert_eq!(specs.len(), 2);
    assert_eq!(
        (specs[0].sizes.as_slice(), specs[1].sizes.len()),
        (&[9][..], 4)
    );
    assert_eq!(specs[1].description, "B");
    for (text, want) in [
        (
            "[[contender]]\nname = \"a\"\ncommand = [\"./a\"]\nsize = [9]\n",
            "c.toml:4:1",
        ),
        (
            "[[contender]]\nname = \"a\"\ncommand = [\"./a\"]\nsizes = [7]\n",
            "size 7 is not one of",
        ),
        ("[[contender]]\nname = \"a\"\n", "give `command`"),
        // Sizes that would be allocated are bounded, and the line named.
        (
            "[[contender]]\nname = \"a\"\ncommand = [\"./a\"]\nbatch = 9223372036854775807\n",
            "c.toml:4:1: contender a: batch is 9223372036854775807: give at most 4096 puzzles",
        ),
        (
            "[[contender]]\nbatch = 100000000000\nname = \"a\"\ncommand = [\"./a\"]\n\n[[contender]]\nname = \"b\"\ncommand = [\"./b\"]\nbatch = 2\n",
            "c.toml:2:1: contender a: batch is 100000000000",
        ),
        (
            "[[contender]]\nname = \"a\"\ncommand = [\"./a\"]\n  batch = 0\n",
            "c.toml:4:3: contender a: batch is 0",
        ),
        ("", "no contenders"),
    ] {
        std::fs::write(&path, text).unwrap();
        let e = load_file(&path).unwrap_err().to_string();
        assert!(e.contains(want), "{text:?}: {e}");
    }
}

/// Processes whose command line holds `needle`.
fn running(needle: &str) -> usize {
    std::fs::read_dir("/proc")
        .unwrap()
        .flatten()
        .filter(|e| {
            std::fs::read(e.path().join("cmdline"))
                .is_ok_and(|c| String::from_utf8_lossy(&c).contains(needle))
        })
        .count()
}

#[test]
fn a_child_holding_stderr_neither_hangs_the_end_nor_hides_the_last_words() {
    let dir = tempfile::tempdir().unwrap();
    let log = stderr::Log::create(&dir.path().join("d.stderr.log")).unwrap();
    // A child that outlives the program keeps its stderr's pipe open.
    let marker = format!("5{}.75", std::process::id());
    let script = format!("sleep {marker} & echo one last word >&2; exit 4");
    let command = vec!["sh".to_string(), "-c".to_string(), script];
    let (tx, rx) = std::sync::mpsc::channel();
    let log2 = log.clone();
    std::thread::spawn(move || {
        let p = process::Process::spawn(&command, Mode::Unique, false, Some(&log2)).unwrap();
        let _ = tx.send(p.ended());
    });
    let how = rx.recv_timeout(Duration::from_secs(60)).expect("it ends");
    assert_eq!(how, "exit code 4; its stderr ended: \"one last word\"");
    // The child went with the program's group, and the log holds its words.
    assert_eq!(running(&marker), 0);
    assert_eq!(std::fs::read(log.path()).unwrap(), b"one last word\n");
}

#[test]
fn processes_die_with_their_program_even_in_a_panic() {
    // A program that never reads its stdin and never exits on its own.
    let marker = format!("4{}.25", std::process::id());
    let spec = ContenderSpec::program("sleeper", vec!["sleep".into(), marker.clone()])
        .with_default_sizes();
    let program = Program::new(spec, None).unwrap();
    program.start(2, Mode::Unique).unwrap();
    // /proc may show a just-started child under its parent's command line
    // for a moment; on a loaded machine, for seconds: the wait ends as soon
    // as both show, so a long bound costs nothing.
    let until = std::time::Instant::now() + Duration::from_secs(60);
    while running(&marker) < 2 && std::time::Instant::now() < until {
        std::thread::sleep(Duration::from_millis(5));
    }
    assert_eq!(running(&marker), 2);
    let unwound = std::panic::catch_unwind(std::panic::AssertUnwindSafe(move || {
        let _held = program;
        panic!("a harness bug");
    }));
    assert!(unwound.is_err());
    assert_eq!(running(&marker), 0, "killed as the panic unwound");
    assert_eq!(zombies(), 0, "and reaped");
}

/// Children of this process that exited and were never waited for.
fn zombies() -> usize {
    let me = std::process::id().to_string();
    std::fs::read_dir("/proc")
        .unwrap()
        .flatten()
        .filter_map(|e| std::fs::read_to_string(e.path().join("stat")).ok())
        .filter(|stat| {
            // pid (comm) state ppid ...: the fields after the command's closing parenthesis.
            let rest = stat.rsplit_once(')').map_or("", |r| r.1);
            let fields: Vec<&str> = rest.split_whitespace().collect();
            fields.first() == Some(&"Z") && fields.get(1) == Some(&me.as_str())
        })
        .count()
}

#[test]
fn a_batch_past_the_most_is_refused_even_from_a_run_file() {
    let spec = ContenderSpec {
        batch: Some(MAX_BATCH),
        ..ContenderSpec::program("p", vec!["./p".into()])
    };
    assert_eq!(Program::new(spec.clone(), None).unwrap().batch, MAX_BATCH);
    // A run.json edited by hand is read without the file's checks.
    for k in [MAX_BATCH + 1, 100_000_000_000, usize::MAX >> 1] {
        let spec = ContenderSpec {
            batch: Some(k),
            ..spec.clone()
        };
        let e = Program::new(spec, None).unwrap_err().to_string();
        assert!(
            e.contains(&format!("batch is {k}: give at most 4096")),
            "{e}"
        );
    }
}

#[test]
fn sizes_are_declared_after_the_name() {
    let s = parse_argument("mine@9=python3 mine.py").unwrap();
    assert_eq!((s.name.as_str(), s.sizes.as_slice()), ("mine", &[9][..]));
    let s = parse_argument("big@16x16,25=./big").unwrap();
    assert_eq!(s.sizes, [16, 25]);
    let s = parse_library_argument("t@9=./libt.so:f:tdoku").unwrap();
    assert_eq!((s.name.as_str(), s.sizes.as_slice()), ("t", &[9][..]));
    for (bad, why) in [
        ("m@nine=./a", "not a grid side"),
        ("m@10=./a", "size 10 is not one of"),
        ("m@=./a", "not a grid side"),
    ] {
        let e = parse_argument(bad).unwrap_err().to_string();
        assert!(e.contains(why), "{bad}: {e}");
    }
}

#[test]
fn a_size_is_given_up_only_when_nothing_there_was_answered() {
    let spec = ContenderSpec::program("p", vec!["./p".into()]);
    let p = Program::new(spec.clone(), None).unwrap();
    // One answer on 9x9, then crashes far past the bound: never given up there.
    p.answered(9);
    for _ in 0..3 * UNANSWERED_BOUND {
        p.crashed("signal 11", 9);
    }
    assert!(p.given_up().is_empty());
    // On 4x4 it answers nothing: given up there at the bound, once.
    for i in 1..=2 * UNANSWERED_BOUND {
        p.crashed("signal 11", 4);
        assert_eq!(
            p.given_up().len(),
            usize::from(i >= UNANSWERED_BOUND),
            "{i}"
        );
    }
    assert!(p.given_up()[0].contains("4x4 puzzles"));
    assert!(matches!(p.take(Mode::Unique, 4, false), Err(e) if e.starts_with("not run:")));
    // The warm-up's crashes are forgotten.
    p.forgive();
    assert!(p.given_up().is_empty());
    // max_crashes counts every size.
    let p = Program::new(
        ContenderSpec {
            max_crashes: Some(3),
            ..spec
        },
        None,
    )
    .unwrap();
    p.answered(9);
    p.crashed("a", 9);
    p.crashed("b", 4);
    assert!(p.given_up().is_empty());
    p.crashed("c", 9);
    let why = p.given_up();
    assert_eq!(why.len(), 1);
    assert!(why[0].contains("max_crashes (3"), "{}", why[0]);
    assert!(p.take(Mode::Unique, 16, false).is_err());
}
