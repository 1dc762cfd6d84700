//! Refusal limits, checked before any pixel buffer is allocated.
//!
//! `mod.ts` mirrors the first three in its `LIMITS` constant; `tools/build.ts` caps the WASM
//! module's linear memory so that a decoder that escapes these limits traps instead of growing
//! the host's heap.

use crate::error::{Error, ErrorCode, Result};

/// Largest accepted input, in bytes.
pub const MAX_INPUT_BYTES: usize = 10 * 1024 * 1024;
/// Largest accepted source, in pixels, read from the header: 16.8 MP, imgproxy's default
/// `max_src_resolution` (4096×4096 fits; logos are far smaller).
pub const MAX_SOURCE_PIXELS: u64 = 16_800_000;
/// Largest output side, in pixels. An output that would be taller is narrowed to fit
/// (see [`crate::geometry::output_size`]).
pub const MAX_OUTPUT_SIDE: u32 = 4096;
/// Most memory a decoder may allocate besides the caller's pixel buffer
/// (`image::Limits::max_alloc`, `png::Limits::bytes`): one RGBA8 frame of the largest source,
/// which bounds a GIF frame larger than its screen and any chunk a PNG decoder buffers.
pub const MAX_DECODER_ALLOC: u64 = MAX_SOURCE_PIXELS * 4;
/// Largest side a decoder may report (`image::Limits::max_image_width/height`).
pub const MAX_SOURCE_SIDE: u32 = 65_535;

/// Refuses a source whose header declares no pixels (`corrupt`) or more than
/// [`MAX_SOURCE_PIXELS`] or a side over [`MAX_SOURCE_SIDE`] (`too_large`, see
/// [`refuse_over_limits`]).
///
/// ```
/// use imagecore::limits::check_source_size;
/// assert!(check_source_size(4096, 4096).is_ok());
/// assert!(check_source_size(6000, 6000).is_err());
/// ```
pub fn check_source_size(width: u32, height: u32) -> Result<()> {
    if width == 0 || height == 0 {
        return Err(Error::new(
            ErrorCode::Corrupt,
            "Cannot decode image: corrupt data (zero width or height)",
        ));
    }
    refuse_over_limits(u64::from(width), u64::from(height), "")
}

/// Refuses a declared `width`×`height` with a side over [`MAX_SOURCE_SIDE`] or more than
/// [`MAX_SOURCE_PIXELS`], as `too_large` naming the size and the limit it passes ("Cannot decode
/// image: 70000×70000 exceeds the 65535-px limit"); `what` goes before the size ("a frame of ").
/// Zero sides pass: whether they are an error is the decoder's to say.
///
/// ```
/// use imagecore::limits::refuse_over_limits;
/// let error = refuse_over_limits(70_000, 70_000, "").unwrap_err();
/// assert_eq!(error.message, "Cannot decode image: 70000×70000 exceeds the 65535-px limit");
/// assert!(refuse_over_limits(4096, 4096, "").is_ok());
/// ```
pub fn refuse_over_limits(width: u64, height: u64, what: &str) -> Result<()> {
    let limit = if width.max(height) > u64::from(MAX_SOURCE_SIDE) {
        format!("{MAX_SOURCE_SIDE}-px")
    } else if width.saturating_mul(height) > MAX_SOURCE_PIXELS {
        format!("{MAX_SOURCE_PIXELS}-pixel")
    } else {
        return Ok(());
    };
    Err(Error::new(
        ErrorCode::TooLarge,
        format!("Cannot decode image: {what}{width}×{height} exceeds the {limit} limit"),
    ))
}
