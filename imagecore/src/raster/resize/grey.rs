//! Greyscale resizing on two channels packed as four: half the convolution work of RGBA.
//!
//! A greyscale output needs only premultiplied luma and alpha, and luma is a weighted sum of R,
//! G and B, so it can be taken before the resize (the result differs from greyscale after the
//! resize by rounding only; `tests/resize_grey.rs` pins it against that reference). Two-channel
//! pixels would take fast_image_resize's `U8x2` path, which measured slower on wasm32 than its
//! `U8x4` one, so each pass packs two luma + alpha pixels into one `U8x4` pixel. Each pass
//! convolves every channel on its own along one axis, so a pair of pixels is a valid four-channel
//! pixel as long as the pair lies *across* that axis:
//!
//! 1. **Vertical pass:** a luma + alpha row *is* a row of horizontal pairs (columns 2j and
//!    2j + 1 side by side), so the source is packed in place, row by row
//!    ([`crate::raster::grey_pairs`]), or a PNG is decoded straight to such rows
//!    ([`resize_grey_pairs`]).
//! 2. **Horizontal pass:** the intermediate, already the output's height, is repacked so that
//!    each four-channel pixel holds rows 2i and 2i + 1 of one column.
//!
//! Large ratios take the same box pre-shrink as [`resize`](crate::raster::resize::resize), per
//! axis: separable filters act on each axis on their own, so box then Lanczos3 on each axis is the
//! two-dimensional box then Lanczos3.

use crate::colour::greyscale::greyscale;
use crate::error::Result;
use crate::raster::grey_pairs::{pack_rows_in_place, pairs_stride, unpremultiply, GreyPairs};
use crate::raster::resize::{box_then_lanczos3, internal, pre_shrink_factor, shrunk_size};
use crate::raster::rgba::widen_to_rgba;
use fast_image_resize::images::Image;
use fast_image_resize::{PixelType, Resizer};

/// Repacks rows of luma + alpha pairs (`stride` bytes each, `height` rows, `width` pixels used)
/// so that each four-channel pixel holds one column's rows 2i and 2i + 1 (the last row repeated
/// when `height` is odd): an image of `width`×`height.div_ceil(2)`.
fn pack_columns(rows: &[u8], stride: usize, width: usize, height: usize) -> Vec<u8> {
    let mut out = vec![0u8; width * height.div_ceil(2) * 4];
    for (i, pair) in out.chunks_exact_mut(width * 4).enumerate() {
        let top = &rows[2 * i * stride..][..width * 2];
        let bottom = &rows[(2 * i + 1).min(height - 1) * stride..][..width * 2];
        for (x, pixel) in pair.chunks_exact_mut(4).enumerate() {
            pixel[..2].copy_from_slice(&top[x * 2..x * 2 + 2]);
            pixel[2..].copy_from_slice(&bottom[x * 2..x * 2 + 2]);
        }
    }
    out
}

/// Unpacks column pairs (`width`×`height.div_ceil(2)`) to straight-alpha grey RGBA8.
fn unpack_columns(pairs: &[u8], width: usize, height: usize) -> Vec<u8> {
    let mut out = vec![0u8; width * height * 4];
    for (y, row) in out.chunks_exact_mut(width * 4).enumerate() {
        let half = (y % 2) * 2;
        let source = &pairs[(y / 2) * width * 4..][..width * 4];
        for (pixel, pair) in row.chunks_exact_mut(4).zip(source.chunks_exact(4)) {
            let (value, alpha) = (pair[half], pair[half + 1]);
            let grey = unpremultiply(value, alpha);
            pixel.copy_from_slice(&[grey, grey, grey, alpha]);
        }
    }
    out
}

/// Resizes straight-alpha RGBA8 `pixels` to `width`×`height` and makes them grey (Rec. 709
/// luma, as [`greyscale`]), on premultiplied luma + alpha; at the source's own size, only
/// [`greyscale`].
///
/// ```
/// use imagecore::raster::resize::grey::resize_grey;
/// let red = [255u8, 0, 0, 255].repeat(64 * 64);
/// let out = resize_grey(red, 64, 64, 16, 16).unwrap();
/// assert_eq!(out.len(), 16 * 16 * 4);
/// assert!(out.chunks(4).all(|p| p == [54, 54, 54, 255]));
/// ```
pub fn resize_grey(
    pixels: Vec<u8>,
    src_width: u32,
    src_height: u32,
    width: u32,
    height: u32,
) -> Result<Vec<u8>> {
    resize_grey_of(pixels, 4, src_width, src_height, width, height)
}

