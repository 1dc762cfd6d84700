//! `cargo run --release --example jpeg_shrink_quality -- DIR SHARP_JSON`: imagecore's PSNR (R, G,
//! B) on the JPEG shrink-on-load quality cases, natively, beside sharp's recorded figure. DIR
//! holds the sources as `KIND_SIDE.jpg` (`test/support/jpeg_quality_inputs.ts` makes them); the
//! reference is the full decode and one Lanczos3 convolution, as in `bench/jpeg_quality_bench.ts`.
use imagecore::raster::decode::decode;
use imagecore::raster::pipeline::{transform, Options};
use imagecore::raster::resize::resize_lanczos3;

fn psnr(a: &[u8], b: &[u8]) -> f64 {
    let mut squared = 0.0;
    let mut n = 0.0;
    for (p, q) in a.chunks_exact(4).zip(b.chunks_exact(4)) {
        for c in 0..3 {
            squared += (f64::from(p[c]) - f64::from(q[c])).powi(2);
            n += 1.0;
        }
    }
    10.0 * (255.0f64 * 255.0 / (squared / n)).log10()
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let dir = &args[1];
    let sharp = std::fs::read_to_string(&args[2]).expect("sharp figures");
    let mut worst = f64::INFINITY;
    for kind in ["logo", "line grid", "text rows", "photo"] {
        for side in [512u32, 1024, 2048] {
            let path = format!("{dir}/{}_{side}.jpg", kind.replace(' ', "_"));
            let jpeg = std::fs::read(&path).expect("source");
            let (full, ()) = decode(&jpeg, |_, _| Ok(())).expect("decode");
            for width in [32u32, 64, 100, 128, 200, 256, 512] {
                if width >= side {
                    continue;
                }
                let reference =
                    resize_lanczos3(full.pixels.clone(), side, side, width, width).expect("ref");
                let options = Options {
                    width: Some(width),
                    ..Options::default()
                };
                let out = transform(&jpeg, &options).expect("transform");
                let got = image::load_from_memory(&out.bytes).expect("png").to_rgba8();
                let ours = psnr(got.as_raw(), &reference);
                let name = format!("{kind} {side}→{width}");
                let theirs: f64 = sharp
                    .lines()
                    .find(|l| l.contains(&format!("\"{name}\"")))
                    .and_then(|l| l.split(':').nth(1))
                    .and_then(|v| v.trim().trim_end_matches(',').parse().ok())
                    .unwrap_or(f64::NAN);
                let margin = ours - theirs;
                if margin.is_finite() {
                    worst = worst.min(margin);
                }
                let flag = if margin < -0.5 || ours < 30.0 {
                    "FAIL"
                } else {
                    ""
                };
                println!("{name}\t{ours:.1}\t{theirs:.1}\t{margin:+.1}\t{flag}");
            }
        }
    }
    println!("worst margin {worst:.2}");
}
