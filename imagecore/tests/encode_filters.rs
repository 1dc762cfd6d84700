//! The PNG encoder's row filters (src/raster/encode/png_filter.rs) and when it uses them: rows of
//! photo-like and gradient images are filtered, rows of flat logos are not, grey images with more
//! than 16 shades are grey + alpha rather than a palette, and every output decodes to the pixels.
mod common;

use image::{ImageBuffer, Rgba, RgbaImage};
use imagecore::raster::encode::effort::Effort;
use imagecore::raster::encode::png::{encode_png, encode_png_with, Forced};

/// The filter byte of each row, the colour type and the bytes a row of `png`.
fn filter_bytes(png: &[u8]) -> (Vec<u8>, u8) {
    let (mut at, mut idat, mut header) = (8, Vec::new(), (0u32, 0u32, 0u8, 0u8));
    while at + 8 <= png.len() {
        let len = u32::from_be_bytes(png[at..at + 4].try_into().expect("4 bytes")) as usize;
        let (kind, data) = (&png[at + 4..at + 8], &png[at + 8..at + 8 + len]);
        if kind == b"IHDR" {
            let word = |i: usize| u32::from_be_bytes(data[i..i + 4].try_into().expect("4 bytes"));
            header = (word(0), word(4), data[8], data[9]);
        }
        if kind == b"IDAT" {
            idat.extend_from_slice(data);
        }
        at += 12 + len;
    }
    let (width, height, depth, colour) = header;
    let channels = match colour {
        0 | 3 => 1,
        4 => 2,
        2 => 3,
        _ => 4,
    };
    let row = (width as usize * channels * depth as usize).div_ceil(8) + 1;
    let raw = fdeflate::decompress_to_vec(&idat).expect("zlib");
    assert_eq!(raw.len(), row * height as usize);
    (raw.chunks_exact(row).map(|r| r[0]).collect(), colour)
}

fn encoded(image: &RgbaImage) -> Vec<u8> {
    let mut pixels = image.as_raw().clone();
    let png = encode_png(&mut pixels, image.width(), image.height(), Effort::Fast).expect("png");
    let back = image::load_from_memory(&png).expect("decode").to_rgba8();
    assert_eq!(back.as_raw(), image.as_raw(), "lossless");
    png
}

#[test]
fn photo_like_and_gradient_rows_are_filtered() {
    let gradient = ImageBuffer::from_fn(128, 96, |x, y| {
        Rgba([(x * 2) as u8, (y * 2) as u8, (x + y) as u8, 255])
    });
    for (name, image) in [("noise", common::busy(130, 70)), ("gradient", gradient)] {
        let (filters, _) = filter_bytes(&encoded(&image));
        assert!(
            filters.iter().any(|&f| f != 0) && filters.iter().all(|&f| f <= 4),
            "{name}: {filters:?}"
        );
    }
}

#[test]
fn flat_logo_rows_stay_unfiltered() {
    // A disc with a soft edge: many colours (no palette), but mostly runs of one colour.
    let soft = ImageBuffer::from_fn(128, 128, |x, y| {
        let d = ((x as f32 - 64.0).hypot(y as f32 - 64.0) - 40.0).clamp(0.0, 19.0);
        let a = (255.0 - d * 12.75) as u8;
        Rgba([(x / 8 * 16) as u8, (y / 8 * 16) as u8, 200, a])
    });
    let (filters, colour) = filter_bytes(&encoded(&soft));
    assert_eq!(colour, 6, "RGBA");
    assert!(filters.iter().all(|&f| f == 0), "{filters:?}");
}

#[test]
fn a_grey_image_with_many_shades_is_grey_alpha_not_a_palette() {
    let shades = ImageBuffer::from_fn(64, 64, |x, y| {
        let v = ((x / 8 + y / 8 * 8) * 4) as u8;
        Rgba([v, v, v, if x < 32 { 255 } else { 128 }])
    });
    let (_, colour) = filter_bytes(&encoded(&shades));
    assert_eq!(colour, 4, "grey + alpha");
    let few = ImageBuffer::from_fn(64, 64, |x, _| {
        let v = (x / 8 * 30) as u8;
        Rgba([v, v, v, 200])
    });
    let (_, colour) = filter_bytes(&encoded(&few));
    assert_eq!(colour, 3, "8 shades stay a palette");
}

/// `image` encoded with the encoder's choices, and with run-length deflate forced on and off.
fn by_strategy(image: &RgbaImage) -> [Vec<u8>; 3] {
    [None, Some(true), Some(false)].map(|rle| {
        let mut pixels = image.as_raw().clone();
        let mut png = Vec::new();
        let forced = Forced {
            rle,
            ..Forced::default()
        };
        let (w, h) = image.dimensions();
        encode_png_with(&mut png, &mut pixels, w, h, Effort::Fast, forced).expect("png");
        let back = image::load_from_memory(&png).expect("decode").to_rgba8();
        assert_eq!(back.as_raw(), image.as_raw(), "lossless");
        png
    })
}

#[test]
fn a_photos_noisy_rows_are_run_length_coded_and_a_gradients_are_not() {
    // Photo-like: a smooth ramp under fine noise of a few levels, so its filtered residuals are
    // small but rarely zero; the gradient's are mostly zero.
    let mut state = 0x2545_f491u32;
    let photo = ImageBuffer::from_fn(128, 128, |x, y| {
        state ^= state << 13;
        state ^= state >> 17;
        state ^= state << 5;
        let n = (state >> 28) as u8;
        Rgba([
            (x as u8).wrapping_add(n),
            (y as u8).wrapping_add(n / 2),
            90 + n,
            255,
        ])
    });
    let gradient = ImageBuffer::from_fn(128, 96, |x, y| {
        Rgba([(x * 2) as u8, (y * 2) as u8, (x + y) as u8, 255])
    });
    let [chosen, rle, search] = by_strategy(&photo);
    assert!(filter_bytes(&chosen).0.iter().any(|&f| f != 0), "filtered");
    assert_ne!(rle, search);
    assert_eq!(chosen, rle, "the photo is run-length coded");
    let [chosen, rle, search] = by_strategy(&gradient);
    assert_ne!(rle, search);
    assert_eq!(chosen, search, "the gradient keeps the match search");
}
