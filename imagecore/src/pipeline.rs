//! The whole transformation: decode → resize → greyscale → theme → encode.

use crate::decode::decode;
use crate::encode::encode;
use crate::error::Result;
use crate::format::OutputFormat;
use crate::greyscale::greyscale;
use crate::resize::{output_size, resize};
use crate::theme::{apply_theme, Theme};

/// What to do to a logo.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Options {
    /// Output width; `None` keeps the source width. Height keeps the aspect ratio.
    pub width: Option<u32>,
    /// Replace colours with their Rec. 709 luma.
    pub greyscale: bool,
    /// Invert the lightness of a transparent logo that lacks contrast on this background.
    pub theme: Option<Theme>,
    /// Output encoding.
    pub format: OutputFormat,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            width: None,
            greyscale: false,
            theme: None,
            format: OutputFormat::Png,
        }
    }
}

/// A transformed logo.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Output {
    /// Encoded image.
    pub bytes: Vec<u8>,
    /// Width in px.
    pub width: u32,
    /// Height in px.
    pub height: u32,
    /// Encoding of `bytes`.
    pub format: OutputFormat,
    /// Whether the theme step inverted the logo.
    pub inverted: bool,
}

/// Transforms an encoded image. The output size is checked against the limits from the header,
/// before any pixel is decoded. Greyscale and theme run after the resize, on fewer pixels (both
/// are per-pixel, so the order does not change the result beyond rounding).
pub fn transform(input: &[u8], options: &Options) -> Result<Output> {
    let (source, (width, height)) = decode(input, |src_width, src_height| {
        output_size(src_width, src_height, options.width.unwrap_or(src_width))
    })?;
    let mut pixels = resize(source.pixels, source.width, source.height, width, height)?;
    if options.greyscale {
        greyscale(&mut pixels);
    }
    let inverted = match options.theme {
        Some(theme) => apply_theme(&mut pixels, width, theme),
        None => false,
    };
    let bytes = encode(&mut pixels, width, height, options.format)?;
    Ok(Output {
        bytes,
        width,
        height,
        format: options.format,
        inverted,
    })
}
