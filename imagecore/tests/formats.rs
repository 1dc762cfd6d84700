#![cfg(feature = "raster")]
//! Every supported source format decodes, recognised from its bytes.
mod common;

use imagecore::decode::probe;
use imagecore::format::SourceFormat;
use imagecore::pipeline::{transform, Options};

fn first_pixel_of_centre(bytes: &[u8]) -> [u8; 4] {
    let out = transform(bytes, &Options::default()).expect("transform");
    let image = image::load_from_memory(&out.bytes)
        .expect("decode")
        .to_rgba8();
    image.get_pixel(image.width() / 2, image.height() / 2).0
}

#[test]
fn png_8_and_16_bit_decode() {
    let logo = common::disc(32, 32, [10, 200, 30, 255], [0, 0, 0, 0]);
    assert_eq!(
        first_pixel_of_centre(&common::png(&logo)),
        [10, 200, 30, 255]
    );
    assert_eq!(
        first_pixel_of_centre(&common::png16(&logo)),
        [10, 200, 30, 255]
    );
}

#[test]
fn bmp_decodes() {
    let logo = common::disc(20, 12, [250, 100, 0, 255], [255, 255, 255, 255]);
    let bytes = common::bmp(&logo);
    assert_eq!(probe(&bytes).expect("probe").format, SourceFormat::Bmp);
    assert_eq!(first_pixel_of_centre(&bytes), [250, 100, 0, 255]);
}

#[test]
fn gif_decodes_its_first_frame() {
    let red = common::disc(16, 16, [255, 0, 0, 255], [255, 255, 255, 255]);
    let blue = common::disc(16, 16, [0, 0, 255, 255], [255, 255, 255, 255]);
    let bytes = common::gif(&red, &blue);
    assert_eq!(probe(&bytes).expect("probe").format, SourceFormat::Gif);
    assert_eq!(first_pixel_of_centre(&bytes), [255, 0, 0, 255]);
}

#[test]
fn ico_uses_its_largest_entry_even_when_shallower() {
    // image's own ICO decoder would pick the 16-px entry for its greater declared depth.
    let small = common::png(&common::disc(16, 16, [255, 0, 0, 255], [0, 0, 0, 0]));
    let large = common::png(&common::disc(64, 64, [0, 0, 255, 255], [0, 0, 0, 0]));
    let bytes = common::ico(&[(32, small, 16), (24, large, 64)]);
    let header = probe(&bytes).expect("probe");
    assert_eq!(
        (header.format, header.width, header.height),
        (SourceFormat::Ico, 64, 64)
    );
    assert_eq!(first_pixel_of_centre(&bytes), [0, 0, 255, 255]);
}

#[test]
fn ico_with_bmp_entry_decodes() {
    let logo = common::disc(32, 32, [0, 128, 0, 255], [0, 0, 0, 0]);
    let small = common::ico_dib(&common::disc(16, 16, [255, 0, 0, 255], [0, 0, 0, 0]));
    let bytes = common::ico(&[(32, small, 16), (32, common::ico_dib(&logo), 32)]);
    assert_eq!(probe(&bytes).expect("probe").width, 32);
    assert_eq!(first_pixel_of_centre(&bytes), [0, 128, 0, 255]);
}

#[test]
fn format_comes_from_bytes_not_names() {
    let png = common::png(&common::disc(8, 8, [1, 2, 3, 255], [0, 0, 0, 0]));
    assert_eq!(probe(&png).expect("probe").format, SourceFormat::Png);
}

#[test]
fn ico_png_entries_of_any_colour_type_and_lying_sizes_decode() {
    // A palette PNG entry (image's ICO decoder accepts only RGBA PNGs) whose directory says 48.
    let logo = common::disc(64, 64, [0, 0, 255, 255], [0, 0, 0, 0]);
    let palette_png = imagecore::encode::encode(
        &mut logo.as_raw().clone(),
        64,
        64,
        imagecore::format::OutputFormat::Png,
    )
    .expect("encode");
    let bytes = common::ico(&[(32, palette_png, 48)]);
    assert_eq!(probe(&bytes).expect("probe").width, 64);
    assert_eq!(first_pixel_of_centre(&bytes), [0, 0, 255, 255]);
}

#[test]
fn jpeg_decodes_to_opaque_colour() {
    let logo = common::disc(64, 48, [20, 160, 60, 255], [255, 255, 255, 255]);
    let [r, g, b, a] = first_pixel_of_centre(&common::jpeg(&logo));
    assert_eq!(a, 255);
    for (got, want) in [(r, 20), (g, 160), (b, 60)] {
        assert!(got.abs_diff(want) <= 8, "{:?}", [r, g, b, a]);
    }
}
