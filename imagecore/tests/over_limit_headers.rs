#![cfg(feature = "raster")]
//! Issue #30, defect 8: a header declaring a size over the limits is refused as `too_large`
//! naming the size and the limit, in every format — not as `corrupt`, which the BMP decoder (and
//! ICO's, which reads BMP entries) and the WebP decoder said before the size was ever checked.
mod common;

use common::hostile::*;
use imagecore::error::ErrorCode;
use imagecore::raster::decode::probe;
use imagecore::raster::pipeline::{transform, Options};

/// `probe` and `transform` both refuse `bytes` as `too_large` with exactly `message`.
fn refused_as_too_large(name: &str, bytes: &[u8], message: &str) {
    let options = Options {
        width: Some(64),
        ..Options::default()
    };
    let probed = probe(bytes).map(|h| (h.width, h.height));
    let transformed = transform(bytes, &options).map(|out| (out.width, out.height));
    for (call, result) in [("probe", probed), ("transform", transformed)] {
        let error = result.expect_err(&format!("{name}: {call} must refuse"));
        assert_eq!(
            (error.code, error.message.as_str()),
            (ErrorCode::TooLarge, message),
            "{name}: {call}"
        );
    }
}

const SIDE: &str = "exceeds the 65535-px limit";
const PIXELS: &str = "exceeds the 16800000-pixel limit";

#[test]
fn the_headers_decode_at_their_real_size() {
    // The builders patch a small valid file's header: unpatched, each decodes.
    for (name, bytes) in [
        ("JPEG", jpeg_declaring(16, 16)),
        ("BMP", bmp_declaring(4, 4)),
        ("BMP top-down", bmp_declaring(4, -4)),
        ("WebP VP8X", webp_vp8x_declaring(16, 16)),
        ("WebP VP8L", webp_vp8l_declaring(16, 16)),
        ("ICO", ico_dib_declaring(16, 16)),
        ("GIF", gif_frame_declaring(16, 16)),
    ] {
        let header = probe(&bytes).unwrap_or_else(|e| panic!("{name}: {}", e.message));
        assert!(header.width <= 16 && header.height <= 16, "{name}");
        assert!(
            transform(&bytes, &Options::default()).is_ok(),
            "{name} decodes"
        );
    }
}

#[test]
fn png_headers_over_the_limits_are_too_large() {
    let m = |size: &str, limit: &str| format!("Cannot decode image: {size} {limit}");
    refused_as_too_large(
        "PNG",
        &common::png_header_only(70_000, 70_000),
        &m("70000×70000", SIDE),
    );
    refused_as_too_large(
        "PNG",
        &common::png_header_only(20_000, 20_000),
        &m("20000×20000", PIXELS),
    );
    refused_as_too_large(
        "ICO with a PNG entry",
        &common::ico(&[(32, common::png_header_only(70_000, 70_000), 0)]),
        &m("70000×70000", SIDE),
    );
}

#[test]
fn jpeg_and_gif_headers_over_the_limits_are_too_large() {
    // Their sides are 16-bit: only the pixel limit can be passed.
    refused_as_too_large(
        "JPEG",
        &jpeg_declaring(65_535, 65_535),
        &format!("Cannot decode image: 65535×65535 {PIXELS}"),
    );
    refused_as_too_large(
        "GIF screen",
        &gif_declaring(65_535, 65_535),
        &format!("Cannot decode image: 65535×65535 {PIXELS}"),
    );
    refused_as_too_large(
        "GIF frame",
        &gif_frame_declaring(65_535, 65_535),
        &format!("Cannot decode image: a frame of 65535×65535 {PIXELS}"),
    );
}

#[test]
fn bmp_headers_over_the_limits_are_too_large_not_corrupt() {
    for (name, bytes, size, limit) in [
        ("BMP", bmp_declaring(70_000, 70_000), "70000×70000", SIDE),
        ("BMP", bmp_declaring(70_000, 10), "70000×10", SIDE),
        ("BMP top-down", bmp_declaring(10, -70_000), "10×70000", SIDE),
        ("BMP", bmp_declaring(20_000, 20_000), "20000×20000", PIXELS),
        ("RLE BMP", rle8_bmp(70_000, 70_000, 0), "70000×70000", SIDE),
    ] {
        refused_as_too_large(
            name,
            &bytes,
            &format!("Cannot decode image: {size} {limit}"),
        );
    }
}

#[test]
fn ico_bmp_entries_over_the_limits_are_too_large_not_corrupt() {
    refused_as_too_large(
        "ICO",
        &ico_dib_declaring(70_000, 70_000),
        &format!("Cannot decode image: 70000×70000 {SIDE}"),
    );
    refused_as_too_large(
        "ICO",
        &ico_dib_declaring(20_000, 20_000),
        &format!("Cannot decode image: 20000×20000 {PIXELS}"),
    );
    // The decoder reads an entry's stored (doubled) height against 65535.
    refused_as_too_large(
        "ICO",
        &ico_dib_declaring(100, 40_000),
        "Cannot decode image: 100×40000 exceeds the 32767-px height limit of an ICO entry",
    );
}

#[test]
fn webp_headers_over_the_limits_are_too_large_not_corrupt() {
    for (name, bytes, size, limit) in [
        (
            "VP8X",
            webp_vp8x_declaring(70_000, 70_000),
            "70000×70000",
            SIDE,
        ),
        ("VP8X", webp_vp8x_declaring(70_000, 10), "70000×10", SIDE),
        (
            "VP8X",
            webp_vp8x_declaring(16_384, 16_384),
            "16384×16384",
            PIXELS,
        ),
        // 16384 is a legal VP8L side, which image-webp 0.2.4 reads as 0.
        (
            "VP8L",
            webp_vp8l_declaring(16_384, 16_384),
            "16384×16384",
            PIXELS,
        ),
        (
            "VP8L",
            webp_vp8l_declaring(16_000, 2_000),
            "16000×2000",
            PIXELS,
        ),
    ] {
        refused_as_too_large(
            name,
            &bytes,
            &format!("Cannot decode image: {size} {limit}"),
        );
    }
}

#[test]
fn a_malformed_header_is_still_corrupt() {
    let options = Options::default();
    for (name, bytes) in [
        ("BMP of negative width", bmp_declaring(-70_000, 10)),
        ("BMP of zero width", bmp_declaring(0, 10)),
        ("WebP cut inside its VP8X header", {
            let mut webp = webp_vp8x_declaring(16, 16);
            webp[24..30].fill(0xff); // 2^24 × 2^24 canvas, then cut inside the VP8X chunk
            webp.truncate(27);
            webp
        }),
    ] {
        let error = transform(&bytes, &options).expect_err(name);
        assert_eq!(error.code, ErrorCode::Corrupt, "{name}: {}", error.message);
    }
}
