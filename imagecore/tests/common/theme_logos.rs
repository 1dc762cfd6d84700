//! The logos the theme is tested and pictured with (tests/theme.rs, examples/theme_pictures.rs):
//! shapes drawn with 4×4 supersampled, anti-aliased edges on transparency.
#![allow(dead_code)]

use image::{ImageBuffer, Rgba, RgbaImage};

pub const BLACK: [u8; 3] = [0, 0, 0];
pub const WHITE: [u8; 3] = [255, 255, 255];
/// The example.org demo badge's orange (src/store/demo_logos.ts).
pub const ORANGE: [u8; 3] = [249, 115, 22];
/// A deep red, #b91c1c.
pub const RED: [u8; 3] = [185, 28, 28];
/// A deep indigo, #1e1b4b: saturated and too dark for a black page.
pub const INDIGO: [u8; 3] = [30, 27, 75];
/// A yellow, #facc15: too light for a white page, and nearly grey once made dark.
pub const YELLOW: [u8; 3] = [250, 204, 21];

/// The colour at a point, painted front to back: the first shape that covers it wins.
type Paint<'a> = &'a dyn Fn(f32, f32) -> Option<[u8; 3]>;

/// Draws `paint` at `width`×`height`, transparent where nothing covers a point.
pub fn draw(width: u32, height: u32, paint: Paint) -> RgbaImage {
    const N: u32 = 4;
    ImageBuffer::from_fn(width, height, |x, y| {
        let (mut sum, mut hits) = ([0u32; 3], 0u32);
        for sy in 0..N {
            for sx in 0..N {
                let px = x as f32 + (sx as f32 + 0.5) / N as f32;
                let py = y as f32 + (sy as f32 + 0.5) / N as f32;
                if let Some(c) = paint(px, py) {
                    for (s, v) in sum.iter_mut().zip(c) {
                        *s += u32::from(v);
                    }
                    hits += 1;
                }
            }
        }
        if hits == 0 {
            return Rgba([0, 0, 0, 0]);
        }
        let [r, g, b] = sum.map(|s| ((s + hits / 2) / hits) as u8);
        Rgba([r, g, b, ((hits * 255 + N * N / 2) / (N * N)) as u8])
    })
}

fn ring(x: f32, y: f32, cx: f32, cy: f32, outer: f32, inner: f32) -> bool {
    let d = (x - cx).powi(2) + (y - cy).powi(2);
    d <= outer * outer && d >= inner * inner
}

fn rect(x: f32, y: f32, x0: f32, y0: f32, x1: f32, y1: f32) -> bool {
    x >= x0 && x < x1 && y >= y0 && y < y1
}

fn rounded(x: f32, y: f32, x0: f32, y0: f32, x1: f32, y1: f32, r: f32) -> bool {
    let cx = x.clamp(x0 + r, x1 - r);
    let cy = y.clamp(y0 + r, y1 - r);
    rect(x, y, x0, y0, x1, y1) && (x - cx).powi(2) + (y - cy).powi(2) <= r * r
}

/// A one-colour mark: a ring with a bar through it (96×96).
pub fn mark(colour: [u8; 3]) -> RgbaImage {
    draw(96, 96, &|x, y| {
        (ring(x, y, 48.0, 48.0, 40.0, 30.0) || rect(x, y, 26.0, 43.0, 70.0, 53.0)).then_some(colour)
    })
}

/// The example.org badge: an orange rounded rectangle with white "text" bars (192×64).
pub fn orange_badge() -> RgbaImage {
    draw(192, 64, &|x, y| {
        if !rounded(x, y, 2.0, 2.0, 190.0, 62.0, 14.0) {
            return None;
        }
        let text = (0..3).any(|i| {
            let left = 46.0 + 36.0 * i as f32;
            rect(x, y, left, 16.0, left + 28.0, 48.0)
                && !rect(x, y, left + 8.0, 24.0, left + 20.0, 40.0)
        });
        Some(if text { WHITE } else { ORANGE })
    })
}

/// Two colours side by side: a `left` disc and a `right` wordmark bar (160×64).
pub fn two_colour(left: [u8; 3], right: [u8; 3]) -> RgbaImage {
    draw(160, 64, &|x, y| {
        if ring(x, y, 32.0, 32.0, 26.0, 0.0) {
            Some(left)
        } else if rect(x, y, 68.0, 18.0, 156.0, 46.0) {
            Some(right)
        } else {
            None
        }
    })
}

/// An opaque logo: a black tile with a white mark, no transparent pixel (96×96).
pub fn opaque_tile() -> RgbaImage {
    draw(96, 96, &|x, y| {
        Some(if ring(x, y, 48.0, 48.0, 30.0, 20.0) {
            WHITE
        } else {
            BLACK
        })
    })
}

/// A filled disc of `colour` (64×64): one colour, anti-aliased edge.
pub fn disc(colour: [u8; 3]) -> RgbaImage {
    draw(64, 64, &|x, y| {
        ring(x, y, 32.0, 32.0, 28.0, 0.0).then_some(colour)
    })
}
