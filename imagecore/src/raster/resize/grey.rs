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
//!    2j + 1 side by side), so the source is packed in place, row by row.
//! 2. **Horizontal pass:** the intermediate, already the output's height, is repacked so that
//!    each four-channel pixel holds rows 2i and 2i + 1 of one column.
//!
//! Large ratios take the same box pre-shrink as [`resize`](crate::raster::resize::resize), per
//! axis: separable filters act on each axis on their own, so box then Lanczos3 on each axis is the
//! two-dimensional box then Lanczos3.

use crate::colour::greyscale::{greyscale, luma};
use crate::error::Result;
use crate::raster::resize::{box_then_lanczos3, internal, pre_shrink_factor, shrunk_size};
use crate::raster::rgba::widen_to_rgba;
use fast_image_resize::images::Image;
use fast_image_resize::{PixelType, Resizer};

/// `value` × 255 / `alpha`, rounded and clamped; 0 where `alpha` is 0.
#[inline]
fn unpremultiply(value: u8, alpha: u8) -> u8 {
    if alpha == 0 {
        return 0;
    }
    let a = u32::from(alpha);
    ((u32::from(value) * 255 + a / 2) / a).min(255) as u8
}

/// Premultiplied luma of one straight-alpha pixel: [`luma`], then × alpha / 255 rounded, in 16
/// bits (255·255 + 128 + 254 fits), as the eight lanes of `pack_eight` do on wasm32.
#[inline(always)]
fn premultiplied_luma(r: u8, g: u8, b: u8, a: u8) -> u8 {
    let product = u16::from(luma(r, g, b)) * u16::from(a) + 128;
    ((product + (product >> 8)) >> 8) as u8
}

/// Writes one row of straight-alpha RGBA8 as premultiplied luma + alpha pairs: eight pixels at a
/// time with SIMD128 on wasm32 (the same 16-bit arithmetic as [`premultiplied_luma`]), the
/// rest one by one.
#[inline]
fn pack_row(rgba: &[u8], pairs: &mut [u8]) {
    let simd = cfg!(all(target_arch = "wasm32", target_feature = "simd128"));
    let done = if simd { rgba.len() / 32 * 32 } else { 0 };
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    for (pixels, out) in rgba.chunks_exact(32).zip(pairs.chunks_exact_mut(16)) {
        pack_eight(pixels, out);
    }
    let tail = &mut pairs[done / 2..];
    for (p, pair) in rgba[done..].chunks_exact(4).zip(tail.chunks_exact_mut(2)) {
        pair[0] = premultiplied_luma(p[0], p[1], p[2], p[3]);
        pair[1] = p[3];
    }
}

/// Writes one row of opaque RGB8 as luma + alpha (255) pairs: eight pixels at a time with
/// SIMD128 on wasm32 (the arithmetic of [`luma`]), the rest one by one.
#[inline]
fn pack_rgb_row(rgb: &[u8], pairs: &mut [u8]) {
    let simd = cfg!(all(target_arch = "wasm32", target_feature = "simd128"));
    let done = if simd { rgb.len() / 24 * 24 } else { 0 };
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    for (pixels, out) in rgb.chunks_exact(24).zip(pairs.chunks_exact_mut(16)) {
        pack_eight_rgb(pixels, out);
    }
    let tail = &mut pairs[done / 3 * 2..];
    for (p, pair) in rgb[done..].chunks_exact(3).zip(tail.chunks_exact_mut(2)) {
        pair[0] = luma(p[0], p[1], p[2]);
        pair[1] = 255;
    }
}

/// Eight RGB8 pixels (24 bytes) to eight luma + alpha 255 pairs (16 bytes).
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
#[inline(always)]
fn pack_eight_rgb(pixels: &[u8], out: &mut [u8]) {
    use crate::colour::greyscale::WEIGHTS;
    use core::arch::wasm32::*;
    assert!(pixels.len() == 24 && out.len() == 16);
    // SAFETY: the loads read bytes 0..16 and 8..24 of `pixels` (24 bytes, checked above), the
    // store writes 16 bytes inside `out`; wasm32 loads and stores need no alignment.
    let (low, high) = unsafe {
        (
            v128_load(pixels.as_ptr().cast()),
            v128_load(pixels.as_ptr().add(8).cast()),
        )
    };
    // Byte j of the 24 is lane j of `low` (j < 16) or lane j + 8 of the pair (j ≥ 8).
    let rg = i8x16_shuffle::<0, 3, 6, 9, 12, 15, 26, 29, 1, 4, 7, 10, 13, 24, 27, 30>(low, high);
    let bx = i8x16_shuffle::<2, 5, 8, 11, 14, 25, 28, 31, 0, 0, 0, 0, 0, 0, 0, 0>(low, high);
    let (r, g, b) = (
        u16x8_extend_low_u8x16(rg),
        u16x8_extend_high_u8x16(rg),
        u16x8_extend_low_u8x16(bx),
    );
    let [wr, wg, wb] = WEIGHTS.map(|w| u16x8_splat(u16::from(w)));
    let weighted = u16x8_add(
        u16x8_add(u16x8_mul(r, wr), u16x8_mul(g, wg)),
        u16x8_add(u16x8_mul(b, wb), u16x8_splat(128)),
    );
    let pairs = v128_or(u16x8_shr(weighted, 8), u16x8_splat(0xff00));
    // SAFETY: see above.
    unsafe { v128_store(out.as_mut_ptr().cast(), pairs) };
}

