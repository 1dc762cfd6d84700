//! The sanitised SVG served for `format=svg`: the document re-serialised from its usvg tree by
//! usvg's own writer (`Tree::to_string`), never copied from the input.
//!
//! The input goes through [`parse`](crate::svg::parse) first, with every budget of the XML
//! (prepass, style check) and the same options as rasterising: no `<image>` at all, nothing
//! external resolved, text set in the bundled font. usvg's tree has no place for a script, an
//! event handler, a `foreignObject`, a link, a style sheet or a font, so the writer cannot write
//! one: text is written as the outlines usvg built (`preserve_text: false`), so no font is named
//! or fetched; `<use>` is written expanded; markers and CSS are resolved into paths and
//! presentation attributes.
//!
//! The writer's output is then checked from the outside ([`check_output`]) rather than trusted:
//! it is parsed again and every element, attribute and node is held to a list of what the writer
//! emits — a reference only to `#id` within the document (`href`) or `url(#id)` with an id of
//! safe characters (an id is copied from the input: `a) url(https://…` would end the `url(` and
//! name a remote filter), no `on…` attribute, no text, comment, processing instruction or DTD.
//! Anything else refuses the document (`unsupported_format`), as does an output over
//! [`MAX_SANITIZED_BYTES`] (`too_large`).
//!
//! The root gets a `viewBox` of the tree's size, so the service can set `width` and `height`
//! to the size asked and the drawing scales with them.

use crate::error::{Error, ErrorCode, Result};
use crate::svg::{parse, size, MAX_SVG_BYTES};
use resvg::usvg::roxmltree::{self, Document, NodeType};
use resvg::usvg::{Tree, WriteOptions};

/// Largest sanitised document, in bytes: the size of the largest SVG accepted, so what is
/// served is never larger than what may be uploaded (`<use>` and text written out as paths can
/// make the output several times the input).
pub const MAX_SANITIZED_BYTES: usize = MAX_SVG_BYTES;

/// The SVG namespace, the only one an element of the output may be in.
const SVG_NS: &str = "http://www.w3.org/2000/svg";
/// The XLink namespace, whose `href` the writer uses for `feImage` and `textPath`.
const XLINK_NS: &str = "http://www.w3.org/1999/xlink";
/// The XML namespace (`xml:space`).
const XML_NS: &str = "http://www.w3.org/XML/1998/namespace";

/// Every element usvg's writer emits (with `preserve_text: false`, no `<image>`: the service
/// never loads one, so the output has none; `text`, `tspan` and `textPath` are not written).
const ELEMENTS: &[&str] = &[
    "svg",
    "g",
    "path",
    "defs",
    "linearGradient",
    "radialGradient",
    "stop",
    "pattern",
    "clipPath",
    "mask",
    "filter",
    "feBlend",
    "feColorMatrix",
    "feComponentTransfer",
    "feComposite",
    "feConvolveMatrix",
    "feDiffuseLighting",
    "feDisplacementMap",
    "feDistantLight",
    "feDropShadow",
    "feFlood",
    "feFuncA",
    "feFuncB",
    "feFuncG",
    "feFuncR",
    "feGaussianBlur",
    "feImage",
    "feMerge",
    "feMergeNode",
    "feMorphology",
    "feOffset",
    "fePointLight",
    "feSpecularLighting",
    "feSpotLight",
    "feTile",
    "feTurbulence",
];

/// `style` attribute values the writer emits (blend modes and isolation, image rendering):
/// property names and keyword values only.
fn is_safe_style(value: &str) -> bool {
    value.split(';').all(|declaration| {
        let Some((name, keyword)) = declaration.split_once(':') else {
            return declaration.trim().is_empty();
        };
        matches!(
            name.trim(),
            "mix-blend-mode" | "isolation" | "image-rendering" | "font-kerning"
        ) && keyword
            .trim()
            .bytes()
            .all(|b| b.is_ascii_alphabetic() || b == b'-')
    })
}

/// Characters an id may have where the writer puts it inside `url(#…)`: nothing that ends the
/// `url(`, quotes it, escapes or spaces.
fn is_safe_id(id: &str) -> bool {
    !id.is_empty()
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.' | b':'))
}

/// Whether every `url(` in `value` is `url(#id)` with a safe id.
fn urls_are_local(value: &str) -> bool {
    let mut rest = value;
    while let Some(at) = rest.find("url(") {
        let after = &rest[at + 4..];
        let Some(end) = after.find(')') else {
            return false;
        };
        let Some(id) = after[..end].strip_prefix('#') else {
            return false;
        };
        if !is_safe_id(id) {
            return false;
        }
        rest = &after[end + 1..];
    }
    true
}

fn unsafe_output(why: impl std::fmt::Display) -> Error {
    Error::new(
        ErrorCode::UnsupportedFormat,
        format!("Cannot sanitise SVG: {why}"),
    )
}

