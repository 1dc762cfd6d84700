//! Colour in OKLab/OKLCH for the theme step: a pixel's lightness, chroma, hue and WCAG luminance,
//! and its lightness inverted (L → 1 − L) with hue and chroma kept, gamut-mapped back to sRGB.
//!
//! The conversions are the `oklab` crate's (Björn Ottosson's published matrices). Gamut mapping
//! keeps L and hue and reduces chroma only, by bisection, to the largest chroma sRGB can show
//! (the chroma-reduction method of CSS Color 4, without its just-noticeable-difference shortcut),
//! so the hue never turns; only rounding to 8 bits moves it.

use oklab::{linear_srgb_to_oklab, oklab_to_linear_srgb, oklab_to_srgb, srgb_to_oklab, Oklab, Rgb};

/// Bisection steps on the chroma scale: 2⁻¹⁶ of the chroma, far below one 8-bit step.
const GAMUT_STEPS: u32 = 16;

/// How far a linear channel may stray outside [0, 1] and still count as in gamut (float error).
const GAMUT_SLACK: f32 = 1e-4;

/// sRGB-encoded 8-bit channel → linear light (IEC 61966-2-1).
fn srgb_to_linear(value: u8) -> f32 {
    let c = f32::from(value) / 255.0;
    if c <= 0.04045 {
        c / 12.92
    } else {
        ((c + 0.055) / 1.055).powf(2.4)
    }
}

/// A colour seen through OKLab, with its WCAG 2.1 relative luminance.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Colour {
    /// OKLab coordinates.
    pub lab: Oklab,
    /// WCAG 2.1 relative luminance, 0 (black) to 1 (white).
    pub luminance: f32,
}

impl Colour {
    /// The colour of an 8-bit sRGB triple.
    ///
    /// ```
    /// let white = imagecore::lightness::Colour::of([255, 255, 255]);
    /// assert!((white.lab.l - 1.0).abs() < 1e-3 && white.chroma() < 1e-3);
    /// assert!((white.luminance - 1.0).abs() < 1e-6);
    /// ```
    pub fn of(rgb: [u8; 3]) -> Colour {
        let [r, g, b] = rgb.map(srgb_to_linear);
        Colour {
            lab: linear_srgb_to_oklab(Rgb::new(r, g, b)),
            luminance: 0.2126 * r + 0.7152 * g + 0.0722 * b,
        }
    }

    /// OKLCH chroma: distance from the grey axis (0 for greys, about 0.32 at most in sRGB).
    pub fn chroma(&self) -> f32 {
        self.lab.a.hypot(self.lab.b)
    }

    /// OKLCH hue in degrees, [0, 360).
    ///
    /// ```
    /// use imagecore::lightness::Colour;
    /// let orange = Colour::of([249, 115, 22]).hue();
    /// assert!(orange > 40.0 && orange < 60.0, "{orange}");
    /// ```
    pub fn hue(&self) -> f32 {
        self.lab.b.atan2(self.lab.a).to_degrees().rem_euclid(360.0)
    }
}

/// WCAG contrast ratio of two relative luminances, 1 to 21.
pub fn contrast(a: f32, b: f32) -> f32 {
    let (hi, lo) = if a > b { (a, b) } else { (b, a) };
    (hi + 0.05) / (lo + 0.05)
}

/// Smallest angle between two hues, in degrees.
pub fn hue_distance(a: f32, b: f32) -> f32 {
    let d = (a - b).rem_euclid(360.0);
    d.min(360.0 - d)
}

fn in_gamut(lab: Oklab) -> bool {
    let c = oklab_to_linear_srgb(lab);
    [c.r, c.g, c.b]
        .iter()
        .all(|&v| (-GAMUT_SLACK..=1.0 + GAMUT_SLACK).contains(&v))
}

/// `rgb` with its OKLab lightness inverted (L → 1 − L), hue kept, and chroma kept or, where sRGB
/// cannot show it at the new lightness, reduced to the most it can.
///
/// ```
/// use imagecore::lightness::invert_lightness;
/// assert_eq!(invert_lightness([0, 0, 0]), [255, 255, 255]);
/// assert_eq!(invert_lightness([255, 255, 255]), [0, 0, 0]);
/// ```
pub fn invert_lightness(rgb: [u8; 3]) -> [u8; 3] {
    let lab = srgb_to_oklab(Rgb::new(rgb[0], rgb[1], rgb[2]));
    let l = (1.0 - lab.l).clamp(0.0, 1.0);
    let at = |scale: f32| Oklab {
        l,
        a: lab.a * scale,
        b: lab.b * scale,
    };
    let mut scale = 1.0;
    if !in_gamut(at(1.0)) {
        // Greys are in gamut at every lightness, so scale 0 always fits.
        let (mut fits, mut fails) = (0.0f32, 1.0f32);
        for _ in 0..GAMUT_STEPS {
            let mid = (fits + fails) / 2.0;
            if in_gamut(at(mid)) {
                fits = mid;
            } else {
                fails = mid;
            }
        }
        scale = fits;
    }
    let out = oklab_to_srgb(at(scale));
    [out.r, out.g, out.b]
}
