#![cfg(feature = "raster")]
//! The theme step through the whole pipeline: each part that does not read on the page moved the
//! least OKLab lightness that makes it read, hue kept (src/colour/theme.rs). The contrast promise
//! over many logos is measured in tests/theme_contrast.rs; these pin single behaviours.
mod common;

use common::theme_logos::{self as logos, BLACK, INDIGO, ORANGE, RED, WHITE, YELLOW};
use image::RgbaImage;
use imagecore::colour::lightness::{contrast, hue_distance, luminance, Colour};
use imagecore::colour::theme::Theme;
use imagecore::raster::pipeline::{transform, Options};

/// The logo after the pipeline with `theme` (PNG out, source width), and whether it was changed.
fn themed(logo: &RgbaImage, theme: Option<Theme>) -> (RgbaImage, bool) {
    let options = Options {
        theme,
        ..Options::default()
    };
    let out = transform(&common::png(logo), &options).expect("transform");
    let image = image::load_from_memory(&out.bytes).expect("decode");
    (image.to_rgba8(), out.inverted)
}

fn rgb(image: &RgbaImage, x: u32, y: u32) -> [u8; 3] {
    let p = image.get_pixel(x, y).0;
    [p[0], p[1], p[2]]
}

fn on(theme: Theme) -> f32 {
    match theme {
        Theme::Light => 1.0,
        Theme::Dark => 0.0,
    }
}

/// Contrast of `colour` with the page of `theme`.
fn against(colour: [u8; 3], theme: Theme) -> f32 {
    contrast(luminance(colour), on(theme))
}

fn assert_untouched(logo: &RgbaImage, theme: Theme) {
    let (plain, _) = themed(logo, None);
    let (out, changed) = themed(logo, Some(theme));
    assert!(!changed, "{theme:?}");
    assert_eq!(out, plain, "{theme:?}: the pixels changed");
}

/// Asserts `after` is `before` with only its lightness moved: hue within 3°, chroma at least
/// `keep` of what it was.
fn assert_same_hue(before: [u8; 3], after: [u8; 3], keep: f32) {
    let (b, a) = (Colour::of(before), Colour::of(after));
    let shift = hue_distance(b.hue(), a.hue());
    assert!(shift <= 3.0, "hue moved {shift}° ({before:?} → {after:?})");
    assert!(
        a.chroma() >= keep * b.chroma(),
        "chroma {} → {}",
        b.chroma(),
        a.chroma()
    );
}

#[test]
fn a_black_mark_turns_a_grey_that_reads_on_a_dark_page_and_stays_black_on_a_light_one() {
    let (out, changed) = themed(&logos::mark(BLACK), Some(Theme::Dark));
    assert!(changed);
    let bar = rgb(&out, 48, 48);
    let ratio = against(bar, Theme::Dark);
    assert!(
        (3.0..3.5).contains(&ratio),
        "{bar:?}: {ratio}:1, not the least that reads"
    );
    assert!(bar[0] == bar[1] && bar[1] == bar[2], "a grey: {bar:?}");
    assert_untouched(&logos::mark(BLACK), Theme::Light);
}

#[test]
fn a_white_mark_turns_a_grey_that_reads_on_a_light_page_and_stays_white_on_a_dark_one() {
    let (out, changed) = themed(&logos::mark(WHITE), Some(Theme::Light));
    assert!(changed);
    let ratio = against(rgb(&out, 48, 48), Theme::Light);
    assert!((3.0..3.5).contains(&ratio), "{ratio}:1");
    assert_untouched(&logos::mark(WHITE), Theme::Dark);
}

#[test]
fn a_saturated_logo_keeps_its_hue_when_its_lightness_moves() {
    // Deep indigo lacks contrast on black (1.2:1): it becomes a lighter indigo.
    let (out, changed) = themed(&logos::disc(INDIGO), Some(Theme::Dark));
    assert!(changed);
    let after = rgb(&out, 32, 32);
    assert!(against(after, Theme::Dark) >= 3.0, "{after:?}");
    assert_same_hue(INDIGO, after, 0.9);
}

#[test]
fn the_orange_badge_is_darkened_to_read_on_white_and_left_alone_on_black() {
    // Orange on white is 2.8:1: darkened the least that gives 3:1, still orange; its white text
    // reads against the darker orange and stays white.
    let badge = logos::orange_badge();
    let (out, changed) = themed(&badge, Some(Theme::Light));
    assert!(changed);
    let orange = rgb(&out, 20, 32);
    assert!(
        (3.0..3.4).contains(&against(orange, Theme::Light)),
        "{orange:?}"
    );
    assert_same_hue(ORANGE, orange, 0.8);
    assert_eq!(rgb(&out, 50, 32), WHITE, "the text");
    assert_untouched(&badge, Theme::Dark);
}

#[test]
fn a_saturated_colour_with_enough_contrast_is_left_alone() {
    // #1a73e8 has 4.6:1 against white and 4.5:1 against black.
    for theme in [Theme::Light, Theme::Dark] {
        assert_untouched(&logos::disc([0x1a, 0x73, 0xe8]), theme);
    }
}

