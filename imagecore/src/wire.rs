//! How results and errors cross to JavaScript: an error as a `"code\tmessage"` string, which
//! `mod.ts` turns into an `ImageCoreError`; a result as a fixed header, then the image.

use crate::error::Error;
use wasm_bindgen::JsValue;

/// Bytes before the image in `transform`'s and `probe`'s results: width u32 LE, height u32 LE,
/// format u8, inverted u8, two bytes of padding.
pub const RESULT_HEADER_LEN: usize = 12;

/// The error as the `"code\tmessage"` string `mod.ts` reads.
pub(crate) fn to_js(error: Error) -> JsValue {
    JsValue::from_str(&format!("{}\t{}", error.code.as_str(), error.message))
}

/// The result header, then `body`.
pub(crate) fn with_header(
    width: u32,
    height: u32,
    format: u8,
    inverted: bool,
    body: &[u8],
) -> Vec<u8> {
    let mut out = vec![0; RESULT_HEADER_LEN];
    write_header(&mut out, width, height, format, inverted);
    out.extend_from_slice(body);
    out
}

/// The result header, written over the first [`RESULT_HEADER_LEN`] bytes of `out`.
pub(crate) fn write_header(out: &mut [u8], width: u32, height: u32, format: u8, inverted: bool) {
    out[..4].copy_from_slice(&width.to_le_bytes());
    out[4..8].copy_from_slice(&height.to_le_bytes());
    out[8..RESULT_HEADER_LEN].copy_from_slice(&[format, u8::from(inverted), 0, 0]);
}
