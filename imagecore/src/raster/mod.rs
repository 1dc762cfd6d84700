//! The request-path module (feature `raster`): decode → resize → greyscale → theme → encode, and
//! the renditions `logo import` stores from one decode.
//!
//! - [`decode`]: any supported source to RGBA8 within the limits ([`format`] recognises it).
//! - [`resize`]: Lanczos3 on premultiplied alpha, and the greyscale resize on two channels.
//! - [`crate::colour`] (shared with the SVG module): greyscale and theme.
//! - [`encode`]: PNG (smallest exact colour type), lossless WebP, JPEG.
//! - [`pipeline`] and [`renditions`] run the stages; [`exports`] is what the WASM module exports.

pub mod decode;
pub mod encode;
pub mod exports;
pub mod format;
pub mod grey_pairs;
mod image_error;
pub mod pipeline;
pub mod png_as_is;
pub mod renditions;
pub mod resize;
pub mod rgba;
pub mod stage_times;
