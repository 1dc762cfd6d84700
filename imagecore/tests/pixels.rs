#![cfg(feature = "raster")]
//! Greyscale, fringe-free alpha and JPEG flattening, pixel by pixel (the theme: tests/theme.rs).
mod common;

use imagecore::raster::format::OutputFormat;
use imagecore::raster::pipeline::{transform, Options};

fn pixels(bytes: &[u8], options: &Options) -> (image::RgbaImage, bool) {
    let out = transform(bytes, options).expect("transform");
    (
        image::load_from_memory(&out.bytes)
            .expect("decode")
            .to_rgba8(),
        out.inverted,
    )
}

#[test]
fn greyscale_output_has_equal_channels_and_keeps_alpha() {
    let logo = common::disc(64, 64, [200, 40, 90, 255], [0, 0, 0, 0]);
    let options = Options {
        width: Some(30),
        greyscale: true,
        ..Options::default()
    };
    let (image, _) = pixels(&common::png(&logo), &options);
    let mut translucent = 0;
    for p in image.pixels() {
        assert!(p[0] == p[1] && p[1] == p[2], "pixel {p:?} is not grey");
        if p[3] > 0 && p[3] < 255 {
            translucent += 1;
        }
    }
    assert!(
        translucent > 0,
        "the disc's anti-aliased edge keeps partial alpha"
    );
    let centre = image.get_pixel(15, 15);
    // Rec. 709 luma of (200, 40, 90): 0.2126·200 + 0.7152·40 + 0.0722·90 ≈ 78.
    assert!((i32::from(centre[0]) - 78).abs() <= 1, "centre {centre:?}");
}

#[test]
fn red_logo_on_transparency_has_no_fringe_at_any_size() {
    // Transparent pixels carry green on purpose: without premultiplied alpha it bleeds in.
    let logo = common::disc(97, 61, [255, 0, 0, 255], [0, 255, 0, 0]);
    let bytes = common::png(&logo);
    for width in [7, 16, 33, 64, 128, 300] {
        let (image, _) = pixels(
            &bytes,
            &Options {
                width: Some(width),
                ..Options::default()
            },
        );
        for p in image.pixels().filter(|p| p[3] >= 8) {
            assert!(
                p[0] >= 240 && p[1] <= 12 && p[2] <= 12,
                "fringe at {width}px: {p:?}"
            );
        }
    }
}

#[test]
fn jpeg_output_flattens_onto_white() {
    let logo = common::disc(40, 40, [0, 0, 0, 255], [0, 0, 0, 0]);
    let options = Options {
        format: OutputFormat::Jpeg,
        ..Options::default()
    };
    let out = transform(&common::png(&logo), &options).expect("transform");
    let image = image::load_from_memory(&out.bytes)
        .expect("decode")
        .to_rgb8();
    let corner = image.get_pixel(0, 0).0;
    assert!(
        corner.iter().all(|&c| c >= 250),
        "corner {corner:?} is not white"
    );
}

#[test]
fn png_output_is_exact_and_uses_a_palette_when_it_can() {
    let logo = common::disc(50, 50, [12, 34, 56, 255], [0, 0, 0, 0]);
    let out = transform(&common::png(&logo), &Options::default()).expect("transform");
    let decoder = png::Decoder::new(std::io::Cursor::new(&out.bytes));
    let reader = decoder.read_info().expect("png");
    assert_eq!(reader.info().color_type, png::ColorType::Indexed);
    let back = image::load_from_memory(&out.bytes)
        .expect("decode")
        .to_rgba8();
    assert_eq!(back.as_raw(), logo.as_raw(), "palette PNG is lossless");
}

#[test]
fn webp_output_is_lossless() {
    let logo = common::disc(30, 20, [120, 40, 200, 255], [0, 0, 0, 0]);
    let options = Options {
        format: OutputFormat::WebP,
        ..Options::default()
    };
    let out = transform(&common::png(&logo), &options).expect("transform");
    let back = image::load_from_memory(&out.bytes)
        .expect("decode")
        .to_rgba8();
    assert_eq!(back.as_raw(), logo.as_raw());
}
