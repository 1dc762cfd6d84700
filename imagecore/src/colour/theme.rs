//! Theme: make a transparent logo read on a white (`light`) or black (`dark`) page by inverting
//! its lightness in OKLab (L → 1 − L, hue and chroma kept: [`crate::colour::lightness`]),
//! and only when the logo's own palette says that helps.
//!
//! The rule, measured on the logo's pixels, each weighted by its alpha:
//! 1. An opaque logo (no pixel below full alpha) carries its own background: left alone.
//! 2. What the page sees is the logo's *outline*: visible pixels that are translucent or touch a
//!    translucent pixel or the image's edge. Interior colours (the white text inside a badge) are
//!    seen against the logo, not the page.
//! 3. An outline colour *reads* on the page when its WCAG contrast is at least [`MIN_CONTRAST`]
//!    (3:1, SC 1.4.11), or at least [`MIN_CONTRAST_SATURATED`] (2:1) when it is saturated (OKLCH
//!    chroma ≥ [`SATURATED_CHROMA`]): a brand colour stands apart from white or black by its hue
//!    as well as its luminance.
//! 4. The logo is inverted only when that makes at least [`MIN_GAIN`] more of the outline read,
//!    and turns the hue of at most [`MAX_TURNED`] of all its ink: a colour with chroma ≥
//!    [`CHROMATIC`] turns when its inverted 8-bit colour moves hue by more than [`HUE_TOLERANCE`]
//!    degrees or keeps less than half its chroma (near black, sRGB has almost no yellow left).
//!
//! 5. A logo with more than [`PALETTE_CAP`] distinct visible colours (a photograph, noise) is
//!    left alone: the theme is for marks, and judging each of a million colours costs seconds.
//!
//! Inversion maps every visible pixel's colour; alpha is never changed.

use crate::colour::lightness::{contrast, Colour};
use crate::colour::theme_palette::Palette;

/// WCAG 2.1 minimum contrast for graphical objects (SC 1.4.11).
pub const MIN_CONTRAST: f32 = 3.0;
/// Minimum contrast of a saturated colour (chroma ≥ [`SATURATED_CHROMA`]).
pub const MIN_CONTRAST_SATURATED: f32 = 2.0;
/// OKLCH chroma from which a colour counts as saturated for [`MIN_CONTRAST_SATURATED`].
pub const SATURATED_CHROMA: f32 = 0.1;
/// Share of the outline (by alpha) that inverting must newly make readable.
pub const MIN_GAIN: f64 = 0.25;
/// OKLCH chroma from which a colour has a hue worth keeping.
pub const CHROMATIC: f32 = 0.05;
/// Largest hue shift, in degrees, of a colour that keeps its hue.
pub const HUE_TOLERANCE: f32 = 10.0;
/// Largest share of the ink (by alpha) whose hue inverting may turn.
pub const MAX_TURNED: f64 = 0.05;
/// Most distinct visible colours a themed logo may have (their verdicts take about 1 MiB); a
/// logo with more is left alone (rule 5), which bounds the work to this many verdicts.
pub const PALETTE_CAP: usize = 1 << 16;

/// The background a themed logo is shown on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Theme {
    /// White background.
    Light,
    /// Black background.
    Dark,
}

impl Theme {
    /// The theme for an ABI code: 0 none, 1 light, 2 dark.
    pub fn from_code(code: u8) -> Option<Option<Theme>> {
        match code {
            0 => Some(None),
            1 => Some(Some(Theme::Light)),
            2 => Some(Some(Theme::Dark)),
            _ => None,
        }
    }

    /// WCAG relative luminance of the page.
    fn page_luminance(self) -> f32 {
        match self {
            Theme::Light => 1.0,
            Theme::Dark => 0.0,
        }
    }
}

/// Whether `colour` reads on a page of luminance `page` (rule 3).
pub fn reads_on(colour: &Colour, page: f32) -> bool {
    let ratio = contrast(colour.luminance, page);
    ratio >= MIN_CONTRAST
        || (colour.chroma() >= SATURATED_CHROMA && ratio >= MIN_CONTRAST_SATURATED)
}

/// Whether the visible pixel at (x, y) is on the outline (rule 2).
fn on_outline(pixels: &[u8], width: usize, height: usize, x: usize, y: usize) -> bool {
    let translucent = |x: usize, y: usize| pixels[(y * width + x) * 4 + 3] < 255;
    translucent(x, y)
        || x == 0
        || y == 0
        || x + 1 == width
        || y + 1 == height
        || translucent(x - 1, y)
        || translucent(x + 1, y)
        || translucent(x, y - 1)
        || translucent(x, y + 1)
}

/// Applies `theme` to straight-alpha RGBA8 `pixels`, rows of `width` pixels; returns whether the
/// logo was inverted.
///
/// ```
/// use imagecore::colour::theme::{apply_theme, Theme};
/// // A black 2×1 mark, half transparent: on a dark page it turns white, alpha kept.
/// let mut pixels = vec![0, 0, 0, 255, 0, 0, 0, 128];
/// assert!(apply_theme(&mut pixels, 2, Theme::Dark));
/// assert_eq!(pixels, [255, 255, 255, 255, 255, 255, 255, 128]);
/// ```
pub fn apply_theme(pixels: &mut [u8], width: u32, theme: Theme) -> bool {
    let width = width as usize;
    if width == 0 || pixels.chunks_exact(4).all(|p| p[3] == 255) {
        return false;
    }
    let height = pixels.len() / 4 / width;
    let mut palette = Palette::new(theme.page_luminance());
    // The outline first: most logos stop here, having judged only the colours of their edge.
    let (mut outline, mut gain) = (0.0f64, 0.0f64);
    for y in 0..height {
        for x in 0..width {
            let i = (y * width + x) * 4;
            if pixels[i + 3] == 0 || !on_outline(pixels, width, height, x, y) {
                continue;
            }
            let alpha = f64::from(pixels[i + 3]);
            let Some(v) = palette.verdict(&pixels[i..i + 3]) else {
                return false;
            };
            outline += alpha;
            gain += alpha * (f64::from(u8::from(v.reads_inverted)) - f64::from(u8::from(v.reads)));
        }
    }
    if outline == 0.0 || gain < MIN_GAIN * outline {
        return false;
    }
    // The ink's alpha first (integers, exact in f64), so the pass over its colours can stop as
    // soon as too much of it turns.
    let ink: f64 = pixels.chunks_exact(4).map(|p| f64::from(p[3])).sum();
    let mut turned = 0.0f64;
    for pixel in pixels.chunks_exact(4).filter(|p| p[3] > 0) {
        match palette.turns(pixel) {
            None => return false,
            Some(true) => turned += f64::from(pixel[3]),
            Some(false) => continue,
        }
        if turned > MAX_TURNED * ink {
            return false;
        }
    }
    // Every visible colour was judged by the pass above, so each is in the palette.
    for pixel in pixels.chunks_exact_mut(4).filter(|p| p[3] > 0) {
        if let Some(v) = palette.verdict(pixel) {
            pixel[..3].copy_from_slice(&v.inverted);
        }
    }
    true
}
