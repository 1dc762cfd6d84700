//! The weights of the SVG work model (`svg::budget`): units of work — about a nanosecond of the
//! WASM module's time each — per pixel or per scanline of each thing resvg does, measured in WASM
//! at 1200 px with full-canvas shapes (`bench/svg_budget_bench.ts` prints them beside the time).

use resvg::usvg::{filter, Paint};

/// Fixed work per path drawn (building, flattening and dispatching it): 5000 circles of half a
/// pixel took 86 ms in WASM.
pub const PATH: f64 = 17_000.0;
/// Work per pixel of a layer (allocated, drawn into, composited with a bilinear shader).
pub const LAYER: f64 = 20.0;
/// Work per layer pixel of a clip path or a mask (a second buffer, then a mask pass).
pub const CLIP_OR_MASK: f64 = 30.0;
/// Work per region pixel of any filter primitive (copies, colour-space conversion, result), on
/// top of the primitive's own cost.
pub const FILTER_PRIMITIVE: f64 = 50.0;
/// Work per scanline an edge of a fill crosses (four sub-scanlines of anti-aliasing): 5000
/// circles of 66 px radius took 550 ms in WASM, 200 of 480 px 215 ms — 1.2 µs per pixel of
/// radius beyond the area.
pub const FILL_EDGE: f64 = 250.0;
/// Work per scanline an edge of a stroke's outline crosses (two sides).
pub const STROKE_EDGE: f64 = 500.0;
/// A clip path's child costs this many times the same fill drawn normally: resvg clears it out
/// of the clip buffer with the `Clear` blend mode, off tiny-skia's fast pipeline (measured in
/// WASM at 800 px: 1000 circles of r = 175 px took 1.9 s in a clip path, 0.46 s drawn).
pub const CLIP_CHILD: f64 = 5.0;
/// Work per pixel of a fill's or stroke's bounding box by its paint, measured in WASM at 1200 px
/// over full-canvas shapes: an anti-aliased opaque path about 2 ns per pixel (a plain rect is
/// faster, 0.5), translucent 7.3–8.6, a pattern 12, a linear gradient 15, a radial one 29 —
/// blending and shading run off tiny-skia's fast path.
pub fn paint_cost(paint: &Paint, opacity: f32) -> f64 {
    match paint {
        Paint::Color(_) if opacity >= 1.0 => 2.0,
        Paint::Color(_) => 10.0,
        _ => 30.0, // gradients and patterns
    }
}
/// resvg clips layers and filter regions to five times the canvas each way.
pub const LAYER_CANVASES: f64 = 25.0;

/// Work per region pixel of a filter primitive, on top of [`FILTER_PRIMITIVE`]: a blur's box
/// passes, a morphology's window (radii in device pixels, capped at the region's `side`), a
/// convolution's kernel, turbulence's octaves, lighting, a merge's inputs.
pub fn primitive_cost(kind: &filter::Kind, sx: f32, sy: f32, side: f64) -> f64 {
    match kind {
        filter::Kind::GaussianBlur(_) | filter::Kind::DropShadow(_) => 450.0,
        filter::Kind::Morphology(m) => {
            let rx = (f64::from(m.radius_x().get() * sx)).min(side);
            let ry = (f64::from(m.radius_y().get() * sy)).min(side);
            4.0 * (2.0 * rx + 1.0) * (2.0 * ry + 1.0)
        }
        filter::Kind::ConvolveMatrix(c) => {
            25.0 * f64::from(c.matrix().columns()) * f64::from(c.matrix().rows())
        }
        filter::Kind::Turbulence(t) => 300.0 * f64::from(t.num_octaves().max(1)),
        filter::Kind::DiffuseLighting(_) | filter::Kind::SpecularLighting(_) => 150.0,
        // Each input is copied and composited over the region (5000 `feMergeNode`s
        // at 128 px took 0.8 s in WASM).
        filter::Kind::Merge(m) => FILTER_PRIMITIVE * m.inputs().len() as f64,
        // An image's content is walked as a child of the filter (`svg::budget`).
        _ => 0.0,
    }
}
