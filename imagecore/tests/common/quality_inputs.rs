//! Logo-like and photo-like sources of any size for the resize quality checks
//! (tests/resize_quality.rs): sharp edges, flat colour, transparency, thin lines, text-like
//! detail, and a smooth photo with texture.
#![allow(dead_code)]

use super::theme_logos::{draw, ORANGE, RED, WHITE};
use image::{ImageBuffer, Rgba, RgbaImage};

/// A source maker: width and height in, image out.
pub type Source = fn(u32, u32) -> RgbaImage;

/// Every source, named, for the checks that run on all of them.
pub const SOURCES: [(&str, Source); 5] = [
    ("badge", badge),
    ("ring", ring),
    ("thin lines", thin_lines),
    ("text", text),
    ("photo", photo),
];

/// A badge: a flat orange rounded rectangle with white letter-like bars, on transparency.
/// Coordinates are in a 400-unit-wide design, scaled to `width`×`height`.
pub fn badge(width: u32, height: u32) -> RgbaImage {
    let s = width as f32 / 400.0;
    let t = height as f32 / 400.0;
    draw(width, height, &|x, y| {
        let (u, v) = (x / s, y / t);
        let inside = (30.0..370.0).contains(&u) && (100.0..300.0).contains(&v);
        let corner = |cu: f32, cv: f32| (u - cu).powi(2) + (v - cv).powi(2) > 40.0 * 40.0;
        let rounded_off = (u < 70.0 && v < 140.0 && corner(70.0, 140.0))
            || (u > 330.0 && v < 140.0 && corner(330.0, 140.0))
            || (u < 70.0 && v > 260.0 && corner(70.0, 260.0))
            || (u > 330.0 && v > 260.0 && corner(330.0, 260.0));
        if !inside || rounded_off {
            return None;
        }
        let letter = (0..5).any(|i| {
            let left = 80.0 + 50.0 * i as f32;
            (left..left + 34.0).contains(&u)
                && (150.0..250.0).contains(&v)
                && !((left + 11.0..left + 23.0).contains(&u) && (165.0..235.0).contains(&v))
        });
        Some(if letter { WHITE } else { ORANGE })
    })
}

/// A red ring with a bar through it on transparency whose hidden colour is green.
pub fn ring(width: u32, height: u32) -> RgbaImage {
    let (cx, cy) = (width as f32 / 2.0, height as f32 / 2.0);
    let outer = cx.min(cy) * 0.9;
    let inner = outer * 0.75;
    let mut image = draw(width, height, &|x, y| {
        let d = ((x - cx).powi(2) + (y - cy).powi(2)).sqrt();
        let bar = (y - cy).abs() < outer * 0.1 && (x - cx).abs() < outer;
        (d <= outer && (d >= inner || bar)).then_some(RED)
    });
    for p in image.pixels_mut().filter(|p| p[3] == 0) {
        *p = Rgba([0, 255, 0, 0]);
    }
    image
}

/// One-pixel black lines (not anti-aliased) on white: a grid every 7 px and a diagonal every
/// 11 px, the detail a resize must average rather than alias.
pub fn thin_lines(width: u32, height: u32) -> RgbaImage {
    ImageBuffer::from_fn(width, height, |x, y| {
        let line = x % 7 == 0 || y % 7 == 0 || (x + y) % 11 == 0;
        Rgba(if line { [0, 0, 0, 255] } else { [255; 4] })
    })
}

/// Text-like detail on transparency: rows of dark "glyphs" (1–3 px strokes and counters) of a
/// pseudo-random shape, 9 px tall with 4 px between rows.
pub fn text(width: u32, height: u32) -> RgbaImage {
    ImageBuffer::from_fn(width, height, |x, y| {
        let (row, line) = (y / 13, y % 13);
        let (glyph, column) = (x / 6, x % 6);
        let seed =
            (row.wrapping_mul(7919) ^ glyph.wrapping_mul(104_729)).wrapping_mul(2_654_435_761);
        let stroke = line < 9
            && column < 5
            && ((seed >> (column + 5 * (line % 3))) & 1 == 1 || column == (seed >> 28) % 5);
        Rgba(if stroke {
            [32, 33, 36, 255]
        } else {
            [0, 0, 0, 0]
        })
    })
}

/// A photo-like opaque image: smooth colour gradients, a soft disc and fine sinusoidal texture.
pub fn photo(width: u32, height: u32) -> RgbaImage {
    let (w, h) = (width as f32, height as f32);
    ImageBuffer::from_fn(width, height, |x, y| {
        let (u, v) = (x as f32 / w, y as f32 / h);
        let texture = 18.0 * ((x as f32 * 0.9).sin() * (y as f32 * 0.7).cos());
        let disc = if (u - 0.6).powi(2) + (v - 0.4).powi(2) < 0.06 {
            70.0
        } else {
            0.0
        };
        let c = |base: f32| (base + texture + disc).clamp(0.0, 255.0) as u8;
        Rgba([
            c(40.0 + 160.0 * u),
            c(60.0 + 120.0 * v),
            c(200.0 - 150.0 * u * v),
            255,
        ])
    })
}
