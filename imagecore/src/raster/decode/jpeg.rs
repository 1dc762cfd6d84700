//! JPEG decoding with zune-jpeg directly, in strict mode.
//!
//! The `image` crate runs zune-jpeg leniently: a JPEG cut short decodes "successfully", the
//! missing blocks filled with grey (a 40 % prefix of a file becomes a mostly grey logo). Strict
//! mode refuses data that ends before the last row of blocks, and also refuses markers where the
//! standard allows none (what libjpeg reports as "extraneous bytes before marker" and sharp's
//! default `failOn: "warning"` refuses too). zune-jpeg pads a cut inside the last row of blocks
//! with zero bits without saying so, so the data after the last scan header must also reach the
//! end-of-image marker: a JPEG without `EOI` is refused as truncated (sharp's default does the
//! same), bytes after `EOI` are ignored.

use crate::error::{Error, ErrorCode, Result};
use crate::limits::MAX_SOURCE_SIDE;
use crate::raster::decode::jpeg_scaled::{decode_scaled, ScaledColour};
use crate::raster::rgba::widen_to_rgba;
use image::metadata::Orientation;
use zune_core::bytestream::ZCursor;
use zune_core::colorspace::ColorSpace;
use zune_core::options::DecoderOptions;
use zune_jpeg::errors::DecodeErrors;
use zune_jpeg::JpegDecoder;

/// A JPEG whose headers are read, pixels not yet.
pub struct JpegSource<'a> {
    bytes: &'a [u8],
    decoder: JpegDecoder<ZCursor<&'a [u8]>>,
    width: u32,
    height: u32,
    channels: usize,
    /// The colours a scaled decode can serve, `None` for the others.
    scalable: Option<ScaledColour>,
}

fn truncated() -> Error {
    Error::new(
        ErrorCode::Corrupt,
        "Cannot decode image: corrupt data (truncated)",
    )
}

/// Whether an end-of-image marker (`FF D9`) follows the last start-of-scan marker (`FF DA`).
/// Entropy-coded data cannot hold either (a data byte `FF` is always followed by `00`), and a
/// thumbnail inside `APP1` comes before the image's own scans.
fn reaches_end_of_image(bytes: &[u8]) -> bool {
    let last_scan = bytes.windows(2).rposition(|pair| pair == [0xff, 0xda]);
    last_scan.is_some_and(|at| bytes[at..].windows(2).any(|pair| pair == [0xff, 0xd9]))
}

/// A strict decoder writing `output`, its headers read.
fn headers(bytes: &[u8], output: ColorSpace) -> Result<JpegDecoder<ZCursor<&[u8]>>> {
    let max_side = MAX_SOURCE_SIDE as usize;
    let options = DecoderOptions::default()
        .set_strict_mode(true)
        .set_max_width(max_side)
        .set_max_height(max_side)
        .jpeg_set_out_colorspace(output);
    let mut decoder = JpegDecoder::new_with_options(ZCursor::new(bytes), options);
    decoder.decode_headers().map_err(jpeg_error)?;
    Ok(decoder)
}

fn jpeg_error(error: DecodeErrors) -> Error {
    match error {
        DecodeErrors::ExhaustedData
        | DecodeErrors::IoErrors(_)
        | DecodeErrors::FormatStatic("Premature end of buffer") => truncated(),
        DecodeErrors::LargeDimensions(_) => Error::new(
            ErrorCode::TooLarge,
            format!("Cannot decode image: too large ({error})"),
        ),
        DecodeErrors::Unsupported(_) => Error::new(
            ErrorCode::UnsupportedFormat,
            format!("Cannot decode image: unsupported format (JPEG {error})"),
        ),
        other => Error::new(
            ErrorCode::Corrupt,
            format!("Cannot decode image: corrupt data ({other})"),
        ),
    }
}

