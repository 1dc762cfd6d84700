//! Colour steps, shared by both WASM modules: [`greyscale`], and [`theme`] (each part of a logo
//! that does not read on the page moved the least lightness that makes it, in OKLab:
//! [`lightness`], [`contrast_target`]). The raster module applies them to pixels; the SVG module
//! plans the theme on a rasterisation and applies it to the document's colours.

pub mod contrast_target;
pub mod greyscale;
pub mod lightness;
pub mod theme;
mod theme_palette;
pub mod theme_parts;
pub mod theme_regions;
