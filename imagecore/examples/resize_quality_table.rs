//! `cargo run --release --example resize_quality_table`: for each test source and size of
//! tests/resize_quality.rs (and 512²/1024² → 128), the PSNR in dB of every box pre-shrink factor
//! k against one full Lanczos3 convolution: the measurements behind `PRE_SHRINK_GAP`.
#[path = "../tests/common/mod.rs"]
mod common;

use common::quality::psnr;
use common::quality_inputs::SOURCES;
use imagecore::raster::resize::{output_size, resize_with};

fn main() {
    let sizes = [
        (512, 512, 128),
        (1024, 1024, 128),
        (2048, 512, 128),
        (1000, 1000, 128),
        (600, 400, 100),
        (1024, 1024, 32),
        (777, 333, 61),
    ];
    for (w, h, width) in sizes {
        for (name, source) in SOURCES {
            let image = source(w, h);
            let (ow, oh) = output_size(w, h, width).expect("size");
            let reference = resize_with(image.as_raw().clone(), w, h, ow, oh, 1).expect("resize");
            let mut line = format!("{name:10} {w}x{h}->{ow}x{oh}");
            for k in 2..=(w / ow).min(h / oh) {
                let fast = resize_with(image.as_raw().clone(), w, h, ow, oh, k).expect("resize");
                line += &format!(" k{k}:{:.1}", psnr(&fast, &reference));
            }
            println!("{line}");
        }
    }
}
