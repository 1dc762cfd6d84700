//! Theme: make a transparent logo read on a white (`light`) or black (`dark`) page by changing the
//! lightness of each part that does not, and nothing else.
//!
//! The rule, measured on the logo's pixels:
//! 1. An opaque logo (no pixel below full alpha) carries its own background: left alone.
//! 2. A logo with more than [`PALETTE_CAP`] distinct visible colours (a photograph, noise) is left
//!    alone: the theme is for marks, and judging each of a million colours costs seconds.
//! 3. The logo is seen as *parts*: the few colours it is drawn in, every other colour being an
//!    edge of one (the same colour at lower alpha) or a blend of two
//!    ([`crate::colour::theme_parts`]).
//! 4. A part is seen against the page when its edge is on the logo's outline (next to
//!    transparency), else against the part it lies inside: the white text of a black badge is
//!    seen against the badge ([`crate::colour::theme_regions`]).
//! 5. A part seen against the page *reads* when its WCAG contrast with the page is at least
//!    [`READS`] (3:1, SC 1.4.11), measured on its 8-bit colour; one that does not is moved lighter
//!    (dark page) or darker (light page) by the least OKLab lightness that gives it [`AIM`]
//!    (3.2:1), hue and chroma kept as far as sRGB allows ([`crate::colour::contrast_target`]).
//! 6. A part inside another keeps its colour while its contrast with that part, as recoloured,
//!    is at least what it was or 3:1, whichever is less; else it is moved the least that gives it
//!    that again (3.2:1 when it had 3:1), in the direction it had (lighter text stays lighter
//!    than its badge when it can). Parts are decided outside in, so a badge is recoloured before
//!    the text on it.
//!
//! Every colour then maps by its fit to the parts: a part's own colour to the part's new colour,
//! its edge pixels with it, a blend of two parts to the same blend of their new colours
//! ([`crate::colour::theme_parts::Fit::map`]); a logo whose parts all keep their colour is left
//! exactly as it was. Alpha is never changed. Greyscale, when asked, runs first, so the theme
//! judges the grey logo.

use crate::colour::contrast_target::reach_either;
pub use crate::colour::contrast_target::{AIM, READS};
use crate::colour::lightness::{contrast, luminance};
use crate::colour::theme_palette::Palette;
use crate::colour::theme_parts::{fit, nearest, select_parts};
use crate::colour::theme_regions::{seen, Seen};

/// Most distinct visible colours a themed logo may have; a logo with more is left alone (rule 2),
/// which bounds the work of every pass to this many colours.
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
    pub fn page_luminance(self) -> f32 {
        match self {
            Theme::Light => 1.0,
            Theme::Dark => 0.0,
        }
    }
}

/// What the theme does to a logo: its parts' colours, and what each becomes.
#[derive(Debug, Clone, PartialEq)]
pub struct Recolouring {
    /// The parts' colours, heaviest first.
    pub parts: Vec<[u8; 3]>,
    /// The colour each part becomes (its own colour where it reads).
    pub mapped: Vec<[u8; 3]>,
    /// For each part that moved, the contrast it was moved to: see [`Target`].
    pub targets: Vec<Option<Target>>,
}

/// The contrast a moved part was given: `aim` against luminance `against` (the page, or the
/// recoloured part around it), reached by moving lighter (`lighter`) or darker.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Target {
    /// Luminance of what the part is seen against, after the theme.
    pub against: f32,
    /// Contrast it was given.
    pub aim: f32,
    /// Whether it was moved lighter.
    pub lighter: bool,
}