/// [`resize_grey`] of opaque RGB8 `pixels` (a JPEG decoded to three channels,
/// [`crate::raster::decode::decode_samples`]): the same output as [`resize_grey`] of those pixels
/// with alpha 255 (`tests/resize_grey.rs`), without widening the source to four bytes a pixel.
///
/// ```
/// use imagecore::raster::resize::grey::resize_grey_rgb;
/// let red = [255u8, 0, 0].repeat(64 * 64);
/// let out = resize_grey_rgb(red, 64, 64, 16, 16).unwrap();
/// assert!(out.chunks(4).all(|p| p == [54, 54, 54, 255]));
/// ```
pub fn resize_grey_rgb(
    pixels: Vec<u8>,
    src_width: u32,
    src_height: u32,
    width: u32,
    height: u32,
) -> Result<Vec<u8>> {
    resize_grey_of(pixels, 3, src_width, src_height, width, height)
}

fn resize_grey_of(
    mut pixels: Vec<u8>,
    channels: usize,
    src_width: u32,
    src_height: u32,
    width: u32,
    height: u32,
) -> Result<Vec<u8>> {
    let (sw, sh) = (src_width as usize, src_height as usize);
    if sw == 0 || sh == 0 || width == 0 || height == 0 || pixels.len() != sw * sh * channels {
        return Err(internal(&"the buffer does not match the dimensions"));
    }
    // One pixel wide, a packed RGB row (4 bytes) would outgrow its 3; and at the source's size
    // there is nothing to convolve: both take the RGBA path.
    if channels == 3 && (sw == 1 || (src_width, src_height) == (width, height)) {
        let rgba = widen_to_rgba(pixels, sw * sh, 3);
        return resize_grey_of(rgba, 4, src_width, src_height, width, height);
    }
    if (src_width, src_height) == (width, height) {
        greyscale(&mut pixels);
        return Ok(pixels);
    }
    pack_rows_in_place(&mut pixels, sw, sh, channels);
    resize_grey_pairs(
        GreyPairs {
            pixels,
            width: src_width,
            height: src_height,
        },
        width,
        height,
    )
}

/// Resizes a source already packed as luma + alpha pairs (a PNG decoded row by row to them,
/// `decode::png`) to `width`×`height` straight-alpha grey RGBA8: the bytes [`resize_grey`] gives
/// for the same source as RGBA8, when the size changes.
pub fn resize_grey_pairs(source: GreyPairs, width: u32, height: u32) -> Result<Vec<u8>> {
    let GreyPairs {
        pixels,
        width: src_width,
        height: src_height,
    } = source;
    let (sw, sh) = (src_width as usize, src_height as usize);
    if sw == 0 || sh == 0 || width == 0 || height == 0 || pixels.len() != pairs_stride(sw) * sh {
        return Err(internal(&"the buffer does not match the dimensions"));
    }
    let factor = pre_shrink_factor(src_width, src_height, width, height);
    let shrunk = shrunk_size(src_width, src_height, width, height, factor);
    let boxed = |size: (u32, u32)| (factor > 1).then_some(size);
    let pairs_across = src_width.div_ceil(2);
    let src = Image::from_vec_u8(pairs_across, src_height, pixels, PixelType::U8x4)
        .map_err(|e| internal(&e))?;
    let mut resizer = Resizer::new();
    let tall = box_then_lanczos3(
        &mut resizer,
        src,
        boxed((pairs_across, shrunk.1)),
        (pairs_across, height),
    )?;
    let stride = pairs_across as usize * 4;
    let columns = pack_columns(tall.buffer(), stride, sw, height as usize);
    drop(tall);
    let half_height = height.div_ceil(2);
    let src = Image::from_vec_u8(src_width, half_height, columns, PixelType::U8x4)
        .map_err(|e| internal(&e))?;
    let wide = box_then_lanczos3(
        &mut resizer,
        src,
        boxed((shrunk.0, half_height)),
        (width, half_height),
    )?;
    Ok(unpack_columns(
        wide.buffer(),
        width as usize,
        height as usize,
    ))
}
