#![cfg(feature = "raster")]
//! Faint colours made canonical (`encode::faint_colours`) cannot be seen: on rings, strokes, soft
//! shadows, translucent gradients, badges and text resized as the request path resizes them, the
//! composite over black, mid grey and white moves by less than half a level at every pixel (so at
//! most one level after rounding), alpha and opaque pixels are byte-identical, and `transform`
//! writes exactly those pixels, in fewer bytes than without.
mod common;

use common::quality_inputs::{badge, ring, text, Source};
use common::theme_logos::draw;
use image::{ImageBuffer, Rgba, RgbaImage};
use imagecore::raster::encode::effort::Effort;
use imagecore::raster::encode::faint_colours::{canonical, reach, snap_faint_colours};
use imagecore::raster::encode::png::encode_png;
use imagecore::raster::pipeline::{transform, Options};
use imagecore::raster::resize::grey::resize_grey;
use imagecore::raster::resize::{output_size, resize};

const BACKGROUNDS: [u8; 3] = [0, 128, 255];

/// Thin strokes on transparency: a grid of 3-unit dark-grey lines and a blue diagonal, the
/// benchmark's "strokes" kind (anti-aliased, so their edges are faint after a resize).
fn strokes(width: u32, height: u32) -> RgbaImage {
    let s = width as f32 / 512.0;
    draw(width, height, &|x, y| {
        let (u, v) = (x / s, y / s);
        if (u - v).abs() < 2.0 {
            Some([20, 90, 200])
        } else {
            (u % 16.0 < 3.0 || v % 16.0 < 3.0).then_some([66, 66, 66])
        }
    })
}

/// A soft shadow: a dark disc whose alpha falls off smoothly to 0, under a flat orange square.
fn shadow(width: u32, height: u32) -> RgbaImage {
    let (cx, cy, r) = (
        width as f32 * 0.55,
        height as f32 * 0.55,
        width as f32 * 0.4,
    );
    ImageBuffer::from_fn(width, height, |x, y| {
        let (u, v) = (
            x as f32 - width as f32 * 0.3,
            y as f32 - height as f32 * 0.3,
        );
        if (0.0..width as f32 * 0.4).contains(&u) && (0.0..height as f32 * 0.4).contains(&v) {
            return Rgba([249, 115, 22, 255]);
        }
        let d = ((x as f32 - cx).powi(2) + (y as f32 - cy).powi(2)).sqrt() / r;
        let alpha = (1.0 - d).clamp(0.0, 1.0).powi(2) * 160.0;
        Rgba([30, 27, 75, alpha as u8])
    })
}

/// A gradient in colour and in alpha: every alpha from 0 to 255 across the image.
fn gradient(width: u32, height: u32) -> RgbaImage {
    ImageBuffer::from_fn(width, height, |x, y| {
        Rgba([
            (x * 255 / width) as u8,
            (y * 255 / height) as u8,
            200,
            ((x + y) * 255 / (width + height)) as u8,
        ])
    })
}

const SOURCES: [(&str, Source); 6] = [
    ("ring", ring),
    ("strokes", strokes),
    ("shadow", shadow),
    ("gradient", gradient),
    ("badge", badge),
    ("text", text),
];

/// `width`-px renders of every source at 512² (colour and greyscale), as the request path
/// resizes them: (name, width, height, pixels before snapping).
fn renders() -> Vec<(String, u32, u32, Vec<u8>)> {
    let mut out = Vec::new();
    for (name, source) in SOURCES {
        for width in [128, 100, 37] {
            let image = source(512, 512);
            let (w, h) = output_size(512, 512, width).expect("size");
            let colour = resize(image.clone().into_raw(), 512, 512, w, h).expect("resize");
            let grey = resize_grey(image.into_raw(), 512, 512, w, h).expect("resize grey");
            out.push((format!("{name} {width} colour"), w, h, colour));
            out.push((format!("{name} {width} grey"), w, h, grey));
        }
    }
    out
}

/// A pixel's channel composited over `background`, exactly (in levels, not rounded).
fn over(c: u8, alpha: u8, background: u8) -> f64 {
    (f64::from(c) * f64::from(alpha) + f64::from(background) * f64::from(255 - alpha)) / 255.0
}

