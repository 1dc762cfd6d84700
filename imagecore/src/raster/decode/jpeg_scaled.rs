//! JPEG shrink-on-load: decoding a JPEG at 1/2 or 1/4 of its size, each 8×8 block of
//! coefficients turned into 4×4 or 2×2 pixels by a reduced inverse DCT (jpeg-decoder's
//! `Decoder::scale`), as libvips and sharp do through libjpeg's scaled IDCT.
//!
//! The scale is chosen like sharp's: the largest power of two that leaves at least twice the
//! output on both axes, so Lanczos3 still does a reduction of 2:1 or more after it (1024² → 128 is
//! decoded at 256², 512² → 128 at 256²), but at most 1/4 (see [`shrink_factor`]). jpeg-decoder is
//! vendored with a patch (`imagecore/vendor/README.md`) that makes it as strict as zune-jpeg's
//! strict mode (entropy-coded data that ends before its last block, and bytes between the data and
//! the next marker, are refused) and makes its reduced IDCTs average each group of pixels from the
//! block's low frequencies. zune-jpeg has read and checked the headers before this runs
//! (`decode::jpeg`).

use crate::error::{Error, ErrorCode, Result};
use jpeg_decoder::{ColorTransform, Decoder, PixelFormat};
use std::io::Cursor;

/// The largest scale denominator (1, 2 or 4) at which a `width`×`height` JPEG still holds twice a
/// `target_width`×`target_height` output on both axes; 1 means a full decode. Never 8: at 1/8
/// (one DC value a block, chroma of a 4:2:0 JPEG one value per 16×16 px, upsampled) the
/// quality table measured up to 1.4 dB below sharp, whose libjpeg-turbo decodes chroma there
/// with a larger IDCT instead (bench/results/2026-12-01-jpeg-shrink-quality.md).
///
/// ```
/// use imagecore::raster::decode::jpeg_scaled::shrink_factor;
/// assert_eq!(shrink_factor(1024, 1024, 128, 128), 4);
/// assert_eq!(shrink_factor(512, 512, 128, 128), 2);
/// assert_eq!(shrink_factor(512, 512, 300, 300), 1);
/// assert_eq!(shrink_factor(2048, 2048, 32, 32), 4);
/// ```
pub fn shrink_factor(width: u32, height: u32, target_width: u32, target_height: u32) -> u32 {
    let fits = |scale: u64| {
        u64::from(width) >= 2 * scale * u64::from(target_width)
            && u64::from(height) >= 2 * scale * u64::from(target_height)
    };
    [4, 2]
        .into_iter()
        .find(|&scale| fits(scale))
        .map_or(1, |scale| scale as u32)
}

/// The colours of the JPEG, as zune-jpeg read them from its headers: the only two the scaled
/// decode serves (CMYK, YCCK, RGB and RGBA JPEGs are decoded at full size).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ScaledColour {
    /// Three components, YCbCr.
    YCbCr,
    /// One component.
    Luma,
}

/// RGB8 pixels of a JPEG decoded at 1/`scale` of its size (rounded up), with their width and
/// height. `Ok(None)` when jpeg-decoder does not support the file (the caller decodes it at full
/// size with zune-jpeg instead).
pub fn decode_scaled(
    bytes: &[u8],
    colour: ScaledColour,
    scale: u32,
) -> Result<Option<(Vec<u8>, u32, u32)>> {
    let mut decoder = Decoder::new(Cursor::new(bytes));
    decoder.set_color_transform(match colour {
        ScaledColour::YCbCr => ColorTransform::YCbCr,
        ScaledColour::Luma => ColorTransform::Grayscale,
    });
    match decoder.read_info() {
        Err(jpeg_decoder::Error::Unsupported(_)) => return Ok(None),
        other => other.map_err(scaled_error)?,
    }
    let info = decoder.info().ok_or_else(no_frame)?;
    let (full_width, full_height) = (u32::from(info.width), u32::from(info.height));
    let wanted = |side: u32| side.div_ceil(scale).min(u32::from(u16::MAX)) as u16;
    let (width, height) = decoder
        .scale(wanted(full_width), wanted(full_height))
        .map_err(scaled_error)?;
    let pixels = match decoder.decode() {
        Err(jpeg_decoder::Error::Unsupported(_)) => return Ok(None),
        other => other.map_err(scaled_error)?,
    };
    let format = decoder.info().ok_or_else(no_frame)?.pixel_format;
    let (width, height) = (u32::from(width), u32::from(height));
    let samples = width as usize * height as usize;
    let rgb = match format {
        PixelFormat::RGB24 if pixels.len() == samples * 3 => pixels,
        PixelFormat::L8 if pixels.len() == samples => {
            pixels.iter().flat_map(|&luma| [luma, luma, luma]).collect()
        }
        _ => return Ok(None),
    };
    Ok(Some((rgb, width, height)))
}

fn no_frame() -> Error {
    Error::new(
        ErrorCode::Corrupt,
        "Cannot decode image: corrupt data (JPEG has no frame header)",
    )
}

fn scaled_error(error: jpeg_decoder::Error) -> Error {
    match error {
        jpeg_decoder::Error::Io(_) => Error::new(
            ErrorCode::Corrupt,
            "Cannot decode image: corrupt data (truncated)",
        ),
        jpeg_decoder::Error::Unsupported(feature) => Error::new(
            ErrorCode::UnsupportedFormat,
            format!("Cannot decode image: unsupported format (JPEG {feature:?})"),
        ),
        other => Error::new(
            ErrorCode::Corrupt,
            format!("Cannot decode image: corrupt data ({other})"),
        ),
    }
}