/// Checks a document the writer produced against what the writer may emit (see the module
/// documentation); `Err` names the first thing outside it.
pub fn check_output(svg: &str) -> Result<()> {
    let options = roxmltree::ParsingOptions {
        allow_dtd: false,
        ..Default::default()
    };
    let doc = Document::parse_with_options(svg, options)
        .map_err(|e| unsafe_output(format!("the output is not well-formed XML ({e})")))?;
    for node in doc.root().descendants() {
        match node.node_type() {
            NodeType::Root => {}
            NodeType::Element => {
                let name = node.tag_name();
                if name.namespace() != Some(SVG_NS) || !ELEMENTS.contains(&name.name()) {
                    return Err(unsafe_output(format!("element <{}>", name.name())));
                }
                for attribute in node.attributes() {
                    check_attribute(attribute.namespace(), attribute.name(), attribute.value())?;
                }
            }
            NodeType::Text => {
                if !node.text().unwrap_or_default().trim().is_empty() {
                    return Err(unsafe_output("text content"));
                }
            }
            NodeType::Comment | NodeType::PI => {
                return Err(unsafe_output("a comment or processing instruction"));
            }
        }
    }
    Ok(())
}

fn check_attribute(namespace: Option<&str>, name: &str, value: &str) -> Result<()> {
    let refuse = || Err(unsafe_output(format!("attribute {name}")));
    match namespace {
        None => {}
        Some(XLINK_NS) if name == "href" => {}
        Some(XML_NS) if name == "space" => {}
        Some(_) => return refuse(),
    }
    if name.len() > 2 && name[..2].eq_ignore_ascii_case("on") {
        return refuse();
    }
    if name == "href" && !value.starts_with('#') {
        return refuse();
    }
    if name == "style" && !is_safe_style(value) {
        return refuse();
    }
    if !urls_are_local(value) {
        return refuse();
    }
    Ok(())
}

/// The sanitised document of a parsed tree (see the module documentation).
pub fn write(tree: &Tree) -> Result<String> {
    let options = WriteOptions {
        preserve_text: false,
        indent: resvg::usvg::Indent::None,
        attributes_indent: resvg::usvg::Indent::None,
        ..WriteOptions::default()
    };
    let written = tree.to_string(&options);
    // The writer opens with `<svg width=… height=…`: the viewBox goes right after them.
    let rest = written
        .strip_prefix("<svg")
        .ok_or_else(|| Error::new(ErrorCode::Internal, "Cannot sanitise SVG: no <svg> root"))?;
    let (width, height) = (tree.size().width(), tree.size().height());
    let out = format!("<svg viewBox=\"0 0 {width} {height}\"{rest}");
    if out.len() > MAX_SANITIZED_BYTES {
        return Err(Error::new(
            ErrorCode::TooLarge,
            format!(
                "Cannot sanitise SVG: the sanitised document of {} bytes exceeds the \
                 {MAX_SANITIZED_BYTES}-byte limit",
                out.len()
            ),
        ));
    }
    if root_size_end(&out).is_none() {
        return Err(Error::new(
            ErrorCode::Internal,
            "Cannot sanitise SVG: the writer's root has no width and height",
        ));
    }
    check_output(&out)?;
    Ok(out)
}

/// Parses `input` within the budgets and returns its sanitised document and intrinsic size in
/// whole pixels (as [`size`]).
pub fn sanitize(input: &[u8]) -> Result<(String, u32, u32)> {
    let tree = parse(input)?;
    let (width, height) = size(&tree);
    Ok((write(&tree)?, width, height))
}

/// Checks that `input` is a document this module could have written — within the budgets, at
/// most [`MAX_SANITIZED_BYTES`], and inside the writer's allow list ([`check_output`]) — and
/// returns its intrinsic size: what an archive import asks of a stored sanitised SVG, whose
/// bytes it keeps (a second [`sanitize`] need not give the same bytes: `-0` becomes `0`).
pub fn check_sanitized(input: &[u8]) -> Result<(u32, u32)> {
    if input.len() > MAX_SANITIZED_BYTES {
        return Err(Error::new(
            ErrorCode::TooLarge,
            format!("Cannot sanitise SVG: over the {MAX_SANITIZED_BYTES}-byte limit"),
        ));
    }
    let tree = parse(input)?;
    // `parse` read it as UTF-8.
    let text = std::str::from_utf8(input).unwrap_or_default();
    if root_size_end(text).is_none() {
        return Err(unsafe_output(
            r#"the root is not <svg viewBox="…" width="…" height="…""#,
        ));
    }
    check_output(text)?;
    Ok(size(&tree))
}

