//! Ctrl-C for the whole process: one handler and one flag, however many runs a
//! command makes (`bench --threads 1,2,4` makes one per count). The `ctrlc`
//! crate takes a single handler per process, so a handler installed per run
//! would leave every later run deaf to it.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

static FLAG: OnceLock<Arc<AtomicBool>> = OnceLock::new();
static MESSAGE: Mutex<&str> = Mutex::new("");

/// The process's interrupt flag, its handler installed on the first call:
/// a first Ctrl-C sets the flag and prints `message` (the latest caller's), a
/// second leaves at once with status 130.
pub(super) fn flag(message: &'static str) -> Arc<AtomicBool> {
    *sudoku_bench::sync::lock(&MESSAGE) = message;
    FLAG.get_or_init(|| {
        let flag = Arc::new(AtomicBool::new(false));
        let set = flag.clone();
        let _ = ctrlc::set_handler(move || {
            if set.swap(true, Ordering::SeqCst) {
                std::process::exit(130); // a second Ctrl-C: leave now
            }
            eprintln!("\n{}", sudoku_bench::sync::lock(&MESSAGE));
        });
        flag
    })
    .clone()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_run_of_a_process_shares_one_flag() {
        let first = flag("first");
        let second = flag("second");
        assert!(Arc::ptr_eq(&first, &second));
        assert!(!first.load(Ordering::SeqCst));
        second.store(true, Ordering::SeqCst);
        assert!(first.load(Ordering::SeqCst));
        assert_eq!(*MESSAGE.lock().unwrap(), "second");
        second.store(false, Ordering::SeqCst);
    }
}
