//! Colour in OKLab/OKLCH for the theme step: a colour's lightness, chroma, hue and WCAG luminance,
//! and the same colour at another lightness with hue and chroma kept, gamut-mapped back to sRGB.
//!
//! The conversions are Björn Ottosson's published OKLab matrices
//! (<https://bottosson.github.io/posts/oklab/>), in plain `f32` arithmetic. Gamut mapping keeps L
//! and hue and reduces chroma only, by bisection, to the largest chroma sRGB can show (the
//! chroma-reduction method of CSS Color 4, without its just-noticeable-difference shortcut), so
//! the hue never turns; only rounding to 8 bits moves it.
//!
//! Why not the `oklab` crate, which holds the same matrices: it writes every product-sum as
//! `f32::mul_add`, and wasm32 has no fused multiply-add instruction, so each became a call to a
//! software `fmaf`: 6 per conversion, 96 in one gamut bisection.

use std::sync::OnceLock;

/// Bisection steps on the chroma scale: 2⁻¹⁶ of the chroma, far below one 8-bit step.
const GAMUT_STEPS: u32 = 16;

/// How far a linear channel may stray outside [0, 1] and still count as in gamut (float error).
const GAMUT_SLACK: f32 = 1e-4;

/// A colour's OKLab coordinates: lightness `l` (0 black to 1 white), and `a`, `b` (green–red and
/// blue–yellow, about ±0.4 in sRGB).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Oklab {
    /// Lightness.
    pub l: f32,
    /// Green (−) to red (+).
    pub a: f32,
    /// Blue (−) to yellow (+).
    pub b: f32,
}

/// Linear-light sRGB → OKLab.
fn linear_to_oklab([r, g, b]: [f32; 3]) -> Oklab {
    let l = (0.412_221_47 * r + 0.536_332_55 * g + 0.051_445_995 * b).cbrt();
    let m = (0.211_903_5 * r + 0.680_699_5 * g + 0.107_396_96 * b).cbrt();
    let s = (0.088_302_46 * r + 0.281_718_85 * g + 0.629_978_7 * b).cbrt();
    Oklab {
        l: 0.210_454_26 * l + 0.793_617_8 * m - 0.004_072_047 * s,
        a: 1.977_998_5 * l - 2.428_592_2 * m + 0.450_593_7 * s,
        b: 0.025_904_037 * l + 0.782_771_77 * m - 0.808_675_77 * s,
    }
}

/// OKLab → linear-light sRGB, unclamped (a channel outside [0, 1] is out of gamut).
fn oklab_to_linear(lab: Oklab) -> [f32; 3] {
    let l = lab.l + 0.396_337_78 * lab.a + 0.215_803_76 * lab.b;
    let m = lab.l - 0.105_561_346 * lab.a - 0.063_854_17 * lab.b;
    let s = lab.l - 0.089_484_18 * lab.a - 1.291_485_5 * lab.b;
    let (l, m, s) = (l * l * l, m * m * m, s * s * s);
    [
        4.076_741_7 * l - 3.307_711_6 * m + 0.230_969_94 * s,
        -1.268_438 * l + 2.609_757_4 * m - 0.341_319_38 * s,
        -0.004_196_086_3 * l - 0.703_418_6 * m + 1.707_614_7 * s,
    ]
}

/// Linear light → the nearest sRGB-encoded 8-bit level (clamped to 0–255; NaN gives 0). Found
/// among the 255 linear values where one level gives way to the next (each the midpoint between
/// two levels, decoded), so no `powf` per call.
fn linear_to_srgb(value: f32) -> u8 {
    static BOUNDS: OnceLock<[f32; 255]> = OnceLock::new();
    let bounds = BOUNDS.get_or_init(|| {
        std::array::from_fn(|v| {
            let encoded = (v as f64 + 0.5) / 255.0;
            let linear = if encoded <= 0.040_45 {
                encoded / 12.92
            } else {
                ((encoded + 0.055) / 1.055).powf(2.4)
            };
            linear as f32
        })
    });
    bounds.partition_point(|&bound| bound <= value) as u8
}

/// sRGB-encoded 8-bit channel → linear light (IEC 61966-2-1).
fn srgb_to_linear_exact(value: u8) -> f32 {
    let c = f32::from(value) / 255.0;
    if c <= 0.04045 {
        c / 12.92
    } else {
        ((c + 0.055) / 1.055).powf(2.4)
    }
}

