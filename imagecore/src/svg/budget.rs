//! The second SVG budget, checked on the usvg tree at the output size before resvg draws a pixel:
//! it walks the tree the way resvg renders it (patterns once per use, clip paths, masks and
//! filter images with their group) and refuses, as `too_large`, a tree that would
//!
//! - render more than [`MAX_SVG_ELEMENTS`] elements or nest deeper than [`MAX_SVG_DEPTH`];
//! - draw more than [`MAX_PATH_SEGMENTS`] path segments (dashes included);
//! - apply more than [`MAX_FILTER_PRIMITIVES`] filter primitives;
//! - hold more than [`MAX_LAYER_PIXELS`] pixels of layers, pattern tiles, clip and mask buffers
//!   and filter results at once (memory);
//! - cost more than [`MAX_PIXEL_WORK`] units of work, a unit being about a nanosecond of the WASM
//!   module's time (calibrated in WASM at 1200 px, see docs/internals/svg.md): a fixed cost per path,
//!   the covered area of every fill and stroke (times its paint's cost: translucent colours,
//!   gradients and patterns are slower; five times inside a clip path), scanlines crossed by
//!   every edge, layer compositing, and each filter primitive's region times its per-pixel cost
//!   (a blur's box passes, a morphology's window, a convolution's kernel, turbulence's octaves, a
//!   merge's inputs), with the weights of `svg::work_weights` — `svg::fit::fit` then draws such a
//!   tree smaller instead, down to a quarter of the
//!   width;
//! - put a point, a stroke (its width times its miter limit), a mask region or a pattern tile
//!   further than [`MAX_DEVICE_COORD`] pixels from the origin, or compute a non-finite transform:
//!   tiny-skia panics rasterising such geometry (a `stroke-width="1e30"`, a mask region of `1e30`
//!   units). Filter regions and subregions are range-checked by `svg::filter_range`.
//!
//! The walk stops at the first limit passed, so it is itself bounded by the element limit.

use crate::error::Result;
pub use crate::svg::prepass::{too_complex, MAX_SVG_DEPTH, MAX_SVG_ELEMENTS};
use crate::svg::work_weights::{
    paint_cost, primitive_cost, CLIP_CHILD, CLIP_OR_MASK, FILL_EDGE, FILTER_PRIMITIVE, LAYER,
    LAYER_CANVASES, PATH, STROKE_EDGE,
};
use resvg::tiny_skia::{NonZeroRect, Point, Transform};
use resvg::usvg::{filter, Group, Node, Paint, Path, Tree};

/// Most path segments drawn, dashes included.
pub const MAX_PATH_SEGMENTS: u64 = 250_000;
/// Most filter primitives applied.
pub const MAX_FILTER_PRIMITIVES: u64 = 64;
/// Most pixels held at once in layers, tiles, clip/mask buffers and filter results (4 bytes each).
pub const MAX_LAYER_PIXELS: f64 = 48.0 * 1024.0 * 1024.0;
/// Most units of pixel work in one render. A unit is about a nanosecond of the WASM module's time
/// on a 2-core machine (weights measured in WASM at 1200 px: docs/internals/svg.md), so a render is about
/// half a second at most, leaving the model's error room under the 1-s bar the fuzzer holds.
pub const MAX_PIXEL_WORK: f64 = 5e8;
/// Narrowest fraction of the asked width `svg::fit::fit` draws at before refusing.
pub const MIN_FIT_SCALE: f64 = 0.25;
/// Furthest a point or a stroke may reach from the origin, in output pixels.
pub const MAX_DEVICE_COORD: f32 = 4_194_304.0;
struct Walk {
    canvas: f64,
    elements: u64,
    segments: u64,
    primitives: u64,
    work: f64,
    /// Multiplier of a fill's or stroke's cost: [`CLIP_CHILD`] inside a clip path, else 1.
    draw: f64,
    /// Whether the walk stopped at [`MAX_PIXEL_WORK`] (the one limit drawing smaller relieves).
    over_work: bool,
}

fn area(rect: Option<NonZeroRect>) -> f64 {
    rect.map_or(0.0, |r| f64::from(r.width()) * f64::from(r.height()))
}

fn out_of_range(what: &str) -> crate::error::Error {
    too_complex(format!("{what} beyond {MAX_DEVICE_COORD} px at this size"))
}

/// Where tiny-skia-path's patched `bbox_transform` clamps a region whose user-space extent
/// overflowed `f32` (vendor/README.md): an edge this far out is such a region.
pub(crate) const SATURATED_EDGE: f32 = f32::MAX / 4.0;

/// Whether usvg computed `rect` (a filter, mask or pattern region in `objectBoundingBox` units)
/// from a bounding box so large that it overflowed `f32`: refused at any scale, so that the
/// clamped stand-in never decides what is drawn.
pub(crate) fn saturated(rect: NonZeroRect) -> bool {
    [rect.left(), rect.top(), rect.right(), rect.bottom()]
        .iter()
        .any(|v| v.abs() >= SATURATED_EDGE)
}

