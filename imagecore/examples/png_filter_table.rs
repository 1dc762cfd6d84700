//! `cargo run --release --example png_filter_table -- FILE…`: for each source file, its 128-px
//! render in colour and in greyscale (the request path's decode and resize), encoded as PNG with
//! every row unfiltered and with adaptive row filters (`encode::png_filter`), at the request
//! path's effort and at `Small`: bytes and native ms of each, the measurements behind the filter
//! rule of `encode::png`. `bench/bench_inputs.ts` makes the benchmark's sources.
use imagecore::raster::encode::effort::Effort;
use imagecore::raster::encode::png::Forced;

#[path = "support/renders.rs"]
mod support;
use support::{renders, Render};

/// Bytes and ms of `r` encoded with filtering and the palette forced where `Some`.
fn encoded(
    r: &Render,
    effort: Effort,
    adaptive: Option<bool>,
    palette: Option<bool>,
) -> (usize, f64) {
    let forced = Forced {
        adaptive,
        palette,
        rle: None,
    };
    support::encoded(r, effort, forced)
}

fn main() {
    println!("source\top\tnone B\tadaptive B\tchosen B\tno palette B\tno palette none B\tnone ms\tadaptive ms\tsmall none B\tsmall adaptive B");
    for r in renders(std::env::args().skip(1)) {
        let (none, none_ms) = encoded(&r, Effort::Fast, Some(false), None);
        let (adaptive, adaptive_ms) = encoded(&r, Effort::Fast, Some(true), None);
        let (chosen, _) = encoded(&r, Effort::Fast, None, None);
        let (nopal, _) = encoded(&r, Effort::Fast, None, Some(false));
        let (nopal_none, _) = encoded(&r, Effort::Fast, Some(false), Some(false));
        let (small_none, _) = encoded(&r, Effort::Small, Some(false), None);
        let (small_adaptive, _) = encoded(&r, Effort::Small, Some(true), None);
        let (name, op) = (&r.name, r.op);
        println!("{name}\t{op}\t{none}\t{adaptive}\t{chosen}\t{nopal}\t{nopal_none}\t{none_ms:.3}\t{adaptive_ms:.3}\t{small_none}\t{small_adaptive}");
    }
}