impl Recolouring {
    /// The colour `rgb` becomes: fitted to the parts, then mapped with them (edges with their
    /// part, blends as the same blend).
    ///
    /// ```
    /// use imagecore::colour::theme::Recolouring;
    /// let black_to_grey = Recolouring {
    ///     parts: vec![[0, 0, 0]],
    ///     mapped: vec![[120, 120, 120]],
    ///     targets: vec![None],
    /// };
    /// assert_eq!(black_to_grey.map([0, 0, 0]), [120, 120, 120]);
    /// assert_eq!(black_to_grey.map([4, 4, 4]), [124, 124, 124]);
    /// ```
    pub fn map(&self, rgb: [u8; 3]) -> [u8; 3] {
        fit(rgb, &self.parts).map(rgb, &self.parts, &self.mapped)
    }

    /// [`Recolouring::map`] of a colour that fills a whole shape (an SVG document's colour, not a
    /// pixel of an edge or a seam): when the part it is most like moved, the mapped colour is also
    /// given that part's [`Target`], so a gradient stop between two steps the drawing showed
    /// reads as the steps do.
    ///
    /// ```
    /// use imagecore::colour::lightness::{contrast, luminance};
    /// use imagecore::colour::theme::{Recolouring, Target};
    /// // A near-black part lifted to a grey that reads on a black page.
    /// let lifted = Recolouring {
    ///     parts: vec![[20, 20, 20]],
    ///     mapped: vec![[94, 94, 94]],
    ///     targets: vec![Some(Target { against: 0.0, aim: 3.2, lighter: true })],
    /// };
    /// // Black, darker than the part, follows it by its residual and falls short of 3:1 ...
    /// assert!(contrast(luminance(lifted.map([0, 0, 0])), 0.0) < 3.0);
    /// // ... but as a whole colour it is given the part's contrast.
    /// assert!(contrast(luminance(lifted.map_whole([0, 0, 0])), 0.0) >= 3.2);
    /// ```
    pub fn map_whole(&self, rgb: [u8; 3]) -> [u8; 3] {
        let f = fit(rgb, &self.parts);
        let mapped = f.map(rgb, &self.parts, &self.mapped);
        match self.targets[f.main()] {
            Some(t) if contrast(luminance(mapped), t.against) < t.aim.min(READS) => {
                reach_either(mapped, t.against, t.aim, t.lighter)
            }
            _ => mapped,
        }
    }
}

/// How many of the pixel at index `i`'s four neighbours have exactly its RGBA.
fn same_neighbours(pixels: &[u8], width: usize, height: usize, i: usize) -> u32 {
    let (x, y) = (i % width, i / width);
    let word = |j: usize| {
        u32::from_ne_bytes([
            pixels[j * 4],
            pixels[j * 4 + 1],
            pixels[j * 4 + 2],
            pixels[j * 4 + 3],
        ])
    };
    let here = word(i);
    let same = |j: usize| word(j) == here;
    u32::from(x > 0 && same(i - 1))
        + u32::from(x + 1 < width && same(i + 1))
        + u32::from(y > 0 && same(i - width))
        + u32::from(y + 1 < height && same(i + width))
}

