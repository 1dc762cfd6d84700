#![cfg(feature = "raster")]
//! A corpus of bad inputs: each is refused with the right code, never a panic.
mod common;

use imagecore::error::ErrorCode;
use imagecore::raster::decode::probe;
use imagecore::raster::pipeline::{transform, Options};

/// The refusal of `bytes` at 64 px wide (panics, naming `what`, when they decode).
fn refusal_of(what: &str, bytes: &[u8]) -> imagecore::error::Error {
    let options = Options {
        width: Some(64),
        ..Options::default()
    };
    match transform(bytes, &options) {
        Ok(out) => panic!(
            "{what} decoded to {}×{} instead of being refused",
            out.width, out.height
        ),
        Err(error) => error,
    }
}

fn code_of(bytes: &[u8]) -> ErrorCode {
    refusal_of("the input", bytes).code
}

#[test]
fn zero_bytes_are_corrupt() {
    assert_eq!(code_of(&[]), ErrorCode::Corrupt);
}

#[test]
fn random_bytes_are_unsupported() {
    let mut state = 0x2545_f491u32;
    let bytes: Vec<u8> = (0..4096)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 17;
            state ^= state << 5;
            (state >> 24) as u8
        })
        .collect();
    assert_eq!(code_of(&bytes), ErrorCode::UnsupportedFormat);
}

#[test]
fn unsupported_formats_are_named_so() {
    assert_eq!(
        code_of(b"<!doctype html><p>hi"),
        ErrorCode::UnsupportedFormat
    );
    assert_eq!(code_of(b"II*\0\x08\0\0\0"), ErrorCode::UnsupportedFormat); // TIFF
}

#[test]
fn truncated_files_are_corrupt() {
    let png = common::png(&common::disc(64, 64, [1, 2, 3, 255], [0, 0, 0, 0]));
    for cut in [8, 20, 40, png.len() / 2, png.len() - 13] {
        assert_eq!(code_of(&png[..cut]), ErrorCode::Corrupt, "cut at {cut}");
    }
    let gif = common::gif(
        &common::disc(16, 16, [255, 0, 0, 255], [0, 0, 0, 0]),
        &common::disc(16, 16, [0, 0, 255, 255], [0, 0, 0, 0]),
    );
    assert_eq!(code_of(&gif[..gif.len() / 3]), ErrorCode::Corrupt);
}

/// Prefixes of `bytes` that cut into its pixel data: 40 %, 70 %, 90 % and all but 20 bytes.
fn cuts(bytes: &[u8]) -> [usize; 4] {
    let n = bytes.len();
    [n * 4 / 10, n * 7 / 10, n * 9 / 10, n - 20]
}

#[test]
fn truncated_jpegs_are_refused_not_filled_with_grey() {
    let jpeg = common::jpeg(&common::busy(256, 256));
    assert!(transform(&jpeg, &Options::default()).is_ok());
    for cut in cuts(&jpeg) {
        let error = refusal_of(&format!("JPEG cut at {cut}"), &jpeg[..cut]);
        assert_eq!(error.code, ErrorCode::Corrupt, "cut at {cut}");
        assert_eq!(
            error.message, "Cannot decode image: corrupt data (truncated)",
            "cut at {cut}"
        );
    }
}

#[test]
fn truncated_files_of_every_format_are_corrupt() {
    let image = common::busy(128, 128);
    let formats = [
        ("PNG", common::png(&image)),
        ("GIF", common::gif1(&image)),
        ("WebP", common::webp(&image)),
        ("BMP", common::bmp(&image)),
        ("ICO", common::ico(&[(32, common::ico_dib(&image), 128)])),
        ("RLE BMP", common::hostile::rle8_bmp(128, 128, 128)),
    ];
    for (name, bytes) in formats {
        assert!(
            transform(&bytes, &Options::default()).is_ok(),
            "{name} whole"
        );
        for cut in cuts(&bytes) {
            let what = format!("{name} cut at {cut} of {}", bytes.len());
            let error = refusal_of(&what, &bytes[..cut]);
            assert_eq!(error.code, ErrorCode::Corrupt, "{what}: {}", error.message);
        }
    }
}

#[test]
fn headers_declaring_over_16_8_megapixels_are_too_large() {
    for bytes in [
        common::hostile::gif_declaring(6000, 6000),
        common::hostile::rle8_bmp(6000, 6000, 270),
        common::hostile::rle8_bmp(4097, 4101, 0),
        common::png_header_only(4100, 4100),
    ] {
        assert_eq!(code_of(&bytes), ErrorCode::TooLarge);
        assert_eq!(
            probe(&bytes).expect_err("refused").code,
            ErrorCode::TooLarge
        );
    }
}

#[test]
fn a_header_claiming_100000_squared_is_too_large_before_decoding() {
    let bytes = common::png_header_only(100_000, 100_000);
    assert_eq!(code_of(&bytes), ErrorCode::TooLarge);
    assert_eq!(
        probe(&bytes).expect_err("refused").code,
        ErrorCode::TooLarge
    );
}

#[test]
fn a_header_lying_about_its_size_is_corrupt() {
    // Claims 4000×4000 (allowed) but carries no pixel data.
    assert_eq!(
        code_of(&common::png_header_only(4000, 4000)),
        ErrorCode::Corrupt
    );
}

#[test]
fn ico_entries_pointing_outside_the_file_are_corrupt() {
    let mut ico = common::ico(&[(32, vec![0; 8], 16), (32, vec![0; 8], 32)]);
    ico.truncate(6 + 32 + 4);
    assert_eq!(code_of(&ico), ErrorCode::Corrupt);
}

#[test]
fn inputs_over_ten_mib_are_too_large() {
    let mut big = common::png(&common::disc(8, 8, [1, 2, 3, 255], [0, 0, 0, 0]));
    big.resize(10 * 1024 * 1024 + 1, 0);
    assert_eq!(code_of(&big), ErrorCode::TooLarge);
}
