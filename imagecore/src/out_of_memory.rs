//! Telling an out-of-memory trap from a bug.
//!
//! `tools/build.ts` caps the module's linear memory, so a decoder that escapes the limits fails
//! to allocate instead of growing the host's heap. Rust then aborts, which in WASM is a trap, the
//! same as a panic. This allocator (installed on wasm32 only: tests keep their own) notes a failed
//! allocation, and `mod.ts` asks [`take_out_of_memory`] after a trap to report `too_large`
//! rather than `internal`.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicBool, Ordering};
use wasm_bindgen::prelude::*;

static OUT_OF_MEMORY: AtomicBool = AtomicBool::new(false);

/// The system allocator, noting when it returns null.
pub struct FlaggingAllocator;

fn noted(ptr: *mut u8) -> *mut u8 {
    if ptr.is_null() {
        OUT_OF_MEMORY.store(true, Ordering::Relaxed);
    }
    ptr
}

// SAFETY: every call is forwarded unchanged to `System`, which upholds the contract.
unsafe impl GlobalAlloc for FlaggingAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        noted(unsafe { System.alloc(layout) })
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        noted(unsafe { System.alloc_zeroed(layout) })
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        noted(unsafe { System.realloc(ptr, layout, new_size) })
    }
}

#[cfg(target_arch = "wasm32")]
#[global_allocator]
static ALLOCATOR: FlaggingAllocator = FlaggingAllocator;

/// Whether an allocation failed since the last call, clearing the note. Safe to call after a
/// trap: it touches one static, no stack and no heap.
#[wasm_bindgen]
pub fn take_out_of_memory() -> bool {
    OUT_OF_MEMORY.swap(false, Ordering::Relaxed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_failed_allocation_is_noted_once() {
        let allocator = FlaggingAllocator;
        let too_big = Layout::from_size_align(isize::MAX as usize - 7, 8).expect("layout");
        // SAFETY: a null result is the point; nothing is freed.
        // `black_box`: LLVM may otherwise assume an allocation it sees unused succeeded, and the
        // test failed under `cargo test --release`.
        let ptr = std::hint::black_box(unsafe { allocator.alloc(std::hint::black_box(too_big)) });
        assert!(ptr.is_null());
        assert!(take_out_of_memory());
        assert!(!take_out_of_memory());
    }
}
