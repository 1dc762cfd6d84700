#![cfg(feature = "svg")]
//! Findings of `deno task fuzz` (seed 2024), built by code: SVGs whose cost is in usvg's tree
//! building (huge strokes, a filter on every element through CSS), refused on the XML before
//! usvg runs, so `probe` is quick too; a clip path of thousands of children (each a pass over the
//! clip buffer) and thousands of gradient fills, charged by the work budget. Normal uses of the
//! same features still render.

use imagecore::error::ErrorCode;
use imagecore::svg::{parse, rasterize_png};

const NS: &str = r#"xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink""#;

fn doc(body: &str) -> String {
    format!(r#"<svg {NS} width="48" height="32" viewBox="0 0 48 32">{body}</svg>"#)
}

/// `parse` (what `probe` runs) refuses `svg` as too complex, with `what` in the message.
fn refused_on_parse(svg: &str, what: &str) {
    let error = parse(svg.as_bytes()).expect_err("must be refused");
    assert_eq!(error.code, ErrorCode::TooLarge, "{}", error.message);
    assert!(
        error
            .message
            .starts_with("Cannot render SVG: too complex (")
            && error.message.contains(what),
        "{}",
        error.message
    );
}

const CIRCLE: &str =
    r##"<circle cx="34" cy="16" r="10" fill="none" stroke="#e8453c" stroke-width="3"/>"##;

#[test]
fn the_fuzzed_hang_5000_circles_with_a_css_blur_and_huge_stroke_is_refused_on_parse() {
    let svg = doc(&format!(
        "{}<style>*{{filter:blur(1e5px);stroke-width:1e9}}rect{{mask:url(#m0)}}</style>",
        CIRCLE.repeat(5000)
    ));
    refused_on_parse(&svg, "stroke width");
}

#[test]
fn a_stroke_width_over_a_million_units_is_refused_on_parse_wherever_it_is_set() {
    let circle = r#"<circle cx="34" cy="16" r="10" fill="none" stroke="red""#;
    for body in [
        format!(r#"{circle} stroke-width="1e9"/>"#),
        format!(r#"{circle} stroke-width="2e7px"/>"#),
        format!(r#"{circle} stroke-width="1e5in"/>"#),
        format!(r#"{circle} style="fill:none; stroke-width: 1e9"/>"#),
        format!(r#"{circle}/><style>circle {{ stroke-width: 1e9 }}</style>"#),
    ] {
        refused_on_parse(&doc(&body.repeat(3)), "stroke width");
    }
    let wide = r#"<circle cx="34" cy="16" r="10" fill="none" stroke="red" stroke-width="1e6"/>"#;
    assert!(parse(doc(wide).as_bytes()).is_ok());
}

#[test]
fn more_than_64_elements_given_a_filter_are_refused_on_parse() {
    let rects = r#"<rect width="4" height="4"/>"#.repeat(100);
    for (style, what) in [
        ("*{filter:blur(2px)}", "with a filter"),
        ("rect{filter:blur(2px)}", "with a filter"),
        (
            "svg > rect:first-child, rect{filter:url(#f)}",
            "with a filter",
        ),
    ] {
        refused_on_parse(&doc(&format!("<style>{style}</style>{rects}")), what);
    }
    let attributes = r#"<rect width="4" height="4" filter="blur(1px)"/>"#.repeat(65);
    refused_on_parse(&doc(&attributes), "with a filter");
    let styled = r#"<rect width="4" height="4" style="filter:blur(1px)"/>"#.repeat(65);
    refused_on_parse(&doc(&styled), "with a filter");
}

#[test]
fn a_css_filter_on_a_few_elements_of_a_logo_still_renders() {
    let svg = doc(&format!(
        r#"<style>.shadow {{ filter: blur(1px) }} rect {{ stroke-width: 2 }}</style>{}<circle class="shadow" cx="24" cy="16" r="8" fill="red"/>"#,
        r#"<rect width="4" height="4" stroke="blue"/>"#.repeat(100)
    ));
    let (_, width, height) = rasterize_png(svg.as_bytes(), 480).expect("renders");
    assert_eq!((width, height), (480, 320));
}

fn clipped_by(children: usize) -> String {
    format!(
        r##"<svg {NS} width="64" height="32"><clipPath id="c">{}</clipPath><rect width="64" height="32" fill="navy" clip-path="url(#c)"/></svg>"##,
        r#"<circle cx="16" cy="16" r="14"/>"#.repeat(children)
    )
}

#[test]
fn the_fuzzed_clip_path_of_5000_circles_is_over_the_work_budget_at_800_px() {
    let error = rasterize_png(clipped_by(5000).as_bytes(), 800).expect_err("refused");
    assert_eq!(error.code, ErrorCode::TooLarge, "{}", error.message);
    assert!(error.message.contains("pixel work"), "{}", error.message);
}

#[test]
fn a_clip_path_of_a_few_children_renders_at_800_px() {
    let (_, width, _) = rasterize_png(clipped_by(20).as_bytes(), 800).expect("renders");
    assert_eq!(width, 800);
}

fn gradient_rects(count: usize) -> String {
    format!(
        r##"<svg {NS} viewBox="0 0 100 50"><linearGradient id="g" x1="0" x2="1"><stop offset="0" stop-color="#1a73e8"/><stop offset="1" stop-color="#34a853"/></linearGradient>{}</svg>"##,
        r#"<rect width="100" height="25" fill="url(#g)"/>"#.repeat(count)
    )
}

#[test]
fn the_fuzzed_5000_gradient_rects_are_over_the_work_budget_at_800_px() {
    // deno task fuzz, seed 2024, iteration 7736: over 10 s in WASM; a gradient costs ~18 times
    // an opaque colour per pixel.
    let error = rasterize_png(gradient_rects(5000).as_bytes(), 800).expect_err("refused");
    assert_eq!(error.code, ErrorCode::TooLarge, "{}", error.message);
    assert!(error.message.contains("pixel work"), "{}", error.message);
    let (_, width, _) = rasterize_png(gradient_rects(3).as_bytes(), 800).expect("renders");
    assert_eq!(width, 800);
}

#[test]
fn the_fuzzed_merge_of_5000_nodes_is_over_the_work_budget_at_128_px_and_drawn_narrower() {
    // deno task fuzz, seed 2024, iteration 1774: 1.2 s in WASM; each input is composited.
    let merge = |nodes: usize| {
        format!(
            r##"<svg {NS} width="32" height="32"><filter id="f"><feGaussianBlur stdDeviation="2"/><feMerge>{}</feMerge></filter><rect width="32" height="32" filter="url(#f)"/></svg>"##,
            "<feMergeNode/>".repeat(nodes)
        )
    };
    let tree = imagecore::svg::parse(merge(5000).as_bytes()).expect("parse");
    let at_128 = resvg::tiny_skia::Transform::from_scale(4.0, 4.0);
    let error = imagecore::svg::budget::check(&tree, at_128, 128, 128).expect_err("over");
    assert_eq!(error.code, ErrorCode::TooLarge, "{}", error.message);
    assert!(error.message.contains("pixel work"), "{}", error.message);
    let (_, width, _) = rasterize_png(merge(5000).as_bytes(), 128).expect("drawn narrower");
    assert!((32..128).contains(&width), "drawn at {width} px");
    let (_, width, _) = rasterize_png(merge(3).as_bytes(), 128).expect("renders");
    assert_eq!(width, 128);
}
