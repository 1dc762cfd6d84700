//! PNG encoding in the smallest exact colour type for logos.
//!
//! Fully transparent pixels are normalised to transparent black (invisible, and it compresses
//! better), then the image is written as a palette (1, 2, 4 or 8 bits, with tRNS) when it has at
//! most 256 distinct colours, else as grey, grey+alpha, RGB or RGBA — whichever holds it exactly.
//! Deflate is zlib-rs at level 9 for outputs up to 512² pixels, level 6 above.

use crate::error::{Error, ErrorCode, Result};
use png::{BitDepth, ColorType, DeflateCompression, Filter};

/// Outputs up to this many pixels get the strongest deflate level; larger ones a faster level.
const SMALL_OUTPUT_PIXELS: usize = 512 * 512;

/// Distinct colours of an image with at most 256 of them, in first-seen order.
struct Palette {
    colours: Vec<u32>,
    slots: Vec<(u32, u8)>,
}

impl Palette {
    const SLOTS: usize = 1024;

    fn new() -> Self {
        Palette {
            colours: Vec::with_capacity(256),
            slots: vec![(0, 0); Self::SLOTS],
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
    /// Palette indices, one per pixel, when there are at most 256 colours.
    indexed: Option<(Vec<u8>, Vec<u32>)>,
}

fn analyse(pixels: &[u8]) -> Analysis {
    let (mut opaque, mut grey) = (true, true);
    let mut palette = Some(Palette::new());
    let mut indices = Vec::with_capacity(pixels.len() / 4);
    let (mut last, mut last_index) = (None, 0u8);
    for pixel in pixels.chunks_exact(4) {
        opaque &= pixel[3] == 255;
        grey &= pixel[0] == pixel[1] && pixel[1] == pixel[2];
        if let Some(table) = palette.as_mut() {
            let colour = u32::from_be_bytes([pixel[0], pixel[1], pixel[2], pixel[3]]);
            if last != Some(colour) {
                match table.index_of(colour) {
                    Some(index) => last_index = index,
                    None => {
                        palette = None;
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

/// Packs 8-bit samples into rows of `depth`-bit samples, most significant bits first.
fn pack(samples: &[u8], width: usize, depth: u8) -> Vec<u8> {
    if depth == 8 {
        return samples.to_vec();
    }
    let per_byte = usize::from(8 / depth);
    let row_bytes = width.div_ceil(per_byte);
    let mut out = Vec::with_capacity(row_bytes * samples.len() / width.max(1));
    for row in samples.chunks_exact(width) {
        for group in row.chunks(per_byte) {
            let mut byte = 0u8;
            for (i, &sample) in group.iter().enumerate() {
                byte |= sample << (8 - depth as usize * (i + 1));
            }
            out.push(byte);
        }
    }
    out
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

/// Encodes straight-alpha RGBA8 `pixels` (modified: transparent pixels become transparent black).
pub fn encode_png(pixels: &mut [u8], width: u32, height: u32) -> Result<Vec<u8>> {
    for pixel in pixels.chunks_exact_mut(4) {
        if pixel[3] == 0 {
            pixel[..3].fill(0);
        }
    }
    let analysis = analyse(pixels);
    let pixel_count = pixels.len() / 4;
    let mut out = Vec::with_capacity(pixel_count / 2 + 128);
    let mut encoder = png::Encoder::new(&mut out, width, height);
    let level = if pixel_count <= SMALL_OUTPUT_PIXELS {
        9
    } else {
        6
    };
    encoder.set_deflate_compression(DeflateCompression::Level(level));
    let data = match analysis.indexed {
        // Grey opaque images with many shades filter better as grey than as a palette.
        Some((mut indices, colours))
            if !(analysis.grey && analysis.opaque && colours.len() > 16) =>
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
            encoder.set_filter(Filter::NoFilter);
            pack(&indices, width as usize, depth)
        }
        _ => {
            encoder.set_depth(BitDepth::Eight);
            // Measured on logo-like images (bench/): no filter is 15–25 % smaller than adaptive
            // filtering; logos are flat colour and sharp edges, where row filters add entropy.
            encoder.set_filter(Filter::NoFilter);
            let channels: &[usize] = match (analysis.grey, analysis.opaque) {
                (true, true) => {
                    encoder.set_color(ColorType::Grayscale);
                    &[0]
                }
                (true, false) => {
                    encoder.set_color(ColorType::GrayscaleAlpha);
                    &[0, 3]
                }
                (false, true) => {
                    encoder.set_color(ColorType::Rgb);
                    &[0, 1, 2]
                }
                (false, false) => {
                    encoder.set_color(ColorType::Rgba);
                    &[0, 1, 2, 3]
                }
            };
            if channels.len() == 4 {
                pixels.to_vec()
            } else {
                let mut data = Vec::with_capacity(pixel_count * channels.len());
                for pixel in pixels.chunks_exact(4) {
                    data.extend(channels.iter().map(|&c| pixel[c]));
                }
                data
            }
        }
    };
    let failed = |e: png::EncodingError| {
        Error::new(ErrorCode::Internal, format!("Cannot encode image: {e}"))
    };
    let mut writer = encoder.write_header().map_err(failed)?;
    writer.write_image_data(&data).map_err(failed)?;
    writer.finish().map_err(failed)?;
    Ok(out)
}