/// [`srgb_to_linear_exact`] of every 8-bit value, computed once: a theme judges thousands of
/// colours per call, and `powf` is a software routine in WASM.
fn srgb_to_linear(value: u8) -> f32 {
    static TABLE: OnceLock<[f32; 256]> = OnceLock::new();
    TABLE.get_or_init(|| std::array::from_fn(|v| srgb_to_linear_exact(v as u8)))[usize::from(value)]
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
    /// let white = imagecore::colour::lightness::Colour::of([255, 255, 255]);
    /// assert!((white.lab.l - 1.0).abs() < 1e-3 && white.chroma() < 1e-3);
    /// assert!((white.luminance - 1.0).abs() < 1e-6);
    /// ```
    pub fn of(rgb: [u8; 3]) -> Colour {
        Colour {
            lab: linear_to_oklab(rgb.map(srgb_to_linear)),
            luminance: luminance(rgb),
        }
    }

    /// OKLCH chroma: distance from the grey axis (0 for greys, about 0.32 at most in sRGB).
    pub fn chroma(&self) -> f32 {
        (self.lab.a * self.lab.a + self.lab.b * self.lab.b).sqrt()
    }

    /// OKLCH hue in degrees, [0, 360).
    ///
    /// ```
    /// use imagecore::colour::lightness::Colour;
    /// let orange = Colour::of([249, 115, 22]).hue();
    /// assert!(orange > 40.0 && orange < 60.0, "{orange}");
    /// ```
    pub fn hue(&self) -> f32 {
        self.lab.b.atan2(self.lab.a).to_degrees().rem_euclid(360.0)
    }

    /// This colour at OKLab lightness `l` (clamped to [0, 1]), hue and chroma kept, or where sRGB
    /// cannot show that chroma at `l`, chroma alone reduced to the most it can (bisection at
    /// constant L and hue), rounded to 8 bits.
    ///
    /// ```
    /// use imagecore::colour::lightness::Colour;
    /// assert_eq!(Colour::of([0, 0, 0]).with_lightness(1.0), [255, 255, 255]);
    /// assert_eq!(Colour::of([255, 255, 255]).with_lightness(0.0), [0, 0, 0]);
    /// ```
    pub fn with_lightness(&self, l: f32) -> [u8; 3] {
        let lab = self.lab;
        let l = l.clamp(0.0, 1.0);
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
        oklab_to_linear(at(scale)).map(linear_to_srgb)
    }
}

/// WCAG 2.1 relative luminance of an 8-bit sRGB triple, 0 (black) to 1 (white).
///
/// ```
/// use imagecore::colour::lightness::luminance;
/// assert_eq!(luminance([0, 0, 0]), 0.0);
/// assert!((luminance([255, 255, 255]) - 1.0).abs() < 1e-6);
/// ```
pub fn luminance(rgb: [u8; 3]) -> f32 {
    let [r, g, b] = rgb.map(srgb_to_linear);
    0.2126 * r + 0.7152 * g + 0.0722 * b
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
    oklab_to_linear(lab)
        .iter()
        .all(|&v| (-GAMUT_SLACK..=1.0 + GAMUT_SLACK).contains(&v))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The 8-bit level nearest to the sRGB encoding of `value`, computed with `powf` in f64.
    fn nearest_level(value: f32) -> u8 {
        let c = f64::from(value).clamp(0.0, 1.0);
        let encoded = if c <= 0.003_130_8 {
            c * 12.92
        } else {
            1.055 * c.powf(1.0 / 2.4) - 0.055
        };
        (encoded * 255.0).round() as u8
    }

    #[test]
    fn every_level_survives_decoding_and_encoding() {
        for level in 0..=255u8 {
            assert_eq!(linear_to_srgb(srgb_to_linear(level)), level);
        }
    }

    #[test]
    fn the_encoding_table_rounds_as_the_formula_does() {
        // 1,000,001 points over [0, 1]. They disagree at one, by one level: 0.593905, which as an
        // f32 is the table's boundary between levels 202 and 203 (the formula gives 202.499997).
        let mut disagreements = 0;
        for i in 0..=1_000_000u32 {
            let value = i as f32 / 1_000_000.0;
            let (table, formula) = (linear_to_srgb(value), nearest_level(value));
            if table != formula {
                assert_eq!(table.abs_diff(formula), 1, "at {value}");
                disagreements += 1;
            }
        }
        assert!(disagreements <= 1, "{disagreements} disagreements");
        assert_eq!(linear_to_srgb(-0.5), 0);
        assert_eq!(linear_to_srgb(1.5), 255);
        assert_eq!(linear_to_srgb(f32::NAN), 0);
    }
}