/// Where the root's `height` attribute ends in a document that opens
/// `<svg viewBox="…" width="…" height="…"`, as [`write`] writes it (the service sets `width`
/// and `height` there); `None` otherwise.
pub fn root_size_end(text: &str) -> Option<usize> {
    let mut at = 0;
    for attribute in ["<svg viewBox=\"", "\" width=\"", "\" height=\""] {
        at += text[at..]
            .starts_with(attribute)
            .then_some(attribute.len())?;
        at += text[at..].find('"')?;
    }
    Some(at + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_url_must_name_a_safe_local_id() {
        assert!(urls_are_local("url(#a) url(#b-1.c:d)"));
        assert!(urls_are_local("none"));
        assert!(!urls_are_local("url(#a) url(https://example.com/f.svg#x)"));
        assert!(!urls_are_local("url(#a"));
        assert!(!urls_are_local("url(#a b)"));
        assert!(!urls_are_local("url('#a')"));
        assert!(!urls_are_local("url(#)"));
    }

    #[test]
    fn style_holds_keywords_of_the_writers_properties_only() {
        assert!(is_safe_style("mix-blend-mode:multiply;isolation:isolate"));
        assert!(is_safe_style("image-rendering:crisp-edges"));
        assert!(!is_safe_style("background:url(#a)"));
        assert!(!is_safe_style("mix-blend-mode:url(x)"));
        assert!(!is_safe_style("isolation:auto;@import x"));
    }

    #[test]
    fn the_output_check_refuses_what_the_writer_never_emits() {
        let ok = format!(r##"<svg xmlns="{SVG_NS}"><g><path d="M0 0" fill="url(#g)"/></g></svg>"##);
        assert!(check_output(&ok).is_ok());
        for bad in [
            format!(r#"<svg xmlns="{SVG_NS}"><script>alert(1)</script></svg>"#),
            format!(r#"<svg xmlns="{SVG_NS}" onload="alert(1)"/>"#),
            format!(r#"<svg xmlns="{SVG_NS}"><foreignObject/></svg>"#),
            format!(r#"<svg xmlns="{SVG_NS}"><g>text</g></svg>"#),
            format!(r#"<svg xmlns="{SVG_NS}"><!-- c --></svg>"#),
            format!(r#"<svg xmlns="{SVG_NS}"><?pi x?></svg>"#),
            format!(
                r#"<svg xmlns="{SVG_NS}" xmlns:x="{XLINK_NS}"><feImage x:href="http://a/b"/></svg>"#
            ),
            format!(r#"<svg xmlns="{SVG_NS}"><path filter="url(#a) url(http://a/f)"/></svg>"#),
            format!(r#"<svg xmlns="{SVG_NS}"><path style="fill:url(http://a)"/></svg>"#),
            format!(r#"<svg xmlns="{SVG_NS}" xmlns:h="http://www.w3.org/1999/xhtml"><h:a/></svg>"#),
            r#"<!DOCTYPE svg><svg xmlns="http://www.w3.org/2000/svg"/>"#.to_owned(),
            r#"<svg xmlns="http://www.w3.org/2000/svg" id="a&b"/>"#.to_owned(),
            r#"<svg/>"#.to_owned(),
        ] {
            let error = check_output(&bad).expect_err(&bad);
            assert_eq!(error.code, ErrorCode::UnsupportedFormat, "{bad}");
        }
    }

    #[test]
    fn a_written_document_passes_the_import_check_and_raw_input_does_not() {
        let logo = format!(
            r##"<svg xmlns="{SVG_NS}" width="20" height="10"><style>rect{{fill:#0a7}}</style><rect width="20" height="10"/></svg>"##
        );
        assert!(
            check_sanitized(logo.as_bytes()).is_err(),
            "a <style> sheet is not written"
        );
        let (out, width, height) = sanitize(logo.as_bytes()).expect("sanitise");
        assert_eq!(check_sanitized(out.as_bytes()), Ok((width, height)));
    }

    #[test]
    fn the_root_size_is_found_where_the_writer_puts_it() {
        let text = r#"<svg viewBox="0 0 2 1" width="2" height="1" xmlns="x"/>"#;
        assert_eq!(
            root_size_end(text),
            Some(r#"<svg viewBox="0 0 2 1" width="2" height="1""#.len())
        );
        assert_eq!(
            root_size_end(r#"<svg width="2" height="1" viewBox="0 0 2 1"/>"#),
            None
        );
        assert_eq!(root_size_end(r#"<svg viewBox="0 0 2 1" width="2""#), None);
    }

    #[test]
    fn the_output_is_bounded() {
        // 40 paths of 900 segments, each used 5 times: 320 KB of input, 1.4 MB written out.
        let paths: String = (0..40)
            .map(|i| {
                let d: String = (0..900)
                    .map(|j| format!("L{} {} ", j % 97, (i * j) % 89))
                    .collect();
                format!(r#"<path id="p{i}" d="M0 0 {d}" fill="red"/>"#)
            })
            .collect();
        let uses: String = (0..40)
            .map(|i| format!(r##"<use href="#p{i}"/>"##))
            .collect::<String>()
            .repeat(5);
        let svg = format!(
            r#"<svg xmlns="{SVG_NS}" width="100" height="100"><defs>{paths}</defs>{uses}</svg>"#
        );
        assert!(svg.len() < MAX_SVG_BYTES);
        let Err(error) = sanitize(svg.as_bytes()) else {
            panic!("a document over the cap was written");
        };
        assert_eq!(error.code, ErrorCode::TooLarge, "{}", error.message);
    }
}
