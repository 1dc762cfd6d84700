#![cfg(feature = "raster")]
//! JPEG shrink-on-load (`decode::jpeg_scaled`): which scale a colour resize decodes at, that the
//! scaled decode keeps grey, progressive, CMYK and EXIF-rotated JPEGs right, and that it refuses
//! what the full-size strict decode refuses. Its quality against sharp's is pinned in WASM by
//! `test/imagecore/jpeg_shrink_quality_test.ts`.
mod common;

use common::assert_near;

use common::quality::psnr;
use common::quality_inputs::SOURCES;
use image::RgbaImage;
use imagecore::error::ErrorCode;
use imagecore::raster::decode::{decode, decode_for_resize, Decoded};
use imagecore::raster::pipeline::{transform, Options};
use imagecore::raster::resize::{output_size, resize};

/// The fixtures' halves (tests/fixtures/make_fixtures.ts).
const RED: [u8; 4] = [220, 20, 20, 255];
const BLUE: [u8; 4] = [20, 20, 220, 255];

/// The size `transform` decodes `jpeg` at for a colour resize to `width`.
fn decoded_size(jpeg: &[u8], width: u32) -> (u32, u32) {
    let (decoded, _) =
        decode_for_resize(jpeg, true, |w, h| output_size(w, h, width)).expect("decode");
    match decoded {
        Decoded::Rgb(rgb) => (rgb.width, rgb.height),
        Decoded::Rgba(rgba) => (rgba.width, rgba.height),
        Decoded::Grey(pairs) => (pairs.width, pairs.height),
    }
}

fn transformed(jpeg: &[u8], width: Option<u32>) -> RgbaImage {
    let options = Options {
        width,
        ..Options::default()
    };
    let out = transform(jpeg, &options).expect("transform");
    image::load_from_memory(&out.bytes).expect("png").to_rgba8()
}

#[test]
fn the_largest_power_of_two_that_leaves_twice_the_output_is_decoded() {
    let jpeg = common::jpeg(&common::busy(512, 512));
    assert_eq!(decoded_size(&jpeg, 128), (256, 256));
    assert_eq!(decoded_size(&jpeg, 64), (128, 128));
    assert_eq!(decoded_size(&jpeg, 32), (128, 128), "1/4 at most");
    assert_eq!(decoded_size(&jpeg, 200), (512, 512), "under 4:1: full size");
    // A decode to RGBA (not for a resize to RGB) and a decode for several widths stay at full size.
    let (grey, _) = decode_for_resize(&jpeg, false, |w, h| output_size(w, h, 32)).expect("grey");
    assert!(matches!(grey, Decoded::Rgba(ref g) if g.width == 512));
    let (full, _) = decode(&jpeg, |w, h| output_size(w, h, 32)).expect("decode");
    assert_eq!(full.width, 512);
    // Sides that 2, 4 and 8 do not divide are rounded up, as libjpeg does.
    let odd = common::jpeg(&common::busy(509, 301));
    assert_eq!(decoded_size(&odd, 60), (128, 76));
}

#[test]
fn a_scaled_decode_resized_stays_within_30_db_of_the_full_decode_resized() {
    for (name, source) in SOURCES {
        let jpeg = common::jpeg(&source(512, 512));
        let full = transformed(&jpeg, None).into_raw();
        for width in [32, 64, 128] {
            let got = transformed(&jpeg, Some(width));
            let reference = resize(full.clone(), 512, 512, width, width).expect("resize");
            let db = psnr(got.as_raw(), &reference);
            assert!(db >= 30.0, "{name} 512² → {width}: {db:.1} dB");
        }
    }
}

