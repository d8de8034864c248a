use super::*;
use std::time::{Duration, Instant};

/// Waits (10 s at most) until `f` holds.
fn until(f: impl Fn() -> bool) -> bool {
    let end = Instant::now() + Duration::from_secs(10);
    while Instant::now() < end {
        if f() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    f()
}

fn count(token: &str) -> usize {
    marked(&|t: &str| t == token).len()
}

#[test]
fn ending_a_group_kills_its_children_setsid_or_not() {
    let mut cmd = Command::new("sh");
    cmd.args([
        "-c",
        "setsid sleep 300 & sleep 300 & (sleep 300 &) ; exec sleep 300",
    ]);
    let (mut child, group) = spawn(cmd).expect("sh starts");
    let token = group.token().to_string();
    // The shell's transients (the subshell, setsid's parent) come and go
    // before the four sleeps settle: each count is waited for, not read once.
    assert!(until(|| count(&token) >= 4), "{} marked", count(&token));
    assert!(until(|| mine().len() >= 4), "{} of mine", mine().len());
    drop(group);
    let _ = child.wait();
    assert!(until(|| count(&token) == 0), "{} left", count(&token));
}

#[test]
fn a_marker_nests_under_the_one_it_inherits() {
    assert_eq!(chain(Some("1-2.3"), "4-5.6"), "1-2.3/4-5.6");
    assert_eq!(chain(None, "4-5.6"), "4-5.6");
    assert_eq!(chain(Some(""), "4-5.6"), "4-5.6");
    let mut cmd = Command::new("sh");
    cmd.args(["-c", "exec sleep 300"]);
    let (mut child, group) = spawn(cmd).expect("sh starts");
    let pid = child.id();
    assert!(until(
        || owner_of(pid).is_some_and(|v| v.split('/').any(|t| t == group.token()))
    ));
    drop(group);
    let _ = child.wait();
}

#[test]
fn a_registered_path_is_forgotten_when_its_guard_drops() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("x.part");
    let guard = remove_on_exit(&path);
    assert!(crate::sync::lock(&PATHS).values().any(|p| p == &path));
    drop(guard);
    assert!(!crate::sync::lock(&PATHS).values().any(|p| p == &path));
}

#[test]
fn a_stale_folder_is_named_by_its_prefix_and_process() {
    assert_eq!(stale_owner("sudoku-bench-check-123-a1B2c3"), Some(123));
    assert_eq!(stale_owner("sudoku-bench-callgrind-9-x"), Some(9));
    assert_eq!(stale_owner("sudoku-bench-check-123"), None);
    assert_eq!(stale_owner("sudoku-bench-check-123-"), None);
    assert_eq!(stale_owner("sudoku-bench-other-123-abc"), None);
    assert_eq!(stale_owner("sudoku-bench-check-x-abc"), None);
    assert!(alive(std::process::id()));
}

#[test]
fn a_token_names_its_owner_in_its_namespace() {
    assert_eq!(owner("12-345-4026531836.7"), Some((12, 345, 4026531836)));
    assert_eq!(owner("12-345.7"), None);
    assert_eq!(owner("12-345-9-1.7"), None);
    assert_eq!(owner("above.1"), None);
    let mine = format!("{}.1", me());
    let (pid, start, ns) = owner(&mine).expect("this process's own token parses");
    assert_eq!(
        (pid, Some(start), ns),
        (std::process::id(), start_ticks(pid), namespace())
    );
}

#[test]
fn a_private_folder_is_the_users_alone() {
    use std::os::unix::fs::PermissionsExt;
    let dir = private_folder("sudoku-bench-check").expect("a private folder");
    let mode = std::fs::metadata(dir.path()).unwrap().permissions().mode();
    assert_eq!(mode & 0o777, 0o700, "{mode:o}");
    let name = dir
        .path()
        .file_name()
        .unwrap()
        .to_str()
        .unwrap()
        .to_string();
    assert_eq!(stale_owner(&name), Some(std::process::id()));
}
