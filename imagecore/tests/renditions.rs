#![cfg(feature = "raster")]
//! Several renditions from one decode give the bytes of separate `transform` calls at the small
//! effort (stored renditions are encoded with the smallest setting).
mod common;

use imagecore::error::ErrorCode;
use imagecore::raster::encode::effort::Effort;
use imagecore::raster::pipeline::{transform, Options};
use imagecore::raster::renditions::{pack, renditions, MAX_EXTRA_WIDTHS};

fn at(width: u32) -> Options {
    Options {
        width: Some(width),
        effort: Effort::Small,
        ..Options::default()
    }
}

/// A logo with transparency, soft edges and a gradient: many colours, so the encoder writes RGBA.
fn logo(width: u32, height: u32) -> Vec<u8> {
    let mut image = common::disc(width, height, [20, 90, 200, 255], [0, 0, 0, 0]);
    for (x, y, pixel) in image.enumerate_pixels_mut() {
        if pixel.0[3] != 0 {
            pixel.0[0] = (x * 255 / width) as u8;
            pixel.0[1] = (y * 255 / height) as u8;
            pixel.0[3] = 128 + ((x + y) % 128) as u8;
        }
    }
    common::png(&image)
}

#[test]
fn one_decode_gives_the_bytes_of_a_transform_per_rendition() {
    // Resized to 600 px, so the source rendition is encoded (not kept as given: png_as_is.rs).
    let input = logo(700, 350);
    let out = renditions(&input, 600, &[128, 256], true).expect("renditions");
    let source = transform(&input, &at(600)).expect("source");
    assert_eq!(out.len(), 3);
    assert!((out[0].width, out[0].height) == (600, 300) && out[0].bytes == source.bytes);
    for (rendition, width) in out[1..].iter().zip([128, 256]) {
        let expected = transform(&source.bytes, &at(width)).expect("from source");
        assert_eq!((rendition.width, rendition.height), (width, width / 2));
        assert_eq!(
            rendition.bytes, expected.bytes,
            "{width} px from the source PNG"
        );
    }
}

#[test]
fn a_capped_source_and_an_upscaled_default_match_transform() {
    let wide = logo(1500, 300);
    let out = renditions(&wide, 1200, &[128], true).expect("wide");
    let source = transform(&wide, &at(1200)).expect("source");
    assert_eq!((out[0].width, out[0].height), (1200, 240));
    assert_eq!(out[0].bytes, source.bytes);
    assert_eq!(
        out[1].bytes,
        transform(&source.bytes, &at(128)).expect("default").bytes
    );

    let small = logo(40, 20);
    let out = renditions(&small, 40, &[128], true).expect("small");
    assert_eq!((out[1].width, out[1].height), (128, 64));
    let source = transform(&small, &at(40)).expect("source");
    assert_eq!(
        out[1].bytes,
        transform(&source.bytes, &at(128)).expect("up").bytes
    );
}

#[test]
fn refusals_come_with_their_reason() {
    let error = renditions(b"not an image", 100, &[128], true).expect_err("garbage");
    assert_eq!(error.code, ErrorCode::UnsupportedFormat);
    assert_eq!(error.message, "Cannot decode image: unsupported format");
    let input = logo(64, 64);
    let error = renditions(&input, 64, &[0], true).expect_err("width 0");
    assert_eq!(error.code, ErrorCode::InvalidArgument);
    let many = vec![16; MAX_EXTRA_WIDTHS + 1];
    let error = renditions(&input, 64, &many, true).expect_err("too many");
    assert_eq!(error.code, ErrorCode::InvalidArgument);
    assert!(error.message.starts_with("Cannot render renditions"));
}

#[test]
fn pack_lays_out_count_sizes_then_bytes() {
    let input = logo(300, 100);
    let out = renditions(&input, 300, &[128], true).expect("renditions");
    let packed = pack(&out);
    let word = |i: usize| u32::from_le_bytes(packed[i..i + 4].try_into().expect("4 bytes"));
    assert_eq!(word(0), 2);
    assert_eq!((word(4), word(8)), (300, 100));
    assert_eq!(word(12) as usize, out[0].bytes.len());
    assert_eq!((word(16), word(20)), (128, 43));
    let start = 4 + 2 * 12;
    assert_eq!(
        &packed[start..start + out[0].bytes.len()],
        &out[0].bytes[..]
    );
    assert_eq!(&packed[start + out[0].bytes.len()..], &out[1].bytes[..]);
}
