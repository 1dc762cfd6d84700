//! In-place conversions of decoded samples to RGBA8, so a decode needs one pixel buffer only.

/// Narrows `samples` big-endian 16-bit samples at the front of `buffer` to 8 bits in place,
/// rounding to nearest like the `image` crate (`round(v / 257)`).
///
/// ```
/// let mut buffer = vec![0xff, 0xff, 0x80, 0x00, 0x00, 0x80];
/// imagecore::raster::rgba::narrow_16_to_8(&mut buffer, 3);
/// assert_eq!(&buffer[..3], &[255, 128, 0]);
/// ```
pub fn narrow_16_to_8(buffer: &mut [u8], samples: usize) {
    for i in 0..samples {
        // Reads 2i and 2i+1, writes i: never a byte still to be read.
        let value = u32::from(u16::from_be_bytes([buffer[2 * i], buffer[2 * i + 1]]));
        buffer[i] = ((value + 128) / 257) as u8;
    }
}

/// Expands `pixels` pixels of `channels` 8-bit samples (1 grey, 2 grey+alpha, 3 RGB, 4 RGBA) at
/// the front of `buffer` to RGBA in place. `buffer` holds at least `pixels × 4` bytes.
///
/// ```
/// let mut buffer = vec![7, 200, 0, 0, 0, 0, 0, 0];
/// imagecore::raster::rgba::expand_to_rgba(&mut buffer, 2, 1);
/// assert_eq!(buffer, [7, 7, 7, 255, 200, 200, 200, 255]);
/// ```
pub fn expand_to_rgba(buffer: &mut [u8], pixels: usize, channels: usize) {
    if channels == 4 {
        return;
    }
    // Back to front: pixel i is read at channels·i and written at 4·i, which only overwrites
    // pixels already moved.
    for i in (0..pixels).rev() {
        let at = i * channels;
        let rgba = match channels {
            1 => [buffer[at], buffer[at], buffer[at], 255],
            2 => [buffer[at], buffer[at], buffer[at], buffer[at + 1]],
            _ => [buffer[at], buffer[at + 1], buffer[at + 2], 255],
        };
        buffer[4 * i..4 * i + 4].copy_from_slice(&rgba);
    }
}

/// `buffer`, holding `pixels` pixels of `channels` 8-bit samples, grown and expanded in place to
/// RGBA ([`expand_to_rgba`]).
///
/// ```
/// let rgba = imagecore::raster::rgba::widen_to_rgba(vec![1, 2, 3, 4, 5, 6], 2, 3);
/// assert_eq!(rgba, [1, 2, 3, 255, 4, 5, 6, 255]);
/// ```
pub fn widen_to_rgba(mut buffer: Vec<u8>, pixels: usize, channels: usize) -> Vec<u8> {
    buffer.resize(pixels * 4, 0);
    expand_to_rgba(&mut buffer, pixels, channels);
    buffer
}
