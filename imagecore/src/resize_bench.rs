//! The resize stage alone, exported to WASM for `bench/resize_stage_bench.ts`: the fast path
//! against the full Lanczos3 convolution on the same pixels, timed in the same instance.

use crate::resize::{resize, resize_lanczos3};
use wasm_bindgen::prelude::*;

/// Resizes straight-alpha RGBA8 `pixels` (`src_width`×`src_height`) to `width`×`height`: with
/// `reference`, one Lanczos3 convolution over every pixel; else what `transform` does.
#[doc(hidden)]
#[wasm_bindgen]
pub fn bench_resize(
    pixels: &[u8],
    src_width: u32,
    src_height: u32,
    width: u32,
    height: u32,
    reference: bool,
) -> Result<Vec<u8>, JsValue> {
    let pixels = pixels.to_vec();
    let resized = if reference {
        resize_lanczos3(pixels, src_width, src_height, width, height)
    } else {
        resize(pixels, src_width, src_height, width, height)
    };
    resized.map_err(|e| JsValue::from_str(&format!("{}\t{}", e.code.as_str(), e.message)))
}
