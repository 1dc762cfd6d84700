//! `cargo run --release --example png_deflate_table -- FILE…`: for each source file, its 128-px
//! render in colour and in greyscale (the request path's decode and resize), as the encoder writes
//! it: whether its rows are filtered, the share of zero bytes in its scanlines, and
//! bytes and native ms with zlib's match search and with run-length coding, at the request path's
//! effort and at `Small`, beside the encoder's own choice — the measurements behind
//! `encode::png_deflate`'s `NOISY_ZERO_PERCENT`. `bench/bench_inputs.ts` makes the sources.
use imagecore::raster::encode::effort::Effort;
use imagecore::raster::encode::png::{encode_png_with, Forced};

#[path = "support/renders.rs"]
mod support;
use support::{renders, Render};

/// Bytes and ms of `r` encoded with run-length deflate forced where `Some`.
fn encoded(r: &Render, effort: Effort, rle: Option<bool>) -> (usize, f64) {
    let forced = Forced {
        rle,
        ..Forced::default()
    };
    support::encoded(r, effort, forced)
}

/// Whether any row of `png` (of `height` rows) is filtered, and the share of zero bytes in its
/// inflated IDAT data (a filtered row's residuals).
fn scanlines(png: &[u8], height: usize) -> (bool, f64) {
    let mut idat = Vec::new();
    let mut at = 8;
    while at + 12 <= png.len() {
        let length = u32::from_be_bytes(png[at..at + 4].try_into().expect("length")) as usize;
        if &png[at + 4..at + 8] == b"IDAT" {
            idat.extend_from_slice(&png[at + 8..at + 8 + length]);
        }
        at += 12 + length;
    }
    let raw = fdeflate::decompress_to_vec(&idat).expect("inflate");
    let line = raw.len() / height.max(1);
    let filtered = raw.chunks(line.max(1)).any(|row| row[0] != 0);
    let zeros = raw.iter().filter(|&&b| b == 0).count() as f64 * 100.0 / raw.len() as f64;
    (filtered, zeros)
}

fn main() {
    println!("source\top\tfiltered\tzero %\tchosen\tfast B\tfast ms\tfast rle B\tfast rle ms\tsmall B\tsmall ms\tsmall rle B\tsmall rle ms");
    for r in renders(std::env::args().skip(1)) {
        let (out, w, h) = (&r.pixels, r.width, r.height);
        let mut png = Vec::new();
        encode_png_with(
            &mut png,
            &mut out.clone(),
            w,
            h,
            Effort::Fast,
            Forced::default(),
        )
        .expect("encode");
        let (fast, fast_ms) = encoded(&r, Effort::Fast, Some(false));
        let (fast_rle, fast_rle_ms) = encoded(&r, Effort::Fast, Some(true));
        let (small, small_ms) = encoded(&r, Effort::Small, Some(false));
        let (small_rle, small_rle_ms) = encoded(&r, Effort::Small, Some(true));
        let chosen = if png.len() == fast_rle && png.len() != fast {
            "rle"
        } else {
            "search"
        };
        let (filtered, zeros) = scanlines(&png, h as usize);
        let (name, op) = (&r.name, r.op);
        println!("{name}\t{op}\t{filtered}\t{zeros:.1}\t{chosen}\t{fast}\t{fast_ms:.3}\t{fast_rle}\t{fast_rle_ms:.3}\t{small}\t{small_ms:.3}\t{small_rle}\t{small_rle_ms:.3}");
    }
}
