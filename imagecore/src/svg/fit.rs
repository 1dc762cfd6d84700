//! Drawing an SVG that passes the work budget narrower instead of refusing it: pixel work grows
//! with the output's area, so a logo too costly at the width asked is drawn at a smaller width
//! within `svg::budget::MAX_PIXEL_WORK` and scaled up by the caller (docs/internals/svg.md).

use crate::error::Result;
use crate::svg::budget::{walk, MIN_FIT_SCALE};
use crate::svg::prepass::too_complex;
use resvg::tiny_skia::Transform;
use resvg::usvg::Tree;

/// The size to draw a tree at for a `width`×`height` output: that size when it is within every
/// budget; when only [`MAX_PIXEL_WORK`](crate::svg::budget::MAX_PIXEL_WORK) is passed, the largest
/// of a few smaller sizes (down to [`MIN_FIT_SCALE`] of the width) within it, so that a costly logo
/// is drawn smaller and scaled up rather than refused. Any other limit, or work still over at the
/// smallest size, is refused.
pub fn fit(tree: &Tree, width: u32, height: u32) -> Result<(u32, u32)> {
    let size = tree.size();
    let mut refusal = None;
    for scale in [1.0, 0.85, 0.7, 0.6, 0.5, 0.35, MIN_FIT_SCALE] {
        let w = ((f64::from(width) * scale).round() as u32).max(1);
        let h = ((f64::from(height) * scale).round() as u32).max(1);
        let ts = Transform::from_scale(w as f32 / size.width(), h as f32 / size.height());
        match walk(tree, ts, w, h) {
            (Ok(_), _) => return Ok((w, h)),
            (Err(e), true) => {
                refusal.get_or_insert(e);
            }
            (Err(e), false) => return Err(refusal.unwrap_or(e)),
        }
    }
    Err(refusal.unwrap_or_else(|| too_complex("no size within the budget")))
}
