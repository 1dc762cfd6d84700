#![cfg(feature = "svg")]
//! SVG text: drawn with the bundled font whatever family it names, bounded by the SVG budgets;
//! and the monogram tile drawn from it.

use imagecore::error::ErrorCode;
use imagecore::svg::monogram::{
    background, contrast, document, letter, letter_colour, NEUTRAL_GLYPH, PALETTE,
};
use imagecore::svg::prepass::{MAX_SVG_ELEMENTS, TEXT_CHARACTER_ELEMENTS};
use imagecore::svg::rasterize_png;
use std::time::Instant;

fn draw(svg: &str, width: u32) -> image::RgbaImage {
    let (png, _, _) = rasterize_png(svg.as_bytes(), width).expect("rasterize");
    image::load_from_memory(&png).expect("decode").to_rgba8()
}

fn inked(image: &image::RgbaImage) -> usize {
    image.pixels().filter(|p| p.0[3] > 0).count()
}

fn text_svg(family: &str, body: &str) -> String {
    format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="200" height="60"><text x="5" y="45" font-size="40" font-family="{family}">{body}</text></svg>"#
    )
}

#[test]
fn text_draws_pixels() {
    let drawn = inked(&draw(&text_svg("sans-serif", "Logo"), 200));
    assert!(drawn > 500, "text drew {drawn} pixels");
}

#[test]
fn every_family_maps_to_the_bundled_font() {
    let reference = draw(&text_svg("DejaVu Sans", "Ab"), 200);
    for family in [
        "serif",
        "monospace",
        "cursive",
        "fantasy",
        "Helvetica Neue, Arial",
        "NoSuchFont",
    ] {
        let image = draw(&text_svg(family, "Ab"), 200);
        assert!(inked(&image) > 200, "{family} drew nothing");
        assert_eq!(
            image, reference,
            "{family} is not drawn with the bundled font"
        );
    }
}

#[test]
fn greek_and_cyrillic_and_accented_latin_are_drawn() {
    for word in ["Ωμέγα", "Жизнь", "Ĳsselmeer ŷ"] {
        assert!(inked(&draw(&text_svg("serif", word), 200)) > 300, "{word}");
    }
}

#[test]
fn text_is_bounded_by_the_element_budget_before_shaping() {
    // A million characters in one <text>: refused on the XML, before usvg shapes anything.
    let body = "W".repeat(1_000_000);
    let started = Instant::now();
    let error = rasterize_png(text_svg("serif", &body).as_bytes(), 200).unwrap_err();
    assert_eq!(error.code, ErrorCode::TooLarge, "{}", error.message);
    assert!(error.message.contains("elements"), "{}", error.message);
    eprintln!("1e6 glyphs refused in {:?}", started.elapsed());
}

#[test]
fn text_over_the_character_budget_is_refused() {
    let limit = MAX_SVG_ELEMENTS / TEXT_CHARACTER_ELEMENTS;
    let over = rasterize_png(
        text_svg("serif", &"i".repeat(limit as usize + 1)).as_bytes(),
        50,
    );
    assert_eq!(over.unwrap_err().code, ErrorCode::TooLarge);
    assert!(rasterize_png(
        text_svg("serif", &"i".repeat(limit as usize - 10)).as_bytes(),
        50
    )
    .is_ok());
}

