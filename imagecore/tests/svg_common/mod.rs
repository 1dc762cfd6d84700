//! Helpers of the SVG test files: a test logo, a document wrapper, and the refusal check.
#![allow(dead_code)]

use imagecore::error::{Error, ErrorCode};
use imagecore::svg::rasterize_png;
use std::time::{Duration, Instant};

pub const LOGO_BODY: &str = r##"
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

pub const NS: &str =
    r#"xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink""#;

pub fn doc(body: &str) -> String {
    format!(r#"<svg {NS} width="100" height="100">{body}</svg>"#)
}

/// Rasterises at `width` and expects a refusal by a budget, quickly.
pub fn too_complex(svg: &str, width: u32) -> Error {
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

pub fn use_bomb(levels: usize, fan_out: usize) -> String {
    let mut defs = String::from(r#"<rect id="l0" width="10" height="10"/>"#);
    for i in 1..=levels {
        let uses = format!(r##"<use href="#l{}"/>"##, i - 1).repeat(fan_out);
        defs += &format!(r#"<g id="l{i}">{uses}</g>"#);
    }
    doc(&format!(r##"<defs>{defs}</defs><use href="#l{levels}"/>"##))
}

pub fn long_path(segments: usize, attributes: &str) -> String {
    let mut d = String::from("M0 0");
    for i in 0..segments {
        d += &format!("L{} {}", i % 100, (i * 7) % 100);
    }
    format!(r#"<path id="p" d="{d}" {attributes}/>"#)
}

pub fn filtered(primitives: &str, region: &str) -> String {
    doc(&format!(
        r#"<filter id="f" {region}>{primitives}</filter><rect width="100" height="100" filter="url(#f)"/>"#
    ))
}
