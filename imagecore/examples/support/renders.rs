//! The 128-px renders of the encoder table examples (each source file decoded and resized as the
//! request path does, in colour and in greyscale, before any encode), and their timed encode.
use imagecore::raster::decode::decode;
use imagecore::raster::encode::effort::Effort;
use imagecore::raster::encode::png::{encode_png_with, Forced};
use imagecore::raster::resize::grey::resize_grey;
use imagecore::raster::resize::{output_size, resize};
use std::time::Instant;

/// One render: the file's name, `colour` or `grey`, straight-alpha RGBA8 pixels and their size.
pub struct Render {
    pub name: String,
    pub op: &'static str,
    pub pixels: Vec<u8>,
    pub width: u32,
    pub height: u32,
}

/// The colour and greyscale 128-px renders of every file in `paths`, in order.
pub fn renders(paths: impl Iterator<Item = String>) -> impl Iterator<Item = Render> {
    paths.flat_map(|path| {
        let bytes = std::fs::read(&path).expect("read");
        let (source, (w, h)) = decode(&bytes, |w, h| output_size(w, h, 128)).expect("decode");
        let name = path.rsplit('/').next().unwrap_or(&path).to_string();
        [false, true].map(|grey| {
            let pixels = source.pixels.clone();
            let out = if grey {
                resize_grey(pixels, source.width, source.height, w, h)
            } else {
                resize(pixels, source.width, source.height, w, h)
            }
            .expect("resize");
            Render {
                name: name.clone(),
                op: if grey { "grey" } else { "colour" },
                pixels: out,
                width: w,
                height: h,
            }
        })
    })
}

/// The bytes of `render`'s PNG encoded at `effort` with `forced` choices, and the fastest of five
/// encodes' native ms.
pub fn encoded(render: &Render, effort: Effort, forced: Forced) -> (usize, f64) {
    let mut best = f64::INFINITY;
    let mut bytes = 0;
    for _ in 0..5 {
        let mut copy = render.pixels.clone();
        let mut out = Vec::new();
        let start = Instant::now();
        encode_png_with(
            &mut out,
            &mut copy,
            render.width,
            render.height,
            effort,
            forced,
        )
        .expect("encode");
        best = best.min(start.elapsed().as_secs_f64() * 1000.0);
        bytes = out.len();
    }
    (bytes, best)
}
