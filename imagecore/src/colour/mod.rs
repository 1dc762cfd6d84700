//! Colour steps of the pipeline: [`greyscale`], and [`theme`] (lightness inverted in OKLab,
//! [`lightness`], when the logo's palette says it helps).

pub mod greyscale;
pub mod lightness;
pub mod theme;
mod theme_palette;
