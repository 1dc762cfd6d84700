//! imagecore: Logo Lookup's image pipeline, compiled to WASM for Deno.
//!
//! Decode (PNG, JPEG, GIF, WebP, ICO, BMP, SVG) → resize (Lanczos3, premultiplied alpha) → greyscale →
//! theme → encode (PNG, WebP, JPEG). The WASM exports below are wrapped by `mod.ts`, the only
//! TypeScript entry; errors cross as `"code\tmessage"` strings that `mod.ts` turns into
//! `ImageCoreError`s.

#[cfg(feature = "raster")]
pub mod decode;
#[cfg(feature = "raster")]
pub mod decode_jpeg;
#[cfg(feature = "raster")]
pub mod decode_png;
#[cfg(feature = "raster")]
pub mod encode;
pub mod encode_png;
pub mod error;
#[cfg(feature = "raster")]
pub mod format;
pub mod geometry;
#[cfg(feature = "raster")]
pub mod greyscale;
#[cfg(feature = "raster")]
pub mod ico_select;
#[cfg(feature = "raster")]
pub mod lightness;
pub mod limits;
pub mod out_of_memory;
#[cfg(feature = "raster")]
pub mod pipeline;
#[cfg(feature = "raster")]
pub mod resize;
#[cfg(feature = "raster")]
#[doc(hidden)]
pub mod resize_bench;
#[cfg(feature = "raster")]
pub mod rgba;
#[cfg(feature = "svg")]
pub mod svg;
#[cfg(feature = "svg")]
pub mod svg_budget;
#[cfg(feature = "svg")]
pub mod svg_filter_range;
#[cfg(feature = "svg")]
pub mod svg_fit;
#[cfg(feature = "svg")]
pub mod svg_font;
#[cfg(feature = "svg")]
pub mod svg_monogram;
#[cfg(feature = "svg")]
pub mod svg_prepass;
pub mod svg_sniff;
#[cfg(feature = "svg")]
pub mod svg_style_check;
#[cfg(feature = "svg")]
pub mod svg_work_weights;
#[cfg(feature = "raster")]
pub mod theme;

use error::Error;
#[cfg(feature = "raster")]
use error::ErrorCode;
#[cfg(feature = "raster")]
use format::OutputFormat;
#[cfg(feature = "raster")]
use pipeline::Options;
#[cfg(feature = "raster")]
use theme::Theme;
use wasm_bindgen::prelude::*;

/// Bytes before the image in `transform`'s and `probe`'s results: width u32 LE, height u32 LE,
/// format u8, inverted u8, two bytes of padding.
pub const RESULT_HEADER_LEN: usize = 12;

fn to_js(error: Error) -> JsValue {
    JsValue::from_str(&format!("{}\t{}", error.code.as_str(), error.message))
}

fn with_header(width: u32, height: u32, format: u8, inverted: bool, body: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(RESULT_HEADER_LEN + body.len());
    out.extend_from_slice(&width.to_le_bytes());
    out.extend_from_slice(&height.to_le_bytes());
    out.extend_from_slice(&[format, u8::from(inverted), 0, 0]);
    out.extend_from_slice(body);
    out
}

#[cfg(feature = "raster")]
/// Transforms an encoded image. `width` 0 keeps the source width; `theme` 0 none, 1 light,
/// 2 dark; `format` 0 PNG, 1 WebP, 2 JPEG. Returns the result header then the encoded image.
#[wasm_bindgen]
pub fn transform(
    input: &[u8],
    width: u32,
    greyscale: bool,
    theme: u8,
    format: u8,
) -> Result<Vec<u8>, JsValue> {
    let theme = Theme::from_code(theme).ok_or_else(|| {
        to_js(Error::new(
            ErrorCode::InvalidArgument,
            "Cannot theme image: unknown theme",
        ))
    })?;
    let options = Options {
        width: (width != 0).then_some(width),
        greyscale,
        theme,
        format: OutputFormat::from_code(format).map_err(to_js)?,
    };
    let out = pipeline::transform(input, &options).map_err(to_js)?;
    Ok(with_header(
        out.width,
        out.height,
        out.format as u8,
        out.inverted,
        &out.bytes,
    ))
}

#[cfg(feature = "raster")]
/// Reads format and dimensions from the header. Returns the result header with no image.
#[wasm_bindgen]
pub fn probe(input: &[u8]) -> Result<Vec<u8>, JsValue> {
    let header = decode::probe(input).map_err(to_js)?;
    Ok(with_header(
        header.width,
        header.height,
        header.format as u8,
        false,
        &[],
    ))
}

#[cfg(feature = "raster")]
/// Encodes raw straight-alpha RGBA8 pixels. `format` 0 PNG, 1 WebP, 2 JPEG.
#[wasm_bindgen]
pub fn encode_rgba(pixels: &[u8], width: u32, height: u32, format: u8) -> Result<Vec<u8>, JsValue> {
    let format = OutputFormat::from_code(format).map_err(to_js)?;
    let mut pixels = pixels.to_vec();
    encode::encode(&mut pixels, width, height, format).map_err(to_js)
}

/// Whether the bytes are an SVG document (for `mod.ts` to route them to the SVG module).
#[wasm_bindgen]
pub fn is_svg(input: &[u8]) -> bool {
    svg_sniff::is_svg(input)
}

/// SVG module: the monogram tile's SVG document for `domain`, with the first letter of `label`
/// (its brand label, in Unicode) — see `svg_monogram`. Draw it with `svg_rasterize`.
#[cfg(feature = "svg")]
#[wasm_bindgen]
pub fn svg_monogram(label: &str, domain: &str) -> String {
    svg_monogram::document(label, domain)
}

/// SVG module: intrinsic size of an SVG, as `probe`'s result header (format 6 = svg).
#[cfg(feature = "svg")]
#[wasm_bindgen]
pub fn svg_probe(input: &[u8]) -> Result<Vec<u8>, JsValue> {
    let tree = svg::parse(input).map_err(to_js)?;
    let (width, height) = svg::size(&tree);
    Ok(with_header(width, height, 6, false, &[]))
}

/// SVG module: rasterises to a PNG `width` px wide (0: intrinsic), as the result header then
/// the PNG.
#[cfg(feature = "svg")]
#[wasm_bindgen]
pub fn svg_rasterize(input: &[u8], width: u32) -> Result<Vec<u8>, JsValue> {
    let (png, width, height) = svg::rasterize_png(input, width).map_err(to_js)?;
    Ok(with_header(width, height, 0, false, &png))
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

/// Traps on purpose, so tests can show a trap leaves the next call working.
#[doc(hidden)]
#[wasm_bindgen]
pub fn trap_for_tests() {
    panic!("trap requested by a test");
}
