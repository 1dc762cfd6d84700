//! Draws the pictures of docs/use/behaviour.md's theme section into a folder (docs/use/theme/):
//! `cargo run --manifest-path imagecore/Cargo.toml --example theme_pictures -- docs/use/theme`
//!
//! Each picture is one logo in four panels: as stored on a white page, `theme=light` on a white
//! page, as stored on a black page, `theme=dark` on a black page. The logos are the ones
//! tests/theme.rs and tests/theme_contrast.rs pin.

#[path = "../tests/common/part_logos.rs"]
mod part_logos;
#[path = "../tests/common/theme_logos.rs"]
mod theme_logos;

use image::{ImageFormat, Rgba, RgbaImage};
use imagecore::colour::theme::Theme;
use imagecore::raster::encode::encode;
use imagecore::raster::format::OutputFormat;
use imagecore::raster::pipeline::{transform, Options};
use theme_logos::{self as logos, BLACK, INDIGO, RED, WHITE, YELLOW};

const PAD: u32 = 12;

/// `logo` through the pipeline with `theme` (and `greyscale`), as RGBA pixels.
fn render(logo: &RgbaImage, theme: Option<Theme>, greyscale: bool) -> RgbaImage {
    let mut source = Vec::new();
    logo.write_to(&mut std::io::Cursor::new(&mut source), ImageFormat::Png)
        .expect("encode");
    let options = Options {
        theme,
        greyscale,
        format: OutputFormat::Png,
        ..Options::default()
    };
    let out = transform(&source, &options).expect("transform");
    image::load_from_memory(&out.bytes)
        .expect("decode")
        .to_rgba8()
}

/// Draws `logo` over `page` into `canvas` at (x, y).
fn composite(canvas: &mut RgbaImage, logo: &RgbaImage, page: [u8; 3], x: u32, y: u32) {
    for (lx, ly, p) in logo.enumerate_pixels() {
        let a = u32::from(p[3]);
        let mix = |c: u8, b: u8| ((u32::from(c) * a + u32::from(b) * (255 - a) + 127) / 255) as u8;
        let out = Rgba([
            mix(p[0], page[0]),
            mix(p[1], page[1]),
            mix(p[2], page[2]),
            255,
        ]);
        canvas.put_pixel(x + lx, y + ly, out);
    }
}

fn picture(logo: &RgbaImage, greyscale: bool) -> RgbaImage {
    let (w, h) = (logo.width() + 2 * PAD, logo.height() + 2 * PAD);
    let mut canvas = RgbaImage::new(4 * w, h);
    let panels = [
        (None, WHITE),
        (Some(Theme::Light), WHITE),
        (None, BLACK),
        (Some(Theme::Dark), BLACK),
    ];
    for (i, (theme, page)) in panels.into_iter().enumerate() {
        let x0 = i as u32 * w;
        for y in 0..h {
            for x in x0..x0 + w {
                canvas.put_pixel(x, y, Rgba([page[0], page[1], page[2], 255]));
            }
        }
        composite(
            &mut canvas,
            &render(logo, theme, greyscale),
            page,
            x0 + PAD,
            PAD,
        );
    }
    canvas
}

fn main() {
    let folder = std::env::args()
        .nth(1)
        .expect("usage: theme_pictures FOLDER");
    let parts = part_logos::all();
    let (green, badge) = (parts[0].draw(), parts[2].draw());
    let cases = [
        ("green_tile", green.clone(), false),
        ("green_tile_grey", green, true),
        ("black_badge", badge, false),
        ("black_mark", logos::mark(BLACK), false),
        ("white_mark", logos::mark(WHITE), false),
        ("orange_badge", logos::orange_badge(), false),
        ("indigo_mark", logos::mark(INDIGO), false),
        ("two_colour", logos::two_colour(RED, BLACK), false),
        ("yellow_mark", logos::mark(YELLOW), false),
        ("opaque_tile", logos::opaque_tile(), false),
    ];
    for (name, logo, greyscale) in cases {
        let path = format!("{folder}/{name}.png");
        // imagecore's own encoder: a palette PNG, a few kB.
        let mut canvas = picture(&logo, greyscale);
        let (w, h) = canvas.dimensions();
        let bytes = encode(&mut canvas, w, h, OutputFormat::Png).expect("encode picture");
        std::fs::write(&path, bytes).expect("write picture");
        println!("{path}");
    }
}
