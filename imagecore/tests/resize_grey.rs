#![cfg(feature = "raster")]
//! The greyscale resize on packed luma + alpha (`resize::grey`) against the reference: the full
//! RGBA Lanczos3 convolution, then greyscale. PSNR on premultiplied RGBA ≥ 40 dB, the bar of
//! `resize_quality.rs`, on every source, for downscales with and without the box pre-shrink,
//! odd sides on either axis, and upscales.
mod common;

use common::quality::{psnr, MIN_PSNR_DB};
use common::quality_inputs::{text, thin_lines, Source, SOURCES};
use image::RgbaImage;
use imagecore::colour::greyscale::greyscale;
use imagecore::raster::resize::grey::{resize_grey, resize_grey_rgb};
use imagecore::raster::resize::{output_size, resize, resize_lanczos3};

/// Source sides and output widths: the bench's ratios, the pre-shrink's, odd sides, upscales.
const CASES: [(u32, u32, u32); 9] = [
    (512, 512, 128),
    (1024, 1024, 128),
    (2048, 512, 128),
    (1024, 1024, 32),
    (1200, 700, 50),
    (257, 129, 64),
    (300, 201, 77),
    (64, 64, 128),
    (97, 61, 300),
];

fn reference(image: &RgbaImage, ow: u32, oh: u32, fast_path: bool) -> Vec<u8> {
    let (w, h) = image.dimensions();
    let pixels = image.as_raw().clone();
    let mut out = if fast_path {
        resize(pixels, w, h, ow, oh)
    } else {
        resize_lanczos3(pixels, w, h, ow, oh)
    }
    .expect("reference");
    greyscale(&mut out);
    out
}

#[test]
fn grey_resize_stays_within_40_db_of_rgba_lanczos3_then_greyscale() {
    for (w, h, width) in CASES {
        for (name, source) in SOURCES {
            let image = source(w, h);
            let (ow, oh) = output_size(w, h, width).expect("size");
            let grey = resize_grey(image.as_raw().clone(), w, h, ow, oh).expect("grey");
            assert_eq!(grey.len(), (ow * oh * 4) as usize);
            assert!(grey.chunks_exact(4).all(|p| p[0] == p[1] && p[1] == p[2]));
            // Against the full convolution, and against today's RGBA path (box pre-shrink
            // included), which must agree as closely.
            for fast_path in [false, true] {
                let db = psnr(&grey, &reference(&image, ow, oh, fast_path));
                println!("{name} {w}×{h} → {ow}×{oh} (rgba fast path {fast_path}): {db:.1} dB");
                assert!(db >= MIN_PSNR_DB, "{name} {w}×{h} → {ow}×{oh}: {db:.1} dB");
            }
        }
    }
}

#[test]
fn the_bar_refuses_a_grey_resize_that_swaps_rows() {
    // The packing is where a mistake would hide: rows 2i and 2i + 1 exchanged after the
    // horizontal pass must fail the bar on detailed sources.
    for (name, source) in [("thin lines", thin_lines as Source), ("text", text)] {
        let image = source(512, 512);
        let grey = resize_grey(image.as_raw().clone(), 512, 512, 128, 128).expect("grey");
        let mut swapped = grey.clone();
        for pair in swapped.chunks_exact_mut(128 * 4 * 2) {
            let (top, bottom) = pair.split_at_mut(128 * 4);
            top.swap_with_slice(bottom);
        }
        let db = psnr(&swapped, &reference(&image, 128, 128, false));
        assert!(db < MIN_PSNR_DB, "{name}: swapped rows still {db:.1} dB");
    }
}

#[test]
fn transparent_pixels_stay_black_and_opaque_white_stays_white() {
    let mut pixels = [0u8, 0, 0, 0].repeat(40 * 40);
    for pixel in pixels.chunks_exact_mut(4).skip(800) {
        pixel.copy_from_slice(&[255, 255, 255, 255]);
    }
    let out = resize_grey(pixels, 40, 40, 10, 10).expect("grey");
    for (i, pixel) in out.chunks_exact(4).enumerate() {
        let row = i / 10;
        if row < 2 {
            assert_eq!(pixel, [0, 0, 0, 0], "row {row}");
        }
        if row > 7 {
            assert_eq!(pixel, [255, 255, 255, 255], "row {row}");
        }
    }
}

#[test]
fn a_buffer_that_does_not_match_its_dimensions_is_an_error_not_a_panic() {
    for (pixels, w, h) in [(vec![0u8; 10 * 10 * 4 - 1], 10, 10), (vec![], 0, 0)] {
        let error = resize_grey(pixels, w, h, 4, 4).expect_err("refused");
        assert!(
            error.message.starts_with("Cannot resize image"),
            "{}",
            error.message
        );
    }
}

#[test]
fn grey_resize_of_rgb_is_byte_for_byte_that_of_the_same_pixels_as_opaque_rgba() {
    let sizes = CASES
        .iter()
        .copied()
        .chain([(1, 40, 1), (2, 9, 1), (33, 33, 33)]);
    for (w, h, width) in sizes {
        for (name, source) in SOURCES {
            let rgba: Vec<u8> = source(w, h)
                .as_raw()
                .chunks_exact(4)
                .flat_map(|p| [p[0], p[1], p[2], 255])
                .collect();
            let rgb: Vec<u8> = rgba
                .chunks_exact(4)
                .flat_map(|p| [p[0], p[1], p[2]])
                .collect();
            let (ow, oh) = output_size(w, h, width).expect("size");
            let want = resize_grey(rgba, w, h, ow, oh).expect("rgba");
            let got = resize_grey_rgb(rgb, w, h, ow, oh).expect("rgb");
            assert!(got == want, "{name} {w}x{h} -> {ow}x{oh}");
        }
    }
}
