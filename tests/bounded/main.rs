//! Tests that bound memory, with a global allocator that counts heap bytes
//! (in a binary of their own, so that no other test's allocations count).

mod counting;

mod bounded_input;
mod bounded_memory;
