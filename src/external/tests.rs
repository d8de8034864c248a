use super::*;

#[test]
fn an_argument_is_split_as_a_shell_would_but_needs_no_shell() {
    let s = parse_argument("jcz=./jcz --name 'two words' a\\ b").unwrap();
    assert_eq!(s.name, "jcz");
    assert_eq!(s.command, ["./jcz", "--name", "two words", "a b"]);
    assert_eq!(s.sizes, crate::solver::ALL_SIZES);
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
        ("[[contender]]\nname = \"a\"\n", "missing field `command`"),
        ("", "no contenders"),
    ] {
        std::fs::write(&path, text).unwrap();
        let e = load_file(&path).unwrap_err().to_string();
        assert!(e.contains(want), "{text:?}: {e}");
    }
}
