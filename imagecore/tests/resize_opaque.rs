#![cfg(feature = "raster")]
//! An opaque source skips premultiplying and dividing alpha (`resize::is_opaque`): the result must
//! be byte for byte what the premultiplied convolution gives, since × 255 / 255 changes nothing.
mod common;

use common::quality_inputs::{photo, SOURCES};
use fast_image_resize::images::Image;
use fast_image_resize::{FilterType, MulDiv, PixelType, ResizeAlg, ResizeOptions, Resizer};
use image::RgbaImage;
use imagecore::resize::{is_opaque, output_size, resize, resize_lanczos3};

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
