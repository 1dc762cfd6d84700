//! Premultiplied luma + alpha pairs: the samples the greyscale resize (`resize::grey`) convolves.
//!
//! Each source row becomes `width.div_ceil(2)` four-channel pixels, each holding two neighbouring
//! pixels' premultiplied luma and alpha (the last pixel repeated when the width is odd). A row is
//! packed from RGBA8 or RGB8 eight pixels at a time with SIMD128 on wasm32, from grey (+ alpha)
//! one by one. The packing runs in place over a decoded image ([`pack_rows_in_place`]) or row by
//! row as a decoder gives them ([`pack_samples_row`]: a PNG never written out as RGBA,
//! `decode::png`); both give the same bytes.

use crate::colour::greyscale::luma;

/// A source image as rows of luma + alpha pairs (`pairs_stride(width)` bytes each).
pub struct GreyPairs {
    /// `height` rows of pairs.
    pub pixels: Vec<u8>,
    /// Width of the source in px.
    pub width: u32,
    /// Height in px.
    pub height: u32,
}

/// `value` × 255 / `alpha`, rounded and clamped; 0 where `alpha` is 0.
#[inline]
pub(crate) fn unpremultiply(value: u8, alpha: u8) -> u8 {
    if alpha == 0 {
        return 0;
    }
    let a = u32::from(alpha);
    ((u32::from(value) * 255 + a / 2) / a).min(255) as u8
}

impl GreyPairs {
    /// The pairs as straight-alpha grey RGBA8 of the source's size (luma divided back by alpha:
    /// exact where opaque).
    pub fn into_grey_rgba(self) -> Vec<u8> {
        let (width, stride) = (self.width as usize, pairs_stride(self.width as usize));
        let mut out = Vec::with_capacity(width * self.height as usize * 4);
        for row in self.pixels.chunks_exact(stride) {
            for pair in row[..width * 2].chunks_exact(2) {
                let grey = unpremultiply(pair[0], pair[1]);
                out.extend_from_slice(&[grey, grey, grey, pair[1]]);
            }
        }
        out
    }
}

/// Bytes of one row of pairs for `width` px: `width.div_ceil(2)` four-channel pixels.
pub fn pairs_stride(width: usize) -> usize {
    width.div_ceil(2) * 4
}

/// Writes one row of straight-alpha 8-bit samples, `channels` a pixel (1 grey, 2 grey + alpha,
/// 3 RGB, 4 RGBA), as a row of pairs into `out` (`pairs_stride(width)` bytes): the bytes
/// [`pack_rows_in_place`] gives for the same pixels as RGBA8.
pub fn pack_samples_row(row: &[u8], channels: usize, out: &mut [u8]) {
    let width = row.len() / channels.max(1);
    match channels {
        4 => pack_row(row, out),
        3 => pack_rgb_row(row, out),
        2 => {
            for (p, pair) in row.chunks_exact(2).zip(out.chunks_exact_mut(2)) {
                pair[0] = premultiplied_luma(p[0], p[0], p[0], p[1]);
                pair[1] = p[1];
            }
        }
        _ => {
            // luma(v, v, v) is v: the weights sum to 256.
            for (&v, pair) in row.iter().zip(out.chunks_exact_mut(2)) {
                pair[0] = v;
                pair[1] = 255;
            }
        }
    }
    if width % 2 == 1 && out.len() >= width * 2 + 2 {
        out.copy_within(width * 2 - 2..width * 2, width * 2);
    }
}

/// Premultiplied luma of one straight-alpha pixel: [`luma`], then × alpha / 255 rounded, in 16
/// bits (255·255 + 128 + 254 fits), as the eight lanes of `pack_eight` do on wasm32.
#[inline(always)]
pub(crate) fn premultiplied_luma(r: u8, g: u8, b: u8, a: u8) -> u8 {
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

/// [`luma`] of eight pixels, their channels in the 16-bit lanes of `r`, `g`, `b`: the weights
/// (greyscale::WEIGHTS, summing to 256) in 16 bits, where 256·255 + 128 fits.
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
#[inline(always)]
fn luma_eight(
    r: core::arch::wasm32::v128,
    g: core::arch::wasm32::v128,
    b: core::arch::wasm32::v128,
) -> core::arch::wasm32::v128 {
    use crate::colour::greyscale::WEIGHTS;
    use core::arch::wasm32::*;
    let [wr, wg, wb] = WEIGHTS.map(|w| u16x8_splat(u16::from(w)));
    let weighted = u16x8_add(
        u16x8_add(u16x8_mul(r, wr), u16x8_mul(g, wg)),
        u16x8_add(u16x8_mul(b, wb), u16x8_splat(128)),
    );
    u16x8_shr(weighted, 8)
}

/// Eight RGB8 pixels (24 bytes) to eight luma + alpha 255 pairs (16 bytes).
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
#[inline(always)]
fn pack_eight_rgb(pixels: &[u8], out: &mut [u8]) {
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
    let pairs = v128_or(luma_eight(r, g, b), u16x8_splat(0xff00));
    // SAFETY: see above.
    unsafe { v128_store(out.as_mut_ptr().cast(), pairs) };
}

/// Eight RGBA8 pixels (32 bytes) to eight premultiplied luma + alpha pairs (16 bytes).
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
#[inline(always)]
fn pack_eight(pixels: &[u8], out: &mut [u8]) {
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
    let y = luma_eight(r, g, b);
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
pub(crate) fn pack_rows_in_place(
    pixels: &mut Vec<u8>,
    width: usize,
    height: usize,
    channels: usize,
) {
    let stride = pairs_stride(width);
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

    /// Grey, grey + alpha, RGB and RGBA rows of `width` px from one seed, each also as RGBA8.
    fn rows(width: usize) -> Vec<(usize, Vec<u8>, Vec<u8>)> {
        let sample = |i: usize| ((i * 97 + 13) % 251) as u8;
        (1..=4)
            .map(|channels| {
                let row: Vec<u8> = (0..width * channels).map(sample).collect();
                let rgba = row
                    .chunks_exact(channels)
                    .flat_map(|p| match channels {
                        1 => [p[0], p[0], p[0], 255],
                        2 => [p[0], p[0], p[0], p[1]],
                        3 => [p[0], p[1], p[2], 255],
                        _ => [p[0], p[1], p[2], p[3]],
                    })
                    .collect();
                (channels, row, rgba)
            })
            .collect()
    }

    #[test]
    fn a_row_packed_as_decoded_matches_the_rgba_image_packed_in_place() {
        for width in [1, 2, 7, 8, 9, 16, 33] {
            for (channels, row, rgba) in rows(width) {
                let mut streamed = vec![0u8; pairs_stride(width)];
                pack_samples_row(&row, channels, &mut streamed);
                let mut in_place = rgba.repeat(3);
                pack_rows_in_place(&mut in_place, width, 3, 4);
                for packed in in_place.chunks_exact(pairs_stride(width)) {
                    assert_eq!(streamed, packed, "{channels} channels, {width} px");
                }
            }
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

    #[test]
    fn opaque_pairs_back_as_rgba_are_the_greyscale_of_the_source() {
        for width in [1, 5, 8] {
            let (_, _, rgba) = rows(width).swap_remove(2);
            let mut pixels = rgba.repeat(2);
            let mut grey = pixels.clone();
            crate::colour::greyscale::greyscale(&mut grey);
            pack_rows_in_place(&mut pixels, width, 2, 4);
            let height = 2;
            let pairs = GreyPairs {
                pixels,
                width: width as u32,
                height,
            };
            assert_eq!(pairs.into_grey_rgba(), grey, "{width} px");
        }
    }
}
