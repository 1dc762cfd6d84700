//! Where each part of a logo is seen ([`crate::colour::theme`]): against the page, or against the
//! part it lies inside.
//!
//! Every visible pixel counts for the part its colour is nearest to ([`nearest`]). A part is seen
//! against the page when at least [`PAGE_SHARE`] of its edge is the logo's *outline* — visible
//! pixels that are translucent or touch a translucent pixel or the image's edge. Any other part
//! lies inside the logo (the white text of a badge, the disc on a tile), seen against the part its
//! edge touches most among those placed already: parts seen against the page first, then parts
//! inside them, and so on, so the part a part lies on is always decided before it.
//!
//! [`nearest`]: crate::colour::theme_parts::nearest

use crate::colour::theme_parts::MAX_PARTS;

/// Share of a part's edge on the outline from which it is seen against the page.
pub const PAGE_SHARE: f32 = 0.1;

/// Where a part is seen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Seen {
    /// Against the page.
    OnPage,
    /// Inside the part of this index.
    Inside(usize),
}

/// Whether the visible pixel at (x, y) is on the outline.
fn on_outline(pixels: &[u8], width: usize, height: usize, x: usize, y: usize) -> bool {
    let translucent = |x: usize, y: usize| pixels[(y * width + x) * 4 + 3] < 255;
    translucent(x, y)
        || x == 0
        || y == 0
        || x + 1 == width
        || y + 1 == height
        || translucent(x - 1, y)
        || translucent(x + 1, y)
        || translucent(x, y - 1)
        || translucent(x, y + 1)
}

/// Where each of `parts` parts is seen, and the order to decide them in (each after the part it
/// lies inside). `part_of(i)` is the part of the visible pixel at index `i`.
pub(crate) fn seen(
    pixels: &[u8],
    width: usize,
    parts: usize,
    mut part_of: impl FnMut(usize) -> usize,
) -> (Vec<Seen>, Vec<usize>) {
    let height = pixels.len() / 4 / width;
    // Counts of pixels, each weighted by its alpha (of a pair, the lesser): the faint pixels of an
    // edge, whose colours resampling leaves least exact, count least.
    let mut outline = [0f32; MAX_PARTS];
    let mut edge = [0f32; MAX_PARTS];
    let mut touching = [[0f32; MAX_PARTS]; MAX_PARTS];
    // The part and alpha of each pixel of the row above and of this one (usize::MAX where
    // transparent).
    let mut above = vec![(usize::MAX, 0f32); width];
    for y in 0..height {
        let mut left = (usize::MAX, 0f32);
        for (x, up) in above.iter_mut().enumerate() {
            let i = y * width + x;
            let alpha = f32::from(pixels[i * 4 + 3]) / 255.0;
            let part = if alpha == 0.0 { usize::MAX } else { part_of(i) };
            if part != usize::MAX {
                if on_outline(pixels, width, height, x, y) {
                    outline[part] += alpha;
                    edge[part] += alpha;
                }
                for (other, other_alpha) in [left, *up] {
                    if other != usize::MAX && other != part {
                        let weight = alpha.min(other_alpha);
                        touching[part][other] += weight;
                        touching[other][part] += weight;
                        edge[part] += weight;
                        edge[other] += weight;
                    }
                }
            }
            *up = (part, alpha);
            left = (part, alpha);
        }
    }
    let mut seen: Vec<Option<Seen>> = (0..parts)
        .map(|p| {
            let on_page = edge[p] == 0.0 || outline[p] >= PAGE_SHARE * edge[p];
            on_page.then_some(Seen::OnPage)
        })
        .collect();
    let mut order: Vec<usize> = (0..parts).filter(|&p| seen[p].is_some()).collect();
    loop {
        let placed: Vec<(usize, usize)> = (0..parts)
            .filter(|&p| seen[p].is_none())
            .filter_map(|p| {
                let best = (0..parts)
                    .filter(|&q| seen[q].is_some() && touching[p][q] > 0.0)
                    .max_by(|&q, &r| touching[p][q].total_cmp(&touching[p][r]))?;
                Some((p, best))
            })
            .collect();
        if placed.is_empty() {
            break;
        }
        for (p, q) in placed {
            seen[p] = Some(Seen::Inside(q));
            order.push(p);
        }
    }
    // A part touching no placed part (none can: every visible region reaches the outline through
    // its neighbours) would be judged against the page.
    for (p, s) in seen.iter_mut().enumerate() {
        if s.is_none() {
            *s = Some(Seen::OnPage);
            order.push(p);
        }
    }
    (
        seen.into_iter()
            .map(|s| s.unwrap_or(Seen::OnPage))
            .collect(),
        order,
    )
}
