#![cfg(feature = "raster")]
//! JPEG shrink-on-load for a greyscale output (issue 34 §0): a greyscale resize of a JPEG decodes
//! at the scale a colour one does (`decode_for_resize`, `tests/jpeg_shrink_on_load.rs`), then
//! takes luma from that smaller RGB. Grey, CMYK, progressive and EXIF-rotated JPEGs keep their
//! grey shades, and the scaled decode refuses what the full-size one refuses. Its quality against
//! sharp's `.greyscale()` is pinned in WASM by `test/imagecore/jpeg_shrink_quality_test.ts`.
mod common;

use common::assert_near;

use image::RgbaImage;
use imagecore::colour::greyscale::luma;
use imagecore::error::ErrorCode;
use imagecore::raster::decode::{decode_for_resize, Decoded};
use imagecore::raster::pipeline::{transform, Options};
use imagecore::raster::resize::grey::{resize_grey, resize_grey_rgb};
use imagecore::raster::resize::output_size;

/// The fixtures' halves (tests/fixtures/make_fixtures.ts), as grey.
const RED: [u8; 3] = [220, 20, 20];
const BLUE: [u8; 3] = [20, 20, 220];

fn grey(rgb: [u8; 3]) -> [u8; 4] {
    let y = luma(rgb[0], rgb[1], rgb[2]);
    [y, y, y, 255]
}

fn grey_options(width: u32) -> Options {
    Options {
        width: Some(width),
        greyscale: true,
        ..Options::default()
    }
}

fn grey_transformed(jpeg: &[u8], width: u32) -> RgbaImage {
    let out = transform(jpeg, &grey_options(width)).expect("transform");
    image::load_from_memory(&out.bytes).expect("png").to_rgba8()
}

fn fixtures() -> [(&'static str, Vec<u8>); 5] {
    [
        ("YCbCr", common::jpeg(&common::busy(300, 200))),
        ("grey", include_bytes!("fixtures/halves_grey.jpg").to_vec()),
        ("CMYK", include_bytes!("fixtures/halves_cmyk.jpg").to_vec()),
        (
            "progressive",
            include_bytes!("fixtures/halves_progressive.jpg").to_vec(),
        ),
        (
            "EXIF orientation 6",
            include_bytes!("fixtures/halves_orientation_6.jpg").to_vec(),
        ),
    ]
}

#[test]
fn a_greyscale_transform_of_a_jpeg_is_the_grey_resize_of_its_reduced_scale_decode() {
    for (name, jpeg) in fixtures() {
        for width in [7, 8, 40, 64, 128] {
            let (source, (ow, oh)) =
                decode_for_resize(&jpeg, true, |w, h| output_size(w, h, width)).expect(name);
            let expected = match source {
                Decoded::Rgb(rgb) => resize_grey_rgb(rgb.pixels, rgb.width, rgb.height, ow, oh),
                Decoded::Rgba(s) => resize_grey(s.pixels, s.width, s.height, ow, oh),
                Decoded::Grey(_) => panic!("{name}: a decode for a resize never gives luma pairs"),
            }
            .expect(name);
            let got = grey_transformed(&jpeg, width);
            assert_eq!(got.dimensions(), (ow, oh), "{name} at {width}");
            assert!(got.into_raw() == expected, "{name} at {width}");
        }
    }
}

#[test]
fn the_decode_a_greyscale_transform_resizes_is_smaller_than_the_source() {
    // The test above ties the greyscale transform to `decode_for_resize`; here that decode is
    // reduced for every JPEG but CMYK (decoded at full size, tests/jpeg_shrink_on_load.rs).
    for (name, jpeg) in fixtures() {
        let (source, _) = decode_for_resize(&jpeg, true, |w, h| output_size(w, h, 8)).expect(name);
        let Decoded::Rgb(rgb) = source else {
            panic!("{name}: not decoded to RGB");
        };
        let full = image::load_from_memory(&jpeg).expect(name);
        let (full_width, full_height) = if name.starts_with("EXIF") {
            (full.height(), full.width())
        } else {
            (full.width(), full.height())
        };
        let shrunk = (rgb.width, rgb.height) != (full_width, full_height);
        assert_eq!(
            shrunk,
            name != "CMYK",
            "{name}: {}×{}",
            rgb.width,
            rgb.height
        );
    }
}

#[test]
fn grey_cmyk_progressive_and_rotated_jpegs_keep_their_shades_in_greyscale() {
    // 48×32, red left half and blue right; 8 px wide decodes at 1/2 (CMYK at full size).
    for (name, jpeg) in fixtures().into_iter().skip(1).take(3) {
        let got = grey_transformed(&jpeg, 8);
        assert_eq!(got.dimensions(), (8, 5), "{name}");
        let tolerance = if name == "CMYK" { 30 } else { 10 };
        let (left, right) = if name == "grey" {
            // The grey fixture stores the halves' own grey (make_fixtures.ts): luma of its pixels.
            let full = image::load_from_memory(&jpeg).expect(name).to_rgb8();
            let at = |x: u32| full.get_pixel(x, 16).0;
            (grey(at(6)), grey(at(42)))
        } else {
            (grey(RED), grey(BLUE))
        };
        assert_near(
            got.get_pixel(1, 2).0,
            left,
            tolerance,
            &format!("{name} left"),
        );
        assert_near(
            got.get_pixel(6, 3).0,
            right,
            tolerance,
            &format!("{name} right"),
        );
    }
    // Rotated 90° clockwise by EXIF: upright 32×48, the red half on top.
    let rotated = include_bytes!("fixtures/halves_orientation_6.jpg");
    let got = grey_transformed(rotated, 8);
    assert_eq!(got.dimensions(), (8, 12));
    assert_near(got.get_pixel(4, 1).0, grey(RED), 10, "top");
    assert_near(got.get_pixel(4, 10).0, grey(BLUE), 10, "bottom");
}

#[test]
fn a_greyscale_transform_refuses_a_cut_jpeg_at_reduced_scale() {
    let jpeg = common::jpeg(&common::busy(256, 256));
    let progressive = include_bytes!("fixtures/halves_progressive.jpg");
    for (source, width) in [(&jpeg[..], 32), (&progressive[..], 8)] {
        let n = source.len();
        for cut in [n * 4 / 10, n * 7 / 10, n - 20] {
            for ended in [
                source[..cut].to_vec(),
                [&source[..cut], &[0xff, 0xd9]].concat(),
            ] {
                let error = transform(&ended, &grey_options(width)).expect_err("cut");
                assert_eq!(error.code, ErrorCode::Corrupt, "cut at {cut} of {n}");
            }
        }
    }
    let cut = [&jpeg[..jpeg.len() / 2], &[0xff, 0xd9][..]].concat();
    let error = transform(&cut, &grey_options(32)).expect_err("refused");
    assert_eq!(
        error.message,
        "Cannot decode image: corrupt data (truncated)"
    );
}
