//! Decoding any supported source into straight-alpha RGBA8, within the limits.

use crate::error::{Error, ErrorCode, Result};
use crate::format::{sniff, SourceFormat};
use crate::ico_select::{largest_entry, Entry};
use crate::limits::{MAX_DECODER_ALLOC, MAX_INPUT_BYTES, MAX_SOURCE_PIXELS, MAX_SOURCE_SIDE};
use image::metadata::Orientation;
use image::{DynamicImage, ImageDecoder, ImageReader, Limits};
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

/// Opens a decoder over `bytes` (header read, no pixels) and refuses what is over the limits.
fn open<'a>(format: SourceFormat, bytes: &'a [u8]) -> Result<(impl ImageDecoder + 'a, Header)> {
    let mut reader = ImageReader::with_format(Cursor::new(bytes), format.image_format());
    reader.limits(limits());
    let decoder = reader.into_decoder()?;
    let (width, height) = decoder.dimensions();
    if width == 0 || height == 0 {
        return Err(Error::new(
            ErrorCode::Corrupt,
            "Cannot decode image: corrupt data (zero width or height)",
        ));
    }
    let pixels = u64::from(width) * u64::from(height);
    if pixels > MAX_SOURCE_PIXELS {
        return Err(Error::new(
            ErrorCode::TooLarge,
            format!(
                "Cannot decode image: {width}×{height} exceeds the {MAX_SOURCE_PIXELS}-pixel limit"
            ),
        ));
    }
    Ok((
        decoder,
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
    let (_, header) = open(decoder_format, &bytes)?;
    Ok(Header { format, ..header })
}

/// Decodes `input` to RGBA8 (the first frame of a GIF, the largest entry of an ICO), applying
/// EXIF orientation where the format carries it.
///
/// `plan` sees the upright dimensions once the header is read and before any pixel is decoded;
/// its error stops the decode, so output limits cost no allocation.
pub fn decode<P>(input: &[u8], plan: impl FnOnce(u32, u32) -> Result<P>) -> Result<(Rgba, P)> {
    check_input_size(input)?;
    let (format, bytes) = select(sniff(input)?, input)?;
    let (mut decoder, header) = open(format, &bytes)?;
    let orientation = decoder.orientation().unwrap_or(Orientation::NoTransforms);
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
    let mut image = DynamicImage::from_decoder(decoder)?;
    image.apply_orientation(orientation);
    let (width, height) = (image.width(), image.height());
    let rgba = Rgba {
        pixels: image.into_rgba8().into_raw(),
        width,
        height,
    };
    Ok((rgba, planned))
}
