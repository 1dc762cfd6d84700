//! Decoding any supported source into straight-alpha RGBA8 (or, when asked, an opaque JPEG into
//! RGB8), within the limits.
//!
//! Every refusal comes from the header, before any pixel buffer: a source over
//! [`MAX_SOURCE_PIXELS`](crate::limits::MAX_SOURCE_PIXELS) or with a side over [`MAX_SOURCE_SIDE`]
//! is `too_large`. Pixel data that ends early is `corrupt` ("Cannot decode image: corrupt data
//! (truncated)" where the decoder says so), never a partly grey image. PNG, GIF and BMP decoders
//! know when the pixels are complete, so a missing end marker after them (`IEND`, the GIF trailer)
//! is tolerated; a JPEG must reach its `EOI` marker (see `decode::jpeg`). Only the first frame of a
//! GIF is decoded, so a cut in a later frame goes unnoticed.

pub mod declared_size;
pub mod ico_select;
pub mod jpeg;
pub mod jpeg_scaled;
pub mod png;
pub mod png_chunks;

use crate::error::{Error, ErrorCode, Result};
use crate::limits::{check_source_size, MAX_DECODER_ALLOC, MAX_INPUT_BYTES, MAX_SOURCE_SIDE};
use crate::raster::decode::declared_size::check_declared_size;
use crate::raster::decode::ico_select::{largest_entry, Entry};
use crate::raster::decode::jpeg::JpegSource;
use crate::raster::decode::jpeg_scaled::shrink_factor;
use crate::raster::decode::png::PngSource;
use crate::raster::format::{sniff, SourceFormat};
use crate::raster::grey_pairs::GreyPairs;
use crate::raster::rgba::widen_to_rgba;
use image::metadata::Orientation;
use image::{DynamicImage, ImageDecoder, ImageReader, Limits, RgbImage, RgbaImage};
use std::borrow::Cow;
use std::io::Cursor;

/// A decoded image: RGBA8, row-major, straight (not premultiplied) alpha.
pub struct Rgba {
    /// Pixels, 4 bytes each.
    pub pixels: Vec<u8>,
    /// Width in px.
    pub width: u32,
    /// Height in px.
    pub height: u32,
}

/// A decoded opaque image (a JPEG) as RGB8, row-major: three bytes a pixel, no alpha to carry.
pub struct Rgb {
    /// Pixels, 3 bytes each.
    pub pixels: Vec<u8>,
    /// Width in px.
    pub width: u32,
    /// Height in px.
    pub height: u32,
}

/// What [`decode_samples`] gives: RGBA8, or RGB8 for a three-channel JPEG when asked for; and
/// [`decode_grey`], luma + alpha pairs of a PNG.
pub enum Decoded {
    /// Straight-alpha RGBA8.
    Rgba(Rgba),
    /// Opaque RGB8.
    Rgb(Rgb),
    /// Premultiplied luma + alpha pairs (`raster::grey_pairs`), from [`decode_grey`] only.
    Grey(GreyPairs),
}

impl Decoded {
    /// Width and height in px.
    pub fn dimensions(&self) -> (u32, u32) {
        match self {
            Decoded::Rgba(d) => (d.width, d.height),
            Decoded::Rgb(d) => (d.width, d.height),
            Decoded::Grey(d) => (d.width, d.height),
        }
    }

    /// The image as RGBA8 (an RGB image widened in place, alpha 255; pairs as grey RGBA8).
    pub fn into_rgba(self) -> Rgba {
        match self {
            Decoded::Rgba(rgba) => rgba,
            Decoded::Grey(pairs) => Rgba {
                width: pairs.width,
                height: pairs.height,
                pixels: pairs.into_grey_rgba(),
            },
            Decoded::Rgb(Rgb {
                pixels,
                width,
                height,
            }) => Rgba {
                pixels: widen_to_rgba(pixels, width as usize * height as usize, 3),
                width,
                height,
            },
        }
    }
}

/// Format and dimensions read from a header.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Header {
    /// Recognised format.
    pub format: SourceFormat,
    /// Width in px.
    pub width: u32,
    /// Height in px.
    pub height: u32,
}

fn check_input_size(input: &[u8]) -> Result<()> {
    if input.len() > MAX_INPUT_BYTES {
        return Err(Error::new(
            ErrorCode::TooLarge,
            format!(
                "Cannot decode image: {} bytes exceeds the {MAX_INPUT_BYTES}-byte limit",
                input.len()
            ),
        ));
    }
    Ok(())
}

fn limits() -> Limits {
    let mut limits = Limits::default();
    limits.max_alloc = Some(MAX_DECODER_ALLOC);
    limits.max_image_width = Some(MAX_SOURCE_SIDE);
    limits.max_image_height = Some(MAX_SOURCE_SIDE);
    limits
}

