//! The size a header declares, read from the bytes before any decoder runs, so that a header over
//! the limits is refused as `too_large` with its size named, whatever the decoder would have said.
//!
//! The decoders check sizes too, but word them as format errors: the `image` crate's BMP decoder
//! (also used for ICO entries) refuses a side over 65535 as "Image too large", a `Decoding` error,
//! and `image-webp` refuses a VP8X canvas whose pixel count overflows a `u32` the same way — both
//! `corrupt` before [`check_source_size`](crate::limits::check_source_size) ever saw the size.
//! Only the fields that name the size are read here; anything else about the file is the
//! decoder's to judge, so a header too short to hold them is left to it.
//!
//! PNG needs nothing here (`decode::png` checks `IHDR` before reading on), and a JPEG frame header
//! holds 16-bit sides that the check after the decoder opens names correctly.

use crate::error::{Error, ErrorCode, Result};
use crate::limits::{refuse_over_limits, MAX_SOURCE_SIDE};
use crate::raster::format::SourceFormat;

/// An image's declared size: no pixels is `corrupt` (as [`check_source_size`] says it: the BMP
/// decoder called a zero width an unsupported "too large" size), over the limits `too_large`.
///
/// [`check_source_size`]: crate::limits::check_source_size
fn check_image(width: u64, height: u64) -> Result<()> {
    if width == 0 || height == 0 {
        return Err(Error::new(
            ErrorCode::Corrupt,
            "Cannot decode image: corrupt data (zero width or height)",
        ));
    }
    refuse_over_limits(width, height, "")
}

fn u16_le(bytes: &[u8], at: usize) -> Option<u64> {
    Some(u64::from(u16::from_le_bytes(
        bytes.get(at..at + 2)?.try_into().ok()?,
    )))
}

fn u24_le(bytes: &[u8], at: usize) -> Option<u64> {
    let b = bytes.get(at..at + 3)?;
    Some(u64::from(b[0]) | u64::from(b[1]) << 8 | u64::from(b[2]) << 16)
}

fn u32_le(bytes: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_le_bytes(bytes.get(at..at + 4)?.try_into().ok()?))
}

fn i32_le(bytes: &[u8], at: usize) -> Option<i32> {
    Some(i32::from_le_bytes(bytes.get(at..at + 4)?.try_into().ok()?))
}

/// Width and height of a DIB (a BMP's info header, or an ICO entry) starting at `dib`: 16-bit
/// sides in a 12-byte core header, 32-bit signed ones in the longer headers the decoder knows (a
/// negative height is top-down). An unknown header or a negative width is left to the decoder (a
/// format error, not a size).
fn dib_size(bytes: &[u8], dib: usize) -> Option<(u64, u64)> {
    match u32_le(bytes, dib)? {
        12 => Some((u16_le(bytes, dib + 4)?, u16_le(bytes, dib + 6)?)),
        40 | 52 | 56 | 108 | 124 => {
            let width = i32_le(bytes, dib + 4)?;
            let height = i32_le(bytes, dib + 8)?;
            (width >= 0).then(|| (u64::from(width as u32), u64::from(height.unsigned_abs())))
        }
        _ => None,
    }
}

/// A WebP's size from its first chunk: the VP8X canvas (24-bit sides), a VP8L header (14-bit
/// sides) or a VP8 key frame (14-bit sides and 2 bits of scale).
fn webp_size(bytes: &[u8]) -> Option<(u64, u64)> {
    let data = 20;
    match bytes.get(12..16)? {
        b"VP8X" => Some((u24_le(bytes, data + 4)? + 1, u24_le(bytes, data + 7)? + 1)),
        b"VP8L" if bytes.get(data) == Some(&0x2f) => {
            let bits = u64::from(u32_le(bytes, data + 1)?);
            Some(((bits & 0x3fff) + 1, ((bits >> 14) & 0x3fff) + 1))
        }
        b"VP8 " if bytes.get(data + 3..data + 6) == Some(&[0x9d, 0x01, 0x2a]) => Some((
            u16_le(bytes, data + 6)? & 0x3fff,
            u16_le(bytes, data + 8)? & 0x3fff,
        )),
        _ => None,
    }
}

/// The size of a GIF's first frame: its image descriptor's, after the extensions before it.
fn gif_first_frame(bytes: &[u8]) -> Option<(u64, u64)> {
    let table = |flags: u8| {
        if flags & 0x80 != 0 {
            3usize << ((flags & 7) + 1)
        } else {
            0
        }
    };
    let mut at = 13 + table(*bytes.get(10)?);
    loop {
        match *bytes.get(at)? {
            0x21 => {
                at += 2; // introducer and label, then sub-blocks up to an empty one
                loop {
                    let length = usize::from(*bytes.get(at)?);
                    at += 1 + length;
                    if length == 0 {
                        break;
                    }
                }
            }
            0x2c => return Some((u16_le(bytes, at + 5)?, u16_le(bytes, at + 7)?)),
            _ => return None,
        }
    }
}

/// Refuses `bytes` (a `format` file, an ICO holding its chosen BMP entry) whose header declares a
/// size over the limits, as `too_large` naming that size, or no pixels (`corrupt`). Says nothing
/// of any other fault.
pub fn check_declared_size(format: SourceFormat, bytes: &[u8]) -> Result<()> {
    match format {
        SourceFormat::Bmp => {
            if let Some((width, height)) = dib_size(bytes, 14) {
                check_image(width, height)?;
            }
        }
        SourceFormat::Ico => {
            // The entry the decoder will read: the first (the only one, see `ico_select`).
            let entry = u32_le(bytes, 18).and_then(|offset| usize::try_from(offset).ok());
            if let Some((width, stored)) = entry.and_then(|at| dib_size(bytes, at)) {
                // An entry's DIB stores twice its height (the AND mask follows the colours), and
                // the decoder limits that stored height to 65535.
                let height = stored / 2;
                check_image(width, height)?;
                if stored > u64::from(MAX_SOURCE_SIDE) {
                    let limit = MAX_SOURCE_SIDE / 2;
                    return Err(Error::new(
                        ErrorCode::TooLarge,
                        format!(
                            "Cannot decode image: {width}×{height} exceeds the {limit}-px height limit of an ICO entry"
                        ),
                    ));
                }
            }
        }
        SourceFormat::WebP => {
            if let Some((width, height)) = webp_size(bytes) {
                check_image(width, height)?;
            }
        }
        SourceFormat::Gif => {
            if let Some((width, height)) = u16_le(bytes, 6).zip(u16_le(bytes, 8)) {
                check_image(width, height)?;
            }
            // A frame is drawn onto the screen, but decoded at its own size first.
            if let Some((width, height)) = gif_first_frame(bytes) {
                refuse_over_limits(width, height, "a frame of ")?;
            }
        }
        SourceFormat::Png | SourceFormat::Jpeg => {}
    }
    Ok(())
}
