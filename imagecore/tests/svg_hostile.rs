#![cfg(feature = "svg")]
//! The hostile-SVG corpus of issue #9, built by code: each input is refused as `too_large` by a
//! budget (or rendered) without a panic, and a normal logo still renders. A panic fails the test.
//! The same corpus in TypeScript (test/support/hostile_svg.ts) runs through the WASM module.

use imagecore::error::{Error, ErrorCode};
use imagecore::svg::rasterize_png;
use imagecore::svg_budget::{check, fit, MAX_PIXEL_WORK};
use std::time::{Duration, Instant};

const LOGO_BODY: &str = r##"
      <defs>
        <linearGradient id="g" x1="0" x2="1"><stop offset="0" stop-color="#f80"/><stop offset="1" stop-color="#08f"/></linearGradient>
        <clipPath id="c"><circle cx="50" cy="50" r="48"/></clipPath>
        <filter id="s"><feGaussianBlur stdDeviation="1"/><feOffset dx="1" dy="1"/></filter>
      </defs>
      <g clip-path="url(#c)"><rect width="100" height="100" fill="url(#g)"/></g>
      <path d="M20 50 C20 20 80 20 80 50 S20 80 20 50 Z" fill="#fff" stroke="#222" stroke-width="2" stroke-dasharray="4 2"/>
      <g opacity="0.8"><rect x="30" y="40" width="40" height="20" rx="4" fill="#123"/></g>
      <circle cx="50" cy="50" r="6" fill="#f00" filter="url(#s)"/>
    "##;

const NS: &str = r#"xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink""#;

