//! Resizing RGBA8 with Lanczos3 on premultiplied alpha (fast_image_resize, SIMD128 on wasm32).
//!
//! A very large downscale (16:1 and more) first averages exact boxes of `factor`×`factor` source
//! pixels (see [`pre_shrink_factor`]), then convolves with Lanczos3 from at least 8 times the
//! output size, like libvips' `shrink` + `reduce`. Both steps run on premultiplied alpha.

#[doc(hidden)]
pub mod bench;
pub mod grey;

use crate::error::{Error, ErrorCode, Result};
pub use crate::geometry::output_size;
use crate::raster::rgba::widen_to_rgba;
use fast_image_resize::images::Image;
use fast_image_resize::{FilterType, MulDiv, PixelType, ResizeAlg, ResizeOptions, Resizer};

/// How many times the output size the box pre-shrink leaves for Lanczos3 to reduce, at least.
/// Measured (`cargo run --release --example resize_quality_table`): a box of k with
/// k ≤ ratio/8 stays ≥ 40 dB PSNR of full Lanczos3 on every test source; k = ratio/2 measured
/// 27 dB on 1-px line grids and 35 dB on text-like detail at 512²→128, k = ratio/4 39 dB.
pub const PRE_SHRINK_GAP: u32 = 8;

/// The box pre-shrink factor for a `src_width`×`src_height` → `width`×`height` resize: the
/// largest integer `k` that leaves at least [`PRE_SHRINK_GAP`] times the output on both axes,
/// 1 (no pre-shrink) for small ratios and upscales.
///
/// ```
/// use imagecore::raster::resize::pre_shrink_factor;
/// assert_eq!(pre_shrink_factor(2048, 512, 128, 32), 2);
/// assert_eq!(pre_shrink_factor(1024, 1024, 32, 32), 4);
/// assert_eq!(pre_shrink_factor(1024, 1024, 128, 128), 1);
/// assert_eq!(pre_shrink_factor(64, 64, 128, 128), 1);
/// ```
pub fn pre_shrink_factor(src_width: u32, src_height: u32, width: u32, height: u32) -> u32 {
    if width == 0 || height == 0 {
        return 1;
    }
    let across = src_width / width.saturating_mul(PRE_SHRINK_GAP);
    let down = src_height / height.saturating_mul(PRE_SHRINK_GAP);
    across.min(down).max(1)
}

/// Resizes straight-alpha RGBA8 `pixels` to `width`×`height`. Alpha is premultiplied for the
/// convolution and divided back after, so transparent pixels lend no colour to the edges.
/// Large downscales take the box pre-shrink of [`pre_shrink_factor`].
pub fn resize(
    pixels: Vec<u8>,
    src_width: u32,
    src_height: u32,
    width: u32,
    height: u32,
) -> Result<Vec<u8>> {
    let factor = pre_shrink_factor(src_width, src_height, width, height);
    resize_with(pixels, src_width, src_height, width, height, factor)
}

/// Resizes opaque RGB8 `pixels` (a JPEG, [`crate::raster::decode::decode_samples`]) to
/// `width`×`height` and returns RGBA8 (alpha 255). The convolutions are those of [`resize`], on
/// three channels instead of four: the output is byte for byte what [`resize`] gives for the same
/// pixels as RGBA (`tests/resize_opaque.rs`), for three quarters of the work.
pub fn resize_rgb(
    pixels: Vec<u8>,
    src_width: u32,
    src_height: u32,
    width: u32,
    height: u32,
) -> Result<Vec<u8>> {
    let rgb = if (src_width, src_height) == (width, height) {
        pixels
    } else {
        let factor = pre_shrink_factor(src_width, src_height, width, height);
        let shrunk =
            (factor > 1).then(|| shrunk_size(src_width, src_height, width, height, factor));
        let src = Image::from_vec_u8(src_width, src_height, pixels, PixelType::U8x3)
            .map_err(|e| internal(&e))?;
        box_then_lanczos3(&mut Resizer::new(), src, shrunk, (width, height))?.into_vec()
    };
    Ok(widen_to_rgba(rgb, width as usize * height as usize, 3))
}

/// Like [`resize`], always with one Lanczos3 convolution over every source pixel: the quality
/// reference the pre-shrink is tested against (`tests/resize_quality.rs`).
pub fn resize_lanczos3(
    pixels: Vec<u8>,
    src_width: u32,
    src_height: u32,
    width: u32,
    height: u32,
) -> Result<Vec<u8>> {
    resize_with(pixels, src_width, src_height, width, height, 1)
}

