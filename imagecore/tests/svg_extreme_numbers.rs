#![cfg(feature = "svg")]
//! Numbers near the f32 limits, which usvg or tiny-skia unwrap or subdivide by, are refused before
//! they panic or stall: filter primitive values, morphology radii, shape radii, style-rule bombs.

mod svg_common;

use imagecore::error::ErrorCode;
use imagecore::svg::rasterize_png;
use std::time::{Duration, Instant};
use svg_common::*;

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