/// Eight RGBA8 pixels (32 bytes) to eight premultiplied luma + alpha pairs (16 bytes).
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
#[inline(always)]
fn pack_eight(pixels: &[u8], out: &mut [u8]) {
    use crate::colour::greyscale::WEIGHTS;
    use core::arch::wasm32::*;
    assert!(pixels.len() == 32 && out.len() == 16);
    // SAFETY: both loads read 16 bytes inside `pixels` (32 bytes, checked above) and the store
    // writes 16 bytes inside `out`; wasm32 loads and stores need no alignment.
    let (low, high) = unsafe {
        (
            v128_load(pixels.as_ptr().cast()),
            v128_load(pixels.as_ptr().add(16).cast()),
        )
    };
    let rg = i8x16_shuffle::<0, 4, 8, 12, 16, 20, 24, 28, 1, 5, 9, 13, 17, 21, 25, 29>(low, high);
    let ba = i8x16_shuffle::<2, 6, 10, 14, 18, 22, 26, 30, 3, 7, 11, 15, 19, 23, 27, 31>(low, high);
    let (r, g) = (u16x8_extend_low_u8x16(rg), u16x8_extend_high_u8x16(rg));
    let (b, a) = (u16x8_extend_low_u8x16(ba), u16x8_extend_high_u8x16(ba));
    // luma's weights (greyscale::WEIGHTS, summing to 256), in 16 bits: 256·255 + 128 fits.
    let [wr, wg, wb] = WEIGHTS.map(|w| u16x8_splat(u16::from(w)));
    let weighted = u16x8_add(
        u16x8_add(u16x8_mul(r, wr), u16x8_mul(g, wg)),
        u16x8_add(u16x8_mul(b, wb), u16x8_splat(128)),
    );
    let y = u16x8_shr(weighted, 8);
    let product = u16x8_add(u16x8_mul(y, a), u16x8_splat(128));
    let premultiplied = u16x8_shr(u16x8_add(product, u16x8_shr(product, 8)), 8);
    let pairs = v128_or(premultiplied, u16x8_shl(a, 8));
    // SAFETY: see above.
    unsafe { v128_store(out.as_mut_ptr().cast(), pairs) };
}

/// Replaces straight-alpha RGBA8 (`channels` 4) or opaque RGB8 (`channels` 3, at least 2 px
/// wide) `pixels` (`width`×`height`) in place by rows of premultiplied luma + alpha, each padded to
/// a whole number of pairs by repeating its last pixel: an image of `width.div_ceil(2)`×`height`
/// four-channel pixels. Once a row's output ends before its input starts (from the second or third
/// row on), the row is packed without a copy.
fn pack_rows_in_place(pixels: &mut Vec<u8>, width: usize, height: usize, channels: usize) {
    let stride = width.div_ceil(2) * 4;
    let row = width * channels;
    let pack = if channels == 3 {
        pack_rgb_row
    } else {
        pack_row
    };
    let mut scratch = Vec::new();
    for y in 0..height {
        let (from, to) = (y * row, y * stride);
        if to + stride <= from {
            let (head, tail) = pixels.split_at_mut(from);
            pack(&tail[..row], &mut head[to..to + stride]);
        } else {
            scratch.clear();
            scratch.extend_from_slice(&pixels[from..from + row]);
            pack(&scratch, &mut pixels[to..to + stride]);
        }
        if width % 2 == 1 {
            pixels.copy_within(to + width * 2 - 2..to + width * 2, to + width * 2);
        }
    }
    pixels.truncate(stride * height);
}

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
    let factor = pre_shrink_factor(src_width, src_height, width, height);
    let shrunk = shrunk_size(src_width, src_height, width, height, factor);
    let boxed = |size: (u32, u32)| (factor > 1).then_some(size);
    pack_rows_in_place(&mut pixels, sw, sh, channels);
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn premultiplied_luma_is_luma_times_alpha_over_255_rounded() {
        for v in 0..=255u8 {
            for a in 0..=255u8 {
                let exact = (f64::from(v) * f64::from(a) / 255.0).round() as u8;
                assert_eq!(premultiplied_luma(v, v, v, a), exact, "{v} × {a}");
            }
        }
        for (r, g, b) in [
            (255, 0, 0),
            (0, 255, 0),
            (0, 0, 255),
            (12, 200, 99),
            (255, 255, 255),
        ] {
            assert_eq!(premultiplied_luma(r, g, b, 255), luma(r, g, b));
        }
    }

    #[test]
    fn unpremultiply_undoes_premultiplied_luma_where_alpha_allows() {
        for a in 1..=255u8 {
            for v in 0..=255u8 {
                let back = unpremultiply(premultiplied_luma(v, v, v, a), a);
                let step = 255.0 / f64::from(a);
                assert!(
                    (f64::from(back) - f64::from(v)).abs() <= step / 2.0 + 0.5,
                    "{v} at {a}"
                );
            }
        }
        assert_eq!(unpremultiply(0, 0), 0);
    }
}
