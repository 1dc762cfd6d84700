//! SVG: recognised by its root element, parsed by usvg and rasterised by resvg at the output size
//! (crisper than rasterising once and resampling).
//!
//! Nothing outside the document is ever loaded, and no `<image>` is drawn: external images, files
//! and fonts resolve to nothing, `data:` images too (resvg is built without raster decoders, and
//! an SVG inside a `data:` URL would be parsed again for every `<use>` of it). Text is drawn with
//! the one bundled font, whatever family it names (`svg::font`). Work is bounded twice before
//! rendering: on the XML, by `svg::prepass` (nesting depth, elements after `<use>` and marker
//! expansion, characters of text) and
//! `svg::style_check` (huge stroke widths, elements given a filter, CSS included), and on the usvg
//! tree at the output size, by `svg::budget` (elements, segments, filters, layer memory, pixel
//! work, coordinate range). `svg::sanitize` writes the parsed tree back out as the sanitised SVG
//! served for `format=svg`.

pub mod budget;
pub mod exports;
pub mod filter_range;
pub mod fit;
pub mod font;
pub mod monogram;
pub mod prepass;
pub mod recolour;
pub mod sanitize;
pub mod style_check;
pub mod work_weights;

use crate::error::{Error, ErrorCode, Result};
use crate::geometry::output_size;
use resvg::tiny_skia::{Pixmap, Transform};
use resvg::usvg::{self, roxmltree, ImageHrefResolver, Options, Tree};

/// Largest SVG accepted, in bytes.
pub const MAX_SVG_BYTES: usize = 1024 * 1024;
/// Most elements an SVG may expand to.
pub const MAX_SVG_NODES: usize = prepass::MAX_SVG_ELEMENTS as usize;

fn corrupt(detail: impl std::fmt::Display) -> Error {
    Error::new(
        ErrorCode::Corrupt,
        format!("Cannot decode image: corrupt data (SVG: {detail})"),
    )
}

/// Parses an SVG within the caps.
pub fn parse(input: &[u8]) -> Result<Tree> {
    if input.len() > MAX_SVG_BYTES {
        return Err(Error::new(
            ErrorCode::TooLarge,
            format!(
                "Cannot decode image: SVG of {} bytes exceeds the {MAX_SVG_BYTES}-byte limit",
                input.len()
            ),
        ));
    }
    let text = std::str::from_utf8(input).map_err(|_| corrupt("not UTF-8"))?;
    let doc = roxmltree::Document::parse_with_options(text, prepass::xml_options()).map_err(
        |e| match e {
            roxmltree::Error::NodesLimitReached => prepass::too_complex("too many XML nodes"),
            e => corrupt(e.to_string()),
        },
    )?;
    prepass::check(&doc)?;
    style_check::check(&doc)?;
    let options = Options {
        image_href_resolver: ImageHrefResolver {
            resolve_data: Box::new(|_, _, _| None),
            resolve_string: Box::new(|_, _| None),
        },
        font_family: crate::svg::font::FAMILY.to_owned(),
        font_resolver: crate::svg::font::resolver(),
        fontdb: crate::svg::font::database(),
        ..Options::default()
    };
    Tree::from_xmltree(&doc, &options).map_err(|e| match e {
        usvg::Error::ElementsLimitReached => prepass::too_complex(e),
        e => corrupt(e),
    })
}

/// The SVG's intrinsic size in whole pixels (at least 1).
pub fn size(tree: &Tree) -> (u32, u32) {
    let size = tree.size();
    (
        (size.width().ceil() as u32).max(1),
        (size.height().ceil() as u32).max(1),
    )
}

/// Parses, sizes and rasterises `input` to a PNG of `width` px (0: the intrinsic width), height
/// by the aspect ratio — or narrower, down to a quarter, when drawing at that width would pass the
/// pixel-work budget ([`fit::fit`]); the caller scales it to the width asked. The PNG is
/// an intermediate for the raster module, so it is compressed fast rather than small. Returns
/// the PNG and the size it was drawn at.
pub fn rasterize_png(input: &[u8], width: u32) -> Result<(Vec<u8>, u32, u32)> {
    rasterize_png_meant(input, width).map(|(png, width, height, _, _)| (png, width, height))
}

/// [`rasterize_png`], plus the size the image is meant to be shown at: the width asked, or with
/// none the intrinsic width within the limits — not the narrower size an SVG over the work budget
/// was drawn at. The caller scales the PNG to it.
pub fn rasterize_png_meant(input: &[u8], width: u32) -> Result<(Vec<u8>, u32, u32, u32, u32)> {
    let tree = parse(input)?;
    let (src_width, src_height) = size(&tree);
    let target = if width == 0 { src_width } else { width };
    let (meant_width, meant_height) = output_size(src_width, src_height, target)?;
    let (width, height) = fit::fit(&tree, meant_width, meant_height)?;
    let pixels = draw(&tree, width, height)?;
    let mut out = Vec::with_capacity(pixels.len() / 4);
    let mut encoder = png::Encoder::new(&mut out, width, height);
    encoder.set_color(png::ColorType::Rgba);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.set_compression(png::Compression::Fast);
    let failed = |e: png::EncodingError| {
        Error::new(ErrorCode::Internal, format!("Cannot encode image: {e}"))
    };
    let mut writer = encoder.write_header().map_err(failed)?;
    writer.write_image_data(&pixels).map_err(failed)?;
    writer.finish().map_err(failed)?;
    Ok((out, width, height, meant_width, meant_height))
}

fn scale_to(tree: &Tree, width: u32, height: u32) -> Transform {
    let size = tree.size();
    Transform::from_scale(width as f32 / size.width(), height as f32 / size.height())
}

/// Draws a tree, already fitted to the budgets at this size ([`fit::fit`]), to
/// straight-alpha RGBA8 at exactly `width`×`height`.
pub(crate) fn draw(tree: &Tree, width: u32, height: u32) -> Result<Vec<u8>> {
    let mut pixmap = Pixmap::new(width, height).ok_or_else(|| {
        Error::new(
            ErrorCode::InvalidArgument,
            "Cannot rasterise SVG: bad output size",
        )
    })?;
    resvg::render(tree, scale_to(tree, width, height), &mut pixmap.as_mut());
    let mut pixels = pixmap.take();
    for pixel in pixels.chunks_exact_mut(4) {
        let alpha = u32::from(pixel[3]);
        if alpha != 0 && alpha != 255 {
            for c in &mut pixel[..3] {
                *c = ((u32::from(*c) * 255 + alpha / 2) / alpha).min(255) as u8;
            }
        }
    }
    Ok(pixels)
}
