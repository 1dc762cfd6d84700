#![cfg(feature = "raster")]
//! Hostile inputs cost little memory: a global allocator that records the peak shows that
//! decompression bombs in PNG ancillary chunks are never inflated, and that headers declaring
//! more than the pixel budget are refused before any pixel buffer.
//!
//! One test function only: the peak is process-wide, so nothing may run beside it.
mod common;

use common::hostile::{deflate_bomb, gif_declaring, png_with_bombs, rle8_bmp};
use imagecore::error::ErrorCode;
use imagecore::raster::pipeline::{transform, Options, Output};
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

struct PeakAlloc;

static CURRENT: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for PeakAlloc {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let ptr = unsafe { System.alloc(layout) };
        if !ptr.is_null() {
            let now = CURRENT.fetch_add(layout.size(), Ordering::SeqCst) + layout.size();
            PEAK.fetch_max(now, Ordering::SeqCst);
        }
        ptr
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) };
        CURRENT.fetch_sub(layout.size(), Ordering::SeqCst);
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let new = unsafe { System.realloc(ptr, layout, new_size) };
        if !new.is_null() {
            CURRENT.fetch_sub(layout.size(), Ordering::SeqCst);
            let now = CURRENT.fetch_add(new_size, Ordering::SeqCst) + new_size;
            PEAK.fetch_max(now, Ordering::SeqCst);
        }
        new
    }
}

#[global_allocator]
static ALLOCATOR: PeakAlloc = PeakAlloc;

const MIB: usize = 1024 * 1024;

/// Runs `transform` at 64 px wide and returns its result with the bytes it allocated at peak
/// beyond what was live before.
fn measured(input: &[u8]) -> (imagecore::error::Result<Output>, usize) {
    let before = CURRENT.load(Ordering::SeqCst);
    PEAK.store(before, Ordering::SeqCst);
    let result = transform(
        input,
        &Options {
            width: Some(64),
            ..Options::default()
        },
    );
    (result, PEAK.load(Ordering::SeqCst) - before)
}

#[test]
fn hostile_inputs_are_bounded_in_memory() {
    // The bomb generator is right: a small one inflates to exactly what it claims...
    let (small, small_len) = deflate_bomb(1000);
    let inflated = fdeflate::decompress_to_vec(&small).expect("a valid zlib stream");
    assert_eq!(inflated.len() as u64, small_len);
    assert!(inflated.iter().all(|&b| b == 0));
    drop(inflated);

    // ...and the ~2 MB PNG carries three streams of ~0.7 GB each.
    let (png, bomb_len) = png_with_bombs(650_000);
    assert!(
        png.len() > 1_900_000 && png.len() < 2_100_000,
        "{}",
        png.len()
    );
    assert!(bomb_len > 650_000_000, "{bomb_len}");
    let (result, peak) = measured(&png);
    let out = result.expect("the logo decodes; its bombs are skipped");
    assert_eq!((out.width, out.height), (64, 64));
    assert!(
        peak < 16 * MIB,
        "the PNG bomb cost {} MiB at peak",
        peak / MIB
    );

    // An 826-byte-class GIF and a 13 KB RLE BMP declaring 6000×6000 (36 MP): refused by the
    // header, before any pixel buffer.
    let gif = gif_declaring(6000, 6000);
    let bmp = rle8_bmp(6000, 6000, 270);
    assert!(
        gif.len() < 1000 && bmp.len() < 16 * 1024,
        "{} {}",
        gif.len(),
        bmp.len()
    );
    for (name, bytes) in [("GIF", gif), ("RLE BMP", bmp)] {
        let (result, peak) = measured(&bytes);
        let error = result.expect_err("refused");
        assert_eq!(error.code, ErrorCode::TooLarge, "{name}: {}", error.message);
        assert!(peak < MIB, "{name} cost {} KiB at peak", peak / 1024);
    }
}
