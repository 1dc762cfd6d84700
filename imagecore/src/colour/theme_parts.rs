//! The theme's parts ([`crate::colour::theme`]): the few colours a logo is drawn in, found among
//! its palette, and every other colour of it fitted to them — as one part's colour plus a
//! residual (an anti-aliased edge: the same colour at lower alpha, give or take rounding) or as a
//! blend of two parts (the edge between a disc and its tile).
//!
//! Parts are picked greedily, heaviest colour first ([`Entry::weight`] counts a pixel in full
//! inside a flat patch of its colour and a fifth when isolated, so flat areas outweigh edges): a
//! colour becomes a part when it weighs at least [`MIN_PART_SHARE`] of the logo and lies more
//! than [`DISTINCT`] from every part and every blend of two, up to [`MAX_PARTS`]. A recoloured
//! logo maps each colour by its fit ([`Fit::map`]), so an edge pixel follows its part and a blend
//! stays the same blend of the recoloured parts: edges stay clean.

use crate::colour::theme_palette::Entry;

/// Most parts a logo is judged in; the fit of each colour tries every part and pair of them.
pub const MAX_PARTS: usize = 8;
/// Smallest share of the logo's weight a part covers.
pub const MIN_PART_SHARE: f32 = 0.002;
/// Distance in 8-bit RGB from every part and blend of two beyond which a colour is a part of its
/// own (edge noise of a part and blends between two lie well inside it).
pub const DISTINCT: f32 = 32.0;
/// Distance in 8-bit RGB within which a colour fits as one part whatever else it lies near: the
/// edge of a part on transparency is its colour at lower alpha, off by rounding, and in a grey
/// logo every grey also lies on the blend of black and white.
const EDGE_NOISE: f32 = 12.0;
/// What fitting a colour as a blend of two parts costs over fitting it as one part, in RGB
/// distance, plus [`SPAN_COST`] of the blend's span: of two blends that fit as well, the one
/// between nearer colours (the disc and its tile, not the tile's two neighbours) is taken.
const BLEND_COST: f32 = 2.0;
/// See [`BLEND_COST`].
const SPAN_COST: f32 = 0.01;
/// Smallest weight of a part (about three pixels inside a patch).
const MIN_PART_WEIGHT: f32 = 3.0;

/// A colour as parts `a` and `b` (equal for one part) blended at `t` (0: all `a`), plus
/// `residual`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Fit {
    pub(crate) a: u8,
    pub(crate) b: u8,
    pub(crate) t: f32,
    residual: [f32; 3],
    distance: f32,
}

impl Fit {
    /// The part the colour is most of: the nearer end of its blend.
    pub(crate) fn main(&self) -> usize {
        usize::from(if self.t < 0.5 { self.a } else { self.b })
    }

    /// The colour `rgb` (the one fitted) once the parts are recoloured from `parts` to `mapped`:
    /// itself when neither of its parts changed, else the same blend of the new colours plus the
    /// same residual.
    pub(crate) fn map(&self, rgb: [u8; 3], parts: &[[u8; 3]], mapped: &[[u8; 3]]) -> [u8; 3] {
        let (a, b) = (usize::from(self.a), usize::from(self.b));
        if parts[a] == mapped[a] && parts[b] == mapped[b] {
            return rgb;
        }
        let (na, nb) = (channels(mapped[a]), channels(mapped[b]));
        std::array::from_fn(|c| {
            let v = na[c] + (nb[c] - na[c]) * self.t + self.residual[c];
            v.round().clamp(0.0, 255.0) as u8
        })
    }
}

fn channels(rgb: [u8; 3]) -> [f32; 3] {
    rgb.map(f32::from)
}

