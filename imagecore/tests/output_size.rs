#![cfg(feature = "raster")]
//! Output dimensions: height = round(width × H / W), at least 1, down and up.
mod common;

use imagecore::raster::pipeline::{transform, Options};

fn size_of(width: u32, height: u32, to: u32) -> (u32, u32) {
    let input = common::png(&common::disc(width, height, [200, 0, 0, 255], [0, 0, 0, 0]));
    let out = transform(
        &input,
        &Options {
            width: Some(to),
            ..Options::default()
        },
    )
    .expect("transform");
    let decoded = image::load_from_memory(&out.bytes).expect("output decodes");
    assert_eq!((decoded.width(), decoded.height()), (out.width, out.height));
    (out.width, out.height)
}

#[test]
fn wide_source_keeps_aspect_ratio() {
    assert_eq!(size_of(2048, 512, 128), (128, 32));
}

#[test]
fn tall_source_keeps_aspect_ratio() {
    assert_eq!(size_of(100, 400, 50), (50, 200));
}

#[test]
fn height_rounds_to_nearest() {
    // 300×200 at 100 wide: 66.67 → 67.
    assert_eq!(size_of(300, 200, 100), (100, 67));
}

#[test]
fn tiny_output_is_at_least_one_pixel_high() {
    assert_eq!(size_of(300, 1, 1), (1, 1));
    assert_eq!(size_of(1, 1, 1), (1, 1));
}

#[test]
fn upscales_small_sources() {
    assert_eq!(size_of(16, 16, 256), (256, 256));
}

#[test]
fn no_width_keeps_source_size() {
    let input = common::png(&common::disc(40, 30, [0, 0, 255, 255], [0, 0, 0, 0]));
    let out = transform(&input, &Options::default()).expect("transform");
    assert_eq!((out.width, out.height), (40, 30));
}

#[test]
fn a_tall_source_is_narrowed_so_the_height_fits_4096() {
    // A 1:10 logo asked for 700 and 1200 px wide: 409 px is the widest whose height fits.
    assert_eq!(size_of(100, 1000, 700), (409, 4090));
    assert_eq!(size_of(150, 1500, 1200), (409, 4090));
    // Narrower asks are untouched.
    assert_eq!(size_of(100, 1000, 409), (409, 4090));
    assert_eq!(size_of(100, 1000, 64), (64, 640));
}

#[test]
fn a_source_taller_than_4096_to_1_comes_out_1_by_4096() {
    assert_eq!(size_of(1, 5000, 800), (1, 4096));
}
