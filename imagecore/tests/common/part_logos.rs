//! Logos of two and three colours with their parts named, for measuring the theme's contrast
//! (tests/theme_contrast.rs): each is a list of parts, each part a colour, where it is seen (the
//! page, or the part it lies inside) and its shape, painted front to back with 4×4 supersampled,
//! anti-aliased edges on transparency, so the test knows which pixels lie wholly inside a part.
#![allow(dead_code)]

use image::{Rgba, RgbaImage};

/// Where a part is seen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum On {
    /// Against the page.
    Page,
    /// Inside the part of this index.
    Part(usize),
}

/// A part's shape: whether it covers a point.
pub type Shape = Box<dyn Fn(f32, f32) -> bool>;

/// One colour region of a logo.
pub struct Part {
    pub name: &'static str,
    pub colour: [u8; 3],
    pub on: On,
    pub shape: Shape,
}

/// A logo: its size and parts, the first part that covers a point painting it.
pub struct Logo {
    pub name: &'static str,
    pub width: u32,
    pub height: u32,
    pub parts: Vec<Part>,
}

const N: u32 = 4;

impl Logo {
    /// The part each subsample of pixel (x, y) shows, or `None` (transparent).
    fn samples(&self, x: u32, y: u32) -> impl Iterator<Item = Option<usize>> + '_ {
        (0..N * N).map(move |s| {
            let px = x as f32 + ((s % N) as f32 + 0.5) / N as f32;
            let py = y as f32 + ((s / N) as f32 + 0.5) / N as f32;
            self.parts.iter().position(|p| (p.shape)(px, py))
        })
    }

    /// The logo drawn.
    pub fn draw(&self) -> RgbaImage {
        RgbaImage::from_fn(self.width, self.height, |x, y| {
            let (mut sum, mut hits) = ([0u32; 3], 0u32);
            for part in self.samples(x, y).flatten() {
                for (s, v) in sum.iter_mut().zip(self.parts[part].colour) {
                    *s += u32::from(v);
                }
                hits += 1;
            }
            if hits == 0 {
                return Rgba([0, 0, 0, 0]);
            }
            let [r, g, b] = sum.map(|s| ((s + hits / 2) / hits) as u8);
            Rgba([r, g, b, ((hits * 255 + N * N / 2) / (N * N)) as u8])
        })
    }

    /// The part that wholly covers pixel (x, y), if one does.
    pub fn whole(&self, x: u32, y: u32) -> Option<usize> {
        let mut samples = self.samples(x, y);
        let first = samples.next()??;
        samples.all(|s| s == Some(first)).then_some(first)
    }
}

pub fn rect(x0: f32, y0: f32, x1: f32, y1: f32) -> Shape {
    Box::new(move |x, y| x >= x0 && x < x1 && y >= y0 && y < y1)
}

pub fn disc(cx: f32, cy: f32, r: f32) -> Shape {
    Box::new(move |x, y| (x - cx).powi(2) + (y - cy).powi(2) <= r * r)
}

pub fn rounded(x0: f32, y0: f32, x1: f32, y1: f32, r: f32) -> Shape {
    Box::new(move |x, y| {
        let cx = x.clamp(x0 + r, x1 - r);
        let cy = y.clamp(y0 + r, y1 - r);
        x >= x0 && x < x1 && y >= y0 && y < y1 && (x - cx).powi(2) + (y - cy).powi(2) <= r * r
    })
}

/// Three letter-like blocks of "text" from `left`, `top`, each `w`×`h` with a hole (strokes of
/// `stroke`).
pub fn text(left: f32, top: f32, w: f32, h: f32, stroke: f32) -> Shape {
    Box::new(move |x, y| {
        (0..3).any(|i| {
            let l = left + (w + stroke) * i as f32;
            let inside = x >= l && x < l + w && y >= top && y < top + h;
            let hole =
                x >= l + stroke && x < l + w - stroke && y >= top + stroke && y < top + h - stroke;
            inside && !hole
        })
    })
}

fn part(name: &'static str, colour: [u8; 3], on: On, shape: Shape) -> Part {
    Part {
        name,
        colour,
        on,
        shape,
    }
}

pub const WHITE: [u8; 3] = [255, 255, 255];
pub const BLACK: [u8; 3] = [0, 0, 0];