fn doc(body: &str) -> String {
    format!(r#"<svg {NS} width="100" height="100">{body}</svg>"#)
}

/// Rasterises at `width` and expects a refusal by a budget, quickly.
fn too_complex(svg: &str, width: u32) -> Error {
    let start = Instant::now();
    let error = match rasterize_png(svg.as_bytes(), width) {
        Ok((_, w, h)) => panic!("must be refused, was drawn at {w}×{h}"),
        Err(error) => error,
    };
    assert_eq!(error.code, ErrorCode::TooLarge, "{}", error.message);
    assert!(
        error
            .message
            .starts_with("Cannot render SVG: too complex ("),
        "{}",
        error.message
    );
    // Generous: the refusal comes before any pixel is drawn (a debug build is slow).
    assert!(
        start.elapsed() < Duration::from_secs(20),
        "took {:?}",
        start.elapsed()
    );
    error
}

fn use_bomb(levels: usize, fan_out: usize) -> String {
    let mut defs = String::from(r#"<rect id="l0" width="10" height="10"/>"#);
    for i in 1..=levels {
        let uses = format!(r##"<use href="#l{}"/>"##, i - 1).repeat(fan_out);
        defs += &format!(r#"<g id="l{i}">{uses}</g>"#);
    }
    doc(&format!(r##"<defs>{defs}</defs><use href="#l{levels}"/>"##))
}

fn long_path(segments: usize, attributes: &str) -> String {
    let mut d = String::from("M0 0");
    for i in 0..segments {
        d += &format!("L{} {}", i % 100, (i * 7) % 100);
    }
    format!(r#"<path id="p" d="{d}" {attributes}/>"#)
}

fn filtered(primitives: &str, region: &str) -> String {
    doc(&format!(
        r#"<filter id="f" {region}>{primitives}</filter><rect width="100" height="100" filter="url(#f)"/>"#
    ))
}

#[test]
fn a_use_bomb_is_refused_before_usvg_expands_it() {
    let error = too_complex(&use_bomb(30, 2), 64);
    assert!(
        error.message.contains("elements, limit 20000"),
        "{}",
        error.message
    );
    too_complex(&use_bomb(8, 10), 64);
}

#[test]
fn more_elements_than_the_limit_are_refused() {
    too_complex(&doc(&r#"<rect width="1" height="1"/>"#.repeat(20_001)), 64);
}

#[test]
fn deep_nesting_is_refused() {
    for attributes in ["", r#"opacity="0.9""#] {
        let svg = doc(&(format!("<g {attributes}>").repeat(1000)
            + r#"<rect width="9" height="9"/>"#
            + &"</g>".repeat(1000)));
        let error = too_complex(&svg, 64);
        assert!(
            error.message.contains("nested more than 64"),
            "{}",
            error.message
        );
    }
}

#[test]
fn a_huge_stroke_width_is_refused_not_a_panic() {
    for shape in [
        r#"<path d="M10 10 L90 90" stroke="black" stroke-width="1e30"/>"#,
        r#"<rect x="10" y="10" width="80" height="80" rx="5" fill="none" stroke="black" stroke-width="1e30" stroke-linejoin="round" stroke-dasharray="5 5"/>"#,
        r#"<circle cx="50" cy="50" r="40" stroke="black" stroke-width="1e30"/>"#,
        r#"<g transform="scale(1e30)"><path d="M0 0 L1e-28 1e-28" stroke="black" stroke-width="1e-29"/></g>"#,
    ] {
        too_complex(&doc(shape), 1200);
    }
}

#[test]
fn coordinates_far_outside_the_canvas_are_refused_not_a_panic() {
    too_complex(
        &doc(r#"<path d="M-1e30 -1e30 L1e30 1e30 L1e30 -1e30 Z" stroke="black"/>"#),
        1200,
    );
    let thin = format!(r#"<svg {NS} viewBox="0 0 1e-30 1"><rect width="1" height="1"/></svg>"#);
    too_complex(&thin, 1200);
}

#[test]
fn large_but_sane_strokes_and_coordinates_render_without_panicking() {
    // Right up to the limits: every one must either render or be refused, never panic.
    for width in ["1", "40", "1e3", "1e4", "3e4", "3.4e4", "1e5", "1e6"] {
        for shape in [
            format!(
                r#"<rect x="10" y="10" width="80" height="80" rx="5" fill="none" stroke="black" stroke-width="{width}" stroke-linejoin="round" stroke-dasharray="5 5"/>"#
            ),
            format!(
                r#"<path d="M-3e4 -3e4 L3e4 3e4 L3e4 -3e4 Z" stroke="black" stroke-width="{width}" stroke-linejoin="miter" stroke-miterlimit="1"/>"#
            ),
        ] {
            match rasterize_png(doc(&shape).as_bytes(), 64) {
                Ok(_) => {}
                Err(e) => assert_eq!(e.code, ErrorCode::TooLarge, "{}", e.message),
            }
        }
    }
    assert!(rasterize_png(
        doc(r#"<circle cx="50" cy="50" r="40" stroke="black" stroke-width="40"/>"#).as_bytes(),
        512
    )
    .is_ok());
}

#[test]
fn filter_regions_too_large_for_memory_are_refused() {
    let region = r#"filterUnits="userSpaceOnUse" x="-1e7" y="-1e7" width="2e7" height="2e7""#;
    for std in ["50", "1e6"] {
        let error = too_complex(
            &filtered(
                &format!(r#"<feGaussianBlur stdDeviation="{std}"/>"#),
                region,
            ),
            1200,
        );
        // Over the work budget at full size; at every narrower size, over the layer memory.
        assert!(
            error.message.contains("pixels of layers")
                || error.message.contains("units of pixel work"),
            "{}",
            error.message
        );
    }
}

#[test]
fn filter_primitives_over_the_work_budget_are_refused() {
    for primitive in [
        r#"<feMorphology operator="dilate" radius="10000"/>"#.to_string(),
        r#"<feTurbulence baseFrequency="0.05" numOctaves="1000000"/>"#.to_string(),
        format!(
            r#"<feConvolveMatrix order="300" kernelMatrix="{}"/>"#,
            "1 ".repeat(90_000)
        ),
    ] {
        let error = too_complex(&filtered(&primitive, ""), 1200);
        assert!(
            error.message.contains("units of pixel work"),
            "{}",
            error.message
        );
    }
    // A huge blur radius alone costs no more than a small one: it renders at a modest size.
    assert!(rasterize_png(
        filtered(r#"<feGaussianBlur stdDeviation="1e6"/>"#, "").as_bytes(),
        128
    )
    .is_ok());
    // At 2192 px the same blur is over the work budget: it is drawn narrower.
    let svg = filtered(r#"<feGaussianBlur stdDeviation="1e6"/>"#, "");
    let (_, w, _) = rasterize_png(svg.as_bytes(), 2192).expect("drawn narrower");
    assert!((548..2192).contains(&w), "drawn at {w} px");
}

#[test]
fn more_than_64_filter_primitives_are_refused() {
    let error = too_complex(&filtered(&r#"<feOffset dx="1"/>"#.repeat(65), ""), 16);
    assert!(
        error.message.contains("64 filter primitives"),
        "{}",
        error.message
    );
}

#[test]
fn many_full_canvas_layers_or_fills_are_over_the_work_budget() {
    too_complex(
        &doc(&r#"<rect width="100" height="100"/>"#.repeat(19_000)),
        1200,
    );
    too_complex(
        &doc(&r#"<g opacity="0.5"><rect width="100" height="100"/></g>"#.repeat(5000)),
        1200,
    );
}

#[test]
fn too_many_path_segments_are_refused() {
    // 20 000 segments drawn 15 times.
    let svg = doc(&format!(
        "<defs>{}</defs>{}",
        long_path(20_000, r##"fill="#123""##),
        r##"<use href="#p"/>"##.repeat(15)
    ));
    let error = too_complex(&svg, 16);
    assert!(error.message.contains("path segments"), "{}", error.message);
}

#[test]
fn a_pattern_tile_too_large_for_memory_is_refused() {
    too_complex(
        &doc(
            r#"<pattern id="p" patternUnits="userSpaceOnUse" width="10" height="10" patternTransform="scale(1e6)"><circle cx="5" cy="5" r="4"/></pattern><rect width="100" height="100" fill="url(#p)"/>"#,
        ),
        1200,
    );
}

#[test]
fn a_marker_bomb_is_refused_before_usvg_expands_it() {
    let marker = format!(
        r#"<marker id="m" markerWidth="10" markerHeight="10">{}</marker>"#,
        r#"<circle cx="5" cy="5" r="4"/>"#.repeat(200)
    );
    let path = long_path(
        50_000,
        r##"fill="none" stroke="black" marker-mid="url(#m)""##,
    );
    too_complex(&doc(&(marker + &path)), 64);
}

#[test]
fn an_embedded_svg_image_used_many_times_is_refused() {
    // usvg decodes a data: URL again for every use of the element, though it is never drawn.
    let inner = doc(&r#"<rect width="1" height="1"/>"#.repeat(15_000));
    let svg = doc(&format!(
        r##"<defs><image id="i" width="100" height="100" href="data:image/svg+xml;utf8,{}"/></defs>{}"##,
        inner.replace('<', "%3C").replace('"', "'"),
        r##"<use href="#i"/>"##.repeat(2000)
    ));
    too_complex(&svg, 64);
}

#[test]
fn a_normal_logo_renders_at_the_largest_size() {
    let logo = doc(LOGO_BODY);
    for width in [64, 1200] {
        let (png, w, h) = rasterize_png(logo.as_bytes(), width).expect("renders");
        assert_eq!((w, h), (width, width));
        let image = image::load_from_memory(&png).expect("decode").to_rgba8();
        let centre = image.get_pixel(width / 2, width / 2).0;
        assert!(
            centre[0] > 200 && centre[1] < 60,
            "red dot in the centre: {centre:?}"
        );
    }
}

#[test]
fn the_normal_logo_is_drawn_full_size_at_1200_px_and_at_least_a_quarter_at_4096() {
    // Fitted, not drawn: a debug build takes a minute to draw 4096 × 4096.
    let tree = imagecore::svg::parse(doc(LOGO_BODY).as_bytes()).expect("parse");
    assert_eq!(fit(&tree, 1200, 1200).expect("fits"), (1200, 1200));
    let (w, h) = fit(&tree, 4096, 4096).expect("fits");
    assert!(w == h && w >= 1024, "drawn at {w}×{h}");
}

#[test]
fn a_costly_svg_is_drawn_narrower_within_the_budget_and_scaled_by_the_caller() {
    // 30 full-canvas gradients: 1.4 s in WASM at 1200 px, over the work budget.
    let body = r##"<defs><linearGradient id="g" x2="1" y2="1"><stop offset="0" stop-color="#f80"/><stop offset="1" stop-color="#08f"/></linearGradient></defs>"##
        .to_string()
        + &r#"<rect width="100" height="100" fill="url(#g)"/>"#.repeat(30);
    let svg = doc(&body);
    let tree = imagecore::svg::parse(svg.as_bytes()).expect("parse");
    let at = |w: u32| resvg::tiny_skia::Transform::from_scale(w as f32 / 100.0, w as f32 / 100.0);
    let over = check(&tree, at(1200), 1200, 1200).expect_err("over the budget at 1200 px");
    assert!(
        over.message.contains("units of pixel work"),
        "{}",
        over.message
    );
    let (png, w, h) = rasterize_png(svg.as_bytes(), 1200).expect("drawn narrower");
    assert!((300..1200).contains(&w) && w == h, "drawn at {w}×{h}");
    let work = check(&tree, at(w), w, h).expect("within the budget where drawn");
    assert!(work <= MAX_PIXEL_WORK);
    let image = image::load_from_memory(&png).expect("decode").to_rgba8();
    assert_eq!(image.dimensions(), (w, h));
}

#[test]
fn a_morphology_radius_overflowing_an_f32_is_refused_not_a_panic() {
    for (units, radius) in [("userSpaceOnUse", "3.5e38"), ("objectBoundingBox", "1e6")] {
        let svg = doc(&format!(
            r##"<filter id="f" primitiveUnits="{units}"><feMorphology radius="{radius}"/></filter><rect width="1e36" height="1e36" filter="url(#f)"/>"##
        ));
        let error = too_complex(&svg, 64);
        assert!(error.message.contains("radius"), "{}", error.message);
    }
}

#[test]
fn past_a_quarter_of_the_width_a_costly_svg_is_refused() {
    // 2000 full-canvas linear gradients: over the budget even at 300 px.
    let body = r##"<defs><linearGradient id="g"><stop offset="0" stop-color="#f80"/><stop offset="1" stop-color="#08f"/></linearGradient></defs>"##
        .to_string()
        + &r#"<rect width="100" height="100" fill="url(#g)"/>"#.repeat(2000);
    let error = too_complex(&doc(&body), 1200);
    assert!(
        error.message.contains("units of pixel work"),
        "{}",
        error.message
    );
}

#[test]
fn thousands_of_style_rules_over_thousands_of_elements_are_refused_before_usvg_matches_them() {
    // usvg matches every rule against every element: 2.3 s to `probe` in WASM.
    let rules: String = (0..3000).map(|i| format!(".c{i}{{fill:#333}}")).collect();
    let svg = doc(&format!(
        "<style>{rules}</style>{}",
        r#"<rect class="a" width="1" height="1"/>"#.repeat(15_000)
    ));
    let start = Instant::now();
    let error = imagecore::svg::parse(svg.as_bytes()).expect_err("refused");
    assert_eq!(error.code, ErrorCode::TooLarge, "{}", error.message);
    assert!(error.message.contains("style rules"), "{}", error.message);
    assert!(start.elapsed() < Duration::from_secs(20));
}

/// Every numeric attribute of every filter primitive, and of the filter region, set to extreme
/// values: each input renders or is refused, never panics (tiny-skia and resvg's filters panic on
/// an offset of 3e9 px).
#[test]
fn extreme_filter_primitive_numbers_are_refused_or_rendered_not_a_panic() {
    let primitives: &[&str] = &[
        r#"<feOffset dx="V" dy="V"/>"#,
        r#"<feOffset dx="V"/>"#,
        r#"<feOffset dy="V"/>"#,
        r#"<feDropShadow dx="V" dy="V" stdDeviation="2"/>"#,
        r#"<feDropShadow dy="V"/>"#,
        r#"<feDropShadow stdDeviation="V"/>"#,
        r#"<feGaussianBlur stdDeviation="V"/>"#,
        r#"<feGaussianBlur stdDeviation="1 V"/>"#,
        r#"<feMorphology radius="V"/>"#,
        r#"<feMorphology operator="dilate" radius="1 V"/>"#,
        r#"<feConvolveMatrix order="3" kernelMatrix="1 1 1 1 V 1 1 1 1" divisor="V" bias="V" targetX="1"/>"#,
        r#"<feConvolveMatrix order="V"/>"#,
        r#"<feTurbulence baseFrequency="V" numOctaves="2" seed="V"/>"#,
        r#"<feTurbulence type="fractalNoise" baseFrequency="0.1 V" stitchTiles="stitch"/>"#,
        r#"<feTurbulence baseFrequency="0.05" numOctaves="V"/>"#,
        r#"<feTurbulence baseFrequency="0.05" stitchTiles="stitch" x="V" width="V"/>"#,
        r#"<feFlood flood-color="red" x="V" y="V" width="V" height="V"/>"#,
        r#"<feDisplacementMap in2="SourceGraphic" scale="V" xChannelSelector="R"/>"#,
        r#"<feDiffuseLighting surfaceScale="V" diffuseConstant="V" kernelUnitLength="V"><fePointLight x="V" y="V" z="V"/></feDiffuseLighting>"#,
        r#"<feDiffuseLighting><feDistantLight azimuth="V" elevation="V"/></feDiffuseLighting>"#,
        r#"<feSpecularLighting surfaceScale="V" specularConstant="V" specularExponent="V"><feSpotLight x="V" y="V" z="V" pointsAtX="V" pointsAtY="V" pointsAtZ="V" specularExponent="V" limitingConeAngle="V"/></feSpecularLighting>"#,
        r#"<feComposite operator="arithmetic" k1="V" k2="V" k3="V" k4="V" in2="SourceGraphic"/>"#,
        r#"<feColorMatrix type="matrix" values="V 0 0 0 0 0 V 0 0 0 0 0 V 0 0 0 0 0 V 0"/>"#,
        r#"<feColorMatrix type="hueRotate" values="V"/>"#,
        r#"<feComponentTransfer><feFuncR type="gamma" amplitude="V" exponent="V" offset="V"/><feFuncG type="table" tableValues="0 V"/><feFuncB type="linear" slope="V" intercept="V"/></feComponentTransfer>"#,
        r#"<feOffset dx="5" result="a"/><feTile in="a" x="V" y="V" width="V" height="V"/>"#,
        r#"<feOffset dx="5" x="V" y="V" width="V" height="V"/>"#,
        r#"<feMerge><feMergeNode in="SourceGraphic"/></feMerge><feOffset dx="V" dy="V"/>"#,
    ];
    let regions: &[&str] = &[
        "",
        r#"filterUnits="userSpaceOnUse" x="V" y="V" width="V" height="V""#,
        r#"primitiveUnits="objectBoundingBox""#,
    ];
    let mut panics = Vec::new();
    for value in ["3e9", "-3.5e38", "3.5e38", "1e7"] {
        for primitive in primitives {
            for region in regions {
                let svg = filtered(&primitive.replace('V', value), &region.replace('V', value))
                    .replace(r#"<rect width="100""#, r#"<rect x="20" y="20" width="60""#);
                for width in [32, 64] {
                    let result = std::panic::catch_unwind(|| rasterize_png(svg.as_bytes(), width));
                    match result {
                        Err(_) => panics.push(format!("{width} px: {svg}")),
                        Ok(Ok(_)) => {}
                        Ok(Err(e)) => assert!(
                            matches!(e.code, ErrorCode::TooLarge | ErrorCode::Corrupt),
                            "{}: {svg}",
                            e.message
                        ),
                    }
                }
            }
        }
    }
    assert!(
        panics.is_empty(),
        "{} panics:\n{}",
        panics.len(),
        panics.join("\n")
    );
}

#[test]
fn a_radius_near_the_f32_limit_is_refused_before_usvg_strokes_it() {
    // usvg strokes every path for its bounding box; tiny-skia subdivides an arc by its radius.
    for shape in [
        r#"<circle cx="34" cy="16" r="1e38" fill="none" stroke="red" stroke-width="3"/>"#,
        r#"<ellipse cx="50" cy="37" rx="40" ry="1e38px" stroke="red"/>"#,
        r#"<rect width="100" height="1e38" rx="1e37" stroke="red"/>"#,
    ] {
        let start = Instant::now();
        let error = imagecore::svg::parse(doc(shape).as_bytes()).expect_err("refused");
        assert!(error.message.contains("radius"), "{}", error.message);
        assert!(start.elapsed() < Duration::from_secs(20));
    }
}