/// Refuses a region (a mask's, a pattern tile's) that overflowed `f32` in user space
/// ([`saturated`]) or reaches further than [`MAX_DEVICE_COORD`] once drawn with `ts`: tiny-skia
/// panics filling a mask region of `1e30` user units.
fn check_region(rect: NonZeroRect, ts: Transform, what: &str) -> Result<()> {
    if saturated(rect) {
        return Err(too_complex(format!("{what} overflowing f32 in user space")));
    }
    let reach = rect.transform(ts).map(|r| {
        [r.left(), r.top(), r.right(), r.bottom()]
            .iter()
            .fold(0.0f32, |m, v| m.max(v.abs()))
    });
    match reach {
        Some(reach) if reach.is_finite() && reach <= MAX_DEVICE_COORD => Ok(()),
        _ => Err(out_of_range(&format!("{what} reaching"))),
    }
}

fn check_transform(ts: Transform) -> Result<Transform> {
    if ts.is_finite() && ts.tx.abs() <= MAX_DEVICE_COORD && ts.ty.abs() <= MAX_DEVICE_COORD {
        Ok(ts)
    } else {
        Err(out_of_range("a transform reaching"))
    }
}

impl Walk {
    fn spend(&mut self, work: f64) -> Result<()> {
        self.work += work;
        if self.work > MAX_PIXEL_WORK {
            self.over_work = true;
            return Err(too_complex(format!(
                "over {MAX_PIXEL_WORK:.0} units of pixel work at this size"
            )));
        }
        Ok(())
    }

    fn hold(&self, held: f64) -> Result<f64> {
        if held > MAX_LAYER_PIXELS {
            return Err(too_complex(format!(
                "{held:.0} pixels of layers at once at this size, limit {MAX_LAYER_PIXELS:.0}"
            )));
        }
        Ok(held)
    }

    fn children(
        &mut self,
        g: &Group,
        ts: Transform,
        target: f64,
        depth: usize,
        held: f64,
    ) -> Result<()> {
        for node in g.children() {
            self.elements += 1;
            if self.elements > MAX_SVG_ELEMENTS {
                return Err(too_complex(format!(
                    "over {MAX_SVG_ELEMENTS} elements rendered, limit {MAX_SVG_ELEMENTS}"
                )));
            }
            if depth > MAX_SVG_DEPTH {
                return Err(too_complex(format!(
                    "nested more than {MAX_SVG_DEPTH} levels deep"
                )));
            }
            match node {
                Node::Group(group) => self.group(group, ts, target, depth + 1, held)?,
                Node::Path(path) => self.path(path, ts, target, depth, held)?,
                Node::Text(text) => self.group(text.flattened(), ts, target, depth + 1, held)?,
                Node::Image(_) => {} // never loaded: see svg.rs
            }
        }
        Ok(())
    }

    fn group(
        &mut self,
        g: &Group,
        ts: Transform,
        target: f64,
        depth: usize,
        held: f64,
    ) -> Result<()> {
        let ts = check_transform(ts.pre_concat(g.transform()))?;
        if !g.should_isolate() {
            return self.children(g, ts, target, depth, held);
        }
        let layer = area(g.layer_bounding_box().transform(ts)).min(LAYER_CANVASES * self.canvas);
        let held = self.hold(held + layer)?;
        self.spend(LAYER * layer)?; // allocate, then composite through a shader
        self.children(g, ts, layer, depth, held)?;
        for f in g.filters() {
            let region = area(f.rect().transform(ts)).min(layer);
            let (sx, sy) = ts.get_scale();
            let count = f.primitives().len() as f64;
            self.hold(held + region * (count + 2.0))?; // every result is kept to the end
            crate::svg::filter_range::check(f, ts)?;
            for primitive in f.primitives() {
                self.primitives += 1;
                if self.primitives > MAX_FILTER_PRIMITIVES {
                    return Err(too_complex(format!(
                        "over {MAX_FILTER_PRIMITIVES} filter primitives"
                    )));
                }
                if let filter::Kind::Image(image) = primitive.kind() {
                    self.children(image.root(), ts, region, depth + 1, held + region)?;
                }
                let per_pixel = primitive_cost(primitive.kind(), sx, sy, region.sqrt());
                self.spend(region * (FILTER_PRIMITIVE + per_pixel))?;
            }
        }
        if let Some(clip) = g.clip_path() {
            self.clip(clip, ts, layer, depth, held)?;
        }
        let mut mask = g.mask();
        while let Some(m) = mask {
            check_region(m.rect(), ts, "a mask region")?;
            self.spend(CLIP_OR_MASK * layer)?;
            self.children(
                m.root(),
                ts,
                layer,
                depth + 1,
                self.hold(held + 1.25 * layer)?,
            )?;
            mask = m.mask();
        }
        Ok(())
    }

