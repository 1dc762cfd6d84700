//! Greyscale and theme for SVG text (`format=svg`): the colours of a sanitised document — as
//! usvg's writer leaves them, `#rrggbb` in the `fill`, `stroke`, `stop-color`, `flood-color` and
//! `lighting-color` attributes — recoloured by the rule rasters follow ([`crate::colour::theme`]).
//!
//! Greyscale replaces each colour with its Rec. 709 luma ([`luma`]), as the raster path does to
//! pixels. The theme is planned on the document's own picture: it is drawn [`PLAN_WIDTH`] px wide
//! (narrower where the work budget says, [`fit`]), the raster rule finds its parts and where each
//! is seen (against the page, or inside another part) and which must move, and every colour of
//! the document is mapped as a pixel of that colour would be, and where the part it is most like
//! moved, given that part's contrast too ([`Recolouring::map_whole`]: a gradient's stops between
//! the steps the drawing showed). Nothing else
//! of the text changes: no attribute is added or removed, so the document stays as sanitised as
//! it came. A colour written any other way (a name, `rgb()`, a `style` attribute: usvg's writer
//! writes none) is left as it is.

use crate::colour::greyscale::luma;
use crate::colour::theme::{plan, Recolouring, Theme};
use crate::error::{Error, ErrorCode, Result};
use crate::geometry::output_size;
use crate::svg::{draw, fit::fit, parse, prepass, size};
use resvg::usvg::roxmltree;
use std::ops::Range;

/// Width the theme is planned at: enough pixels for thin strokes and small text to have insides.
pub const PLAN_WIDTH: u32 = 256;

/// Attributes whose `#rrggbb` value is a colour.
const COLOUR_ATTRIBUTES: [&str; 5] = [
    "fill",
    "stroke",
    "stop-color",
    "flood-color",
    "lighting-color",
];

/// Where each `#rrggbb` colour of the text is, and the colour.
fn colours(text: &str) -> Result<Vec<(Range<usize>, [u8; 3])>> {
    let doc =
        roxmltree::Document::parse_with_options(text, prepass::xml_options()).map_err(|e| {
            Error::new(
                ErrorCode::Corrupt,
                format!("Cannot decode image: corrupt data (SVG: {e})"),
            )
        })?;
    let mut found = Vec::new();
    for node in doc.descendants().filter(|n| n.is_element()) {
        for attribute in node.attributes() {
            if attribute.namespace().is_some() || !COLOUR_ATTRIBUTES.contains(&attribute.name()) {
                continue;
            }
            if let Some(rgb) = hex_colour(attribute.value()) {
                found.push((attribute.range_value(), rgb));
            }
        }
    }
    Ok(found)
}

/// `#rrggbb` (either case) as a colour.
fn hex_colour(value: &str) -> Option<[u8; 3]> {
    let digits = value.strip_prefix('#')?;
    if digits.len() != 6 || !digits.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    let channel = |i: usize| u8::from_str_radix(&digits[i..i + 2], 16).ok();
    Some([channel(0)?, channel(2)?, channel(4)?])
}

/// `text` with the colour at each range replaced by `map` of it (ranges in document order).
fn replace(
    text: &str,
    found: &[(Range<usize>, [u8; 3])],
    map: impl Fn([u8; 3]) -> [u8; 3],
) -> String {
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for (range, rgb) in found {
        out.push_str(&text[at..range.start]);
        let [r, g, b] = map(*rgb);
        out.push_str(&format!("#{r:02x}{g:02x}{b:02x}"));
        at = range.end;
    }
    out.push_str(&text[at..]);
    out
}

/// What the theme does to the document `text`, planned on its picture; `None` when nothing.
fn plan_document(text: &str, theme: Theme) -> Result<Option<Recolouring>> {
    let tree = parse(text.as_bytes())?;
    let (src_width, src_height) = size(&tree);
    let (width, height) = output_size(src_width, src_height, PLAN_WIDTH)?;
    let (width, height) = fit(&tree, width, height)?;
    let pixels = draw(&tree, width, height)?;
    Ok(plan(&pixels, width, theme))
}

/// `text`, a sanitised SVG document, with its colours greyscaled (when `greyscale`) and then
/// themed for `theme`; `text` as it was when neither is asked.
///
/// # Errors
/// `corrupt` or `too_large` when `text` is not an SVG the module draws within its limits.
pub fn recolour(text: &str, greyscale: bool, theme: Option<Theme>) -> Result<String> {
    if !greyscale && theme.is_none() {
        return Ok(text.to_owned());
    }
    let mut text = text.to_owned();
    if greyscale {
        let found = colours(&text)?;
        text = replace(&text, &found, |[r, g, b]| [luma(r, g, b); 3]);
    }
    if let Some(theme) = theme {
        if let Some(recolouring) = plan_document(&text, theme)? {
            let found = colours(&text)?;
            text = replace(&text, &found, |rgb| recolouring.map_whole(rgb));
        }
    }
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_hex_colours_of_colour_attributes_are_found() {
        let text = r##"<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"><path fill="#FF0000" stroke="none" d="M0 0h4v4z"/><path fill="url(#g)" data-x="#00ff00" d="M0 0h1v1z"/><stop stop-color="#0000ff"/></svg>"##;
        let found = colours(text).unwrap();
        let got: Vec<_> = found.iter().map(|(r, c)| (&text[r.clone()], *c)).collect();
        assert_eq!(got, [("#FF0000", [255, 0, 0]), ("#0000ff", [0, 0, 255])]);
        let grey = replace(text, &found, |[r, g, b]| [luma(r, g, b); 3]);
        assert!(
            grey.contains(r##"fill="#363636""##) && grey.contains(r##"stop-color="#131313""##),
            "{grey}"
        );
        assert!(grey.contains(r##"data-x="#00ff00""##));
    }
}
