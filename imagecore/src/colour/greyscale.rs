//! Greyscale by Rec. 709 / sRGB weighted luminance, alpha kept.

/// Rec. 709 weights in 1/256ths (0.2126, 0.7152, 0.0722); they sum to 256, so white stays 255.
pub(crate) const WEIGHTS: [u8; 3] = [54, 183, 19];

/// Luma of one sRGB pixel, 0..=255.
#[inline]
pub fn luma(r: u8, g: u8, b: u8) -> u8 {
    let [wr, wg, wb] = WEIGHTS.map(u32::from);
    ((wr * u32::from(r) + wg * u32::from(g) + wb * u32::from(b) + 128) >> 8) as u8
}

/// Replaces R, G and B of every RGBA8 pixel with its luma.
pub fn greyscale(pixels: &mut [u8]) {
    for pixel in pixels.chunks_exact_mut(4) {
        let y = luma(pixel[0], pixel[1], pixel[2]);
        pixel[0] = y;
        pixel[1] = y;
        pixel[2] = y;
    }
}
