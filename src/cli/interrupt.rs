//! SIGINT, SIGTERM and SIGHUP for the whole process (`hygiene::signals`):
//! one flag however many runs a command makes (`bench --threads 1,2,4` makes
//! one per count), and the message the latest run asked for.

use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};
use sudoku_bench::hygiene::signals;

static MESSAGE: Mutex<&str> = Mutex::new("");

/// Listens for the signals from the start: one that no run has claimed
/// ends every process the workbench started and leaves with `128 + signal`.
pub(super) fn listen() {
    signals::listen(|sig| {
        let said = match *sudoku_bench::sync::lock(&MESSAGE) {
            "" => "stopping (a second Ctrl-C or signal quits now)",
            said => said,
        };
        eprintln!("\n{}: {said}", signals::name(sig));
    });
}

/// The process's interrupt flag: the first signal sets it and prints
/// `message` (the latest caller's); a second leaves at once.
pub(super) fn flag(message: &'static str) -> Arc<AtomicBool> {
    *sudoku_bench::sync::lock(&MESSAGE) = message;
    signals::claim()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::Ordering;

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
