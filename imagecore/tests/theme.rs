#![cfg(feature = "raster")]
//! The theme step through the whole pipeline: lightness inverted in OKLab with hue kept, and only
//! when the logo's palette says it helps (src/colour/theme.rs).
mod common;

use common::theme_logos::{self as logos, BLACK, INDIGO, ORANGE, RED, WHITE, YELLOW};
use image::RgbaImage;
use imagecore::colour::lightness::{hue_distance, Colour};
use imagecore::colour::theme::Theme;
use imagecore::raster::pipeline::{transform, Options};

/// The logo after the pipeline with `theme` (PNG out, source width), and whether it was inverted.
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

fn assert_untouched(logo: &RgbaImage, theme: Theme) {
    let (plain, _) = themed(logo, None);
    let (out, inverted) = themed(logo, Some(theme));
    assert!(!inverted, "{theme:?}");
    assert_eq!(out, plain, "{theme:?}: the pixels changed");
}

#[test]
fn a_black_mark_turns_white_on_a_dark_page_and_stays_black_on_a_light_one() {
    let (out, inverted) = themed(&logos::mark(BLACK), Some(Theme::Dark));
    assert!(inverted);
    assert_eq!(rgb(&out, 48, 48), WHITE, "the bar's centre");
    assert_untouched(&logos::mark(BLACK), Theme::Light);
}

#[test]
fn a_white_mark_turns_black_on_a_light_page_and_stays_white_on_a_dark_one() {
    let (out, inverted) = themed(&logos::mark(WHITE), Some(Theme::Light));
    assert!(inverted);
    assert_eq!(rgb(&out, 48, 48), BLACK, "the bar's centre");
    assert_untouched(&logos::mark(WHITE), Theme::Dark);
}

#[test]
fn a_saturated_logo_keeps_its_hue_when_its_lightness_is_inverted() {
    // Deep indigo lacks contrast on black (1.2:1): it becomes a light indigo.
    let (out, inverted) = themed(&logos::disc(INDIGO), Some(Theme::Dark));
    assert!(inverted);
    let (before, after) = (Colour::of(INDIGO), Colour::of(rgb(&out, 32, 32)));
    let shift = hue_distance(before.hue(), after.hue());
    assert!(shift <= 3.0, "hue moved {shift}° ({before:?} → {after:?})");
    assert!(
        (after.lab.l - (1.0 - before.lab.l)).abs() < 0.01,
        "lightness {} → {}, not 1 − L",
        before.lab.l,
        after.lab.l
    );
    assert!(
        after.chroma() >= 0.9 * before.chroma(),
        "chroma {} → {}",
        before.chroma(),
        after.chroma()
    );
}

#[test]
fn the_orange_example_org_badge_keeps_its_orange_on_both_pages() {
    // Orange on white is 2.8:1, under the 3:1 an RGB inversion used to act on (it turned blue).
    let badge = logos::orange_badge();
    for theme in [Theme::Light, Theme::Dark] {
        assert_untouched(&badge, theme);
        let (out, _) = themed(&badge, Some(theme));
        assert_eq!(rgb(&out, 20, 32), ORANGE, "{theme:?}");
    }
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
fn alpha_is_never_changed() {
    for (logo, theme) in [
        (logos::mark(BLACK), Theme::Dark),
        (logos::mark(WHITE), Theme::Light),
        (logos::disc(INDIGO), Theme::Dark),
    ] {
        let (plain, _) = themed(&logo, None);
        let (out, inverted) = themed(&logo, Some(theme));
        assert!(inverted, "{theme:?}");
        let alphas = |image: &RgbaImage| image.pixels().map(|p| p[3]).collect::<Vec<_>>();
        assert_eq!(alphas(&out), alphas(&plain), "{theme:?}");
        assert!(
            plain.pixels().any(|p| p[3] > 0 && p[3] < 255),
            "the logo has anti-aliased edges"
        );
    }
}

#[test]
fn a_two_colour_logo_is_inverted_when_that_makes_more_of_it_read_and_keeps_its_hues() {
    // Black and deep red on black: only the red reads; inverted, the black turns white and the red
    // (mid lightness) stays red.
    let logo = logos::two_colour(RED, BLACK);
    let (out, inverted) = themed(&logo, Some(Theme::Dark));
    assert!(inverted);
    assert_eq!(rgb(&out, 110, 32), WHITE, "the wordmark");
    let red = Colour::of(rgb(&out, 32, 32));
    assert!(
        hue_distance(red.hue(), Colour::of(RED).hue()) <= 3.0,
        "{red:?}"
    );
    assert_untouched(&logo, Theme::Light);
}

#[test]
fn a_two_colour_logo_is_left_alone_when_inverting_does_not_raise_contrast() {
    // A light grey disc and a black one on black: as they are, the grey reads; inverted, the black
    // reads (white) and the grey does not (dark grey). No gain, and greys have no hue to turn.
    let logo = logos::draw(128, 64, &|x, y| {
        let disc = |cx: f32| (x - cx).powi(2) + (y - 32.0).powi(2) <= 26.0 * 26.0;
        if disc(32.0) {
            Some([200, 200, 200])
        } else {
            disc(96.0).then_some(BLACK)
        }
    });
    assert_untouched(&logo, Theme::Dark);
}

#[test]
fn a_colour_that_would_lose_its_hue_is_left_alone() {
    // Yellow lacks contrast on white (1.5:1), but near black sRGB has almost no yellow: inverted,
    // it would keep a sixth of its chroma.
    assert_untouched(&logos::disc(YELLOW), Theme::Light);
}

#[test]
fn an_interior_colour_is_judged_against_the_logo_not_the_page() {
    // A black badge with white text on a dark page: the outline is black, so it is inverted,
    // although a quarter of its ink (the white) reads and the mean luminance has 6:1.
    let logo = logos::draw(96, 48, &|x, y| {
        let inside = (4.0..92.0).contains(&x) && (4.0..44.0).contains(&y);
        let text = (20.0..76.0).contains(&x) && (16.0..32.0).contains(&y);
        inside.then_some(if text { WHITE } else { BLACK })
    });
    let (out, inverted) = themed(&logo, Some(Theme::Dark));
    assert!(inverted);
    assert_eq!((rgb(&out, 10, 24), rgb(&out, 48, 24)), (WHITE, BLACK));
}

/// A translucent dark speckle of `side`² pixels, each a different near-black colour (channels
/// 0..=`range`-1, so `range`³ colours at most), every pixel on the outline.
fn dark_speckle(side: u32, range: u32) -> RgbaImage {
    RgbaImage::from_fn(side, side, |x, y| {
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
    // 200² pixels over 35³ = 42,875 colours: under the cap, a dark logo on a dark page inverts.
    let (_, inverted) = themed(&dark_speckle(200, 35), Some(Theme::Dark));
    assert!(inverted, "under the cap");
    // 300² = 90,000 pixels over 48³ colours: more than the cap, left alone (rule 5).
    let speckle = dark_speckle(300, 48);
    let distinct: std::collections::HashSet<[u8; 3]> =
        speckle.pixels().map(|p| [p.0[0], p.0[1], p.0[2]]).collect();
    assert!(distinct.len() > PALETTE_CAP, "{} colours", distinct.len());
    assert_untouched(&speckle, Theme::Dark);
}
