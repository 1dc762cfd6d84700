#![cfg(feature = "svg")]
//! SVG module: rasterised at the output size, nothing external loaded, work capped.

use imagecore::error::ErrorCode;
use imagecore::svg::{parse, rasterize_png, size};
use imagecore::svg_sniff::is_svg;

const LOGO: &str = r##"<?xml version="1.0"?>
<!-- a logo -->
<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20" viewBox="0 0 40 20">
  <rect width="40" height="20" fill="#0a7"/>
</svg>"##;

#[test]
fn svg_is_recognised_after_a_declaration_and_comments() {
    assert!(is_svg(LOGO.as_bytes()));
    assert_eq!(size(&parse(LOGO.as_bytes()).expect("parse")), (40, 20));
}

#[test]
fn html_is_not_mistaken_for_svg() {
    assert!(!is_svg(b"<!doctype html><html><svg></svg></html>"));
    assert!(!is_svg(b"<svgfoo/>"));
    assert!(!is_svg(b"<!doctype html><svg></svg>"));
    assert!(is_svg(
        b"<!DOCTYPE svg PUBLIC \"-//W3C//DTD SVG 1.1//EN\" \"x\">\n<svg>"
    ));
}

#[test]
fn svg_is_rasterised_at_the_requested_width() {
    let (png, width, height) = rasterize_png(LOGO.as_bytes(), 400).expect("rasterize");
    assert_eq!((width, height), (400, 200));
    let image = image::load_from_memory(&png).expect("decode").to_rgba8();
    assert_eq!(image.dimensions(), (400, 200));
    assert_eq!(image.get_pixel(200, 100).0, [0, 0xaa, 0x77, 255]);
    assert_eq!(
        image.get_pixel(0, 0).0,
        [0, 0xaa, 0x77, 255],
        "edges stay sharp"
    );
}

#[test]
fn external_references_and_scripts_are_ignored() {
    let hostile = r##"<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="10" height="10">
      <script>alert(1)</script>
      <image href="http://127.0.0.1:1/x.png" width="10" height="10"/>
      <image xlink:href="/etc/passwd" width="10" height="10"/>
      <rect width="10" height="10" fill="#f00"/>
    </svg>"##;
    let (png, _, _) = rasterize_png(hostile.as_bytes(), 0).expect("rasterize");
    let image = image::load_from_memory(&png).expect("decode").to_rgba8();
    assert_eq!(image.get_pixel(5, 5).0, [255, 0, 0, 255]);
}

#[test]
fn an_svg_expanding_past_the_element_cap_is_too_large() {
    // 30 × 30 × 30 <use> fan-out: small bytes, 27 000 rendered elements.
    let svg = r##"<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">
      <defs><rect id="a" width="1" height="1"/><g id="b">USE_A</g><g id="c">USE_B</g></defs>
      USE_C
    </svg>"##
        .replace("USE_A", &r##"<use href="#a"/>"##.repeat(30))
        .replace("USE_B", &r##"<use href="#b"/>"##.repeat(30))
        .replace("USE_C", &r##"<use href="#c"/>"##.repeat(30));
    let error = rasterize_png(svg.as_bytes(), 0).expect_err("refused");
    assert_eq!(error.code, ErrorCode::TooLarge);
}

#[test]
fn external_entities_are_refused_not_fetched() {
    let svg = br##"<?xml version="1.0"?>
<!DOCTYPE svg [<!ENTITY ext SYSTEM "http://127.0.0.1:1/entity.txt">]>
<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8">
  <rect width="8" height="8" fill="#00f"/><text>&ext;</text>
</svg>"##;
    assert!(is_svg(svg));
    // roxmltree never resolves external entities; an undefined one makes the document invalid.
    let error = rasterize_png(svg, 0).expect_err("refused");
    assert_eq!(error.code, ErrorCode::Corrupt);
}

#[test]
fn broken_svg_is_corrupt() {
    let error = rasterize_png(b"<svg xmlns='http://www.w3.org/2000/svg' width='10'", 0)
        .expect_err("refused");
    assert_eq!(error.code, ErrorCode::Corrupt);
}

#[test]
fn svg_output_is_capped_like_any_output() {
    let error = rasterize_png(LOGO.as_bytes(), 5000).expect_err("refused");
    assert_eq!(error.code, ErrorCode::InvalidArgument);
}
