#![cfg(feature = "raster")]
//! Every supported source format decodes, recognised from its bytes.
mod common;

use common::assert_near;

use imagecore::raster::decode::probe;
use imagecore::raster::format::SourceFormat;
use imagecore::raster::pipeline::{transform, Options};

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
    let palette_png = imagecore::raster::encode::encode(
        &mut logo.as_raw().clone(),
        64,
        64,
        imagecore::raster::format::OutputFormat::Png,
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

// Files the test dependencies cannot encode, written by sharp (libvips): fixtures/make_fixtures.ts.
// The disc ones are a (20, 160, 60) disc on transparency, 48×32; the halves ones are 48×32, the
// left half (220, 20, 20) and the right half (20, 20, 220), opaque.
const GREEN: [u8; 4] = [20, 160, 60, 255];
const RED: [u8; 4] = [220, 20, 20, 255];
const BLUE: [u8; 4] = [20, 20, 220, 255];

fn output_of(bytes: &[u8]) -> image::RgbaImage {
    let out = transform(bytes, &Options::default()).expect("transform");
    let image = image::load_from_memory(&out.bytes)
        .expect("decode")
        .to_rgba8();
    assert_eq!(image.dimensions(), (out.width, out.height));
    image
}

fn assert_disc(bytes: &[u8], format: SourceFormat, centre: [u8; 4], tolerance: u8) {
    let header = probe(bytes).expect("probe");
    assert_eq!(
        (header.format, header.width, header.height),
        (format, 48, 32)
    );
    let image = output_of(bytes);
    assert_eq!(image.dimensions(), (48, 32));
    assert_near(
        image.get_pixel(24, 16).0,
        centre,
        tolerance,
        &format!("{format:?}"),
    );
}

#[test]
fn png_interlaced_palette_and_grey_decode() {
    let interlaced = include_bytes!("fixtures/disc_interlaced.png");
    assert_eq!(interlaced[28], 1, "the fixture is Adam7-interlaced");
    assert_disc(interlaced, SourceFormat::Png, GREEN, 0);
    assert_disc(
        include_bytes!("fixtures/disc_palette.png"),
        SourceFormat::Png,
        GREEN,
        2,
    );
    let grey = include_bytes!("fixtures/disc_grey.png");
    assert_eq!(grey[25], 0, "the fixture is greyscale without alpha");
    let luma = image::load_from_memory(grey).expect("decode").to_luma8();
    let l = luma.get_pixel(24, 16)[0];
    assert_disc(grey, SourceFormat::Png, [l, l, l, 255], 0);
}

#[test]
fn webp_lossless_and_lossy_decode() {
    let logo = common::disc(48, 32, GREEN, [0, 0, 0, 0]);
    assert_disc(&common::webp(&logo), SourceFormat::WebP, GREEN, 0);
    assert_disc(
        include_bytes!("fixtures/disc_lossy.webp"),
        SourceFormat::WebP,
        GREEN,
        12,
    );
}

#[test]
fn progressive_and_grey_jpegs_decode_opaque_in_their_colours() {
    for bytes in [
        &include_bytes!("fixtures/halves_progressive.jpg")[..],
        &include_bytes!("fixtures/halves_grey.jpg")[..],
    ] {
        let reference = image::load_from_memory(bytes).expect("decode").to_rgba8();
        let got = output_of(bytes);
        for (x, y) in [(4, 4), (43, 27)] {
            let want = reference.get_pixel(x, y).0;
            assert_near(got.get_pixel(x, y).0, want, 8, &format!("at {x},{y}"));
        }
    }
}

#[test]
fn cmyk_jpeg_decodes_close_to_its_source_colours() {
    // Converted without its ICC profile (as the `image` crate does): colours drift, so they are
    // compared with the source's, loosely.
    let got = output_of(include_bytes!("fixtures/halves_cmyk.jpg"));
    assert_near(got.get_pixel(4, 4).0, RED, 40, "CMYK left");
    assert_near(got.get_pixel(43, 27).0, BLUE, 40, "CMYK right");
}

#[test]
fn exif_orientation_6_in_a_jpeg_and_a_png_turns_the_image_upright() {
    for bytes in [
        &include_bytes!("fixtures/halves_orientation_6.jpg")[..],
        &include_bytes!("fixtures/halves_orientation_6.png")[..],
    ] {
        let image = output_of(bytes);
        assert_eq!(image.dimensions(), (32, 48));
        // Rotated 90° clockwise: the left (red) half is now on top.
        assert_near(image.get_pixel(3, 3).0, RED, 8, "top");
        assert_near(image.get_pixel(28, 44).0, BLUE, 8, "bottom");
    }
}
