//! PNG decoding with the `png` crate directly, so that untrusted files stay cheap.
//!
//! The `image` crate's PNG decoder always reads text chunks and inflates an `iCCP` profile up to
//! its whole allocation limit, so a small file whose ancillary chunks are zlib bombs costs
//! hundreds of megabytes. imagecore uses neither colour profiles nor text: here `iCCP`, `tEXt`,
//! `zTXt` and `iTXt` are skipped unread (never inflated), the decoder's own buffers are bounded
//! by [`MAX_DECODER_ALLOC`], and image data that ends before the last row is refused as
//! truncated. Chunk CRCs are checked as the `png` crate checks them, by a faster CRC when they
//! all match (`decode::png_chunks`).

use crate::error::{Error, ErrorCode, Result};
use crate::limits::{check_source_size, MAX_DECODER_ALLOC};
use crate::raster::decode::png_chunks::pixel_chunks_check_out;
use crate::raster::grey_pairs::{pack_samples_row, pairs_stride, GreyPairs};
use crate::raster::rgba::{expand_to_rgba, narrow_16_to_8};
use image::metadata::Orientation;
use png::{
    BitDepth, ColorType, DecodeOptions, Decoder, DecodingError, Limits, Reader, Transformations,
};
use std::io::{Cursor, ErrorKind};

/// A PNG whose header and metadata are read, pixels not yet.
pub struct PngSource<'a> {
    reader: Reader<Cursor<&'a [u8]>>,
    bytes: &'a [u8],
}

fn png_error(error: DecodingError) -> Error {
    match error {
        DecodingError::IoError(e) if e.kind() == ErrorKind::UnexpectedEof => Error::new(
            ErrorCode::Corrupt,
            "Cannot decode image: corrupt data (truncated)",
        ),
        DecodingError::LimitsExceeded => Error::new(
            ErrorCode::TooLarge,
            "Cannot decode image: too large (the PNG decoder's memory limit)",
        ),
        other => Error::new(
            ErrorCode::Corrupt,
            format!("Cannot decode image: corrupt data ({other})"),
        ),
    }
}

impl<'a> PngSource<'a> {
    /// Reads the chunks before the image data; no pixel buffer yet.
    pub fn open(bytes: &'a [u8]) -> Result<Self> {
        let reader = read_info(bytes, true)?;
        Ok(PngSource { reader, bytes })
    }

