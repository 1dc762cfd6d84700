//! imagecore: Logo Lookup's image pipeline, compiled to WASM for Deno.
//!
//! Decode (PNG, JPEG, GIF, WebP, ICO, BMP, SVG) → resize (Lanczos3, premultiplied alpha) → greyscale →
//! theme → encode (PNG, WebP, JPEG). The WASM exports are wrapped by `mod.ts`, the only
//! TypeScript entry; errors cross as `"code\tmessage"` strings that `mod.ts` turns into
//! `ImageCoreError`s, results behind the header of [`wire`].
//!
//! One crate, two WASM modules, one cargo feature each (see `Cargo.toml`):
//! - [`raster`] (feature `raster`, the default): the request path. Exports `transform`, `probe`,
//!   `renditions` and `encode_rgba` ([`raster::exports`]), and for benchmarks `transform_stages`
//!   and `bench_resize`.
//! - [`svg`] (feature `svg`): SVG rasterisation with resvg, loaded the first time an SVG arrives.
//!   Exports `svg_probe`, `svg_rasterize`, `svg_monogram`, for `format=svg` `svg_sanitize` and
//!   `svg_check_sanitized`, and `svg_theme` (its recolouring) ([`svg::exports`]).
//!
//! Both modules also export [`is_svg`], [`memory_bytes`] and
//! [`take_out_of_memory`](out_of_memory::take_out_of_memory), and share the modules declared here
//! without a feature: errors, limits, output geometry, the allocator's out-of-memory note, and
//! [`colour`] (greyscale and the theme's colour maths, which both modules apply).

pub mod colour;
pub mod error;
pub mod geometry;
pub mod limits;
pub mod out_of_memory;
#[cfg(feature = "raster")]
pub mod raster;
#[cfg(feature = "svg")]
pub mod svg;
pub mod svg_sniff;
pub mod wire;

use wasm_bindgen::prelude::*;

/// Whether the bytes are an SVG document (for `mod.ts` to route them to the SVG module).
#[wasm_bindgen]
pub fn is_svg(input: &[u8]) -> bool {
    svg_sniff::is_svg(input)
}

/// Size of the instance's linear memory in bytes (it grows, never shrinks).
#[wasm_bindgen]
pub fn memory_bytes() -> f64 {
    #[cfg(target_arch = "wasm32")]
    {
        (core::arch::wasm32::memory_size(0) * 65536) as f64
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        0.0
    }
}
