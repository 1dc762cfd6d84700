//! Where a transform's time goes: decode, resize, colour (greyscale and theme), encode. Timed
//! inside one call of the real pipeline by the host's `performance.now`, for `deno task bench`.

use crate::raster::exports::transform_options;
use crate::raster::pipeline;
use crate::wire::to_js;
use wasm_bindgen::prelude::*;

/// Milliseconds each stage of one transform took.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct StageTimes {
    /// Decoding the source to RGBA pixels.
    pub decode: f64,
    /// Resizing to the output size.
    pub resize: f64,
    /// Greyscale and theme.
    pub colour: f64,
    /// Encoding the output.
    pub encode: f64,
}

#[wasm_bindgen]
extern "C" {
    /// The host's monotonic clock in ms.
    #[wasm_bindgen(js_namespace = performance, js_name = now)]
    fn performance_now() -> f64;
}

/// `transform` with the same arguments, timed by stage: returns decode, resize, colour and
/// encode ms, then the encoded image's byte length. For benchmarks; the image is dropped.
#[doc(hidden)]
#[wasm_bindgen]
pub fn transform_stages(
    input: &[u8],
    width: u32,
    greyscale: bool,
    theme: u8,
    format: u8,
    effort: u8,
) -> Result<Vec<f64>, JsValue> {
    let options = transform_options(width, greyscale, theme, format, effort)?;
    let mut out = Vec::new();
    let done =
        pipeline::transform_into(input, &options, &mut out, performance_now).map_err(to_js)?;
    let StageTimes {
        decode,
        resize,
        colour,
        encode,
    } = done.stages;
    Ok(vec![decode, resize, colour, encode, out.len() as f64])
}
