//! One way to take a lock: a poisoned mutex (a thread panicked holding it)
//! still gives its value, as every lock in the workbench guards data that a
//! panic cannot leave half-written (counters, pools, a writer).

use std::sync::{Mutex, MutexGuard};

/// Locks `m`, poisoned or not.
pub fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// The value of `m`, poisoned or not.
pub fn into_inner<T>(m: Mutex<T>) -> T {
    m.into_inner().unwrap_or_else(|e| e.into_inner())
}
