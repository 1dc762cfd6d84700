//! Image quality against a reference: PSNR on premultiplied RGBA8.
//!
//! Premultiplied, so a transparent pixel counts by what it shows (nothing), not by the colour
//! a resize leaves in it: straight RGB of a pixel at alpha 1 is noise nobody sees. Every
//! channel of every pixel counts, alpha included.
#![allow(dead_code)]

/// The quality bar of every resize fast path: 40 dB is a root-mean-square error of 2.55 levels
/// out of 255.
pub const MIN_PSNR_DB: f64 = 40.0;

/// One straight-alpha RGBA8 pixel's channels, premultiplied, in 0..=255.
fn premultiplied(pixel: &[u8]) -> [f64; 4] {
    let alpha = f64::from(pixel[3]);
    [
        f64::from(pixel[0]) * alpha / 255.0,
        f64::from(pixel[1]) * alpha / 255.0,
        f64::from(pixel[2]) * alpha / 255.0,
        alpha,
    ]
}

/// Peak signal-to-noise ratio of `image` against `reference` (same size, straight-alpha RGBA8),
/// in dB: 10·log10(255² / mean squared error), on premultiplied channels. Identical images
/// give infinity.
pub fn psnr(image: &[u8], reference: &[u8]) -> f64 {
    assert_eq!(image.len(), reference.len(), "images of different sizes");
    assert!(
        !image.is_empty() && image.len().is_multiple_of(4),
        "not RGBA8 pixels"
    );
    let mut squared = 0.0;
    for (a, b) in image.chunks_exact(4).zip(reference.chunks_exact(4)) {
        let (a, b) = (premultiplied(a), premultiplied(b));
        squared += a.iter().zip(b).map(|(x, y)| (x - y).powi(2)).sum::<f64>();
    }
    let mse = squared / image.len() as f64;
    if mse == 0.0 {
        return f64::INFINITY;
    }
    10.0 * (255.0f64 * 255.0 / mse).log10()
}
