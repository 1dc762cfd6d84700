//! The SVG module's WASM exports, wrapped by `mod.ts`.

use crate::colour::theme::Theme;
use crate::error::{Error, ErrorCode};
use crate::svg::{monogram, parse, rasterize_png_meant, recolour, sanitize, size};
use crate::wire::{to_js, with_header};
use wasm_bindgen::prelude::*;

/// SVG module: the monogram tile's SVG document for `domain`, with the first letter of `label`
/// (its brand label, in Unicode) — see [`monogram`]. Draw it with `svg_rasterize`.
#[wasm_bindgen]
pub fn svg_monogram(label: &str, domain: &str) -> String {
    monogram::document(label, domain)
}

/// SVG module: intrinsic size of an SVG, as `probe`'s result header (format 6 = svg).
#[wasm_bindgen]
pub fn svg_probe(input: &[u8]) -> Result<Vec<u8>, JsValue> {
    let tree = parse(input).map_err(to_js)?;
    let (width, height) = size(&tree);
    Ok(with_header(width, height, 6, false, &[]))
}

/// SVG module: rasterises to a PNG `width` px wide (0: intrinsic), as the result header then
/// the PNG. The header holds the size the image is meant to be shown at; the PNG may be drawn
/// narrower (an SVG over the work budget), to be scaled up to it.
#[wasm_bindgen]
pub fn svg_rasterize(input: &[u8], width: u32) -> Result<Vec<u8>, JsValue> {
    let (png, _, _, width, height) = rasterize_png_meant(input, width).map_err(to_js)?;
    Ok(with_header(width, height, 0, false, &png))
}

/// SVG module: the sanitised SVG document served for `format=svg` ([`sanitize`]), as the result
/// header (the intrinsic size, format 6 = svg) then the document in UTF-8.
#[wasm_bindgen]
pub fn svg_sanitize(input: &[u8]) -> Result<Vec<u8>, JsValue> {
    let (document, width, height) = sanitize::sanitize(input).map_err(to_js)?;
    Ok(with_header(width, height, 6, false, document.as_bytes()))
}

/// SVG module: checks that `input` is a sanitised document as `svg_sanitize` writes them
/// ([`sanitize::check_sanitized`]: an archive import's check of a stored one), as the result
/// header with its intrinsic size and no body.
#[wasm_bindgen]
pub fn svg_check_sanitized(input: &[u8]) -> Result<Vec<u8>, JsValue> {
    let (width, height) = sanitize::check_sanitized(input).map_err(to_js)?;
    Ok(with_header(width, height, 6, false, &[]))
}

/// SVG module: the sanitised SVG `text` recoloured for `greyscale` and `theme` (0 none, 1 light,
/// 2 dark) — see [`recolour`].
#[wasm_bindgen]
pub fn svg_theme(text: &str, greyscale: bool, theme: u8) -> Result<String, JsValue> {
    let theme = Theme::from_code(theme).ok_or_else(|| {
        to_js(Error::new(
            ErrorCode::InvalidArgument,
            "Cannot theme image: unknown theme",
        ))
    })?;
    recolour::recolour(text, greyscale, theme).map_err(to_js)
}
