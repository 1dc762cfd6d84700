//! PNG encoding in the smallest exact colour type for logos.
//!
//! Fully transparent pixels are normalised to transparent black (invisible, and it compresses
//! better), then the image is written as a palette (1, 2, 4 or 8 bits, with tRNS) when it has at
//! most 256 distinct colours (a grey image only up to 16), else as grey, grey+alpha, RGB or RGBA —
//! whichever holds it exactly. One pass over the pixels finds the colour type, the palette indices
//! and how many pixels repeat their left neighbour; rows are filtered (`png_filter`) only when few
//! do, as in a photo or a gradient, and unfiltered otherwise. The scanlines are then
//! made a batch of rows at a time straight into zlib-rs's deflate stream (`png_deflate`: the level
//! from [`Effort`], run-length coding for a photo's filtered rows), so no full copy of the image
//! is made. `png` writes the chunks around the stream.

use crate::error::{Error, ErrorCode, Result};
use crate::raster::encode::effort::Effort;
use crate::raster::encode::png_deflate::{deflate_rows, Filtering};
use png::{BitDepth, ColorType};

/// Rows of an image without a palette are filtered (`png_filter::choose_filter`) when fewer than this
/// percentage of its pixels repeat the pixel before them: photo-like and gradient renders (0–26 %
/// on the benchmark's inputs at 128 px) deflate 20–64 % smaller filtered, while flat marks, strokes,
/// text and the original logo (30–88 %) deflate 5–30 % larger (measured with
/// `cargo run --release --example png_filter_table`; bench/results/2026-12-01-imagecore-broad-inputs.md).
const REPEAT_PERCENT: usize = 28;

/// Distinct colours of an image with at most 256 of them, in first-seen order.
struct Palette {
    colours: Vec<u32>,
    slots: [(u32, u8); Palette::SLOTS],
}

impl Palette {
    const SLOTS: usize = 1024;

    fn new() -> Self {
        Palette {
            colours: Vec::with_capacity(256),
            slots: [(0, 0); Self::SLOTS],
        }
    }

    fn slot(colour: u32) -> usize {
        (colour.wrapping_mul(0x9E37_79B1) >> 22) as usize
    }

    /// Index of `colour`, adding it if new; `None` once a 257th colour appears.
    fn index_of(&mut self, colour: u32) -> Option<u8> {
        let mut slot = Self::slot(colour);
        loop {
            let (key, index) = self.slots[slot];
            if index != 0 && key == colour {
                return Some(index - 1);
            }
            if index == 0 {
                if self.colours.len() == 256 {
                    return None;
                }
                self.colours.push(colour);
                let index = self.colours.len();
                self.slots[slot] = (colour, index as u8);
                return Some((index - 1) as u8);
            }
            slot = (slot + 1) % Self::SLOTS;
        }
    }
}

/// What the pixels allow.
struct Analysis {
    opaque: bool,
    grey: bool,
    /// Pixels the same as the pixel before them (in row-major order).
    repeats: usize,
    /// Palette indices, one per pixel, when there are at most 256 colours.
    indexed: Option<(Vec<u8>, Vec<u32>)>,
}

/// One pass: makes fully transparent pixels transparent black, and finds what the pixels allow.
fn analyse(pixels: &mut [u8]) -> Analysis {
    let (mut opaque, mut grey) = (true, true);
    let mut palette = Some(Palette::new());
    let mut indices = Vec::with_capacity(pixels.len() / 4);
    let (mut last, mut last_index) = (None, 0u8);
    let (mut previous, mut repeats) = (None, 0usize);
    for pixel in pixels.chunks_exact_mut(4) {
        if pixel[3] == 0 {
            pixel[..3].fill(0);
        }
        opaque &= pixel[3] == 255;
        grey &= pixel[0] == pixel[1] && pixel[1] == pixel[2];
        let colour = u32::from_be_bytes([pixel[0], pixel[1], pixel[2], pixel[3]]);
        repeats += usize::from(previous == Some(colour));
        previous = Some(colour);
        if let Some(table) = palette.as_mut() {
            if last != Some(colour) {
                match table.index_of(colour) {
                    Some(index) => last_index = index,
                    None => {
                        palette = None;
                        indices = Vec::new();
                        continue;
                    }
                }
                last = Some(colour);
            }
            indices.push(last_index);
        }
    }
    Analysis {
        opaque,
        grey,
        repeats,
        indexed: palette.map(|table| (indices, table.colours)),
    }
}

fn bit_depth_for(colours: usize) -> u8 {
    match colours {
        0..=2 => 1,
        3..=4 => 2,
        5..=16 => 4,
        _ => 8,
    }
}

/// Orders the palette with translucent entries first (so tRNS stays short) and remaps indices.
fn palette_chunks(indices: &mut [u8], colours: &[u32]) -> (Vec<u8>, Vec<u8>) {
    let mut order: Vec<usize> = (0..colours.len()).collect();
    order.sort_by_key(|&i| (colours[i] & 0xff == 0xff, i));
    let mut remap = [0u8; 256];
    for (new, &old) in order.iter().enumerate() {
        remap[old] = new as u8;
    }
    for index in indices.iter_mut() {
        *index = remap[usize::from(*index)];
    }
    let mut plte = Vec::with_capacity(order.len() * 3);
    let mut trns = Vec::new();
    for &old in &order {
        let [r, g, b, a] = colours[old].to_be_bytes();
        plte.extend_from_slice(&[r, g, b]);
        if a != 255 {
            trns.push(a);
        }
    }
    (plte, trns)
}

