//! Several renditions of one source from a single decode: what `logo import` stores.
//!
//! The source is decoded once and resized to the `source` rendition's width; every other
//! rendition is resized from those pixels (not from the encoded source, so nothing is decoded
//! twice). Each is encoded as PNG at the small effort (`encode`'s setting). The bytes equal those of
//! `transform(input, source width)` and of `transform(that PNG, width)` for each further width, both
//! at that effort: transparent pixels weigh nothing in the premultiplied resize, so the
//! normalisation the PNG encoder applies changes no output.

use crate::decode::decode;
use crate::encode::encode;
use crate::error::{Error, ErrorCode, Result};
use crate::format::OutputFormat;
use crate::geometry::output_size;
use crate::pipeline::Output;
use crate::resize::resize;

/// Most further widths one call takes.
pub const MAX_EXTRA_WIDTHS: usize = 8;

/// Bytes before the images in [`pack`]'s result: the rendition count as u32 LE.
pub const PACKED_HEADER_LEN: usize = 4;
/// Bytes per rendition after that: width, height and byte length, each u32 LE.
pub const PACKED_ENTRY_LEN: usize = 12;

fn png(mut pixels: Vec<u8>, width: u32, height: u32) -> Result<Output> {
    Ok(Output {
        bytes: encode(&mut pixels, width, height, OutputFormat::Png)?,
        width,
        height,
        format: OutputFormat::Png,
        inverted: false,
    })
}

/// Decodes `input` once and returns PNG renditions: first the source at `source_width` (height
/// keeps the aspect ratio, as `transform` sizes it), then one per entry of `widths`, each resized
/// from the source rendition's pixels. Every size is checked from the header, before any pixel is
/// decoded.
///
/// # Errors
/// The decoder's refusals (`unsupported_format`, `corrupt`, `too_large`), and `invalid_argument`
/// for a width of 0 or over the output limit, or more than [`MAX_EXTRA_WIDTHS`] widths.
pub fn renditions(input: &[u8], source_width: u32, widths: &[u32]) -> Result<Vec<Output>> {
    if widths.len() > MAX_EXTRA_WIDTHS {
        return Err(Error::new(
            ErrorCode::InvalidArgument,
            format!("Cannot render renditions: at most {MAX_EXTRA_WIDTHS} widths"),
        ));
    }
    let (source, (width, height, sizes)) = decode(input, |src_width, src_height| {
        let (width, height) = output_size(src_width, src_height, source_width)?;
        let sizes = widths
            .iter()
            .map(|&w| output_size(width, height, w))
            .collect::<Result<Vec<_>>>()?;
        Ok((width, height, sizes))
    })?;
    let base = resize(source.pixels, source.width, source.height, width, height)?;
    let mut others = Vec::with_capacity(sizes.len());
    // Resized from copies: the PNG encoder normalises the pixels it is given.
    for (w, h) in sizes {
        others.push(png(resize(base.clone(), width, height, w, h)?, w, h)?);
    }
    let mut out = Vec::with_capacity(others.len() + 1);
    out.push(png(base, width, height)?);
    out.extend(others);
    Ok(out)
}

/// Packs renditions for the WASM boundary: the count (u32 LE), then width, height and byte length
/// of each (u32 LE), then their bytes one after the other.
pub fn pack(outputs: &[Output]) -> Vec<u8> {
    let body: usize = outputs.iter().map(|o| o.bytes.len()).sum();
    let mut out = Vec::with_capacity(PACKED_HEADER_LEN + PACKED_ENTRY_LEN * outputs.len() + body);
    out.extend_from_slice(&(outputs.len() as u32).to_le_bytes());
    for o in outputs {
        out.extend_from_slice(&o.width.to_le_bytes());
        out.extend_from_slice(&o.height.to_le_bytes());
        out.extend_from_slice(&(o.bytes.len() as u32).to_le_bytes());
    }
    for o in outputs {
        out.extend_from_slice(&o.bytes);
    }
    out
}
