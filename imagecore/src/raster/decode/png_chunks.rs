//! PNG chunk framing (a length, a type, the data, a CRC) walked with zlib-rs's CRC-32, for
//! `png_as_is` and for the PNG decoder's checksum pass.
//!
//! Why the decoder checks CRCs here: the `png` crate's own check (crc32fast's table-driven CRC,
//! which has no SIMD path on wasm32) runs at 1.34 ms per 2.5 MB in WASM, zlib-rs's braided CRC at
//! 0.96 ms (bench/results/2026-12-02-grey-worst.md). So `decode::png` checks every chunk the `png`
//! crate reads for pixels here first and, when all match, decodes with the crate's CRC turned off;
//! when any does not, or the framing cannot be followed, it decodes with the crate's CRC on, which
//! refuses (or skips a bad ancillary chunk) exactly as before.

/// The PNG signature.
pub const SIGNATURE: &[u8; 8] = b"\x89PNG\r\n\x1a\n";

/// The chunk starting at `at` in `bytes` (the bytes after the signature): its type, and the whole
/// chunk with its length and CRC, when it is whole and its CRC matches.
pub fn next_chunk(bytes: &[u8], at: usize) -> Option<(&[u8; 4], &[u8])> {
    let length_bytes: [u8; 4] = bytes.get(at..at.checked_add(4)?)?.try_into().ok()?;
    let length = u32::from_be_bytes(length_bytes) as usize;
    let end = at.checked_add(12)?.checked_add(length)?;
    let chunk = bytes.get(at..end)?;
    let kind: &[u8; 4] = chunk.get(4..8)?.try_into().ok()?;
    let crc_bytes: [u8; 4] = chunk.get(8 + length..)?.try_into().ok()?;
    let crc = zlib_rs::crc32::crc32(0, chunk.get(4..8 + length)?);
    (crc == u32::from_be_bytes(crc_bytes)).then_some((kind, chunk))
}

/// Whether every chunk of the PNG `png` that a decode of its first image reads — those before the
/// first `IDAT`, and the run of `IDAT` chunks — is whole and has a matching CRC. `false` as well
/// when there is no signature or no `IDAT`, or a chunk is cut.
pub fn pixel_chunks_check_out(png: &[u8]) -> bool {
    let Some(rest) = png.strip_prefix(SIGNATURE) else {
        return false;
    };
    let mut at = 0usize;
    let mut in_image_data = false;
    loop {
        // The next chunk's type, read without checking it, so the run ends at its first
        // non-IDAT chunk (which the decoder stops before) even when that one is cut.
        let kind = at.checked_add(8).and_then(|end| rest.get(at + 4..end));
        if in_image_data && kind != Some(b"IDAT".as_slice()) {
            return true;
        }
        let Some((kind, chunk)) = next_chunk(rest, at) else {
            return false;
        };
        if kind == b"IEND" {
            return false;
        }
        in_image_data = kind == b"IDAT";
        at += chunk.len();
    }
}
