//! The 128-px renders of the encoder table examples: each source file decoded and resized as the
//! request path does, in colour and in greyscale, before any encode.
use imagecore::raster::decode::decode;
use imagecore::raster::resize::grey::resize_grey;
use imagecore::raster::resize::{output_size, resize};

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