#[test]
fn grey_progressive_and_rotated_jpegs_decode_at_reduced_scale_in_their_colours() {
    // 48×32, red left half and blue right; at 8 px wide they decode at 1/2 (24×16).
    let grey = include_bytes!("fixtures/halves_grey.jpg");
    let progressive = include_bytes!("fixtures/halves_progressive.jpg");
    for (name, jpeg) in [("grey", &grey[..]), ("progressive", &progressive[..])] {
        assert_eq!(decoded_size(jpeg, 8), (24, 16), "{name}");
        let full = transformed(jpeg, Some(24));
        let got = transformed(jpeg, Some(8));
        for (x, y) in [(1, 2), (6, 3)] {
            let want = full.get_pixel(x * 3, y * 3).0;
            assert_near(
                got.get_pixel(x, y).0,
                want,
                12,
                &format!("{name} at {x},{y}"),
            );
        }
    }
    // Rotated 90° clockwise by EXIF: upright 32×48, the red half on top.
    let rotated = include_bytes!("fixtures/halves_orientation_6.jpg");
    assert_eq!(decoded_size(rotated, 8), (16, 24));
    let got = transformed(rotated, Some(8));
    assert_eq!(got.dimensions(), (8, 12));
    assert_near(got.get_pixel(4, 1).0, RED, 12, "top");
    assert_near(got.get_pixel(4, 10).0, BLUE, 12, "bottom");
}

#[test]
fn a_cmyk_jpeg_is_decoded_at_full_size_in_its_colours() {
    let cmyk = include_bytes!("fixtures/halves_cmyk.jpg");
    assert_eq!(decoded_size(cmyk, 8), (48, 32));
    let got = transformed(cmyk, Some(8));
    assert_near(got.get_pixel(1, 2).0, RED, 40, "CMYK left");
    assert_near(got.get_pixel(6, 3).0, BLUE, 40, "CMYK right");
}

/// `bytes` with `inserted` before its last two bytes (the end-of-image marker).
fn before_end(bytes: &[u8], inserted: &[u8]) -> Vec<u8> {
    let end = bytes.len() - 2;
    [&bytes[..end], inserted, &bytes[end..]].concat()
}

#[test]
fn the_scaled_decode_refuses_cut_data_even_where_an_end_marker_follows() {
    let jpeg = common::jpeg(&common::busy(256, 256));
    assert_eq!(decoded_size(&jpeg, 32), (64, 64));
    let n = jpeg.len();
    let mut broken = vec![];
    for cut in [n * 4 / 10, n * 7 / 10, n * 9 / 10, n - 20] {
        broken.push((format!("cut at {cut}"), jpeg[..cut].to_vec()));
        let ended = [&jpeg[..cut], &[0xff, 0xd9][..]].concat();
        broken.push((format!("cut at {cut}, then EOI"), ended));
    }
    // What libjpeg calls "extraneous bytes before marker" (zune-jpeg's strict mode refuses it).
    broken.push(("bytes before EOI".into(), before_end(&jpeg, &[0x12, 0x34])));
    let options = Options {
        width: Some(32),
        ..Options::default()
    };
    for (what, bytes) in broken {
        match transform(&bytes, &options) {
            Ok(_) => panic!("{what}: decoded"),
            Err(error) => assert_eq!(error.code, ErrorCode::Corrupt, "{what}"),
        }
    }
    let cut = [&jpeg[..n / 2], &[0xff, 0xd9][..]].concat();
    let error = transform(&cut, &options).expect_err("refused");
    assert_eq!(
        error.message,
        "Cannot decode image: corrupt data (truncated)"
    );
}

#[test]
fn a_progressive_jpeg_cut_inside_a_scan_is_refused_at_reduced_scale() {
    let progressive = include_bytes!("fixtures/halves_progressive.jpg");
    assert_eq!(decoded_size(progressive, 8), (24, 16));
    let options = Options {
        width: Some(8),
        ..Options::default()
    };
    let n = progressive.len();
    for cut in [n * 4 / 10, n * 7 / 10, n - 20] {
        let ended = [&progressive[..cut], &[0xff, 0xd9][..]].concat();
        let error = transform(&ended, &options).expect_err("cut, then EOI");
        assert_eq!(error.code, ErrorCode::Corrupt, "cut at {cut} of {n}");
    }
}
