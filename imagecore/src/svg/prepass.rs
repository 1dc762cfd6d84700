//! The first SVG budget, checked on the XML (roxmltree) before usvg sees it: usvg copies every
//! `<use>` target and every marker instance while it builds its tree, so a small document can
//! expand to millions of elements (and overflow the stack when nested deep) before any check on
//! the usvg tree could run.
//!
//! The count is an upper bound of what usvg builds: every element once, plus for each `<use>`
//! the expanded size of its target, plus, when the document has markers at all, three copies of
//! the largest marker for every number in each path's `d` (or `points`): a vertex takes at least
//! one number, and a vertex carries at most a start, a mid and an end marker. An `<image>` also
//! counts one element per KiB of its `href`: it is never drawn, but usvg decodes a `data:` URL
//! again for every `<use>` of it. A character of text (in `<text>`, `<tspan>` or `<textPath>`)
//! counts [`TEXT_CHARACTER_ELEMENTS`] elements: usvg shapes it and builds its outline before the
//! tree budget runs.

use crate::error::{Error, ErrorCode, Result};
use resvg::usvg::roxmltree::{Document, Node, NodeId};
use std::collections::{HashMap, HashSet};

/// Most elements an SVG may expand to (after `<use>` and markers), counted again on the usvg
/// tree for every time an element is rendered.
pub const MAX_SVG_ELEMENTS: u64 = 20_000;
/// Deepest nesting of elements, counting a `<use>` as one level above its target.
pub const MAX_SVG_DEPTH: usize = 64;
/// An `<image>` counts as one more element per this many bytes of its `href`.
pub const IMAGE_HREF_BYTES: u64 = 1024;
/// Largest radius of a circle, ellipse or rounded rect, in user units: past any device size.
pub const MAX_RADIUS: f32 = 1e15;
/// Largest `feMorphology` radius in user units (in `objectBoundingBox` units: 1), past
/// `svg::filter_range`'s device limit at any sane scale: usvg unwraps the radius times the
/// element's box as a finite f32.
pub const MAX_MORPHOLOGY_RADIUS: f32 = 1e6;
/// Elements a character of text counts as: usvg shapes it and builds its outline before the tree
/// budget runs (4: at most 5000 characters, which build in about 0.15 s natively).
pub const TEXT_CHARACTER_ELEMENTS: u64 = 4;
/// Most XML nodes (elements, text, comments) the parser builds.
const MAX_XML_NODES: u32 = 200_000;

/// Parsing options for roxmltree: DTDs allowed (roxmltree bounds entity expansion itself), node
/// count capped.
pub fn xml_options<'input>() -> resvg::usvg::roxmltree::ParsingOptions<'input> {
    resvg::usvg::roxmltree::ParsingOptions {
        allow_dtd: true,
        nodes_limit: MAX_XML_NODES,
        ..Default::default()
    }
}

/// The error of an SVG over a budget: `too_large`, "Cannot render SVG: too complex (…)".
pub fn too_complex(what: impl std::fmt::Display) -> Error {
    Error::new(
        ErrorCode::TooLarge,
        format!("Cannot render SVG: too complex ({what})"),
    )
}

struct Expansion<'a, 'input> {
    ids: HashMap<&'a str, Node<'a, 'input>>,
    memo: HashMap<NodeId, u64>,
    open: HashSet<NodeId>,
    marker_cost: u64,
}

fn is_element(node: &Node, name: &str) -> bool {
    node.is_element() && node.tag_name().name() == name
}

/// How many runs of digits `value` holds: at least its number of numbers ("1.5" is two runs),
/// so an upper bound of the vertices of path data or points.
fn numbers_in(value: &str) -> u64 {
    let mut count = 0;
    let mut in_number = false;
    for byte in value.bytes() {
        let digit = byte.is_ascii_digit();
        if digit && !in_number {
            count += 1;
        }
        in_number = digit;
    }
    count
}

