#![cfg(feature = "raster")]
//! A greyscale resize of a PNG decodes its rows straight to luma + alpha pairs
//! (`decode::decode_grey`, `PngSource::decode_grey_pairs`): the same output pixels as decoding to
//! RGBA8 and resizing that, for every colour type and bit depth it takes; the PNGs it does not take
//! (interlaced, 16 bits, EXIF-rotated, not resized) still decode to RGBA8; and damaged files are
//! refused exactly as the RGBA8 decode refuses them.
mod common;

use common::quality_inputs::photo;
use imagecore::error::ErrorCode;
use imagecore::raster::decode::{decode, decode_grey, Decoded};
use imagecore::raster::resize::grey::{resize_grey, resize_grey_pairs};
use imagecore::raster::resize::output_size;
use png::{BitDepth, ColorType};

/// A PNG of `width`×`height` px with samples from `sample(x, y, channel)`.
fn png_of(
    (width, height): (u32, u32),
    color: ColorType,
    depth: BitDepth,
    sample: impl Fn(u32, u32, usize) -> u8,
) -> Vec<u8> {
    let channels = match color {
        ColorType::Grayscale | ColorType::Indexed => 1,
        ColorType::GrayscaleAlpha => 2,
        ColorType::Rgb => 3,
        ColorType::Rgba => 4,
    };
    let bits = depth as usize;
    let row_bytes = (width as usize * channels * bits).div_ceil(8);
    let mut data = vec![0u8; row_bytes * height as usize];
    for y in 0..height {
        for x in 0..width {
            for c in 0..channels {
                let v = sample(x, y, c);
                let bit = (x as usize * channels + c) * bits;
                let at = y as usize * row_bytes + bit / 8;
                if bits >= 8 {
                    data[at..at + bits / 8].fill(v); // 16 bits: v·257
                } else {
                    // Low bit depths: the top `bits` of the sample, most significant first.
                    data[at] |= (v >> (8 - bits)) << (8 - bits - bit % 8);
                }
            }
        }
    }
    let mut out = Vec::new();
    let mut encoder = png::Encoder::new(&mut out, width, height);
    encoder.set_color(color);
    encoder.set_depth(depth);
    if color == ColorType::Indexed {
        let palette: Vec<u8> = (0..=255u8).flat_map(|i| [i, 255 - i, i / 2]).collect();
        encoder.set_palette(palette[..3 << bits.min(8)].to_vec());
        encoder.set_trns((0..16u8).map(|i| i * 16).collect::<Vec<_>>());
    }
    if color == ColorType::Grayscale && depth == BitDepth::Eight {
        encoder.set_trns(vec![0, 40]); // grey 40 transparent: grey + alpha output
    }
    let mut writer = encoder.write_header().expect("header");
    writer.write_image_data(&data).expect("data");
    writer.finish().expect("finish");
    out
}

/// Seeded, busy samples: every colour and alpha appears.
fn busy(x: u32, y: u32, c: usize) -> u8 {
    let v = x.wrapping_mul(73) ^ y.wrapping_mul(151) ^ (c as u32 * 89);
    (v.wrapping_mul(2654435761) >> 24) as u8
}

const SIZES: [(u32, u32, u32); 4] = [(64, 48, 16), (37, 23, 11), (300, 201, 77), (9, 130, 3)];

/// The greyscale resize through RGBA8, as before rows were streamed.
fn through_rgba(png: &[u8], width: u32) -> Vec<u8> {
    let (rgba, (w, h)) = decode(png, |w, h| output_size(w, h, width)).expect("rgba decode");
    resize_grey(rgba.pixels, rgba.width, rgba.height, w, h).expect("grey resize")
}