pub(crate) fn internal(e: &dyn std::fmt::Display) -> Error {
    Error::new(ErrorCode::Internal, format!("Cannot resize image: {e}"))
}

/// [`resize`] with a given box pre-shrink `factor` (1: none), for the quality table example.
#[doc(hidden)]
pub fn resize_with(
    pixels: Vec<u8>,
    src_width: u32,
    src_height: u32,
    width: u32,
    height: u32,
    factor: u32,
) -> Result<Vec<u8>> {
    if (src_width, src_height) == (width, height) {
        return Ok(pixels);
    }
    // Premultiply in place (the buffer is ours), convolve, then divide in place: no extra copy
    // of the source, which is the largest buffer of the call. An opaque source (every JPEG,
    // most photos) skips both: × 255 / 255 changes nothing.
    let opaque = is_opaque(&pixels);
    let mut src = Image::from_vec_u8(src_width, src_height, pixels, PixelType::U8x4)
        .map_err(|e| internal(&e))?;
    let alpha = MulDiv::new();
    if !opaque {
        alpha
            .multiply_alpha_inplace(&mut src)
            .map_err(|e| internal(&e))?;
    }
    let shrunk = (factor > 1).then(|| shrunk_size(src_width, src_height, width, height, factor));
    let mut dst = box_then_lanczos3(&mut Resizer::new(), src, shrunk, (width, height))?;
    if !opaque {
        alpha
            .divide_alpha_inplace(&mut dst)
            .map_err(|e| internal(&e))?;
    }
    Ok(dst.into_vec())
}

/// The size the box pre-shrink of `factor` leaves for a `src_width`×`src_height` →
/// `width`×`height` resize: a box at an integer ratio averages exactly `factor`×`factor` pixels;
/// a side that `factor` does not divide is shrunk by slightly less, over the whole extent.
pub(crate) fn shrunk_size(
    src_width: u32,
    src_height: u32,
    width: u32,
    height: u32,
    factor: u32,
) -> (u32, u32) {
    (
        src_width.div_ceil(factor).max(width),
        src_height.div_ceil(factor).max(height),
    )
}

/// The convolutions of a resize, on pixels already premultiplied (or packed, see `resize::grey`,
/// or opaque RGB, see [`resize_rgb`]): the box pre-shrink to `shrunk` when there is one, then
/// Lanczos3 to `dst`, in the source's pixel type. fast_image_resize convolves only the axes whose
/// size changes.
pub(crate) fn box_then_lanczos3(
    resizer: &mut Resizer,
    mut src: Image<'static>,
    shrunk: Option<(u32, u32)>,
    dst: (u32, u32),
) -> Result<Image<'static>> {
    if let Some((w, h)) = shrunk {
        let mut tmp = Image::new(w, h, src.pixel_type());
        let boxes = ResizeOptions::new()
            .resize_alg(ResizeAlg::Convolution(FilterType::Box))
            .use_alpha(false);
        resizer
            .resize(&src, &mut tmp, &boxes)
            .map_err(|e| internal(&e))?;
        src = tmp;
    }
    if (src.width(), src.height()) == dst {
        return Ok(src);
    }
    let mut out = Image::new(dst.0, dst.1, src.pixel_type());
    let lanczos = ResizeOptions::new()
        .resize_alg(ResizeAlg::Convolution(FilterType::Lanczos3))
        .use_alpha(false);
    resizer
        .resize(&src, &mut out, &lanczos)
        .map_err(|e| internal(&e))?;
    Ok(out)
}

/// Whether every pixel of straight-alpha RGBA8 `pixels` has alpha 255. Checks 64 pixels at a
/// time (a fixed-size fold the compiler vectorises) and stops at the first block that is not
/// opaque, which for a logo on transparency is usually the first.
///
/// ```
/// use imagecore::raster::resize::is_opaque;
/// assert!(is_opaque(&[9, 9, 9, 255].repeat(100)));
/// let mut pixels = [9u8, 9, 9, 255].repeat(100);
/// pixels[99 * 4 + 3] = 254;
/// assert!(!is_opaque(&pixels));
/// ```
pub fn is_opaque(pixels: &[u8]) -> bool {
    let mut blocks = pixels.chunks_exact(256);
    let blocks_opaque = blocks.all(|block| {
        block
            .chunks_exact(4)
            .fold(255u8, |all, pixel| all & pixel[3])
            == 255
    });
    blocks_opaque
        && blocks
            .remainder()
            .chunks_exact(4)
            .all(|pixel| pixel[3] == 255)
}
