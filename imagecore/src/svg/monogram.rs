//! The monogram tile: an SVG document of a square tile with one letter, which the SVG module then
//! draws with the bundled font (`svg::font`) like any SVG logo. The service answers it for
//! `fallback=monogram` when no logo is found.
//!
//! - The letter is the first character of the label given (the domain's brand label, in
//!   Unicode), upper-cased when that gives one character, if the bundled font has it; otherwise
//!   [`NEUTRAL_GLYPH`].
//! - The background is one of [`PALETTE`], picked by a hash (FNV-1a, 32 bits) of the domain: the
//!   same domain always gets the same colour, on every machine and release of this table.
//! - The letter is white or near-black, whichever contrasts more with the background (WCAG
//!   relative luminance).

use crate::svg::font;

/// Drawn when the label's first character is not in the bundled font.
pub const NEUTRAL_GLYPH: char = '#';

/// Background colours (sRGB), mid-tone hues that read with a white or a dark letter.
pub const PALETTE: [[u8; 3]; 12] = [
    [0xe5, 0x39, 0x35], // red
    [0xd8, 0x1b, 0x60], // pink
    [0x8e, 0x24, 0xaa], // purple
    [0x5e, 0x35, 0xb1], // deep purple
    [0x39, 0x49, 0xab], // indigo
    [0x1e, 0x88, 0xe5], // blue
    [0x00, 0x89, 0x7b], // teal
    [0x43, 0xa0, 0x47], // green
    [0x7c, 0xb3, 0x42], // light green
    [0xfd, 0xd8, 0x35], // yellow
    [0xfb, 0x8c, 0x00], // orange
    [0x6d, 0x4c, 0x41], // brown
];

/// The dark letter colour (the light one is white).
pub const DARK_LETTER: [u8; 3] = [0x1a, 0x1a, 0x1a];

/// FNV-1a (32 bits) of `text`'s UTF-8 bytes.
pub fn fnv1a(text: &str) -> u32 {
    text.bytes().fold(0x811c_9dc5, |hash, byte| {
        (hash ^ u32::from(byte)).wrapping_mul(0x0100_0193)
    })
}

/// The background colour of `domain`'s tile.
pub fn background(domain: &str) -> [u8; 3] {
    PALETTE[fnv1a(domain) as usize % PALETTE.len()]
}

fn luminance([r, g, b]: [u8; 3]) -> f64 {
    let linear = |c: u8| {
        let c = f64::from(c) / 255.0;
        if c <= 0.04045 {
            c / 12.92
        } else {
            ((c + 0.055) / 1.055).powf(2.4)
        }
    };
    0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b)
}

/// WCAG contrast ratio of two colours (1 to 21).
pub fn contrast(a: [u8; 3], b: [u8; 3]) -> f64 {
    let (la, lb) = (luminance(a), luminance(b));
    (la.max(lb) + 0.05) / (la.min(lb) + 0.05)
}

/// The letter colour on `background`: white or [`DARK_LETTER`], whichever contrasts more.
pub fn letter_colour(background: [u8; 3]) -> [u8; 3] {
    let white = [0xff, 0xff, 0xff];
    if contrast(white, background) >= contrast(DARK_LETTER, background) {
        white
    } else {
        DARK_LETTER
    }
}

/// The letter drawn for `label`: its first character, upper-cased when that is one character, if
/// the bundled font has it; else [`NEUTRAL_GLYPH`] (an empty label too).
pub fn letter(label: &str) -> char {
    let Some(first) = label.chars().next() else {
        return NEUTRAL_GLYPH;
    };
    let mut upper = first.to_uppercase();
    let shown = match (upper.next(), upper.next()) {
        (Some(one), None) => one,
        _ => first,
    };
    if shown.is_alphanumeric() && font::has_char(shown) {
        shown
    } else {
        NEUTRAL_GLYPH
    }
}

fn hex([r, g, b]: [u8; 3]) -> String {
    format!("#{r:02x}{g:02x}{b:02x}")
}

/// The tile's SVG document (100 × 100 user units, drawn at any width): `label`'s [`letter`] on
/// `domain`'s [`background`].
pub fn document(label: &str, domain: &str) -> String {
    let back = background(domain);
    let letter = letter(label); // alphanumeric or '#': nothing to escape in XML
    format!(
        concat!(
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100" viewBox="0 0 100 100">"#,
            r#"<rect width="100" height="100" fill="{}"/>"#,
            r#"<text x="50" y="50" dy="0.36em" text-anchor="middle" font-family="{}" font-size="60" fill="{}">{}</text>"#,
            "</svg>"
        ),
        hex(back),
        font::FAMILY,
        hex(letter_colour(back)),
        letter
    )
}