#[test]
fn rows_decoded_to_pairs_give_the_pixels_of_the_rgba_decode_for_every_colour_type() {
    let kinds = [
        (ColorType::Rgba, BitDepth::Eight),
        (ColorType::Rgb, BitDepth::Eight),
        (ColorType::Grayscale, BitDepth::Eight),
        (ColorType::GrayscaleAlpha, BitDepth::Eight),
        (ColorType::Indexed, BitDepth::Eight),
        (ColorType::Indexed, BitDepth::Four),
        (ColorType::Grayscale, BitDepth::One),
        (ColorType::Grayscale, BitDepth::Two),
    ];
    for (color, depth) in kinds {
        for (w, h, width) in SIZES {
            let png = png_of((w, h), color, depth, busy);
            let label = format!("{color:?} {depth:?} {w}×{h} → {width}");
            let (decoded, (ow, oh)) =
                decode_grey(&png, |w, h| output_size(w, h, width)).expect(&label);
            let Decoded::Grey(pairs) = decoded else {
                panic!("{label}: not decoded to pairs")
            };
            let streamed = resize_grey_pairs(pairs, ow, oh).expect(&label);
            assert_eq!(streamed, through_rgba(&png, width), "{label}");
        }
    }
}

#[test]
fn a_photo_decoded_to_pairs_resizes_like_its_rgba_decode() {
    for (w, h) in [(512, 512), (257, 130)] {
        let png = common::png(&photo(w, h));
        let (decoded, (ow, oh)) = decode_grey(&png, |w, h| output_size(w, h, 128)).expect("decode");
        let Decoded::Grey(pairs) = decoded else {
            panic!("{w}×{h}: not decoded to pairs")
        };
        let streamed = resize_grey_pairs(pairs, ow, oh).expect("resize");
        assert_eq!(streamed, through_rgba(&png, 128), "{w}×{h}");
    }
}

#[test]
fn interlaced_sixteen_bit_rotated_or_unresized_pngs_still_decode_to_rgba() {
    let interlaced = include_bytes!("fixtures/disc_interlaced.png").to_vec();
    let sixteen = png_of((40, 30), ColorType::Rgb, BitDepth::Sixteen, busy);
    let plain = png_of((40, 30), ColorType::Rgba, BitDepth::Eight, busy);
    let rotated = include_bytes!("fixtures/halves_orientation_6.png").to_vec();
    for (name, png, width) in [
        ("interlaced", &interlaced, 13),
        ("16-bit", &sixteen, 13),
        ("EXIF-rotated", &rotated, 13),
        ("same size", &plain, 40),
    ] {
        let (decoded, (ow, oh)) = decode_grey(png, |w, h| output_size(w, h, width)).expect(name);
        let Decoded::Rgba(rgba) = decoded else {
            panic!("{name}: decoded to pairs")
        };
        let grey = resize_grey(rgba.pixels, rgba.width, rgba.height, ow, oh).expect(name);
        assert_eq!(grey, through_rgba(png, width), "{name}");
    }
}

#[test]
fn damaged_pngs_are_refused_by_the_row_decode_as_by_the_rgba_decode() {
    let png = png_of((300, 201), ColorType::Rgba, BitDepth::Eight, busy);
    let plan = |w, h| output_size(w, h, 64);
    let mut cases: Vec<(String, Vec<u8>)> = [0.3, 0.6, 0.9, 0.99]
        .iter()
        .map(|&share| {
            let cut = (png.len() as f64 * share) as usize;
            (format!("cut at {cut}"), png[..cut].to_vec())
        })
        .collect();
    for at in [60, png.len() / 2, png.len() - 30] {
        let mut flipped = png.clone();
        flipped[at] ^= 0x55;
        cases.push((format!("byte {at} flipped"), flipped));
    }
    let mut refused = 0;
    for (name, bytes) in cases {
        let by_rows = decode_grey(&bytes, plan).map(|_| ()).map_err(|e| e.code);
        let by_rgba = decode(&bytes, plan).map(|_| ()).map_err(|e| e.code);
        assert_eq!(by_rows, by_rgba, "{name}");
        refused += usize::from(by_rows.is_err());
    }
    assert!(refused >= 6, "only {refused} damaged files refused");
    let cut = &png[..png.len() / 2];
    let error = decode_grey(cut, plan).err().expect("a cut PNG is refused");
    assert_eq!(error.code, ErrorCode::Corrupt);
    assert!(error.message.contains("truncated"), "{}", error.message);
}
