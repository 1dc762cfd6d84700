//! Source and output formats, and recognising a source from its bytes.

use crate::error::{Error, ErrorCode, Result};
use image::ImageFormat;

/// A format imagecore decodes. The discriminants are part of the WASM ABI (see `mod.ts`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SourceFormat {
    /// PNG, all colour types and depths, interlaced too.
    Png = 0,
    /// Baseline and progressive JPEG.
    Jpeg = 1,
    /// GIF; the first frame.
    Gif = 2,
    /// WebP, lossy and lossless.
    WebP = 3,
    /// ICO; the largest entry, BMP or PNG inside.
    Ico = 4,
    /// BMP.
    Bmp = 5,
}

impl SourceFormat {
    /// The `image` crate's format.
    pub fn image_format(self) -> ImageFormat {
        match self {
            SourceFormat::Png => ImageFormat::Png,
            SourceFormat::Jpeg => ImageFormat::Jpeg,
            SourceFormat::Gif => ImageFormat::Gif,
            SourceFormat::WebP => ImageFormat::WebP,
            SourceFormat::Ico => ImageFormat::Ico,
            SourceFormat::Bmp => ImageFormat::Bmp,
        }
    }
}

/// An encoding imagecore writes. The discriminants are part of the WASM ABI (see `mod.ts`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OutputFormat {
    /// PNG, in the smallest exact colour type.
    Png = 0,
    /// Lossless WebP.
    WebP = 1,
    /// JPEG, flattened onto white.
    Jpeg = 2,
}

impl OutputFormat {
    /// The format for an ABI code.
    pub fn from_code(code: u8) -> Result<Self> {
        match code {
            0 => Ok(OutputFormat::Png),
            1 => Ok(OutputFormat::WebP),
            2 => Ok(OutputFormat::Jpeg),
            _ => Err(Error::new(
                ErrorCode::InvalidArgument,
                "Cannot encode image: unknown output format",
            )),
        }
    }
}

/// Recognises the format from the leading bytes (never from a name or a declared type).
pub fn sniff(input: &[u8]) -> Result<SourceFormat> {
    if input.is_empty() {
        return Err(Error::new(
            ErrorCode::Corrupt,
            "Cannot decode image: empty input",
        ));
    }
    match image::guess_format(input) {
        Ok(ImageFormat::Png) => Ok(SourceFormat::Png),
        Ok(ImageFormat::Jpeg) => Ok(SourceFormat::Jpeg),
        Ok(ImageFormat::Gif) => Ok(SourceFormat::Gif),
        Ok(ImageFormat::WebP) => Ok(SourceFormat::WebP),
        Ok(ImageFormat::Ico) => Ok(SourceFormat::Ico),
        Ok(ImageFormat::Bmp) => Ok(SourceFormat::Bmp),
        _ => Err(Error::new(
            ErrorCode::UnsupportedFormat,
            "Cannot decode image: unsupported format",
        )),
    }
}
