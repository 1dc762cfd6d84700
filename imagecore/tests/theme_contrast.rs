#![cfg(feature = "raster")]
//! The theme's promise, measured (issue 33 §3): on logos of two and three colours, both themes,
//! with and without greyscale, at the source width and at half of it, after the theme every part
//! reads — at least 3:1 against the page when it is seen against the page, and at least what it
//! had (or 3:1) against the part it lies inside — and every part that read keeps its colour
//! exactly. A part is judged on the pixels wholly inside it (beyond the reach of the resize's
//! kernel), each one: no part may have a pixel that falls short.
//!
//! `cargo test --test theme_contrast -- --nocapture` prints the contrasts before and after.
mod common;

use common::part_logos::{self, Logo, On};
use image::RgbaImage;
use imagecore::colour::lightness::{contrast, luminance};
use imagecore::colour::theme::Theme;
use imagecore::raster::pipeline::{transform, Options};

/// The contrast a part seen against the page must have: WCAG 2.1's 3:1 for graphical objects.
const READS: f32 = 3.0;

/// WCAG luminance of the page a theme is for.
fn page_luminance(theme: Theme) -> f32 {
    match theme {
        Theme::Light => 1.0,
        Theme::Dark => 0.0,
    }
}

fn render(logo: &[u8], width: u32, greyscale: bool, theme: Option<Theme>) -> RgbaImage {
    let options = Options {
        width: Some(width),
        greyscale,
        theme,
        ..Options::default()
    };
    let out = transform(logo, &options).expect("transform");
    image::load_from_memory(&out.bytes)
        .expect("decode")
        .to_rgba8()
}

/// The output pixels wholly inside each part: at the source width the pixels its shape covers
/// whole; resized, those whose Lanczos3 window covers only that part.
fn interiors(logo: &Logo, width: u32) -> Vec<Vec<(u32, u32)>> {
    let scale = logo.width as f32 / width as f32;
    let height = ((logo.height as f32 / scale).round() as u32).max(1);
    let reach = if width == logo.width {
        0
    } else {
        (3.0 * scale).ceil() as i64 + 1
    };
    let mut out = vec![Vec::new(); logo.parts.len()];
    for oy in 0..height {
        for ox in 0..width {
            let (cx, cy) = (
                ((ox as f32 + 0.5) * scale) as i64,
                ((oy as f32 + 0.5) * scale) as i64,
            );
            let mut whole = None;
            let mut ok = true;
            'window: for y in cy - reach..=cy + reach {
                for x in cx - reach..=cx + reach {
                    let inside =
                        x >= 0 && y >= 0 && (x as u32) < logo.width && (y as u32) < logo.height;
                    let part = if inside {
                        logo.whole(x as u32, y as u32)
                    } else {
                        None
                    };
                    if part.is_none() || (whole.is_some() && whole != part) {
                        ok = false;
                        break 'window;
                    }
                    whole = part;
                }
            }
            if let (true, Some(part)) = (ok, whole) {
                out[part].push((ox, oy));
            }
        }
    }
    out
}

fn rgb(image: &RgbaImage, (x, y): (u32, u32)) -> [u8; 3] {
    let p = image.get_pixel(x, y).0;
    [p[0], p[1], p[2]]
}

fn hex(c: [u8; 3]) -> String {
    format!("#{:02x}{:02x}{:02x}", c[0], c[1], c[2])
}

/// Checks one logo at one width, theme and greyscale; returns the table rows and the failures.
fn measure(logo: &Logo, width: u32, greyscale: bool, theme: Theme) -> (Vec<String>, Vec<String>) {
    let source = common::png(&logo.draw());
    let before = render(&source, width, greyscale, None);
    let after = render(&source, width, greyscale, Some(theme));
    let page = page_luminance(theme);
    let inside = interiors(logo, width);
    // Each part's colour before and after: the first of its interior pixels (before the theme
    // they are all the one colour).
    let colour = |image: &RgbaImage, p: usize| inside[p].first().map(|&at| rgb(image, at));
    let (mut rows, mut failures) = (Vec::new(), Vec::new());
    for (p, part) in logo.parts.iter().enumerate() {
        let (Some(was), Some(_)) = (colour(&before, p), colour(&after, p)) else {
            continue; // no pixel wholly inside it at this width
        };
        let (against_before, against_after, need) = match part.on {
            On::Page => (page, page, READS),
            On::Part(q) => {
                let (Some(qb), Some(qa)) = (colour(&before, q), colour(&after, q)) else {
                    continue;
                };
                let had = contrast(luminance(was), luminance(qb));
                (luminance(qb), luminance(qa), had.min(READS))
            }
        };
        let had = contrast(luminance(was), against_before);
        let mut worst = f32::INFINITY;
        let mut changed = false;
        for &at in &inside[p] {
            let now = rgb(&after, at);
            worst = worst.min(contrast(luminance(now), against_after));
            changed |= now != rgb(&before, at);
        }
        let case = format!(
            "{} / {} at {width} px, {theme:?}{}",
            logo.name,
            part.name,
            if greyscale { ", greyscale" } else { "" }
        );
        if worst < need {
            failures.push(format!("{case}: {worst:.2}:1 after, needs {need:.2}:1"));
        }
        let still_reads = contrast(luminance(was), against_after) >= need;
        if changed && still_reads {
            failures.push(format!("{case}: read ({had:.2}:1) but its colour changed"));
        }
        let seen = match part.on {
            On::Page => "page".to_owned(),
            On::Part(q) => logo.parts[q].name.to_owned(),
        };
        let now = colour(&after, p).unwrap_or(was);
        rows.push(format!(
            "| {} | {} | {theme:?} | {} | {width} | {seen} | {} | {had:.2} | {} | {worst:.2} |",
            logo.name,
            part.name,
            if greyscale { "yes" } else { "no" },
            hex(was),
            hex(now),
        ));
    }
    (rows, failures)
}

#[test]
fn every_part_reads_after_the_theme_and_parts_that_read_keep_their_colour() {
    println!("| logo | part | theme | grey | width | seen against | before | contrast | after | contrast (min) |");
    println!("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |");
    let mut failures = Vec::new();
    for logo in part_logos::all() {
        for width in [logo.width, logo.width / 2] {
            for greyscale in [false, true] {
                for theme in [Theme::Light, Theme::Dark] {
                    let (rows, failed) = measure(&logo, width, greyscale, theme);
                    rows.iter().for_each(|row| println!("{row}"));
                    failures.extend(failed);
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn every_part_of_every_logo_is_measured_at_the_source_width() {
    // The measure above skips a part with no pixel wholly inside it; at the source width none may
    // be skipped, or the test would pass by measuring nothing.
    for logo in part_logos::all() {
        for (p, pixels) in interiors(&logo, logo.width).iter().enumerate() {
            assert!(
                pixels.len() >= 20,
                "{} / {}: {} pixels",
                logo.name,
                logo.parts[p].name,
                pixels.len()
            );
        }
    }
}