fn length(v: [f32; 3]) -> f32 {
    (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt()
}

/// The part nearest to `rgb` in RGB (of at least one): the region a pixel of that colour is
/// counted in. A blend between two parts counts for the one it is nearer, as it is more of.
pub(crate) fn nearest(rgb: [u8; 3], parts: &[[u8; 3]]) -> usize {
    let x = channels(rgb);
    let distance = |p: &[u8; 3]| {
        let p = channels(*p);
        (0..3).map(|c| (x[c] - p[c]) * (x[c] - p[c])).sum::<f32>()
    };
    (0..parts.len())
        .min_by(|&i, &j| distance(&parts[i]).total_cmp(&distance(&parts[j])))
        .unwrap_or(0)
}

/// The best fit of `rgb` to `parts` (at least one).
pub(crate) fn fit(rgb: [u8; 3], parts: &[[u8; 3]]) -> Fit {
    let x = channels(rgb);
    let mut best = Fit {
        a: 0,
        b: 0,
        t: 0.0,
        residual: [0.0; 3],
        distance: f32::INFINITY,
    };
    for (i, &a) in parts.iter().enumerate() {
        let pa = channels(a);
        let residual = std::array::from_fn(|c| x[c] - pa[c]);
        let distance = length(residual);
        if distance < best.distance {
            best = Fit {
                a: i as u8,
                b: i as u8,
                t: 0.0,
                residual,
                distance,
            };
        }
    }
    if best.distance <= EDGE_NOISE {
        return best;
    }
    for (i, &a) in parts.iter().enumerate() {
        let pa = channels(a);
        for (j, &b) in parts.iter().enumerate().skip(i + 1) {
            let pb = channels(b);
            let d: [f32; 3] = std::array::from_fn(|c| pb[c] - pa[c]);
            let dd = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
            let along = (0..3).map(|c| (x[c] - pa[c]) * d[c]).sum::<f32>();
            let t = (along / dd).clamp(0.0, 1.0);
            let residual = std::array::from_fn(|c| x[c] - (pa[c] + d[c] * t));
            let distance = length(residual) + BLEND_COST + SPAN_COST * dd.sqrt();
            if distance < best.distance {
                best = Fit {
                    a: i as u8,
                    b: j as u8,
                    t,
                    residual,
                    distance,
                };
            }
        }
    }
    best
}

/// The indices in `entries` of the logo's parts, heaviest first (see the module's rule).
pub(crate) fn select_parts(entries: &[Entry]) -> Vec<usize> {
    let total: f32 = entries.iter().map(|e| e.weight).sum();
    let least = (MIN_PART_SHARE * total).max(MIN_PART_WEIGHT);
    let mut order: Vec<usize> = (0..entries.len())
        .filter(|&i| entries[i].weight >= least)
        .collect();
    order.sort_by(|&i, &j| entries[j].weight.total_cmp(&entries[i].weight));
    let mut parts: Vec<usize> = Vec::new();
    let mut colours: Vec<[u8; 3]> = Vec::new();
    for i in order {
        if parts.len() == MAX_PARTS {
            break;
        }
        let rgb = entries[i].rgb;
        if colours.is_empty() || fit(rgb, &colours).distance > DISTINCT {
            parts.push(i);
            colours.push(rgb);
        }
    }
    parts
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(rgb: [u8; 3], weight: f32) -> Entry {
        Entry { rgb, weight }
    }

    #[test]
    fn blends_and_edge_noise_are_not_parts() {
        let entries = [
            entry([0, 100, 0], 500.0),
            entry([255, 255, 255], 200.0),
            entry([128, 178, 128], 40.0), // half way between the two
            entry([3, 98, 2], 30.0),      // the green's edge
            entry([200, 0, 0], 10.0),     // a small red part
            entry([1, 2, 3], 0.5),        // too light to count
        ];
        let parts = select_parts(&entries);
        assert_eq!(parts, [0, 1, 4]);
    }

    #[test]
    fn a_blend_maps_to_the_same_blend_of_the_new_colours() {
        let parts = [[0, 0, 0], [255, 255, 255]];
        let blend = [64, 64, 64];
        let f = fit(blend, &parts);
        assert_eq!((f.a, f.b), (0, 1));
        assert_eq!(
            f.map(blend, &parts, &parts),
            blend,
            "unchanged parts, unchanged colour"
        );
        let mapped = [[128, 128, 128], [255, 255, 255]];
        assert_eq!(f.map(blend, &parts, &mapped), [160, 160, 160]);
        let edge = [2, 1, 0];
        assert_eq!(
            fit(edge, &parts).map(edge, &parts, &mapped),
            [130, 129, 128]
        );
    }
}