/// Writes `depth`-bit samples of one row of 8-bit `samples` into `out`, most significant first.
fn pack_row(samples: &[u8], depth: u8, out: &mut [u8]) {
    if depth == 8 {
        out.copy_from_slice(samples);
        return;
    }
    let per_byte = usize::from(8 / depth);
    for (byte, group) in out.iter_mut().zip(samples.chunks(per_byte)) {
        let mut packed = 0u8;
        for (i, &sample) in group.iter().enumerate() {
            packed |= sample << (8 - depth as usize * (i + 1));
        }
        *byte = packed;
    }
}

/// Encodes straight-alpha RGBA8 `pixels` as a PNG appended to `out` (what `out` holds already is
/// kept: the caller's header goes there). `pixels` is modified: transparent pixels become
/// transparent black.
pub fn encode_png_into(
    out: &mut Vec<u8>,
    pixels: &mut [u8],
    width: u32,
    height: u32,
    effort: Effort,
) -> Result<()> {
    encode_png_with(out, pixels, width, height, effort, Forced::default())
}

/// The encoder's own choices, each forced on or off where `Some` (for the filter and deflate table
/// examples); `None` (the default) keeps the encoder's choice.
#[doc(hidden)]
#[derive(Debug, Clone, Copy, Default)]
pub struct Forced {
    /// Row filtering.
    pub adaptive: Option<bool>,
    /// A palette.
    pub palette: Option<bool>,
    /// Run-length deflate.
    pub rle: Option<bool>,
}

/// [`encode_png_into`] with some of the encoder's choices [`Forced`].
#[doc(hidden)]
pub fn encode_png_with(
    out: &mut Vec<u8>,
    pixels: &mut [u8],
    width: u32,
    height: u32,
    effort: Effort,
    forced: Forced,
) -> Result<()> {
    let Forced {
        adaptive,
        palette,
        rle,
    } = forced;
    let analysis = analyse(pixels);
    let (w, h) = (width as usize, height as usize);
    // Few repeated pixels: a photo or a gradient, whose rows deflate better filtered.
    let smooth = analysis.repeats * 100 < w * h * REPEAT_PERCENT;
    let rule = |bpp: usize, default: bool| match adaptive.unwrap_or(default && smooth) {
        true => Filtering::Adaptive { bpp },
        false => Filtering::None,
    };
    let settings = effort.deflate(w * h);
    let mut encoder = png::Encoder::new(&mut *out, width, height);
    let idat = match analysis.indexed {
        // Grey images with many shades (opaque or not) deflate better as grey (+ alpha) than as a
        // palette: measured 1,458 against 1,904 B on the flat marks at 128 px.
        Some((mut indices, colours))
            if palette.unwrap_or(!(analysis.grey && colours.len() > 16)) =>
        {
            let depth = bit_depth_for(colours.len());
            let (plte, trns) = palette_chunks(&mut indices, &colours);
            encoder.set_color(ColorType::Indexed);
            encoder.set_depth(match depth {
                1 => BitDepth::One,
                2 => BitDepth::Two,
                4 => BitDepth::Four,
                _ => BitDepth::Eight,
            });
            encoder.set_palette(plte);
            if !trns.is_empty() {
                encoder.set_trns(trns);
            }
            let row_bytes = w.div_ceil(usize::from(8 / depth));
            deflate_rows(settings, rle, row_bytes, h, rule(1, false), |y, row| {
                pack_row(&indices[y * w..(y + 1) * w], depth, row)
            })?
        }
        // Rows are unfiltered unless few pixels repeat (REPEAT_PERCENT): logos are flat colour and
        // sharp edges, where row filters add entropy; photos and gradients are not.
        _ => {
            let (colour, channels): (ColorType, &[usize]) = match (analysis.grey, analysis.opaque) {
                (true, true) => (ColorType::Grayscale, &[0]),
                (true, false) => (ColorType::GrayscaleAlpha, &[0, 3]),
                (false, true) => (ColorType::Rgb, &[0, 1, 2]),
                (false, false) => (ColorType::Rgba, &[0, 1, 2, 3]),
            };
            encoder.set_color(colour);
            encoder.set_depth(BitDepth::Eight);
            let n = channels.len();
            deflate_rows(settings, rle, w * n, h, rule(n, true), |y, row| {
                let source = &pixels[y * w * 4..(y + 1) * w * 4];
                if n == 4 {
                    row.copy_from_slice(source);
                    return;
                }
                for (to, pixel) in row.chunks_exact_mut(n).zip(source.chunks_exact(4)) {
                    for (sample, &c) in to.iter_mut().zip(channels) {
                        *sample = pixel[c];
                    }
                }
            })?
        }
    };
    let failed = |e: png::EncodingError| {
        Error::new(ErrorCode::Internal, format!("Cannot encode image: {e}"))
    };
    let mut writer = encoder.write_header().map_err(failed)?;
    writer
        .write_chunk(png::chunk::IDAT, &idat)
        .map_err(failed)?;
    writer.finish().map_err(failed)
}

/// Encodes straight-alpha RGBA8 `pixels` (modified: transparent pixels become transparent black)
/// as a PNG of its own.
pub fn encode_png(pixels: &mut [u8], width: u32, height: u32, effort: Effort) -> Result<Vec<u8>> {
    let mut out = Vec::new();
    encode_png_into(&mut out, pixels, width, height, effort)?;
    Ok(out)
}
