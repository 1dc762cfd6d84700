//! imagecore: Logo Lookup's image pipeline, compiled to WASM for Deno.
//!
//! Decode (PNG, JPEG, GIF, WebP, ICO, BMP, SVG) → resize (Lanczos3, premultiplied alpha) → greyscale →
//! theme → encode (PNG, WebP, JPEG). The WASM exports below are wrapped by `mod.ts`, the only
//! TypeScript entry; errors cross as `"code\tmessage"` strings that `mod.ts` turns into
//! `ImageCoreError`s.

#[cfg(feature = "raster")]
pub mod declared_size;
#[cfg(feature = "raster")]
pub mod decode;
#[cfg(feature = "raster")]
pub mod decode_jpeg;
#[cfg(feature = "raster")]
pub mod decode_png;
pub mod effort;
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
pub mod png_as_is;
#[cfg(feature = "raster")]
pub mod renditions;
#[cfg(feature = "raster")]
pub mod resize;
#[cfg(feature = "raster")]
#[doc(hidden)]
pub mod resize_bench;
#[cfg(feature = "raster")]
pub mod resize_grey;
#[cfg(feature = "raster")]
pub mod rgba;
#[cfg(feature = "raster")]
pub mod stage_times;
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
#[cfg(feature = "raster")]
mod theme_palette;

#[cfg(feature = "raster")]
use effort::Effort;
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

pub(crate) fn to_js(error: Error) -> JsValue {
    JsValue::from_str(&format!("{}\t{}", error.code.as_str(), error.message))
}

fn with_header(width: u32, height: u32, format: u8, inverted: bool, body: &[u8]) -> Vec<u8> {
    let mut out = vec![0; RESULT_HEADER_LEN];
    write_header(&mut out, width, height, format, inverted);
    out.extend_from_slice(body);
    out
}

/// The result header, written over the first [`RESULT_HEADER_LEN`] bytes of `out`.
fn write_header(out: &mut [u8], width: u32, height: u32, format: u8, inverted: bool) {
    out[..4].copy_from_slice(&width.to_le_bytes());
    out[4..8].copy_from_slice(&height.to_le_bytes());
    out[8..RESULT_HEADER_LEN].copy_from_slice(&[format, u8::from(inverted), 0, 0]);
}

#[cfg(feature = "raster")]
/// The pipeline options of `transform`'s arguments.
pub(crate) fn transform_options(
    width: u32,
    greyscale: bool,
    theme: u8,
    format: u8,
    effort: u8,
) -> Result<Options, JsValue> {
    let theme = Theme::from_code(theme).ok_or_else(|| {
        to_js(Error::new(
            ErrorCode::InvalidArgument,
            "Cannot theme image: unknown theme",
        ))
    })?;
    Ok(Options {
        width: (width != 0).then_some(width),
        greyscale,
        theme,
        format: OutputFormat::from_code(format).map_err(to_js)?,
        effort: Effort::from_code(effort).map_err(to_js)?,
    })
}

#[cfg(feature = "raster")]
/// Transforms an encoded image. `width` 0 keeps the source width; `theme` 0 none, 1 light,
/// 2 dark; `format` 0 PNG, 1 WebP, 2 JPEG; `effort` (PNG) 0 fast, 1 small. Returns the result
/// header then the encoded image, written behind the header in one buffer.
#[wasm_bindgen]
pub fn transform(
    input: &[u8],
    width: u32,
    greyscale: bool,
    theme: u8,
    format: u8,
    effort: u8,
) -> Result<Vec<u8>, JsValue> {
    let options = transform_options(width, greyscale, theme, format, effort)?;
    let mut out = vec![0; RESULT_HEADER_LEN];
    let done = pipeline::transform_into(input, &options, &mut out, || 0.0).map_err(to_js)?;
    let format = options.format as u8;
    write_header(&mut out, done.width, done.height, format, done.inverted);
    Ok(out)
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
/// Decodes once and renders PNG renditions: the source at `source_width` (a PNG needing no resize
/// kept as it came when `keep_png`), then each of `widths` from its pixels (see `renditions`).
/// Returns them packed by `renditions::pack`.
#[wasm_bindgen]
pub fn renditions(
    input: &[u8],
    source_width: u32,
    widths: &[u32],
    keep_png: bool,
) -> Result<Vec<u8>, JsValue> {
    let outputs = renditions::renditions(input, source_width, widths, keep_png).map_err(to_js)?;
    Ok(renditions::pack(&outputs))
}

#[cfg(feature = "raster")]
/// Encodes raw straight-alpha RGBA8 pixels. `format` 0 PNG, 1 WebP, 2 JPEG. The pixels arrive as
/// a buffer of their own (wasm-bindgen copies them in once), which PNG encoding normalises in place.
#[wasm_bindgen]
pub fn encode_rgba(
    mut pixels: Vec<u8>,
    width: u32,
    height: u32,
    format: u8,
) -> Result<Vec<u8>, JsValue> {
    let format = OutputFormat::from_code(format).map_err(to_js)?;
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
