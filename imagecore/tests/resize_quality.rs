#![cfg(feature = "raster")]
//! The resize fast path (box pre-shrink, then Lanczos3) against a full Lanczos3 convolution of
//! the same source: PSNR on premultiplied RGBA ≥ 40 dB at every ratio class, on logo-like and
//! photo-like sources (see imagecore/README.md, "Resize"). Small ratios and upscales are the
//! reference itself, byte for byte.
mod common;

use common::quality::{psnr, MIN_PSNR_DB};
use common::quality_inputs::{photo, text, thin_lines, Source, SOURCES};
use image::RgbaImage;
use imagecore::raster::resize::{pre_shrink_factor, resize, resize_lanczos3};

/// Source sizes and output widths that take the pre-shrink, with factors 2, 3 and 4 and a side
/// the factor does not divide.
const LARGE_RATIOS: [(u32, u32, u32); 4] = [
    (2048, 512, 128),
    (1024, 1024, 32),
    (1000, 1000, 40),
    (1200, 700, 50),
];

fn fast_and_reference(image: &RgbaImage, width: u32) -> (Vec<u8>, Vec<u8>, u32, u32) {
    let (w, h) = image.dimensions();
    let (ow, oh) = imagecore::raster::resize::output_size(w, h, width).expect("size");
    let fast = resize(image.as_raw().clone(), w, h, ow, oh).expect("fast path");
    let reference = resize_lanczos3(image.as_raw().clone(), w, h, ow, oh).expect("reference");
    (fast, reference, ow, oh)
}

#[test]
fn psnr_counts_premultiplied_channels() {
    let a = [100u8, 100, 100, 255];
    assert_eq!(psnr(&a, &a), f64::INFINITY);
    // One channel of one opaque pixel off by 10: MSE = 100 / 4 = 25.
    let expected = 10.0 * (255.0f64 * 255.0 / 25.0).log10();
    assert!((psnr(&[110, 100, 100, 255], &a) - expected).abs() < 1e-9);
    // Colour under zero alpha shows nothing and counts for nothing.
    assert_eq!(psnr(&[255, 0, 0, 0], &[0, 255, 0, 0]), f64::INFINITY);
}

#[test]
fn every_pre_shrink_factor_stays_within_40_db_of_full_lanczos3() {
    let mut factors = Vec::new();
    for (w, h, width) in LARGE_RATIOS {
        for (name, source) in SOURCES {
            let image = source(w, h);
            let (fast, reference, ow, oh) = fast_and_reference(&image, width);
            let factor = pre_shrink_factor(w, h, ow, oh);
            assert!(factor > 1, "{w}×{h} → {ow}×{oh} takes the fast path");
            factors.push(factor);
            let db = psnr(&fast, &reference);
            println!("{name} {w}×{h} → {ow}×{oh} (box {factor}): {db:.1} dB");
            assert!(
                db >= MIN_PSNR_DB,
                "{name} {w}×{h} → {ow}×{oh} (box {factor}): {db:.1} dB"
            );
        }
    }
    for factor in [2, 3, 4] {
        assert!(factors.contains(&factor), "factor {factor} is covered");
    }
}

#[test]
fn a_photo_like_jpeg_stays_within_40_db_of_full_lanczos3() {
    for (w, h) in [(2048, 512), (1024, 1024)] {
        let jpeg = common::jpeg(&photo(w, h));
        let (decoded, (ow, oh)) = imagecore::raster::decode::decode(&jpeg, |sw, sh| {
            imagecore::raster::resize::output_size(sw, sh, 60)
        })
        .expect("decode");
        let (sw, sh) = (decoded.width, decoded.height);
        let fast = resize(decoded.pixels.clone(), sw, sh, ow, oh).expect("fast");
        let reference = resize_lanczos3(decoded.pixels, sw, sh, ow, oh).expect("reference");
        assert!(
            pre_shrink_factor(sw, sh, ow, oh) > 1,
            "{w}×{h} takes the fast path"
        );
        let db = psnr(&fast, &reference);
        println!("photo jpeg {w}×{h} → {ow}×{oh}: {db:.1} dB");
        assert!(db >= MIN_PSNR_DB, "photo jpeg {w}×{h}: {db:.1} dB");
    }
}

#[test]
fn small_ratios_and_upscales_are_the_full_convolution_itself() {
    for (w, h, width) in [
        (512, 512, 128),
        (1024, 1024, 128),
        (256, 256, 128),
        (300, 200, 200),
        (64, 64, 128),
        (97, 61, 300),
    ] {
        for (name, source) in SOURCES {
            let (fast, reference, ow, oh) = fast_and_reference(&source(w, h), width);
            assert_eq!(pre_shrink_factor(w, h, ow, oh), 1);
            assert!(fast == reference, "{name} {w}×{h} → {ow}×{oh} changed");
        }
    }
}

/// Nearest-neighbour sampling of `image` down to `width`×`height` (pixel centres), the sloppy
/// shortcut the quality bar exists to refuse.
fn nearest(image: &RgbaImage, width: u32, height: u32) -> Vec<u8> {
    let (w, h) = image.dimensions();
    let mut out = Vec::with_capacity((width * height * 4) as usize);
    for y in 0..height {
        for x in 0..width {
            let sx = ((2 * x + 1) * w / (2 * width)).min(w - 1);
            let sy = ((2 * y + 1) * h / (2 * height)).min(h - 1);
            out.extend_from_slice(&image.get_pixel(sx, sy).0);
        }
    }
    out
}

#[test]
fn a_nearest_neighbour_pre_shrink_to_the_output_size_fails_the_bar() {
    // The bar must tell a sloppy fast path from a good one: nearest-neighbour straight to the
    // output size (a pre-shrink "to 1×", nothing left for Lanczos3 to smooth) misses it on
    // every detailed source.
    for (w, h) in [(512, 512), (1024, 1024)] {
        for (name, source) in [
            ("thin lines", thin_lines as Source),
            ("text", text),
            ("photo", photo),
        ] {
            let image = source(w, h);
            let (_, reference, ow, oh) = fast_and_reference(&image, 128);
            let db = psnr(&nearest(&image, ow, oh), &reference);
            println!("nearest {name} {w}×{h} → {ow}×{oh}: {db:.1} dB");
            assert!(
                db < MIN_PSNR_DB,
                "nearest {name} {w}×{h}: {db:.1} dB passed"
            );
        }
    }
}