/// The logos the theme's contrast is measured on.
pub fn all() -> Vec<Logo> {
    vec![
        // Issue 33's two-tone SVG: a green rounded tile with a white disc, dark-green text beside.
        Logo {
            name: "green tile, white disc, dark-green text",
            width: 256,
            height: 96,
            parts: vec![
                part("disc", WHITE, On::Part(1), disc(48.0, 48.0, 22.0)),
                part(
                    "tile",
                    [0x34, 0xa8, 0x53],
                    On::Page,
                    rounded(6.0, 6.0, 90.0, 90.0, 16.0),
                ),
                part(
                    "text",
                    [0x14, 0x53, 0x2d],
                    On::Page,
                    text(104.0, 26.0, 40.0, 44.0, 12.0),
                ),
            ],
        },
        Logo {
            name: "black text",
            width: 160,
            height: 64,
            parts: vec![part(
                "text",
                BLACK,
                On::Page,
                text(8.0, 10.0, 40.0, 44.0, 10.0),
            )],
        },
        Logo {
            name: "black badge, white text",
            width: 192,
            height: 64,
            parts: vec![
                part(
                    "text",
                    WHITE,
                    On::Part(1),
                    text(30.0, 14.0, 36.0, 36.0, 9.0),
                ),
                part(
                    "badge",
                    BLACK,
                    On::Page,
                    rounded(2.0, 2.0, 190.0, 62.0, 14.0),
                ),
            ],
        },
        Logo {
            name: "red disc, navy bar",
            width: 160,
            height: 64,
            parts: vec![
                part("disc", [0xd6, 0x28, 0x28], On::Page, disc(32.0, 32.0, 26.0)),
                part(
                    "bar",
                    [0x1d, 0x35, 0x57],
                    On::Page,
                    rect(68.0, 18.0, 156.0, 46.0),
                ),
            ],
        },
        Logo {
            name: "yellow text on a white badge",
            width: 192,
            height: 64,
            parts: vec![
                part(
                    "text",
                    [0xfa, 0xcc, 0x15],
                    On::Part(1),
                    text(30.0, 14.0, 36.0, 36.0, 9.0),
                ),
                part(
                    "badge",
                    WHITE,
                    On::Page,
                    rounded(2.0, 2.0, 190.0, 62.0, 14.0),
                ),
            ],
        },
        Logo {
            name: "yellow mark, white text",
            width: 192,
            height: 64,
            parts: vec![
                part("mark", [0xfa, 0xcc, 0x15], On::Page, disc(32.0, 32.0, 26.0)),
                part("text", WHITE, On::Page, text(70.0, 12.0, 36.0, 40.0, 9.0)),
            ],
        },
        Logo {
            name: "thin strokes",
            width: 96,
            height: 96,
            parts: vec![
                part("frame", [0x33, 0x33, 0x33], On::Page, {
                    let (outer, inner) = (rect(8.0, 8.0, 88.0, 88.0), rect(11.0, 11.0, 85.0, 85.0));
                    Box::new(move |x, y| outer(x, y) && !inner(x, y))
                }),
                part("cross", [0x1e, 0x1b, 0x4b], On::Page, {
                    let (h, v) = (rect(20.0, 46.0, 76.0, 49.0), rect(46.0, 20.0, 49.0, 76.0));
                    Box::new(move |x, y| h(x, y) || v(x, y))
                }),
            ],
        },
        Logo {
            name: "anti-aliased circles: white dot in red disc in black ring",
            width: 96,
            height: 96,
            parts: vec![
                part("dot", WHITE, On::Part(1), disc(48.3, 47.7, 9.6)),
                part(
                    "disc",
                    [0xe6, 0x39, 0x46],
                    On::Part(2),
                    disc(48.3, 47.7, 26.4),
                ),
                part("ring", BLACK, On::Page, disc(48.3, 47.7, 40.2)),
            ],
        },
        Logo {
            name: "orange badge, white text",
            width: 192,
            height: 64,
            parts: vec![
                part(
                    "text",
                    WHITE,
                    On::Part(1),
                    text(46.0, 16.0, 28.0, 32.0, 8.0),
                ),
                part(
                    "badge",
                    [249, 115, 22],
                    On::Page,
                    rounded(2.0, 2.0, 190.0, 62.0, 14.0),
                ),
            ],
        },
    ]
}
