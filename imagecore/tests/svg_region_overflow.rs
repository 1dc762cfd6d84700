#![cfg(feature = "svg")]
//! Issue #30, defect 6: regions in `objectBoundingBox` units over a huge bounding box. usvg turns
//! each into user space with tiny-skia-path's `NonZeroRect::bbox_transform`, which unwrapped a
//! product that overflowed `f32` — a panic (a trap in WASM) while parsing, before any budget ran.
//! The vendored, patched tiny-skia-path (vendor/README.md) saturates instead, and the budget
//! refuses what reaches too far: every input here is rendered or refused as `too_large`, never
//! a panic (which fails the test natively).

mod svg_common;

use imagecore::error::ErrorCode;
use imagecore::svg::rasterize_png;
use resvg::tiny_skia::NonZeroRect;
use svg_common::too_complex;

const NS: &str = r#"xmlns="http://www.w3.org/2000/svg""#;

/// The 221-byte SVG of the issue.
const ISSUE: &str = r#"<svg xmlns="http://www.w3.org/2000/svg" width="64" height="32"><filter id="h" x="-1e6" y="-1e6" width="2e6" height="2e6"><feGaussianBlur stdDeviation="1e5"/></filter><rect width="1e38" height="10" filter="url(#h)"/></svg>"#;

