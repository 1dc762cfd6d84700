#![cfg(feature = "raster")]
//! PNG chunk CRCs are checked by `decode::png_chunks` before a decode with the `png` crate's own
//! check off, and by the crate when any of them fails: a PNG decodes, or is refused, as it would
//! with the crate's check alone.
mod common;

use common::hostile::chunk;
use image::codecs::png::PngEncoder;
use image::{ExtendedColorType, ImageEncoder, RgbImage};
use imagecore::error::ErrorCode;
use imagecore::raster::decode::png_chunks::pixel_chunks_check_out;
use imagecore::raster::pipeline::{transform, Options};

/// The chunks of a well-formed PNG, each whole (length, type, data, CRC).
fn chunks(png: &[u8]) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    let mut at = 8;
    while at < png.len() {
        let length = u32::from_be_bytes(png[at..at + 4].try_into().expect("length")) as usize;
        out.push(png[at..at + 12 + length].to_vec());
        at += 12 + length;
    }
    out
}

/// A PNG of the signature and `chunks`.
fn assemble(chunks: &[Vec<u8>]) -> Vec<u8> {
    let mut out = b"\x89PNG\r\n\x1a\n".to_vec();
    chunks.iter().for_each(|c| out.extend_from_slice(c));
    out
}

fn flip_crc(chunk: &mut [u8]) {
    if let Some(last) = chunk.last_mut() {
        *last ^= 1;
    }
}

/// An opaque RGB PNG, 96×64: its left half (10, 20, 30), its right half busy; the image data
/// split into three `IDAT` chunks.
fn rgb_png() -> Vec<u8> {
    let busy = common::busy(96, 64);
    let image = RgbImage::from_fn(96, 64, |x, y| {
        let p = busy.get_pixel(x, y).0;
        image::Rgb(if x < 48 {
            [10, 20, 30]
        } else {
            [p[0], p[1], p[2]]
        })
    });
    let mut png = Vec::new();
    PngEncoder::new(&mut png)
        .write_image(&image, 96, 64, ExtendedColorType::Rgb8)
        .expect("encode png");
    let parts = chunks(&png);
    let data: Vec<u8> = parts
        .iter()
        .filter(|c| &c[4..8] == b"IDAT")
        .flat_map(|c| c[8..c.len() - 4].to_vec())
        .collect();
    let third = data.len() / 3;
    let mut out = vec![parts[0].clone()];
    for piece in [&data[..third], &data[third..2 * third], &data[2 * third..]] {
        out.push(chunk(b"IDAT", piece));
    }
    out.push(chunk(b"IEND", &[]));
    assemble(&out)
}

fn at(width: u32, greyscale: bool) -> Options {
    Options {
        width: Some(width),
        greyscale,
        ..Options::default()
    }
}

#[test]
fn every_chunk_a_decode_reads_is_checked() {
    let png = rgb_png();
    assert!(pixel_chunks_check_out(&png), "a whole PNG");
    let parts = chunks(&png);
    let text = chunk(b"tEXt", b"Comment\0logo");
    let mut bad_text = text.clone();
    flip_crc(&mut bad_text);
    let mut bad_second_idat = parts.clone();
    flip_crc(&mut bad_second_idat[2]);
    let mut bad_ihdr = parts.clone();
    flip_crc(&mut bad_ihdr[0]);
    let insert = |index: usize, extra: &[u8]| {
        let mut out = parts.clone();
        out.insert(index, extra.to_vec());
        assemble(&out)
    };
    let cases = [
        (
            "a bad CRC on the second IDAT",
            assemble(&bad_second_idat),
            false,
        ),
        ("a bad CRC on IHDR", assemble(&bad_ihdr), false),
        (
            "a bad CRC on a chunk before IDAT",
            insert(1, &bad_text),
            false,
        ),
        ("a good chunk before IDAT", insert(1, &text), true),
        (
            "a bad CRC on a chunk after the IDATs (not read)",
            insert(4, &bad_text),
            true,
        ),
        (
            "cut inside the last IDAT",
            png[..png.len() - 20].to_vec(),
            false,
        ),
        (
            "no IDAT",
            assemble(&[parts[0].clone(), parts[4].clone()]),
            false,
        ),
        ("no signature", png[8..].to_vec(), false),
    ];
    for (what, input, expected) in cases {
        assert_eq!(pixel_chunks_check_out(&input), expected, "{what}");
    }
}

#[test]
fn a_bad_crc_in_the_image_data_is_refused_in_both_paths() {
    let mut parts = chunks(&rgb_png());
    flip_crc(&mut parts[2]);
    let input = assemble(&parts);
    for greyscale in [false, true] {
        let error = transform(&input, &at(32, greyscale)).expect_err("a bad IDAT CRC");
        assert_eq!(error.code, ErrorCode::Corrupt, "{}", error.message);
        assert!(error.message.contains("CRC"), "{}", error.message);
    }
}

#[test]
fn a_bad_crc_on_trns_drops_it_as_the_png_crate_does() {
    let parts = chunks(&rgb_png());
    let trns = chunk(b"tRNS", &[0, 10, 0, 20, 0, 30]);
    let mut bad_trns = trns.clone();
    flip_crc(&mut bad_trns);
    let with = |extra: &[u8]| {
        let mut out = parts.clone();
        out.insert(1, extra.to_vec());
        assemble(&out)
    };
    let plain = assemble(&parts);
    for greyscale in [false, true] {
        let options = at(32, greyscale);
        let render = |input: &[u8]| transform(input, &options).expect("decodes").bytes;
        assert_ne!(
            render(&with(&trns)),
            render(&plain),
            "tRNS makes the left half clear"
        );
        assert_eq!(render(&with(&bad_trns)), render(&plain), "grey {greyscale}");
    }
}
