#![cfg(feature = "raster")]
//! An opaque source skips premultiplying and dividing alpha (`resize::is_opaque`): the result must
//! be byte for byte what the premultiplied convolution gives, since × 255 / 255 changes nothing.
mod common;

use common::quality_inputs::{photo, SOURCES};
use fast_image_resize::images::Image;
use fast_image_resize::{FilterType, MulDiv, PixelType, ResizeAlg, ResizeOptions, Resizer};
use image::RgbaImage;
use imagecore::raster::decode::{decode_for_resize, decode_samples, Decoded};
use imagecore::raster::pipeline::{transform, Options};
use imagecore::raster::resize::{is_opaque, output_size, resize, resize_lanczos3, resize_rgb};

/// `image` flattened onto white: opaque.
fn opaque(image: RgbaImage) -> Vec<u8> {
    let mut pixels = image.into_raw();
    for pixel in pixels.chunks_exact_mut(4) {
        let a = u32::from(pixel[3]);
        for c in &mut pixel[..3] {
            *c = ((u32::from(*c) * a + 255 * (255 - a) + 127) / 255) as u8;
        }
        pixel[3] = 255;
    }
    pixels
}

/// One Lanczos3 convolution on premultiplied alpha, as `resize` did before the opaque shortcut.
fn premultiplied_lanczos3(pixels: Vec<u8>, w: u32, h: u32, ow: u32, oh: u32) -> Vec<u8> {
    let mut src = Image::from_vec_u8(w, h, pixels, PixelType::U8x4).expect("image");
    let alpha = MulDiv::new();
    alpha.multiply_alpha_inplace(&mut src).expect("multiply");
    let mut dst = Image::new(ow, oh, PixelType::U8x4);
    let options = ResizeOptions::new()
        .resize_alg(ResizeAlg::Convolution(FilterType::Lanczos3))
        .use_alpha(false);
    Resizer::new()
        .resize(&src, &mut dst, &options)
        .expect("resize");
    alpha.divide_alpha_inplace(&mut dst).expect("divide");
    dst.into_vec()
}

#[test]
fn an_opaque_source_resizes_to_the_same_bytes_without_premultiplying() {
    for (w, h, width) in [
        (512, 512, 128),
        (1024, 1024, 128),
        (300, 201, 77),
        (64, 64, 128),
    ] {
        for (name, source) in SOURCES {
            let pixels = opaque(source(w, h));
            assert!(is_opaque(&pixels));
            let (ow, oh) = output_size(w, h, width).expect("size");
            let before = premultiplied_lanczos3(pixels.clone(), w, h, ow, oh);
            assert!(
                resize(pixels.clone(), w, h, ow, oh).expect("resize") == before,
                "{name} {w}×{h} → {ow}×{oh}"
            );
            assert!(resize_lanczos3(pixels, w, h, ow, oh).expect("resize") == before);
        }
    }
}

#[test]
fn one_translucent_pixel_anywhere_makes_a_source_not_opaque() {
    let pixels = opaque(photo(31, 17));
    assert!(is_opaque(&pixels));
    for at in [0, 63, 64, 200, 31 * 17 - 1] {
        let mut one = pixels.clone();
        one[at * 4 + 3] = 254;
        assert!(!is_opaque(&one), "pixel {at}");
    }
}

/// `pixels` (RGBA) without their alpha.
fn rgb_of(pixels: &[u8]) -> Vec<u8> {
    pixels
        .chunks_exact(4)
        .flat_map(|p| [p[0], p[1], p[2]])
        .collect()
}

#[test]
fn resizing_rgb_gives_the_bytes_of_resizing_the_same_pixels_as_rgba() {
    // 4:1 and 8:1 (one Lanczos3), 32:1 (box pre-shrink first), an odd size, the same size and an
    // upscale: every branch of resize_rgb.
    for (w, h, width) in [
        (512, 512, 128),
        (1024, 1024, 128),
        (2048, 512, 64),
        (300, 201, 77),
        (96, 64, 96),
        (64, 64, 128),
    ] {
        for (name, source) in SOURCES {
            let pixels = opaque(source(w, h));
            let (ow, oh) = output_size(w, h, width).expect("size");
            let expected = resize(pixels.clone(), w, h, ow, oh).expect("resize");
            let got = resize_rgb(rgb_of(&pixels), w, h, ow, oh).expect("resize_rgb");
            assert!(got == expected, "{name} {w}×{h} → {ow}×{oh}");
        }
    }
}

#[test]
fn a_colour_transform_of_a_jpeg_gives_the_pixels_of_its_rgba_decode_resized() {
    // The decode is the transform's own (at reduced scale where it shrinks on load,
    // tests/jpeg_shrink_on_load.rs); the RGBA resize of it must give the transform's bytes.
    let fixtures: [(&str, &[u8]); 5] = [
        ("YCbCr", &common::jpeg(&photo(300, 200))),
        ("grey", include_bytes!("fixtures/halves_grey.jpg")),
        ("CMYK", include_bytes!("fixtures/halves_cmyk.jpg")),
        (
            "progressive",
            include_bytes!("fixtures/halves_progressive.jpg"),
        ),
        (
            "EXIF orientation 6",
            include_bytes!("fixtures/halves_orientation_6.jpg"),
        ),
    ];
    for (name, jpeg) in fixtures {
        for width in [7, 40, 64, 128] {
            let (source, (ow, oh)) =
                decode_for_resize(jpeg, true, |w, h| output_size(w, h, width)).expect(name);
            let source = source.into_rgba();
            let expected = resize(source.pixels, source.width, source.height, ow, oh).expect(name);
            let out = transform(
                jpeg,
                &Options {
                    width: Some(width),
                    ..Options::default()
                },
            )
            .expect(name);
            let got = image::load_from_memory(&out.bytes).expect(name).to_rgba8();
            assert_eq!((got.width(), got.height()), (ow, oh), "{name} at {width}");
            assert!(got.into_raw() == expected, "{name} at {width}");
        }
    }
}

#[test]
fn a_jpeg_decodes_to_three_channels_only_when_asked_and_other_formats_never_do() {
    let three = |bytes: &[u8], rgb: bool| {
        let (decoded, ()) = decode_samples(bytes, rgb, |_, _| Ok(())).expect("decode");
        matches!(decoded, Decoded::Rgb(_))
    };
    for jpeg in [
        &common::jpeg(&photo(30, 20))[..],
        include_bytes!("fixtures/halves_grey.jpg"),
        include_bytes!("fixtures/halves_cmyk.jpg"),
        include_bytes!("fixtures/halves_progressive.jpg"),
        include_bytes!("fixtures/halves_orientation_6.jpg"),
    ] {
        assert!(three(jpeg, true));
        assert!(!three(jpeg, false));
    }
    assert!(!three(&common::png(&photo(30, 20)), true));
}