fn canvas(body: &str) -> String {
    format!(r#"<svg {NS} width="64" height="32">{body}</svg>"#)
}

/// Rendered, or refused as `too_large` (a budget); anything else fails, a panic included.
fn handled(svg: &str, width: u32) -> Result<u32, String> {
    match rasterize_png(svg.as_bytes(), width) {
        Ok((_, w, _)) => Ok(w),
        Err(e) if e.code == ErrorCode::TooLarge => Err(e.message),
        Err(e) => panic!("{svg} at {width} px: {:?} {}", e.code, e.message),
    }
}

#[test]
fn the_issue_svg_is_refused_as_too_complex() {
    assert_eq!(ISSUE.len(), 221);
    for width in [1, 64, 1200, 4096] {
        let error = too_complex(ISSUE, width);
        assert!(
            error.message.contains("beyond 4194304 px"),
            "{width}: {}",
            error.message
        );
    }
}

#[test]
fn bbox_transform_saturates_instead_of_panicking() {
    let region = NonZeroRect::from_xywh(-1e6, -1e6, 2e6, 2e6).expect("a region");
    let bbox = NonZeroRect::from_xywh(0.0, 0.0, 1e38, 10.0).expect("a box");
    let user = region.bbox_transform(bbox); // panicked in tiny-skia-path 0.12.0
    assert!(user.width().is_finite() && user.width() >= 1e37, "{user:?}");
    assert!(user.left() <= -1e37, "{user:?}");
    // In range, it is the product, unchanged.
    let fraction = NonZeroRect::from_xywh(-0.1, -0.1, 1.2, 1.2).expect("the default region");
    let small = NonZeroRect::from_xywh(10.0, 20.0, 100.0, 50.0).expect("a box");
    let exact = fraction.bbox_transform(small);
    let got = [exact.x(), exact.y(), exact.width(), exact.height()];
    for (got, want) in got.into_iter().zip([0.0, 15.0, 120.0, 60.0]) {
        assert!((got - want).abs() < 1e-3, "{exact:?}");
    }
    // An underflow to a zero width gives a non-empty rect too.
    let tiny = NonZeroRect::from_xywh(0.0, 0.0, 1e-30, 1e-30).expect("tiny");
    let under = tiny.bbox_transform(NonZeroRect::from_xywh(0.0, 0.0, 1e-20, 1e-20).expect("b"));
    assert!(under.width() > 0.0);
}

/// Groups that scale `size` user units down to 30 (each scale at least 1e-6), and their ends.
fn scaled_onto_the_canvas(size: &str) -> (String, String) {
    let factor = 30.0 / size.parse::<f64>().unwrap_or(30.0);
    let groups = (-factor.log10() / 6.0).ceil().max(1.0);
    let each = factor.powf(1.0 / groups);
    let groups = groups as usize;
    (
        format!(r#"<g transform="scale({each:e})">"#).repeat(groups),
        "</g>".repeat(groups),
    )
}

/// Cousins of the issue's SVG: every kind of region usvg resolves against a bounding box, over
/// boxes near and past `f32`'s range.
fn cousins() -> Vec<(String, String)> {
    let mut out = Vec::new();
    for size in ["1e30", "1e37", "1e38", "3e38"] {
        let rect = |attributes: &str| format!(r#"<rect width="{size}" height="10" {attributes}/>"#);
        let filters = [
            (
                "blur, default region",
                r#"<filter id="f"><feGaussianBlur stdDeviation="2"/></filter>"#,
            ),
            (
                "offset, region 2e6",
                r#"<filter id="f" x="-1e6" y="-1e6" width="2e6" height="2e6"><feOffset dx="1"/></filter>"#,
            ),
            (
                "flood + arithmetic composite",
                r#"<filter id="f" width="10"><feFlood flood-color="red" result="a"/><feComposite in="SourceGraphic" in2="a" operator="arithmetic" k1="1" k2="1"/></filter>"#,
            ),
            (
                "morphology",
                r#"<filter id="f"><feMorphology radius="1"/></filter>"#,
            ),
            (
                "turbulence",
                r#"<filter id="f"><feTurbulence baseFrequency="0.05"/></filter>"#,
            ),
            (
                "drop shadow",
                r#"<filter id="f"><feDropShadow dx="2" stdDeviation="3"/></filter>"#,
            ),
            (
                "primitive subregion in bbox units",
                r#"<filter id="f" primitiveUnits="objectBoundingBox"><feOffset x="1e6" width="1e6" dx="0.1"/></filter>"#,
            ),
            (
                "flood subregion in bbox units",
                r#"<filter id="f" primitiveUnits="objectBoundingBox"><feFlood x="-1e6" width="2e6"/></filter>"#,
            ),
        ];
        for (name, filter) in filters {
            out.push((
                format!("{size} rect, filter {name}"),
                canvas(&format!(r#"{filter}{}"#, rect(r#"filter="url(#f)""#))),
            ));
        }
        out.push((
            format!("{size} rect, CSS blur"),
            canvas(&rect(
                r#"style="filter:blur(2px) drop-shadow(1px 1px 2px red)""#,
            )),
        ));
        out.push((
            format!("{size} rect, mask of the default region"),
            canvas(&format!(
                r#"<mask id="m"><rect width="10" height="10" fill="white"/></mask>{}"#,
                rect(r#"mask="url(#m)""#)
            )),
        ));
        out.push((
            format!("{size} rect, mask region 1e6"),
            canvas(&format!(
                r#"<mask id="m" x="-1e6" width="1e6"><rect width="10" height="10" fill="white"/></mask>{}"#,
                rect(r#"mask="url(#m)""#)
            )),
        ));
        out.push((
            format!("{size} rect, pattern tile 1e6"),
            canvas(&format!(
                r#"<pattern id="p" width="1e6" height="1"><rect width="1" height="1"/></pattern>{}"#,
                rect(r#"fill="url(#p)""#)
            )),
        ));
        out.push((
            format!("{size} box from a child's transform, filter region 10"),
            canvas(&format!(
                r#"<filter id="f" width="10"><feOffset dx="1"/></filter><g filter="url(#f)"><rect transform="scale({size})" width="10" height="10"/></g>"#
            )),
        ));
        // Scaled onto the canvas: the region is refused all the same when it overflowed f32 in
        // user space, however small it would be drawn. (usvg drops an element under a scale below
        // f32::EPSILON, so the scale is spread over groups.)
        let (open, close) = scaled_onto_the_canvas(size);
        out.push((
            format!("{size} rect scaled to the canvas, filter region 2e6"),
            canvas(&format!(
                r#"<filter id="f" x="-1e6" y="-1e6" width="2e6" height="2e6"><feOffset dx="1"/></filter>{open}<rect width="{size}" height="{size}" fill="red" filter="url(#f)"/>{close}"#
            )),
        ));
    }
    out.push((
        "mask region of 1e30 user units".into(),
        canvas(
            r#"<mask id="m" maskUnits="userSpaceOnUse" x="-1e30" y="-1e30" width="2e30" height="2e30"><rect width="10" height="10" fill="white"/></mask><rect width="60" height="10" mask="url(#m)"/>"#,
        ),
    ));
    out.push((
        "pattern tile of 1e30 user units".into(),
        canvas(
            r#"<pattern id="p" patternUnits="userSpaceOnUse" x="-1e30" width="2e30" height="8"><rect width="4" height="4"/></pattern><rect width="60" height="10" fill="url(#p)"/>"#,
        ),
    ));
    out
}

#[test]
fn regions_over_huge_boxes_are_drawn_or_refused_never_a_panic() {
    let mut refused = 0;
    for (name, svg) in cousins() {
        for width in [64, 1200] {
            match handled(&svg, width) {
                Ok(_) => {}
                Err(message) => {
                    assert!(
                        message.starts_with("Cannot render SVG: too complex ("),
                        "{name}: {message}"
                    );
                    refused += 1;
                }
            }
        }
    }
    assert!(refused > 0);
}

#[test]
fn the_cousins_that_reach_past_the_canvas_are_refused() {
    // Unscaled, a 1e37-unit rect (or anything on it) reaches past 4194304 px.
    for (name, svg) in cousins() {
        let unscaled = name.starts_with("1e37 rect") && !name.contains("scaled");
        if unscaled || name.contains("of 1e30 user units") {
            too_complex(&svg, 64);
        }
    }
}

#[test]
fn a_huge_region_scaled_onto_the_canvas_is_refused_too() {
    for (name, svg) in cousins() {
        if name.contains("scaled to the canvas") {
            let error = too_complex(&svg, 64);
            assert!(
                error.message.contains("filter region"),
                "{name}: {}",
                error.message
            );
        }
    }
    // The same document with the default region (no overflow) is drawn, red where the rect is.
    let (open, close) = scaled_onto_the_canvas("3e38");
    let svg = canvas(&format!(
        r#"<filter id="f"><feOffset dx="1"/></filter>{open}<rect width="6e37" height="6e37" fill="red" filter="url(#f)"/>{close}"#
    ));
    let (png, width, _) = rasterize_png(svg.as_bytes(), 64).expect("drawn");
    assert_eq!(width, 64);
    let image = image::load_from_memory(&png).expect("a PNG").to_rgba8();
    let [r, g, b, a] = image.get_pixel(3, 3).0;
    assert!(r > 200 && g < 50 && b < 50 && a > 200, "{:?}", [r, g, b, a]);
}

#[test]
fn a_huge_blur_alone_renders_and_a_huge_region_alone_is_refused() {
    let blur = canvas(
        r#"<filter id="f"><feGaussianBlur stdDeviation="1e5"/></filter><rect width="64" height="10" filter="url(#f)"/>"#,
    );
    for width in [64, 1200] {
        assert_eq!(handled(&blur, width), Ok(width));
    }
    let region = canvas(
        r#"<filter id="f" x="-1e6" y="-1e6" width="2e6" height="2e6"><feGaussianBlur stdDeviation="1"/></filter><rect width="64" height="10" filter="url(#f)"/>"#,
    );
    let error = too_complex(&region, 64);
    assert!(error.message.contains("filter region"), "{}", error.message);
}
