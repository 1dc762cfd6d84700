//! The smallest lightness change that gives a colour a contrast ratio against another luminance:
//! the move the theme makes on a part that does not read ([`crate::colour::theme`]).
//!
//! The colour keeps its OKLab hue and chroma ([`Colour::with_lightness`]: chroma is reduced only
//! where sRGB cannot show it at the new lightness) and moves in one direction, lighter or darker,
//! as little as reaches the ratio. Ratios are measured on the 8-bit colour that is written, so
//! rounding can never leave a part under its target.

use crate::colour::lightness::{contrast, luminance, Colour};

/// Contrast a part must have to read: WCAG 2.1's minimum for graphical objects (SC 1.4.11).
pub const READS: f32 = 3.0;
/// Contrast an adapted part is given: a little above [`READS`], so resampling the logo later
/// (a smaller rendition of a themed source) does not drop it under.
pub const AIM: f32 = 3.2;

/// Bisection steps on the lightness scale: 2⁻¹⁴ of it, below one 8-bit step.
const STEPS: u32 = 14;

/// `rgb` moved lighter (or darker) by the least OKLab lightness that gives it a contrast of at
/// least `aim` against luminance `against`, judged on the 8-bit result; `None` when even white
/// (black) falls short.
///
/// ```
/// use imagecore::colour::contrast_target::reach;
/// use imagecore::colour::lightness::{contrast, luminance};
/// // Black on a black page: the least lightening that gives 3.2:1 is a mid grey.
/// let grey = reach([0, 0, 0], 0.0, 3.2, true).unwrap();
/// assert!(contrast(luminance(grey), 0.0) >= 3.2);
/// assert!(grey[0] < 128 && grey[0] == grey[1] && grey[1] == grey[2]);
/// // No colour is 3:1 darker than black.
/// assert_eq!(reach([0, 0, 0], 0.0, 3.2, false), None);
/// ```
pub fn reach(rgb: [u8; 3], against: f32, aim: f32, lighter: bool) -> Option<[u8; 3]> {
    let reads = |rgb: [u8; 3]| contrast(luminance(rgb), against) >= aim;
    if reads(rgb) {
        return Some(rgb);
    }
    let colour = Colour::of(rgb);
    let (mut near, mut far) = (colour.lab.l, if lighter { 1.0f32 } else { 0.0 });
    let extreme = colour.with_lightness(far);
    if !reads(extreme) {
        return None;
    }
    let mut best = extreme;
    for _ in 0..STEPS {
        let mid = (near + far) / 2.0;
        let candidate = colour.with_lightness(mid);
        if reads(candidate) {
            far = mid;
            best = candidate;
        } else {
            near = mid;
        }
    }
    Some(best)
}

/// `rgb` given contrast `aim` against luminance `against`, preferring the direction `lighter`
/// and taking the other when that one cannot reach it; when neither can, the extreme with the
/// most contrast.
///
/// ```
/// use imagecore::colour::contrast_target::reach_either;
/// // Against a grey of luminance 0.25, 4:1 is out of reach lighter (white gives 3.5:1): darker.
/// let out = reach_either([200, 200, 200], 0.25, 4.0, true);
/// assert!(out[0] < 60, "{out:?}");
/// ```
pub fn reach_either(rgb: [u8; 3], against: f32, aim: f32, lighter: bool) -> [u8; 3] {
    reach(rgb, against, aim, lighter)
        .or_else(|| reach(rgb, against, aim, !lighter))
        .unwrap_or_else(|| {
            let colour = Colour::of(rgb);
            let (white, black) = (colour.with_lightness(1.0), colour.with_lightness(0.0));
            if contrast(luminance(white), against) >= contrast(luminance(black), against) {
                white
            } else {
                black
            }
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_change_is_the_least_that_reaches_the_aim() {
        // Every 16th level of each channel, on both pages: the result reaches the aim, and one
        // 8-bit lightness step back towards the original would not.
        for r in (0..=255u8).step_by(51) {
            for g in (0..=255u8).step_by(51) {
                for b in (0..=255u8).step_by(51) {
                    for (page, lighter) in [(0.0, true), (1.0, false)] {
                        let rgb = [r, g, b];
                        let out = reach(rgb, page, AIM, lighter).expect("reachable on a page");
                        assert!(contrast(luminance(out), page) >= AIM, "{rgb:?} → {out:?}");
                        if out == rgb {
                            continue;
                        }
                        let (before, after) = (Colour::of(rgb).lab.l, Colour::of(out).lab.l);
                        assert_eq!(after > before, lighter, "{rgb:?} → {out:?}");
                        let back = Colour::of(rgb)
                            .with_lightness(after - (after - before).signum() * 0.01);
                        assert!(
                            contrast(luminance(back), page) < AIM + 0.25,
                            "{rgb:?} → {out:?}"
                        );
                    }
                }
            }
        }
    }
}
