//! Choosing the largest entry of an ICO file.
//!
//! The `image` crate's ICO decoder prefers colour depth over size, so a 16-px 32-bit entry wins
//! over a 256-px 24-bit one. Logos want the largest: this reads the directory, picks the entry with
//! the most pixels (then the most bits per pixel) and hands the decoder a one-entry ICO holding it.

use crate::error::{Error, ErrorCode, Result};
use std::borrow::Cow;

const HEADER_LEN: usize = 6;
const ENTRY_LEN: usize = 16;
const PNG_SIGNATURE: &[u8] = b"\x89PNG\r\n\x1a\n";

fn corrupt(detail: &str) -> Error {
    Error::new(
        ErrorCode::Corrupt,
        format!("Cannot decode image: corrupt data (ICO {detail})"),
    )
}

fn u16_at(bytes: &[u8], at: usize) -> Option<u16> {
    Some(u16::from_le_bytes(bytes.get(at..at + 2)?.try_into().ok()?))
}

fn u32_at(bytes: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_le_bytes(bytes.get(at..at + 4)?.try_into().ok()?))
}

/// Size of an entry in pixels: a PNG entry's own header, else the directory's (0 means 256).
fn entry_area(entry: &[u8], data: &[u8]) -> u64 {
    if data.starts_with(PNG_SIGNATURE) {
        let width = data
            .get(16..20)
            .map(|b| u32::from_be_bytes([b[0], b[1], b[2], b[3]]));
        let height = data
            .get(20..24)
            .map(|b| u32::from_be_bytes([b[0], b[1], b[2], b[3]]));
        if let (Some(w), Some(h)) = (width, height) {
            return u64::from(w) * u64::from(h);
        }
    }
    let side = |b: u8| if b == 0 { 256u64 } else { u64::from(b) };
    side(entry[0]) * side(entry[1])
}

/// The largest entry of an ICO, ready for a decoder.
pub enum Entry<'a> {
    /// A PNG entry: its bytes, decoded as a PNG of any colour type (the `image` crate's ICO
    /// decoder accepts only RGBA PNGs whose size matches the directory, which favicons often
    /// break).
    Png(&'a [u8]),
    /// A BMP entry, as a one-entry ICO for the `image` crate's ICO decoder (it applies the mask).
    Ico(Cow<'a, [u8]>),
}

/// Returns the largest entry of `input`: the most pixels, then the most bits per pixel.
pub fn largest_entry(input: &[u8]) -> Result<Entry<'_>> {
    let count = usize::from(u16_at(input, 4).ok_or_else(|| corrupt("header truncated"))?);
    if count == 0 {
        return Err(corrupt("has no entries"));
    }
    let mut best: Option<(u64, u16, &[u8], &[u8])> = None;
    for index in 0..count {
        let start = HEADER_LEN + index * ENTRY_LEN;
        let entry = input
            .get(start..start + ENTRY_LEN)
            .ok_or_else(|| corrupt("directory truncated"))?;
        let bits = u16_at(entry, 6).unwrap_or(0);
        let size = u32_at(entry, 8).unwrap_or(0) as usize;
        let offset = u32_at(entry, 12).unwrap_or(0) as usize;
        let Some(data) = offset
            .checked_add(size)
            .and_then(|end| input.get(offset..end))
        else {
            continue; // an entry pointing outside the file is skipped, not trusted
        };
        let area = entry_area(entry, data);
        let better = match best {
            None => true,
            Some((best_area, best_bits, _, _)) => (area, bits) > (best_area, best_bits),
        };
        if better {
            best = Some((area, bits, entry, data));
        }
    }
    let (_, _, entry, data) = best.ok_or_else(|| corrupt("entries point outside the file"))?;
    if data.starts_with(PNG_SIGNATURE) {
        return Ok(Entry::Png(data));
    }
    if count == 1 {
        return Ok(Entry::Ico(Cow::Borrowed(input)));
    }
    let mut out = Vec::with_capacity(HEADER_LEN + ENTRY_LEN + data.len());
    out.extend_from_slice(&[0, 0, 1, 0, 1, 0]);
    out.extend_from_slice(&entry[..12]);
    out.extend_from_slice(&((HEADER_LEN + ENTRY_LEN) as u32).to_le_bytes());
    out.extend_from_slice(data);
    Ok(Entry::Ico(Cow::Owned(out)))
}
