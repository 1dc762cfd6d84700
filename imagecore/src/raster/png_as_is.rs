//! A PNG source kept as it came, minus the chunks imagecore does not read: what `renditions`
//! stores as the source rendition instead of re-encoding the same pixels.
//!
//! Re-encoding a PNG that needs no resize spends most of an import's CPU (the deflate) to write
//! the pixels it was given, in about as many bytes. So when the source is a PNG of the size the
//! source rendition would have, 8 bits a sample or fewer, not interlaced, with no EXIF rotation,
//! its chunks are copied instead: `IHDR`, `PLTE`, `tRNS`, `IDAT` and `IEND`, each with its CRC
//! checked. Everything else is dropped — text and EXIF (which could carry private data and which a
//! browser might read), colour profiles and gamma (which imagecore ignores, so a browser showing
//! the stored source agrees with every rendering made from it), animation chunks (only the first
//! frame, the `IDAT` image, is ever decoded).
//!
//! The copy decodes to the same pixels as the input: imagecore's PNG decoder (`decode::png`) reads
//! only the kept chunks. The chunk framing is walked here (a length, a type, the data, a CRC: the
//! only structure needed; the `png` crate has already decoded the same bytes) by
//! `decode::png_chunks`, whose CRC is zlib-rs's, the one the encoder uses.

use crate::raster::decode::png::PngSource;
use crate::raster::decode::png_chunks::{next_chunk, SIGNATURE};

/// Chunk types kept: all a decoder needs for the first image's pixels.
const KEPT: [&[u8; 4]; 5] = [b"IHDR", b"PLTE", b"tRNS", b"IDAT", b"IEND"];
/// Largest size a kept PNG may have, in bytes per pixel (half of RGBA8): a PNG stored with little
/// or no compression is re-encoded rather than kept at its size.
const MAX_BYTES_PER_PIXEL: usize = 2;

/// The chunks of `input` a decoder reads, when `input` is a PNG that can be stored as it is;
/// `None` when it must be re-encoded (another format, more than 8 bits a sample, interlaced,
/// rotated by EXIF, stored with almost no compression, or framing that does not check out).
pub fn png_as_is(input: &[u8]) -> Option<Vec<u8>> {
    let rest = input.strip_prefix(SIGNATURE)?;
    let source = PngSource::open(input).ok()?;
    if !source.stores_as_is() {
        return None;
    }
    let (width, height) = source.dimensions();
    let limit = (width as usize * height as usize).saturating_mul(MAX_BYTES_PER_PIXEL);
    let mut out = Vec::with_capacity(input.len().min(limit));
    out.extend_from_slice(SIGNATURE);
    let mut at = 0;
    loop {
        let (kind, chunk) = next_chunk(rest, at)?;
        at += chunk.len();
        if KEPT.contains(&kind) {
            out.extend_from_slice(chunk);
            if out.len() > limit {
                return None;
            }
        }
        if kind == b"IEND" {
            return Some(out);
        }
    }
}