/// A plan for the logo in straight-alpha RGBA8 `pixels`, rows of `width` pixels, with the palette
/// it was made from and each pixel's index in it (2 bytes a pixel, so later passes hash nothing);
/// `None` when the theme leaves the logo alone.
fn plan_with(pixels: &[u8], width: u32, theme: Theme) -> Option<(Recolouring, Palette, Vec<u16>)> {
    let width = width as usize;
    if width == 0 || pixels.chunks_exact(4).all(|p| p[3] == 255) {
        return None; // rule 1
    }
    let height = pixels.len() / 4 / width;
    let mut palette = Palette::new();
    let mut index = vec![0u16; pixels.len() / 4];
    for (i, pixel) in pixels.chunks_exact(4).enumerate() {
        if pixel[3] > 0 {
            index[i] = palette.add(pixel, same_neighbours(pixels, width, height, i))?;
            // rule 2
        }
    }
    let chosen = select_parts(&palette.entries);
    let parts: Vec<[u8; 3]> = chosen.iter().map(|&i| palette.entries[i].rgb).collect();
    let page = theme.page_luminance();
    let lum: Vec<f32> = parts.iter().map(|&rgb| luminance(rgb)).collect();
    if lum.iter().all(|&l| contrast(l, page) >= READS) {
        return None; // every part reads on the page, wherever it lies
    }
    let regions: Vec<usize> = palette
        .entries
        .iter()
        .map(|e| nearest(e.rgb, &parts))
        .collect();
    let (seen, order) = seen(pixels, width, parts.len(), |i| {
        regions[usize::from(index[i])]
    });
    let mut mapped = parts.clone();
    let mut targets = vec![None; parts.len()];
    for p in order {
        let target = match seen[p] {
            Seen::OnPage if contrast(lum[p], page) >= READS => None,
            Seen::OnPage => Some(Target {
                against: page,
                aim: AIM,
                lighter: theme == Theme::Dark,
            }),
            Seen::Inside(q) => {
                let had = contrast(lum[p], lum[q]);
                let around = luminance(mapped[q]);
                (contrast(lum[p], around) < had.min(READS)).then(|| Target {
                    against: around,
                    aim: if had >= READS { AIM } else { had },
                    lighter: lum[p] > lum[q],
                })
            }
        };
        if let Some(t) = target {
            mapped[p] = reach_either(parts[p], t.against, t.aim, t.lighter);
        }
        targets[p] = target;
    }
    (mapped != parts).then_some((
        Recolouring {
            parts,
            mapped,
            targets,
        },
        palette,
        index,
    ))
}

/// What the theme would do to the logo in straight-alpha RGBA8 `pixels`, rows of `width`
/// pixels: `None` when it leaves it alone. The SVG module plans on a rasterisation and maps the
/// document's colours with it.
///
/// ```
/// use imagecore::colour::theme::{plan, Theme};
/// // A black 16×1 mark with a translucent end: on a dark page it turns grey, on a light one it
/// // is left alone.
/// let mut mark = [0, 0, 0, 255].repeat(16);
/// mark[63] = 128;
/// let recolouring = plan(&mark, 16, Theme::Dark).unwrap();
/// assert_eq!(recolouring.parts, [[0, 0, 0]]);
/// assert!(plan(&mark, 16, Theme::Light).is_none());
/// ```
pub fn plan(pixels: &[u8], width: u32, theme: Theme) -> Option<Recolouring> {
    plan_with(pixels, width, theme).map(|(recolouring, _, _)| recolouring)
}

/// Applies `theme` to straight-alpha RGBA8 `pixels`, rows of `width` pixels; returns whether any
/// colour changed.
///
/// ```
/// use imagecore::colour::lightness::{contrast, luminance};
/// use imagecore::colour::theme::{apply_theme, Theme};
/// // A black 16×1 mark with a translucent end: on a dark page it turns grey enough to read, its
/// // end the same grey, alpha kept.
/// let mut pixels = [0, 0, 0, 255].repeat(16);
/// pixels[63] = 128;
/// assert!(apply_theme(&mut pixels, 16, Theme::Dark));
/// assert!(contrast(luminance([pixels[0], pixels[1], pixels[2]]), 0.0) >= 3.0);
/// assert_eq!((pixels[3], &pixels[60..63], pixels[63]), (255, &pixels[0..3], 128));
/// ```
pub fn apply_theme(pixels: &mut [u8], width: u32, theme: Theme) -> bool {
    let Some((recolouring, palette, index)) = plan_with(pixels, width, theme) else {
        return false;
    };
    let new: Vec<[u8; 3]> = palette
        .entries
        .iter()
        .map(|e| recolouring.map(e.rgb))
        .collect();
    for (pixel, &at) in pixels.chunks_exact_mut(4).zip(&index) {
        if pixel[3] > 0 {
            pixel[..3].copy_from_slice(&new[usize::from(at)]);
        }
    }
    true
}
