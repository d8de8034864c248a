//! The calling thread's CPU clock: what a solve's CPU deadline
//! ([`Limits::with_cpu_deadline`](crate::solver::Limits::with_cpu_deadline))
//! is checked against.

use std::time::Duration;

/// The calling thread's CPU time so far (user and system), to the
/// nanosecond where the clock gives it; zero where there is none.
pub fn thread_cpu() -> Duration {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime writes one timespec, which `ts` is.
    let ok = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) } == 0;
    match ok {
        true => Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32),
        false => Duration::ZERO,
    }
}
