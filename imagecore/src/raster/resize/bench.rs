//! The resize stage alone, exported to WASM for `bench/resize_stage_bench.ts`: the fast path
//! against the full Lanczos3 convolution on the same pixels, timed in the same instance.

use crate::raster::resize::grey::resize_grey;
use crate::raster::resize::{resize, resize_lanczos3};
use crate::wire::to_js;
use wasm_bindgen::prelude::*;

/// Resizes straight-alpha RGBA8 `pixels` (`src_width`×`src_height`) to `width`×`height`: with
/// `reference`, one Lanczos3 convolution over every pixel; with `grey`, the greyscale resize
/// ([`resize::grey`]); else what `transform` does for colour.
#[doc(hidden)]
#[wasm_bindgen]
pub fn bench_resize(
    pixels: &[u8],
    src_width: u32,
    src_height: u32,
    width: u32,
    height: u32,
    reference: bool,
    grey: bool,
) -> Result<Vec<u8>, JsValue> {
    let pixels = pixels.to_vec();
    let resized = if grey {
        resize_grey(pixels, src_width, src_height, width, height)
    } else if reference {
        resize_lanczos3(pixels, src_width, src_height, width, height)
    } else {
        resize(pixels, src_width, src_height, width, height)
    };
    resized.map_err(to_js)
}
