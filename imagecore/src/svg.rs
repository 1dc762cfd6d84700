//! SVG: recognised by its root element, parsed by usvg and rasterised by resvg at the output size
//! (crisper than rasterising once and resampling).
//!
//! Nothing outside the document is ever loaded: external images, files and fonts resolve to
//! nothing, and text is not rendered (no fonts are bundled). Work is capped by the input size,
//! the number of elements after `<use>` expansion and the output pixel limit.

use crate::error::{Error, ErrorCode, Result};
use crate::geometry::output_size;
use resvg::tiny_skia::{Pixmap, Transform};
use resvg::usvg::{self, ImageHrefResolver, Node, Options, Tree};

/// Largest SVG accepted, in bytes.
pub const MAX_SVG_BYTES: usize = 1024 * 1024;
/// Most elements an SVG may expand to.
pub const MAX_SVG_NODES: usize = 20_000;

fn count_nodes(group: &usvg::Group) -> usize {
    let mut total = 0;
    for node in group.children() {
        total += 1;
        if let Node::Group(child) = node {
            total += count_nodes(child);
        }
        node.subroots(|sub| total += count_nodes(sub));
    }
    total
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
    let options = Options {
        image_href_resolver: ImageHrefResolver {
            resolve_data: ImageHrefResolver::default_data_resolver(),
            resolve_string: Box::new(|_, _| None),
        },
        ..Options::default()
    };
    let tree = Tree::from_data(input, &options).map_err(|e| {
        Error::new(
            ErrorCode::Corrupt,
            format!("Cannot decode image: corrupt data (SVG: {e})"),
        )
    })?;
    if count_nodes(tree.root()) > MAX_SVG_NODES {
        return Err(Error::new(
            ErrorCode::TooLarge,
            format!("Cannot decode image: SVG has more than {MAX_SVG_NODES} elements"),
        ));
    }
    Ok(tree)
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
/// by the aspect ratio. The PNG is an intermediate for the raster module, so it is compressed
/// fast rather than small.
pub fn rasterize_png(input: &[u8], width: u32) -> Result<(Vec<u8>, u32, u32)> {
    let tree = parse(input)?;
    let (src_width, src_height) = size(&tree);
    let target = if width == 0 { src_width } else { width };
    let (width, height) = output_size(src_width, src_height, target)?;
    let pixels = rasterize(&tree, width, height)?;
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
    Ok((out, width, height))
}

/// Rasterises to straight-alpha RGBA8 at exactly `width`×`height`.
pub fn rasterize(tree: &Tree, width: u32, height: u32) -> Result<Vec<u8>> {
    let mut pixmap = Pixmap::new(width, height).ok_or_else(|| {
        Error::new(
            ErrorCode::InvalidArgument,
            "Cannot rasterise SVG: bad output size",
        )
    })?;
    let size = tree.size();
    let transform =
        Transform::from_scale(width as f32 / size.width(), height as f32 / size.height());
    resvg::render(tree, transform, &mut pixmap.as_mut());
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