impl<'a, 'input> Expansion<'a, 'input> {
    fn cost(&mut self, node: Node<'a, 'input>, depth: usize) -> Result<u64> {
        if depth > MAX_SVG_DEPTH {
            return Err(too_complex(format!(
                "nested more than {MAX_SVG_DEPTH} levels deep"
            )));
        }
        if let Some(&cost) = self.memo.get(&node.id()) {
            return Ok(cost);
        }
        if !self.open.insert(node.id()) {
            return Ok(0); // a reference cycle: usvg drops it
        }
        let mut cost: u64 = 1;
        for child in node.children().filter(Node::is_element) {
            cost = cost.saturating_add(self.cost(child, depth + 1)?);
        }
        if is_element(&node, "use") {
            let href = node
                .attributes()
                .find(|a| a.name() == "href")
                .map(|a| a.value());
            if let Some(target) = href.and_then(|h| h.strip_prefix('#')) {
                if let Some(&target) = self.ids.get(target) {
                    cost = cost.saturating_add(self.cost(target, depth + 1)?);
                }
            }
        }
        if ["text", "tspan", "textPath"]
            .iter()
            .any(|&name| is_element(&node, name))
        {
            // Every character becomes a glyph outline while usvg builds the tree, before the
            // tree budget sees it: counted here (before whitespace collapses).
            let characters = node
                .children()
                .filter(Node::is_text)
                .map(|t| t.text().map_or(0, |t| t.chars().count() as u64))
                .fold(0u64, u64::saturating_add);
            cost = cost.saturating_add(characters.saturating_mul(TEXT_CHARACTER_ELEMENTS));
        }
        if is_element(&node, "image") {
            // Not drawn, but usvg decodes a `data:` URL again for every use of the element.
            let href = node.attributes().find(|a| a.name() == "href");
            cost =
                cost.saturating_add(href.map_or(0, |a| a.value().len() as u64 / IMAGE_HREF_BYTES));
        }
        if is_element(&node, "feConvolveMatrix") {
            // usvg multiplies the order's two u32s unchecked (an overflow panic in a debug build).
            let order = node.attribute("order").unwrap_or("");
            let huge = |n: &str| n.parse::<f32>().is_ok_and(|v| v.abs() > 4096.0);
            if order.split([' ', ',', '\t', '\n', '\r']).any(huge) {
                return Err(too_complex("a convolution order over 4096"));
            }
        }
        // usvg unwraps these as finite positive f32s: "3.5e38" is infinite as an f32, and a
        // morphology radius is multiplied by the element's size first.
        let bounded = |attribute: &str, limit: f32, what: &str| {
            let value = node.attribute(attribute).unwrap_or("");
            let out = |n: &str| {
                let unit = |c: char| c.is_ascii_alphabetic() || c == '%';
                n.trim_end_matches(unit)
                    .parse::<f32>()
                    .is_ok_and(|v| v.is_nan() || v.abs() > limit)
            };
            match value.split([' ', ',', '\t', '\n', '\r']).any(out) {
                true => Err(too_complex(format!("a {what} out of range"))),
                false => Ok(()),
            }
        };
        if ["circle", "ellipse", "rect"]
            .iter()
            .any(|&name| is_element(&node, name))
        {
            // tiny-skia's stroker subdivides an arc by its radius: r="1e38" took 1 s to stroke
            // for the bounding box usvg computes while building the tree.
            for attribute in ["r", "rx", "ry"] {
                bounded(attribute, MAX_RADIUS, "radius")?;
            }
        }
        if is_element(&node, "feTurbulence") {
            bounded("baseFrequency", f32::MAX, "turbulence frequency")?;
        }
        if is_element(&node, "feMorphology") {
            // In `objectBoundingBox` units (perhaps inherited through `href`) a radius is a
            // fraction of the box, and past 1 it covers the whole box anyway.
            let filter = node.parent_element();
            let fraction = filter.is_some_and(|f| {
                f.attribute("primitiveUnits") == Some("objectBoundingBox")
                    || f.attributes().any(|a| a.name() == "href")
            });
            let limit = if fraction { 1.0 } else { MAX_MORPHOLOGY_RADIUS };
            bounded("radius", limit, "morphology radius")?;
        }
        if self.marker_cost > 0 {
            let vertices = match node.tag_name().name() {
                "path" => node.attribute("d").map_or(0, numbers_in),
                "polyline" | "polygon" => node.attribute("points").map_or(0, numbers_in),
                "line" => 2,
                _ => 0,
            };
            cost = cost.saturating_add(vertices.saturating_mul(3).saturating_mul(self.marker_cost));
        }
        self.open.remove(&node.id());
        self.memo.insert(node.id(), cost);
        Ok(cost)
    }
}

/// Refuses a document nested deeper than [`MAX_SVG_DEPTH`] or expanding to more than
/// [`MAX_SVG_ELEMENTS`] elements, without expanding it. Returns the expanded count.
pub fn check(doc: &Document) -> Result<u64> {
    let ids = doc
        .descendants()
        .filter(Node::is_element)
        .filter_map(|n| n.attribute("id").map(|id| (id, n)))
        .collect();
    let mut expansion = Expansion {
        ids,
        memo: HashMap::new(),
        open: HashSet::new(),
        marker_cost: 0,
    };
    // Marker contents first, with no markers applied inside them; then every marker counts as
    // the largest.
    let markers: Vec<_> = doc
        .descendants()
        .filter(|n| is_element(n, "marker"))
        .collect();
    let mut marker_cost = 0;
    for marker in markers {
        let depth = marker.ancestors().count();
        marker_cost = marker_cost.max(expansion.cost(marker, depth)?);
    }
    expansion.memo.clear();
    expansion.marker_cost = marker_cost;
    let total = expansion.cost(doc.root_element(), 0)?;
    if total > MAX_SVG_ELEMENTS {
        return Err(too_complex(format!(
            "{total} elements, limit {MAX_SVG_ELEMENTS}"
        )));
    }
    Ok(total)
}
