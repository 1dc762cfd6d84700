//! A check on the XML (roxmltree), before usvg builds its tree, of two properties that make the
//! tree building itself slow, whether set by an attribute, a `style` attribute or a `<style>`
//! sheet (parsed with simplecss, the CSS parser usvg uses, and matched the way usvg matches it):
//!
//! - `stroke-width` over [`MAX_STROKE_WIDTH`] user units: usvg strokes every path to find its
//!   bounding box, and in f32 a stroke of 10^7 units around a small shape takes tiny-skia's
//!   stroker about 7 ms (10^8: 180 ms) per shape in WASM, so 5000 such circles hang `probe`.
//!   3 × 10^6 costs no more than a stroke of 1. The output-size check of `svg::budget` comes later.
//! - more than [`MAX_FILTERED_ELEMENTS`] elements given a `filter`: usvg resolves a filter region
//!   per element, and `*{filter:blur(…)}` gives one to every element. resvg applies at most
//!   `svg::budget::MAX_FILTER_PRIMITIVES` primitives, each filter has at least one, so such a
//!   document would be refused after a slow build anyway.
//! - more than [`MAX_SELECTOR_MATCHES`] style rules × elements: usvg matches every rule against
//!   every element.

use crate::error::Result;
use crate::svg::prepass::too_complex;
use resvg::usvg::roxmltree::{Document, Node};
use simplecss::{AttributeOperator, Declaration, DeclarationTokenizer, PseudoClass, StyleSheet};

/// Widest stroke accepted, in user units (CSS units converted to px).
pub const MAX_STROKE_WIDTH: f64 = 1e6;
/// Most elements that may be given a filter (the filter primitive budget of `svg::budget`).
pub const MAX_FILTERED_ELEMENTS: u64 = 64;
/// Most selector matches usvg may try (style rules × elements): it matches every rule against
/// every element, about 50–110 ns a match in WASM, so 3000 rules over 15 000 elements took
/// 2.3–5 s to `probe`. A logo has tens of rules and hundreds of elements.
pub const MAX_SELECTOR_MATCHES: u64 = 1_000_000;

struct XmlNode<'a, 'input>(Node<'a, 'input>);

impl simplecss::Element for XmlNode<'_, '_> {
    fn parent_element(&self) -> Option<Self> {
        self.0.parent_element().map(XmlNode)
    }

    fn prev_sibling_element(&self) -> Option<Self> {
        self.0.prev_sibling_element().map(XmlNode)
    }

    fn has_local_name(&self, name: &str) -> bool {
        self.0.tag_name().name() == name
    }

    fn attribute_matches(&self, name: &str, operator: AttributeOperator<'_>) -> bool {
        self.0.attribute(name).is_some_and(|v| operator.matches(v))
    }

    fn pseudo_class_matches(&self, class: PseudoClass<'_>) -> bool {
        matches!(class, PseudoClass::FirstChild) && self.0.prev_sibling_element().is_none()
    }
}

/// A length in user units, its unit converted; `%` and font-relative units conservatively as
/// large as they could reasonably be (of a 10^4-unit diagonal, of a 100 px font).
fn length(value: &str) -> f64 {
    let value = value.trim();
    let split = value
        .find(|c: char| !(c.is_ascii_digit() || matches!(c, '.' | '-' | '+' | 'e' | 'E')))
        .unwrap_or(value.len());
    // "1e" of "1em": back off a trailing exponent marker.
    let (number, unit) = match value[..split].strip_suffix(['e', 'E']) {
        Some(n) => (n, &value[split - 1..]),
        None => (&value[..split], &value[split..]),
    };
    let Ok(number) = number.parse::<f64>() else {
        return 0.0;
    };
    let scale = match unit.trim().to_ascii_lowercase().as_str() {
        "" | "px" => 1.0,
        "in" => 96.0,
        "cm" => 96.0 / 2.54,
        "mm" => 96.0 / 25.4,
        "pt" => 4.0 / 3.0,
        "pc" => 16.0,
        _ => 100.0, // %, em, ex and anything usvg may read
    };
    number.abs() * scale
}

fn check_declaration(declaration: &Declaration<'_>) -> Result<()> {
    if declaration.name == "stroke-width" {
        check_stroke_width(declaration.value)?;
    }
    Ok(())
}

fn check_stroke_width(value: &str) -> Result<()> {
    let width = length(value);
    if width.is_nan() || width > MAX_STROKE_WIDTH {
        return Err(too_complex(format!(
            "a stroke width of {}, limit {MAX_STROKE_WIDTH:.0} user units",
            value.trim()
        )));
    }
    Ok(())
}

fn sets_filter(declaration: &Declaration<'_>) -> bool {
    declaration.name == "filter" && declaration.value.trim() != "none"
}

/// Refuses a document with a stroke wider than [`MAX_STROKE_WIDTH`] anywhere, with more than
/// [`MAX_SELECTOR_MATCHES`] rules × elements, or with more than [`MAX_FILTERED_ELEMENTS`]
/// elements given a filter. Returns how many elements get a filter.
pub fn check(doc: &Document) -> Result<u64> {
    let mut sheet = StyleSheet::new();
    for style in doc.descendants().filter(|n| n.has_tag_name("style")) {
        if let Some(text) = style.text() {
            sheet.parse_more(text);
        }
    }
    for rule in &sheet.rules {
        rule.declarations.iter().try_for_each(check_declaration)?;
    }
    let filter_rules: Vec<_> = sheet
        .rules
        .iter()
        .filter(|rule| rule.declarations.iter().any(sets_filter))
        .collect();
    let elements = doc.descendants().filter(Node::is_element);
    let count = elements.clone().count() as u64;
    if (sheet.rules.len() as u64).saturating_mul(count) > MAX_SELECTOR_MATCHES {
        return Err(too_complex(format!(
            "{} style rules × {count} elements, limit {MAX_SELECTOR_MATCHES} matches",
            sheet.rules.len()
        )));
    }
    let mut filtered = 0;
    for node in elements {
        if let Some(width) = node.attribute("stroke-width") {
            check_stroke_width(width)?;
        }
        let mut has_filter = node.attribute("filter").is_some_and(|f| f.trim() != "none");
        if let Some(style) = node.attribute("style") {
            for declaration in DeclarationTokenizer::from(style) {
                check_declaration(&declaration)?;
                has_filter |= sets_filter(&declaration);
            }
        }
        let xml = XmlNode(node);
        has_filter |= filter_rules.iter().any(|rule| rule.selector.matches(&xml));
        if has_filter {
            filtered += 1;
            if filtered > MAX_FILTERED_ELEMENTS {
                return Err(too_complex(format!(
                    "over {MAX_FILTERED_ELEMENTS} elements with a filter"
                )));
            }
        }
    }
    Ok(filtered)
}

#[cfg(test)]
mod tests {
    use super::length;

    #[test]
    fn lengths_convert_their_units() {
        assert_eq!(length("3"), 3.0);
        assert_eq!(length(" 1e9px "), 1e9);
        assert_eq!(length("1in"), 96.0);
        assert_eq!(length("2em"), 200.0);
        assert_eq!(length("1e3em"), 1e5);
        assert_eq!(length("-4"), 4.0);
        assert_eq!(length("inherit"), 0.0);
    }
}
