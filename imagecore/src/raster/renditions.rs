//! Several renditions of one source from a single decode: what `logo import` stores.
//!
//! The source is decoded once and resized to the `source` rendition's width; every other
//! rendition is resized from those pixels (not from the encoded source, so nothing is decoded
//! twice). Each is encoded as PNG at the small effort (`encode`'s setting) — except a PNG source
//! that needs no resize, which is kept as it came minus the chunks no decoder here reads
//! (`png_as_is`): the same pixels, without the deflate that was most of an import's CPU.
//!
//! The bytes of a further rendition equal those of `transform(source rendition, width)` at that
//! effort, whichever way the source rendition was made: transparent pixels weigh nothing in the
//! premultiplied resize, so the normalisation the PNG encoder applies changes no output, and each
//! further rendition is resized from the source rendition's pixels after a resize's faint colours
//! were made canonical (`encode::faint_colours`, as `transform` does after a resize). An encoded
//! source rendition equals `transform(input, source width)`.

use crate::error::{Error, ErrorCode, Result};
use crate::geometry::output_size;
use crate::raster::decode::decode;
use crate::raster::encode::encode;
use crate::raster::encode::faint_colours::snap_faint_colours;
use crate::raster::format::OutputFormat;
use crate::raster::pipeline::Output;
use crate::raster::png_as_is::png_as_is;
use crate::raster::resize::resize;

/// Most further widths one call takes.
pub const MAX_EXTRA_WIDTHS: usize = 8;

/// Bytes before the images in [`pack`]'s result: the rendition count as u32 LE.
pub const PACKED_HEADER_LEN: usize = 4;
/// Bytes per rendition after that: width, height and byte length, each u32 LE.
pub const PACKED_ENTRY_LEN: usize = 12;

/// Encodes a rendition whose faint colours are already canonical (`snap_faint_colours`).
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
/// decoded. With `keep_png`, a PNG input that needs no resize is the source rendition as it came
/// (`png_as_is`); without it (for a PNG imagecore made itself, such as a rasterised SVG, whose
/// encoding was not chosen for storage) the source rendition is always encoded.
///
/// # Errors
/// The decoder's refusals (`unsupported_format`, `corrupt`, `too_large`), and `invalid_argument`
/// for a width of 0 or over the output limit, or more than [`MAX_EXTRA_WIDTHS`] widths.
pub fn renditions(
    input: &[u8],
    source_width: u32,
    widths: &[u32],
    keep_png: bool,
) -> Result<Vec<Output>> {
    if widths.len() > MAX_EXTRA_WIDTHS {
        return Err(Error::new(
            ErrorCode::InvalidArgument,
            format!("Cannot render renditions: at most {MAX_EXTRA_WIDTHS} widths"),
        ));
    }
    let (source, (width, height, sizes, same_size)) = decode(input, |src_width, src_height| {
        let (width, height) = output_size(src_width, src_height, source_width)?;
        let sizes = widths
            .iter()
            .map(|&w| output_size(width, height, w))
            .collect::<Result<Vec<_>>>()?;
        Ok((
            width,
            height,
            sizes,
            (width, height) == (src_width, src_height),
        ))
    })?;
    let kept = if keep_png && same_size {
        png_as_is(input)
    } else {
        None
    };
    let mut base = resize(source.pixels, source.width, source.height, width, height)?;
    // A resized source rendition is snapped (as `transform` snaps a resize) before the further
    // renditions are resized from it, so they are made from the pixels it stores.
    if !same_size {
        snap_faint_colours(&mut base);
    }
    let mut others = Vec::with_capacity(sizes.len());
    let last = sizes.len().checked_sub(1);
    for (i, &(w, h)) in sizes.iter().enumerate() {
        // The PNG encoder normalises the pixels it is given: each further rendition is resized
        // from a copy, except the last one when the source rendition is kept, not encoded.
        let pixels = if kept.is_some() && Some(i) == last {
            std::mem::take(&mut base)
        } else {
            base.clone()
        };
        let mut resized = resize(pixels, width, height, w, h)?;
        snap_faint_colours(&mut resized);
        others.push(png(resized, w, h)?);
    }
    let mut out = Vec::with_capacity(others.len() + 1);
    out.push(match kept {
        Some(bytes) => Output {
            bytes,
            width,
            height,
            format: OutputFormat::Png,
            inverted: false,
        },
        None => png(base, width, height)?,
    });
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
