//! A PNG image's scanlines, filtered or not, deflated (zlib format) a batch of rows at a time
//! straight into zlib-rs's stream, so no copy of the whole image is made.
//!
//! The level comes from the encoder's [`Effort`](crate::raster::encode::effort::Effort); the
//! strategy from the rows: filtered rows that are noisy, a photo's residuals, where a match search
//! finds little, are run-length coded ([`NOISY_ZERO_PERCENT`]).

use crate::error::{Error, ErrorCode, Result};
use crate::raster::encode::effort::DeflateSettings;
use crate::raster::encode::png_filter::choose_filter;
use zlib_rs::{Deflate, DeflateConfig, DeflateFlush, Status, Strategy};

/// Bytes of scanlines handed to deflate per call (whole rows, at least one).
const BATCH_BYTES: usize = 16 * 1024;

/// Filtered rows whose first batch has fewer zero bytes than this percentage are noisy (a photo's
/// residuals), and deflate with zlib's run-length strategy instead of its match search. On the
/// benchmark's renders at 128 px (`cargo run --release --example png_deflate_table`;
/// bench/results/2026-12-02-png-rle.md), the filtered photos' scanlines are 10–28 % zeros, the
/// filtered gradients' 50–57 %; run-length coding writes the photos in 1–5 % fewer bytes than the
/// match search at level 6, in 53–73 % of its time natively (60–65 % in WASM), and in 3–13 % fewer
/// than level 9; the gradients it would write 14–28 % larger.
const NOISY_ZERO_PERCENT: usize = 40;

/// Whether filtered scanlines (each a filter-type byte and its row) are noisy: see
/// [`NOISY_ZERO_PERCENT`].
fn noisy(scanlines: &[u8]) -> bool {
    let zeros = scanlines.iter().filter(|&&b| b == 0).count();
    zeros * 100 < scanlines.len() * NOISY_ZERO_PERCENT
}

fn deflate_failed(what: impl std::fmt::Debug) -> Error {
    Error::new(
        ErrorCode::Internal,
        format!("Cannot encode image: deflate failed ({what:?})"),
    )
}

/// How the rows are filtered.
#[doc(hidden)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Filtering {
    /// Every row unfiltered (filter type 0).
    None,
    /// Each row with the filter [`choose_filter`] picks, `bpp` bytes a pixel.
    Adaptive {
        /// Bytes per pixel (1 for palette and low bit depths).
        bpp: usize,
    },
}

/// Deflates (zlib format) the scanlines of `height` rows of `row_bytes` bytes each, each row
/// preceded by its filter type; `fill(y, row)` writes row `y`'s bytes. `rle` forces run-length
/// coding on or off where `Some` (for the deflate table example); `None` decides by [`noisy`].
pub fn deflate_rows(
    settings: DeflateSettings,
    rle: Option<bool>,
    row_bytes: usize,
    height: usize,
    filtering: Filtering,
    mut fill: impl FnMut(usize, &mut [u8]),
) -> Result<Vec<u8>> {
    let line = row_bytes + 1;
    let rows_per_batch = (BATCH_BYTES / line).clamp(1, height.max(1));
    let mut batch = vec![0u8; rows_per_batch * line];
    // Adaptive filtering: the raw row above and this raw row.
    let adaptive = matches!(filtering, Filtering::Adaptive { .. });
    let len = if adaptive { row_bytes } else { 0 };
    let (mut prev, mut raw) = (vec![0u8; len], vec![0u8; len]);
    // Made once the first batch is filtered: its strategy depends on it ([`noisy`]).
    let mut stream: Option<Deflate> = None;
    let mut out = vec![0u8; (height * line / 8).max(256)];
    let mut written = 0usize;
    let mut y = 0;
    loop {
        let rows = rows_per_batch.min(height - y);
        for (i, scanline) in batch.chunks_exact_mut(line).take(rows).enumerate() {
            match filtering {
                Filtering::None => fill(y + i, &mut scanline[1..]),
                Filtering::Adaptive { bpp } => {
                    fill(y + i, &mut raw);
                    let (kind, bytes) = scanline.split_at_mut(1);
                    kind[0] = choose_filter(bpp, &prev, &raw, bytes) as u8;
                    std::mem::swap(&mut prev, &mut raw);
                }
            }
        }
        y += rows;
        let flush = if y == height {
            DeflateFlush::Finish
        } else {
            DeflateFlush::NoFlush
        };
        let input = &batch[..rows * line];
        let stream = stream.get_or_insert_with(|| {
            let strategy = match rle.unwrap_or(adaptive && noisy(input)) {
                true => Strategy::Rle,
                false => settings.strategy,
            };
            Deflate::new_with_config(DeflateConfig {
                level: settings.level,
                strategy,
                ..DeflateConfig::default()
            })
        });
        let mut consumed = 0usize;
        loop {
            if written == out.len() {
                out.resize(out.len() * 2, 0);
            }
            let (before_in, before_out) = (stream.total_in(), stream.total_out());
            let status = stream
                .compress(&input[consumed..], &mut out[written..], flush)
                .map_err(deflate_failed)?;
            consumed += (stream.total_in() - before_in) as usize;
            written += (stream.total_out() - before_out) as usize;
            let done = match flush {
                DeflateFlush::Finish => status == Status::StreamEnd,
                _ => consumed == input.len() && written < out.len(),
            };
            if done {
                break;
            }
        }
        if y == height {
            out.truncate(written);
            return Ok(out);
        }
    }
}
