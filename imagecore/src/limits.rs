//! Refusal limits, checked before any pixel buffer is allocated.

/// Largest accepted input, in bytes.
pub const MAX_INPUT_BYTES: usize = 10 * 1024 * 1024;
/// Largest accepted source, in pixels, read from the header.
pub const MAX_SOURCE_PIXELS: u64 = 40_000_000;
/// Largest output side, in pixels.
pub const MAX_OUTPUT_SIDE: u32 = 4096;
/// Most memory a decoder may allocate (`image::Limits::max_alloc`).
pub const MAX_DECODER_ALLOC: u64 = 512 * 1024 * 1024;
/// Largest side a decoder may report (`image::Limits::max_image_width/height`).
pub const MAX_SOURCE_SIDE: u32 = 65_535;