#[test]
fn text_multiplied_by_use_is_counted_per_use() {
    let mut svg = String::from(
        r#"<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="100" height="100"><defs><text id="t">"#,
    );
    svg.push_str(&"M".repeat(200));
    svg.push_str("</text></defs>");
    for _ in 0..50 {
        svg.push_str(r##"<use xlink:href="#t"/>"##);
    }
    svg.push_str("</svg>");
    let error = rasterize_png(svg.as_bytes(), 100).unwrap_err();
    assert_eq!(error.code, ErrorCode::TooLarge, "{}", error.message);
}

#[test]
fn huge_font_sizes_are_refused_or_drawn_not_a_panic() {
    for size in ["1e30", "3e38", "1e7", "-5"] {
        let svg = format!(
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100"><text y="50" font-size="{size}" letter-spacing="1e38" word-spacing="1e38">W W</text></svg>"#
        );
        match rasterize_png(svg.as_bytes(), 100) {
            Ok(_) => {}
            Err(e) => assert!(
                matches!(e.code, ErrorCode::TooLarge | ErrorCode::Corrupt),
                "{size}: {e:?}"
            ),
        }
    }
    let svg = r#"<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100"><text y="50" font-size="1e7">W</text></svg>"#;
    let error = rasterize_png(svg.as_bytes(), 100).unwrap_err();
    assert_eq!(error.code, ErrorCode::TooLarge, "{}", error.message);
}

#[test]
fn many_glyphs_within_the_element_budget_are_drawn_smaller_or_refused_in_time() {
    // 4900 large glyphs (under the element budget) covering the canvas many times over.
    let body = "W".repeat(4_900);
    let svg = format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100"><text y="90" font-size="100" letter-spacing="-60">{body}</text></svg>"#
    );
    let started = Instant::now();
    let outcome = rasterize_png(svg.as_bytes(), 1200);
    if let Err(e) = &outcome {
        assert_eq!(e.code, ErrorCode::TooLarge, "{}", e.message);
    }
    eprintln!(
        "4900 glyphs at 1200 px: {} in {:?} (native)",
        if outcome.is_ok() { "drawn" } else { "refused" },
        started.elapsed()
    );
}

#[test]
fn text_on_a_long_path_is_bounded() {
    let mut d = String::from("M0 50");
    for i in 0..20_000 {
        d.push_str(&format!(" L{} {}", i % 100, (i * 7) % 100));
    }
    let body = "x".repeat(4_900);
    let svg = format!(
        r##"<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="100" height="100"><defs><path id="p" d="{d}"/></defs><text font-size="3"><textPath xlink:href="#p">{body}</textPath></text></svg>"##
    );
    let started = Instant::now();
    let outcome = rasterize_png(svg.as_bytes(), 400);
    if let Err(e) = &outcome {
        assert_eq!(e.code, ErrorCode::TooLarge, "{}", e.message);
    }
    eprintln!(
        "textPath of 4900 glyphs on 20 000 segments: {:?}",
        started.elapsed()
    );
}

#[test]
fn monogram_letter_is_the_labels_first_upper_cased() {
    assert_eq!(letter("example"), 'E');
    assert_eq!(letter("ωmega"), 'Ω');
    assert_eq!(letter("жизнь"), 'Ж');
    assert_eq!(letter("3com"), '3');
    assert_eq!(letter("ßtrasse"), 'ß', "ß upper-cases to two letters: kept");
    assert_eq!(letter("日本"), NEUTRAL_GLYPH, "not in the bundled font");
    assert_eq!(letter(""), NEUTRAL_GLYPH);
}

#[test]
fn monogram_background_is_deterministic_and_spread() {
    assert_eq!(background("example.com"), background("example.com"));
    let colours: std::collections::HashSet<_> = (0..200)
        .map(|i| background(&format!("site{i}.com")))
        .collect();
    assert_eq!(colours.len(), PALETTE.len(), "every colour is used");
}

#[test]
fn monogram_letter_colour_has_contrast_on_every_background() {
    for back in PALETTE {
        let ratio = contrast(letter_colour(back), back);
        assert!(ratio >= 3.0, "{back:?}: {ratio:.2}");
    }
}

#[test]
fn monogram_tile_draws_its_letter_on_its_background() {
    let svg = document("example", "example.com");
    let image = draw(&svg, 128);
    assert_eq!(image.dimensions(), (128, 128));
    let back = background("example.com");
    let corner = image.get_pixel(2, 2).0;
    assert_eq!(&corner[..3], &back, "corner is the background");
    assert_eq!(corner[3], 255, "the tile is opaque");
    let fore = letter_colour(back);
    let letter_pixels = image
        .pixels()
        .filter(|p| p.0[..3] == fore)
        .collect::<Vec<_>>()
        .len();
    assert!(letter_pixels > 300, "letter drew {letter_pixels} pixels");
    // A different letter draws a different tile on the same background.
    assert_ne!(draw(&document("other", "example.com"), 128), image);
}
