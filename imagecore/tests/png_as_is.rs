#![cfg(feature = "raster")]
//! A PNG source that needs no resize is stored as it came, minus the chunks no decoder here reads;
//! anything else is re-encoded. Either way the renditions are what `transform` makes.
mod common;

use common::hostile::chunk;
use image::{ImageBuffer, Rgba, RgbaImage};
use imagecore::raster::encode::effort::Effort;
use imagecore::raster::pipeline::{transform, Options};
use imagecore::raster::png_as_is::png_as_is;
use imagecore::raster::renditions::renditions;

const IHDR_END: usize = 8 + 12 + 13;

fn at(width: u32) -> Options {
    Options {
        width: Some(width),
        effort: Effort::Small,
        ..Options::default()
    }
}

fn logo() -> RgbaImage {
    common::disc(300, 150, [200, 40, 90, 255], [0, 0, 0, 0])
}

/// `png` with `before` inserted after IHDR, and `after` inserted before IEND.
fn with_chunks(png: &[u8], before: &[Vec<u8>], after: &[Vec<u8>]) -> Vec<u8> {
    let iend = png.len() - 12;
    let mut out = png[..IHDR_END].to_vec();
    before.iter().for_each(|c| out.extend_from_slice(c));
    out.extend_from_slice(&png[IHDR_END..iend]);
    after.iter().for_each(|c| out.extend_from_slice(c));
    out.extend_from_slice(&png[iend..]);
    out
}

/// The pixels of `bytes` as a browser shows them: a transparent pixel's colour does not count.
fn pixels(bytes: &[u8]) -> Vec<u8> {
    let mut pixels = image::load_from_memory(bytes)
        .expect("decodes")
        .into_rgba8()
        .into_raw();
    for pixel in pixels.chunks_exact_mut(4) {
        if pixel[3] == 0 {
            pixel.fill(0);
        }
    }
    pixels
}

/// Asserts the source rendition is `expected`, with the pixels imagecore decodes from `input`, and
/// every rendition is what `transform` makes.
fn assert_renditions(input: &[u8], width: u32, expected_source: &[u8]) {
    let out = renditions(input, width, &[128], true).expect("renditions");
    assert_eq!(out[0].bytes, expected_source, "the source rendition");
    let decoded = transform(input, &at(width)).expect("source");
    assert!(
        pixels(&out[0].bytes) == pixels(&decoded.bytes),
        "the input's pixels"
    );
    let default = transform(input, &at(128)).expect("default");
    assert_eq!(out[1].bytes, default.bytes, "128 px from the input");
    let from_source = transform(&out[0].bytes, &at(128)).expect("from source");
    assert_eq!(
        out[1].bytes, from_source.bytes,
        "128 px from the source rendition"
    );
}

#[test]
fn a_png_of_the_right_size_is_kept_without_its_ancillary_chunks() {
    let plain = common::png(&logo());
    let input = with_chunks(
        &plain,
        &[
            chunk(b"tEXt", b"Author\0a private name"),
            chunk(b"gAMA", &45455u32.to_be_bytes()),
        ],
        &[chunk(b"tIME", &[7, 234, 11, 27, 9, 0, 0])],
    );
    let mut trailing = input.clone();
    trailing.extend_from_slice(b"bytes after IEND");
    for input in [input, trailing] {
        assert_renditions(&input, 300, &plain);
        let kept = png_as_is(&input).expect("kept");
        assert!(!kept.windows(7).any(|w| w == b"private"), "text dropped");
    }
}

#[test]
fn palette_and_grey_pngs_are_kept_with_their_palette_and_transparency() {
    for name in ["disc_palette.png", "disc_grey.png"] {
        let input = std::fs::read(format!("tests/fixtures/{name}")).expect("fixture");
        let width = image::load_from_memory(&input).expect("decodes").width();
        let kept = png_as_is(&input).expect(name);
        assert!(kept.len() <= input.len(), "{name}");
        assert_renditions(&input, width, &kept);
    }
}

/// A noise image: every byte of its pixels counts, so its PNG is bigger than 2 bytes a pixel.
fn noise(width: u32, height: u32) -> RgbaImage {
    let mut state = 0x2545_f491u32;
    ImageBuffer::from_fn(width, height, |_, _| {
        state ^= state << 13;
        state ^= state >> 17;
        state ^= state << 5;
        Rgba(state.to_le_bytes())
    })
}

#[test]
fn other_pngs_are_re_encoded_as_transform_makes_them() {
    let plain = common::png(&logo());
    let mut bad_crc = with_chunks(&plain, &[], &[chunk(b"tIME", &[7, 234, 11, 27, 9, 0, 0])]);
    let crc_at = bad_crc.len() - 12 - 1;
    bad_crc[crc_at] ^= 1;
    let fixture = |name: &str| std::fs::read(format!("tests/fixtures/{name}")).expect("fixture");
    let cases = [
        ("16 bits a sample", common::png16(&logo())),
        ("interlaced", fixture("disc_interlaced.png")),
        ("rotated by EXIF", fixture("halves_orientation_6.png")),
        ("almost no compression", common::png(&noise(64, 64))),
        ("a chunk whose CRC is wrong", bad_crc),
    ];
    for (what, input) in cases {
        assert_eq!(png_as_is(&input), None, "{what}");
        let width = transform(&input, &Options::default()).expect(what).width;
        let source = transform(&input, &at(width)).expect(what);
        assert_renditions(&input, width, &source.bytes);
    }
}

#[test]
fn a_png_that_must_be_resized_is_re_encoded() {
    let input = common::png(&logo());
    let source = transform(&input, &at(200)).expect("source");
    let out = renditions(&input, 200, &[128], true).expect("renditions");
    assert_eq!(out[0].bytes, source.bytes);
    assert_eq!(
        out[1].bytes,
        transform(&source.bytes, &at(128)).expect("default").bytes
    );
}

#[test]
fn other_formats_are_never_kept() {
    let image = logo();
    for input in [
        common::bmp(&image),
        common::gif1(&image),
        common::webp(&image),
    ] {
        assert_eq!(png_as_is(&input), None);
        let source = transform(&input, &at(300)).expect("source");
        assert_renditions(&input, 300, &source.bytes);
    }
}

#[test]
fn without_keep_png_even_a_keepable_png_is_encoded() {
    let input = common::png(&logo());
    assert!(png_as_is(&input).is_some());
    let out = renditions(&input, 300, &[128], false).expect("renditions");
    assert_eq!(
        out[0].bytes,
        transform(&input, &at(300)).expect("source").bytes
    );
}
