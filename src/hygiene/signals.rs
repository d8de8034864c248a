//! SIGINT, SIGTERM and SIGHUP, heard once for the whole process. While a run
//! has [`claim`]ed them, the first one raises its flag (the run stops, keeps
//! what it measured and exits with `128 + signal`: 130, 143, 129); any other,
//! or one that no run claimed, ends every process and path the workbench
//! registered and leaves at once with `128 + signal` ([`super::exit`]).

use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

static CLAIMED: AtomicBool = AtomicBool::new(false);
static FIRST: AtomicI32 = AtomicI32::new(0);
type Notice = Box<dyn Fn(i32) + Send>;
static NOTICE: Mutex<Option<Notice>> = Mutex::new(None);

fn flag() -> &'static Arc<AtomicBool> {
    static FLAG: OnceLock<Arc<AtomicBool>> = OnceLock::new();
    FLAG.get_or_init(|| Arc::new(AtomicBool::new(false)))
}

/// Starts listening (once per process; later calls do nothing). `notice`
/// hears the signal that a run took as its request to stop.
pub fn listen(notice: impl Fn(i32) + Send + 'static) {
    static STARTED: OnceLock<()> = OnceLock::new();
    *crate::sync::lock(&NOTICE) = Some(Box::new(notice));
    STARTED.get_or_init(|| {
        use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
        let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP]) else {
            return;
        };
        let _ = std::thread::Builder::new()
            .name("sudoku-bench-signals".into())
            .spawn(move || {
                for sig in signals.forever() {
                    heard(sig);
                }
            });
    });
}

/// What a signal does: the first one while a run listens raises the flag;
/// any other ends everything and leaves.
fn heard(sig: i32) {
    let first = FIRST
        .compare_exchange(0, sig, Ordering::SeqCst, Ordering::SeqCst)
        .is_ok();
    if first && CLAIMED.load(Ordering::SeqCst) {
        flag().store(true, Ordering::SeqCst);
        if let Some(notice) = crate::sync::lock(&NOTICE).as_ref() {
            notice(sig);
        }
        return;
    }
    super::exit(128 + sig)
}

/// The flag a run stops on: from now, the first signal raises it instead
/// of ending the process.
pub fn claim() -> Arc<AtomicBool> {
    CLAIMED.store(true, Ordering::SeqCst);
    flag().clone()
}

/// The first signal heard, if any.
pub fn received() -> Option<i32> {
    match FIRST.load(Ordering::SeqCst) {
        0 => None,
        sig => Some(sig),
    }
}

/// The exit code of a run a signal stopped: `128 + signal` (130 for
/// SIGINT when none was heard).
pub fn exit_code() -> u8 {
    (128 + received().unwrap_or(libc::SIGINT)) as u8
}

/// A signal's name, as a sentence says it: `SIGTERM`.
pub fn name(sig: i32) -> &'static str {
    match sig {
        libc::SIGINT => "SIGINT (Ctrl-C)",
        libc::SIGTERM => "SIGTERM",
        libc::SIGHUP => "SIGHUP",
        _ => "a signal",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_claimed_first_signal_raises_the_flag_and_names_itself() {
        let flag = claim();
        assert!(!flag.load(Ordering::SeqCst));
        heard(libc::SIGTERM);
        assert!(flag.load(Ordering::SeqCst));
        assert_eq!(received(), Some(libc::SIGTERM));
        assert_eq!(exit_code(), 143);
        assert_eq!(name(libc::SIGHUP), "SIGHUP");
    }
}