/// A decoder with its header read and no pixel decoded: PNG and JPEG by their own crates (see
/// `decode::png`, `decode::jpeg`), the other formats by the `image` crate.
enum Opened<'a> {
    Png(Box<PngSource<'a>>),
    Jpeg(Box<JpegSource<'a>>),
    Other(Box<dyn ImageDecoder + 'a>),
}

impl Opened<'_> {
    fn dimensions(&self) -> (u32, u32) {
        match self {
            Opened::Png(png) => png.dimensions(),
            Opened::Jpeg(jpeg) => jpeg.dimensions(),
            Opened::Other(decoder) => decoder.dimensions(),
        }
    }

    fn orientation(&mut self) -> Orientation {
        match self {
            Opened::Png(png) => png.orientation(),
            Opened::Jpeg(jpeg) => jpeg.orientation(),
            Opened::Other(decoder) => decoder.orientation().unwrap_or(Orientation::NoTransforms),
        }
    }

    /// The pixels, the only full-size buffer of the decode, with their samples per pixel and
    /// size: straight-alpha RGBA8 (4), or when `rgb` RGB8 (3) from a JPEG decoded to three
    /// channels, at 1/`scale` of the size when the JPEG can be (`decode::jpeg_scaled`).
    fn into_pixels(self, rgb: bool, scale: u32) -> Result<(Vec<u8>, usize, u32, u32)> {
        let (width, height) = self.dimensions();
        match self {
            Opened::Png(png) => Ok((png.decode()?, 4, width, height)),
            Opened::Jpeg(jpeg) if rgb && jpeg.channels() == 3 => {
                let (pixels, width, height) = jpeg.decode_rgb_scaled(scale)?;
                Ok((pixels, 3, width, height))
            }
            Opened::Jpeg(jpeg) => Ok((jpeg.decode()?, 4, width, height)),
            Opened::Other(decoder) => Ok((
                DynamicImage::from_decoder(decoder)?.into_rgba8().into_raw(),
                4,
                width,
                height,
            )),
        }
    }

    /// The scale denominator to decode at for an output of `target` (stored orientation): only
    /// a JPEG decoded to three channels is ever scaled.
    fn shrink_for(&self, rgb: bool, target: Option<(u32, u32)>) -> u32 {
        match (self, target) {
            (Opened::Jpeg(jpeg), Some((width, height))) if rgb && jpeg.channels() == 3 => {
                let (source_width, source_height) = jpeg.dimensions();
                shrink_factor(source_width, source_height, width, height)
            }
            _ => 1,
        }
    }
}

/// Opens a decoder over `bytes` (header read, no pixels) and refuses what is over the limits:
/// first the size the header declares (`declared_size`), before a decoder can call it a format
/// error, then the size the decoder reports. `rgb`: a JPEG that can be decoded to three channels
/// is opened for them.
fn open(format: SourceFormat, bytes: &[u8], rgb: bool) -> Result<(Opened<'_>, Header)> {
    check_declared_size(format, bytes)?;
    let opened = match format {
        SourceFormat::Png => Opened::Png(Box::new(PngSource::open(bytes)?)),
        SourceFormat::Jpeg => Opened::Jpeg(Box::new(JpegSource::open(bytes, rgb)?)),
        _ => {
            let mut reader = ImageReader::with_format(Cursor::new(bytes), format.image_format());
            reader.limits(limits());
            Opened::Other(Box::new(reader.into_decoder()?))
        }
    };
    let (width, height) = opened.dimensions();
    check_source_size(width, height)?;
    Ok((
        opened,
        Header {
            format,
            width,
            height,
        },
    ))
}

/// What to hand the decoder: an ICO's largest entry (a PNG entry as a PNG), else the input.
fn select(format: SourceFormat, input: &[u8]) -> Result<(SourceFormat, Cow<'_, [u8]>)> {
    Ok(match format {
        SourceFormat::Ico => match largest_entry(input)? {
            Entry::Png(png) => (SourceFormat::Png, Cow::Borrowed(png)),
            Entry::Ico(ico) => (SourceFormat::Ico, ico),
        },
        _ => (format, Cow::Borrowed(input)),
    })
}

/// Reads the format and dimensions without decoding pixels.
pub fn probe(input: &[u8]) -> Result<Header> {
    check_input_size(input)?;
    let format = sniff(input)?;
    let (decoder_format, bytes) = select(format, input)?;
    let (_, header) = open(decoder_format, &bytes, false)?;
    Ok(Header { format, ..header })
}

/// Decodes `input` to RGBA8 (the first frame of a GIF, the largest entry of an ICO), applying
/// EXIF orientation where the format carries it.
///
/// `plan` sees the upright dimensions once the header is read and before any pixel is decoded;
/// its error stops the decode, so output limits cost no allocation.
pub fn decode<P>(input: &[u8], plan: impl FnOnce(u32, u32) -> Result<P>) -> Result<(Rgba, P)> {
    let (decoded, planned) = decode_samples(input, false, plan)?;
    Ok((decoded.into_rgba(), planned))
}

/// [`decode`], giving a JPEG decoded to three channels (YCbCr, grey, RGB, CMYK: all but an RGBA
/// JPEG) as [`Rgb`] when `rgb`, so that a colour resize convolves three channels instead of four
/// (`resize::resize_rgb`). Every other source, and every source when not `rgb`, is
/// [`Decoded::Rgba`]. The pixels are the same either way, less the alpha.
pub fn decode_samples<P>(
    input: &[u8],
    rgb: bool,
    plan: impl FnOnce(u32, u32) -> Result<P>,
) -> Result<(Decoded, P)> {
    decode_shrunk(input, rgb, plan, |_| None, false)
}

/// [`decode_samples`] for a resize to the width and height `plan` returns (upright): a YCbCr or
/// grey JPEG decoded to RGB (`rgb`) is decoded at 1/2 or 1/4 of its size when that still leaves
/// at least twice the output on both axes (JPEG shrink-on-load, `decode::jpeg_scaled`),
/// so the [`Decoded`] image may be smaller than the source; the resize takes it to the output.
pub fn decode_for_resize(
    input: &[u8],
    rgb: bool,
    plan: impl FnOnce(u32, u32) -> Result<(u32, u32)>,
) -> Result<(Decoded, (u32, u32))> {
    decode_shrunk(input, rgb, plan, |&size| Some(size), false)
}

/// [`decode_samples`] with `rgb` for a greyscale resize to the size `plan` returns: a PNG of at
/// most 8 bits a sample, not interlaced, not rotated and not already of that size is decoded row by
/// row straight to luma + alpha pairs ([`Decoded::Grey`], `PngSource::decode_grey_pairs`), never
/// written out as RGBA. A JPEG is decoded as for [`decode_for_resize`] (shrunk on load).
pub fn decode_grey(
    input: &[u8],
    plan: impl FnOnce(u32, u32) -> Result<(u32, u32)>,
) -> Result<(Decoded, (u32, u32))> {
    decode_shrunk(input, true, plan, |&size| Some(size), true)
}

fn decode_shrunk<P>(
    input: &[u8],
    rgb: bool,
    plan: impl FnOnce(u32, u32) -> Result<P>,
    target: impl FnOnce(&P) -> Option<(u32, u32)>,
    grey_pairs: bool,
) -> Result<(Decoded, P)> {
    check_input_size(input)?;
    let (format, bytes) = select(sniff(input)?, input)?;
    let (mut opened, header) = open(format, &bytes, rgb)?;
    let orientation = opened.orientation();
    let swaps_axes = matches!(
        orientation,
        Orientation::Rotate90
            | Orientation::Rotate270
            | Orientation::Rotate90FlipH
            | Orientation::Rotate270FlipH
    );
    let planned = if swaps_axes {
        plan(header.height, header.width)?
    } else {
        plan(header.width, header.height)?
    };
    let stored_target = target(&planned).map(|(w, h)| if swaps_axes { (h, w) } else { (w, h) });
    let streams = grey_pairs
        && orientation == Orientation::NoTransforms
        && stored_target.is_some_and(|size| size != (header.width, header.height))
        && matches!(&opened, Opened::Png(png) if png.streams_rows());
    let opened = match opened {
        Opened::Png(png) if streams => {
            return Ok((Decoded::Grey(png.decode_grey_pairs()?), planned))
        }
        other => other,
    };
    // A JPEG shrinks on load for a greyscale resize as for a colour one (luma is packed after).
    let scale = opened.shrink_for(rgb, stored_target);
    let (pixels, channels, width, height) = opened.into_pixels(rgb, scale)?;
    let image = if channels == 3 {
        RgbImage::from_raw(width, height, pixels).map(DynamicImage::ImageRgb8)
    } else {
        RgbaImage::from_raw(width, height, pixels).map(DynamicImage::ImageRgba8)
    };
    let mut image = image.ok_or_else(|| {
        Error::new(
            ErrorCode::Internal,
            "Cannot decode image: the decoder returned a short buffer",
        )
    })?;
    image.apply_orientation(orientation);
    let (width, height) = (image.width(), image.height());
    let decoded = match image {
        DynamicImage::ImageRgb8(rgb) => Decoded::Rgb(Rgb {
            pixels: rgb.into_raw(),
            width,
            height,
        }),
        other => Decoded::Rgba(Rgba {
            pixels: other.into_rgba8().into_raw(),
            width,
            height,
        }),
    };
    Ok((decoded, planned))
}
