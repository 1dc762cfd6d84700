//! The request-path module's WASM exports, wrapped by `mod.ts`.

use crate::colour::theme::Theme;
use crate::error::{Error, ErrorCode};
use crate::raster::encode::effort::Effort;
use crate::raster::format::OutputFormat;
use crate::raster::pipeline::{self, Options};
use crate::raster::{decode, encode, renditions};
use crate::wire::{to_js, with_header, write_header, RESULT_HEADER_LEN};
use wasm_bindgen::prelude::*;

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
