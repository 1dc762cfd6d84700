#![cfg(feature = "svg")]
//! `format=svg`'s greyscale and theme (src/svg/recolour.rs) on SVG text as usvg's writer makes it
//! (the sanitised rendition): on logos of two and three colours, both themes, with and without
//! greyscale, the recoloured document, drawn, has every part reading — 3:1 against the page for a
//! part seen against the page, at least what it had (or 3:1) against the part it lies inside — and
//! every part that read keeps its colour exactly. Each part is judged at points well inside it.
//!
//! `cargo test --features svg --test svg_theme -- --nocapture` prints the contrasts.

use imagecore::colour::lightness::{contrast, luminance};
use imagecore::colour::theme::Theme;
use imagecore::svg::recolour::recolour;
use imagecore::svg::{parse, rasterize_png};
use resvg::usvg::WriteOptions;

/// Where a part is seen: `None` the page, `Some(i)` inside part `i`.
struct Part {
    name: &'static str,
    on: Option<usize>,
    /// Points well inside it, in the document's units (drawn at 1 px a unit).
    at: &'static [(u32, u32)],
}

struct Logo {
    name: &'static str,
    svg: &'static str,
    parts: &'static [Part],
}

const LOGOS: &[Logo] = &[
    Logo {
        name: "green tile, white disc, dark-green text",
        svg: r##"<svg xmlns="http://www.w3.org/2000/svg" width="256" height="96">
            <rect x="6" y="6" width="84" height="84" rx="16" fill="#34a853"/>
            <circle cx="48" cy="48" r="22" fill="white"/>
            <path fill="#14532d" fill-rule="evenodd"
                d="M104 26h40v44h-40zM116 38v20h16v-20zM156 26h40v44h-40zM208 26h40v44h-40z"/>
        </svg>"##,
        parts: &[
            Part {
                name: "tile",
                on: None,
                at: &[(14, 48), (48, 14)],
            },
            Part {
                name: "disc",
                on: Some(0),
                at: &[(48, 48)],
            },
            Part {
                name: "text",
                on: None,
                at: &[(108, 48), (176, 48), (228, 48)],
            },
        ],
    },
    Logo {
        name: "black badge, white text",
        svg: r##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 192 64" width="192" height="64">
            <rect x="2" y="2" width="188" height="60" rx="14"/>
            <path fill="#fff" d="M30 14h36v36h-36zM75 14h36v36h-36zM120 14h36v36h-36z"/>
        </svg>"##,
        parts: &[
            Part {
                name: "badge",
                on: None,
                at: &[(16, 32), (176, 32)],
            },
            Part {
                name: "text",
                on: Some(0),
                at: &[(48, 32), (93, 32), (138, 32)],
            },
        ],
    },
    Logo {
        name: "red disc, navy bar",
        svg: r##"<svg xmlns="http://www.w3.org/2000/svg" width="160" height="64">
            <circle cx="32" cy="32" r="26" fill="#d62828"/>
            <rect x="68" y="18" width="88" height="28" fill="#1d3557"/>
        </svg>"##,
        parts: &[
            Part {
                name: "disc",
                on: None,
                at: &[(32, 32)],
            },
            Part {
                name: "bar",
                on: None,
                at: &[(110, 32)],
            },
        ],
    },
    Logo {
        name: "yellow mark, white text",
        svg: r##"<svg xmlns="http://www.w3.org/2000/svg" width="192" height="64">
            <circle cx="32" cy="32" r="26" fill="#facc15"/>
            <path fill="#ffffff" d="M70 12h36v40h-36zM115 12h36v40h-36z"/>
        </svg>"##,
        parts: &[
            Part {
                name: "mark",
                on: None,
                at: &[(32, 32)],
            },
            Part {
                name: "text",
                on: None,
                at: &[(88, 32), (133, 32)],
            },
        ],
    },
    Logo {
        name: "thin strokes",
        svg: r##"<svg xmlns="http://www.w3.org/2000/svg" width="96" height="96">
            <rect x="9.5" y="9.5" width="77" height="77" fill="none" stroke="#333333" stroke-width="3"/>
            <path d="M20 47.5h56M47.5 20v56" stroke="#1e1b4b" stroke-width="3"/>
        </svg>"##,
        parts: &[
            Part {
                name: "frame",
                on: None,
                at: &[(10, 48), (48, 86)],
            },
            Part {
                name: "cross",
                on: None,
                at: &[(30, 47), (47, 30)],
            },
        ],
    },
    Logo {
        name: "circles: white dot in red disc in black ring",
        svg: r##"<svg xmlns="http://www.w3.org/2000/svg" width="96" height="96">
            <circle cx="48.3" cy="47.7" r="40.2"/>
            <circle cx="48.3" cy="47.7" r="26.4" fill="#e63946"/>
            <circle cx="48.3" cy="47.7" r="9.6" fill="#fff"/>
        </svg>"##,
        parts: &[
            Part {
                name: "ring",
                on: None,
                at: &[(48, 14), (14, 48)],
            },
            Part {
                name: "disc",
                on: Some(0),
                at: &[(48, 30), (66, 48)],
            },
            Part {
                name: "dot",
                on: Some(1),
                at: &[(48, 48)],
            },
        ],
    },
    Logo {
        name: "navy-to-black gradient tile, white mark",
        svg: r##"<svg xmlns="http://www.w3.org/2000/svg" width="96" height="96">
            <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="0">
                <stop offset="0" stop-color="#1d3557"/><stop offset="1" stop-color="#000"/>
            </linearGradient></defs>
            <rect x="4" y="4" width="88" height="88" rx="12" fill="url(#g)"/>
            <rect x="36" y="36" width="24" height="24" fill="#fff"/>
        </svg>"##,
        parts: &[
            Part {
                name: "tile, navy end",
                on: None,
                at: &[(6, 20)],
            },
            Part {
                name: "tile, black end",
                on: None,
                at: &[(90, 20)],
            },
            Part {
                name: "mark",
                on: Some(1),
                at: &[(48, 48)],
            },
        ],
    },
];

