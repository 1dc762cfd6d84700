//! How hard the PNG encoder works for fewer bytes: the deflate settings of each choice.
//!
//! Both choices write the same pixels in the same PNG colour type; only the deflate stream
//! differs. Either way, a photo's noisy filtered rows are run-length coded (`png_deflate`), at
//! any level. Figures (bytes and ms of each zlib-rs level on the benchmark logos) are printed by
//! `deno task bench` and recorded in bench/README.md.

use crate::error::{Error, ErrorCode, Result};
use zlib_rs::Strategy;

/// Outputs up to this many pixels get level 9 under [`Effort::Small`]; larger ones level 6.
const SMALL_OUTPUT_PIXELS: usize = 512 * 512;

/// The encoder's effort: time against bytes. Pixels are identical either way.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Effort {
    /// Renders made on request: the deflate level with the best bytes per millisecond.
    #[default]
    Fast,
    /// Renditions stored once and served many times: the fewest bytes (zlib level 9 up to 512²
    /// pixels, level 6 above, where 9 costs much more time for little gain).
    Small,
    /// An explicit zlib level from 1 to 9, for benchmarks that compare levels.
    Level(u8),
}

/// A zlib-rs deflate level and strategy.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DeflateSettings {
    /// zlib level, 1 (fastest) to 9 (smallest).
    pub level: i32,
    /// zlib strategy.
    pub strategy: Strategy,
}

impl Effort {
    /// The ABI code's effort: 0 fast, 1 small, 11–19 level 1–9.
    pub fn from_code(code: u8) -> Result<Self> {
        match code {
            0 => Ok(Effort::Fast),
            1 => Ok(Effort::Small),
            11..=19 => Ok(Effort::Level(code - 10)),
            _ => Err(Error::new(
                ErrorCode::InvalidArgument,
                "Cannot encode image: unknown effort",
            )),
        }
    }

    /// The deflate settings for an image of `pixels` pixels.
    pub fn deflate(self, pixels: usize) -> DeflateSettings {
        let level = match self {
            Effort::Fast => FAST_LEVEL,
            Effort::Small if pixels <= SMALL_OUTPUT_PIXELS => 9,
            Effort::Small => 6,
            Effort::Level(level) => i32::from(level.clamp(1, 9)),
        };
        DeflateSettings {
            level,
            strategy: Strategy::Default,
        }
    }
}

/// The level of [`Effort::Fast`].
const FAST_LEVEL: i32 = 6;
