//! Fixture images made with the `image` crate's encoders.
#![allow(dead_code)]

pub mod hostile;
pub mod part_logos;
pub mod quality;
pub mod quality_inputs;
pub mod theme_logos;

use image::codecs::bmp::BmpEncoder;
use image::codecs::gif::{GifEncoder, Repeat};
use image::codecs::jpeg::JpegEncoder;
use image::codecs::png::PngEncoder;
use image::codecs::webp::WebPEncoder;
use image::{Delay, ExtendedColorType, Frame, ImageBuffer, ImageEncoder, Rgba, RgbaImage};

/// Asserts every channel of `got` is within `tolerance` of `want`; `what` names the pixel.
pub fn assert_near(got: [u8; 4], want: [u8; 4], tolerance: u8, what: &str) {
    let close = got
        .iter()
        .zip(want)
        .all(|(a, b)| a.abs_diff(b) <= tolerance);
    assert!(
        close,
        "{what}: {got:?} is not within {tolerance} of {want:?}"
    );
}

/// A `width`×`height` image: a filled disc of `colour` on `background`.
pub fn disc(width: u32, height: u32, colour: [u8; 4], background: [u8; 4]) -> RgbaImage {
    let (cx, cy) = (width as f32 / 2.0, height as f32 / 2.0);
    let r = cx.min(cy) * 0.8;
    ImageBuffer::from_fn(width, height, |x, y| {
        let d = ((x as f32 + 0.5 - cx).powi(2) + (y as f32 + 0.5 - cy).powi(2)).sqrt();
        Rgba(if d <= r { colour } else { background })
    })
}

pub fn png(image: &RgbaImage) -> Vec<u8> {
    let mut out = Vec::new();
    PngEncoder::new(&mut out)
        .write_image(
            image,
            image.width(),
            image.height(),
            ExtendedColorType::Rgba8,
        )
        .expect("encode png");
    out
}

pub fn png16(image: &RgbaImage) -> Vec<u8> {
    let wide: Vec<u8> = image
        .as_raw()
        .iter()
        .flat_map(|&v| (u16::from(v) * 257).to_be_bytes())
        .collect();
    let mut out = Vec::new();
    let mut encoder = png::Encoder::new(&mut out, image.width(), image.height());
    encoder.set_color(png::ColorType::Rgba);
    encoder.set_depth(png::BitDepth::Sixteen);
    let mut writer = encoder.write_header().expect("header");
    writer.write_image_data(&wide).expect("data");
    writer.finish().expect("finish");
    out
}

pub fn bmp(image: &RgbaImage) -> Vec<u8> {
    let mut out = Vec::new();
    BmpEncoder::new(&mut out)
        .write_image(
            image,
            image.width(),
            image.height(),
            ExtendedColorType::Rgba8,
        )
        .expect("encode bmp");
    out
}

/// A GIF whose first frame is `first` and second frame is `second`.
pub fn gif(first: &RgbaImage, second: &RgbaImage) -> Vec<u8> {
    let mut out = Vec::new();
    {
        let mut encoder = GifEncoder::new(&mut out);
        encoder.set_repeat(Repeat::Infinite).expect("repeat");
        for image in [first, second] {
            let frame = Frame::from_parts(image.clone(), 0, 0, Delay::from_numer_denom_ms(100, 1));
            encoder.encode_frame(frame).expect("frame");
        }
    }
    out
}

/// A GIF of one frame.
pub fn gif1(image: &RgbaImage) -> Vec<u8> {
    let mut out = Vec::new();
    {
        let mut encoder = GifEncoder::new(&mut out);
        let frame = Frame::from_parts(image.clone(), 0, 0, Delay::from_numer_denom_ms(100, 1));
        encoder.encode_frame(frame).expect("frame");
    }
    out
}