/// Where `after` is not an invisible change of `before`: alpha changed, an opaque pixel changed,
/// or a composite over one of [`BACKGROUNDS`] moved by half a level or more (exactly) or by more
/// than one level after rounding. Each entry names the pixel.
fn violations(before: &[u8], after: &[u8]) -> Vec<String> {
    let mut found = Vec::new();
    for (i, (b, a)) in before
        .chunks_exact(4)
        .zip(after.chunks_exact(4))
        .enumerate()
    {
        let alpha = b[3];
        if a[3] != alpha || (alpha == 255 && a != b) {
            found.push(format!("pixel {i}: {b:?} became {a:?}"));
            continue;
        }
        for background in BACKGROUNDS {
            for (&cb, &ca) in b[..3].iter().zip(&a[..3]) {
                let (x, y) = (over(cb, alpha, background), over(ca, alpha, background));
                if (x - y).abs() >= 0.5 || (x.round() - y.round()).abs() > 1.0 {
                    found.push(format!("pixel {i}: {b:?} → {a:?} over {background}"));
                }
            }
        }
    }
    found
}

#[test]
fn snapped_renders_composite_within_a_level_over_black_grey_and_white() {
    let (mut changed, mut translucent) = (0usize, 0usize);
    for (name, _, _, before) in renders() {
        let mut after = before.clone();
        snap_faint_colours(&mut after);
        let found = violations(&before, &after);
        assert!(
            found.is_empty(),
            "{name}: {:?}",
            &found[..found.len().min(5)]
        );
        let mut again = after.clone();
        snap_faint_colours(&mut again);
        assert_eq!(again, after, "{name}: snapping twice is snapping once");
        for (b, a) in before.chunks_exact(4).zip(after.chunks_exact(4)) {
            translucent += usize::from(b[3] != 0 && b[3] != 255);
            changed += usize::from(a != b);
        }
    }
    // Not a no-op: over a third of the translucent pixels move (81,157 of 186,112 when written;
    // those at alpha 128 and above have no reach).
    assert!(
        changed * 3 > translucent,
        "{changed} of {translucent} changed"
    );
}

#[test]
fn the_check_fails_one_step_past_the_reach() {
    // Just over the bound: one more step than `reach` moves a composite by half a level or more.
    for alpha in 1..255u8 {
        let step = reach(alpha) + 1;
        let (before, after) = ([100, 100, 100, alpha], [100 + step, 100, 100, alpha]);
        assert!(!violations(&before, &after).is_empty(), "alpha {alpha}");
        let within = [100 + reach(alpha), 100, 100, alpha];
        assert!(violations(&before, &within).is_empty(), "alpha {alpha}");
    }
    // And a snap that reaches twice as far is caught on the renders.
    let mut caught = 0;
    for (_, _, _, before) in renders() {
        let mut after = before.clone();
        for pixel in after
            .chunks_exact_mut(4)
            .filter(|p| p[3] != 0 && p[3] != 255)
        {
            let far = reach(pixel[3]).saturating_mul(2).saturating_add(1);
            for c in &mut pixel[..3] {
                *c = canonical(*c, far);
            }
        }
        caught += usize::from(!violations(&before, &after).is_empty());
    }
    assert!(caught > 0, "a snap past the bound went unnoticed");
}

#[test]
fn transform_writes_the_snapped_pixels_in_fewer_bytes() {
    let (mut snapped_bytes, mut plain_bytes) = (0usize, 0usize);
    for (name, source) in SOURCES {
        let image = source(512, 512);
        let input = common::png(&image);
        let out = transform(
            &input,
            &Options {
                width: Some(128),
                ..Options::default()
            },
        )
        .expect(name);
        let mut expected = resize(image.into_raw(), 512, 512, 128, 128).expect("resize");
        let mut plain = expected.clone();
        snap_faint_colours(&mut expected);
        for pixel in expected.chunks_exact_mut(4).filter(|p| p[3] == 0) {
            pixel.fill(0);
        }
        let decoded = image::load_from_memory(&out.bytes)
            .expect(name)
            .into_rgba8();
        assert!(decoded.into_raw() == expected, "{name}: transform's pixels");
        snapped_bytes += out.bytes.len();
        plain_bytes += encode_png(&mut plain, 128, 128, Effort::Fast)
            .expect(name)
            .len();
    }
    assert!(
        snapped_bytes < plain_bytes,
        "{snapped_bytes} ≥ {plain_bytes}"
    );
}

#[test]
fn a_render_at_the_sources_own_size_keeps_its_pixels() {
    let image = shadow(64, 64);
    let out = transform(&common::png(&image), &Options::default()).expect("same size");
    let mut expected = image.into_raw();
    for pixel in expected.chunks_exact_mut(4).filter(|p| p[3] == 0) {
        pixel.fill(0);
    }
    let decoded = image::load_from_memory(&out.bytes)
        .expect("decodes")
        .into_rgba8();
    assert!(decoded.into_raw() == expected);
}
