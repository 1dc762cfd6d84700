#![cfg(feature = "svg")]
//! An SVG over the pixel-work budget is drawn narrower (down to a quarter) and scaled up by the
//! caller; past a quarter, or over any other limit, it is refused.

mod svg_common;

use imagecore::svg::budget::{check, MAX_PIXEL_WORK};
use imagecore::svg::fit::fit;
use imagecore::svg::rasterize_png;
use svg_common::*;

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