    /// The reader to decode the pixels with: when every chunk it will read has a matching CRC
    /// (checked by `png_chunks`, faster than the `png` crate), a fresh one with the crate's CRC
    /// check off (it would find nothing); otherwise the one `open` made, which checks them. The
    /// first reader is dropped before the second reads, so the two never hold memory at once.
    fn pixel_reader(self) -> Result<Reader<Cursor<&'a [u8]>>> {
        let PngSource { reader, bytes } = self;
        if pixel_chunks_check_out(bytes) {
            drop(reader);
            read_info(bytes, false)
        } else {
            Ok(reader)
        }
    }

    /// Width and height from `IHDR`.
    pub fn dimensions(&self) -> (u32, u32) {
        let info = self.reader.info();
        (info.width, info.height)
    }

    /// Whether the file can be stored as it is (`png_as_is`): at most 8 bits a sample, not
    /// interlaced (Adam7 decodes slower on every request), and not rotated by EXIF.
    pub fn stores_as_is(&self) -> bool {
        let info = self.reader.info();
        info.bit_depth as u8 <= 8
            && !info.interlaced
            && self.orientation() == Orientation::NoTransforms
    }

    /// The orientation an `eXIf` chunk asks for.
    pub fn orientation(&self) -> Orientation {
        self.reader
            .info()
            .exif_metadata
            .as_deref()
            .and_then(Orientation::from_exif_chunk)
            .unwrap_or(Orientation::NoTransforms)
    }

    /// Whether [`decode_grey_pairs`](Self::decode_grey_pairs) can take the rows as they come: at
    /// most 8 bits a sample and not interlaced (an Adam7 pass is not a row of the image).
    pub fn streams_rows(&self) -> bool {
        let info = self.reader.info();
        info.bit_depth as u8 <= 8 && !info.interlaced
    }

    /// Decodes the (first) image row by row straight to premultiplied luma + alpha pairs
    /// (`raster::grey_pairs`), so the pixels are never written out as RGBA and read again: the
    /// same pairs as [`decode`](Self::decode) then packing, in the pair buffer only (at most half
    /// of RGBA8). Only when [`streams_rows`](Self::streams_rows); the orientation is not applied.
    pub fn decode_grey_pairs(self) -> Result<GreyPairs> {
        let (width, height) = self.dimensions();
        let mut reader = self.pixel_reader()?;
        let (color_type, bit_depth) = reader.output_color_type();
        if bit_depth != BitDepth::Eight || reader.info().interlaced {
            return Err(Error::new(
                ErrorCode::Internal,
                "Cannot decode image: rows of this PNG are not 8-bit image rows",
            ));
        }
        if color_type == ColorType::Indexed {
            return Err(Error::new(
                ErrorCode::Internal,
                "Cannot decode image: the PNG palette was not expanded",
            ));
        }
        let channels = color_type.samples();
        let stride = pairs_stride(width as usize);
        let mut row = vec![0u8; width as usize * channels];
        let mut pixels = vec![0u8; stride * height as usize];
        for out in pixels.chunks_exact_mut(stride) {
            if reader.read_row(&mut row).map_err(png_error)?.is_none() {
                return Err(Error::new(
                    ErrorCode::Corrupt,
                    "Cannot decode image: corrupt data (truncated)",
                ));
            }
            pack_samples_row(&row, channels, out);
        }
        // Past the last row: the rest of the image data is read and checked, as by `next_frame`.
        if reader.read_row(&mut row).map_err(png_error)?.is_some() {
            return Err(Error::new(
                ErrorCode::Internal,
                "Cannot decode image: the PNG decoder gave more rows than the header declares",
            ));
        }
        Ok(GreyPairs {
            pixels,
            width,
            height,
        })
    }

    /// Decodes the (first) image to straight-alpha RGBA8.
    pub fn decode(self) -> Result<Vec<u8>> {
        let (width, height) = self.dimensions();
        let pixels = width as usize * height as usize;
        let mut reader = self.pixel_reader()?;
        let needed = reader.output_buffer_size().ok_or_else(|| {
            Error::new(
                ErrorCode::TooLarge,
                "Cannot decode image: too large for this platform",
            )
        })?;
        // One buffer serves the decoder and the RGBA result: 8 bytes a pixel at most (RGBA16).
        let mut buffer = vec![0u8; needed.max(pixels * 4)];
        let frame = reader.next_frame(&mut buffer).map_err(png_error)?;
        let channels = match frame.color_type {
            ColorType::Grayscale => 1,
            ColorType::GrayscaleAlpha => 2,
            ColorType::Rgb => 3,
            ColorType::Rgba => 4,
            ColorType::Indexed => {
                return Err(Error::new(
                    ErrorCode::Internal,
                    "Cannot decode image: the PNG palette was not expanded",
                ))
            }
        };
        let samples = pixels * channels;
        if frame.bit_depth == BitDepth::Sixteen {
            narrow_16_to_8(&mut buffer, samples);
        }
        expand_to_rgba(&mut buffer, pixels, channels);
        buffer.truncate(pixels * 4);
        Ok(buffer)
    }
}

/// A reader past the chunks before the image data of the PNG `bytes`, checking chunk CRCs when
/// `check_crc`. `iCCP`, `tEXt`, `zTXt` and `iTXt` are skipped unread; palettes and low bit depths
/// expand to 8 bits, `tRNS` to alpha, 16 bits are kept (to round like `image`); a source too large
/// is refused by `IHDR` alone, before reading further (a header-only file is too large, not cut).
fn read_info(bytes: &[u8], check_crc: bool) -> Result<Reader<Cursor<&[u8]>>> {
    let mut options = DecodeOptions::default();
    options.set_ignore_iccp_chunk(true);
    options.set_ignore_text_chunk(true);
    options.set_ignore_crc(!check_crc);
    let mut decoder = Decoder::new_with_options(Cursor::new(bytes), options);
    decoder.set_limits(Limits {
        bytes: MAX_DECODER_ALLOC as usize,
    });
    decoder.set_transformations(Transformations::EXPAND);
    let header = decoder.read_header_info().map_err(png_error)?;
    check_source_size(header.width, header.height)?;
    decoder.read_info().map_err(png_error)
}