    fn clip(
        &mut self,
        clip: &resvg::usvg::ClipPath,
        ts: Transform,
        layer: f64,
        depth: usize,
        held: f64,
    ) -> Result<()> {
        self.spend(CLIP_OR_MASK * layer)?;
        let held = self.hold(held + 1.25 * layer)?;
        let ts = check_transform(ts.pre_concat(clip.transform()))?;
        let outer = std::mem::replace(&mut self.draw, CLIP_CHILD);
        let walked = self.children(clip.root(), ts, layer, depth + 1, held);
        self.draw = outer;
        walked?;
        match clip.clip_path() {
            Some(inner) => self.clip(inner, ts, layer, depth + 1, held),
            None => Ok(()),
        }
    }

    fn paint(&mut self, paint: &Paint, ts: Transform, depth: usize, held: f64) -> Result<()> {
        if let Paint::Pattern(pattern) = paint {
            let pattern_ts = check_transform(ts.pre_concat(pattern.transform()))?;
            let rect = pattern.rect();
            check_region(rect, pattern_ts, "a pattern tile")?;
            let (sx, sy) = pattern_ts.get_scale();
            let tile =
                f64::from((rect.width() * sx).round()) * f64::from((rect.height() * sy).round());
            if tile >= 1.0 {
                let held = self.hold(held + tile)?;
                self.spend(tile)?;
                let scale = check_transform(Transform::from_scale(sx, sy))?;
                self.children(pattern.root(), scale, tile, depth + 1, held)?;
            }
        }
        Ok(())
    }

    fn path(
        &mut self,
        path: &Path,
        ts: Transform,
        target: f64,
        depth: usize,
        held: f64,
    ) -> Result<()> {
        if !path.is_visible() {
            return Ok(());
        }
        let data = path.data();
        let points = data.points();
        let mut device = points.to_vec();
        ts.map_points(&mut device);
        let (mut scanlines, mut length) = (0.0f64, 0.0f64);
        let mut previous: Option<(Point, Point)> = None;
        for (&point, &user) in device.iter().zip(points) {
            if !point.is_finite() || point.x.abs().max(point.y.abs()) > MAX_DEVICE_COORD {
                return Err(out_of_range("a point"));
            }
            if let Some((p, u)) = previous {
                scanlines += f64::from((point.y - p.y).abs()) + 1.0;
                length += f64::from(user.distance(u));
            }
            previous = Some((point, user));
        }
        let (sx, sy) = ts.get_scale();
        let device_bounds = data
            .bounds()
            .transform(ts)
            .map_or(0.0, |r| f64::from(r.width()) * f64::from(r.height()));
        self.segments += data.verbs().len() as u64;
        self.spend(self.draw * PATH)?;
        if let Some(fill) = path.fill() {
            let shade = paint_cost(fill.paint(), fill.opacity().get());
            self.spend(self.draw * (shade * device_bounds.min(target) + FILL_EDGE * scanlines))?;
            self.paint(fill.paint(), ts, depth, held)?;
        }
        if let Some(stroke) = path.stroke() {
            let width = stroke.width().get() * sx.max(sy);
            let reach = width * stroke.miterlimit().get().max(1.0);
            if !reach.is_finite() || reach > MAX_DEVICE_COORD {
                return Err(out_of_range("a stroke reaching"));
            }
            if let Some(dashes) = stroke.dasharray() {
                let period: f32 = dashes.iter().sum();
                if period > 0.0 {
                    self.segments +=
                        (length / f64::from(period)).ceil() as u64 * dashes.len() as u64;
                }
            }
            let w = f64::from(width);
            let stroked = (device_bounds.sqrt() + 2.0 * w).powi(2);
            self.spend(
                self.draw
                    * (paint_cost(stroke.paint(), stroke.opacity().get()) * stroked.min(target)
                        + STROKE_EDGE * (scanlines + w * data.verbs().len() as f64)),
            )?;
            self.paint(stroke.paint(), ts, depth, held)?;
        }
        if self.segments > MAX_PATH_SEGMENTS {
            return Err(too_complex(format!(
                "over {MAX_PATH_SEGMENTS} path segments, limit {MAX_PATH_SEGMENTS}"
            )));
        }
        Ok(())
    }
}

/// Refuses a tree over any budget when drawn with `transform` onto a `width`×`height` canvas.
/// Returns the units of pixel work it will cost.
pub fn check(tree: &Tree, transform: Transform, width: u32, height: u32) -> Result<f64> {
    walk(tree, transform, width, height).0
}

/// Walks the tree as [`check`] does; also says whether it stopped at [`MAX_PIXEL_WORK`].
pub(crate) fn walk(
    tree: &Tree,
    transform: Transform,
    width: u32,
    height: u32,
) -> (Result<f64>, bool) {
    let canvas = f64::from(width) * f64::from(height);
    let mut walk = Walk {
        canvas,
        elements: 0,
        segments: 0,
        primitives: 0,
        work: 0.0,
        draw: 1.0,
        over_work: false,
    };
    let walked = check_transform(transform)
        .and_then(|ts| walk.children(tree.root(), ts, canvas, 0, 0.0))
        .map(|()| walk.work);
    (walked, walk.over_work)
}
