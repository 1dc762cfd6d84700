//! Theme: invert a transparent logo that would lack contrast on the page's background.
//!
//! The logo's colour is the alpha-weighted mean WCAG relative luminance of its visible pixels.
//! When its contrast ratio against the background (#fff for light, #000 for dark) is below
//! [`MIN_CONTRAST`] and inverting RGB raises it, RGB is inverted and alpha kept. An opaque logo
//! carries its own background and is left alone.

/// WCAG 2.1 minimum contrast for graphical objects (SC 1.4.11).
pub const MIN_CONTRAST: f64 = 3.0;

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

    fn background_luminance(self) -> f64 {
        match self {
            Theme::Light => 1.0,
            Theme::Dark => 0.0,
        }
    }
}

/// sRGB-encoded channel → linear light, for all 256 values.
fn linear_table() -> [f64; 256] {
    let mut table = [0.0; 256];
    for (value, slot) in table.iter_mut().enumerate() {
        let c = value as f64 / 255.0;
        *slot = if c <= 0.04045 {
            c / 12.92
        } else {
            ((c + 0.055) / 1.055).powf(2.4)
        };
    }
    table
}

/// WCAG contrast ratio of two relative luminances.
pub fn contrast(a: f64, b: f64) -> f64 {
    let (hi, lo) = if a > b { (a, b) } else { (b, a) };
    (hi + 0.05) / (lo + 0.05)
}

/// Applies `theme` to straight-alpha RGBA8 `pixels`; returns whether the logo was inverted.
pub fn apply_theme(pixels: &mut [u8], theme: Theme) -> bool {
    let linear = linear_table();
    let luminance = |r: u8, g: u8, b: u8| {
        0.2126 * linear[usize::from(r)]
            + 0.7152 * linear[usize::from(g)]
            + 0.0722 * linear[usize::from(b)]
    };
    let mut transparent = false;
    let (mut weight, mut kept, mut flipped) = (0.0f64, 0.0f64, 0.0f64);
    for pixel in pixels.chunks_exact(4) {
        let alpha = pixel[3];
        if alpha < 255 {
            transparent = true;
        }
        if alpha == 0 {
            continue;
        }
        let a = f64::from(alpha);
        weight += a;
        kept += a * luminance(pixel[0], pixel[1], pixel[2]);
        flipped += a * luminance(255 - pixel[0], 255 - pixel[1], 255 - pixel[2]);
    }
    if !transparent || weight == 0.0 {
        return false;
    }
    let background = theme.background_luminance();
    let as_is = contrast(kept / weight, background);
    let inverted = contrast(flipped / weight, background);
    if as_is >= MIN_CONTRAST || inverted <= as_is {
        return false;
    }
    for pixel in pixels.chunks_exact_mut(4) {
        pixel[0] = 255 - pixel[0];
        pixel[1] = 255 - pixel[1];
        pixel[2] = 255 - pixel[2];
    }
    true
}