#[test]
fn opaque_logos_are_left_alone() {
    for theme in [Theme::Light, Theme::Dark] {
        assert_untouched(&logos::opaque_tile(), theme);
    }
}

#[test]
fn alpha_is_never_changed_and_an_edge_pixel_follows_its_part() {
    for (logo, theme) in [
        (logos::mark(BLACK), Theme::Dark),
        (logos::mark(WHITE), Theme::Light),
        (logos::disc(INDIGO), Theme::Dark),
    ] {
        let (plain, _) = themed(&logo, None);
        let (out, changed) = themed(&logo, Some(theme));
        assert!(changed, "{theme:?}");
        let alphas = |image: &RgbaImage| image.pixels().map(|p| p[3]).collect::<Vec<_>>();
        assert_eq!(alphas(&out), alphas(&plain), "{theme:?}");
        // One colour drawn: every translucent edge pixel is the part's new colour, at its alpha.
        let inside = out.get_pixel(out.width() / 2, out.height() / 2).0;
        let edges: Vec<_> = out.pixels().filter(|p| p[3] > 0 && p[3] < 255).collect();
        assert!(!edges.is_empty(), "the logo has anti-aliased edges");
        for p in edges {
            assert_eq!(p.0[..3], inside[..3], "{theme:?}");
        }
    }
}

#[test]
fn of_two_colours_only_the_one_that_does_not_read_changes() {
    // Deep red (3.3:1 on black) and black on a black page: the black part becomes a grey that
    // reads, the red stays exactly red.
    let logo = logos::two_colour(RED, BLACK);
    let (out, changed) = themed(&logo, Some(Theme::Dark));
    assert!(changed);
    assert!(
        against(rgb(&out, 110, 32), Theme::Dark) >= 3.0,
        "the wordmark"
    );
    assert_eq!(rgb(&out, 32, 32), RED, "the disc");
    assert_untouched(&logo, Theme::Light);
}

#[test]
fn a_yellow_mark_is_darkened_on_white_keeping_its_hue() {
    // Yellow lacks contrast on white (1.5:1); darkened the least that reads, it stays a yellow
    // (an ochre), with what chroma sRGB has there.
    let (out, changed) = themed(&logos::disc(YELLOW), Some(Theme::Light));
    assert!(changed);
    let after = rgb(&out, 32, 32);
    assert!(against(after, Theme::Light) >= 3.0, "{after:?}");
    assert_same_hue(YELLOW, after, 0.5);
    assert_untouched(&logos::disc(YELLOW), Theme::Dark);
}

#[test]
fn an_interior_colour_is_judged_against_the_logo_not_the_page() {
    // A black badge with white text: on a dark page the badge becomes a grey that reads and the
    // text, which reads against that grey, stays white; on a light page nothing changes, though
    // the white text alone would not read on white.
    let logo = logos::draw(96, 48, &|x, y| {
        let inside = (4.0..92.0).contains(&x) && (4.0..44.0).contains(&y);
        let text = (20.0..76.0).contains(&x) && (16.0..32.0).contains(&y);
        inside.then_some(if text { WHITE } else { BLACK })
    });
    let (out, changed) = themed(&logo, Some(Theme::Dark));
    assert!(changed);
    let (badge, text) = (rgb(&out, 10, 24), rgb(&out, 48, 24));
    assert!(against(badge, Theme::Dark) >= 3.0, "{badge:?}");
    assert_eq!(text, WHITE);
    assert!(contrast(luminance(text), luminance(badge)) >= 3.0);
    assert_untouched(&logo, Theme::Light);
}

/// A translucent black bar over a speckle of `side`² pixels, each a different near-black colour
/// (channels 0..=`range`-1, so `range`³ colours at most).
fn dark_speckle(side: u32, range: u32) -> RgbaImage {
    RgbaImage::from_fn(side, side, |x, y| {
        if (side / 2..side / 2 + 6).contains(&y) {
            return image::Rgba([0, 0, 0, 255]);
        }
        let i = y * side + x;
        let channel = |n: u32| (n % range) as u8;
        image::Rgba([
            channel(i),
            channel(i / range),
            channel(i / range / range),
            200,
        ])
    })
}

#[test]
fn a_logo_with_more_colours_than_the_palette_holds_is_left_alone() {
    use imagecore::colour::theme::PALETTE_CAP;
    // 200² pixels over 35³ = 42,875 colours: under the cap, the black bar lightens on a dark page.
    let (_, changed) = themed(&dark_speckle(200, 35), Some(Theme::Dark));
    assert!(changed, "under the cap");
    // 300² = 90,000 pixels over 48³ colours: more than the cap, left alone (rule 2).
    let speckle = dark_speckle(300, 48);
    let distinct: std::collections::HashSet<[u8; 3]> =
        speckle.pixels().map(|p| [p.0[0], p.0[1], p.0[2]]).collect();
    assert!(distinct.len() > PALETTE_CAP, "{} colours", distinct.len());
    assert_untouched(&speckle, Theme::Dark);
}
