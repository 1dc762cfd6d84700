//! Encoding RGBA8 as PNG, lossless WebP or JPEG.

pub mod effort;
pub mod faint_colours;
pub mod png;
pub mod png_deflate;
pub mod png_filter;

use crate::error::{Error, ErrorCode, Result};
use crate::raster::encode::effort::Effort;
use crate::raster::encode::png::encode_png_into;
use crate::raster::format::OutputFormat;
use image::codecs::jpeg::JpegEncoder;
use image::codecs::webp::WebPEncoder;
use image::ExtendedColorType;

/// JPEG quality: logos are mostly flat colour and sharp edges, which low qualities smear.
const JPEG_QUALITY: u8 = 88;

/// Composites straight-alpha RGBA8 onto white; returns grey samples when the image is grey.
fn flatten_onto_white(pixels: &[u8]) -> (Vec<u8>, ExtendedColorType) {
    let grey = pixels.chunks_exact(4).all(|p| p[0] == p[1] && p[1] == p[2]);
    let channels = if grey { 1 } else { 3 };
    let mut out = Vec::with_capacity(pixels.len() / 4 * channels);
    for pixel in pixels.chunks_exact(4) {
        let alpha = u32::from(pixel[3]);
        for &c in &pixel[..channels] {
            out.push(((u32::from(c) * alpha + 255 * (255 - alpha) + 127) / 255) as u8);
        }
    }
    let colour = if grey {
        ExtendedColorType::L8
    } else {
        ExtendedColorType::Rgb8
    };
    (out, colour)
}

/// Encodes straight-alpha RGBA8 `pixels` (which PNG encoding may normalise in place), appended to
/// `out`: what `out` holds already is kept, so a caller can reserve a header there. `effort` is
/// the PNG encoder's; WebP and JPEG have one setting each.
pub fn encode_into(
    out: &mut Vec<u8>,
    pixels: &mut [u8],
    width: u32,
    height: u32,
    format: OutputFormat,
    effort: Effort,
) -> Result<()> {
    let expected = width as usize * height as usize * 4;
    if pixels.len() != expected || width == 0 || height == 0 {
        return Err(Error::new(
            ErrorCode::InvalidArgument,
            format!(
                "Cannot encode image: {} bytes is not {width}×{height} RGBA pixels",
                pixels.len()
            ),
        ));
    }
    match format {
        OutputFormat::Png => encode_png_into(out, pixels, width, height, effort),
        OutputFormat::WebP => Ok(WebPEncoder::new_lossless(out).encode(
            pixels,
            width,
            height,
            ExtendedColorType::Rgba8,
        )?),
        OutputFormat::Jpeg => {
            let (flat, colour) = flatten_onto_white(pixels);
            Ok(JpegEncoder::new_with_quality(out, JPEG_QUALITY)
                .encode(&flat, width, height, colour)?)
        }
    }
}

/// Encodes straight-alpha RGBA8 `pixels` (which PNG encoding may normalise in place) with the
/// smallest PNG effort ([`Effort::Small`]), as an image of its own.
pub fn encode(pixels: &mut [u8], width: u32, height: u32, format: OutputFormat) -> Result<Vec<u8>> {
    let mut out = Vec::new();
    encode_into(&mut out, pixels, width, height, format, Effort::Small)?;
    Ok(out)
}