/// An ICO with the given entries, each `(bits per pixel in the directory, entry bytes, side)`.
pub fn ico(entries: &[(u16, Vec<u8>, u32)]) -> Vec<u8> {
    let mut out = vec![0, 0, 1, 0];
    out.extend_from_slice(&(entries.len() as u16).to_le_bytes());
    let mut offset = 6 + 16 * entries.len();
    for (bits, data, side) in entries {
        let side_byte = if *side >= 256 { 0 } else { *side as u8 };
        out.extend_from_slice(&[side_byte, side_byte, 0, 0, 1, 0]);
        out.extend_from_slice(&bits.to_le_bytes());
        out.extend_from_slice(&(data.len() as u32).to_le_bytes());
        out.extend_from_slice(&(offset as u32).to_le_bytes());
        offset += data.len();
    }
    for (_, data, _) in entries {
        out.extend_from_slice(data);
    }
    out
}

/// CRC-32 (PNG's) for hand-made chunks.
pub fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = 0xffff_ffffu32;
    for &byte in bytes {
        crc ^= u32::from(byte);
        for _ in 0..8 {
            crc = if crc & 1 == 1 {
                (crc >> 1) ^ 0xedb8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

/// A PNG signature and a valid IHDR claiming `width`×`height` RGBA, then nothing.
pub fn png_header_only(width: u32, height: u32) -> Vec<u8> {
    let mut out = b"\x89PNG\r\n\x1a\n".to_vec();
    let mut chunk = b"IHDR".to_vec();
    chunk.extend_from_slice(&width.to_be_bytes());
    chunk.extend_from_slice(&height.to_be_bytes());
    chunk.extend_from_slice(&[8, 6, 0, 0, 0]);
    out.extend_from_slice(&13u32.to_be_bytes());
    out.extend_from_slice(&chunk);
    out.extend_from_slice(&crc32(&chunk).to_be_bytes());
    out
}

/// An ICO BMP entry: BITMAPINFOHEADER (height doubled), BGRA rows bottom-up, then the AND mask.
pub fn ico_dib(image: &RgbaImage) -> Vec<u8> {
    let (w, h) = (image.width(), image.height());
    let mut out = Vec::new();
    out.extend_from_slice(&40u32.to_le_bytes());
    out.extend_from_slice(&(w as i32).to_le_bytes());
    out.extend_from_slice(&((h * 2) as i32).to_le_bytes());
    out.extend_from_slice(&1u16.to_le_bytes());
    out.extend_from_slice(&32u16.to_le_bytes());
    out.extend_from_slice(&[0; 24]);
    for y in (0..h).rev() {
        for x in 0..w {
            let p = image.get_pixel(x, y).0;
            out.extend_from_slice(&[p[2], p[1], p[0], p[3]]);
        }
    }
    out.extend(std::iter::repeat_n(0u8, (w.div_ceil(32) * 4 * h) as usize));
    out
}

/// A baseline JPEG (quality 90) of the image's colours, alpha dropped.
pub fn jpeg(image: &RgbaImage) -> Vec<u8> {
    let rgb = image::DynamicImage::ImageRgba8(image.clone()).to_rgb8();
    let mut out = Vec::new();
    JpegEncoder::new_with_quality(&mut out, 90)
        .write_image(&rgb, rgb.width(), rgb.height(), ExtendedColorType::Rgb8)
        .expect("encode jpeg");
    out
}

/// A lossless WebP.
pub fn webp(image: &RgbaImage) -> Vec<u8> {
    let mut out = Vec::new();
    WebPEncoder::new_lossless(&mut out)
        .write_image(
            image,
            image.width(),
            image.height(),
            ExtendedColorType::Rgba8,
        )
        .expect("encode webp");
    out
}

/// A `width`×`height` image of gradients and noise: every part of its file matters.
pub fn busy(width: u32, height: u32) -> RgbaImage {
    let mut state = 0x9e37_79b9u32;
    ImageBuffer::from_fn(width, height, |x, y| {
        state ^= state << 13;
        state ^= state >> 17;
        state ^= state << 5;
        Rgba([
            (x * 255 / width) as u8,
            (y * 255 / height) as u8,
            (state >> 24) as u8,
            255,
        ])
    })
}