/// The document as the sanitised rendition holds it: parsed by usvg and written back.
fn sanitised(svg: &str) -> String {
    parse(svg.as_bytes())
        .expect("parse")
        .to_string(&WriteOptions::default())
}

fn drawn(svg: &str, width: u32) -> image::RgbaImage {
    let (png, _, _) = rasterize_png(svg.as_bytes(), width).expect("draw");
    image::load_from_memory(&png).expect("decode").to_rgba8()
}

fn hex(c: [u8; 3]) -> String {
    format!("#{:02x}{:02x}{:02x}", c[0], c[1], c[2])
}

fn page(theme: Theme) -> f32 {
    match theme {
        Theme::Light => 1.0,
        Theme::Dark => 0.0,
    }
}

/// The logo's colours blanked: what must not change.
fn shape(text: &str) -> String {
    let mut out = String::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        out.push(c);
        if c == '#' {
            while chars.peek().is_some_and(|c| c.is_ascii_hexdigit()) {
                chars.next();
            }
        }
    }
    out
}

#[test]
fn every_part_of_a_recoloured_svg_reads_and_parts_that_read_keep_their_colour() {
    println!(
        "| logo | part | theme | grey | seen against | before | contrast | after | contrast |"
    );
    println!("| --- | --- | --- | --- | --- | --- | --- | --- | --- |");
    let mut failures = Vec::new();
    for logo in LOGOS {
        let text = sanitised(logo.svg);
        let width = parse(text.as_bytes()).expect("reparse").size().width() as u32;
        for greyscale in [false, true] {
            for theme in [Theme::Light, Theme::Dark] {
                let plain = recolour(&text, greyscale, None).expect("plain");
                let before = drawn(&plain, width);
                let themed = recolour(&text, greyscale, Some(theme)).expect("themed");
                assert_eq!(shape(&themed), shape(&text), "only colours change");
                let after = drawn(&themed, width);
                let colour = |image: &image::RgbaImage, part: &Part| {
                    part.at
                        .iter()
                        .map(|&(x, y)| {
                            let p = image.get_pixel(x, y).0;
                            assert_eq!(
                                p[3], 255,
                                "{} / {}: ({x}, {y}) is not inside",
                                logo.name, part.name
                            );
                            [p[0], p[1], p[2]]
                        })
                        .collect::<Vec<_>>()
                };
                for part in logo.parts {
                    let (was, now) = (colour(&before, part), colour(&after, part));
                    let (lb, la, need) = match part.on {
                        None => (page(theme), page(theme), 3.0f32),
                        Some(q) => {
                            let (qb, qa) = (
                                colour(&before, &logo.parts[q])[0],
                                colour(&after, &logo.parts[q])[0],
                            );
                            let had = contrast(luminance(was[0]), luminance(qb));
                            (luminance(qb), luminance(qa), had.min(3.0))
                        }
                    };
                    let case = format!(
                        "{} / {}, {theme:?}{}",
                        logo.name,
                        part.name,
                        if greyscale { ", greyscale" } else { "" }
                    );
                    for (w, n) in was.iter().zip(&now) {
                        let (had, has) = (contrast(luminance(*w), lb), contrast(luminance(*n), la));
                        if has < need {
                            failures.push(format!("{case}: {has:.2}:1 after, needs {need:.2}:1"));
                        }
                        if contrast(luminance(*w), la) >= need && w != n {
                            failures.push(format!(
                                "{case}: read ({had:.2}:1) but changed {} → {}",
                                hex(*w),
                                hex(*n)
                            ));
                        }
                    }
                    let (had, has) = (
                        contrast(luminance(was[0]), lb),
                        contrast(luminance(now[0]), la),
                    );
                    let seen = part.on.map_or("page", |q| logo.parts[q].name);
                    println!(
                        "| {} | {} | {theme:?} | {} | {seen} | {} | {had:.2} | {} | {has:.2} |",
                        logo.name,
                        part.name,
                        if greyscale { "yes" } else { "no" },
                        hex(was[0]),
                        hex(now[0])
                    );
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
fn neither_option_leaves_the_text_as_it_was_and_a_broken_document_is_refused() {
    let text = sanitised(LOGOS[0].svg);
    assert_eq!(recolour(&text, false, None).unwrap(), text);
    assert!(recolour("<svg", true, Some(Theme::Dark)).is_err());
    assert!(recolour("not svg", false, Some(Theme::Light)).is_err());
}
