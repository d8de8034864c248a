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
fn processes_die_with_their_program_even_in_a_panic() {
    // A program that never reads its stdin and never exits on its own.
    let marker = format!("4{}.25", std::process::id());
    let spec = ContenderSpec::program("sleeper", vec!["sleep".into(), marker.clone()])
        .with_default_sizes();
    let program = Program::new(spec, None).unwrap();
    program.start(2, Mode::Unique).unwrap();
    // /proc may show a just-started child under its parent's command line for a moment.
    let until = std::time::Instant::now() + Duration::from_secs(5);
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
