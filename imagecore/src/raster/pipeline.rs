//! The whole transformation: decode → resize → greyscale → theme → encode.

use crate::colour::theme::{apply_theme, Theme};
use crate::error::Result;
use crate::raster::decode::{decode_for_resize, decode_grey, Decoded};
use crate::raster::encode::effort::Effort;
use crate::raster::encode::encode_into;
use crate::raster::encode::faint_colours::snap_faint_colours;
use crate::raster::format::OutputFormat;
use crate::raster::resize::grey::{resize_grey, resize_grey_pairs, resize_grey_rgb};
use crate::raster::resize::{output_size, resize, resize_rgb};
use crate::raster::stage_times::StageTimes;

/// What to do to a logo.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Options {
    /// Output width; `None` keeps the source width. Height keeps the aspect ratio.
    pub width: Option<u32>,
    /// Replace colours with their Rec. 709 luma.
    pub greyscale: bool,
    /// Make each part of a transparent logo read on this background (`crate::colour::theme`).
    pub theme: Option<Theme>,
    /// Output encoding.
    pub format: OutputFormat,
    /// The PNG encoder's effort: `Fast` for renders made on request (the default), `Small` for
    /// renditions stored once. Pixels are identical either way.
    pub effort: Effort,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            width: None,
            greyscale: false,
            theme: None,
            format: OutputFormat::Png,
            effort: Effort::Fast,
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
    /// Whether the theme step changed any colour (the name is from when it inverted the logo).
    pub inverted: bool,
}

/// What [`transform_into`] made besides the bytes.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rendered {
    /// Width in px.
    pub width: u32,
    /// Height in px.
    pub height: u32,
    /// Whether the theme step changed any colour (the name is from when it inverted the logo).
    pub inverted: bool,
    /// Time of each stage by the clock passed in.
    pub stages: StageTimes,
}

/// Transforms an encoded image. The output size is checked against the limits from the header,
/// before any pixel is decoded. A resized PNG output's faint colours are made canonical before
/// it is encoded ([`snap_faint_colours`]: no composite moves by a level); at the source's own
/// size the pixels are the source's. A greyscale resize convolves luma and alpha only
/// ([`resize::grey`]; of a JPEG, luma taken from its RGB, [`resize_grey_rgb`]), a colour resize of
/// a JPEG its three channels only ([`resize_rgb`]); both give the same bytes as with an alpha
/// channel of 255. Either resize of a JPEG at least 4 times smaller starts from a reduced-scale
/// decode ([`decode_for_resize`]; greyscale through [`decode_grey`], which streams a PNG's rows
/// straight to luma); the theme runs after the resize, on fewer pixels (it
/// is per-pixel, so the order does not change the result beyond rounding).
pub fn transform(input: &[u8], options: &Options) -> Result<Output> {
    let mut bytes = Vec::new();
    let done = transform_into(input, options, &mut bytes, || 0.0)?;
    Ok(Output {
        bytes,
        width: done.width,
        height: done.height,
        format: options.format,
        inverted: done.inverted,
    })
}

/// [`transform`], appending the encoded image to `out` (what `out` holds already is kept: the
/// WASM export reserves its result header there, so the image is never copied behind it), and
/// reading `now` (ms) between stages.
pub fn transform_into(
    input: &[u8],
    options: &Options,
    out: &mut Vec<u8>,
    now: fn() -> f64,
) -> Result<Rendered> {
    let start = now();
    // A JPEG is decoded to RGB, not RGBA, from a reduced-scale decode when the output is at least
    // 4 times smaller: a colour resize convolves its three channels, a greyscale one packs luma
    // from its three bytes a pixel. A greyscale resize of a PNG decodes row by row straight to luma.
    let plan = |w, h| output_size(w, h, options.width.unwrap_or(w));
    let (source, (width, height)) = if options.greyscale {
        decode_grey(input, plan)?
    } else {
        decode_for_resize(input, true, plan)?
    };
    let decoded = now();
    let resizes = (width, height) != source.dimensions();
    let mut pixels = match source {
        Decoded::Rgb(rgb) if options.greyscale => {
            resize_grey_rgb(rgb.pixels, rgb.width, rgb.height, width, height)?
        }
        Decoded::Rgb(rgb) => resize_rgb(rgb.pixels, rgb.width, rgb.height, width, height)?,
        Decoded::Rgba(s) if options.greyscale => {
            resize_grey(s.pixels, s.width, s.height, width, height)?
        }
        Decoded::Rgba(s) => resize(s.pixels, s.width, s.height, width, height)?,
        Decoded::Grey(pairs) => resize_grey_pairs(pairs, width, height)?,
    };
    let resized = now();
    let inverted = match options.theme {
        Some(theme) => apply_theme(&mut pixels, width, theme),
        None => false,
    };
    let coloured = now();
    if options.format == OutputFormat::Png && resizes {
        snap_faint_colours(&mut pixels);
    }
    encode_into(
        out,
        &mut pixels,
        width,
        height,
        options.format,
        options.effort,
    )?;
    let encoded = now();
    Ok(Rendered {
        width,
        height,
        inverted,
        stages: StageTimes {
            decode: decoded - start,
            resize: resized - decoded,
            colour: coloured - resized,
            encode: encoded - coloured,
        },
    })
}