impl<'a> JpegSource<'a> {
    /// Reads the headers (up to the first scan); no pixel buffer yet. The output is RGBA, or
    /// three-channel RGB when `rgb` (a JPEG is opaque, so a colour resize need not convolve an
    /// alpha channel; see [`Self::channels`]).
    pub fn open(bytes: &'a [u8], rgb: bool) -> Result<Self> {
        // zune-jpeg converts YCbCr and grey to RGB or RGBA. Other colour spaces (RGB, CMYK,
        // YCCK) it converts to RGB only, as the `image` crate asks, and an RGBA input to RGBA
        // only; those are reopened for the one they have. The output colour space must be set
        // before the headers are read: that is when zune-jpeg picks its converter.
        let first = if rgb {
            ColorSpace::RGB
        } else {
            ColorSpace::RGBA
        };
        let mut decoder = headers(bytes, first)?;
        let mut output = first;
        let converts = match decoder.input_colorspace() {
            Some(ColorSpace::YCbCr | ColorSpace::Luma) => true,
            Some(ColorSpace::RGBA) => output == ColorSpace::RGBA,
            _ => output == ColorSpace::RGB,
        };
        if !converts {
            output = if output == ColorSpace::RGB {
                ColorSpace::RGBA
            } else {
                ColorSpace::RGB
            };
            decoder = headers(bytes, output)?;
        }
        let (width, height) = decoder.dimensions().ok_or_else(|| {
            Error::new(
                ErrorCode::Corrupt,
                "Cannot decode image: corrupt data (JPEG has no frame header)",
            )
        })?;
        let scalable = match decoder.input_colorspace() {
            Some(ColorSpace::YCbCr) => Some(ScaledColour::YCbCr),
            Some(ColorSpace::Luma) => Some(ScaledColour::Luma),
            _ => None,
        };
        Ok(JpegSource {
            bytes,
            decoder,
            width: width as u32,
            height: height as u32,
            channels: output.num_components(),
            scalable: scalable.filter(|_| output == ColorSpace::RGB),
        })
    }

    /// Width and height from the frame header.
    pub fn dimensions(&self) -> (u32, u32) {
        (self.width, self.height)
    }

    /// The orientation the EXIF segment asks for.
    pub fn orientation(&self) -> Orientation {
        self.decoder
            .exif()
            .and_then(|exif| Orientation::from_exif_chunk(exif))
            .unwrap_or(Orientation::NoTransforms)
    }

    /// Samples per pixel [`decode_samples`](Self::decode_samples) gives: 3 (RGB) or 4 (RGBA).
    pub fn channels(&self) -> usize {
        self.channels
    }

    /// Decodes every scan to straight-alpha RGBA8; data that ends early is refused.
    pub fn decode(self) -> Result<Vec<u8>> {
        let pixels = self.width as usize * self.height as usize;
        let channels = self.channels;
        let samples = self.decode_into_capacity(pixels * 4)?;
        Ok(widen_to_rgba(samples, pixels, channels))
    }

    /// Decodes every scan to [`channels`](Self::channels) samples per pixel (RGB8 or RGBA8);
    /// data that ends early is refused.
    pub fn decode_samples(self) -> Result<Vec<u8>> {
        let pixels = self.width as usize * self.height as usize;
        let channels = self.channels;
        self.decode_into_capacity(pixels * channels)
    }

    /// RGB8 at 1/`scale` of the size (`decode::jpeg_scaled`), with its width and height, when
    /// the JPEG is YCbCr or grey and was opened for three channels; else, or when `scale` is 1,
    /// [`decode_samples`](Self::decode_samples) at full size. Data that ends early is refused
    /// either way.
    pub fn decode_rgb_scaled(self, scale: u32) -> Result<(Vec<u8>, u32, u32)> {
        if let Some(colour) = self.scalable.filter(|_| scale > 1) {
            if !reaches_end_of_image(self.bytes) {
                return Err(truncated());
            }
            if let Some(scaled) = decode_scaled(self.bytes, colour, scale)? {
                return Ok(scaled);
            }
        }
        let (width, height) = (self.width, self.height);
        Ok((self.decode_samples()?, width, height))
    }

    /// The decoded samples, in a buffer with room for `capacity` bytes.
    fn decode_into_capacity(mut self, capacity: usize) -> Result<Vec<u8>> {
        if !reaches_end_of_image(self.bytes) {
            return Err(truncated());
        }
        let samples = self.width as usize * self.height as usize * self.channels;
        let mut buffer = Vec::with_capacity(capacity.max(samples));
        buffer.resize(samples, 0);
        self.decoder.decode_into(&mut buffer).map_err(jpeg_error)?;
        Ok(buffer)
    }
}
