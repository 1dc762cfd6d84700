//! Resizing RGBA8 with Lanczos3 on premultiplied alpha (fast_image_resize, SIMD128 on wasm32).

use crate::error::{Error, ErrorCode, Result};
pub use crate::geometry::output_size;
use fast_image_resize::images::Image;
use fast_image_resize::{FilterType, MulDiv, PixelType, ResizeAlg, ResizeOptions, Resizer};

/// Resizes straight-alpha RGBA8 `pixels` to `width`×`height`. Alpha is premultiplied for the
/// convolution and divided back after, so transparent pixels lend no colour to the edges.
pub fn resize(
    pixels: Vec<u8>,
    src_width: u32,
    src_height: u32,
    width: u32,
    height: u32,
) -> Result<Vec<u8>> {
    if (src_width, src_height) == (width, height) {
        return Ok(pixels);
    }
    let internal = |e: &dyn std::fmt::Display| {
        Error::new(ErrorCode::Internal, format!("Cannot resize image: {e}"))
    };
    // Premultiply in place (the buffer is ours), convolve, then divide in place: no extra copy
    // of the source, which is the largest buffer of the call.
    let mut src = Image::from_vec_u8(src_width, src_height, pixels, PixelType::U8x4)
        .map_err(|e| internal(&e))?;
    let alpha = MulDiv::new();
    alpha
        .multiply_alpha_inplace(&mut src)
        .map_err(|e| internal(&e))?;
    let mut dst = Image::new(width, height, PixelType::U8x4);
    let options = ResizeOptions::new()
        .resize_alg(ResizeAlg::Convolution(FilterType::Lanczos3))
        .use_alpha(false);
    Resizer::new()
        .resize(&src, &mut dst, &options)
        .map_err(|e| internal(&e))?;
    drop(src);
    alpha
        .divide_alpha_inplace(&mut dst)
        .map_err(|e| internal(&e))?;
    Ok(dst.into_vec())
}
