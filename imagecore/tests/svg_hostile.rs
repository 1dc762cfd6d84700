#![cfg(feature = "svg")]
//! The hostile-SVG corpus of issue #9, built by code: each input is refused as `too_large` by a
//! budget (or rendered) without a panic, and a normal logo still renders. A panic fails the test.
//! The same corpus in TypeScript (test/support/hostile_svg.ts) runs through the WASM module.

mod svg_common;

use imagecore::error::ErrorCode;
use imagecore::svg::rasterize_png;
use svg_common::*;

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
