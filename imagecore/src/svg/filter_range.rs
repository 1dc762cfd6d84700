//! Range check of filter primitives' numbers, at the output size, before resvg runs a filter:
//! resvg's filters and tiny-skia panic on some extreme values (an `feOffset dy="3e9"` is an
//! `unreachable` trap in WASM). Every length a primitive takes — the filter region and each
//! primitive's subregion, offsets, shadow offsets, standard deviations, morphology radii, the
//! displacement scale, light positions — must lie within [`MAX_DEVICE_COORD`] output pixels once
//! scaled, and no region may have overflowed `f32` in user space (`svg::budget::saturated`); every
//! other number (lighting constants, convolution divisor, bias and kernel, turbulence frequency
//! times the reachable extent) must be finite and bounded. A value out of range is refused as
//! `too_large`, like every other budget.

use crate::error::Result;
use crate::svg::budget::{saturated, MAX_DEVICE_COORD};
use crate::svg::prepass::too_complex;
use resvg::tiny_skia::{NonZeroRect, Transform};
use resvg::usvg::filter::{Filter, Kind, LightSource, Primitive};

/// Largest unitless filter number (lighting constants and exponents, convolution divisor and bias).
pub const MAX_FILTER_NUMBER: f32 = 1e6;
/// Largest turbulence frequency times the user-space extent it is sampled over (noise lattice
/// coordinates stay far inside `i32`).
const MAX_NOISE_COORD: f32 = 1e8;

fn refuse(what: &str) -> crate::error::Error {
    too_complex(format!("filter {what} out of range at this size"))
}

fn length(value: f32, scale: f32, what: &str) -> Result<()> {
    let device = value * scale;
    if device.is_finite() && device.abs() <= MAX_DEVICE_COORD {
        Ok(())
    } else {
        Err(refuse(what))
    }
}

/// A blur's standard deviation only sets box sizes, which resvg clamps to the region: a huge one
/// costs no more than a small one (`stdDeviation="1e6"` renders at 1200 px), so only values far
/// past any region are refused.
const MAX_DEVICE_STD_DEV: f32 = 1e8;

fn std_dev(value: f32, scale: f32) -> Result<()> {
    let device = value * scale;
    if device.is_finite() && device <= MAX_DEVICE_STD_DEV {
        Ok(())
    } else {
        Err(refuse("standard deviation"))
    }
}

fn number(value: f32, what: &str) -> Result<()> {
    if value.is_finite() && value.abs() <= MAX_FILTER_NUMBER {
        Ok(())
    } else {
        Err(refuse(what))
    }
}

fn region(rect: NonZeroRect, ts: Transform, what: &str) -> Result<()> {
    // A region that overflowed f32 in user space (usvg's objectBoundingBox product, clamped by
    // the patched tiny-skia-path) is out of range whatever the scale.
    if saturated(rect) {
        return Err(refuse(what));
    }
    let device = rect.transform(ts).ok_or_else(|| refuse(what))?;
    for v in [device.left(), device.top(), device.right(), device.bottom()] {
        length(v, 1.0, what)?;
    }
    Ok(())
}

/// Refuses a filter whose region, or any primitive's number, is out of range when drawn with `ts`.
pub fn check(filter: &Filter, ts: Transform) -> Result<()> {
    region(filter.rect(), ts, "region")?;
    for primitive in filter.primitives() {
        check_primitive(primitive, ts)?;
    }
    Ok(())
}

fn check_primitive(primitive: &Primitive, ts: Transform) -> Result<()> {
    region(primitive.rect(), ts, "subregion")?;
    let (sx, sy) = ts.get_scale();
    let s = sx.max(sy);
    match primitive.kind() {
        Kind::Offset(o) => {
            length(o.dx(), sx, "offset")?;
            length(o.dy(), sy, "offset")?;
        }
        Kind::DropShadow(d) => {
            length(d.dx(), sx, "shadow offset")?;
            length(d.dy(), sy, "shadow offset")?;
            std_dev(d.std_dev_x().get(), sx)?;
            std_dev(d.std_dev_y().get(), sy)?;
        }
        Kind::GaussianBlur(b) => {
            std_dev(b.std_dev_x().get(), sx)?;
            std_dev(b.std_dev_y().get(), sy)?;
        }
        Kind::Morphology(m) => {
            length(m.radius_x().get(), sx, "radius")?;
            length(m.radius_y().get(), sy, "radius")?;
        }
        Kind::DisplacementMap(d) => length(d.scale(), s, "displacement scale")?,
        Kind::Turbulence(t) => {
            // Sampled in user space over the subregion, which is within MAX_DEVICE_COORD px.
            let reach = |scale: f32| MAX_DEVICE_COORD / scale.max(f32::MIN_POSITIVE);
            let x = t.base_frequency_x().get() * reach(sx);
            let y = t.base_frequency_y().get() * reach(sy);
            if t.seed() == i32::MIN {
                return Err(refuse("turbulence seed")); // resvg negates it (an overflow)
            }
            if !(x.is_finite() && y.is_finite() && x <= MAX_NOISE_COORD && y <= MAX_NOISE_COORD) {
                return Err(refuse("turbulence frequency"));
            }
        }
        Kind::ConvolveMatrix(c) => {
            number(c.divisor().get(), "divisor")?;
            number(c.bias(), "bias")?;
            for &v in c.matrix().data() {
                number(v, "kernel value")?;
            }
        }
        Kind::DiffuseLighting(l) => {
            number(l.surface_scale(), "surface scale")?;
            number(l.diffuse_constant(), "diffuse constant")?;
            light(l.light_source(), sx, sy)?;
        }
        Kind::SpecularLighting(l) => {
            number(l.surface_scale(), "surface scale")?;
            number(l.specular_constant(), "specular constant")?;
            number(l.specular_exponent(), "specular exponent")?;
            light(l.light_source(), sx, sy)?;
        }
        _ => {}
    }
    Ok(())
}

fn light(source: LightSource, sx: f32, sy: f32) -> Result<()> {
    let s = sx.max(sy);
    match source {
        LightSource::DistantLight(d) => {
            number(d.azimuth, "light angle")?;
            number(d.elevation, "light angle")
        }
        LightSource::PointLight(p) => {
            length(p.x, sx, "light position")?;
            length(p.y, sy, "light position")?;
            length(p.z, s, "light position")
        }
        LightSource::SpotLight(p) => {
            for (v, scale) in [
                (p.x, sx),
                (p.y, sy),
                (p.z, s),
                (p.points_at_x, sx),
                (p.points_at_y, sy),
                (p.points_at_z, s),
            ] {
                length(v, scale, "light position")?;
            }
            number(p.specular_exponent.get(), "specular exponent")
        }
    }
}
